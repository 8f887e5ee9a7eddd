"""Synthetic graded courses for the class report's tests and benchmark: folders and a gradebook as nbgrader and the
grade command leave them, each hidden test cell holding a verdict as data, without running nbgrader or a sandbox.

``ReportCourse(root)`` writes a course (``nbgrader_config.py``, the release with the course's helper modules, a
gradebook); ``add`` hands in one student's answers and, if graded, writes the autograded notebook with its verdicts
(``verdict``), the scores in the gradebook, and feedback HTML; ``leave_ungraded`` writes the grade command's fault
record instead.
"""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

from autograder import registry
from autograder.cell_ids import check_named, check_of, grade_id
from autograder.faults import Fault
from autograder.settings import quiet_gradebook_warnings
from autograder.verdict import MIME

REPO = Path(__file__).resolve().parents[1]
HELPERS = REPO / "source" / "mlp"
ASSIGNMENT = "mlp"
_IDS = itertools.count()
STUB = "        raise NotImplementedError()\n"


def text(id: str, **fields: Any) -> dict[str, Any]:
    """A text as verdicts hold it."""
    return {"id": id, "fields": fields}


def verdict(
    check: str,
    passed: bool = True,
    cause: str | None = None,
    message: dict[str, Any] | None = None,
    numbers: dict[str, float] | None = None,
) -> dict[str, Any]:
    """One check's verdict, as the grader writes it (``autograder.verdict.Verdict.to_data``); a failure without
    ``message`` is an ``expected_got`` one."""
    failure = None
    if not passed:
        failure = {
            "message": message or text("expected_got", what=check, expected="shape (4, 2)", got="shape (2, 4)"),
            "cause": text(cause) if cause else None,
            "formula": None,
        }
    return {"check": check, "passed": passed, "failure": failure, "note": None, "numbers": numbers or {}}


def all_passed(accuracy: float = 0.979, times: float = 1.4) -> list[dict[str, Any]]:
    """A verdict on every check, all passed; the gate with its numbers."""
    gate = {"accuracy": accuracy, "times_reference": times}
    return [verdict(c.name, numbers=gate if c.slow else None) for c in registry.CHECKS]


def _cell(kind: str, source: str, nbgrader: dict[str, Any] | None = None) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": source, "id": f"c{next(_IDS)}"}
    if nbgrader:
        cell["metadata"]["nbgrader"] = {"schema_version": 3, "locked": not nbgrader.get("solution"), **nbgrader}
    if kind == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


def release_notebook() -> dict[str, Any]:
    """The synthetic release: a setup cell, one answer cell a class, one hidden test cell a check."""
    cells = [_cell("markdown", "# MLP from scratch"), _cell("code", "import numpy as np\nfrom nn_core import Module")]
    cells[1]["metadata"]["nbgrader"] = {"grade": False, "grade_id": "setup", "locked": True, "solution": False}
    for answer, cls in registry.answers().items():
        given = f"class {cls}(Module):\n    def forward(self, x):\n        # YOUR CODE HERE\n{STUB}"
        cells.append(_cell("code", given, {"grade": False, "grade_id": answer, "solution": True}))
        for check in registry.CHECKS:
            if check.answer_cell == answer:
                source = registry.hidden_cell_source(check).split("### BEGIN")[0]
                nbgrader = {"grade": True, "grade_id": check.cell, "points": check.points, "solution": False}
                cells.append(_cell("code", source, nbgrader))
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}


@contextmanager
def fast_new_gradebook() -> Iterator[None]:
    """nbgrader stamps a new gradebook with its alembic head by running `alembic heads`: read it in-process."""
    import nbgrader
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(Path(nbgrader.__file__).parent / "alembic")).get_current_head()
    with patch("nbgrader.api.get_alembic_version", return_value=head):
        yield


class ReportCourse:
    """A synthetic course folder, graded as the grade command leaves one."""

    def __init__(self, root: Path, language: str = "en") -> None:
        quiet_gradebook_warnings()
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "nbgrader_config.py").write_text(
            'c = get_config()\nc.CourseDirectory.course_id = "report-course"\n'
            'c.CourseDirectory.db_url = "sqlite:///gradebook.db"\n'
        )
        self.release = root / "release" / ASSIGNMENT
        self.release.mkdir(parents=True, exist_ok=True)
        for name in ("nn_languages.py", "nn_wordings.json", "nn_messages.py", "nn_i18n.py", "nn_core.py"):
            shutil.copy(HELPERS / name, self.release / name)
        if language != "en":
            i18n = self.release / "nn_i18n.py"
            i18n.write_text(i18n.read_text().replace('LANGUAGE = "en"', f'LANGUAGE = "{language}"'))
        self.notebook = release_notebook()
        (self.release / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(self.notebook))
        with fast_new_gradebook(), self.gradebook() as gradebook:
            gradebook.add_assignment(ASSIGNMENT)
            gradebook.add_notebook(ASSIGNMENT, ASSIGNMENT)
            for check in registry.CHECKS:
                gradebook.add_grade_cell(check.cell, ASSIGNMENT, ASSIGNMENT, max_score=check.points, cell_type="code")

    def gradebook(self):  # noqa: ANN201 - nbgrader's Gradebook
        from nbgrader.api import Gradebook

        return Gradebook(f"sqlite:///{self.root / 'gradebook.db'}", "report-course")

    def folder(self, step: str, student: str) -> Path:
        folder = self.root / step / student / ASSIGNMENT
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def submission(self, answers: dict[str, str]) -> dict[str, Any]:
        """The release with ``answers`` (answer cell grade_id -> code) in place of the given stubs."""
        notebook = json.loads(json.dumps(self.notebook))
        for cell in notebook["cells"]:
            if grade_id(cell) in answers:
                cell["source"] = answers[grade_id(cell)]
        return notebook

    def add(
        self,
        student: str,
        verdicts: list[dict[str, Any]] | None = None,
        answers: dict[str, str] | None = None,
        feedback: bool = True,
        name: tuple[str, str] = ("", ""),
    ) -> None:
        """Hand in ``answers``; with ``verdicts``, grade it: the autograded notebook, the gradebook, feedback."""
        notebook = self.submission(answers or {})
        (self.folder("submitted", student) / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(notebook))
        if verdicts is None:
            return
        by_check = {v["check"]: v for v in verdicts}
        for cell in notebook["cells"]:
            check = check_of(cell)
            if check in by_check:
                cell["outputs"] = [{"output_type": "display_data", "metadata": {}, "data": {MIME: by_check[check]}}]
        (self.folder("autograded", student) / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(notebook))
        with self.gradebook() as gradebook:
            gradebook.update_or_create_student(student, first_name=name[0], last_name=name[1])
            gradebook.add_submission(ASSIGNMENT, student)
            for grade in gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student).grades:
                found = by_check.get(check_named(grade.name))
                grade.auto_score = grade.max_score if found and found["passed"] else 0.0
            gradebook.db.commit()
        if feedback:
            html = self.folder("feedback", student) / f"{ASSIGNMENT}.html"
            html.write_text(f"<!DOCTYPE html><html><body><h1>Feedback for {student}</h1></body></html>")

    def leave_ungraded(self, student: str, fault: Fault | None, answers: dict[str, str] | None = None) -> None:
        """Hand in ``answers``; the grade command tried and left it ungraded (with ``fault`` recorded, if any)."""
        self.add(student, None, answers)
        logs = self.root / ".kit-graded" / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        (logs / f"{student}.log").write_text("nbgrader autograde ...\n")
        if fault is not None:
            fault.write(logs / f"{student}.fault.json")
