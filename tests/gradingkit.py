"""Small courses graded as an instructor would: a course folder anywhere, its own nbgrader_config.py, the grade
command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from autograder import classroom
from autograder.classroom import Edit, apply_edits
from catalogue.mistakes import VARIANTS

REPO = Path(__file__).resolve().parents[1]
MNIST = Path(os.environ.get("MNIST_DIR") or REPO.parent / "shared" / "data" / "mnist").resolve()
CONFIG = """from autograder.settings import apply

c = get_config()
apply(c)
c.CourseDirectory.course_id = {course_id!r}
{extra}
"""


EINSUM_FLOAT64 = (
    Edit(
        "linear",
        "return x @ self.W + self.b",
        'return np.einsum("bi,io->bo", np.asarray(x, np.float64), np.asarray(self.W, np.float64)) + self.b',
    ),
    Edit("linear", "self.W.grad = x.T @ grad", 'self.W.grad = np.einsum("bi,bo->io", np.asarray(x, np.float64), grad)'),
    Edit("linear", "self.b.grad = grad.sum(axis=0)", 'self.b.grad = np.einsum("bo->o", grad)'),
    Edit("linear", "return grad @ self.W.T", 'return np.einsum("bo,io->bi", grad, np.asarray(self.W, np.float64))'),
    *(e for v in VARIANTS if v.name == "float64_arithmetic" for e in v.edits if e.cell != "linear"),
)


def einsum_float64(solution: str) -> str:
    """Correct, and written unlike the reference: einsum for every product and sum, float64 arithmetic throughout."""
    return apply_edits(solution, EINSUM_FLOAT64)


def make_course(folder: Path, course_id: str, extra: str = "", students: dict[str, str] | None = None) -> Path:
    """A course in ``folder`` with only a two-line kit config, the source, a generated release, and submissions.

    ``students`` maps a name to "reference", "release" or "einsum_float64" (default: one reference).
    """
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nbgrader_config.py").write_text(CONFIG.format(course_id=course_id, extra=extra))
    shutil.copytree(
        REPO / "source", folder / "source", ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    )
    classroom.nbgrader(folder, "generate_assignment", classroom.ASSIGNMENT, "--force")
    solution = (REPO / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    texts = {
        "reference": solution,
        "einsum_float64": einsum_float64(solution),
        "release": (folder / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text(),
    }
    for student, kind in (students or {"reference_student": "reference"}).items():
        classroom.submit(folder, student, texts[kind])
    return folder


def grade(
    course: Path,
    *args: str,
    env: dict[str, str] | None = None,
    user: list[str] | None = None,
    python: str = sys.executable,
    timeout: float = 1200,
) -> subprocess.CompletedProcess:
    """``python -m autograder grade mlp ARGS`` in the course folder, as the instructor would type it."""
    environment = {k: v for k, v in os.environ.items() if k not in ("MNIST_DIR", "MLP_GRADER_SECRET")}
    environment.update(env or {})
    return subprocess.run(
        [*(user or []), python, "-m", "autograder", "grade", classroom.ASSIGNMENT, *args],
        cwd=course,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def totals(course: Path) -> dict[str, float]:
    return {student: sum(g.score for g in cells.values()) for student, cells in classroom.cell_grades(course).items()}


def rows_in_gradebook(course: Path) -> int:
    if not (course / "gradebook.db").exists():
        return 0
    import sqlite3

    with sqlite3.connect(course / "gradebook.db") as db:
        return db.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0]


def graded_notebook_text(course: Path, student: str) -> str:
    path = course / "autograded" / student / classroom.ASSIGNMENT / classroom.NOTEBOOK
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(c.get("source", "")) + "".join(str(o) for o in c.get("outputs", [])) for c in cells)
