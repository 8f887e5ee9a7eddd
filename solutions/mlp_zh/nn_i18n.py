"""The language of the check messages: English (this edition), or Chinese in the Chinese edition (``mlp_zh``).

Every message is built in English (the checks, the diagnosis and the grader read it, e.g. ``Likely cause:``) and
translated only where it is shown: ``CheckFailed`` in the notebook, the public checks' "passed" line, and the
feedback HTML. ``translate`` works line by line: a line is looked up whole in ``ZH`` (causes, formulas), else
matched against the templates of ``ZH`` (``{name}`` is any text, translated in turn; ``{raw...}`` is kept as it
is: code, numbers, shapes); text that matches nothing is kept (code such as ``Linear(3, 2)``). The Chinese
edition's copy of this file differs from this one in ``LANGUAGE`` only (the kit generates it).
"""

from __future__ import annotations

import logging
import re
from functools import cache
from typing import Any

LANGUAGE = "zh"
"""The language messages are shown in: "en" or "zh"."""

WIDTH = {"en": 80, "zh": 60}
"""Characters per line a message is wrapped to in a notebook (a Chinese character is about two columns wide)."""

ZH: tuple[tuple[str, str], ...] = (
    # --- the parts of a message: the structure of every failure
    ("Likely cause: {cause}", "可能的原因：{cause}"),
    ("The formula: {formula}", "公式：{formula}"),
    ("in your code: {raw_line}", "出错的代码：{raw_line}"),
    (
        "Write it in place of `raise NotImplementedError()`, run its cell, then this check again.",
        "请在 `raise NotImplementedError()` 的位置写上你的代码，运行它所在的单元格，然后再运行这项检查。",
    ),
    ("{part}: public checks passed.", "{part}：公开检查全部通过。"),
    (
        "No Chinese font found: the plots' Chinese labels show as boxes (install one, e.g. Noto Sans CJK SC).",
        "没有找到中文字体：图中的中文标签会显示为方框（请安装一种中文字体，例如 Noto Sans CJK SC）。",
    ),
    ("{what}: `{raw_method}` is not written yet.", "{what}：`{raw_method}` 还没有实现。"),
    ("{what} raised {raw_exception}: {raw_message}", "{what} 抛出了 {raw_exception}：{raw_message}"),
    (
        "{what}: expected the Parameters {raw_names} with shapes {raw_shapes}, got {raw_count} arrays with shapes "
        "{raw_found}.",
        "{what}：应为参数 {raw_names}，形状为 {raw_shapes}；实际得到 {raw_count} 个数组，形状为 {raw_found}。",
    ),
    ("{what}: expected it unchanged, got it changed", "{what}：应保持不变，实际被修改了"),
    ("{raw_model}: the layers ran in the order {raw_calls}", "{raw_model}：各层的实际调用顺序为 {raw_calls}"),
    (
        "{raw_name}: expected the class from its answer cell, but it is not defined.",
        "{raw_name}：这个类应由它的答案单元格定义，但它没有被定义。",
    ),
    (
        "{what}: expected to finish within {raw_seconds} CPU seconds, but it was still running.",
        "{what}：应在 {raw_seconds} CPU 秒内完成，但它仍在运行。",
    ),
    (
        "{what}: expected to finish within {raw_seconds} s of CPU time, but it was still running.",
        "{what}：应在 {raw_seconds} 秒 CPU 时间内完成，但它仍在运行。",
    ),
    (
        "{what}: expected to finish within {raw_seconds} s, but it was still running.",
        "{what}：应在 {raw_seconds} 秒内完成，但它仍在运行。",
    ),
    ("{what}: the check stopped before this step.", "{what}：检查在这一步之前就停止了。"),
    (
        "This check could not finish: the worker process running your code {reason}, twice.",
        "这项检查无法完成：运行你代码的工作进程{reason}，两次都是如此。",
    ),
    (
        "This check could not finish: the worker process running your code {reason}, {raw_count} times in a row.",
        "这项检查无法完成：运行你代码的工作进程{reason}，连续 {raw_count} 次都是如此。",
    ),
    (
        "This check could not finish: the worker process running your code {reason}.",
        "这项检查无法完成：运行你代码的工作进程{reason}。",
    ),
    (
        "used almost no CPU for {raw_seconds} s (it waited for something that never came)",
        "在 {raw_seconds} 秒内几乎没有使用 CPU（它在等待永远不会到来的东西）",
    ),
    ("used its {raw_seconds} s of CPU time", "用完了它的 {raw_seconds} 秒 CPU 时间"),
    (
        "This check's record could not be read ({raw_problem}).",
        "这项检查的记录无法读取（{raw_problem}）。",
    ),
    (
        "your code changed or replaced what the grader's worker reports",
        "你的代码修改或替换了评分工作进程报告的内容",
    ),
    ("wrote something other than its report ({raw_problem})", "写入了报告之外的东西（{raw_problem}）"),
    (
        "your code waits for something that never comes: a sleep, input(), or a process it started",
        "你的代码在等待永远不会到来的东西：sleep、input()，或者它启动的某个进程",
    ),
    (
        "an endless loop, perhaps one that catches the grader's time limit (a bare `except`)",
        "一个无限循环，可能还捕获了评分程序的时间限制（一个不带类型的 `except`）",
    ),
    (
        "your code wrote to the grader's report (the worker's standard output descriptor)",
        "你的代码向评分程序的报告（工作进程的标准输出描述符）写入了内容",
    ),
    (
        "Running the definitions of answer cell {raw_cell}: expected to finish within {raw_seconds} s of CPU time, "
        "but it was still running.",
        "运行答案单元格 {raw_cell} 中的定义：应在 {raw_seconds} 秒 CPU 时间内完成，但它仍在运行。",
    ),
    (
        "Running the definitions of answer cell {raw_cell}: expected to finish within {raw_seconds} s, but it was "
        "still running.",
        "运行答案单元格 {raw_cell} 中的定义：应在 {raw_seconds} 秒内完成，但它仍在运行。",
    ),
    (
        "the trained W1 and W2 within {raw_limit} (relative L2) of where the grader's own training of a correct MLP "
        "from the same start on the same data ends (a correct MLP, in float32, float64 or with einsum, ends 2-9 % "
        "away; training moves W1 about 50 % and W2 about 75 %)",
        "训练后的 W1 和 W2 与评分程序从同一起点、在同样数据上训练正确的多层感知机所到达的位置相差不超过 {raw_limit}"
        "（相对 L2 距离；正确的多层感知机无论用 float32、float64 还是 einsum，都相差 2-9 %；训练本身使 W1 移动约 50 %，"
        "W2 约 75 %）",
    ),
    (
        "W1 {raw_w1} and W2 {raw_w2} away (test accuracy {raw_accuracy})",
        "W1 相差 {raw_w1}，W2 相差 {raw_w2}（测试准确率 {raw_accuracy}）",
    ),
    ("the trained W1, b1, W2, b2 as float arrays", "训练后的 W1、b1、W2、b2，且为浮点数组"),
    ("something else", "其他东西"),
    (
        "something other than the grader's training changed the parameters",
        "评分程序的训练之外的东西修改了参数",
    ),
    (
        "a gradient of your MLP, Linear or ReLU differs from the chapter's (see the backward checks above), or "
        "something other than the grader's update changed the parameters during training",
        "你的 MLP、Linear 或 ReLU 的某个梯度与本章的公式不同（请查看上面的反向传播检查），"
        "或者训练期间评分程序的更新之外的东西修改了参数",
    ),
    ("{reason} while running this check", "{reason}（在运行这项检查时）"),
    ("{reason} while running your answer cells", "{reason}（在运行你的答案单元格时）"),
    ("{reason} while running answer cell {raw_cell}", "{reason}（在运行答案单元格 {raw_cell} 时）"),
    ("ended with exit status {raw_status}", "以退出状态 {raw_status} 结束"),
    ("was stopped after {raw_seconds} s", "在 {raw_seconds} 秒后被停止"),
    (
        "This check's record could not be judged ({raw_problem}); your code changed or broke the worker's files.",
        "这项检查的记录无法评判（{raw_problem}）：你的代码修改或破坏了工作进程的文件。",
    ),
    (
        "MNIST test accuracy after the grader's training ({raw_epochs} epochs, {raw_seconds} s): expected at least "
        "{raw_required} (a correct MLP reaches about 98%), got {raw_accuracy}.",
        "评分程序训练之后的 MNIST 测试准确率（{raw_epochs} 轮，{raw_seconds} 秒）：应至少为 {raw_required}"
        "（正确的多层感知机约能达到 98%），实际为 {raw_accuracy}。",
    ),
    (
        "MNIST: {raw_accuracy} test accuracy after {raw_seconds} s of training, {raw_times} times the grader's NumPy "
        "step (required {raw_required}).",
        "MNIST：训练 {raw_seconds} 秒后测试准确率为 {raw_accuracy}，每步耗时是评分程序 NumPy 实现的 {raw_times} 倍"
        "（要求 {raw_required}）。",
    ),
    (
        "MNIST: {raw_accuracy} test accuracy after {raw_seconds} s of training (required {raw_required}).",
        "MNIST：训练 {raw_seconds} 秒后测试准确率为 {raw_accuracy}（要求 {raw_required}）。",
    ),
    ("{what}: expected {expected}, got {got}.", "{what}：期望 {expected}，实际得到 {got}。"),
    # --- what was checked
    ("{what} (finite-difference check)", "{what}（有限差分检查）"),
    ("Your {raw_part}", "你的 {raw_part}"),
    ("{raw_call} on the worked example", "{raw_call}（示例）"),
    ("{raw_call} on logits of ±1000", "{raw_call}（logits 为 ±1000）"),
    ("{raw_call} with targets at probability exp(-800)", "{raw_call}（目标类别的概率为 exp(-800)）"),
    (
        "{raw_call} on {raw_h} (after an earlier forward) with grad {raw_g}",
        "{raw_call}，输入为 {raw_h}（之前已调用过一次 forward），grad 为 {raw_g}",
    ),
    ("{raw_call} on float64 {raw_h}", "{raw_call}，float64 输入 {raw_h}"),
    ("{raw_call} with grad {raw_g}", "{raw_call}，grad 为 {raw_g}"),
    ("{raw_call} on 32 MNIST images", "{raw_call}（32 张 MNIST 图像）"),
    ("{raw_call} on {raw_h}", "{raw_call}，输入为 {raw_h}"),
    ("{call} for x of shape {raw_shape}", "{call}（x 的形状为 {raw_shape}）"),
    ("{raw_call} with x of shape {raw_shape}", "{raw_call}（x 的形状为 {raw_shape}）"),
    ("{call} for float64 x, W, b", "{call}（x、W、b 为 float64）"),
    ("{call} for float32 x", "{call}（x 为 float32）"),
    ("{call} for a new float32 layer", "{call}（新建的 float32 层）"),
    ("{call} for float64 inputs", "{call}（输入为 float64）"),
    ("{call} for float64 grad", "{call}（grad 为 float64）"),
    ("{call} for float64 logits", "{call}（logits 为 float64）"),
    (
        "{raw_call} for logits of shape {raw_shape} (largest |logit| {raw_largest})",
        "{raw_call}（logits 的形状为 {raw_shape}，最大的 |logit| 为 {raw_largest}）",
    ),
    ("{raw_call} for logits of shape {raw_shape}", "{raw_call}（logits 的形状为 {raw_shape}）"),
    ("{raw_call} after forward(x_stale), forward(x)", "{raw_call}（先调用 forward(x_stale)，再调用 forward(x)）"),
    ("dX returned by backward(grad)", "backward(grad) 返回的 dX"),
    ("{raw_name}.grad after backward(grad)", "backward(grad) 之后的 {raw_name}.grad"),
    ("{call}, the returned dX", "{call}，返回的 dX"),
    ("{call}, parameter {raw_index} of shape {raw_shape}", "{call}，形状为 {raw_shape} 的参数 {raw_index}"),
    ("parameter {raw_index} of shape {raw_shape}", "形状为 {raw_shape} 的参数 {raw_index}"),
    ("its .grad", "它的 .grad"),
    (
        "{raw_call} with lr={raw_lr}, the .grad of parameter {raw_index} None, after {raw_steps} step(s)",
        "{raw_call}（lr={raw_lr}，参数 {raw_index} 的 .grad 为 None），{raw_steps} 步之后",
    ),
    ("{raw_call} with the .grad of parameter {raw_index} None", "{raw_call}（参数 {raw_index} 的 .grad 为 None）"),
    ("MNIST training speed", "MNIST 训练速度"),
    ("MNIST training (784-256-10, batch 32)", "MNIST 训练（784-256-10，批量大小 32）"),
    ("MNIST training, step {raw_step}", "MNIST 训练，第 {raw_step} 步"),
    ("MNIST training, counting the Python lines of a step", "MNIST 训练（统计一个训练步运行的 Python 行数）"),
    ("cell {raw_cell} raised {raw_rest}", "单元格 {raw_cell} 抛出了 {raw_rest}"),
    (
        "This check could not finish: the worker process running your code {reason}: {raw_rest}",
        "这项检查无法完成：运行你代码的工作进程{reason}：{raw_rest}",
    ),
    # --- what was expected, what came
    ("a NumPy array", "一个 NumPy 数组"),
    ("a floating-point dtype", "浮点类型（dtype）"),
    ("only finite numbers", "只含有限的数"),
    (
        "{raw_count} NaN/inf entries (first at index {raw_index})",
        "{raw_count} 个 NaN/inf 元素（第一个位于索引 {raw_index}）",
    ),
    ("shape {raw_shape}", "形状 {raw_shape}"),
    ("shapes {raw_shapes}", "形状 {raw_shapes}"),
    (
        "{raw_value} at index {raw_index} (relative error at most {raw_tolerance}; with an eps of at most 1e-07 in the "
        "log, anything between {raw_low} and {raw_high})",
        "索引 {raw_index} 处的值 {raw_value}（相对误差不超过 {raw_tolerance}；由于 log 中允许加上不超过 1e-07 的 eps，"
        "{raw_low} 与 {raw_high} 之间的值都可以）",
    ),
    (
        "{raw_value} (relative error at most {raw_tolerance}; with an eps of at most 1e-07 in the log, anything "
        "between "
        "{raw_low} and {raw_high})",
        "{raw_value}（相对误差不超过 {raw_tolerance}；由于 log 中允许加上不超过 1e-07 的 eps，"
        "{raw_low} 与 {raw_high} 之间的值都可以）",
    ),
    (
        "{raw_value} at index {raw_index} (relative error at most {raw_tolerance})",
        "索引 {raw_index} 处的值 {raw_value}（相对误差不超过 {raw_tolerance}）",
    ),
    ("{raw_value} (relative error at most {raw_tolerance})", "{raw_value}（相对误差不超过 {raw_tolerance}）"),
    ("{raw_value}, relative error {raw_error}", "{raw_value}，相对误差为 {raw_error}"),
    ("the array it was given to keep its shape {raw_shape}", "传入的数组保持形状 {raw_shape}"),
    (
        "the array it was given to stay unchanged ({raw_value} at index {raw_index})",
        "传入的数组保持不变（索引 {raw_index} 处为 {raw_value}）",
    ),
    (
        "one floating-point number (the mean loss: a Python float or a NumPy scalar)",
        "一个浮点数（平均损失：Python float 或 NumPy 标量）",
    ),
    ("optimizer.params to hold the same Parameter objects", "optimizer.params 仍是原来那些 Parameter 对象"),
    ("other objects", "其他对象"),
    ("optimizer.params to remain Parameters", "optimizer.params 中仍是 Parameter"),
    ("other arrays", "其他数组"),
    ("step to leave .grad as it was", "step 不改变 .grad"),
    ("step to leave .grad None", "step 让 .grad 保持为 None"),
    ("an array", "一个数组"),
    ("it changed", ".grad 被改变了"),
    (
        "a training step (forward and backward) to run as many lines of Python for {raw_big} rows as for {raw_small}, "
        "as whole-batch array operations do",
        "一个训练步（前向传播和反向传播）处理 {raw_big} 行与处理 {raw_small} 行时运行的 Python "
        "行数相同（对整个小批量做数组运算时就是如此）",
    ),
    (
        "{raw_small} lines for {raw_rows} rows and {big} for {raw_big_rows}, the extra ones in {raw_where}",
        "{raw_rows} 行时运行 {raw_small} 行，{raw_big_rows} 行时运行 {big} 行，多出的行在 {raw_where}",
    ),
    (
        "{raw_small} lines for {raw_rows} rows and {big} for {raw_big_rows}",
        "{raw_rows} 行时运行 {raw_small} 行，{raw_big_rows} 行时运行 {big} 行",
    ),
    ("at least {raw_count}", "至少 {raw_count}"),
    (
        "a training step to take at most {raw_limit} times the CPU time of the grader's NumPy step of the same shapes, "
        "measured alternately with it",
        "一个训练步的 CPU 时间不超过评分程序同样形状的 NumPy 训练步的 {raw_limit} 倍（两者交替测量）",
    ),
    (
        "{raw_times} times ({raw_student} ms against {raw_reference} ms, median of {raw_pairs} pairs, up to step "
        "{raw_step})",
        "{raw_times} 倍（{raw_student} ms 对 {raw_reference} ms，{raw_pairs} 对测量的中位数，截至第 {raw_step} 步）",
    ),
    ("W1, b1, W2, b2 of shapes {raw_shapes}", "W1、b1、W2、b2，形状为 {raw_shapes}"),
    ("every parameter to have a .grad after MLP.backward", "MLP.backward 之后每个参数都有 .grad"),
    ("parameters {raw_names} without one", "参数 {raw_names} 没有 .grad"),
    ("finite logits", "有限的 logits"),
    ("NaN or inf after {raw_steps} SGD steps", "SGD 更新 {raw_steps} 步之后出现 NaN 或 inf"),
    # --- likely causes (nn_checks, nn_diagnosis, the grader's judges)
    (
        "the method returned None: a missing `return`, or `return` without a value",
        "方法返回了 None：缺少 `return`，或 `return` 后面没有值",
    ),
    ("a cast changed the precision; keep the dtype of the inputs", "类型转换改变了精度；请保持输入的 dtype"),
    ("a cast changed the precision; keep the dtype of the input", "类型转换改变了精度；请保持输入的 dtype"),
    (
        "a cast (astype, np.float32, ...) changed the precision; keep the dtype of x and of the parameters",
        "类型转换（astype、np.float32 等）改变了精度；请保持 x 和参数的 dtype",
    ),
    (
        "Linear.__init__ is given code: keep W of shape (in_features, out_features) and b of shape (out_features,)",
        "Linear.__init__ 是给定的代码：保持 W 的形状为 (in_features, out_features)，b 的形状为 (out_features,)",
    ),
    (
        "the method changed the array it was given, in place (such as `np.maximum(x, 0, out=x)`, `x[x < 0] = 0` or "
        "`grad *= mask`); build a new array instead",
        "方法原地修改了传入的数组（例如 `np.maximum(x, 0, out=x)`、`x[x < 0] = 0` 或 `grad *= mask`）；"
        "请改为构造一个新数组",
    ),
    ("the bias is not added (Y = X W, without + b)", "没有加上偏置（Y = X W，缺少 + b）"),
    (
        "W is transposed (Y = X Wᵀ + b); W already has shape (D_in, D_out)",
        "W 被转置了（Y = X Wᵀ + b）；W 的形状本来就是 (D_in, D_out)",
    ),
    ("dX = G W: W is not transposed", "dX = G W：W 没有转置"),
    (
        "dX divided by the batch size (the loss already averages; dX is a plain product)",
        "dX 除以了批量大小（损失已经取过平均；dX 就是一个普通的矩阵乘积）",
    ),
    ("dW = Gᵀ X: the product is transposed", "dW = Gᵀ X：乘积的顺序反了（结果被转置）"),
    (
        "an endless loop, or a Python loop over every element instead of array operations.",
        "死循环，或者用 Python 循环逐个元素计算，而不是用数组运算。",
    ),
    (
        "your code waits for something that never comes, or never stops.",
        "你的代码在等待永远不会到来的东西，或者永远不会停止。",
    ),
    (
        "dW divided by the batch size (the loss already averages; dW is a plain sum over the batch)",
        "dW 除以了批量大小（损失已经取过平均；dW 就是在小批量上的普通求和）",
    ),
    (
        'dW uses the input of an earlier forward call: forward must save its latest input, `self.ctx["x"] = x`, on '
        "every call",
        'dW 用了更早一次 forward 调用的输入：forward 每次调用都必须保存最新的输入，`self.ctx["x"] = x`',
    ),
    ("db = G, not summed over the batch", "db = G，没有在小批量上求和"),
    (
        "db has shape (1, D_out): the sum kept the batch axis (keepdims=True); b has shape (D_out,)",
        "db 的形状为 (1, D_out)：求和保留了批量轴（keepdims=True）；b 的形状是 (D_out,)",
    ),
    (
        "db summed over the features (axis=1) instead of the batch (axis=0)",
        "db 在特征轴（axis=1）上求和，而不是在批量轴（axis=0）上",
    ),
    ("db averaged over the batch (mean) instead of summed", "db 在小批量上取了平均（mean），而不是求和"),
    (
        "db is one number, summed over every axis (or squeezed); sum over the batch axis only (axis=0), which "
        "keeps the shape (D_out,)",
        "db 成了一个数：在所有轴上求和（或被 squeeze 了）；只应在批量轴（axis=0）上求和，这样形状保持为 (D_out,)",
    ),
    (
        "np.max(x, 0) is a reduction (the largest entry of each column), not the elementwise np.maximum(x, 0)",
        "np.max(x, 0) 是归约（取每列的最大元素），不是逐元素的 np.maximum(x, 0)",
    ),
    (
        "the negative part kept instead of the positive part (min instead of max)",
        "保留了负的部分而不是正的部分（用了 min 而不是 max）",
    ),
    (
        "mask 1(H ≥ 0): the gradient at exactly H = 0 must be 0, use `x > 0`",
        "掩码为 1(H ≥ 0)：H 恰好为 0 处的梯度必须为 0，请用 `x > 0`",
    ),
    (
        "G multiplied by the output max(H, 0) instead of by the mask 1(H > 0)",
        "G 乘的是输出 max(H, 0)，而不是掩码 1(H > 0)",
    ),
    ("the mask taken from the gradient G instead of from the input H", "掩码取自梯度 G，而不是输入 H"),
    (
        "the mask comes from an earlier forward call: forward must save what backward needs on every call",
        "掩码来自更早一次 forward 调用：forward 每次调用都必须保存 backward 需要的内容",
    ),
    ("no mask: backward returns G unchanged", "没有掩码：backward 原样返回了 G"),
    (
        "softmax without subtracting each row's max first: exp of a large logit overflows to inf, which turns "
        "probabilities into NaN or 0",
        "softmax 之前没有先减去每行的最大值：大的 logit 取 exp 会溢出为 inf，使概率变成 NaN 或 0",
    ),
    (
        "the log of a probability that underflowed to 0 (log 0 = −inf): compute log softmax as (z − m) − log Σ exp(z − "
        "m), "
        "or add an eps of at most 1e-07 inside the log",
        "对下溢为 0 的概率取了 log（log 0 = −inf）：请用 (z − m) − log Σ exp(z − m) 计算 log softmax，"
        "或在 log 中加上不超过 1e-07 的 eps",
    ),
    (
        "the gradient divides by a probability that underflowed to 0 (the derivative of the log taken literally): use "
        "dZ = (softmax(Z) − onehot(y)) / B",
        "梯度除以了一个下溢为 0 的概率（照字面对 log 求导）：请用 dZ = (softmax(Z) − onehot(y)) / B",
    ),
    (
        "softmax normalised over the batch axis (axis=0) instead of over each row's classes (axis=1)",
        "softmax 在批量轴（axis=0）上归一化，而不是在每行的类别（axis=1）上",
    ),
    (
        "the loss is summed over the batch, not averaged (B times too large)",
        "损失在小批量上求和而没有取平均（大了 B 倍）",
    ),
    (
        "the loss has the wrong sign: the minus of −log softmax is missing",
        "损失的符号错了：−log softmax 中的负号漏掉了",
    ),
    ("dZ is not divided by B (the loss is a mean over the batch)", "dZ 没有除以 B（损失是小批量上的平均）"),
    (
        "the one-hot subtracted with grad[:, y] (every row, at every target column) instead of grad[np.arange(B), y]",
        "用 grad[:, y] 减去独热向量（每一行的每个目标列都减了），应为 grad[np.arange(B), y]",
    ),
    (
        "the one-hot of the targets is not subtracted: dZ = softmax(Z) / B",
        "没有减去目标的独热向量：dZ = softmax(Z) / B",
    ),
    (
        "dZ has the wrong sign: softmax(Z) − onehot(y), not onehot(y) − softmax(Z)",
        "dZ 的符号错了：应为 softmax(Z) − onehot(y)，而不是 onehot(y) − softmax(Z)",
    ),
    ("dZ computed from the logits instead of their softmax", "dZ 是用 logits 而不是它们的 softmax 算的"),
    (
        "the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`",
        "返回的是每个样本的损失，而不是它们在小批量上的平均，例如 `losses.mean()`",
    ),
    (
        "an array of shape (1,) is returned where one number is expected (the per-sample losses, or a mean that kept "
        "an "
        "axis); return a scalar, e.g. `losses.mean()` over every axis or `float(...)`",
        "应返回一个数，却返回了形状为 (1,) 的数组（每个样本的损失，或保留了一个轴的平均）；请返回标量，"
        "例如在所有轴上求 `losses.mean()`，或 `float(...)`",
    ),
    (
        "the loss is returned as an array of shape {raw_shape} holding one number; return a scalar, e.g. `float(loss)` "
        "or "
        "`loss.item()`, or average over every axis",
        "损失以形状为 {raw_shape}、只含一个数的数组返回；请返回标量，例如 `float(loss)` 或 `loss.item()`，"
        "或在所有轴上取平均",
    ),
    ("the loss is not a floating-point number (an integer or boolean result)", "损失不是浮点数（结果是整数或布尔值）"),
    (
        "the targets index the wrong axis: y holds one class index per row, so pick entries with [np.arange(B), y]",
        "用目标索引了错误的轴：y 中每行一个类别下标，所以应当用 [np.arange(B), y] 取元素",
    ),
    (
        "the sign is flipped: θ + η ∂L/∂θ climbs the loss (gradient ascent)",
        "符号反了：θ + η ∂L/∂θ 会让损失上升（梯度上升）",
    ),
    ("the learning rate is applied twice (η² ∂L/∂θ)", "学习率乘了两次（η² ∂L/∂θ）"),
    ("the learning rate is missing (θ − ∂L/∂θ); use self.lr", "漏掉了学习率（θ − ∂L/∂θ）；请使用 self.lr"),
    (
        "no parameter array changed in any step: the update was computed but not written into the arrays (`p = p - "
        "...` "
        "rebinds the loop variable to a new array); update in place with `p -= ...`",
        "没有一个参数数组在任何一步中改变：更新算出来了，但没有写回数组（`p = p - ...` 只是把循环变量绑定到一个新数组）"
        "；"
        "请用 `p -= ...` 原地更新",
    ),
    (
        "the loop stops at the first parameter whose .grad is None (`break` or `return`): the parameters after it are "
        "never updated; skip that one parameter with `continue`",
        "循环在第一个 .grad 为 None 的参数处停止了（`break` 或 `return`）：它后面的参数都没有被更新；请用 `continue` "
        "只跳过这一个参数",
    ),
    (
        "a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)",
        "没有跳过 .grad 为 None 的参数：`if p.grad is None: continue`（zero_grad 会把 .grad 设为 None）",
    ),
    (
        "step replaced the list's entries; update each array in place instead",
        "step 替换了列表中的元素；请改为原地更新每个数组",
    ),
    ("the update must keep the parameter float32 (update in place)", "更新必须保持参数为 float32（原地更新）"),
    (
        "step modified or cleared .grad; only zero_grad() clears it",
        "step 修改或清空了 .grad；只有 zero_grad() 才清空它",
    ),
    (
        "step gave .grad to a parameter that had none; skip it and leave its .grad None (only backward sets it)",
        "step 给一个没有梯度的参数设置了 .grad；应跳过它，让它的 .grad 保持为 None（只有 backward 设置 .grad）",
    ),
    ("the ReLU is skipped: fc2(fc1(x))", "跳过了 ReLU：fc2(fc1(x))"),
    (
        "the ReLU is also applied to the logits: the last layer is fc2, with no activation",
        "对 logits 也用了 ReLU：最后一层是 fc2，后面没有激活函数",
    ),
    (
        "backward returns the gradient after relu.backward instead of what fc1.backward returns",
        "backward 返回的是 relu.backward 之后的梯度，而不是 fc1.backward 的返回值",
    ),
    (
        "backward started with {raw_layer}: it must run in reverse order, fc2 → relu → fc1",
        "backward 从 {raw_layer} 开始：它必须按相反的顺序运行，fc2 → relu → fc1",
    ),
    (
        "the ReLU is skipped: relu.backward is not called, so the gradient does not pass through the ReLU",
        "跳过了 ReLU：没有调用 relu.backward，所以梯度没有经过 ReLU",
    ),
    ("the ReLU is skipped: relu is never called in forward", "跳过了 ReLU：forward 中从未调用 relu"),
    (
        "{raw_direction} calls the layers in the order {raw_seen}; expected {raw_expected}",
        "{raw_direction} 调用各层的顺序为 {raw_seen}；应为 {raw_expected}",
    ),
    (
        "parameters() misses {raw_names}: do not override parameters(); Module.parameters() finds every layer's "
        "Parameters",
        "parameters() 缺少 {raw_names}：不要重写 parameters()；Module.parameters() 会找到每一层的 Parameter",
    ),
    (
        "parameters() yields other arrays or another order: do not override parameters(); Module.parameters() finds "
        "every "
        "layer's Parameters",
        "parameters() 给出的是其他数组或顺序不对：不要重写 parameters()；Module.parameters() 会找到每一层的 Parameter",
    ),
    (
        "this method is not written yet (it still raises NotImplementedError)",
        "这个方法还没有实现（它仍然抛出 NotImplementedError）",
    ),
    (
        "backward reads something from self.ctx that forward did not save: forward must store what backward needs, for "
        'example `self.ctx["x"] = x`, on every call',
        "backward 从 self.ctx 读取了 forward 没有保存的内容：forward 每次调用都必须保存 backward 需要的内容，例如 "
        '`self.ctx["x"] = x`',
    ),
    (
        "the shapes in a product or sum do not line up: write each operand's shape next to the formula",
        "乘积或求和中的形状对不上：把每个操作数的形状写在公式旁边核对",
    ),
    (
        "an operation on None: a method without `return`, or a .grad that was never set",
        "对 None 做了运算：某个方法缺少 `return`，或某个 .grad 从未被设置",
    ),
    (
        "a method calls itself, for example forward calling self(x) or self.forward(x)",
        "方法调用了它自己，例如 forward 中调用 self(x) 或 self.forward(x)",
    ),
    (
        "an index out of range: check which axis you index (rows are samples, columns are classes or features)",
        "下标越界：检查你索引的是哪个轴（行是样本，列是类别或特征）",
    ),
    (
        "an axis the array does not have: an array lost an axis, usually the batch axis at B = 1 (np.squeeze, x[0] "
        "or .flatten() turn shape (1, C) into (C,)); keep every batch 2-D",
        "数组没有这个轴：某个数组少了一个轴，通常是 B = 1 时的批量轴（np.squeeze、x[0] 或 .flatten() 会把形状 (1, C) "
        "变成 (C,)）；每个小批量都要保持二维",
    ),
    (
        "a local name used before it is assigned: it is assigned later in the method, or in a branch that did not run",
        "局部变量在赋值之前就被使用了：它在方法中更靠后的位置才赋值，或者在没有执行的分支里赋值",
    ),
    (
        "a name that is not defined: a typo, or a class whose cell did not run",
        "使用了未定义的名字：拼写错误，或某个类所在的单元格没有运行",
    ),
    ("an array far too large: check the shapes of your intermediate results", "数组太大了：检查中间结果的形状"),
    ("the answer cell was deleted, renamed or its class renamed", "答案单元格被删除或改名，或其中的类被改名"),
    (
        "your code ended the process, ran too long or used too much memory",
        "你的代码结束了进程、运行时间过长或占用内存过多",
    ),
    (
        "the gate trains your MLP, Linear and ReLU: make their checks above pass first",
        "这项测试会训练你的 MLP、Linear 和 ReLU：请先让上面它们的检查通过",
    ),
    (
        "a Python loop over samples or entries in forward/backward; use matrix products (x @ W) on the whole batch",
        "forward/backward 中有遍历样本或元素的 Python 循环；请对整个小批量使用矩阵乘积（x @ W）",
    ),
    (
        "a Python loop over samples or entries in forward/backward, or very large temporary arrays; use matrix "
        "products "
        "(x @ W) on the whole batch",
        "forward/backward 中有遍历样本或元素的 Python 循环，或非常大的临时数组；请对整个小批量使用矩阵乘积（x @ W）",
    ),
    (
        "MLP.backward must call fc2.backward, relu.backward and fc1.backward",
        "MLP.backward 必须调用 fc2.backward、relu.backward 和 fc1.backward",
    ),
    (
        "training diverged; a gradient is wrong (check the gradient tests above)",
        "训练发散了；某个梯度有误（请查看上面的梯度测试）",
    ),
    ("a gradient is slightly wrong or the model does not learn", "某个梯度略有偏差，或者模型没有在学习"),
    # --- the chapter's formulas (nn_diagnosis.Quantity.formula)
    (
        "Y = X W + b: X (B, D_in) @ W (D_in, D_out), then b added to every row",
        "Y = X W + b：X (B, D_in) @ W (D_in, D_out)，再给每一行加上 b",
    ),
    (
        "dX = G Wᵀ, of shape (B, D_in); backward must `return` it",
        "dX = G Wᵀ，形状为 (B, D_in)；backward 必须 `return` 它",
    ),
    (
        "dW = Xᵀ G, of the shape of W (D_in, D_out), with X the input of the latest forward; store it in self.W.grad",
        "dW = Xᵀ G，形状与 W 相同 (D_in, D_out)，X 是最近一次 forward 的输入；把它存入 self.W.grad",
    ),
    (
        "db = Σ_i G_i: sum G over the batch axis (axis=0), so that db has the shape of b, (D_out,); store it in "
        "self.b.grad",
        "db = Σ_i G_i：在批量轴（axis=0）上对 G 求和，使 db 的形状与 b 相同，为 (D_out,)；把它存入 self.b.grad",
    ),
    (
        "ReLU(H) = max(H, 0) elementwise: np.maximum(x, 0), a new array of the shape of x",
        "ReLU(H) = max(H, 0) 逐元素计算：np.maximum(x, 0)，一个与 x 形状相同的新数组",
    ),
    (
        "dX = G ⊙ 1(H > 0): the mask comes from the input H of the latest forward and is 0 where H ≤ 0",
        "dX = G ⊙ 1(H > 0)：掩码来自最近一次 forward 的输入 H，在 H ≤ 0 处为 0",
    ),
    (
        "L = −(1/B) Σ_i log softmax(Z_i)[y_i]: subtract each row's max before exp, and average over the batch",
        "L = −(1/B) Σ_i log softmax(Z_i)[y_i]：取 exp 之前先减去每行的最大值，并在小批量上取平均",
    ),
    (
        "dZ = (softmax(Z) − onehot(y)) / B, softmax over each row (axis=1), from the Z and y of the latest forward",
        "dZ = (softmax(Z) − onehot(y)) / B，softmax 在每一行（axis=1）上计算，Z 和 y 来自最近一次 forward",
    ),
    (
        "θ ← θ − η ∂L/∂θ for every parameter with a gradient, changing the array itself: `p -= self.lr * p.grad`",
        "θ ← θ − η ∂L/∂θ，对每个有梯度的参数原地修改数组本身：`p -= self.lr * p.grad`",
    ),
    (
        "logits = fc2(relu(fc1(x))): call the three layers in this order and return the last output",
        "logits = fc2(relu(fc1(x)))：按这个顺序调用三层，并返回最后的输出",
    ),
    (
        "backward runs in reverse order: grad = fc2.backward(grad); grad = relu.backward(grad); return "
        "fc1.backward(grad)",
        "backward 按相反的顺序运行：grad = fc2.backward(grad); grad = relu.backward(grad); return fc1.backward(grad)",
    ),
    # --- what came: a type and a shape (after the causes, some of which say "an array of shape ...")
    ("{raw_kind} of shape {raw_shape} and dtype {raw_dtype}", "{raw_kind}，形状 {raw_shape}，dtype {raw_dtype}"),
    ("{raw_kind} of shape {raw_shape}", "{raw_kind}，形状 {raw_shape}"),
    # --- the most generic template last: "<what>: <detail>"
    ("{first}: {second}", "{first}：{second}"),
)
"""English -> Chinese: whole lines and parts of lines. Order matters: the first template that matches wins."""

