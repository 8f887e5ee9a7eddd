"""Every message the grader's judges build, declared once by id, in every language (``nn_messages.message``).

Trusted side, loaded by the judges (``autograder.judge``) only: like them it imports the course's helper modules,
which the grading process finds next to the released notebook. A judge calls a message with its fields and raises
``nn_messages.CheckFailed(Failure(message, cause, formula))``; the message, its cause and its formula stay data until
someone reads them in a language (``Failure.render``). Fields are raw values (code, shapes, numbers already
formatted, e.g. ``f"{accuracy:.2%}"``), shown as they are in every language, or other texts.

The probe's own messages (time limits, what a probe was running) are in ``autograder/probe/messages.py``: the
sandboxed worker has the probe package and the helpers, not this module. The notebook's helpers declare theirs in
``nn_messages`` and ``nn_diagnosis``.
"""

from __future__ import annotations

from nn_messages import message, text

# --------------------------------------------------------------------------------------------- every judge

STOPPED = message(
    "judge.stopped",
    en="{what}: the check stopped before this step.",
    zh="{what}：检查在这一步之前就停止了。",
)
"""A step whose result a probe did not record (the case stopped earlier without saying why)."""
WITH_X_SHAPE = message("judge.with_x_shape", en="{call} with x of shape {shape}", zh="{call}（x 的形状为 {shape}）")
"""A layer or model and its input: ``Linear(3, 2) with x of shape (4, 3)``."""
RETURNED_DX = text("judge.returned_dx", en="dX returned by backward(grad)", zh="backward(grad) 返回的 dX")
GRAD_AFTER_BACKWARD = message(
    "judge.grad_after_backward", en="{name}.grad after backward(grad)", zh="backward(grad) 之后的 {name}.grad"
)

# --------------------------------------------------------------------------------------------- checks.judge

MISSING_CLASS = message(
    "checks.missing_class",
    en="{name}: expected the class from its answer cell, but it is not defined.",
    zh="{name}：这个类应由它的答案单元格定义，但它没有被定义。",
)
CELL_RAISED = message(
    "checks.cell_raised",
    en="cell {cell} raised {exception}: {message}",
    zh="单元格 {cell} 抛出了 {exception}：{message}",
)
AND_THEN = message("checks.and_then", en="{first}; {rest}", zh="{first}；{rest}")
"""Two causes in a row (the cells that raised)."""
CELL_DELETED = text(
    "checks.cell_deleted",
    en="the answer cell was deleted, renamed or its class renamed",
    zh="答案单元格被删除或改名，或其中的类被改名",
)

# --------------------------------------------------------------------------------------------- Linear

LINEAR_FLOAT64 = message("linear.float64", en="{what} for float64 x, W, b", zh="{what}（x、W、b 为 float64）")
LINEAR_FLOAT32_LAYER = message(
    "linear.float32_layer", en="{what} for a new float32 layer", zh="{what}（新建的 float32 层）"
)
LINEAR_KEEP_DTYPE = text(
    "linear.keep_dtype",
    en="a cast (astype, np.float32, ...) changed the precision; keep the dtype of x and of the parameters",
    zh="类型转换（astype、np.float32 等）改变了精度；请保持 x 和参数的 dtype",
)

# --------------------------------------------------------------------------------------------- ReLU

RELU_KEEP_DTYPE = text(
    "relu.keep_dtype",
    en="a cast changed the precision; keep the dtype of the input",
    zh="类型转换改变了精度；请保持输入的 dtype",
)

# --------------------------------------------------------------------------------------------- CrossEntropyLoss

LOSS_CALL = message(
    "loss.call",
    en="CrossEntropyLoss().{call} for logits of shape {shape} (largest |logit| {largest})",
    zh="CrossEntropyLoss().{call}（logits 的形状为 {shape}，最大的 |logit| 为 {largest}）",
)
LOSS_TARGET_AXIS = text(
    "loss.target_axis",
    en="the targets index the wrong axis: y holds one class index per row, so pick entries with [np.arange(B), y]",
    zh="用标签索引了错误的轴：y 中每行一个类别下标（真实标签），所以应当用 [np.arange(B), y] 取元素",
)

