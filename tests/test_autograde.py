"""Autograding proves the hidden checks: full marks for correct code, lost points for each typical mistake."""

from __future__ import annotations

import json
import re

import pytest
from wording import lead

from autograder import cell_ids, classroom, registry
from autograder.cell_ids import check_of
from autograder.course.nn_messages import LIKELY_CAUSE, PASSED, THE_FORMULA
from autograder.judge import secret
from autograder.registry import cells_a_part_may_cost
from catalogue.mistakes import GATE_CELL, GRADED_MISTAKES, VARIANTS, Mistake
from conftest import REFERENCE, UNTOUCHED, GradedClass
from gradingkit import grade

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox

ALL_TEST_CELLS = {check.cell for check in registry.CHECKS}


def _test_cells(graded: GradedClass, student: str) -> dict[str, dict]:
    """Hidden test cells of the student's autograded notebook, by grade_id."""
    path = graded.course / "autograded" / student / classroom.ASSIGNMENT / classroom.NOTEBOOK
    cells = json.loads(path.read_text())["cells"]
    return {cell_ids.grade_id(c): c for c in cells if check_of(c) is not None}  # not the 0-point public check cells


def _shown(cell: dict) -> str:
    """Everything a cell's outputs show (ANSI colours removed)."""
    parts = []
    for output in cell.get("outputs", []):
        parts += [output.get("text", ""), output.get("evalue", ""), *output.get("traceback", [])]
        parts += [str(v) for v in output.get("data", {}).values()]
    return re.sub(r"\x1b\[[0-9;]*m", "", "\n".join("".join(p) if isinstance(p, list) else p for p in parts))


def _lost(graded: GradedClass, student: str) -> dict[str, float]:
    """Test cells where the student scored below the maximum, with the points lost."""
    grades = graded.grades[student]
    assert set(grades) == ALL_TEST_CELLS, f"{student}: graded cells {sorted(grades)}, expected {sorted(ALL_TEST_CELLS)}"
    return {cell: g.max_score - g.score for cell, g in grades.items() if g.score < g.max_score}


def test_reference_solution_earns_full_marks_on_every_cell(graded_class: GradedClass) -> None:
    assert _lost(graded_class, REFERENCE) == {}
    assert sum(g.max_score for g in graded_class.grades[REFERENCE].values()) == 100


def test_reference_hidden_cells_write_nothing_to_stderr(graded_class: GradedClass) -> None:
    for grade_id, cell in _test_cells(graded_class, REFERENCE).items():
        streams = [
            o
            for o in cell.get("outputs", [])
            if o.get("name") == "stderr" or o["output_type"] in ("error", "execute_result")
        ]
        assert streams == [], f"{grade_id}: {streams}"


def test_reference_passes_every_public_check_in_the_grading_kernel(graded_class: GradedClass) -> None:
    path = graded_class.course / "autograded" / REFERENCE / classroom.ASSIGNMENT / classroom.NOTEBOOK
    cells = [
        c for c in json.loads(path.read_text())["cells"] if "".join(c.get("source", "")).startswith("# Public checks")
    ]
    assert len(cells) == len(registry.answers())
    for cell in cells:
        assert [o for o in cell["outputs"] if o["output_type"] == "error"] == [], _shown(cell)
        assert PASSED.template("en").split("}")[-1] in _shown(cell)  # ": public checks passed."


def test_untouched_release_scores_zero_on_every_cell(graded_class: GradedClass) -> None:
    grades = graded_class.grades[UNTOUCHED]
    assert set(grades) == ALL_TEST_CELLS
    assert {cell: g.score for cell, g in grades.items() if g.score != 0} == {}


@pytest.mark.parametrize("mistake", GRADED_MISTAKES, ids=lambda m: m.name)
def test_mistake_loses_points_on_its_own_part_only(graded_class: GradedClass, mistake: Mistake) -> None:
    lost = _lost(graded_class, mistake.name)
    missed = [cell for cell in mistake.must_lose if cell not in lost]
    assert not missed, (
        f"{mistake.name} ({mistake.description}) earned full points on {missed}: a hidden check lets this mistake pass"
    )
    unrelated = set(lost) - cells_a_part_may_cost(mistake.part)
    assert not unrelated, f"{mistake.name} ({mistake.description}) lost points on unrelated cells {sorted(unrelated)}"