TABLES = {"zh": ZH}


FREE = ("raw_message", "raw_rest", "raw_line", "raw_problem")
"""Raw placeholders that may hold ": " (an exception's message, a line of code); other raw ones stop before it."""
GENERIC = "{first}: {second}"


NO_CHINESE_FONT = "No Chinese font found: the plots' Chinese labels show as boxes (install one, e.g. Noto Sans CJK SC)."
CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "SimHei")
"""Fonts with Chinese characters, the most common first: Linux, Windows, macOS."""


def use_plot_fonts(plt: Any) -> None:
    """Let matplotlib (``plt``, its pyplot: these helpers import nothing beyond NumPy) draw this edition's plot
    labels: in the Chinese edition, Latin text in matplotlib's own font and Chinese in the first Chinese font
    installed (or a note on how to get one). The English edition changes nothing."""
    if LANGUAGE == "en":
        return
    installed = {font.name for font in plt.matplotlib.font_manager.fontManager.ttflist}
    found = [name for name in CJK_FONTS if name in installed]
    if found:
        plt.rcParams["font.family"] = ["DejaVu Sans", *found]
        # some Chinese fonts have no "normal" weight (WenQuanYi's is 500): matplotlib uses theirs and says so, at length
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    else:
        print(translate(NO_CHINESE_FONT))


