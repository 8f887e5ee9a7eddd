"""The verdict on a hidden check: its judge (``registry.Check.judge``) on what its probe recorded.

``autograder.plugins.verify`` runs the probe in a sandboxed worker and calls ``judge`` on what the worker
recorded. ``run_here`` probes and judges in one process: for a maintainer trying a class by hand and for the
kit's fast test tier; grading never does this.
"""

from __future__ import annotations

from typing import Any

from autograder import registry
from autograder.judge.inputs import inputs_for
from autograder.probe.core import CheckTimeout
from nn_diagnosis import explain


def judge(check: str, inputs: dict[str, Any], outcome: dict[str, Any]) -> str | None:
    """Judge what a probe gave (``outcome``: records, or why there are none); return a line to show, raise
    AssertionError."""
    if "timeout" in outcome:
        raise AssertionError(outcome["timeout"])
    if "missing_class" in outcome:
        name = outcome["missing_class"]
        errors = outcome.get("cell_errors", {})
        detail = "; ".join(f"cell {cell!r} raised {e['raised']}: {e['message']}" for cell, e in errors.items())
        raise AssertionError(
            explain(
                f"{name}: expected the class from its answer cell, but it is not defined.",
                detail or "the answer cell was deleted, renamed or its class renamed",
            )
        )
    return registry.judge_of(check)(inputs, outcome["records"])


def run_here(check: str, cls: object) -> str | None:
    """Probe the student's class (None or not a class: it is missing) in this process and judge what came."""
    inputs = inputs_for(check)
    if not isinstance(cls, type):
        return judge(check, inputs, {"missing_class": registry.check(check).cls})
    try:
        outcome: dict[str, Any] = {"records": registry.probe_of(check)(cls, inputs)}
    except CheckTimeout as timeout:
        outcome = {"timeout": str(timeout)}
    return judge(check, inputs, outcome)