# --------------------------------------------------------------------------------------------- SGD

SGD_STEP = message(
    "sgd.step",
    en="{call} with the .grad of parameter {index} None",
    zh="{call}（参数 {index} 的 .grad 为 None）",
)

# --------------------------------------------------------------------------------------------- the MNIST gate

GATE_SPEED = text("gate.speed", en="MNIST training speed", zh="MNIST 训练速度")
GATE_TRAINING = text(
    "gate.training",
    en="MNIST training (784-256-10, batch 32)",
    zh="MNIST 训练（784-256-10，一个 batch 中有 32 个样本）",
)
GATE_FORWARD = text(
    "gate.forward",
    en="MLP(784, 256, 10).forward on 32 MNIST images",
    zh="MLP(784, 256, 10).forward（32 张 MNIST 图像）",
)
GATE_AFTER_CHECKS = text(
    "gate.after_checks",
    en="the gate trains your MLP, Linear and ReLU: make their checks above pass first",
    zh="这项测试会训练你的 MLP、Linear 和 ReLU：请先让上面它们的检查通过",
)
GATE_SHAPES_EXPECTED = message(
    "gate.shapes_expected", en="W1, b1, W2, b2 of shapes {shapes}", zh="W1、b1、W2、b2，形状依次为 {shapes}"
)
GATE_SHAPES = message("gate.shapes", en="shapes {shapes}", zh="形状 {shapes}")
GATE_LOOP_GOT_WHERE = message(
    "gate.loop_got_where",
    en="a Python loop over samples or entries in {where} (a step ran {small} lines of Python for {small_rows} rows "
    "and {big} for {big_rows}); use matrix products (x @ W) on the whole batch",
    zh="{where} 中有遍历样本或元素的 Python 循环（一个训练步处理 {small_rows} 行数据时运行了 {small} 行 Python "
    "代码，处理 {big_rows} 行时运行了 {big} 行）；请对整个 batch 使用矩阵乘积（x @ W）",
)
GATE_AT_LEAST = message("gate.at_least", en="at least {count}", zh="至少 {count}")
GATE_CPU_EXPECTED = message(
    "gate.cpu_expected",
    en="the training to use at most {limit} times the CPU time of the grader's own NumPy training of the same steps, "
    "both measured from outside at the same time",
    zh="不超过评分程序自己用 NumPy 训练同样步数所用 CPU 时间的 {limit} 倍（两者同时从外部测量）",
)
GATE_CPU_GOT = message(
    "gate.cpu_got",
    en="{times} times: your MLP's training used {student} s of CPU time for {steps} steps, the grader's {reference} s",
    zh="{times} 倍：你的多层感知机训练 {steps} 步用了 {student} 秒 CPU 时间，评分程序用了 {reference} 秒",
)
GATE_CPU_GOT_STOPPED = message(
    "gate.cpu_got_stopped",
    en="{times} times: your MLP's training had used {student} s of CPU time when it said it was at step {step} of "
    "{steps} (the grader's training of those steps, start-up included: {reference} s), and it was stopped there",
    zh="{times} 倍：你的多层感知机训练自称进行到第 {step} 步（共 {steps} 步）时已用了 {student} 秒 CPU 时间"
    "（评分程序训练这些步、连同启动，用 {reference} 秒），训练在此被停止",
)
GATE_CPU_GOT_RATE = message(
    "gate.cpu_got_rate",
    en="{times} times: from step {first} to step {step} (of {steps}) your MLP's training used {student} s of CPU "
    "time, the grader's training of those steps {reference} s, and it was stopped there",
    zh="{times} 倍：从第 {first} 步到第 {step} 步（共 {steps} 步），你的多层感知机训练用了 {student} 秒 CPU 时间，"
    "评分程序训练这些步用 {reference} 秒，训练在此被停止",
)
GATE_CPU_GOT_STOPPED_BARE = message(
    "gate.cpu_got_stopped_bare",
    en="more than {limit} times, and it was stopped before the end",
    zh="超过 {limit} 倍，训练在结束前被停止",
)
GATE_SLOW_BEFORE_TRAINING = text(
    "gate.slow_before_training",
    en="the time went before the first training step: in the top-level code of your answer cells, your classes' "
    "__init__, or your first forward and backward",
    zh="时间花在了第一个训练步之前：在答案单元格的顶层代码、类的 __init__，或第一次前向传播和反向传播中",
)
GATE_SLOW = text(
    "gate.slow",
    en="a Python loop over samples or entries in forward/backward, or very large temporary arrays; "
    "use matrix products (x @ W) on the whole batch",
    zh="forward/backward 中有遍历样本或元素的 Python 循环，或非常大的临时数组；请对整个 batch 使用矩阵乘积（x @ W）",
)
GATE_EVERY_GRAD = text(
    "gate.every_grad",
    en="every parameter to have a .grad after MLP.backward",
    zh="MLP.backward 之后所有参数的 .grad",
)
GATE_WITHOUT_GRAD = message("gate.without_grad", en="parameters {names} without one", zh="缺少 .grad 的参数 {names}")
GATE_BACKWARD_CALLS = text(
    "gate.backward_calls",
    en="each layer's backward must store the gradients of its parameters in their .grad, and MLP.backward must call "
    "every layer's backward",
    zh="每一层的 backward 都必须把各参数的梯度存入它们的 .grad，并且 MLP.backward 必须调用每一层的 backward",
)
GATE_BACKWARD_NOT_CALLED = message(
    "gate.backward_not_called",
    en="MLP.backward never called {methods}, which should have set {names}",
    zh="MLP.backward 没有调用 {methods}，而 {names} 应由它设置",
)
GATE_GRAD_NOT_SET = message(
    "gate.grad_not_set",
    en="{methods} ran but never set {names}: {method} must store the gradient of each of its parameters in its .grad "
    "(`self.b.grad = ...`)",
    zh="{methods} 运行了，但没有设置 {names}：{method} 必须把每个参数的梯度存入它的 .grad（`self.b.grad = ...`）",
)
GATE_GRAD_FOR_UPDATE = message(
    "gate.grad_for_update",
    en="{name}.grad to be an array of the shape of {name}, {shape}, for the grader's update `p -= lr * p.grad`",
    zh="{name}.grad 是与 {name} 形状相同的数组 {shape}，以便评分程序执行更新 `p -= lr * p.grad`",
)
GATE_A_KIND = message("gate.a_kind", en="a {kind}", zh="一个 {kind}")
GATE_GRAD_BREAKS_UPDATE = message(
    "gate.grad_breaks_update",
    en="{method} stores in {name}.grad something the grader's SGD update cannot apply to {name}: a gradient must be "
    "a float array of its parameter's shape",
    zh="{method} 存入 {name}.grad 的值无法被评分程序的 SGD 更新用于 {name}：梯度必须是与参数形状相同的浮点数组",
)
GATE_FORWARD_AT_STEP = message(
    "gate.forward_at_step",
    en="MLP(784, 256, 10).forward at training step {step}",
    zh="MLP(784, 256, 10).forward（第 {step} 个训练步）",
)
GATE_FLOAT_LOGITS = message("gate.float_logits", en="float logits of shape {shape}", zh="形状为 {shape} 的浮点 logits")
GATE_LOGITS_BREAK_LOSS = text(
    "gate.logits_break_loss",
    en="the grader's loss gradient cannot use what forward returned at this step: it must return float logits of "
    "shape (batch, 10) at every step",
    zh="评分程序的损失梯度无法使用 forward 在这一步返回的值：forward 每一步都必须返回形状为 (batch, 10) 的浮点 logits",
)
GATE_FINITE = text("gate.finite_logits", en="finite logits", zh="有限的 logits")
GATE_FINITE_PARAMETERS = text(
    "gate.finite_parameters",
    en="the trained W1, b1, W2, b2 to hold only finite numbers",
    zh="训练后只含有限数的 W1、b1、W2、b2",
)
GATE_NOT_FINITE = message(
    "gate.not_finite", en="{names} holding NaN or infinity after training", zh="训练后含有 NaN 或无穷大的 {names}"
)
GATE_DIVERGED_AT = message(
    "gate.diverged_at", en="NaN or inf after {steps} SGD steps", zh="SGD 更新 {steps} 步之后出现 NaN 或 inf"
)
GATE_DIVERGED = text(
    "gate.diverged",
    en="training diverged; a gradient is wrong (check the gradient tests above)",
    zh="训练发散了；某个梯度有误（请查看上面的梯度测试）",
)
GATE_FLOAT_ARRAYS = text(
    "gate.float_arrays",
    en="the trained W1, b1, W2, b2 as float arrays",
    zh="训练后的 W1、b1、W2、b2 四个浮点数组",
)
GATE_SOMETHING_ELSE = text("gate.something_else", en="something else", zh="其他东西")
GATE_FORGED = text(
    "gate.forged",
    en="something other than the grader's training changed the parameters",
    zh="评分程序的训练之外的东西修改了参数",
)
GATE_ACCURACY = message(
    "gate.accuracy",
    en="MNIST test accuracy after the grader's training ({epochs} epochs, {seconds} s of CPU time): expected at least "
    "{required} (a correct MLP reaches about 98%), got {accuracy}.",
    zh="评分程序训练之后的 MNIST 测试准确率（{epochs} 轮，{seconds} 秒 CPU 时间）：应至少为 {required}"
    "（正确的多层感知机约能达到 98%），实际为 {accuracy}。",
)
GATE_NOT_LEARNING = text(
    "gate.not_learning",
    en="training learns, but not enough: a gradient is slightly wrong (check the gradient tests above)",
    zh="训练有效果，但学得不够：某个梯度略有偏差（请查看上面的梯度测试）",
)
GATE_LEARNS_LITTLE = text(
    "gate.learns_little",
    en="training learns far too little: a forward or a gradient of your MLP, Linear or ReLU is wrong (check their "
    "tests above)",
    zh="训练学到的太少：你的 MLP、Linear 或 ReLU 的某个前向计算或梯度有误（请查看上面它们的测试）",
)
GATE_NO_LEARNING = text(
    "gate.no_learning",
    en="training does not learn (the accuracy is near chance, 10%): a forward or a gradient of your MLP, Linear or "
    "ReLU is wrong (check their tests above)",
    zh="训练没有学到东西（准确率与随机分类相当，约 10%）：你的 MLP、Linear 或 ReLU 的某个前向计算或梯度有误"
    "（请查看上面它们的测试）",
)
GATE_NEAR_REFERENCE = message(
    "gate.near_reference",
    en="the trained W1 and W2 within {limit} (relative L2) of where the grader's own training of a correct MLP from "
    "the same start on the same data ends (a correct MLP, in float32, float64 or with einsum, ends 2-9 % away; "
    "training moves W1 about 50 % and W2 about 75 %)",
    zh="训练后的 W1 和 W2 与评分程序从同一起点、在同样数据上训练正确的多层感知机所到达的位置相差不超过 {limit}"
    "（相对 L2 距离；正确的多层感知机无论用 float32、float64 还是 einsum，都相差 2%～9%；训练本身使 W1 移动约 50%，"
    "W2 约 75%）",
)
GATE_TOO_FAR = message(
    "gate.too_far",
    en="W1 {w1} and W2 {w2} away (test accuracy {accuracy})",
    zh="W1 相差 {w1}，W2 相差 {w2}（测试准确率 {accuracy}）",
)
GATE_FAR = text(
    "gate.far",
    en="a gradient of your MLP, Linear or ReLU differs from the chapter's (see the backward checks above), or "
    "something other than the grader's update changed the parameters during training",
    zh="你的 MLP、Linear 或 ReLU 的某个梯度与本章的公式不同（请查看上面的反向传播检查），"
    "或者训练期间评分程序的更新之外的东西修改了参数",
)
GATE_PASSED = message(
    "gate.passed",
    en="MNIST: {accuracy} test accuracy after {seconds} s of CPU time, {times} times the grader's own NumPy training "
    "(required {required}).",
    zh="MNIST：训练用了 {seconds} 秒 CPU 时间，是评分程序自己用 NumPy 训练的 {times} 倍，测试准确率为 {accuracy}"
    "（要求 {required}）。",
)


