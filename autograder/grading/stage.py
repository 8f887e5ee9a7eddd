"""Where one submission's grading is, as data: a stage id and its numbers, from inside ``nbgrader autograde`` to the
grade command's progress display (``autograder.grading.progress``).

Trusted side only. nbgrader runs the kit's preprocessors in its own process (``autograder.grading.autograde`` starts
one ``nbgrader autograde`` per submission), so the stage crosses a process boundary the way a fault does
(``autograder.faults``): the grade command names a file in ``$KIT_STAGE_RECORD``, the kit's code inside nbgrader
replaces it with the current ``Stage`` (``report``), and the grade command reads it (``Stage.read``) while it waits.
Each change of stage is also one line of the grading log (nbgrader's output, ``.kit-graded/logs/STUDENT.log``).
A stage is rendered to words once, by ``Stage.words``, for the terminal and the log alike.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

STAGE_RECORD_ENV = "KIT_STAGE_RECORD"
"""The file ``nbgrader autograde`` keeps its current stage in; the grade command sets it for each attempt."""
STAGES = ("kernel", "checks", "gate", "control", "feedback")
"""Every stage: the notebook in the sandboxed kernel (cell ``done`` of ``total``), a group of hidden checks in a
sandboxed worker (group ``done`` of ``total``, ``checks`` its first check), the MNIST gate's training (step ``done`` of
``total``), the course's own solution run again as the control of suspect checks (``checks``), and, once graded, its
feedback being written (by the grade command itself)."""
LOG_EVERY = 15.0
"""Seconds between two log lines of the same stage (the gate's training moves every few seconds)."""


@dataclass(frozen=True)
class Stage:
    """Where a submission's grading is: one of ``STAGES`` and its numbers."""

    id: str
    done: int = 0
    total: int = 0
    checks: str = ""  # the group's first check, or the suspect checks of a control

    def __post_init__(self) -> None:
        if self.id not in STAGES:
            raise ValueError(f"unknown stage {self.id!r}; one of {STAGES}")

    def words(self) -> str:
        """The stage as the instructor reads it (terminal and log)."""
        if self.id == "kernel":
            return f"notebook in the sandboxed kernel, cell {self.done} of {self.total}"
        if self.id == "checks":
            return f"hidden checks, worker {self.done} of {self.total} ({self.checks} ...)"
        if self.id == "gate":
            if not self.done:
                return "MNIST gate: loading MNIST and the student's MLP"
            share = 100 * self.done / max(1, self.total)
            return f"MNIST gate: training, step {self.done} of {self.total} ({share:.0f} %)"
        if self.id == "control":
            return f"control: the course's solution on {self.checks} (a suspected grader fault)"
        return "graded; writing its feedback (nbgrader generate_feedback)"

    def write(self, path: Path) -> None:
        """Replace the record at ``path`` with this stage, whole (a reader never sees half of it)."""
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(asdict(self)))
        os.replace(partial, path)

    @classmethod
    def read(cls, path: Path) -> Stage | None:
        """The stage recorded in ``path``, or None if there is none (or it is not one)."""
        try:
            data = json.loads(path.read_text())
            return cls(str(data["id"]), int(data["done"]), int(data["total"]), str(data["checks"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


_logged: dict[tuple[str, ...], float] = {}  # the stage last logged in this process, and when


def report(stage: Stage) -> None:
    """Inside ``nbgrader autograde``: record ``stage`` for the grade command (when it set ``$KIT_STAGE_RECORD``), and
    log it when the stage is new or ``LOG_EVERY`` seconds after its last line. Never fails the grading."""
    target = os.environ.get(STAGE_RECORD_ENV)
    if target:
        try:
            stage.write(Path(target))
        except OSError:
            pass  # the display is a courtesy: a full disk is met, and said, by what grades
    # a new kernel cell or training step is the same stage; a new worker, the control, or training begun is a new one
    if stage.id == "kernel":
        key: tuple[str, ...] = (stage.id,)
    elif stage.id == "gate":
        key = (stage.id, "training" if stage.done else "loading")
    else:
        key = (stage.id, str(stage.done), stage.checks)
    now = time.monotonic()
    if key not in _logged or now - _logged[key] >= LOG_EVERY:
        _logged.clear()
        _logged[key] = now
        try:
            print(f"[kit] {time.strftime('%H:%M:%S')} {stage.words()}", file=sys.stderr, flush=True)
        except (OSError, ValueError):  # the log's disk full, or its stream closed
            pass
