"""A hidden check's verdict as data, from the judge to every reader.

The grader writes each verdict into its test cell as a ``display_data`` output of type ``MIME`` (next to the error
output that makes nbgrader give the cell 0 points): the feedback, the grade command's summary and the class report
read these fields, never the rendered message. ``Failure`` and ``Text`` are the course helpers' (``nn_messages``).

A verdict is read only where the grader writes one: the output of a hidden test cell (``test_<check>``:
``autograder.cell_ids``) naming that check. An output of type ``MIME`` anywhere else is a student's (``display`` can
emit any type) and is never read; the grader drops such outputs after execution
(``autograder.preprocessors.sanitize.DropForgedVerdicts``). One that cannot be read raises ``Unreadable``: the
grader's fault for that cell, which its readers show as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nbformat import NotebookNode

from autograder.cell_ids import check_of

if TYPE_CHECKING:  # the course's helpers: importable once the release folder is known (``grading.prepare``)
    from autograder.course.nn_messages import Failure, Text

MIME = "application/vnd.dl-notes-kit.verdict+json"
"""The media type of a verdict in a notebook output (nbconvert's HTML shows no output of an unknown type)."""


class Unreadable(ValueError):
    """A hidden test cell's verdict that cannot be read (malformed, several, or naming another check)."""


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
        from autograder.course.nn_messages import Failure, Text

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


def is_verdict(output: Mapping[str, Any]) -> bool:
    """Whether ``output`` has the verdict's media type (the grader's, or a student's forgery of it)."""
    data = output.get("data")
    return isinstance(data, Mapping) and MIME in data


def read(cell: Mapping[str, Any]) -> Verdict | None:
    """The verdict the grader wrote into a hidden test cell; None if there is none or the cell is no hidden test cell.

    Raises ``Unreadable`` if the cell holds several, or one that is malformed or names another check.
    """
    check = check_of(cell)
    if check is None:
        return None
    found = [output for output in cell.get("outputs", []) if is_verdict(output)]
    if not found:
        return None
    if len(found) > 1 or found[0].get("output_type") != "display_data":
        raise Unreadable(f"{check}: {len(found)} verdict outputs, the grader writes one display_data")
    try:
        result = Verdict.from_data(found[0]["data"][MIME])
    except Exception as error:  # noqa: BLE001 - any malformed verdict is the same fault: it cannot be read
        raise Unreadable(f"{check}: {type(error).__name__}: {error}") from error
    if result.check != check:
        raise Unreadable(f"{check}: the verdict names another check, {result.check!r}")
    return result