@cache
def _compiled(language: str) -> tuple[dict[str, str], tuple[tuple[re.Pattern[str], str], ...]]:
    """The table of ``language`` as exact phrases and as (regex, translation) templates, the generic one last."""
    phrases, templates = {}, []
    for english, translated in TABLES[language]:
        if "{" not in english:
            phrases[english] = translated
            continue
        pattern = "".join(
            _group(part[1:-1]) if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{\w+\})", english)
            if part
        )
        templates.append((english, re.compile(pattern, re.S), translated))
    templates.sort(key=lambda t: t[0] == GENERIC)  # stable: the table's order, the generic template last
    return phrases, tuple((pattern, translated) for _, pattern, translated in templates)


def _group(name: str) -> str:
    return f"(?P<{name}>(?:(?!: ).)+?)" if name.startswith("raw") and name not in FREE else f"(?P<{name}>.+?)"


def _piece(text: str, language: str) -> str:
    """One piece of a message: an exact phrase, else the first template that matches all of it (also without a final
    period), else unchanged."""
    phrases, templates = _compiled(language)
    if text in phrases:
        return phrases[text]
    for pattern, translated in templates[:-1]:
        match = pattern.fullmatch(text)
        if match:
            parts = {
                name: value if name.startswith("raw") else _piece(value, language)
                for name, value in match.groupdict().items()
            }
            return re.sub(r"\{(\w+)\}", lambda m: parts[m.group(1)], translated)  # noqa: B023 - re.sub calls it now
    if text.endswith(".") and len(text) > 1:  # a cause or a sentence that explain() ended with a period
        shorter = _piece(text[:-1], language)
        if shorter != text[:-1]:
            return shorter + "。"
    match = templates[-1][0].fullmatch(text)
    if match:
        first, second = (_piece(v, language) for v in match.groups())
        return templates[-1][1].replace("{first}", first).replace("{second}", second)
    return text


def translate(message: str, language: str | None = None) -> str:
    """``message`` (English, as the checks build it) in ``language`` (default: this edition's ``LANGUAGE``)."""
    language = language or LANGUAGE
    if language == "en" or language not in TABLES:
        return message
    lines = []
    for line in message.split("\n"):
        body = line.lstrip(" ")
        lines.append(line[: len(line) - len(body)] + _piece(body, language) if body else line)
    return "\n".join(lines)
