"""The demo class: build the release, autograde three sample students, print their grades.

    python -m autograder demo [--dir demo]

Students: ``alice`` hands in the reference solution, ``bob`` the untouched
release, ``carol`` the reference with one typical mistake (dW = Gᵀ X). The
course directory (default ``demo/``, rebuilt each run) keeps the gradebook,
autograded notebooks and HTML feedback for a look afterwards.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from autograder import classroom
from autograder.classroom import Edit, apply_edits
from autograder.cli.grade import refusal
from autograder.faults import GraderFault
from autograder.grading.class_run import grade_class
from autograder.grading.privacy import CourseExposed
from autograder.sandbox import SandboxError, check_available

ROSTER = (
    "id,first_name,last_name,email",
    "alice,Alice,Adams,alice@example.org",
    "bob,Bob,Brown,bob@example.org",
    "carol,Carol,Clark,carol@example.org",
)
"""The demo class's roster, in the CSV that ``nbgrader db student import`` reads."""

# carol's mistake, as catalogued in tests/catalogue/mistakes.py (linear_dw_transposed; a test keeps them the same)
CAROLS_MISTAKE = "dW = Gᵀ X instead of Xᵀ G"
CAROLS_EDITS = (Edit("linear", "self.W.grad = x.T @ grad", "self.W.grad = grad.T @ x"),)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=classroom.REPO / "demo", help="course directory to (re)build")
    course = parser.parse_args(argv).dir.resolve()
    _can_run()  # before anything of an earlier demo is removed
    _clear(course)
    students = _build(course)
    _hand_in(course, students)
    _grade(course)
    _print_grades(course, students)
    _print_where(course, students)


def _can_run() -> None:
    """Stop, saying why, if the demo could not grade here (MNIST, the sandbox), before it deletes or builds anything."""
    from autograder.grading.course_data import resolve_mnist
    from autograder.settings import KitGrading

    try:
        resolve_mnist(KitGrading())
        check_available()
    except (SandboxError, GraderFault) as error:
        raise SystemExit(f"Cannot run the demo, nothing was changed: {error}") from None


def _clear(course: Path) -> None:
    """Delete an earlier demo course; refuse any other folder."""
    if not course.exists():
        return
    if (
        course in (classroom.REPO, *classroom.REPO.parents)
        or (course / ".git").exists()
        or not (course / "gradebook.db").exists()
    ):
        raise SystemExit(
            f"{course} exists and is not an earlier demo course; choose another --dir (it is deleted and rebuilt)."
        )
    shutil.rmtree(course)


def _build(course: Path) -> dict[str, tuple[str, str]]:
    """The course with its release and solution; each student -> (what they hand in, their notebook)."""
    print(f"Building the course in {course} (nbgrader generate_assignment, generate_solution) ...", flush=True)
    course.mkdir(parents=True)
    course.chmod(0o700)  # its gradebook and students' work are the instructor's alone, as grading requires
    classroom.new_course(course)
    solution = (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    return {
        "alice": ("reference solution", solution),
        "bob": ("untouched release", (course / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()),
        "carol": (f"one mistake: {CAROLS_MISTAKE}", apply_edits(solution, CAROLS_EDITS)),
    }


def _hand_in(course: Path, students: dict[str, tuple[str, str]]) -> None:
    """The roster in the gradebook, each student's notebook submitted."""
    (course / "roster.csv").write_text("".join(f"{row}\n" for row in ROSTER))
    classroom.nbgrader(course, "db", "student", "import", "roster.csv")  # formgrader then lists names, not "None"
    for student, (_, notebook) in students.items():
        classroom.submit(course, student, notebook)


def _grade(course: Path) -> None:
    """Autograde the class as the grade command does (which writes the feedback and the report), then export the
    grades."""
    print(
        "Autograding alice, bob and carol (python -m autograder grade: nbgrader autograde in the sandbox, "
        "every check verified outside the kernel, the MNIST gate trains each MLP) ...",
        flush=True,
    )
    start = time.perf_counter()
    try:
        results = grade_class(course, classroom.ASSIGNMENT, classroom.NOTEBOOK, jobs=2, force=True)
    except (SandboxError, GraderFault) as error:
        raise SystemExit(f"Cannot grade: {error}") from None
    except CourseExposed as refused:  # the course is made private in _build: only if its folder was changed since
        raise SystemExit(refusal(refused.exposed)) from None
    if not all(results.values()):
        raise SystemExit("Grading failed for a reason that is not the students' (see above); nothing to show.")
    print(f"  took {time.perf_counter() - start:.0f} s", flush=True)
    classroom.nbgrader(course, "export")


def _print_grades(course: Path, students: dict[str, tuple[str, str]]) -> None:
    """A table of the gradebook's scores: a row per test cell, a column per student, and the total."""
    grades = classroom.cell_grades(course)
    cells = list(grades["alice"])
    width = max(map(len, cells))
    print(f"\n{'test cell':<{width}}  " + "  ".join(f"{s:>6}" for s in students) + "     max")
    for cell in cells:
        print(
            f"{cell:<{width}}  "
            + "  ".join(f"{grades[s][cell].score:6g}" for s in students)
            + f"  {grades['alice'][cell].max_score:6g}"
        )
    print(
        f"{'total':<{width}}  "
        + "  ".join(f"{sum(g.score for g in grades[s].values()):6g}" for s in students)
        + "     100"
    )


def _print_where(course: Path, students: dict[str, tuple[str, str]]) -> None:
    """What each student handed in, where the grades and the feedback are, and how to open formgrader."""
    print()
    for student, (what, _) in students.items():
        print(f"{student}: {what}")
    print(f"\nGrades: {course / 'grades.csv'}")
    for student in students:
        feedback = course / "feedback" / student / classroom.ASSIGNMENT / f"{classroom.NOTEBOOK[:-6]}.html"
        print(f"Feedback of {student}: {feedback if feedback.exists() else 'none (see the grading output above)'}")
    # A formgrader still running there reads the deleted gradebook: "Invalid submission" (404) for every new id.
    print(f"Formgrader: `jupyter lab` in {course} (restart one already running there: this course is new)")
