"""The Canvas export (``nbgrader export --exporter=autograder.plugins.canvas.CanvasExportPlugin``): a CSV with the
header and rows Canvas's gradebook import reads. Fast tier, but for the one test through nbgrader's command."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.faults import Fault
from autograder.plugins.canvas import HEADER, CanvasExportPlugin, late_path
from report_course import ReportCourse, all_passed, verdict


@pytest.fixture(scope="module")
def canvas_course(tmp_path_factory: pytest.TempPathFactory) -> ReportCourse:
    c = ReportCourse(tmp_path_factory.mktemp("canvas") / "course")
    c.add("alice", all_passed(), name=("Alice", "Adams"))
    failed = [v if v["check"] != "linear_backward_dw" else verdict("linear_backward_dw", False) for v in all_passed()]
    c.add("carol", failed, name=("Carol", "Clark"))
    c.leave_ungraded("erin", Fault("grader", "the sandbox could not start"))
    with c.gradebook() as gradebook:
        gradebook.update_or_create_student("erin", first_name="Erin", last_name="Evans")
    return c


def _export(canvas_course: ReportCourse, tmp_path: Path, **traits: object) -> list[list[str]]:
    target = tmp_path / "canvas.csv"
    with canvas_course.gradebook() as gradebook:
        CanvasExportPlugin(to=str(target), **traits).export(gradebook)
    with target.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_the_header_is_canvass_and_each_student_has_a_row(canvas_course: ReportCourse, tmp_path: Path) -> None:
    rows = _export(canvas_course, tmp_path)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "mlp"] and rows[0][:5] == HEADER
    assert rows[1] == ["Points Possible", "", "", "", "", "100"]
    assert sorted(rows[2:]) == [
        ["Adams, Alice", "", "", "alice", "", "100"],
        ["Clark, Carol", "", "", "carol", "", "94"],
        ["Evans, Erin", "", "", "erin", "", ""],  # left ungraded by the grader's fault: empty, never 0
    ]


def test_a_canvas_assignment_id_names_the_column_and_the_id_column_is_chosen(
    canvas_course: ReportCourse, tmp_path: Path
) -> None:
    rows = _export(
        canvas_course, tmp_path, assignment_ids={"mlp": "123"}, id_column="SIS User ID", section="S1", missing="0"
    )
    assert rows[0][-1] == "mlp (123)"
    assert ["Evans, Erin", "", "erin", "", "S1", "0"] in rows


def test_a_roster_from_canvas_gives_each_student_canvass_own_columns(
    canvas_course: ReportCourse, tmp_path: Path
) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section\n"
        '"Adams, Alice",9001,A-1,alice,Lab 1\n'
        '"Clark, Carol",9002,C-3,carol,\n'
    )
    rows = _export(canvas_course, tmp_path, roster=str(roster), section="Lab 2", points_possible=False)
    assert rows[1:3] == [
        ["Adams, Alice", "9001", "A-1", "alice", "Lab 1", "100"],
        ["Clark, Carol", "9002", "C-3", "carol", "Lab 2", "94"],
    ]


def test_a_late_submission_shows_how_late_and_the_points_off_beside_the_grades(tmp_path: Path) -> None:
    """The grades file keeps Canvas's columns (the score after the penalty); the lateness file beside it has a row for
    the late student, with the same student columns, and none for the one on time."""
    from datetime import datetime, timedelta

    due = datetime(2027, 1, 15, 17, 0)
    c = ReportCourse(tmp_path / "course")
    for student, hours in {"amy": -1.0, "ben": 2.5}.items():
        c.add(student, all_passed())
        with c.gradebook() as gradebook:
            gradebook.update_or_create_assignment("mlp", duedate=due)
            gradebook.find_submission("mlp", student).timestamp = due + timedelta(hours=hours)
            gradebook.find_submission_notebook("mlp", "mlp", student).late_submission_penalty = 10.0 if hours > 0 else 0
            gradebook.db.commit()
    grades = tmp_path / "canvas.csv"
    with c.gradebook() as gradebook:
        CanvasExportPlugin(to=str(grades), assignment_ids={"mlp": "123"}).export(gradebook)
    with grades.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == [*HEADER, "mlp (123)"]  # no column Canvas would make an assignment of
    assert rows[2:] == [["amy", "", "", "amy", "", "100"], ["ben", "", "", "ben", "", "90"]]
    assert late_path(str(grades)) == tmp_path / "canvas_late.csv"
    with late_path(str(grades)).open(newline="", encoding="utf-8") as f:
        late = list(csv.reader(f))
    assert late == [
        [*HEADER, "Assignment", "Hours late", "Points off"],
        ["ben", "", "", "ben", "", "mlp (123)", "2.5", "10"],
    ]


def test_every_trait_has_help() -> None:
    traits = CanvasExportPlugin.class_traits(config=True)
    ours = {"assignment_ids", "id_column", "roster", "roster_match", "section", "points_possible", "missing"}
    assert ours <= set(traits)
    assert all(trait.help for trait in traits.values())


@pytest.mark.slow
def test_nbgrader_export_uses_it(canvas_course: ReportCourse) -> None:
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", "export", "--exporter=autograder.plugins.canvas.CanvasExportPlugin"],
        cwd=canvas_course.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    header = (canvas_course.root / "canvas_grades.csv").read_text().splitlines()[0]
    assert header == "Student,ID,SIS User ID,SIS Login ID,Section,mlp"
    late = (canvas_course.root / "canvas_grades_late.csv").read_text().splitlines()
    assert late == ["Student,ID,SIS User ID,SIS Login ID,Section,Assignment,Hours late,Points off"]  # none came late
