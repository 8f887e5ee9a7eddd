"""A grading that shows it is alive: each running submission's stage (from inside nbgrader autograde, as data), its
time so far, and each finished submission's line ending with its score; the class report linked to feedback that
exists once ``grade`` is done; the demo refuses before it deletes anything. Fast: no nbgrader, no sandbox."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from autograder.grading import progress as progress_module
from autograder.grading import stage
from autograder.grading.autograde import Attempt, stage_path
from autograder.grading.class_run import ClassRun, report
from autograder.grading.progress import Progress
from autograder.settings import CoursePaths, load_course_config
from report_course import ASSIGNMENT, ReportCourse, all_passed


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_stage_crosses_as_data_and_is_logged_once_per_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "alice.stage.json"
    monkeypatch.setenv(stage.STAGE_RECORD_ENV, str(record))
    monkeypatch.setattr(stage, "_logged", {})
    stage.report(stage.Stage("gate"))
    stage.report(stage.Stage("gate", 350, 1875))  # training begun: a new line at once
    stage.report(stage.Stage("gate", 375, 1875))  # the same stage a moment later: recorded, not logged again
    assert stage.Stage.read(record) == stage.Stage("gate", 375, 1875)
    stage.report(stage.Stage("checks", 2, 3, "mlp_forward"))
    log = capsys.readouterr().err.splitlines()
    assert len(log) == 3, log
    assert log[0].endswith("MNIST gate: loading MNIST and the student's MLP")
    assert re.fullmatch(r"\[kit\] \d\d:\d\d:\d\d MNIST gate: training, step 350 of 1875 \(19 %\)", log[1])
    assert log[2].endswith("hidden checks, worker 2 of 3 (mlp_forward ...)")
    record.write_text('{"id": "<script>", "done": 1, "total": 2, "checks": ""}')
    assert stage.Stage.read(record) is None  # only a known stage is shown
    record.write_text("not json")
    assert stage.Stage.read(record) is None


def test_plain_lines_carry_student_stage_elapsed_and_the_final_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress_module, "LINE_EVERY", 0.0)
    record = tmp_path / "carol.stage.json"
    stage.Stage("gate", 350, 1875).write(record)
    out = io.StringIO()
    shown = Progress(1, out, lambda: 1, every=3600)
    shown.begun("carol", record)
    shown.tick()
    shown.at("carol", stage.Stage("feedback"))  # autograde done: the grade command writes the feedback
    shown.tick()
    shown.finished("carol", True, "carol: graded (68.2 s)", "74 of 100")
    shown.close()
    lines = out.getvalue().splitlines()
    assert re.fullmatch(
        r"\d\d:\d\d:\d\d carol: MNIST gate: training, step 350 of 1875 \(19 %\), \d+ s so far", lines[0]
    ), lines
    assert lines[1].endswith("carol: graded; writing its feedback (nbgrader generate_feedback), 0 s so far"), lines
    assert lines[2].startswith("[1/1] carol: graded (68.2 s)") and lines[2].endswith(": 74 of 100"), lines


def test_a_terminal_shows_every_running_submissions_stage_on_the_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = Terminal()
    shown = Progress(2, out, lambda: 2, every=3600)
    shown.begun("alice", None)  # its stage is not known yet (nbgrader starting, or graded on a cluster)
    record = Path(shown.now["alice"].record or "/nonexistent")
    assert not record.exists()
    shown.tick()
    assert "alice: starting nbgrader autograde, 0 s so far" in out.getvalue()
    shown.close()


def _graded_course(tmp_path: Path) -> tuple[ReportCourse, CoursePaths]:
    course = ReportCourse(tmp_path / "course")
    for student in ("alice", "bob"):
        course.add(student, all_passed(), feedback=False)
    return course, CoursePaths(load_course_config(course.root))


def test_the_report_after_grading_links_every_graded_student_to_their_feedback(tmp_path: Path) -> None:
    course, paths = _graded_course(tmp_path)
    written: list[str] = []

    def feedback(student: str) -> None:  # what nbgrader generate_feedback leaves
        html = course.folder("feedback", student) / f"{ASSIGNMENT}.html"
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text("<h1>Feedback</h1>")
        written.append(student)

    out = io.StringIO()
    run = ClassRun(paths, ASSIGNMENT, lambda s: Attempt(None, 1.0, "log"), 1, 2, out)
    run.feedback = feedback
    run.grade_all(["alice", "bob"], 2)
    run.progress.close()
    report(run, paths, ASSIGNMENT, out)
    assert sorted(written) == ["alice", "bob"]
    page = (course.root / "reports" / ASSIGNMENT / "report.html").read_text()
    for student in ("alice", "bob"):
        assert f'<a href="../../feedback/{student}/{ASSIGNMENT}/{ASSIGNMENT}.html">{student}</a>' in page
    assert "2 of 2 graded have it" in out.getvalue()
    assert not stage_path(paths, "alice").exists()


def test_the_demo_refuses_before_it_deletes_an_earlier_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.cli import demo
    from autograder.sandbox import SandboxError

    earlier = tmp_path / "demo"
    (earlier / "feedback" / "alice").mkdir(parents=True)
    for kept in ("gradebook.db", "grades.csv", "feedback/alice/mlp.html"):
        (earlier / kept).write_text("earlier demo")
    empty = tmp_path / "no-mnist"
    empty.mkdir()
    monkeypatch.setenv("MNIST_DIR", str(empty))
    with pytest.raises(SystemExit, match="Cannot run the demo, nothing was changed: MNIST"):
        demo.main(["--dir", str(earlier)])
    assert sorted(p.name for p in earlier.rglob("*")) == ["alice", "feedback", "gradebook.db", "grades.csv", "mlp.html"]

    monkeypatch.setattr(demo, "resolve_mnist", lambda *_: empty, raising=False)
    monkeypatch.setattr("autograder.grading.course_data.resolve_mnist", lambda *_: empty)

    def no_sandbox() -> None:
        raise SandboxError("no user namespaces here")

    monkeypatch.setattr(demo, "check_available", no_sandbox)
    with pytest.raises(SystemExit, match="no user namespaces here"):
        demo.main(["--dir", str(earlier)])
    assert (earlier / "gradebook.db").read_text() == "earlier demo"


@pytest.mark.slow  # nbgrader autograde in the sandbox, then generate_feedback
def test_grade_logs_each_stage_ends_each_line_with_its_score_and_links_feedback(tmp_path: Path) -> None:
    from autograder import classroom
    from autograder.grading.class_run import grade_class

    course = classroom.new_course(tmp_path / "course")
    classroom.submit(course, "alice", (course / "solutions" / "mlp" / "mlp.ipynb").read_text())
    out = io.StringIO()
    assert grade_class(course, "mlp", "mlp.ipynb", jobs=1, out=out) == {"alice": True}
    shown = out.getvalue()
    assert re.search(r"^\[1/1\] alice: graded \(.*\): 100 of 100$", shown, re.M), shown
    log = (course / ".kit-graded" / "logs" / "alice.log").read_text()
    stages = re.findall(r"^\[kit\] \d\d:\d\d:\d\d (.*)$", log, re.M)
    assert stages[0].startswith("notebook in the sandboxed kernel, cell "), stages
    assert "hidden checks, worker 1 of 3 (linear_forward ...)" in stages
    assert any(s.startswith("MNIST gate: training, step ") for s in stages), stages
    page = (course / "reports" / "mlp" / "report.html").read_text()
    assert '<a href="../../feedback/alice/mlp/mlp.html">alice</a>' in page
    assert (course / "feedback" / "alice" / "mlp" / "mlp.html").exists()
