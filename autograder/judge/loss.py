"""Judges of ``CrossEntropyLoss``: mean −log softmax(Z)[y], dZ = (softmax(Z) − onehot(y)) / B."""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.course.nn_checks import check_dtype, check_unchanged
from autograder.course.nn_diagnosis import CROSS_ENTROPY, CROSS_ENTROPY_GRAD, ErrorCause, check_loss
from autograder.course.nn_messages import Text
from autograder.judge import reference, suspects
from autograder.judge.common import VALUE_TOLERANCE, got, judge_cases
from autograder.messages import LOSS_CALL, LOSS_KEEP_DTYPE, LOSS_TARGET_AXIS

TARGET_ERRORS: tuple[ErrorCause, ...] = (("IndexError", "out of bounds", LOSS_TARGET_AXIS),)
"""An index past the end of its axis in the loss: the targets index the wrong axis (NumPy's other IndexErrors, more
indices than axes or an index that is not an integer, have causes of their own: ``nn_diagnosis.ERROR_CAUSES``)."""


def _name(call: str, z: np.ndarray) -> Text:
    return LOSS_CALL(call=call, shape=z.shape, largest=f"{np.abs(z).max():.4g}")


def judge_forward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """The mean loss as a scalar, between the exact value and the value with an eps of at most 1e-7 in the log
    (``check_loss``, as in the public check), finite for huge logits, inputs not modified."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        z, y = case["z"], case["y"]
        what = _name("forward(logits, targets)", z)
        got(record, "layer", "CrossEntropyLoss()")
        loss = got(record, "loss", what, CROSS_ENTROPY.formula, TARGET_ERRORS)
        log_p = reference.log_softmax(z)[np.arange(len(y)), y]
        facts = {"float_errors": record["float_errors"]} if "float_errors" in record else {}
        check_loss(what, loss, log_p, VALUE_TOLERANCE, z=z, y=y, **facts, **suspects.cross_entropy(z, y))
        check_unchanged(what, record["z_after"], z)

    judge_cases(inputs["cases"], records, one)


def judge_backward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward() returns dZ of shape (B, C) and of the logits' dtype for the latest forward, against the exact
    reference."""

    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        z, y = case["z"], case["y"]
        what = _name("backward()", z)
        got(record, "layer", "CrossEntropyLoss()")
        for key in ("forward_stale", "forward"):
            got(record, key, _name("forward(logits, targets)", z), CROSS_ENTROPY.formula, TARGET_ERRORS)
        dz = got(record, "dz", what, CROSS_ENTROPY_GRAD.formula, TARGET_ERRORS)
        wrong = suspects.cross_entropy(z, y, case["z_stale"], case["y_stale"])
        CROSS_ENTROPY_GRAD.check(what, dz, reference.cross_entropy_grad(z, y), VALUE_TOLERANCE, z=z, y=y, **wrong)
        check_dtype(what, dz, np.float64, LOSS_KEEP_DTYPE)

    judge_cases(inputs["cases"], records, one)
