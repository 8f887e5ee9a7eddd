"""The verdict on a hidden check: its judge (``registry.Check.judge``) on what its probe recorded.

``autograder.grading.verify`` runs the probe in a sandboxed worker and calls ``judge`` on what the worker
recorded. ``run_here`` probes and judges in one process: for a maintainer trying a class by hand and for the
kit's fast test tier; grading never does this.
"""

from __future__ import annotations

import time
from typing import Any

from nn_messages import CheckFailed, Failure, Text

from autograder import registry
from autograder.judge.common import bounded_failure, bounded_text, recorded_failure
from autograder.judge.inputs import inputs_for
from autograder.messages import AND_THEN, CELL_DELETED, CELL_RAISED, MISSING_CLASS
from autograder.probe.core import CheckTimeout
from autograder.student_text import student_text
from autograder.verdict import Passed


def _cells_raised(errors: dict[str, dict[str, Any]]) -> Text | None:
    """The answer cells that raised while the worker ran their definitions, one after another (the registry's cells
    only: the worker names them, and what it says of them is the student's)."""
    raised = [
        CELL_RAISED(cell=repr(cell), exception=student_text(error["raised"]), message=student_text(error["message"]))
        for cell, error in errors.items()
        if cell in registry.answer_cells()
    ]
    if not raised:
        return None
    cause = raised[-1]
    for earlier in reversed(raised[:-1]):
        cause = AND_THEN(first=earlier, rest=cause)
    return cause


def judge(check: str, inputs: dict[str, Any], outcome: dict[str, Any]) -> Passed | Text | None:
    """Judge what a probe gave (``outcome``: records, or why there are none); return a line to show (the gate's
    accuracy), or raise ``CheckFailed``. Whatever a failure or a note shows of the student's is bounded here
    (``common.bounded_failure``), whichever judge made it."""
    try:
        result = _judge(check, inputs, outcome)
    except CheckFailed as failed:
        raise CheckFailed(bounded_failure(failed.failure)) from None
    if isinstance(result, Passed):
        return Passed(bounded_text(result.note), result.numbers)
    return bounded_text(result) if isinstance(result, Text) else result


def _judge(check: str, inputs: dict[str, Any], outcome: dict[str, Any]) -> Passed | Text | None:
    if "stopped" in outcome:  # the check did not finish: the probe's time limit, or its worker ended
        raise CheckFailed(recorded_failure(outcome["stopped"]))
    if "missing_class" in outcome:
        cause = _cells_raised(outcome.get("cell_errors", {})) or CELL_DELETED
        raise CheckFailed(Failure(MISSING_CLASS(name=student_text(outcome["missing_class"])), cause))
    if registry.check(check).slow:  # the gate: its speed as the trusted side measured it (never the worker's word)
        return registry.judge_of(check)(inputs, outcome.get("records", []), outcome.get("measured"))
    return registry.judge_of(check)(inputs, outcome["records"])


def run_here(check: str, cls: object) -> Passed | Text | None:
    """Probe the student's class (None or not a class: it is missing) in this process and judge what came."""
    inputs = inputs_for(check)
    if not isinstance(cls, type):
        return judge(check, inputs, {"missing_class": registry.check(check).cls})
    start = time.process_time()
    try:
        outcome: dict[str, Any] = {"records": registry.probe_of(check)(cls, inputs)}
    except CheckTimeout as timeout:
        outcome = {"stopped": timeout.failure.to_data()}
    if registry.check(check).slow:  # no worker to measure from outside: this process is the maintainer's own
        from autograder.judge.gate import measure_here

        outcome["measured"] = measure_here(inputs, time.process_time() - start)
    return judge(check, inputs, outcome)
