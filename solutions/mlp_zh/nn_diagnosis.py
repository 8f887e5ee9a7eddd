"""Name the mistake: when a check fails, find the typical mistake that gives exactly what came.

Every quantity the exercises compute is a ``Quantity``: the chapter's formula
and a list of ``Suspect`` mistakes, each with the wrong answer it produces,
computed from the expected answer and the check's inputs (``x``, ``W``, ``b``,
``g`` for the upstream gradient, ``z`` and ``y`` for logits and targets, ...).
The notebook's public checks and the grader's hidden checks use the same
catalogue, so a student sees the same message before and after submitting.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from nn_checks import RETURNED_NONE, CheckFailed, check_close, check_within, fail, worst_difference

MATCH_TOLERANCE = 1e-4
"""How close what came must be to a suspect's wrong answer for the suspect to be named."""


@dataclass(frozen=True)
class Suspect:
    """A typical mistake: ``gives(expected, **inputs)`` is its wrong answer, or ``shows(actual, expected, **inputs)``
    spots it."""

    cause: str
    gives: Callable[..., Any] | None = None
    shows: Callable[..., bool] | None = None

    def matches(self, actual: np.ndarray, expected: np.ndarray, inputs: dict[str, Any]) -> bool:
        with np.errstate(all="ignore"):
            try:  # a suspect that does not apply to these inputs (a missing input, mismatched shapes) is not named
                if self.shows is not None:
                    return bool(self.shows(actual, expected, **inputs))
                wrong = np.asarray(self.gives(expected, **inputs), dtype=np.float64)
            except Exception:
                return False
        if (
            wrong.shape != actual.shape
            or not np.isfinite(wrong).all()
            or not np.isfinite(actual).all()
            or worst_difference(actual, wrong)[0] > MATCH_TOLERANCE
        ):
            return False
        # On some inputs a mistake gives the right answer (the sum equals the mean for B = 1): then it explains nothing.
        return wrong.shape != expected.shape or worst_difference(wrong, expected)[0] > MATCH_TOLERANCE