# --------------------------------------------------------------------------------------------- the workers
# What the grading code says when a sandboxed worker ended, or was stopped, before a check had its record.

WORKER_EXIT = message("worker.exit", en="ended with exit status {status}", zh="以退出状态 {status} 结束")
WORKER_STALLED = message(
    "worker.stalled",
    en="used almost no CPU for {seconds} s (it waited for something that never came)",
    zh="在 {seconds} 秒内几乎没有使用 CPU（它在等待永远不会到来的东西）",
)
WORKER_CPU = message("worker.cpu", en="used its {seconds} s of CPU time", zh="用完了它的 {seconds} 秒 CPU 时间")
WORKER_IDLE = message(
    "worker.idle",
    en="was still running after {seconds} s, most of them spent waiting rather than computing",
    zh="运行 {seconds} 秒后仍未结束，其中大部分时间在等待而不是在计算",
)
WORKER_MEMORY = message(
    "worker.memory",
    en="held more than {mib} MiB of memory (its processes and the files it wrote, together)",
    zh="占用的内存超过 {mib} MiB（它的所有进程和它写入的文件合计）",
)
WORKER_SPOILED = message(
    "worker.spoiled", en="wrote something other than its report ({problem})", zh="写入了报告之外的东西（{problem}）"
)
WHILE_CHECK = message("worker.while_check", en="{reason} while running this check", zh="{reason}（在运行这项检查时）")
WHILE_CELLS = message(
    "worker.while_cells", en="{reason} while running your answer cells", zh="{reason}（在运行你的答案单元格时）"
)
WHILE_CELL = message(
    "worker.while_cell",
    en="{reason} while running answer cell {cell}",
    zh="{reason}（在运行答案单元格 {cell} 时）",
)
NOT_FINISHED = message(
    "worker.not_finished",
    en="This check could not finish: the worker process running your code {reason}.",
    zh="这项检查无法完成：运行你代码的工作进程{reason}。",
)
NOT_FINISHED_TWICE = message(
    "worker.not_finished_twice",
    en="This check could not finish: the worker process running your code {reason}, twice.",
    zh="这项检查无法完成：运行你代码的工作进程{reason}，两次都是如此。",
)
NOT_FINISHED_TIMES = message(
    "worker.not_finished_times",
    en="This check could not finish: the worker process running your code {reason}, {count} times in a row.",
    zh="这项检查无法完成：运行你代码的工作进程{reason}，连续 {count} 次都是如此。",
)
WORKER_ENDED_CAUSE = text(
    "cause.worker.ended",
    en="your code ended the process, ran too long or used too much memory",
    zh="你的代码结束了进程、运行时间过长或占用内存过多",
)
WORKER_STALLED_CAUSE = text(
    "cause.worker.stalled",
    en="your code waits for something that never comes: a sleep, input(), or a process it started",
    zh="你的代码在等待永远不会到来的东西：sleep、input()，或者它启动的某个进程",
)
WORKER_CPU_CAUSE = text(
    "cause.worker.cpu",
    en="an endless loop, perhaps one that catches the grader's time limit (a bare `except`)",
    zh="一个无限循环，可能还捕获了评分程序的时间限制（一个不带类型的 `except`）",
)
WORKER_IDLE_CAUSE = text(
    "cause.worker.idle",
    en="your code keeps waiting (sleeps, or waits for a process it started) and computes only now and then",
    zh="你的代码一直在等待（sleep，或者等待它启动的进程），只是偶尔计算一下",
)
WORKER_MEMORY_CAUSE = text(
    "cause.worker.memory",
    en="your code keeps too much in memory: huge arrays, copies kept in a list, processes it started, or large files",
    zh="你的代码在内存中保留了太多东西：巨大的数组、保存在列表中的副本、它启动的进程，或者很大的文件",
)
WORKER_SPOILED_CAUSE = text(
    "cause.worker.spoiled",
    en="your code wrote to the grader's report (the worker's standard output descriptor)",
    zh="你的代码向评分程序的报告（工作进程的标准输出描述符）写入了内容",
)
RECORD_REFUSED = message(
    "worker.record_refused",
    en="This check's record could not be read ({problem}).",
    zh="这项检查的记录无法读取（{problem}）。",
)
RECORD_CHANGED_CAUSE = text(
    "cause.worker.record_changed",
    en="your code changed or replaced what the grader's worker reports",
    zh="你的代码修改或替换了评分工作进程报告的内容",
)
RECORD_UNJUDGEABLE = message(
    "worker.record_unjudgeable",
    en="This check's record could not be judged ({problem}); your code changed or broke the worker's files.",
    zh="这项检查的记录无法评判（{problem}）；你的代码修改或破坏了工作进程的文件。",
)


