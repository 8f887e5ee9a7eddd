"""Judges of ``CrossEntropyLoss``: mean −log softmax(Z)[y], dZ = (softmax(Z) − onehot(y)) / B."""
from __future__ import annotations

from typing import Any

import numpy as np
from nn_checks import FD_TOLERANCE, check_unchanged, fail, numerical_gradient
from nn_diagnosis import CROSS_ENTROPY, CROSS_ENTROPY_GRAD

from autograder import reference
from autograder.common import VALUE_TOLERANCE, got

TARGET_ERRORS = (("IndexError", "", "the targets index the wrong axis: y holds one class index per row, so pick entries with [np.arange(B), y]"),)


def _scalar(what: str, loss: Any) -> np.ndarray:
    if np.ndim(loss) != 0 or not np.issubdtype(np.asarray(loss).dtype, np.floating):
        kind = getattr(loss, "type_name", type(loss).__name__)
        fail(what, "one floating-point number (the mean loss)", f"{kind} of shape {np.shape(loss)}",
             "the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`")
    return np.asarray(loss, dtype=np.float64)


def _name(call: str, z: np.ndarray) -> str:
    return f"CrossEntropyLoss().{call} for logits of shape {z.shape} (largest |logit| {np.abs(z).max():.4g})"


def judge_forward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """The mean loss as a scalar, against the reference, finite for logits of ±1000, inputs not modified."""
    for case, record in zip(inputs["cases"], records, strict=True):
        z, y = case["z"], case["y"]
        what = _name("forward(logits, targets)", z)
        got(record, "layer", "CrossEntropyLoss()")
        loss = _scalar(what, got(record, "loss", what, CROSS_ENTROPY.formula, TARGET_ERRORS))
        CROSS_ENTROPY.check(what, loss, reference.cross_entropy(z, y), VALUE_TOLERANCE, z=z, y=y)
        check_unchanged(what, record["z_after"], z)


def judge_backward(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """backward() returns dZ of shape (B, C) for the latest forward, against the reference and finite differences."""
    for k, (case, record) in enumerate(zip(inputs["cases"], records, strict=True)):
        z, y = case["z"], case["y"]
        what = _name("backward()", z)
        got(record, "layer", "CrossEntropyLoss()")
        for key in ("forward_stale", "forward"):
            got(record, key, _name("forward(logits, targets)", z), CROSS_ENTROPY.formula, TARGET_ERRORS)
        dz = got(record, "dz", what, CROSS_ENTROPY_GRAD.formula, TARGET_ERRORS)
        CROSS_ENTROPY_GRAD.check(what, dz, reference.cross_entropy_grad(z, y), VALUE_TOLERANCE, z=z, y=y)
        if k < len(records) - 1:  # finite differences are meaningless where softmax saturates (the last case)
            z_fd = z.copy()
            numeric = numerical_gradient(lambda: reference.cross_entropy(z_fd, y), z_fd)
            CROSS_ENTROPY_GRAD.check(f"{what} (finite-difference check)", dz, numeric, FD_TOLERANCE, z=z, y=y)