@dataclass(frozen=True)
class Quantity:
    """Something an exercise computes, the chapter's formula for it, and the mistakes we recognise."""

    name: str
    formula: str
    suspects: tuple[Suspect, ...] = ()

    def likely_cause(self, actual: Any, expected: Any, **inputs: Any) -> str | None:
        """The cause of the suspect whose wrong answer matches ``actual``, or None if none does, or if suspects with
        different causes match (the evidence does not tell them apart)."""
        try:
            actual = np.asarray(actual, dtype=np.float64)
        except (TypeError, ValueError):
            return None
        expected = np.asarray(expected, dtype=np.float64)
        inputs = {
            k: np.asarray(v, dtype=np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
            for k, v in inputs.items()
        }
        causes = {s.cause for s in self.suspects if s.matches(actual, expected, inputs)}
        return causes.pop() if len(causes) == 1 else None

    def check(
        self,
        what: str,
        actual: Any,
        expected: Any,
        tolerance: float = 1e-6,
        cause: str | None = None,
        band: tuple[Any, Any] | None = None,
        accepted: str = "",
        scale: float = 0.0,
        **inputs: Any,
    ) -> None:
        """``check_close`` (or ``check_within`` the ``band``, if given); on failure the message also names the likely
        cause (``cause`` if known, else a suspect's) and the formula. ``scale``: see ``worst_difference``."""
        if isinstance(actual, (float, np.floating)):  # a scalar such as a loss
            actual = np.asarray(actual)
        try:
            if band is None:
                check_close(what, actual, np.asarray(expected, dtype=np.float64), tolerance, scale=scale)
            else:
                check_within(what, actual, np.asarray(expected, dtype=np.float64), *band, tolerance, accepted=accepted)
        except AssertionError as failure:
            # check_close's own hint is a guess; only a cause the evidence identifies is named
            message, cause = (
                str(failure).split("\n  Likely cause:")[0],
                cause or self.likely_cause(actual, expected, **inputs),
            )
            cause = cause or (RETURNED_NONE if actual is None else None)
            raise CheckFailed(explain(message, cause, self.formula)) from None


def explain(message: str, cause: str | None, formula: str = "") -> str:
    """A failure message followed by the likely cause (if known) and the formula that fixes it."""
    lines = [message]
    if cause:
        lines.append(f"  Likely cause: {cause}.")
    if formula:
        lines.append(f"  The formula: {formula}")
    return "\n".join(lines)


def _batch(e: np.ndarray, **_: Any) -> int:
    return e.shape[0] if e.ndim else 1


LINEAR_FORWARD = Quantity(
    "Y",
    "Y = X W + b: X (B, D_in) @ W (D_in, D_out), then b added to every row",
    (
        Suspect("the bias is not added (Y = X W, without + b)", gives=lambda e, b, **_: e - b),
        Suspect(
            "W is transposed (Y = X Wᵀ + b); W already has shape (D_in, D_out)",
            gives=lambda e, x, W, b, **_: x @ W.T + b,
        ),
    ),
)
LINEAR_DX = Quantity(
    "dX",
    "dX = G Wᵀ, of shape (B, D_in); backward must `return` it",
    (
        Suspect("dX = G W: W is not transposed", gives=lambda e, W, g, **_: g @ W),
        Suspect(
            "dX divided by the batch size (the loss already averages; dX is a plain product)",
            gives=lambda e, **_: e / _batch(e),
        ),
    ),
)
LINEAR_DW = Quantity(
    "dW",
    "dW = Xᵀ G, of the shape of W (D_in, D_out), with X the input of the latest forward; store it in self.W.grad",
    (
        Suspect("dW = Gᵀ X: the product is transposed", gives=lambda e, **_: e.T),
        Suspect(
            "dW divided by the batch size (the loss already averages; dW is a plain sum over the batch)",
            gives=lambda e, x, **_: e / x.shape[0],
        ),
        Suspect(
            'dW uses the input of an earlier forward call: forward must save its latest input, `self.ctx["x"] = x`, on '
            "every call",
            gives=lambda e, x_stale, g, **_: x_stale.T @ g,
        ),
    ),
)
LINEAR_DB = Quantity(
    "db",
    "db = Σ_i G_i: sum G over the batch axis (axis=0), so that db has the shape of b, (D_out,); store it in "
    "self.b.grad",
    (
        Suspect("db = G, not summed over the batch", gives=lambda e, g, **_: g),
        Suspect(
            "db has shape (1, D_out): the sum kept the batch axis (keepdims=True); b has shape (D_out,)",
            gives=lambda e, **_: e[None, :],
        ),
        Suspect(
            "db summed over the features (axis=1) instead of the batch (axis=0)", gives=lambda e, g, **_: g.sum(axis=1)
        ),
        Suspect("db averaged over the batch (mean) instead of summed", gives=lambda e, g, **_: e / g.shape[0]),
        Suspect(
            "db is one number, summed over every axis (or squeezed); sum over the batch axis only (axis=0), which "
            "keeps the shape (D_out,)",
            gives=lambda e, g, **_: g.sum(),
        ),
    ),
)
RELU_FORWARD = Quantity(
    "ReLU(H)",
    "ReLU(H) = max(H, 0) elementwise: np.maximum(x, 0), a new array of the shape of x",
    (
        Suspect(
            "np.max(x, 0) is a reduction (the largest entry of each column), not the elementwise np.maximum(x, 0)",
            gives=lambda e, x, **_: np.max(x, 0),
        ),
        Suspect(
            "the negative part kept instead of the positive part (min instead of max)", gives=lambda e, x, **_: x - e
        ),
    ),
)
RELU_BACKWARD = Quantity(
    "dX",
    "dX = G ⊙ 1(H > 0): the mask comes from the input H of the latest forward and is 0 where H ≤ 0",
    (
        Suspect(
            "mask 1(H ≥ 0): the gradient at exactly H = 0 must be 0, use `x > 0`",
            gives=lambda e, x, g, **_: e + g * (x == 0),
        ),
        Suspect("G multiplied by the output max(H, 0) instead of by the mask 1(H > 0)", gives=lambda e, x, **_: e * x),
        Suspect("the mask taken from the gradient G instead of from the input H", gives=lambda e, g, **_: g * (g > 0)),
        Suspect(
            "the mask comes from an earlier forward call: forward must save what backward needs on every call",
            gives=lambda e, x_stale, g, **_: g * (x_stale > 0),
        ),
        Suspect("no mask: backward returns G unchanged", gives=lambda e, g, **_: g),
    ),
)


def _onehot(y: np.ndarray, classes: int) -> np.ndarray:
    return np.eye(classes)[np.asarray(y, dtype=np.int64)]


def _all_rows_at_targets(y: np.ndarray, classes: int, batch: int) -> np.ndarray:
    """What `grad[:, y] -= 1` subtracts: 1 in every row, in every column that is some sample's target."""
    columns = np.zeros(classes)
    columns[np.asarray(y, dtype=np.int64)] = 1.0
    return np.tile(columns, (batch, 1))


def _softmax_over_batch(z: np.ndarray, shift_rows: bool) -> np.ndarray:
    """Softmax normalised down each column (the batch axis), after either shift, as the mistake computes it."""
    shifted = z - (z.max(axis=1, keepdims=True) if shift_rows else z.max(axis=0, keepdims=True))
    return np.exp(shifted) / np.exp(shifted).sum(axis=0, keepdims=True)


LOG_EPS = 1e-7
"""The largest eps accepted inside the loss's log, ``-log(p + eps)``, or as a clip,
``-log(np.clip(p, eps, 1 - eps))``."""
OVERFLOW_LOGIT = 88.0
"""exp overflows float32 above about 88.7 (float64 above about 709.8)."""
UNDERFLOW_LOG_P = -87.0
"""A probability below exp(-87) underflows to 0 in float32 (below about exp(-745) in float64)."""


def _rows_can_overflow(z: np.ndarray) -> bool:
    """Some row's exp would overflow (or every exp in a row underflow, 0 / 0) without the max shift."""
    row_max = np.asarray(z, dtype=np.float64).max(axis=1)
    return bool((row_max > OVERFLOW_LOGIT).any() or (row_max < -OVERFLOW_LOGIT).any())


def _log_p_target(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """log softmax(z)[y] per row, in float64, the stable way (this is the check's own arithmetic, not a hint)."""
    z = np.asarray(z, dtype=np.float64)
    m = z.max(axis=1, keepdims=True)
    log_softmax = z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))
    return log_softmax[np.arange(len(y)), np.asarray(y, dtype=np.int64)]


