"""Autograding proves the hidden checks: full marks for correct code, lost points for each typical mistake."""
from __future__ import annotations

import json

import pytest
from conftest import REFERENCE, UNTOUCHED, GradedClass

from autograder import classroom
from autograder.mistakes import GATE_CELL, MISTAKES, PART_CELLS, VARIANTS, Mistake, cells_a_part_may_cost

ALL_TEST_CELLS = {cell for cells in PART_CELLS.values() for cell in cells} | {GATE_CELL}


def _lost(graded: GradedClass, student: str) -> dict[str, float]:
    """Test cells where the student scored below the maximum, with the points lost."""
    grades = graded.grades[student]
    assert set(grades) == ALL_TEST_CELLS, f"{student}: graded cells {sorted(grades)}, expected {sorted(ALL_TEST_CELLS)}"
    return {cell: g.max_score - g.score for cell, g in grades.items() if g.score < g.max_score}


def test_reference_solution_earns_full_marks_on_every_cell(graded_class: GradedClass) -> None:
    assert _lost(graded_class, REFERENCE) == {}
    assert sum(g.max_score for g in graded_class.grades[REFERENCE].values()) == 100


def test_reference_hidden_cells_write_nothing_to_stderr(graded_class: GradedClass) -> None:
    path = graded_class.course / "autograded" / REFERENCE / classroom.ASSIGNMENT / classroom.NOTEBOOK
    for cell in json.loads(path.read_text())["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            streams = [o for o in cell.get("outputs", []) if o.get("name") == "stderr" or o["output_type"] in ("error", "execute_result")]
            assert streams == [], f"{cell['metadata']['nbgrader']['grade_id']}: {streams}"


def test_untouched_release_scores_zero_on_every_cell(graded_class: GradedClass) -> None:
    grades = graded_class.grades[UNTOUCHED]
    assert set(grades) == ALL_TEST_CELLS
    assert {cell: g.score for cell, g in grades.items() if g.score != 0} == {}


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m.name)
def test_mistake_loses_points_on_its_own_part_only(graded_class: GradedClass, mistake: Mistake) -> None:
    lost = _lost(graded_class, mistake.name)
    missed = [cell for cell in mistake.must_lose if cell not in lost]
    assert not missed, f"{mistake.name} ({mistake.description}) earned full points on {missed}: a hidden check lets this mistake pass"
    unrelated = set(lost) - cells_a_part_may_cost(mistake.part)
    assert not unrelated, f"{mistake.name} ({mistake.description}) lost points on unrelated cells {sorted(unrelated)}"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_correct_variant_earns_full_marks(graded_class: GradedClass, variant) -> None:
    assert _lost(graded_class, variant.name) == {}, f"{variant.name} ({variant.description}) is correct but lost points"


def test_regrading_gives_the_same_result(graded_class: GradedClass) -> None:
    student = MISTAKES[0].name
    classroom.nbgrader(graded_class.course, "autograde", classroom.ASSIGNMENT, "--student", student, "--force")
    assert classroom.cell_grades(graded_class.course)[student] == graded_class.grades[student]


def test_feedback_and_export_work_for_the_class(graded_class: GradedClass) -> None:
    classroom.nbgrader(graded_class.course, "generate_feedback", classroom.ASSIGNMENT, "--force")
    feedback = graded_class.course / "feedback" / MISTAKES[0].name / classroom.ASSIGNMENT
    html = next(feedback.glob("*.html")).read_text()
    assert "W.grad" in html  # the failed check's message reaches the student
    classroom.nbgrader(graded_class.course, "export")
    rows = (graded_class.course / "grades.csv").read_text().splitlines()
    assert len(rows) == 1 + len(graded_class.grades)
    print(f"\nautograde of {len(graded_class.grades)} submissions took {graded_class.seconds:.0f} s")


def test_slow_solution_fails_the_gate_with_a_message_about_speed(graded_class: GradedClass) -> None:
    path = graded_class.course / "autograded" / "linear_python_loops" / classroom.ASSIGNMENT / classroom.NOTEBOOK
    gate = next(c for c in json.loads(path.read_text())["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == GATE_CELL)
    errors = [o for o in gate["outputs"] if o["output_type"] == "error"]
    assert errors and "MNIST training speed" in errors[0]["evalue"] and "loop" in errors[0]["evalue"], gate["outputs"]