# --------------------------------------------------------------------------------------------- notes to the student
# What the grader says at the top of a graded notebook when it graded something other than what was handed in.

NOTE = message("note.from_grader", en="**Note from the grader.** {note}", zh="**评分程序的说明。** {note}")
NOTE_RENAMED = message(
    "note.renamed",
    en="Your notebook was named {found}; it was graded as {expected}.",
    zh="你的 notebook 名为 {found}；它被当作 {expected} 评分。",
)
NOTE_MISSING = message(
    "note.missing",
    en="No notebook {name} was found in your submission; the unmodified release was graded instead (0 points).",
    zh="你的提交中没有找到 notebook {name}；改为评分未经修改的发布版本（0 分）。",
)
NOTE_UNREADABLE = message(
    "note.unreadable",
    en="Your notebook could not be read ({reason}); it is kept as {kept} and the unmodified release was graded "
    "instead (0 points).",
    zh="你的 notebook 无法读取（{reason}）；它被保存为 {kept}，改为评分未经修改的发布版本（0 分）。",
)
NOTE_FOLDER_LINK = text(
    "note.folder_link",
    en="Your submission folder was a symbolic link, not a folder: nothing in it was graded.",
    zh="你的提交文件夹是一个符号链接，而不是文件夹：其中的内容都没有被评分。",
)
NOTE_REFUSED = message(
    "note.refused",
    en="These entries of your submission were not graded, since they are not plain files: {entries}. "
    "Submit plain files only (no links, pipes or devices).",
    zh="你提交的这些条目没有被评分，因为它们不是普通文件：{entries}。请只提交普通文件（不要提交链接、管道或设备文件）。",
)
NOTE_SET_ASIDE = message(
    "note.set_aside",
    en="These entries of your submission were not graded, and were set aside: {entries}. A submission may nest "
    "folders at most {depth} levels deep and hold at most {count} files and folders.",
    zh="你提交的这些条目没有被评分，已被移到一旁：{entries}。提交的文件夹最多只能嵌套 {depth} 层，"
    "文件和文件夹合计最多 {count} 个。",
)
NOTE_ENTRY = message("note.entry", en="`{path}` ({kind})", zh="`{path}`（{kind}）")
NOTE_MORE = message("note.more", en="{count} more", zh="另外 {count} 项")
NOTE_UNSANDBOXED = text(
    "note.unsandboxed",
    en="This notebook was graded without a sandbox (`KitGrading.sandbox = False` in the course's configuration).",
    zh="这个 notebook 是在没有沙箱的情况下评分的（课程配置中设置了 `KitGrading.sandbox = False`）。",
)
KIND_SYMLINK = text("note.kind.symlink", en="a symbolic link", zh="符号链接")
KIND_HARD_LINK = text("note.kind.hard_link", en="a hard link", zh="硬链接")
KIND_FIFO = text("note.kind.fifo", en="a FIFO (named pipe)", zh="FIFO（命名管道）")
KIND_SOCKET = text("note.kind.socket", en="a socket", zh="套接字")
KIND_DEVICE = text("note.kind.device", en="a device file", zh="设备文件")
KIND_OTHER = text("note.kind.other", en="not a regular file", zh="非普通文件")
KIND_DEEP = text("note.kind.deep", en="nested too deep, or its path too long", zh="嵌套过深，或路径过长")
KIND_MANY = text("note.kind.many", en="beyond the first entries", zh="超出了前面允许的条目数")


