"""Judges of ``Linear``: Y = X W + b, dX = G Wᵀ, dW = Xᵀ G, db_j = Σ_i G_ij, against the exact reference."""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.course.nn_checks import check_array, check_dtype, check_shape, check_unchanged
from autograder.course.nn_diagnosis import LINEAR_DB, LINEAR_DW, LINEAR_DX, LINEAR_FORWARD, Quantity
from autograder.course.nn_messages import GRAD_NOT_SET, LINEAR_GIVEN, PART_OF, Text
from autograder.judge import reference, suspects
from autograder.judge.common import VALUE_TOLERANCE, got, judge_cases, recorded
from autograder.messages import (
    GRAD_AFTER_BACKWARD,
    LINEAR_FLOAT32_LAYER,
    LINEAR_FLOAT64,
    LINEAR_KEEP_DTYPE,
    RETURNED_DX,
    WITH_X_SHAPE,
)
from autograder.probe.core import is_raised

KEEP_DTYPE = LINEAR_KEEP_DTYPE
GIVEN = LINEAR_GIVEN


def _layer(case: dict[str, Any]) -> str:
    """The layer as code: ``Linear(3, 2)``."""
    d_in, d_out = case["W"].shape
    return f"Linear({d_in}, {d_out})"


def _name(case: dict[str, Any]) -> Text:
    return WITH_X_SHAPE(call=_layer(case), shape=case["x"].shape)


def _check_layer(case: dict[str, Any], record: dict[str, Any]) -> None:
    """The student's own W and b, from the given __init__, have the documented shapes."""
    d_in, d_out = case["W"].shape
    layer = _layer(case)
    got(record, "layer", layer)
    check_shape(f"{layer}.W", np.empty(record["W_shape"]), (d_in, d_out), GIVEN)
    check_shape(f"{layer}.b", np.empty(record["b_shape"]), (d_out,), GIVEN)


def judge_forward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Values, shape and dtype of Y = X W + b; x is not modified; a float32 layer works too."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        _check_layer(case, record)
        what = PART_OF(what=_name(case), part="forward(x)")
        y = got(record, "y", what, LINEAR_FORWARD.formula)
        LINEAR_FORWARD.check(
            what,
            y,
            reference.linear_forward(case["x"], case["W"], case["b"]),
            VALUE_TOLERANCE,
            **case,
            **suspects.linear(**case),
        )
        check_dtype(LINEAR_FLOAT64(what=what), y, np.float64, KEEP_DTYPE)
        check_unchanged(what, record["x_after"], case["x"])
        got(record, "fresh_layer", _layer(case))
        float32 = LINEAR_FLOAT32_LAYER(what=what)
        y32 = got(record, "y32", float32, LINEAR_FORWARD.formula)
        check_array(float32, y32)
        check_shape(float32, y32, (case["x"].shape[0], case["W"].shape[1]))

    judge_cases(inputs["cases"], records, one)


_BACKWARD: dict[
    str, tuple[int, str, Text, Quantity]
] = {  # gradient -> (position in reference.linear_backward, record key, what, quantity)
    "x": (0, "dx", RETURNED_DX, LINEAR_DX),
    "W": (1, "W_grad", GRAD_AFTER_BACKWARD(name="W"), LINEAR_DW),
    "b": (2, "b_grad", GRAD_AFTER_BACKWARD(name="b"), LINEAR_DB),
}


def _judge_gradient(wrt: str, inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """One backward result on every case. One slip costs one cell: a forward that raised after saving its input,
    and (for W.grad and b.grad) a backward that stored the gradient and then raised, still get the gradient judged."""
    position, key, produced, quantity = _BACKWARD[wrt]

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        _check_layer(case, record)
        name = _name(case)
        backward_failed = is_raised(record.get("dx"))
        if backward_failed or record.get(key) is None:
            for forward in ("forward_stale", "forward"):
                if is_raised(record.get(forward)):
                    got(record, forward, PART_OF(what=name, part="forward(x)"), LINEAR_FORWARD.formula)
            if wrt == "x" or record.get(key) is None:
                got(record, "dx", PART_OF(what=name, part="backward(grad)"), quantity.formula)
        result = recorded(record[key])
        what = PART_OF(what=name, part=produced)
        quantity.check(
            what,
            result,
            reference.linear_backward(case["x"], case["W"], case["g"])[position],
            VALUE_TOLERANCE,
            unset=None if wrt == "x" else GRAD_NOT_SET(attribute=f"{wrt}.grad", method="Linear.backward"),
            **case,
            **suspects.linear(**case),
        )
        check_dtype(what, result, np.float64, KEEP_DTYPE)
        if not backward_failed:
            check_unchanged(PART_OF(what=name, part="backward(grad)"), record["g_after"], case["g"])

    judge_cases(inputs["cases"], records, one)


def judge_backward_dx(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward(G) returns dX = G Wᵀ (shape of x)."""
    _judge_gradient("x", inputs, records)


def judge_backward_dw(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward(G) sets W.grad = Xᵀ G for the latest input x."""
    _judge_gradient("W", inputs, records)


def judge_backward_db(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward(G) sets b.grad_j = Σ_i G_ij (shape (D_out,))."""
    _judge_gradient("b", inputs, records)
