"""The messages a probe records, declared once by id in every language (``nn_messages.message``, a course helper).

Untrusted side: the sandboxed worker has this package and the course's helpers, not ``autograder.messages`` (the
judges' messages). A probe records a failure as data (``Failure.to_data``), never as words; the judge rebuilds it.
"""

from __future__ import annotations

from nn_messages import message, text

CPU_TIME = message(
    "probe.cpu_time",
    en="{what}: expected to finish within {seconds} s of CPU time, but it was still running.",
    zh="{what}：应在 {seconds} 秒 CPU 时间内完成，但它仍在运行。",
)
WALL_TIME = message(
    "probe.wall_time",
    en="{what}: expected to finish within {seconds} s, but it was still running.",
    zh="{what}：应在 {seconds} 秒内完成，但它仍在运行。",
)
ENDLESS_LOOP = text(
    "probe.endless_loop",
    en="an endless loop, or a Python loop over every element instead of array operations",
    zh="死循环，或者用 Python 循环逐个元素计算，而不是用数组运算",
)
NEVER_STOPS = text(
    "probe.never_stops",
    en="your code waits for something that never comes, or never stops",
    zh="你的代码在等待永远不会到来的东西，或者永远不会停止",
)
LOADING_CELL = message(
    "probe.loading_cell",
    en="Running the definitions of answer cell {cell}",
    zh="运行答案单元格 {cell} 中的定义",
)
GATE_TRAINING = text("probe.gate_training", en="MNIST training", zh="MNIST 训练")
GATE_COUNTING = text(
    "probe.gate_counting",
    en="MNIST training, counting the Python lines of a step",
    zh="MNIST 训练（统计一个训练步运行的 Python 行数）",
)
GATE_STEP = message("probe.gate_step", en="MNIST training, step {step}", zh="MNIST 训练，第 {step} 步")