def _target_can_underflow(z: np.ndarray, y: np.ndarray) -> bool:
    return bool(_log_p_target(z, y).min() < UNDERFLOW_LOG_P)


def _overflowed(actual: np.ndarray, expected: np.ndarray, z: np.ndarray, y: np.ndarray, **_: Any) -> bool:
    """Non-finite where only a missing max shift can explain it: exp overflows, and no target's probability
    underflows."""
    return not np.isfinite(actual).all() and _rows_can_overflow(z) and not _target_can_underflow(z, y)


def _log_of_underflow(actual: np.ndarray, expected: np.ndarray, z: np.ndarray, y: np.ndarray, **_: Any) -> bool:
    """Non-finite where only a target probability that underflowed to 0 can explain it: no exp can overflow."""
    return not np.isfinite(actual).all() and _target_can_underflow(z, y) and not _rows_can_overflow(z)


NO_MAX_SHIFT = (
    "softmax without subtracting each row's max first: exp of a large logit overflows to inf, which turns "
    "probabilities into NaN or 0"
)
LOG_OF_ZERO = (
    "the log of a probability that underflowed to 0 (log 0 = −inf): compute log softmax as (z − m) − log Σ exp(z − m), "
    f"or add an eps of at most {LOG_EPS:g} inside the log"
)
DIVIDES_BY_ZERO = (
    "the gradient divides by a probability that underflowed to 0 (the derivative of the log taken literally): "
    "use dZ = (softmax(Z) − onehot(y)) / B"
)
OVER_BATCH = "softmax normalised over the batch axis (axis=0) instead of over each row's classes (axis=1)"

