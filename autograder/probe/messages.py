"""The messages a probe records, declared once by id in English (``nn_messages.message``, a course helper).

Their wordings in other languages are in ``i18n/messages.<language>.toml``; the trusted side renders them
(``autograder/wordings.json``, added by ``autograder.messages``).

Untrusted side: the sandboxed worker has this package and the course's helpers, not ``autograder.messages`` (the
judges' messages). A probe records a failure as data (``Failure.to_data``), never as words; the judge rebuilds it.
"""

from __future__ import annotations

from autograder.course.nn_messages import message, text

CPU_TIME = message(
    "probe.cpu_time",
    en="{what}: expected to finish within {seconds} s of CPU time, but it was still running.",
)
WALL_TIME = message(
    "probe.wall_time",
    en="{what}: expected to finish within {seconds} s, but it was still running.",
)
ENDLESS_LOOP = text(
    "probe.endless_loop",
    en="an endless loop, or a Python loop over every element instead of array operations",
)
NEVER_STOPS = text(
    "probe.never_stops",
    en="your code waits for something that never comes, or never stops",
)
LOADING_CELL = message(
    "probe.loading_cell",
    en="Running the definitions of answer cell {cell}",
)
GATE_COUNTING = text(
    "probe.gate_counting",
    en="MNIST training, counting the Python lines of a step",
)
GATE_STEP = message("probe.gate_step", en="MNIST training, step {step}")
