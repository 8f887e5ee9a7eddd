"""The repository, used as the course folder, keeps out of git everything grading writes there: nbgrader's folders
and gradebook, the grade command's records, the class report and the exported grades. Fast tier: asks git."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from nbgrader.coursedir import CourseDirectory

from autograder.plugins.canvas import late_path
from autograder.settings import KitGrading

REPO = Path(__file__).resolve().parents[1]


def written_by_grading() -> list[str]:
    """What grading a class in the repository writes at its root (nbgrader's defaults, the kit's settings, the report's
    and the exports' default names), each a path below it."""
    course = CourseDirectory()
    folders = [course.submitted_directory, course.autograded_directory, course.feedback_directory]
    return [
        *(f"{folder}/alice/mlp/mlp.ipynb" for folder in folders),
        f"{KitGrading().graded_dir}/logs/alice.log",
        "gradebook.db",
        "reports/mlp/report.html",  # python -m autograder report (autograder/report/build.py)
        "grades.csv",  # nbgrader export
        "canvas_grades.csv",  # nbgrader export --exporter=autograder.plugins.canvas.CanvasExportPlugin
        str(late_path("canvas_grades.csv")),  # and each late submission, beside it
    ]


def test_git_ignores_what_grading_writes_in_the_course_root() -> None:
    if not shutil.which("git") or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    paths = written_by_grading()
    done = subprocess.run(
        ["git", "-c", f"safe.directory={REPO}", "check-ignore", "--no-index", *paths],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert sorted(done.stdout.split()) == sorted(paths), f"not ignored: {set(paths) - set(done.stdout.split())}"