CROSS_ENTROPY = Quantity(
    "L",
    "L = −(1/B) Σ_i log softmax(Z_i)[y_i]: subtract each row's max before exp, and average over the batch",
    (
        Suspect(NO_MAX_SHIFT, shows=_overflowed),
        Suspect(LOG_OF_ZERO, shows=_log_of_underflow),
        Suspect(
            "the loss is summed over the batch, not averaged (B times too large)",
            gives=lambda e, z, **_: e * z.shape[0],
        ),
        Suspect("the loss has the wrong sign: the minus of −log softmax is missing", gives=lambda e, **_: -e),
        *(
            Suspect(
                OVER_BATCH,
                gives=lambda e, z, y, s=s, **_: -np.mean(np.log(_softmax_over_batch(z, s))[np.arange(len(y)), y]),
            )
            for s in (True, False)
        ),
    ),
)


def _unshifted_grad(e: np.ndarray, z: np.ndarray, y: np.ndarray, **_: Any) -> np.ndarray:
    """dZ from log-probabilities computed without the max shift: rows whose exp overflowed get probabilities 0."""
    probs = np.exp(z - np.log(np.exp(z).sum(axis=1, keepdims=True)))
    return (probs - _onehot(y, z.shape[1])) / z.shape[0]


CROSS_ENTROPY_GRAD = Quantity(
    "dZ",
    "dZ = (softmax(Z) − onehot(y)) / B, softmax over each row (axis=1), from the Z and y of the latest forward",
    (
        Suspect(NO_MAX_SHIFT, shows=_overflowed),
        Suspect(DIVIDES_BY_ZERO, shows=_log_of_underflow),
        Suspect(NO_MAX_SHIFT, gives=_unshifted_grad),
        Suspect("dZ is not divided by B (the loss is a mean over the batch)", gives=lambda e, z, **_: e * z.shape[0]),
        Suspect(
            "the one-hot subtracted with grad[:, y] (every row, at every target column) instead of grad[np.arange(B), "
            "y]",
            gives=lambda e, z, y, **_: (
                e + (_onehot(y, z.shape[1]) - _all_rows_at_targets(y, z.shape[1], z.shape[0])) / z.shape[0]
            ),
        ),
        Suspect(
            "the one-hot of the targets is not subtracted: dZ = softmax(Z) / B",
            gives=lambda e, z, y, **_: e + _onehot(y, z.shape[1]) / z.shape[0],
        ),
        Suspect("dZ has the wrong sign: softmax(Z) − onehot(y), not onehot(y) − softmax(Z)", gives=lambda e, **_: -e),
        Suspect(
            "dZ computed from the logits instead of their softmax",
            gives=lambda e, z, y, **_: (z - _onehot(y, z.shape[1])) / z.shape[0],
        ),
        *(
            Suspect(
                OVER_BATCH,
                gives=lambda e, z, y, s=s, **_: (_softmax_over_batch(z, s) - _onehot(y, z.shape[1])) / z.shape[0],
            )
            for s in (True, False)
        ),
    ),
)


