"""Grades you can trust: cheats get no points they do not deserve, faults cost only what they broke, grading is
parallel."""

from __future__ import annotations

import io
import json
import re
import sqlite3

import pytest

from autograder import classroom
from autograder.grading import class_run
from autograder.judge import secret
from autograder.settings import CoursePaths, load_course_config
from catalogue.attacks import CHEATS, CORRECT, FAULTS, Submission
from conftest import GRADER_FILES, JOBS, GradedClass

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox


def _notebook_text(graded: GradedClass, student: str) -> str:
    """Everything the student's autograded notebook shows: cell sources and outputs, without ANSI colours."""
    path = graded.course / "autograded" / student / classroom.ASSIGNMENT / classroom.NOTEBOOK
    parts = []
    for cell in json.loads(path.read_text())["cells"]:
        parts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            parts += ["".join(output.get("text", "")), output.get("evalue", ""), *output.get("traceback", [])]
    return re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(parts))


def _lost(graded: GradedClass, student: str) -> set[str]:
    return {cell for cell, g in graded.grades[student].items() if g.score < g.max_score}


def _assert_costs_only_what_it_broke(graded: GradedClass, entry: Submission) -> None:
    grades = graded.grades[entry.name]
    kept = [cell for cell in entry.must_lose if grades[cell].score > 0]
    assert not kept, f"{entry.name} ({entry.description}) got points on {kept}"
    unexpected = _lost(graded, entry.name) - set(entry.must_lose) - set(entry.may_lose)
    assert not unexpected, f"{entry.name} ({entry.description}) also lost {sorted(unexpected)}"
    if entry.shows:
        assert entry.shows in _notebook_text(graded, entry.name), (
            f"{entry.name}: the graded notebook does not say {entry.shows!r}"
        )


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.name)
def test_cheat_gets_no_points_it_does_not_deserve(graded_class: GradedClass, cheat: Submission) -> None:
    _assert_costs_only_what_it_broke(graded_class, cheat)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_fault_costs_only_what_it_broke_with_the_reason_recorded(graded_class: GradedClass, fault: Submission) -> None:
    _assert_costs_only_what_it_broke(graded_class, fault)


@pytest.mark.parametrize("correct", CORRECT, ids=lambda c: c.name)
def test_correct_submissions_graded_among_faulty_ones_get_full_marks(
    graded_class: GradedClass, correct: Submission
) -> None:
    assert _lost(graded_class, correct.name) == set()


def test_no_process_rewrote_the_gradebook(graded_class: GradedClass) -> None:
    with sqlite3.connect(graded_class.course / "gradebook.db") as db:
        assert db.execute(
            "SELECT COUNT(*) FROM grade WHERE extra_credit IS NOT NULL AND extra_credit != 0"
        ).fetchone() == (0,)
    assert all(sum(g.score for g in cells.values()) <= 100 for cells in graded_class.grades.values())


def test_the_grader_secret_reaches_no_notebook(graded_class: GradedClass) -> None:
    leaked = [student for student in graded_class.grades if secret.current() in _notebook_text(graded_class, student)]
    assert not leaked


def test_no_notebook_shows_the_graders_source(graded_class: GradedClass) -> None:
    """The kernel has only a stand-in of the grader: printing its modules or reading its files shows nothing of it."""
    lines = [line for path in GRADER_FILES for line in path.read_text().splitlines() if line.startswith("def ")]
    text = _notebook_text(graded_class, "cheat_print_grader_source")
    assert not [line for line in lines if line in text]


def test_a_huge_output_is_cut_in_the_graded_notebook(graded_class: GradedClass) -> None:
    path = graded_class.course / "autograded" / "fault_huge_output" / classroom.ASSIGNMENT / classroom.NOTEBOOK
    assert path.stat().st_size < 1_000_000


def test_parallel_grading_gives_the_grades_of_sequential_grading(graded_class: GradedClass) -> None:
    students = ["correct_1", "linear_dw_transposed", "fault_os_exit"]
    class_run.grade_class(
        graded_class.course,
        classroom.ASSIGNMENT,
        classroom.NOTEBOOK,
        jobs=1,
        force=True,
        students=students,
        out=io.StringIO(),
    )
    again = classroom.cell_grades(graded_class.course)
    assert {s: again[s] for s in students} == {s: graded_class.grades[s] for s in students}
    print(f"\n{len(graded_class.grades)} submissions graded with {JOBS} jobs in {graded_class.seconds:.0f} s")


def test_grading_again_after_an_interruption_grades_only_what_is_missing(graded_class: GradedClass) -> None:
    student = "correct_2"
    graded_dir = CoursePaths(load_course_config(graded_class.course)).graded_dir()
    (graded_dir / classroom.ASSIGNMENT / student).unlink()  # as if killed before it finished
    log = io.StringIO()
    class_run.grade_class(graded_class.course, classroom.ASSIGNMENT, classroom.NOTEBOOK, jobs=JOBS, out=log)
    assert f"Grading 1 of {len(graded_class.grades)} submissions" in log.getvalue()
    assert classroom.cell_grades(graded_class.course) == graded_class.grades


def test_a_class_graded_at_the_same_time_by_another_command_is_unaffected(graded_class: GradedClass) -> None:
    """Two grading commands at once, one class with a fork bomb and a memory bomb: every correct submission is full."""
    other = classroom.cell_grades(graded_class.other_course)
    totals = {student: sum(g.score for g in cells.values()) for student, cells in other.items()}
    assert totals == {"other_reference": 100, "other_einsum": 100, "other_release": 0}, graded_class.other_log
    correct = [s for s in graded_class.grades if s.startswith("correct_")] + ["reference"]
    assert all(sum(g.score for g in graded_class.grades[s].values()) == 100 for s in correct)
