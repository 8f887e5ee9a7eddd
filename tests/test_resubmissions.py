"""The grade command's warning of submissions in the exchange that were not collected: read through nbgrader's own
exchange classes from a scratch exchange laid out as ``nbgrader submit`` leaves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.grading.resubmissions import latest_in_exchange, uncollected
from autograder.settings import CoursePaths, load_course_config

COURSE_ID = "kit-resubmit"
OLD, NEW = "2026-12-04 09:00:00.000000 UTC", "2026-12-05 18:30:00.000000 UTC"


def _course(tmp_path: Path, exchange: bool = True) -> Path:
    course = tmp_path / "course"
    course.mkdir()
    lines = ["c = get_config()", f'c.CourseDirectory.course_id = "{COURSE_ID}"']
    if exchange:
        lines.append(f'c.Exchange.root = "{tmp_path / "exchange"}"')
    (course / "nbgrader_config.py").write_text("\n".join(lines) + "\n")
    return course


def _submit(tmp_path: Path, student: str, when: str, assignment: str = "mlp") -> None:
    folder = tmp_path / "exchange" / COURSE_ID / "inbound" / f"{student}+{assignment}+{when}+a1b2c3"
    folder.mkdir(parents=True)
    (folder / "mlp.ipynb").write_text("{}")
    (folder / "timestamp.txt").write_text(when)


def _collected(course: Path, student: str, when: str) -> None:
    folder = course / "submitted" / student / "mlp"
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text(when)


def test_a_resubmission_or_a_submission_never_collected_is_named_and_a_collected_latest_is_not(tmp_path: Path) -> None:
    course = _course(tmp_path)
    for student, times in {"amy": [OLD], "ben": [OLD, NEW], "cara": [NEW], "dan": [OLD]}.items():
        for when in times:
            _submit(tmp_path, student, when)
    _submit(tmp_path, "dan", NEW, assignment="other")  # another assignment's submission does not count
    _collected(course, "amy", OLD)
    _collected(course, "ben", OLD)  # collected before his resubmission
    _collected(course, "dan", OLD)
    config = load_course_config(course)
    found = uncollected(config, CoursePaths(config), "mlp")
    assert [(u.student, str(u.in_exchange), u.collected and str(u.collected)) for u in found] == [
        ("ben", "2026-12-05 18:30:00", "2026-12-04 09:00:00"),
        ("cara", "2026-12-05 18:30:00", None),
    ]
    line = found[0].line("mlp")
    assert "`nbgrader collect --update --student ben mlp`" in line and "2026-12-05 18:30:00" in line


def test_a_course_without_an_exchange_to_list_has_nothing_to_compare_and_says_nothing(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    course = _course(tmp_path)  # configured, but nothing was ever released or submitted there
    config = load_course_config(course)
    assert latest_in_exchange(config, "mlp") is None
    assert uncollected(config, CoursePaths(config), "mlp") is None
    assert capfd.readouterr() == ("", "")  # not the exchange's "Unwritable directory, please contact your instructor"
