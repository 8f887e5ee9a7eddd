"""Late work: the kit's late-penalty plugin (points per started hour or day, none by default) is nbgrader's, and the
lateness of each submission reaches the terminal's summary as the gradebook has it."""

from __future__ import annotations

from pathlib import Path

import pytest
from traitlets.config import Config

from autograder.plugins.late import LatePenalty
from autograder.settings import apply

HOUR, DAY = 3600.0, 86400.0


def test_the_kit_makes_its_plugin_nbgraders_late_penalty_with_no_penalty_until_the_course_sets_one() -> None:
    c = Config()
    apply(c)
    assert c.AssignLatePenalties.plugin_class == "autograder.plugins.late.LatePenalty"
    assert LatePenalty().late_submission_penalty("amy", 90.0, 5 * DAY) is None


@pytest.mark.parametrize(
    ("per_hour", "per_day", "late", "score", "penalty"),
    [
        (2, 0, 1, 90, 2),  # a second late is a started hour
        (2, 0, HOUR, 90, 2),
        (2, 0, HOUR + 1, 90, 4),
        (0, 10, HOUR, 90, 10),  # a started day
        (0, 10, DAY + 1, 90, 20),
        (1, 10, 25 * HOUR, 90, 25 + 20),  # both add up
        (0, 10, 30 * DAY, 90, 90),  # never more than the score
        (2, 10, 0, 90, None),  # on time
    ],
)
def test_points_come_off_per_started_hour_and_day_never_below_zero(
    per_hour: float, per_day: float, late: float, score: float, penalty: float | None
) -> None:
    plugin = LatePenalty(points_per_hour=per_hour, points_per_day=per_day)
    assert plugin.late_submission_penalty("amy", score, late) == penalty


def test_the_summary_names_each_late_submission_and_each_score_set_by_hand() -> None:
    from autograder.grading.summary import by_hand_lines, late_lines
    from autograder.report.collect import ByHand, Lateness, Student

    ben = Student("ben", graded=True, by_hand=[ByHand("test_linear_forward", 2.0, 8.0, 8.0)])
    cara = Student("cara", graded=True, late=Lateness(90 * 60, 10.0))
    lines = by_hand_lines([ben, cara]) + late_lines([ben, cara])
    assert "  ben: test_linear_forward 2 of 8 (automatic 8)" in lines
    assert "  cara: 1.5 h late, 10 point(s) off" in lines
    assert by_hand_lines([cara]) == [] and late_lines([ben]) == []


def test_the_gradebook_gives_each_score_set_by_hand_and_each_late_submission(tmp_path: Path) -> None:
    """Read as nbgrader keeps them: a manual score beside the automatic one, and lateness against the due date plus
    any extension, with the penalty nbgrader stored for the notebook."""
    from datetime import datetime, timedelta

    from nbgrader.api import Gradebook

    from autograder.report.collect import ByHand, by_hand_and_late
    from report_course import fast_new_gradebook

    due = datetime(2026, 12, 1, 12, 0)
    with fast_new_gradebook(), Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", "kit-course") as gradebook:
        gradebook.add_assignment("mlp", duedate=due)
        gradebook.add_notebook("mlp", "mlp")
        gradebook.add_grade_cell("test_linear_forward", "mlp", "mlp", max_score=8, cell_type="code")
        for student, late in {"amy": -1, "ben": 2.5, "cara": 30, "dan": 0}.items():
            gradebook.add_student(student)
            gradebook.add_submission("mlp", student, timestamp=due + timedelta(hours=late))
        gradebook.grant_extension("mlp", "cara", days=2)  # 30 h late, with two days more: on time
        grade = gradebook.find_grade("test_linear_forward", "mlp", "mlp", "amy")
        grade.auto_score, grade.manual_score = 8.0, 3.0
        gradebook.find_grade("test_linear_forward", "mlp", "mlp", "ben").auto_score = 8.0
        gradebook.find_submission_notebook("mlp", "mlp", "ben").late_submission_penalty = 10.0
        gradebook.db.commit()
        by_hand, late = by_hand_and_late(gradebook, "mlp")
    assert by_hand == {"amy": [ByHand("test_linear_forward", 3.0, 8.0, 8.0)]}
    assert {student: (round(lateness.seconds), lateness.penalty) for student, lateness in late.items()} == {
        "ben": (9000, 10.0)
    }
