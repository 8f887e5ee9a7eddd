"""The verdict on a hidden check: its judge (``registry.Check.judge``) on what its probe recorded.

``autograder.grading.verify`` runs the probe in a sandboxed worker and calls ``judge`` on the outcome read from the
worker's report (``outcome.WorkerOutcome``, checked where it was read). ``run_here`` probes and judges in one process:
for a maintainer trying a class by hand and for the kit's fast test tier; grading never does this.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any

from autograder import registry
from autograder.cell_names import cell_called
from autograder.course.nn_messages import CheckFailed, Failure, Text
from autograder.judge.common import bounded_failure, bounded_text
from autograder.judge.inputs import inputs_for
from autograder.judge.outcome import CellError, WorkerOutcome
from autograder.messages import AND_THEN, CELL_DELETED, CELL_RAISED, MISSING_CLASS
from autograder.probe.core import CheckTimeout
from autograder.verdict import Passed


def _cells_raised(errors: Mapping[str, CellError]) -> Text | None:
    """The answer cells that raised while the worker ran their definitions, one after another (the registry's cells
    only, their errors bounded: ``WorkerOutcome.from_record``)."""
    raised = [
        CELL_RAISED(cell=cell_called(cell, 0), exception=error.raised, message=error.message)
        for cell, error in errors.items()
    ]
    if not raised:
        return None
    cause = raised[-1]
    for earlier in reversed(raised[:-1]):
        cause = AND_THEN(first=earlier, rest=cause)
    return cause


def judge(check: str, inputs: dict[str, Any], outcome: WorkerOutcome) -> Passed | Text | None:
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


def _judge(check: str, inputs: dict[str, Any], outcome: WorkerOutcome) -> Passed | Text | None:
    if outcome.failure is not None:  # the check did not finish: the probe's time limit, or its worker ended
        raise CheckFailed(outcome.failure)
    if outcome.missing_class is not None:
        cause = _cells_raised(outcome.cell_errors) or CELL_DELETED
        raise CheckFailed(Failure(MISSING_CLASS(name=outcome.missing_class), cause))
    records = [] if outcome.records is None else outcome.records  # the gate stopped from outside has none
    if registry.check(check).slow:  # the gate: its speed as the trusted side measured it (never the worker's word)
        return registry.judge_of(check)(inputs, records, outcome.measured)
    return registry.judge_of(check)(inputs, records)


def run_here(check: str, cls: object) -> Passed | Text | None:
    """Probe the student's class (None or not a class: it is missing) in this process and judge what came."""
    inputs = inputs_for(check)
    if not isinstance(cls, type):
        return judge(check, inputs, WorkerOutcome(missing_class=registry.check(check).cls))
    start = time.process_time()
    try:
        outcome = WorkerOutcome(records=registry.probe_of(check)(cls, inputs))
    except CheckTimeout as timeout:
        outcome = WorkerOutcome(failure=timeout.failure)
    if registry.check(check).slow:  # no worker to measure from outside: this process is the maintainer's own
        from autograder.judge.gate import measure_here

        outcome = dataclasses.replace(outcome, measured=measure_here(inputs, time.process_time() - start))
    return judge(check, inputs, outcome)
