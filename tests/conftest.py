"""Shared fixtures: one generated course and one autograde run of the whole catalogue per test session."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the kernel sees them

from autograder import classroom  # noqa: E402
from autograder.mistakes import MISTAKES, VARIANTS, apply_edits  # noqa: E402

REFERENCE = "reference"
UNTOUCHED = "untouched_release"


@dataclass(frozen=True)
class GradedClass:
    course: Path
    grades: dict[str, dict[str, classroom.CellGrade]]
    seconds: float


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course directory generated from this repository's source/ with stock nbgrader."""
    return classroom.new_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="session")
def graded_class(course: Path) -> GradedClass:
    """Reference, untouched release, every catalogued mistake and every correct variant, autograded in one call."""
    solution = (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    classroom.submit(course, REFERENCE, solution)
    classroom.submit(course, UNTOUCHED, (course / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text())
    for entry in (*MISTAKES, *VARIANTS):
        classroom.submit(course, entry.name, apply_edits(solution, entry.edits))
    start = time.perf_counter()
    classroom.nbgrader(course, "autograde", classroom.ASSIGNMENT, "--force")
    seconds = time.perf_counter() - start
    return GradedClass(course, classroom.cell_grades(course), seconds)
