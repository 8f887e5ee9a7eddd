"""What a class's verdicts come to, from ``collect.ClassData``: pure functions, no files.

Per check: its pass rate; each named cause (a cause's id is what is counted, never its words) with the students who
showed it; the methods not written yet (a failure of message ``not_written``: the method still raises
NotImplementedError), apart; and the residue the catalogue does not explain yet, the other failures without a cause
grouped by what came (the message's id, and its ``got`` field when the message is ``expected_got``). Then the scores,
the MNIST gate's accuracy and speed, and who was not graded and why.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autograder import registry
from autograder.report.catalogue import Catalogue
from autograder.report.collect import CheckInfo, ClassData, Student
from autograder.student_text import student_lines, student_text
from autograder.verdict import Verdict

if TYPE_CHECKING:
    from autograder.course.nn_messages import Text

GATE_CHECK = next((c.name for c in registry.CHECKS if c.slow), "mnist_accuracy")
"""The MNIST gate: its verdicts' numbers hold ``accuracy`` (0..1) and ``times_reference`` (its step time over the
grader's NumPy step)."""
EXPECTED_GOT = "expected_got"
"""The message id whose ``got`` field tells unexplained failures apart."""
NOT_WRITTEN = "not_written"
"""The message id of a failure whose method still raises NotImplementedError (its ``method`` field names it)."""


@dataclass(frozen=True)
class Distribution:
    """Numbers, with the figures a person reads first."""

    values: list[float]

    @property
    def n(self) -> int:
        return len(self.values)

    def stats(self) -> dict[str, float]:
        if not self.values:
            return {}
        ordered = sorted(self.values)
        return {
            "n": len(ordered),
            "mean": statistics.fmean(ordered),
            "median": statistics.median(ordered),
            "min": ordered[0],
            "max": ordered[-1],
            "p10": ordered[int(0.1 * (len(ordered) - 1))],
            "p90": ordered[math.ceil(0.9 * (len(ordered) - 1))],
        }


@dataclass
class CheckSummary:
    """One check across the class."""

    info: CheckInfo
    judged: int = 0  # graded submissions with a verdict on it
    passed: int = 0
    explained: int = 0  # failed, with a named cause
    not_written: int = 0  # failed, the method not written yet
    no_verdict: int = 0  # graded submissions whose test cell holds no verdict

    @property
    def unexplained(self) -> int:
        """Failed for a reason the catalogue does not name yet."""
        return self.failed - self.explained - self.not_written

    @property
    def failed(self) -> int:
        return self.judged - self.passed

    @property
    def pass_rate(self) -> float | None:
        return self.passed / self.judged if self.judged else None


@dataclass
class Group:
    """Students whose failures of one check are alike: one named cause, methods not written yet, or one unexplained
    kind of failure."""

    check: str
    kind: str  # "cause", "not_written" or "unexplained"
    id: str  # the cause's id, or the failure message's id
    got: str = ""  # unexplained ``expected_got``: its ``got`` field, as JSON
    text: str = ""  # the cause, the methods not written, or the first such failure's message, in the edition's language
    got_text: str = ""  # the ``got`` field in the edition's language
    students: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.check}|{self.kind}|{self.id}|{self.got}"

    @property
    def anchor(self) -> str:
        digest = "-" + hashlib.sha256(self.got.encode()).hexdigest()[:8] if self.got else ""
        return re.sub(r"[^\w-]", "-", f"{self.kind}-{self.check}-{self.id}{digest}")

    @property
    def count(self) -> int:
        return len(self.students)


@dataclass
class ClassSummary:
    """Everything the report shows, before it is laid out."""

    data: ClassData
    catalogue: Catalogue
    checks: list[CheckSummary]
    causes: dict[str, list[Group]]  # check -> its named causes, most frequent first
    not_written: dict[str, list[Group]]  # check -> its failures of methods not written yet (one group)
    unexplained: dict[str, list[Group]]  # check -> its unexplained failures, grouped by what came
    scores: Distribution
    accuracy: Distribution  # the gate's test accuracy, 0..1
    times_reference: Distribution  # the gate's step time over the grader's NumPy step
    ungraded: list[Student]  # left ungraded, or whose last regrade failed (an earlier grade stands)

    @property
    def max_score(self) -> float | None:
        tops = [s.max_score for s in self.data.graded() if s.max_score is not None]
        return max(tops) if tops else None

    def groups(self) -> list[Group]:
        """Every named cause, methods not written and unexplained group, check by check."""
        kinds = (self.causes, self.not_written, self.unexplained)
        return [g for by_check in kinds for groups in by_check.values() for g in groups]

    def groups_by_student(self) -> dict[str, list[Group]]:
        """student -> the groups they are in."""
        found: dict[str, list[Group]] = {}
        for group in self.groups():
            for student in group.students:
                found.setdefault(student, []).append(group)
        return found


def _got(verdict: Verdict, catalogue: Catalogue) -> tuple[str, str]:
    """An ``expected_got`` failure's ``got`` field as JSON (what tells such failures apart) and in the edition's
    language; ("", "") for any other failure."""
    from autograder.course.nn_messages import Text

    message = verdict.failure.message if verdict.failure is not None else None
    if message is None or message.id != EXPECTED_GOT:
        return "", ""
    got = message.fields.get("got")
    if isinstance(got, Text):
        return json.dumps(got.to_data(), sort_keys=True, ensure_ascii=False), catalogue.render(got)
    return json.dumps(got, sort_keys=True, ensure_ascii=False), str(got)


