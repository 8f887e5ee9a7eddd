"""Judges of ``MLP`` wiring: logits = fc2(relu(fc1(x))); backward through fc2, relu, fc1 in reverse order.

The probe swaps stand-in layers into the student's MLP, so these judge the
MLP's own code; a bug in the student's Linear or ReLU costs points there, not
here. The stand-ins record the order of the calls, for the diagnosis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.course.nn_checks import check_dtype, check_shape, check_unchanged
from autograder.course.nn_diagnosis import MLP_BACKWARD, MLP_FORWARD, call_order_cause, check_parameters
from autograder.course.nn_messages import FOR_X_SHAPE, MLP_GRAD_UNSET, PART_OF, Text
from autograder.judge import reference, suspects
from autograder.judge.common import VALUE_TOLERANCE, got, judge_cases, recorded
from autograder.messages import (
    GRAD_AFTER_BACKWARD,
    MLP_KEEP_DTYPE,
    RETURNED_DX,
    WITH_X_SHAPE,
)
from autograder.probe.core import is_raised

NAMES = ("W1", "b1", "W2", "b2")
ATTRIBUTES = {"W1": "fc1.W", "b1": "fc1.b", "W2": "fc2.W", "b2": "fc2.b"}
"""Where each parameter is in the MLP, as code."""


def _built(case: dict[str, Any], record: dict[str, Any]) -> str:
    """The student's MLP was built and its parameters() are W1, b1, W2, b2; return its name for messages (code)."""
    name = f"MLP({case['W1'].shape[0]}, {case['W1'].shape[1]}, {case['W2'].shape[1]})"
    got(record, "mlp", name)
    got(record, "parameters", f"list({name}.parameters())")
    check_parameters(f"list({name}.parameters())", record["parameters"])
    return name


def _order_cause(record: dict[str, Any], direction: str) -> Text | None:
    """The layer-order mistake the recorded calls prove; a method that raised proves only a wrong order already seen."""
    calls = record.get("calls", [])
    forward_done = "logits" in record and not is_raised(record["logits"])
    cause = call_order_cause(calls, "forward", forward_done)
    if direction == "backward" and cause is None and forward_done:
        cause = call_order_cause(calls, "backward", "dx" in record and not is_raised(record["dx"]))
    return cause


def judge_forward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """forward gives fc2(relu(fc1(x))) and leaves x alone."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        what = FOR_X_SHAPE(call=f"{_built(case, record)}.forward(x)", shape=case["x"].shape)
        cause = _order_cause(record, "forward")
        logits = got(record, "logits", what, MLP_FORWARD.formula, cause=cause)
        weights = [case[n] for n in NAMES]
        MLP_FORWARD.check(
            what,
            logits,
            reference.mlp_forward(case["x"], *weights),
            VALUE_TOLERANCE,
            cause=cause,
            **case,
            **suspects.mlp(**case),
        )
        check_dtype(what, logits, np.float64, MLP_KEEP_DTYPE)
        check_unchanged(what, record["x_after"], case["x"])

    judge_cases(inputs["cases"], records, one)


def judge_backward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward(G) returns dX and fills every parameter's .grad, against the exact reference."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        x, g, weights = case["x"], case["g"], [case[n] for n in NAMES]
        what = WITH_X_SHAPE(call=_built(case, record), shape=x.shape)
        cause = _order_cause(record, "backward")
        forward, backward = PART_OF(what=what, part="forward(x)"), PART_OF(what=what, part="backward(grad)")
        logits = got(record, "logits", forward, MLP_FORWARD.formula, cause=cause)
        check_shape(forward, logits, g.shape)
        dx = got(record, "dx", backward, MLP_BACKWARD.formula, cause=cause)
        check_unchanged(backward, record["g_after"], g)
        expected = reference.mlp_backward(x, *weights, g)
        MLP_BACKWARD.check(
            PART_OF(what=what, part=RETURNED_DX),
            dx,
            expected["x"],
            VALUE_TOLERANCE,
            cause=cause,
            **case,
            **suspects.mlp(**case),
        )
        check_dtype(backward, dx, np.float64, MLP_KEEP_DTYPE)
        grads = dict(zip(NAMES, map(recorded, record["grads"]), strict=True))
        for name in NAMES:
            MLP_BACKWARD.check(
                PART_OF(what=what, part=GRAD_AFTER_BACKWARD(name=name)),
                grads[name],
                expected[name],
                VALUE_TOLERANCE,
                cause=cause,
                # the stand-in layers set every .grad, and the calls show each one's backward ran (else ``cause``)
                unset=MLP_GRAD_UNSET(attribute=f"{ATTRIBUTES[name]}.grad", layer=ATTRIBUTES[name][:3]),
            )

    judge_cases(inputs["cases"], records, one)
