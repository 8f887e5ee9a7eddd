"""A graded class read into plain records: each submission's score (the gradebook), its verdicts (the autograded
notebooks), its feedback and, if it was left ungraded, why (the grade command's fault record).

Every path comes from nbgrader's ``CourseDirectory`` (``autograder.settings.CoursePaths``); scores from nbgrader's
``Gradebook``, never summed here. A verdict is the grader's (``autograder.verdict``), read from the output it wrote
into each hidden test cell; the cell's points are kept beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder import registry, verdict
from autograder.cell_ids import check_of, nbgrader
from autograder.faults import Fault
from autograder.report.catalogue import load_catalogue
from autograder.settings import CoursePaths, load_course_config
from autograder.verdict import Verdict


@dataclass(frozen=True)
class ByHand:
    """A test cell's score set by a person (formgrader's manual score), which nbgrader counts in place of the automatic
    one, on this submission and on every regrade of it until someone clears it."""

    cell: str  # the test cell's grade id, as formgrader and the gradebook name it
    score: float
    automatic: float | None  # what the cell's check gave, None if it was never autograded
    points: float


@dataclass(frozen=True)
class Lateness:
    """How late a submission came, against its due date (with any extension), and the points nbgrader took off."""

    seconds: float
    penalty: float

    @property
    def hours(self) -> str:
        """Hours late, as every page shows them: one decimal, at least 0.1."""
        return f"{max(self.seconds / 3600, 0.1):.1f}"


@dataclass
class Student:
    """One student with a submission: graded (a score in the gradebook and an autograded notebook) or not, and why."""

    id: str
    name: str = ""
    graded: bool = False
    score: float | None = None
    max_score: float | None = None
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # check -> the grader's verdict
    points: dict[str, float] = field(default_factory=dict)  # check -> its test cell's weight
    no_verdict: list[str] = field(default_factory=list)  # test cells that hold no verdict
    feedback: Path | None = None  # the feedback HTML, if it exists
    fault: Fault | None = None  # the grader's record of the last attempt that failed, if any
    log: Path | None = None  # the grade command's log of this submission, if any
    why_ungraded: str = ""  # empty when graded
    submitted: list[Path] = field(default_factory=list)  # the submitted notebooks found
    by_hand: list[ByHand] = field(default_factory=list)  # scores a person set, which count instead of the checks'
    late: Lateness | None = None  # None: on time, or no due date

    def failed(self) -> list[Verdict]:
        return [v for v in self.verdicts.values() if not v.passed]


@dataclass(frozen=True)
class CheckInfo:
    name: str
    title: str
    points: float


@dataclass
class ClassData:
    """What the report is made from."""

    course: Path
    assignment: str
    notebooks: list[str]  # the assignment's notebooks, without .ipynb
    release: Path
    checks: list[CheckInfo]
    students: list[Student]
    feedback: Path | None = None  # the folder of a student's feedback, ``<student>`` standing for their id

    def release_notebooks(self) -> list[Path]:
        return [self.release / f"{nb}.ipynb" for nb in self.notebooks]

    def graded(self) -> list[Student]:
        return [s for s in self.students if s.graded]


def verdict_of(cell: dict[str, Any]) -> Verdict | None:
    """The verdict a test cell holds, or None (none, or one that cannot be read)."""
    try:
        return verdict.read(cell)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def test_cells(notebook: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """check name -> its hidden test cell, in notebook order."""
    found = {}
    for cell in notebook.get("cells", []):
        check = check_of(cell)
        if check is not None:
            found[check] = cell
    return found


def read_verdicts(path: Path) -> tuple[dict[str, Verdict], list[str], dict[str, float]]:
    """An autograded notebook's verdicts, the checks without one, and every test cell's points."""
    cells = test_cells(json.loads(path.read_text()))
    verdicts, missing = {}, []
    for check, cell in cells.items():
        verdict = verdict_of(cell)
        if verdict is None:
            missing.append(check)
        else:
            verdicts[check] = verdict
    points = {check: float(nbgrader(cell).get("points", 0) or 0) for check, cell in cells.items()}
    return verdicts, missing, points


def fault_record(paths: CoursePaths, student: str) -> tuple[Path, Path]:
    """The grade command's log of a submission and its fault record (``autograder.grading.autograde.record_path``):
    the record is there only if the last attempt left the submission ungraded, whatever saw the fault."""
    log = paths.graded_dir() / "logs" / f"{student}.log"
    return log, log.with_suffix(".fault.json")


def feedback_path(paths: CoursePaths, student: str, assignment: str, notebook: str) -> Path:
    """Where ``nbgrader generate_feedback`` writes a student's feedback HTML."""
    return paths.feedback(student, assignment) / f"{notebook}.html"


