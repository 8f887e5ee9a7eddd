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

from autograder import messages  # noqa: E402
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