def loss_band(log_p_target: Any, eps: float = LOG_EPS) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample losses the contract accepts: from −log(p + eps) (eps inside the log, or p clipped at eps) up to the
    exact −log p (or −log(1 − eps) where p is clipped below 1)."""
    log_p = np.asarray(log_p_target, dtype=np.float64)
    low = -np.log(np.minimum(np.exp(log_p) + eps, 1.0))
    high = np.maximum(-log_p, -np.log1p(-eps))
    return low, high


def check_loss(what: str, loss: Any, log_p_target: Any, tolerance: float = 1e-6, **inputs: Any) -> None:
    """The mean cross-entropy: one floating-point number, finite, between the band of ``loss_band`` averaged over the
    batch (the exact mean −log p, or the same with an eps of at most ``LOG_EPS``), ``tolerance`` relative.

    ``log_p_target`` holds log softmax(Z_i)[y_i] for each sample; ``inputs`` (z, y) let a failure name its cause.
    """
    low, high = loss_band(log_p_target)
    exact = -np.asarray(log_p_target, dtype=np.float64)
    opaque = hasattr(loss, "type_name")  # the grader's record of something that is not an array or a number
    value = None if opaque else np.asarray(loss)
    kind = loss.type_name if opaque else type(loss).__name__
    if value is None or value.ndim != 0 or not np.issubdtype(value.dtype, np.floating):
        shape = tuple(np.shape(value)) if value is not None else ()
        cause = None
        if (
            value is not None
            and value.ndim == 1
            and shape == exact.shape
            and np.issubdtype(value.dtype, np.floating)
            and np.all((value >= low - 1e-6 * np.abs(low)) & (value <= high + 1e-6 * np.abs(high)))
            and len(exact) > 1
        ):
            cause = "the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`"
        elif value is not None and value.shape == (1,) and exact.shape == (1,):
            cause = (
                "an array of shape (1,) is returned where one number is expected (the per-sample losses, or a mean "
                "that "
                "kept an axis); return a scalar, e.g. `losses.mean()` over every axis or `float(...)`"
            )
        elif value is not None and value.size == 1 and value.ndim > 0:
            cause = (
                f"the loss is returned as an array of shape {shape} holding one number; return a scalar, "
                "e.g. `float(loss)` or `loss.item()`, or average over every axis"
            )
        elif value is not None and value.ndim == 0 and not np.issubdtype(value.dtype, np.floating):
            cause = "the loss is not a floating-point number (an integer or boolean result)"
        fail(
            what,
            "one floating-point number (the mean loss: a Python float or a NumPy scalar)",
            f"{kind} of shape {shape}" + (f" and dtype {value.dtype}" if value is not None else ""),
            cause or "",
        )
    CROSS_ENTROPY.check(
        what,
        value,
        exact.mean(),
        tolerance,
        band=(low.mean(), high.mean()),
        accepted=f"with an eps of at most {LOG_EPS:g} in the log, anything",
        **inputs,
    )


SGD_UPDATE = Quantity(
    "θ",
    "θ ← θ − η ∂L/∂θ for every parameter with a gradient, changing the array itself: `p -= self.lr * p.grad`",
    (
        Suspect(
            "the sign is flipped: θ + η ∂L/∂θ climbs the loss (gradient ascent)",
            gives=lambda e, start, grad, lr, steps, **_: start + steps * lr * grad,
        ),
        Suspect(
            "the learning rate is applied twice (η² ∂L/∂θ)",
            gives=lambda e, start, grad, lr, steps, **_: start - steps * lr * lr * grad,
        ),
        Suspect(
            "the learning rate is missing (θ − ∂L/∂θ); use self.lr",
            gives=lambda e, start, grad, steps, **_: start - steps * grad,
        ),
    ),
)
SGD_NOTHING_MOVED = (
    "no parameter array changed in any step: the update was computed but not written into the arrays "
    "(`p = p - ...` rebinds the loop variable to a new array); update in place with `p -= ...`"
)
SGD_STOPS = (
    "the loop stops at the first parameter whose .grad is None (`break` or `return`): the parameters after it are "
    "never "
    "updated; skip that one parameter with `continue`"
)
SGD_SKIP_NONE = (
    "a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)"
)
SGD_REPLACED = "step replaced the list's entries; update each array in place instead"
SGD_SETS_GRAD = "step gave .grad to a parameter that had none; skip it and leave its .grad None (only backward sets it)"


def _moved(case: dict[str, Any]) -> list[bool]:
    return [not np.array_equal(v, s) for v, s in zip(case["values"][0], case["start"], strict=True)]


def sgd_cause(cases: Sequence[dict[str, Any]]) -> str | None:
    """What the pattern of moved parameters over every case shows (each case has a different parameter without a
    gradient): nothing moved anywhere, or exactly the parameters before the one without a gradient."""
    moved = [_moved(c) for c in cases if c.get("values")]
    if not moved or len(moved) < len(cases):
        return None
    if not any(any(m) for m in moved):
        return SGD_NOTHING_MOVED
    if all(m == [i < c["skipped"] for i in range(len(m))] for m, c in zip(moved, cases, strict=True)):
        return SGD_STOPS
    return None


def check_sgd(name: str, cases: Sequence[dict[str, Any]]) -> None:
    """Judge SGD steps. Each case: ``start``, ``grads`` (float32 arrays), ``skipped`` (the index whose .grad is None),
    ``lr``, and what came after each step: ``values`` (seen through views), ``same_objects``, ``all_parameters``,
    ``dtypes``, ``grads_after``. Parameters must move by −lr·grad per step, in place, float32, the skipped one not at
    all."""
    cause = sgd_cause(cases)
    for case in cases:
        start, grads, skipped, lr = case["start"], case["grads"], case["skipped"], case["lr"]
        label = f"{name} with lr={lr:.3f}, the .grad of parameter {skipped} None"
        for step, values in enumerate(case["values"], start=1):
            if not case["same_objects"][step - 1]:
                fail(
                    f"{label}, after {step} step(s)",
                    "optimizer.params to hold the same Parameter objects",
                    "other objects",
                    SGD_REPLACED,
                )
            if not case["all_parameters"][step - 1]:
                fail(
                    f"{label}, after {step} step(s)",
                    "optimizer.params to remain Parameters",
                    "other arrays",
                    SGD_REPLACED,
                )
            for i, value in enumerate(values):
                what = f"{label}, after {step} step(s): parameter {i} of shape {start[i].shape}"
                if i == skipped:
                    if not np.array_equal(value, start[i]):
                        raise CheckFailed(explain(f"{what}: expected it unchanged, got it changed", SGD_SKIP_NONE))
                    if case["grads_after"][step - 1][i] is not None:
                        fail(f"{what}: its .grad", "step to leave .grad None", "an array", SGD_SETS_GRAD)
                    continue
                expected = start[i].astype(np.float64) - step * lr * grads[i].astype(np.float64)
                # float32 rounds θ and η·g before they cancel: the error is relative to them, not to a small θ − η·g
                operands = max(
                    float(np.max(np.abs(start[i]), initial=0.0)),
                    step * lr * float(np.max(np.abs(grads[i]), initial=0.0)),
                )
                SGD_UPDATE.check(
                    what,
                    value,
                    expected,
                    1e-5,
                    cause=cause,
                    scale=operands,
                    start=start[i],
                    grad=grads[i],
                    lr=lr,
                    steps=step,
                )
                if np.dtype(case["dtypes"][step - 1][i]) != np.float32:
                    fail(
                        what,
                        "dtype float32",
                        f"dtype {case['dtypes'][step - 1][i]}",
                        "the update must keep the parameter float32 (update in place)",
                    )
                after = case["grads_after"][step - 1][i]
                if after is None or np.shape(after) != grads[i].shape or not np.array_equal(after, grads[i]):
                    fail(
                        f"{what}: its .grad",
                        "step to leave .grad as it was",
                        "it changed",
                        "step modified or cleared .grad; only zero_grad() clears it",
                    )


MLP_FORWARD = Quantity(
    "logits",
    "logits = fc2(relu(fc1(x))): call the three layers in this order and return the last output",
    (
        Suspect("the ReLU is skipped: fc2(fc1(x))", gives=lambda e, x, W1, b1, W2, b2, **_: (x @ W1 + b1) @ W2 + b2),
        Suspect(
            "the ReLU is also applied to the logits: the last layer is fc2, with no activation",
            gives=lambda e, **_: np.maximum(e, 0),
        ),
    ),
)
MLP_BACKWARD = Quantity(
    "dX",
    "backward runs in reverse order: grad = fc2.backward(grad); grad = relu.backward(grad); return fc1.backward(grad)",
    (
        Suspect(
            "backward returns the gradient after relu.backward instead of what fc1.backward returns",
            gives=lambda e, x, W1, b1, W2, g, **_: (g @ W2.T) * ((x @ W1 + b1) > 0),
        ),
    ),
)

FORWARD_ORDER = ["fc1.forward", "relu.forward", "fc2.forward"]
BACKWARD_ORDER = ["fc2.backward", "relu.backward", "fc1.backward"]


def record_calls(model: Any, names: Sequence[str] = ("fc1", "relu", "fc2")) -> list[str]:
    """Make the model's layers append "fc1.forward", "relu.backward", ... to the returned list when they run."""
    calls: list[str] = []
    for name in names:
        layer = getattr(model, name)
        for method in ("forward", "backward"):

            def traced(
                *args: Any,
                _run: Callable = getattr(layer, method),  # noqa: B008 - bound once, for this layer and method
                _label: str = f"{name}.{method}",
                **kwargs: Any,
            ) -> Any:
                calls.append(_label)
                return _run(*args, **kwargs)

            setattr(layer, method, traced)
    return calls