def _grouped(found: dict[tuple[str, str], Group]) -> dict[str, list[Group]]:
    by_check: dict[str, list[Group]] = {}
    for group in sorted(found.values(), key=lambda g: (-g.count, g.id, g.got)):
        by_check.setdefault(group.check, []).append(group)
    return by_check


def summarize(data: ClassData, catalogue: Catalogue) -> ClassSummary:
    """The class's verdicts counted: per check, per cause, per unexplained failure; scores and the gate."""
    tally = _Tally(catalogue, {info.name: CheckSummary(info) for info in data.checks})
    for student in data.graded():
        tally.add(student)
    return ClassSummary(
        data,
        catalogue,
        list(tally.checks.values()),
        _grouped(tally.causes),
        tally.not_written_groups(),
        _grouped(tally.unexplained),
        Distribution([s.score for s in data.graded() if s.score is not None]),
        Distribution(tally.accuracy),
        Distribution(tally.times),
        [s for s in data.students if not s.graded or s.fault is not None],
    )


@dataclass
class _Tally:
    """The class's verdicts as ``summarize`` counts them, one graded student at a time."""

    catalogue: Catalogue
    checks: dict[str, CheckSummary]
    causes: dict[tuple[str, str], Group] = field(default_factory=dict)
    unexplained: dict[tuple[str, str], Group] = field(default_factory=dict)
    not_written: dict[tuple[str, str], Group] = field(default_factory=dict)
    methods: dict[str, set[str]] = field(default_factory=dict)  # check -> the methods not written
    accuracy: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def check(self, name: str) -> CheckSummary:
        """The check's summary; a check the release does not list is counted too, worth no points."""
        return self.checks.setdefault(name, CheckSummary(CheckInfo(name, name, 0.0)))

    def add(self, student: Student) -> None:
        """One graded student's verdicts: each check judged, passed or failed (and why), the gate's numbers."""
        for name in student.no_verdict:
            self.check(name).no_verdict += 1
        for verdict in student.verdicts.values():
            summary = self.check(verdict.check)
            summary.judged += 1
            summary.passed += verdict.passed
            if verdict.check == GATE_CHECK:
                self.gate(verdict)
            if not verdict.passed:
                self.failure(verdict, summary).students.append(student.id)

    def gate(self, verdict: Verdict) -> None:
        if "accuracy" in verdict.numbers:
            self.accuracy.append(verdict.numbers["accuracy"])
        if "times_reference" in verdict.numbers:
            self.times.append(verdict.numbers["times_reference"])

    def failure(self, verdict: Verdict, summary: CheckSummary) -> Group:
        """The group a failure is in, counted: its named cause, else its methods not written yet, else the residue."""
        cause = verdict.failure.cause if verdict.failure is not None else None
        message = verdict.failure.message if verdict.failure is not None else None
        if cause is not None:
            summary.explained += 1
            return self.cause(verdict.check, cause)
        if message is not None and message.id == NOT_WRITTEN:
            summary.not_written += 1
            return self.unwritten(verdict.check, message)
        return self.residue(verdict, message)

    def cause(self, check: str, cause: Text) -> Group:
        key = (check, cause.id)
        group = self.causes.get(key) or Group(
            check, "cause", cause.id, text=student_lines(self.catalogue.render(cause))
        )
        self.causes[key] = group
        return group

    def unwritten(self, check: str, message: Text) -> Group:
        group = self.not_written.setdefault((check, NOT_WRITTEN), Group(check, "not_written", NOT_WRITTEN))
        self.methods.setdefault(check, set()).add(student_text(message.fields.get("method", "")))
        return group

    def residue(self, verdict: Verdict, message: Text | None) -> Group:
        """Grouped by the message's id and, for ``expected_got``, what came."""
        message_id = message.id if message is not None else ""
        got, got_text = _got(verdict, self.catalogue)
        key = (verdict.check, f"{message_id}|{got}")
        group = self.unexplained.get(key) or Group(
            verdict.check,
            "unexplained",
            message_id,
            got,
            student_lines(self.catalogue.render(message)),
            student_lines(got_text),
        )
        self.unexplained[key] = group
        return group

    def not_written_groups(self) -> dict[str, list[Group]]:
        """The methods not written yet, by check, each group naming its methods."""
        for (check, _), group in self.not_written.items():
            group.text = ", ".join(sorted(self.methods[check]))
        return _grouped(self.not_written)


@dataclass(frozen=True)
class Cause:
    """One named cause across the class, whatever checks showed it: its id, its words, its students and checks."""

    id: str
    text: str
    students: list[str]
    checks: list[str]


def causes_by_id(summary: ClassSummary) -> list[Cause]:
    """Every named cause counted by its id across the checks, the one most students showed first."""
    found: dict[str, tuple[str, set[str], list[str]]] = {}
    for groups in summary.causes.values():
        for group in groups:
            text, students, checks = found.setdefault(group.id, (group.text, set(), []))
            students.update(group.students)
            checks.append(group.check)
    causes = [Cause(id, text, sorted(students), checks) for id, (text, students, checks) in found.items()]
    return sorted(causes, key=lambda c: (-len(c.students), c.id))


def rare_groups(summary: ClassSummary, share: float = 0.05, at_most: int = 2) -> dict[str, Group]:
    """Causes and unexplained failures seen in few students (at most ``at_most``, or ``share`` of those graded); a
    method not written yet is no mistake."""
    limit = max(at_most, math.floor(share * len(summary.data.graded())))
    return {g.key: g for g in summary.groups() if g.count <= limit and g.kind != "not_written"}
