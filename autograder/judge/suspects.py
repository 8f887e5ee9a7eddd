"""The wrong answers of the typical mistakes, computed from a check's inputs on the trusted side.

``nn_diagnosis`` (released to students, and in every grading worker) names a mistake by comparing what came with
its wrong answer, but computes none that takes the inputs: each such suspect names the value it needs (``given``),
and the caller hands it. These are those values: the judges hand them for the hidden inputs, and the generator of
``nn_public_data`` stores them for the public checks' fixed inputs (``autograder/judge/public_data.py``). Each
function takes a check's inputs (any missing is None) and returns the wrong answers that apply, in float64; one that
cannot be computed on these inputs (a missing input, mismatched shapes) is left out, so its suspect is not named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autograder.judge import reference

Wrong = dict[str, Any]
OVERFLOW_LOGIT = 88.0
"""exp overflows float32 above about 88.7 (float64 above about 709.8): a row whose largest logit is beyond ±88
``can_overflow`` without the max shift."""
UNDERFLOW_LOG_P = -87.0
"""A probability below exp(-87) underflows to 0 in float32 (below about exp(-745) in float64): a target whose log
probability is below it ``can_underflow``."""


def _float64(value: Any) -> Any:
    return np.asarray(value, np.float64) if isinstance(value, np.ndarray) and value.dtype.kind == "f" else value


def _computed(candidates: dict[str, Callable[[], Any]]) -> Wrong:
    """Each candidate that can be computed (NumPy's warnings silenced, as the mistake itself would compute it)."""
    wrong = {}
    with np.errstate(all="ignore"):
        for name, compute in candidates.items():
            try:
                wrong[name] = np.asarray(compute(), np.float64)
            except Exception:  # noqa: BLE001 - a mistake that does not apply to these inputs
                continue
    return wrong


def linear(x: Any = None, W: Any = None, b: Any = None, g: Any = None, x_stale: Any = None, **_: Any) -> Wrong:
    """``LINEAR_FORWARD``, ``LINEAR_DX``, ``LINEAR_DW`` and ``LINEAR_DB``'s suspects."""
    x, W, b, g, x_stale = map(_float64, (x, W, b, g, x_stale))
    return _computed(
        {
            "no_bias": lambda: reference.linear_forward(x, W, b) - b,
            "w_transposed": lambda: x @ W.T + b,
            "dx_not_transposed": lambda: g @ W,
            "dw_stale_input": lambda: x_stale.T @ g,
            "db_not_summed": lambda: g,
            "db_wrong_axis": lambda: g.sum(axis=1),
            "db_one_number": lambda: g.sum(),
        }
    )


def relu(x: Any = None, g: Any = None, x_stale: Any = None, **_: Any) -> Wrong:
    """``RELU_FORWARD`` and ``RELU_BACKWARD``'s suspects (x: the input of the forward that backward must use)."""
    x, g, x_stale = map(_float64, (x, g, x_stale))
    return _computed(
        {
            "relu_max_reduction": lambda: np.max(x, 0),
            "relu_negative_part": lambda: x - reference.relu_forward(x),
            "relu_mask_at_zero": lambda: reference.relu_backward(x, g) + g * (x == 0),
            "relu_times_output": lambda: reference.relu_backward(x, g) * x,
            "relu_mask_from_g": lambda: g * (g > 0),
            "relu_stale_mask": lambda: g * (x_stale > 0),
            "relu_no_mask": lambda: g,
        }
    )


def _softmax_over_batch(z: np.ndarray, shift_rows: bool) -> np.ndarray:
    """Softmax normalised down each column (the batch axis), after either shift, as the mistake computes it."""
    shifted = z - (z.max(axis=1, keepdims=True) if shift_rows else z.max(axis=0, keepdims=True))
    return np.exp(shifted) / np.exp(shifted).sum(axis=0, keepdims=True)


def _all_rows_at_targets(y: np.ndarray, classes: int, batch: int) -> np.ndarray:
    """What `grad[:, y] -= 1` subtracts: 1 in every row, in every column that is some sample's target."""
    columns = np.zeros(classes)
    columns[y] = 1.0
    return np.tile(columns, (batch, 1))


def facts(z: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """What a non-finite loss or dZ can come from on these logits: some row's exp overflows without the max shift (or
    every exp in a row underflows, 0 / 0), some target's probability underflows to 0, some other class's probability
    underflows to 0 (0 · log 0 for a loss that multiplies every log probability by the one-hot); and which entries a
    softmax without the shift can make non-finite (those whose exp overflows, or every entry of a row whose exps all
    underflow)."""
    z, y = np.asarray(z, np.float64), np.asarray(y, np.int64)
    row_max = z.max(axis=1)
    log_softmax = reference.log_softmax(z)
    log_p = log_softmax[np.arange(len(y)), y]
    others = np.ones(z.shape, bool)
    others[np.arange(len(y)), y] = False
    all_underflow = (row_max < -OVERFLOW_LOGIT)[:, None]
    overflows_in_row = (row_max > OVERFLOW_LOGIT)[:, None]
    return {
        "can_overflow": bool((row_max > OVERFLOW_LOGIT).any() or (row_max < -OVERFLOW_LOGIT).any()),
        "can_underflow": bool(log_p.min() < UNDERFLOW_LOG_P),
        "others_can_underflow": bool((log_softmax[others] < UNDERFLOW_LOG_P).any()),
        "unshifted_nonfinite_at": (overflows_in_row & (z > OVERFLOW_LOGIT)) | np.broadcast_to(all_underflow, z.shape),
    }


def cross_entropy(z: Any, y: Any, z_stale: Any = None, y_stale: Any = None, **_: Any) -> Wrong:
    """``CROSS_ENTROPY`` and ``CROSS_ENTROPY_GRAD``'s suspects, and the ``facts`` their non-finite suspects read
    (``z_stale``, ``y_stale``: the logits and targets of an earlier forward, which backward must not use)."""
    z, y = np.asarray(z, np.float64), np.asarray(y, np.int64)
    batch, classes = z.shape
    rows = np.arange(batch)
    onehot = np.eye(classes)[y]
    dz = reference.cross_entropy_grad(z, y)

    def unshifted() -> np.ndarray:  # log-probabilities without the max shift: rows whose exp overflowed give 0
        return (np.exp(z - np.log(np.exp(z).sum(axis=1, keepdims=True))) - onehot) / batch

    return {
        **facts(z, y),
        **_computed(
            {
                "loss_over_batch_row_shift": lambda: -np.mean(np.log(_softmax_over_batch(z, True))[rows, y]),
                "loss_over_batch_column_shift": lambda: -np.mean(np.log(_softmax_over_batch(z, False))[rows, y]),
                "dz_unshifted": unshifted,
                "dz_every_row": lambda: dz + (onehot - _all_rows_at_targets(y, classes, batch)) / batch,
                "dz_no_onehot": lambda: dz + onehot / batch,
                "dz_from_logits": lambda: (z - onehot) / batch,
                "dz_over_batch_row_shift": lambda: (_softmax_over_batch(z, True) - onehot) / batch,
                "dz_over_batch_column_shift": lambda: (_softmax_over_batch(z, False) - onehot) / batch,
                "dz_stale_input": lambda: reference.cross_entropy_grad(z_stale, y_stale),
            }
        ),
    }


def sgd(start: Any, grad: Any, lr: float, steps: int) -> Wrong:
    """``SGD_UPDATE``'s suspects for one parameter after ``steps`` steps."""
    start, grad = np.asarray(start, np.float64), np.asarray(grad, np.float64)
    return _computed(
        {
            "sgd_ascent": lambda: start + steps * lr * grad,
            "sgd_lr_twice": lambda: start - steps * lr * lr * grad,
            "sgd_no_lr": lambda: start - steps * grad,
        }
    )


def sgd_case(start: list[Any], grads: list[Any], skipped: int, lr: float, steps: int) -> dict[str, list]:
    """What ``check_sgd`` needs from the caller for one case: ``expected`` and ``mistakes`` per step and parameter."""
    expected: list[list[Any]] = []
    mistakes: list[list[Wrong]] = []
    for step in range(1, steps + 1):
        expected.append(
            [
                None if i == skipped else reference.sgd_steps(s, g, lr, step)
                for i, (s, g) in enumerate(zip(start, grads, strict=True))
            ]
        )
        mistakes.append(
            [{} if i == skipped else sgd(s, g, lr, step) for i, (s, g) in enumerate(zip(start, grads, strict=True))]
        )
    return {"expected": expected, "mistakes": mistakes}


def mlp(
    x: Any = None, W1: Any = None, b1: Any = None, W2: Any = None, b2: Any = None, g: Any = None, **_: Any
) -> Wrong:
    """``MLP_FORWARD`` and ``MLP_BACKWARD``'s suspects."""
    x, W1, b1, W2, b2, g = map(_float64, (x, W1, b1, W2, b2, g))
    return _computed(
        {
            "mlp_no_relu": lambda: (x @ W1 + b1) @ W2 + b2,
            "mlp_relu_on_logits": lambda: np.maximum(reference.mlp_forward(x, W1, b1, W2, b2), 0),
            "mlp_returns_relu_grad": lambda: (g @ W2.T) * ((x @ W1 + b1) > 0),
        }
    )