def call_order_cause(calls: Sequence[str], direction: str, completed: bool = True) -> str | None:
    """Name what is wrong with the order in which MLP.forward or MLP.backward called its layers, if anything.

    If the method did not complete (it raised), a missing layer proves nothing; only a wrong order already seen does.
    """
    expected = FORWARD_ORDER if direction == "forward" else BACKWARD_ORDER
    seen = [c for c in calls if c.endswith(f".{direction}")]
    if seen == expected or (not completed and seen == expected[: len(seen)]):
        return None
    if direction == "backward" and seen and seen[0] != "fc2.backward":
        return f"backward started with {seen[0]}: it must run in reverse order, fc2 → relu → fc1"
    if completed and f"relu.{direction}" not in seen:
        return (
            "the ReLU is skipped: relu.backward is not called, so the gradient does not pass through the ReLU"
            if direction == "backward"
            else "the ReLU is skipped: relu is never called in forward"
        )
    return f"{direction} calls the layers in the order {', '.join(seen)}; expected {', '.join(expected)}"


def run_recorded(
    what: str,
    method: Callable[..., Any],
    calls: list[str],
    direction: str,
    *args: Any,
    formula: str = "",
    skip: Sequence[str] = (),
) -> Any:
    """Run an MLP's forward or backward whose layers record their calls (``record_calls``).

    If it raises, the failure names the layer-order mistake the calls show (a broken forward breaks backward too).
    """
    try:
        return method(*args)
    except AssertionError:
        raise
    except Exception as error:
        cause = call_order_cause(calls, "forward", direction == "backward") or call_order_cause(calls, direction, False)
        raise CheckFailed(explain_error(what, error, formula=formula, cause=cause, skip=skip)) from None