# --------------------------------------------------------------------------------------------- the class report
# The class report's own headings and sentences (``autograder.report.render_html``); the causes and messages it counts
# are the catalogue's. A number is a field, formatted by the report.

REPORT_TITLE = text("report.title", en="Class report", zh="班级报告")
REPORT_SCORES = text("report.scores", en="Scores", zh="分数")
REPORT_CHECKS = text("report.checks", en="Checks", zh="检查")
REPORT_CAUSES = text("report.causes", en="Named causes", zh="已命名的原因")
REPORT_UNEXPLAINED = text("report.unexplained", en="Failures with no named cause", zh="未命名原因的失败")
REPORT_NOT_WRITTEN = text("report.not_written", en="Methods not written yet", zh="尚未实现的方法")
REPORT_GATE = text("report.gate", en="The MNIST gate", zh="MNIST 门槛")
REPORT_SIMILAR = text("report.similar", en="Similar submissions (leads)", zh="相似的提交（线索）")
REPORT_UNGRADED = text("report.ungraded", en="Ungraded submissions", zh="未评分的提交")
REPORT_STUDENTS = text("report.students", en="Students", zh="学生")
REPORT_STUDENT = text("report.student", en="student", zh="学生")
REPORT_STUDENTS_N = text("report.students_n", en="students", zh="名学生")
REPORT_NAME = text("report.name", en="name", zh="姓名")
REPORT_SCORE = text("report.score", en="score", zh="分数")
REPORT_CHECK = text("report.check", en="check", zh="检查")
REPORT_POINTS = text("report.points", en="points", zh="分值")
REPORT_PASS_RATE = text("report.pass_rate", en="pass rate", zh="通过率")
REPORT_PASSED = text("report.passed", en="passed", zh="通过")
REPORT_FAILED = text("report.failed", en="failed", zh="未通过")
REPORT_EXPLAINED = text("report.explained", en="with a named cause", zh="有命名原因")
REPORT_UNWRITTEN = text("report.unwritten", en="not written yet", zh="尚未实现")
REPORT_METHODS = text("report.methods", en="methods", zh="方法")
REPORT_NO_VERDICT = text("report.no_verdict", en="no verdict", zh="无判定")
REPORT_CAUSE = text("report.cause", en="cause", zh="原因")
REPORT_COUNT = text("report.count", en="count", zh="人数")
REPORT_MESSAGE = text("report.message", en="message", zh="信息")
REPORT_GOT = text("report.got", en="what came", zh="实际结果")
REPORT_FAILED_CHECKS = text("report.failed_checks", en="failed checks", zh="未通过的检查")
REPORT_WHY = text("report.why", en="why", zh="原因")
REPORT_PAIR = text("report.pair", en="pair", zh="学生对")
REPORT_ALIKE = text("report.alike", en="alike", zh="相似度")
REPORT_SHARED = text("report.shared", en="rare mistakes both made", zh="两人都犯的罕见错误")
REPORT_ACCURACY = text("report.accuracy", en="test accuracy (%)", zh="测试准确率 (%)")
REPORT_SPEED = text("report.speed", en="step time / grader's NumPy step", zh="每步耗时 / 评分程序 NumPy 每步耗时")
REPORT_NONE = text("report.none", en="None.", zh="无。")
REPORT_SUBMISSIONS = text("report.submissions", en="submissions", zh="份提交")
REPORT_GRADED = text("report.graded", en="graded", zh="已评分")
REPORT_NOT_GRADED = text("report.not_graded", en="not graded", zh="未评分")
REPORT_GENERATED = text("report.generated", en="generated", zh="生成于")
REPORT_MEDIAN = text("report.median", en="median", zh="中位数")
REPORT_MEAN = text("report.mean", en="mean", zh="平均")
REPORT_LOWEST = text("report.lowest", en="lowest", zh="最低")
REPORT_HIGHEST = text("report.highest", en="highest", zh="最高")
REPORT_EARLIER_GRADE = text(
    "report.earlier_grade",
    en="an earlier grade stands; the last regrade failed",
    zh="之前的分数仍然有效；最近一次重新评分失败",
)
REPORT_LEAD = message(
    "report.lead",
    en="Pairs whose answer cells are near-identical once the release's given code, and code more than {common} "
    "students wrote alike, are set aside. This is a lead for a person to look at, not a finding of copying: similar "
    "code has innocent causes (a study group, the same tutorial, an answer with one natural form). Rare mistakes both "
    "made are listed as further evidence.",
    zh="去掉发布版本中给定的代码，以及超过 {common} 名学生写法相同的代码之后，答案单元格几乎相同的学生对。"
    "这只是需要人来查看的线索，而不是抄袭的结论：相似的代码可能有正当的原因（学习小组、同一个教程、"
    "只有一种自然写法的答案）。两人都犯的罕见错误作为进一步的证据列出。",
)
REPORT_MORE_PAIRS = message(
    "report.more_pairs",
    en="{shown} of {total} pairs shown; every pair is in similar.csv.",
    zh="共 {total} 对，这里显示 {shown} 对；所有的学生对都在 similar.csv 中。",
)
REPORT_RESIDUE = text(
    "report.residue",
    en="Failed checks the catalogue names no cause for, grouped by what came: what the catalogue does not explain yet.",
    zh="目录中没有命名原因的失败，按实际结果分组：目录尚未解释的部分。",
)
REPORT_NOT_WRITTEN_NOTE = text(
    "report.not_written_note",
    en="Failed checks whose method still raises NotImplementedError: not written yet, not a mistake for the catalogue "
    "to explain.",
    zh="方法仍然抛出 NotImplementedError 的未通过检查：尚未实现，不是需要目录解释的错误。",
)
REPORT_RATE_AXIS = text("report.rate_axis", en="students passing (%)", zh="通过的学生 (%)")
REPORT_NOT_SEARCHED = text("report.not_searched", en="Not looked for (--no-similar).", zh="未查找（--no-similar）。")