def class_scores(gradebook: Any, assignment: str) -> dict[str, tuple[str, str, float]]:
    """student -> (first name, last name, score after any late penalty) for every submission of ``assignment`` with
    grades, as nbgrader scores it (``Grade.score``: the manual score if any, else the automatic one, plus extra credit;
    ``late_submission_penalty`` of each notebook), in two grouped queries: nbgrader's per-submission properties and
    ``submission_dicts`` cost a scan of every grade per submission (40 s for 2,000 on SQLite)."""
    from nbgrader.api import Assignment, Grade, Student, SubmittedAssignment, SubmittedNotebook
    from sqlalchemy import func

    def per_student(*columns: Any, grades: bool) -> Any:
        query = gradebook.db.query(Student.id, *columns)
        query = (
            query.select_from(Grade).join(SubmittedNotebook, Grade.notebook_id == SubmittedNotebook.id)
            if grades
            else query.select_from(SubmittedNotebook)
        )
        return (
            query.join(SubmittedAssignment, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
            .join(Assignment, SubmittedAssignment.assignment_id == Assignment.id)
            .join(Student, SubmittedAssignment.student_id == Student.id)
            .filter(Assignment.name == assignment)
            .group_by(Student.id)
        )

    penalties = dict(per_student(func.sum(SubmittedNotebook.late_submission_penalty), grades=False))
    return {
        student: (first or "", last or "", max(0.0, float(score or 0.0) - float(penalties.get(student) or 0.0)))
        for student, first, last, score in per_student(
            func.max(Student.first_name), func.max(Student.last_name), func.sum(Grade.score), grades=True
        )
    }


def by_hand_and_late(gradebook: Any, assignment: str) -> tuple[dict[str, list[ByHand]], dict[str, Lateness]]:
    """student -> the cells whose score a person set, and student -> how late their submission came (late ones only),
    for ``assignment``, in two queries."""
    from nbgrader.api import Assignment, Grade, GradeCell, Student, SubmittedAssignment, SubmittedNotebook
    from sqlalchemy import func

    def of_assignment(query: Any) -> Any:
        return (
            query.join(Assignment, SubmittedAssignment.assignment_id == Assignment.id)
            .join(Student, SubmittedAssignment.student_id == Student.id)
            .filter(Assignment.name == assignment)
        )

    manual = of_assignment(
        gradebook.db.query(Student.id, GradeCell.name, Grade.manual_score, Grade.auto_score, GradeCell.max_score)
        .select_from(Grade)
        .join(GradeCell, Grade.cell_id == GradeCell.id)
        .join(SubmittedNotebook, Grade.notebook_id == SubmittedNotebook.id)
        .join(SubmittedAssignment, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
    ).filter(Grade.manual_score.isnot(None))
    by_hand: dict[str, list[ByHand]] = {}
    for student, cell, score, automatic, points in manual.order_by(Student.id, GradeCell.name):
        by_hand.setdefault(student, []).append(
            ByHand(cell, float(score), None if automatic is None else float(automatic), float(points or 0))
        )
    penalty = func.coalesce(func.sum(SubmittedNotebook.late_submission_penalty), 0.0)
    times = of_assignment(
        gradebook.db.query(
            Student.id, SubmittedAssignment.timestamp, SubmittedAssignment.extension, Assignment.duedate, penalty
        )
        .select_from(SubmittedAssignment)
        .outerjoin(SubmittedNotebook, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
    ).group_by(Student.id, SubmittedAssignment.id, Assignment.id)
    late = {}
    for student, timestamp, extension, due, points in times:
        if timestamp is None or due is None:
            continue
        seconds = (timestamp - (due + extension if extension is not None else due)).total_seconds()
        if seconds > 0:
            late[student] = Lateness(seconds, float(points or 0))
    return by_hand, late


@dataclass
class GradebookRead:
    """What the report reads of the gradebook for one assignment."""

    scores: dict[str, tuple[str, float, float]]  # student -> (name, score after any late penalty, max score)
    notebooks: list[str]
    by_hand: dict[str, list[ByHand]] = field(default_factory=dict)
    late: dict[str, Lateness] = field(default_factory=dict)


def gradebook_scores(paths: CoursePaths, assignment: str) -> GradebookRead:
    """Every graded submission's score (``class_scores``), the assignment's notebooks, the scores set by hand and the
    late submissions, from the gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(paths.db_url(), paths.coursedir.course_id) as gradebook:
        try:
            found = gradebook.find_assignment(assignment)
        except MissingEntry:
            return GradebookRead({}, [])
        top, notebooks = float(found.max_score), [n.name for n in found.notebooks]
        scores = {
            student: (" ".join(part for part in (first, last) if part), score, top)
            for student, (first, last, score) in class_scores(gradebook, assignment).items()
        }
        return GradebookRead(scores, notebooks, *by_hand_and_late(gradebook, assignment))


def _why_ungraded(paths: CoursePaths, student: Student, has_notebook: bool, in_gradebook: bool) -> str:
    if student.fault is not None:
        again = "grading it again can help" if student.fault.retry else "grading it again cannot help"
        return f"{student.fault.kind}: {student.fault.detail} ({again})"
    if student.log is not None:
        return f"grading was interrupted or failed and left no record of why; its log: {student.log}"
    if has_notebook and not in_gradebook:
        return "an autograded notebook but no grade in the gradebook (graded with another gradebook?)"
    return "not graded yet: run `python -m autograder grade` (it grades only what is left)"


def collect(course: Path, assignment: str, notebooks: list[str] | None = None) -> ClassData:
    """Read the course in ``course`` (its ``nbgrader_config.py``) for ``assignment``."""
    paths = CoursePaths(load_course_config(course))
    book = gradebook_scores(paths, assignment)
    scores, in_gradebook = book.scores, book.notebooks
    release = paths.release(assignment)
    load_catalogue(release)  # declares the grader's message ids, which a verdict's texts name
    notebooks = notebooks or in_gradebook or sorted(p.stem for p in release.glob("*.ipynb"))
    known = {c.name: CheckInfo(c.name, c.title, float(c.points)) for c in registry.CHECKS}
    seen: dict[str, float] = {}  # check -> points, of every test cell in a graded notebook
    students = []
    for student_id in sorted({*paths.submitted_students(assignment), *scores}):
        student = Student(student_id)
        log, record = fault_record(paths, student_id)
        student.log = log if log.exists() else None
        student.fault = Fault.read(record) if record.exists() else None
        submitted = [paths.submitted(student_id, assignment) / f"{nb}.ipynb" for nb in notebooks]
        student.submitted = [p for p in submitted if p.is_file()]
        graded_notebooks = [paths.autograded(student_id, assignment) / f"{nb}.ipynb" for nb in notebooks]
        has_notebook = any(p.exists() for p in graded_notebooks)
        if student_id in scores:
            student.name, student.score, student.max_score = scores[student_id]
        student.graded = has_notebook and student_id in scores
        student.by_hand, student.late = book.by_hand.get(student_id, []), book.late.get(student_id)
        if not student.graded:
            student.why_ungraded = _why_ungraded(paths, student, has_notebook, student_id in scores)
        for notebook, path in zip(notebooks, graded_notebooks, strict=True):
            if not student.graded or not path.exists():
                continue
            try:  # written by nbgrader, but around a student's cells: one that cannot be read stops only itself
                verdicts, missing, points = read_verdicts(path)
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
                student.no_verdict += [name for name in known if name not in student.no_verdict]
                continue
            student.verdicts.update(verdicts)
            student.points.update(points)
            student.no_verdict += missing
            seen.update(points)
            feedback = feedback_path(paths, student_id, assignment, notebook)
            if student.feedback is None and feedback.exists():
                student.feedback = feedback
        students.append(student)
    checks = [info for name, info in known.items() if name in seen or not seen]
    checks += [CheckInfo(name, name, points) for name, points in seen.items() if name not in known]
    return ClassData(
        paths.root, assignment, notebooks, release, checks, students, paths.feedback("<student>", assignment)
    )
