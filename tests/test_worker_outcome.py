"""A worker's record becomes a ``WorkerOutcome`` once, where grading reads it (``workers._collect``): every value the
worker gave is checked there, and a record that is not one the probe writes is charged as unjudgeable (a crash, so
verify's control runs the course's solution first). Fast tier."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))

from autograder import messages, registry  # noqa: E402
from autograder.course.nn_messages import CheckFailed, Failure  # noqa: E402
from autograder.grading import workers  # noqa: E402
from autograder.judge.checks import judge  # noqa: E402
from autograder.judge.outcome import CellError, WorkerOutcome  # noqa: E402
from autograder.judge.records import WorkerReport  # noqa: E402
from autograder.probe.core import encode  # noqa: E402

STOPPED = Failure(messages.WORKER_EXIT(status=1)).to_data()


def _collected(*records: Any) -> dict[str, WorkerOutcome]:
    checks = ["relu_forward", "relu_backward"][: len(records)]
    report = WorkerReport(started=True, begun=checks, results=dict(zip(checks, map(encode, records), strict=True)))
    outcomes: dict[str, WorkerOutcome] = {}
    assert workers._collect(checks, report, outcomes) == ""
    return outcomes


def test_a_record_is_read_into_an_outcome_where_it_is_collected() -> None:
    outcomes = _collected({"records": [1, "two"]}, {"stopped": STOPPED})
    assert outcomes["relu_forward"] == WorkerOutcome(records=[1, "two"])
    assert outcomes["relu_backward"].failure == Failure.from_data(STOPPED)
    assert not outcomes["relu_backward"].crash  # the probe's own time limit: the student's, no control needed


@pytest.mark.parametrize(
    "forged",
    [
        {"stopped": {"message": {"id": "no.such.message", "fields": {}}}},
        {"missing_class": "ReLU", "cell_errors": ["not", "errors"]},
        {"missing_class": "ReLU", "cell_errors": {"relu": {"raised": "ValueError"}}},
        {"something": "else"},
        ["not", "an", "outcome"],
    ],
)
def test_a_record_the_probe_does_not_write_is_unjudgeable_and_suspect(forged: Any) -> None:
    outcome = _collected(forged)["relu_forward"]
    assert outcome.crash and outcome.records is None
    assert outcome.failure is not None and outcome.failure.message.id == messages.RECORD_UNJUDGEABLE.id
    with pytest.raises(CheckFailed) as failed:
        judge("relu_forward", {}, outcome)
    assert "could not be judged (ValueError: " in str(failed.value)


def test_a_missing_class_keeps_only_the_registrys_cells_their_words_bounded() -> None:
    errors = {"relu": {"raised": "Value\x1b[31mError", "message": "x" * 5000}, "forged": {"no": "keys"}}
    outcome = WorkerOutcome.from_record({"missing_class": "ReLU\n" * 1000, "cell_errors": errors})
    assert set(outcome.cell_errors) == {"relu"}
    error = outcome.cell_errors["relu"]
    assert error == CellError("ValueError", error.message) and len(error.message) <= 300
    assert "\n" not in outcome.missing_class and len(outcome.missing_class) <= 300


def test_the_grade_command_imports_before_the_course_helpers_are_importable(tmp_path: Path) -> None:
    """``grading.prepare`` puts the course's helpers on the path, so nothing the grade command imports may need them
    at import time (the outcome's failure check imports them when a record is read)."""
    import subprocess

    code = "import autograder.cli.grade, autograder.grading.workers, autograder.judge.outcome"
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-500:]


@pytest.mark.parametrize(
    ("frames", "aside"),
    [
        ([("begin", "mlp_forward"), ("aside", "begin")], True),  # stopped there: the check runs again, nothing aside
        ([("begin", "mlp_forward"), ("aside", "begin"), ("aside", "end")], False),
        ([("aside", "begin"), ("begin", "mlp_backward")], False),  # a new check begins with nothing aside
    ],
)
def test_the_report_says_whether_the_worker_last_ran_student_code_aside(
    frames: list[tuple[str, str]], aside: bool
) -> None:
    import io
    import json

    from autograder.judge.records import read_report

    lines = [b"started"] + [json.dumps({"kind": k, "name": n, "sizes": []}).encode() for k, n in frames]
    report = read_report(io.BytesIO(b"\n".join(lines) + b"\n"), b"started")
    assert report.started and not report.spoiled and report.aside is aside, report


@pytest.mark.parametrize(
    ("stopped", "aside", "rerun_stops", "runs", "charged"),
    [
        ("stalled", True, False, [True, False], set()),
        ("", True, False, [True, False], set()),  # ended by itself (os._exit in a layer)
        ("stalled", True, True, [True, False, False], {"mlp_forward", "mlp_backward"}),
        ("stalled", False, False, [True, True], {"mlp_forward"}),
    ],
    ids=["stopped-aside", "ended-aside", "stopped-aside-and-again-without", "stopped-in-the-check-itself"],
)
def test_a_stop_while_student_code_runs_aside_is_decided_again_without_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stopped: str,
    aside: bool,
    rerun_stops: bool,
    runs: list[bool],
    charged: set[str],
) -> None:
    """``run_group``: a worker that ended while it said a layer ran aside (the MLP's mirrors) costs nothing yet; a
    fresh worker runs the same checks with nothing aside, and only its own stop costs the check. A stop in the check's
    own code costs it at once."""
    group = registry.worker_groups()[1]
    calls: list[bool] = []

    def run_worker(box: Any, program: Path, checks: list[str], *args: Any) -> workers.WorkerRun:
        calls.append(args[-1])  # asides
        assert len(calls) <= 3, calls
        if len(calls) == 1 or rerun_stops:
            return workers.WorkerRun(WorkerReport(started=True, begun=[checks[0]], aside=aside), stopped, "")
        results = {check: encode({"missing_class": "MLP", "cell_errors": {}}) for check in checks}
        return workers.WorkerRun(WorkerReport(started=True, begun=list(checks), results=results), "", "")

    monkeypatch.setattr(workers, "run_worker", run_worker)
    monkeypatch.setattr(workers, "prepare", lambda *args, **kwargs: (tmp_path, tmp_path))
    monkeypatch.setattr(workers.sandbox, "Sandbox", lambda **kwargs: type("Box", (), {"prepare": lambda self: None})())
    outcomes = workers.run_group(group, [], workers.Grading(helpers=tmp_path, mnist=None), tmp_path)
    assert calls == runs, calls
    assert {check for check, outcome in outcomes.items() if outcome.crash} == charged, outcomes
    assert all("used almost no CPU" in str(outcomes[check].failure) for check in charged), outcomes
    assert all(outcomes[check].missing_class == "MLP" for check in set(group) - charged), outcomes