# --------------------------------------------------------------------------------------------- the feedback's top box
# What the top of a student's feedback says (``autograder.exporters.summary``): the failed checks, the points lost, the
# list of hidden tests. A number of points is a field, formatted as the feedback shows it (``f"{points:g}"``).

FEEDBACK_FAILED = text("feedback.failed", en="Checks that failed", zh="未通过的检查")
FEEDBACK_LOST = message("feedback.lost", en="{lost} of {total} points lost", zh="共 {total} 分，失去 {lost} 分")
FEEDBACK_NONE = text("feedback.none", en="Every check passed.", zh="所有检查都通过了。")
FEEDBACK_HIDDEN_PASSED = message(
    "feedback.hidden_passed",
    en="Every hidden test passed ({total} of {total} points).",
    zh="所有隐藏测试都通过了（{total} 分中得 {total} 分）。",
)
FEEDBACK_POINTS = text("feedback.points", en="points", zh="分")
FEEDBACK_CAUSE = text("feedback.cause", en="Likely cause", zh="可能的原因")
FEEDBACK_FORMULA = text("feedback.formula", en="The formula", zh="公式")
FEEDBACK_PUBLIC = text(
    "feedback.public",
    en="Public checks that failed (0 points: they help you find the mistake)",
    zh="未通过的公开检查（0 分：它们帮助你找到错误）",
)
FEEDBACK_UNREADABLE = text(
    "feedback.unreadable",
    en="The grader could not read its own verdict for this test cell: the grader's fault, not yours. "
    "Tell your instructor.",
    zh="评分程序无法读取它为这个测试单元格写下的结果：这是评分程序的问题，不是你的错误。请告诉你的老师。",
)
"""A hidden test cell whose verdict is malformed (``autograder.verdict.Unreadable``)."""
FEEDBACK_CONTENTS = text("feedback.contents", en="Hidden tests", zh="隐藏测试")
FEEDBACK_PUBLIC_COUNT = message(
    "feedback.public_count",
    en="Public checks (0 points): {failed} of {total} failed",
    zh="公开检查（0 分）：{total} 项中有 {failed} 项未通过",
)


# The probe declares its own messages (it runs in a worker without this module); a verdict may name them, so loading
# the grader's catalogue loads theirs too.
from autograder.probe import messages as _probe_messages  # noqa: E402, F401