def describe_parameters(found: Sequence[Any], owners: Sequence[Any], names: Sequence[str]) -> dict[str, Any]:
    """What ``parameters()`` yielded (``found``) against the Parameters ``owners`` it should yield, called ``names``, as
    plain data."""
    return {
        "names": list(names),
        "expected_shapes": [list(np.shape(p)) for p in owners],
        "found_shapes": [list(np.shape(p)) for p in found],
        "missing": [n for n, p in zip(names, owners, strict=True) if p is None or not any(p is q for q in found)],
        "exact": len(found) == len(owners) and all(p is q for p, q in zip(found, owners, strict=False)),
    }


def check_parameters(what: str, description: dict[str, Any]) -> None:
    """Fail unless ``parameters()`` yielded exactly the expected Parameter objects in order (see
    ``describe_parameters``)."""
    if description["exact"]:
        return
    message = (
        f"{what}: expected the Parameters {', '.join(description['names'])} with shapes "
        f"{[tuple(s) for s in description['expected_shapes']]}, got {len(description['found_shapes'])} arrays with "
        "shapes "
        f"{[tuple(s) for s in description['found_shapes']]}."
    )
    missing = description["missing"]
    cause = (
        f"parameters() misses {', '.join(missing)}" if missing else "parameters() yields other arrays or another order"
    )
    raise CheckFailed(
        explain(message, f"{cause}: do not override parameters(); Module.parameters() finds every layer's Parameters")
    )


_OWN_FILES = {
    Path(__file__).resolve().parent / name for name in ("nn_core.py", "nn_checks.py", "nn_diagnosis.py", "nn_public.py")
}

