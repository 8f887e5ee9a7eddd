"""A hidden check's verdict as data, from the judge to every reader.

The grader writes each verdict into its test cell as a ``display_data`` output of type ``MIME`` (next to the error
output that makes nbgrader give the cell 0 points): the feedback, the grade command's summary and the class report
read these fields, never the rendered message. ``Failure`` and ``Text`` are the course helpers' (``nn_messages``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nbformat import NotebookNode

if TYPE_CHECKING:  # the course's helpers: importable once the release folder is known (``grading.prepare``)
    from nn_messages import Failure, Text

MIME = "application/vnd.dl-notes-kit.verdict+json"
"""The media type of a verdict in a notebook output (nbconvert's HTML shows no output of an unknown type)."""


@dataclass(frozen=True)
class Passed:
    """What a judge returns when the check passed: a line to show (or None) and what it measured."""

    note: Text | None = None
    numbers: Mapping[str, float] = field(default_factory=dict)

    def __str__(self) -> str:
        return str(self.note) if self.note is not None else ""


@dataclass(frozen=True)
class Verdict:
    """One hidden check's result: passed, or the failure (message, likely cause, formula); a note and numbers."""

    check: str
    passed: bool
    failure: Failure | None = None
    note: Text | None = None
    numbers: Mapping[str, float] = field(default_factory=dict)

    @staticmethod
    def failed(check: str, failure: Failure) -> Verdict:
        return Verdict(check, False, failure, None, dict(failure.numbers))

    @staticmethod
    def of(check: str, result: Passed | Text | None) -> Verdict:
        """The verdict of a judge that returned ``result`` (it raises ``CheckFailed`` when the check fails)."""
        if isinstance(result, Passed):
            return Verdict(check, True, None, result.note, dict(result.numbers))
        return Verdict(check, True, None, result)

    def to_data(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "passed": self.passed,
            "failure": self.failure.to_data() if self.failure is not None else None,
            "note": self.note.to_data() if self.note is not None else None,
            "numbers": {name: float(value) for name, value in self.numbers.items()},
        }

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Verdict:
        from nn_messages import Failure, Text

        return Verdict(
            str(data["check"]),
            bool(data["passed"]),
            Failure.from_data(data["failure"]) if data.get("failure") else None,
            Text.from_data(data["note"]) if data.get("note") else None,
            {str(k): float(v) for k, v in (data.get("numbers") or {}).items()},
        )

    def output(self) -> NotebookNode:
        """This verdict as a notebook output that no renderer shows."""
        return NotebookNode(output_type="display_data", metadata={}, data={MIME: self.to_data()})


def read(cell: Mapping[str, Any]) -> Verdict | None:
    """The verdict the grader wrote into a test cell, if any."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "display_data" and MIME in output.get("data", {}):
            return Verdict.from_data(output["data"][MIME])
    return None


def verdicts(notebook: Mapping[str, Any]) -> dict[str, Verdict]:
    """Every verdict of a graded notebook, by check name, in notebook order."""
    found = {}
    for cell in notebook.get("cells", []):
        verdict = read(cell)
        if verdict is not None:
            found[verdict.check] = verdict
    return found
