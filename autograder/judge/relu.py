"""Judges of ``ReLU``: H ↦ max(H, 0), backward dH = G ⊙ 1(H > 0) with H the latest input."""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.course.nn_checks import FD_TOLERANCE, check_dtype, check_unchanged
from autograder.course.nn_diagnosis import RELU_BACKWARD, RELU_FORWARD
from autograder.course.nn_messages import FD_CHECK, FOR_X_SHAPE
from autograder.judge import reference, suspects
from autograder.judge.common import VALUE_TOLERANCE, got, judge_cases
from autograder.messages import RELU_KEEP_DTYPE

KEEP_DTYPE = RELU_KEEP_DTYPE


def judge_forward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """max(H, 0) elementwise, same shape and dtype, input not modified."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        h = case["x"]
        what = FOR_X_SHAPE(call="ReLU().forward(x)", shape=h.shape)
        got(record, "layer", "ReLU()")
        y = got(record, "y", what, RELU_FORWARD.formula)
        RELU_FORWARD.check(what, y, reference.relu_forward(h), VALUE_TOLERANCE, x=h, **suspects.relu(x=h))
        check_dtype(what, y, np.float64, KEEP_DTYPE)
        check_unchanged(what, record["x_after"], h)

    judge_cases(inputs["cases"], records, one)


def judge_backward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """G ⊙ 1(H > 0) with H the latest input (0 where H == 0), G unmodified; finite differences away from the kink."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        h, g = case["x"], case["g"]
        what = FOR_X_SHAPE(call="ReLU().backward(grad)", shape=h.shape)
        forward = FOR_X_SHAPE(call="ReLU().forward(x)", shape=h.shape)
        got(record, "layer", "ReLU()")
        for key in ("forward_stale", "forward"):
            got(record, key, forward, RELU_FORWARD.formula)
        dx = got(record, "dx", what, RELU_BACKWARD.formula)
        named = dict(x=h, x_stale=case["x_stale"], g=g)
        RELU_BACKWARD.check(what, dx, reference.relu_backward(h, g), VALUE_TOLERANCE, **named, **suspects.relu(**named))
        check_dtype(what, dx, np.float64, KEEP_DTYPE)
        check_unchanged(what, record["g_after"], g)
        smooth = case["x_smooth"]
        got(record, "forward_smooth", forward, RELU_FORWARD.formula)
        dx = got(record, "dx_smooth", what, RELU_BACKWARD.formula)
        perturbed = smooth.copy()
        numeric = reference.numerical_gradient(lambda: np.sum(reference.relu_forward(perturbed) * g), perturbed)
        RELU_BACKWARD.check(
            FD_CHECK(what=what), dx, numeric, FD_TOLERANCE, x=smooth, g=g, **suspects.relu(x=smooth, g=g)
        )

    judge_cases(inputs["cases"], records, one)