ERROR_CAUSES: tuple[tuple[str, str, str], ...] = (  # (exception class or a base class, text in its message, cause)
    (
        "AxisError",  # NumPy's: a subclass of ValueError and IndexError, whose causes do not fit it
        "",
        "an axis the array does not have: an array lost an axis, usually the batch axis at B = 1 (np.squeeze, x[0] "
        "or .flatten() turn shape (1, C) into (C,)); keep every batch 2-D",
    ),
    (
        "UnboundLocalError",  # a subclass of NameError: the name is defined, later or in a branch that did not run
        "",
        "a local name used before it is assigned: it is assigned later in the method, or in a branch that did not run",
    ),
    ("NotImplementedError", "", "this method is not written yet (it still raises NotImplementedError)"),
    (
        "KeyError",
        "",
        "backward reads something from self.ctx that forward did not save: forward must store what backward needs, "
        'for example `self.ctx["x"] = x`, on every call',
    ),
    ("ValueError", "", "the shapes in a product or sum do not line up: write each operand's shape next to the formula"),
    ("TypeError", "NoneType", "an operation on None: a method without `return`, or a .grad that was never set"),
    ("RecursionError", "", "a method calls itself, for example forward calling self(x) or self.forward(x)"),
    (
        "IndexError",
        "",
        "an index out of range: check which axis you index (rows are samples, columns are classes or features)",
    ),
    ("NameError", "", "a name that is not defined: a typo, or a class whose cell did not run"),
    ("MemoryError", "", "an array far too large: check the shapes of your intermediate results"),
)


def student_line(error: BaseException, skip: Sequence[str] = ()) -> str | None:
    """The last line of the student's own code in the error's traceback.

    Frames of installed packages (NumPy), of the course's helpers and of files under the ``skip`` folders do not count.
    """
    lines = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if "site-packages" not in frame.filename
        and Path(frame.filename).resolve() not in _OWN_FILES
        and not any(frame.filename.startswith(folder) for folder in skip)
        and frame.line
    ]
    return lines[-1].line.strip() if lines else None


def unwritten_method(error: BaseException) -> str | None:
    """``"Linear.forward"`` if ``error`` is the NotImplementedError of a method not written yet, else None."""
    if not isinstance(error, NotImplementedError) or error.__traceback__ is None:
        return None
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    owner = frame.f_locals.get("self")
    if owner is None:
        return getattr(frame.f_code, "co_qualname", frame.f_code.co_name)
    return f"{type(owner).__name__}.{frame.f_code.co_name}"


def describe_error(error: BaseException, skip: Sequence[str] = ()) -> dict[str, Any]:
    """An exception as plain data: its class and base classes, its message, the student's line and, for a method
    not written yet, its name (``unwritten``)."""
    return {
        "raised": type(error).__name__,
        "kinds": [k.__name__ for k in type(error).__mro__],
        "message": str(error)[:500],
        "line": student_line(error, skip),
        "unwritten": unwritten_method(error),
    }


def not_written(what: str, method: str, formula: str = "") -> str:
    """The message for a method that still raises NotImplementedError: no other cause is guessed."""
    message = (
        f"{what}: `{method}` is not written yet.\n"
        "  Write it in place of `raise NotImplementedError()`, run its cell, then this check again."
    )
    return explain(message, None, formula)


def explain_error(
    what: str,
    error: BaseException | dict[str, Any],
    causes: Sequence[tuple[str, str, str]] = (),
    formula: str = "",
    cause: str | None = None,
    skip: Sequence[str] = (),
) -> str:
    """A message for an exception raised by the student's code (or its ``describe_error``):
    what, where, likely cause, formula.

    The cause is ``cause`` if given, else the first of ``causes`` and then ``ERROR_CAUSES`` that fits the exception's
    own class, else the same for its base classes, the nearest first: a subclass with a cause of its own (NumPy's
    AxisError) never gets one of its bases' causes.
    """
    info = error if isinstance(error, dict) else describe_error(error, skip)
    if info.get("unwritten"):
        return not_written(what, info["unwritten"], formula)
    rules = (*causes, *ERROR_CAUSES)
    cause = cause or next(
        (c for kind in info["kinds"] for rule, text, c in rules if rule == kind and text in info["message"]), None
    )
    message = f"{what} raised {info['raised']}: {info['message']}"
    if info["line"]:
        message += f"\n  in your code: `{info['line']}`"
    return explain(message, cause, formula)
