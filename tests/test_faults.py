"""The grader's faults travel to the grade command as data: a record written inside nbgrader autograde, read as is.

Whether a submission is tried again, and what the TA reads about it, come from the record's fields, never from
the text of a log.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from autograder.faults import FAULT_RECORD_ENV, RETRY, Fault, GraderFault, recording_faults
from autograder.grading.autograde import STOPPED, outcome, stopped
from autograder.sandbox import SandboxError


class Preprocessor:
    def __init__(self, error: BaseException | None) -> None:
        self.error = error

    @recording_faults
    def preprocess(self, nb: dict, resources: dict) -> tuple[dict, dict]:
        if self.error is not None:
            raise self.error
        return nb, resources


@pytest.fixture
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "fault.json"
    monkeypatch.setenv(FAULT_RECORD_ENV, str(path))
    return path


@pytest.mark.parametrize(
    ("error", "kind"), [(GraderFault("the machine is too busy"), "grader"), (SandboxError("no userns"), "sandbox")]
)
def test_a_grader_fault_in_a_preprocessor_is_recorded_and_still_raised(
    record: Path, error: Exception, kind: str
) -> None:
    with pytest.raises(type(error)):
        Preprocessor(error).preprocess({}, {})
    assert Fault.read(record) == Fault(kind, str(error))


def test_an_error_that_is_not_a_grader_fault_leaves_no_record(record: Path) -> None:
    with pytest.raises(KeyError):
        Preprocessor(KeyError("x")).preprocess({}, {})
    assert not record.exists()
    assert Preprocessor(None).preprocess({"a": 1}, {}) == ({"a": 1}, {})


def test_without_the_variable_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FAULT_RECORD_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GraderFault):
        Preprocessor(GraderFault("x")).preprocess({}, {})
    assert list(tmp_path.iterdir()) == []


def test_the_outcome_of_an_autograde_comes_from_its_exit_status_and_its_record(tmp_path: Path) -> None:
    log, record = tmp_path / "log", tmp_path / "fault.json"
    log.write_text("[AutogradeApp | ERROR] sqlite3.OperationalError: database is locked\nGraderFault: not this line\n")
    assert outcome(0, record, log, 900) is None
    stopped = outcome(None, record, log, 900)
    assert stopped is not None and stopped.kind == "stopped" and not stopped.retry and STOPPED in stopped.detail
    nbgrader = outcome(1, record, log, 900)
    assert nbgrader is not None and nbgrader.kind == "nbgrader" and nbgrader.retry
    assert "database is locked" in nbgrader.detail and "exit status 1" in nbgrader.detail
    Fault("grader", "a sandboxed worker stalled: this machine is too busy to grade now").write(record)
    assert outcome(1, record, log, 900) == Fault(
        "grader", "a sandboxed worker stalled: this machine is too busy to grade now"
    )


def test_a_record_that_is_not_one_counts_as_none(tmp_path: Path) -> None:
    for text in ("", "{", '{"kind": "grader"}', '{"kind": "made up", "detail": "x"}', "[1, 2]"):
        (tmp_path / "record").write_text(text)
        assert Fault.read(tmp_path / "record") is None, text
    assert Fault.read(tmp_path / "missing") is None


def test_every_kind_says_whether_trying_again_can_help() -> None:
    assert {kind for kind, retry in RETRY.items() if not retry} == {"stopped"}
    with pytest.raises(ValueError, match="unknown kind"):
        Fault("bad luck", "x")


@pytest.mark.parametrize(
    "fault",
    [
        stopped(900),  # a time limit: the grade command killed it
        Fault("nbgrader", "nbgrader autograde failed (exit status 1; sqlite3.OperationalError: database is locked)"),
        Fault("cluster", "the workers running this submission died (KilledWorker)"),
    ],
    ids=lambda fault: fault.kind,
)
def test_the_grade_command_keeps_the_fault_it_saw_on_disk_until_the_submission_is_graded(
    tmp_path: Path, fault: Fault
) -> None:
    """A fault no code inside nbgrader recorded is written by the grade command, as that code writes one; the class
    report reads it; a later run that grades the submission removes it."""
    from autograder.grading.autograde import Attempt, log_path, record_path
    from autograder.grading.class_run import ClassRun
    from autograder.report.collect import collect, fault_record
    from autograder.settings import CoursePaths, load_course_config
    from report_course import ReportCourse, all_passed

    course = ReportCourse(tmp_path / "course")
    course.add("erin")  # handed in
    paths = CoursePaths(load_course_config(course.root))
    outcomes = iter([fault, None])

    def attempt(student: str) -> Attempt:
        log = log_path(paths, student)
        log.write_text("nbgrader autograde ...\n")
        found = next(outcomes)
        if found is None:
            course.add(student, all_passed())  # what nbgrader leaves when it grades
        return Attempt(found, 1.0, str(log))

    ClassRun(paths, "mlp", attempt, 1, 1, io.StringIO()).grade("erin")
    assert fault_record(paths, "erin")[1] == record_path(paths, "erin")
    assert Fault.read(record_path(paths, "erin")) == fault
    erin = collect(course.root, "mlp").students[0]
    assert not erin.graded and erin.fault == fault
    assert erin.why_ungraded.startswith(f"{fault.kind}: {fault.detail}") and "left no record" not in erin.why_ungraded

    ClassRun(paths, "mlp", attempt, 1, 1, io.StringIO()).grade("erin")  # graded the next time
    assert not record_path(paths, "erin").exists()
    erin = collect(course.root, "mlp").students[0]
    assert erin.graded and erin.fault is None and erin.why_ungraded == ""


def test_a_retried_submission_waits_for_a_quieter_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grader's fault is tried again only once the machine is less busy (or after ``RETRY_WAIT``); a fault that
    is not retried waits for nothing."""
    from autograder.grading import class_run, pressure
    from autograder.grading.autograde import Attempt
    from autograder.settings import CoursePaths, load_course_config
    from report_course import ReportCourse

    course = ReportCourse(tmp_path / "course")
    course.add("erin")
    paths = CoursePaths(load_course_config(course.root))
    waits: list[float] = []
    monkeypatch.setattr(pressure, "wait_until_quiet", lambda longest: waits.append(longest) or 0.0)
    for kind, expected in (("grader", [class_run.RETRY_WAIT]), ("stopped", [])):
        waits.clear()
        attempt = lambda student, kind=kind: Attempt(Fault(kind, "busy"), 1.0, "")  # noqa: E731
        class_run.ClassRun(paths, "mlp", attempt, 2, 1, io.StringIO()).grade("erin")
        assert waits == expected, kind
    assert class_run.RETRY_WAIT == 300.0


