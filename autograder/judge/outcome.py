"""Trusted side: what one check's probe gave, as the judge reads it (``WorkerOutcome``).

A sandboxed worker reports each check as a record (``probe/run.py``): ``{"records": ...}``, ``{"stopped": FAILURE}``
(a time limit) or ``{"missing_class": NAME, "cell_errors": {CELL: RAISED}}``. ``from_record`` reads one, already
decoded within caps (``records.decode_record``), into a ``WorkerOutcome`` and checks every value of it there, once:
the worker runs student code, so what it says is hostile. The grader's own outcomes (a worker that ended or broke its
report, the gate's speed measured from outside, a maintainer's ``checks.run_here``) are built as objects. From there
on an outcome is the trusted side's: the judge reads its fields and validates nothing again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autograder import registry
from autograder.student_text import student_text

if TYPE_CHECKING:  # the course's helpers are importable once the grading is prepared (``grading.prepare``)
    from autograder.course.nn_messages import Failure


@dataclass(frozen=True)
class CellError:
    """What an answer cell raised while the worker ran its definitions (the student's words: bounded)."""

    raised: str  # the exception's type name
    message: str


@dataclass(frozen=True)
class WorkerOutcome:
    """One check's outcome: what its probe recorded, or why there is nothing to judge."""

    records: Any = None  # what the probe recorded (plain data), if it ran to its end
    failure: Failure | None = None  # why it did not: its time limit, its worker's end, a record refused
    crash: bool = False  # the worker ended or broke its report: ``verify`` runs the control before charging it
    missing_class: str | None = None  # the class the answer cells did not define
    cell_errors: Mapping[str, CellError] = field(default_factory=dict)  # answer cells that raised, by grade id
    measured: Mapping[str, Any] | None = None  # the gate's speed, measured from outside (``grading.pace``)

    @staticmethod
    def from_record(data: Any) -> WorkerOutcome:
        """The outcome a worker recorded (``decode_record``'s plain data); ``ValueError`` unless it is one the probe
        writes (a failure that is not a declared message with its fields, cell errors that are not exceptions)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"not a recorded outcome: {str(data)[:80]!r}")
        if "stopped" in data:
            from autograder.judge.common import recorded_failure  # needs the course's helpers (``grading.prepare``)

            return WorkerOutcome(failure=recorded_failure(data["stopped"]))
        if "missing_class" in data:
            return WorkerOutcome(
                missing_class=student_text(data["missing_class"]), cell_errors=_cell_errors(data.get("cell_errors", {}))
            )
        if "records" not in data:
            raise ValueError(f"a recorded outcome without records: {sorted(data)[:5]}")
        return WorkerOutcome(records=data["records"])


def _cell_errors(data: Any) -> dict[str, CellError]:
    """The errors a worker recorded of the registry's answer cells (``probe.core.raised`` by grade id; the worker
    names any cells, only these are shown), each string bounded."""
    if not isinstance(data, Mapping):
        raise ValueError(f"not the answer cells' errors: {str(data)[:80]!r}")
    errors = {}
    for cell, error in data.items():
        if cell not in registry.answer_cells():
            continue
        if not isinstance(error, Mapping) or not {"raised", "message"} <= set(error):
            raise ValueError(f"not an exception the cell {cell!r} raised: {str(error)[:80]!r}")
        errors[cell] = CellError(student_text(error["raised"]), student_text(error["message"]))
    return errors