@pytest.mark.parametrize("mistake", GRADED_MISTAKES, ids=lambda m: m.name)
def test_failure_message_names_the_mistakes_cause(graded_class: GradedClass, mistake: Mistake) -> None:
    cells = _test_cells(graded_class, mistake.name)
    for cell in mistake.must_lose:
        assert mistake.cause in _shown(cells[cell]), (
            f"{mistake.name}: {cell} does not name {mistake.cause!r}; it shows:\n{_shown(cells[cell])}"
        )


@pytest.mark.parametrize("mistake", GRADED_MISTAKES, ids=lambda m: m.name)
def test_failed_checks_show_their_message_without_a_traceback(graded_class: GradedClass, mistake: Mistake) -> None:
    for grade_id, cell in _test_cells(graded_class, mistake.name).items():
        for error in (o for o in cell.get("outputs", []) if o["output_type"] == "error"):
            assert error["ename"] == "CheckFailed" and len(error["traceback"]) == 1, (
                f"{mistake.name} {grade_id}: {error}"
            )
            assert "File " not in error["traceback"][0] and "autograder" not in error["traceback"][0]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_correct_variant_earns_full_marks_without_a_diagnosis(graded_class: GradedClass, variant) -> None:
    assert _lost(graded_class, variant.name) == {}, f"{variant.name} ({variant.description}) is correct but lost points"
    shown = {grade_id: _shown(cell) for grade_id, cell in _test_cells(graded_class, variant.name).items()}
    assert not any(lead(LIKELY_CAUSE) in text for text in shown.values()), shown


def test_regrading_gives_the_same_result(graded_class: GradedClass) -> None:
    student = GRADED_MISTAKES[0].name
    classroom.nbgrader(graded_class.course, "autograde", classroom.ASSIGNMENT, "--student", student, "--force")
    assert classroom.cell_grades(graded_class.course)[student] == graded_class.grades[student]


def test_feedback_and_export_work_for_the_class(graded_class: GradedClass) -> None:
    classroom.nbgrader(graded_class.course, "generate_feedback", classroom.ASSIGNMENT, "--force")
    first = GRADED_MISTAKES[0]
    feedback = graded_class.course / "feedback" / first.name / classroom.ASSIGNMENT
    html = next(feedback.glob("*.html")).read_text()
    assert first.cause in html and f"{lead(THE_FORMULA)} dW = X" in html  # the diagnosis reaches the student
    assert (
        "autograder/" not in html and secret.current() not in html
    )  # no grader source, no secret (test cells: see above)
    classroom.nbgrader(graded_class.course, "export")
    rows = (graded_class.course / "grades.csv").read_text().splitlines()
    assert len(rows) == 1 + len(graded_class.grades)
    print(f"\nautograde of {len(graded_class.grades)} submissions took {graded_class.seconds:.0f} s")


def test_slow_solution_fails_the_gate_with_a_message_about_speed(graded_class: GradedClass) -> None:
    path = graded_class.course / "autograded" / "linear_python_loops" / classroom.ASSIGNMENT / classroom.NOTEBOOK
    gate = next(c for c in json.loads(path.read_text())["cells"] if cell_ids.grade_id(c) == GATE_CELL)
    errors = [o for o in gate["outputs"] if o["output_type"] == "error"]
    assert errors and "MNIST training speed" in errors[0]["evalue"] and "loop" in errors[0]["evalue"], gate["outputs"]


def test_a_student_asked_for_without_a_submission_is_named_not_skipped(graded_class: GradedClass) -> None:
    """A mistyped ``--student`` says whom it could not find and fails, instead of grading 0 of 0 and succeeding."""
    done = grade(graded_class.other_course, "--student", "nobody-here")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "No submission of mlp for nobody-here (looked for " in done.stdout, done.stdout