def test_waiting_until_quiet_ends_when_the_machine_is_quiet_or_at_its_longest(monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.grading import pressure

    shares = iter([90.0, 60.0, 20.0])
    monkeypatch.setattr(pressure, "_some", lambda: {"avg10": next(shares), "total": 1.0})
    assert pressure.wait_until_quiet(60.0, every=0.01) < 1.0  # quiet at the third reading
    monkeypatch.setattr(pressure, "_some", lambda: {"avg10": 90.0, "total": 1.0})
    assert 0.2 <= pressure.wait_until_quiet(0.2, every=0.01) < 1.0
    assert pressure.QUIET == 0.5


@pytest.mark.parametrize("busy", [0.0, 0.9], ids=["quiet-machine", "busy-machine"])
def test_the_autograde_backstop_does_not_count_the_machines_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, busy: float
) -> None:
    import sys
    import time

    from autograder.grading import autograde, pressure

    class Machine:
        def __init__(self) -> None:
            self._start = time.monotonic()

        def seconds(self) -> float:
            return busy * (time.monotonic() - self._start)

    monkeypatch.setattr(pressure, "Waiting", Machine)
    command = [sys.executable, "-c", "import time; time.sleep(2)"]  # past the kill at the first 1 s poll
    returncode = autograde.run_limited(command, tmp_path, {}, tmp_path / "log", 0.5)
    assert returncode == (None if busy == 0.0 else 0)
