"""Every hidden check: its probe (the student's code on the hidden inputs) and its judge (reference and diagnosis).

``autograder.verify`` runs the probe in a sandboxed worker and calls ``judge``
on what the worker recorded. ``run_in_kernel`` probes and judges in one process
(for a maintainer trying a class by hand; grading never does this).
"""
from __future__ import annotations

from typing import Any, Callable

from nn_diagnosis import explain

from autograder import linear, loss, mlp, mnist_gate, relu, sgd
from autograder.inputs import inputs_for
from autograder.probe.core import CheckTimeout
from autograder.probe.run import probe_function, student_class

JUDGES: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], str | None]] = {
    "linear_forward": linear.judge_forward, "linear_backward_dx": linear.judge_backward_dx,
    "linear_backward_dw": linear.judge_backward_dw, "linear_backward_db": linear.judge_backward_db,
    "relu_forward": relu.judge_forward, "relu_backward": relu.judge_backward,
    "cross_entropy_forward": loss.judge_forward, "cross_entropy_backward": loss.judge_backward,
    "sgd_step": sgd.judge_step, "mlp_forward": mlp.judge_forward, "mlp_backward": mlp.judge_backward,
    "mnist_accuracy": mnist_gate.judge_accuracy,
}


def judge(check: str, inputs: dict[str, Any], outcome: dict[str, Any]) -> str | None:
    """Judge what a probe gave (``outcome``: records, or why there are none); return a line to show, raise AssertionError."""
    if "timeout" in outcome:
        raise AssertionError(outcome["timeout"])
    if "missing_class" in outcome:
        name = outcome["missing_class"]
        errors = outcome.get("cell_errors", {})
        detail = "; ".join(f"cell {cell!r} raised {e['raised']}: {e['message']}" for cell, e in errors.items())
        raise AssertionError(explain(f"{name}: expected the class from its answer cell, but it is not defined.",
                                     detail or "the answer cell was deleted, renamed or its class renamed"))
    return JUDGES[check](inputs, outcome["records"])


def run_in_kernel(check: str, cls: type) -> str | None:
    """Probe the student's class in this process and judge what came."""
    inputs = inputs_for(check)
    try:
        outcome = {"records": probe_function(check)(cls, inputs)}
    except CheckTimeout as timeout:
        outcome = {"timeout": str(timeout)}
    return judge(check, inputs, outcome)


__all__ = ["JUDGES", "judge", "run_in_kernel", "student_class"]
