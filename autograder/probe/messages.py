"""The messages a probe records, declared once by id (``nn_messages.message``, a course helper).

Their words in each language, English first, are in ``i18n/messages.<language>.toml``; the trusted side renders them
(``autograder/wordings.json``, added by ``autograder.messages``).

Untrusted side: the sandboxed worker has this package and the course's helpers, not ``autograder.messages`` (the
judges' messages). A probe records a failure as data (``Failure.to_data``), never as words; the judge rebuilds it.
"""

from __future__ import annotations

from autograder.course.nn_messages import message, text

CPU_TIME = message("probe.cpu_time")
WALL_TIME = message("probe.wall_time")
ENDLESS_LOOP = text("probe.endless_loop")
NEVER_STOPS = text("probe.never_stops")
LOADING_CELL = message("probe.loading_cell")
GATE_COUNTING = text("probe.gate_counting")
GATE_STEP = message("probe.gate_step")
