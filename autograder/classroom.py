"""Drive stock nbgrader on a course directory: used by the demo class and by the kit's tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from autograder.cell_ids import check_named, grade_id
from autograder.grading import nbgrader_process

ASSIGNMENT = "mlp"
NOTEBOOK = "mlp.ipynb"
REPO = Path(__file__).resolve().parents[1]


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``nbgrader ARGS`` in ``course`` with this interpreter's environment; raise with its log on failure."""
    env = dict(os.environ)
    # nbgrader calls its own scripts (alembic) by name: put this environment's bin first.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    result = subprocess.run([*nbgrader_process.COMMAND, *args], cwd=course, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(
            f"`nbgrader {' '.join(args)}` failed in {course} (exit {result.returncode}):\n{result.stdout}\n"
            f"{result.stderr}"
        )
    return result


def new_course(destination: Path) -> Path:
    """A fresh course directory holding this repository's config and the assignment's source (only the edition it
    grades: formgrader lists every folder of source/), with release/ and solutions/ generated."""
    destination.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "nbgrader_config.py", destination)
    shutil.copytree(
        REPO / "source" / ASSIGNMENT,
        destination / "source" / ASSIGNMENT,
        ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"),
    )
    nbgrader(destination, "generate_assignment", ASSIGNMENT, "--force")
    nbgrader(destination, "generate_solution", ASSIGNMENT, "--force")
    return destination


def submit(course: Path, student: str, notebook_text: str, name: str = NOTEBOOK) -> None:
    """Place one student's notebook (file ``name``) where ``nbgrader autograde`` looks for it."""
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).parent.mkdir(parents=True, exist_ok=True)  # a file in a subfolder of the submission
    (folder / name).write_text(notebook_text)


@dataclass(frozen=True)
class CellGrade:
    score: float
    max_score: float


def cell_grades(course: Path) -> dict[str, dict[str, CellGrade]]:
    """student -> test cell grade_id -> score, read from the course's gradebook."""
    from nbgrader.api import Gradebook

    grades: dict[str, dict[str, CellGrade]] = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for submission in gradebook.assignment_submissions(ASSIGNMENT):
            notebook = gradebook.find_submission_notebook(NOTEBOOK[: -len(".ipynb")], ASSIGNMENT, submission.student.id)
            grades[submission.student.id] = {
                grade.name: CellGrade(float(grade.score), float(grade.max_score))
                for grade in notebook.grades
                # not the 0-point public checks
                if grade.cell.cell_type == "code" and check_named(grade.name) is not None
            }
    return grades


@dataclass(frozen=True)
class Edit:
    cell: str  # grade_id of the answer cell
    old: str  # must occur exactly once in that cell
    new: str


def apply_edits(notebook_text: str, edits: tuple[Edit, ...]) -> str:
    """Return the notebook with every edit applied; raise if an edit's text is not found exactly once."""
    notebook = json.loads(notebook_text)
    cells = {grade_id(cell): cell for cell in notebook["cells"]}
    for edit in edits:
        if edit.cell not in cells:
            raise ValueError(f"no cell with grade_id {edit.cell!r} in the notebook")
        cell = cells[edit.cell]
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if source.count(edit.old) != 1:
            raise ValueError(
                f"cell {edit.cell!r}: {edit.old!r} occurs {source.count(edit.old)} times, expected once; update the "
                "catalogue to the solution"
            )
        cell["source"] = source.replace(edit.old, edit.new)
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
