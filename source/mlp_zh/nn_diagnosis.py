"""Name the mistake: when a check fails, find the typical mistake that gives exactly what came.

Every quantity the exercises compute is a ``Quantity``: the chapter's formula
and a list of ``Suspect`` mistakes, each with the wrong answer it produces.
A wrong answer that takes the check's inputs to compute is handed in by the
caller, under the suspect's name: the grader computes it with its own
reference, on its side of the trust line, and a public check has it stored
for its fixed inputs (``nn_public_data``). Here a suspect only transforms the
expected value it is handed (``-e``, ``e.T``, ``e * B``), so no function of
this module computes a graded quantity from inputs a caller chooses.
The notebook's public checks and the grader's hidden checks use the same
catalogue, so a student sees the same message before and after submitting.
"""

from __future__ import annotations

import ast
import linecache
import re
import sys
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import CheckFailed, Failure, Message, Text

from nn_checks import check_close, check_within, fail, worst_difference

MATCH_TOLERANCE = 1e-4
"""How close what came must be to a suspect's wrong answer for the suspect to be named."""


@dataclass(frozen=True)
class Suspect:
    """A typical mistake and how to spot it. Its wrong answer is either ``given``: the name under which the caller
    hands it (the grader computes it from the check's inputs with its own reference, a public check has it stored for
    its fixed inputs), or ``gives(expected, **inputs)``: a sign, a transpose or a batch-size factor of the expected
    value, reading the inputs for their shapes only. ``shows(actual, expected=..., **facts)`` spots it from what came,
    the expected value and facts the caller hands. ``cause`` is a ``Text``, or a message whose fields
    ``reports(actual, expected)`` measures (a cause that reports a number).

    Nothing here computes a loss, a softmax, a layer's output or a gradient from a check's inputs: a function that did
    would be an answer a student could call (the kit's tests call every function here with a student's arrays).
    """

    cause: Text | Message
    given: str = ""
    gives: Callable[..., Any] | None = None
    shows: Callable[..., bool] | None = None
    reports: Callable[[np.ndarray, np.ndarray], dict[str, Any]] | None = None

    def matches(self, actual: np.ndarray, expected: np.ndarray, inputs: dict[str, Any]) -> bool:
        with np.errstate(all="ignore"):
            try:  # a suspect that does not apply to these inputs (a missing input, mismatched shapes) is not named
                if self.shows is not None:
                    return bool(self.shows(actual, expected=expected, **inputs))
                wrong = inputs[self.given] if self.given else self.gives(expected, **inputs)
                wrong = np.asarray(wrong, dtype=np.float64)
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

    def named(self, actual: np.ndarray, expected: np.ndarray) -> Text:
        """The cause this suspect names for what came."""
        return self.cause(**self.reports(actual, expected)) if self.reports else self.cause


@dataclass(frozen=True)
class Quantity:
    """Something an exercise computes, the chapter's formula for it, and the mistakes we recognise."""

    name: str
    formula: Text
    suspects: tuple[Suspect, ...] = ()

    def likely_cause(self, actual: Any, expected: Any, **inputs: Any) -> Text | None:
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
        causes = {s.named(actual, expected) for s in self.suspects if s.matches(actual, expected, inputs)}
        return causes.pop() if len(causes) == 1 else None

    def check(
        self,
        what: str,
        actual: Any,
        expected: Any,
        tolerance: float = 1e-6,
        cause: Text | None = None,
        band: tuple[Any, Any] | None = None,
        accepted: Text | None = None,
        scale: float = 0.0,
        unset: Text | None = None,
        **inputs: Any,
    ) -> None:
        """``check_close`` (or ``check_within`` the ``band``, if given); on failure the message also names the likely
        cause (``cause`` if known, else a suspect's) and the formula. ``scale``: see ``worst_difference``.

        ``actual`` None is a missing ``return`` when it is what a method returned; when it is an attribute (a
        ``.grad``), ``unset`` names which method should have set it."""
        if isinstance(actual, (float, np.floating)):  # a scalar such as a loss
            actual = np.asarray(actual)
        try:
            if band is None:
                check_close(what, actual, np.asarray(expected, dtype=np.float64), tolerance, scale=scale)
            else:
                check_within(what, actual, np.asarray(expected, dtype=np.float64), *band, tolerance, accepted=accepted)
        except CheckFailed as failed:
            # check_close's own cause is a guess; only a cause the evidence identifies is named
            cause = cause or self.likely_cause(actual, expected, **inputs)
            cause = cause or ((unset or say.RETURNED_NONE) if actual is None else None)
            raise CheckFailed(Failure(failed.failure.message, cause, self.formula)) from None


def _batch(e: np.ndarray, **_: Any) -> int:
    return e.shape[0] if e.ndim else 1


LINEAR_FORWARD = Quantity(
    "Y",
    say.LINEAR_FORWARD_FORMULA,
    (
        Suspect(say.NO_BIAS, given="no_bias"),
        Suspect(say.W_TRANSPOSED, given="w_transposed"),
    ),
)
LINEAR_DX = Quantity(
    "dX",
    say.LINEAR_DX_FORMULA,
    (
        Suspect(say.DX_NOT_TRANSPOSED, given="dx_not_transposed"),
        Suspect(say.DX_OVER_BATCH, gives=lambda e, **_: e / _batch(e)),
    ),
)
LINEAR_DW = Quantity(
    "dW",
    say.LINEAR_DW_FORMULA,
    (
        Suspect(say.DW_TRANSPOSED, gives=lambda e, **_: e.T),
        Suspect(say.DW_OVER_BATCH, gives=lambda e, x, **_: e / x.shape[0]),
        Suspect(say.DW_STALE_INPUT, given="dw_stale_input"),
    ),
)
LINEAR_DB = Quantity(
    "db",
    say.LINEAR_DB_FORMULA,
    (
        Suspect(say.DB_NOT_SUMMED, given="db_not_summed"),
        Suspect(say.DB_KEEPDIMS, gives=lambda e, **_: e[None, :]),
        Suspect(say.DB_WRONG_AXIS, given="db_wrong_axis"),
        Suspect(say.DB_MEAN, gives=lambda e, g, **_: e / g.shape[0]),
        Suspect(say.DB_ONE_NUMBER, given="db_one_number"),
    ),
)
RELU_FORWARD = Quantity(
    "ReLU(H)",
    say.RELU_FORWARD_FORMULA,
    (
        Suspect(say.RELU_MAX_REDUCTION, given="relu_max_reduction"),
        Suspect(say.RELU_NEGATIVE_PART, given="relu_negative_part"),
    ),
)
RELU_BACKWARD = Quantity(
    "dX",
    say.RELU_BACKWARD_FORMULA,
    (
        Suspect(say.RELU_MASK_AT_ZERO, given="relu_mask_at_zero"),
        Suspect(say.RELU_TIMES_OUTPUT, given="relu_times_output"),
        Suspect(say.RELU_MASK_FROM_G, given="relu_mask_from_g"),
        Suspect(say.RELU_STALE_MASK, given="relu_stale_mask"),
        Suspect(say.RELU_NO_MASK, given="relu_no_mask"),
    ),
)


LOG_EPS = 1e-7
"""The largest eps accepted inside the loss's log, ``-log(p + eps)``, or as a clip,
``-log(np.clip(p, eps, 1 - eps))``."""


@contextmanager
def noting_float_errors() -> Iterator[list[str]]:
    """Note, in the list it yields, each kind of floating-point error NumPy meets in the body ("overflow", "divide by
    zero", "invalid value"), once, in the order they first came, instead of warning: where a NaN first appeared (an
    exp that overflowed, or the log of a 0). Code that silences them itself (``np.errstate``) shows fewer; an error
    the code has NumPy raise (``np.seterr(all="raise")``, or its own ``call``) still does what the code asked."""
    seen: list[str] = []

    def note(kind: str, _flag: int) -> None:
        if str(kind) not in seen:
            seen.append(str(kind))

    modes = {kind: mode for kind, mode in np.geterr().items() if kind != "under"}
    if "call" in modes.values():  # the code's own callback: left alone, nothing noted
        yield seen
        return
    with np.errstate(**{kind: mode if mode == "raise" else "call" for kind, mode in modes.items()}, call=note):
        yield seen


def _first_error(float_errors: Any) -> str | None:
    """The first floating-point error noted (``noting_float_errors``), or None if none was."""
    return str(list(float_errors)[0]) if float_errors is not None and len(float_errors) else None


def _overflowed(
    actual: np.ndarray,
    can_overflow: bool,
    can_underflow: bool,
    unshifted_nonfinite_at: Any = None,
    float_errors: Any = None,
    **_: Any,
) -> bool:
    """Non-finite where only a missing max shift can explain it: exp overflows, no target's probability underflows
    (the caller says which can happen on its inputs), the first floating-point error was an overflow (when the caller
    noted them, ``float_errors``), and, for an array of the logits' shape, every non-finite entry is one a softmax
    without the shift can make non-finite (``unshifted_nonfinite_at``, from the caller)."""
    nonfinite = ~np.isfinite(np.asarray(actual, dtype=np.float64))
    if not (nonfinite.any() and can_overflow and not can_underflow):
        return False
    if float_errors is not None and _first_error(float_errors) != "overflow":
        return False  # the NaN began elsewhere (a log of 0 first): the max shift may well be there
    if unshifted_nonfinite_at is None:
        return True
    possible = np.asarray(unshifted_nonfinite_at, dtype=bool)
    # A NaN beyond those entries (say a whole row, after a Jacobian product) has another cause: name none.
    return nonfinite.shape != possible.shape or not (nonfinite & ~possible).any()


def _log_of_underflow(actual: np.ndarray, can_overflow: bool, can_underflow: bool, **_: Any) -> bool:
    """Non-finite where only a target probability that underflowed to 0 can explain it: no exp can overflow."""
    return not np.isfinite(actual).all() and can_underflow and not can_overflow


def _zero_times_log_zero(
    actual: np.ndarray, can_underflow: bool, others_can_underflow: bool, float_errors: Any = None, **_: Any
) -> bool:
    """NaN where only 0 · log 0 can explain it: no target's probability underflows but another class's can (the
    caller says so of its inputs), the first floating-point error was a log of 0 and no exp overflowed (the caller
    noted them, ``float_errors``): probabilities with exact zeros, their logs times the one-hot's zeros."""
    if float_errors is None or not np.isnan(np.asarray(actual, dtype=np.float64)).any():
        return False
    first_log_of_zero = _first_error(float_errors) == "divide by zero" and "overflow" not in list(float_errors)
    return bool(first_log_of_zero and others_can_underflow and not can_underflow)


def _offset(actual: np.ndarray, expected: np.ndarray, **_: Any) -> bool:
    """What came is the expected value plus one constant in every entry, a constant not 0 (both relative to the largest
    expected entry)."""
    if actual.shape != expected.shape or not np.isfinite(actual).all():
        return False
    off, scale = actual - expected, float(np.max(np.abs(expected), initial=0.0))
    return bool(np.ptp(off) <= MATCH_TOLERANCE * scale < abs(float(np.mean(off))))


def _offset_value(actual: np.ndarray, expected: np.ndarray) -> dict[str, str]:
    return {"offset": f"{float(np.mean(actual - expected)):.4g}"}


CROSS_ENTROPY = Quantity(
    "L",
    say.CROSS_ENTROPY_FORMULA,
    (
        Suspect(say.NO_MAX_SHIFT, shows=_overflowed),
        Suspect(say.LOG_OF_ZERO, shows=_log_of_underflow),
        Suspect(say.ZERO_TIMES_LOG_ZERO, shows=_zero_times_log_zero),
        Suspect(say.LOSS_SUMMED, gives=lambda e, z, **_: e * z.shape[0]),
        Suspect(say.LOSS_OVER_CLASSES, gives=lambda e, z, **_: e / z.shape[1]),
        Suspect(say.LOSS_SIGN, gives=lambda e, **_: -e),
        Suspect(say.OVER_BATCH, given="loss_over_batch_row_shift"),
        Suspect(say.OVER_BATCH, given="loss_over_batch_column_shift"),
    ),
)
CROSS_ENTROPY_GRAD = Quantity(
    "dZ",
    say.CROSS_ENTROPY_GRAD_FORMULA,
    (
        Suspect(say.NO_MAX_SHIFT, shows=_overflowed),
        Suspect(say.DIVIDES_BY_ZERO, shows=_log_of_underflow),
        Suspect(say.NO_MAX_SHIFT, given="dz_unshifted"),
        Suspect(say.DZ_NOT_OVER_B, gives=lambda e, z, **_: e * z.shape[0]),
        Suspect(say.DZ_OVER_CLASSES, gives=lambda e, z, **_: e / z.shape[1]),
        Suspect(say.DZ_OFFSET, shows=_offset, reports=_offset_value),
        Suspect(say.DZ_STALE_INPUT, given="dz_stale_input"),
        Suspect(say.DZ_EVERY_ROW, given="dz_every_row"),
        Suspect(say.DZ_NO_ONEHOT, given="dz_no_onehot"),
        Suspect(say.DZ_SIGN, gives=lambda e, **_: -e),
        Suspect(say.DZ_FROM_LOGITS, given="dz_from_logits"),
        Suspect(say.OVER_BATCH, given="dz_over_batch_row_shift"),
        Suspect(say.OVER_BATCH, given="dz_over_batch_column_shift"),
    ),
)


def loss_band(log_p_target: Any, eps: float = LOG_EPS) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample losses the contract accepts: from −log(p + eps) (eps inside the log, or p clipped at eps) up to the
    exact −log p (or −log(1 − eps) where p is clipped below 1)."""
    log_p = np.asarray(log_p_target, dtype=np.float64)
    low = -np.log(np.minimum(np.exp(log_p) + eps, 1.0))
    high = np.maximum(-log_p, -np.log1p(-eps))
    return low, high


def check_loss(what: Text | str, loss: Any, log_p_target: Any, tolerance: float = 1e-6, **inputs: Any) -> None:
    """The mean cross-entropy: one floating-point number, finite, between the band of ``loss_band`` averaged over the
    batch (the exact mean −log p, or the same with an eps of at most ``LOG_EPS``), ``tolerance`` relative.

    ``log_p_target`` holds log softmax(Z_i)[y_i] for each sample, computed by the caller; ``inputs`` (the logits ``z``,
    the facts and wrong answers ``CROSS_ENTROPY``'s suspects read) let a failure name its cause.
    """
    low, high = loss_band(log_p_target)
    exact = -np.asarray(log_p_target, dtype=np.float64)
    try:
        value = np.asarray(loss)
    except Exception:  # noqa: BLE001 - an object NumPy cannot read as an array
        value = None
    if value is not None and value.dtype == object:  # not numbers (a list of arrays, a dict, ...)
        value = None
    kind = type(loss).__name__
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
            cause = say.PER_SAMPLE_LOSSES
        elif value is not None and value.shape == (1,) and exact.shape == (1,):
            cause = say.LOSS_SHAPE_ONE
        elif value is not None and value.size == 1 and value.ndim > 0:
            cause = say.LOSS_ONE_NUMBER_ARRAY(shape=shape)
        elif value is not None and value.ndim == 0 and not np.issubdtype(value.dtype, np.floating):
            cause = say.LOSS_NOT_FLOAT
        got = (
            say.KIND_SHAPE_DTYPE(kind=kind, shape=shape, dtype=value.dtype)
            if value is not None
            else say.KIND_SHAPE(kind=kind, shape=shape)
        )
        fail(what, say.ONE_FLOAT(), got, cause)
    CROSS_ENTROPY.check(
        what,
        value,
        exact.mean(),
        tolerance,
        band=(low.mean(), high.mean()),
        accepted=say.EPS_IN_LOG(eps=f"{LOG_EPS:g}"),
        **inputs,
    )


SGD_UPDATE = Quantity(
    "θ",
    say.SGD_FORMULA,
    (
        Suspect(say.SGD_ASCENT, given="sgd_ascent"),
        Suspect(say.SGD_LR_TWICE, given="sgd_lr_twice"),
        Suspect(say.SGD_NO_LR, given="sgd_no_lr"),
    ),
)


def _moved(case: dict[str, Any]) -> list[bool]:
    return [not np.array_equal(v, s) for v, s in zip(case["values"][0], case["start"], strict=True)]


def sgd_cause(cases: Sequence[dict[str, Any]]) -> Text | None:
    """What the pattern of moved parameters over every case shows (each case has a different parameter without a
    gradient): nothing moved anywhere, or exactly the parameters before the one without a gradient."""
    moved = [_moved(c) for c in cases if c.get("values")]
    if not moved or len(moved) < len(cases):
        return None
    if not any(any(m) for m in moved):
        return say.SGD_NOTHING_MOVED
    if all(m == [i < c["skipped"] for i in range(len(m))] for m, c in zip(moved, cases, strict=True)):
        return say.SGD_STOPS
    return None


def check_sgd(name: str, cases: Sequence[dict[str, Any]]) -> None:
    """Judge SGD steps. Each case: ``start``, ``grads`` (float32 arrays), ``skipped`` (the index whose .grad is None),
    ``lr``, and what came after each step: ``values`` (seen through views), ``same_objects``, ``all_parameters``,
    ``dtypes``, ``grads_after``; and from the caller, for each step and parameter, ``expected`` (θ − step·lr·grad, or
    None for the skipped one) and ``mistakes`` (the wrong answers ``SGD_UPDATE``'s suspects read). Parameters must move
    to ``expected``, in place, float32, the skipped one not at all. ``name`` is the call, as code
    (``SGD(params).step()``)."""
    cause = sgd_cause(cases)
    for case in cases:
        start, grads, skipped, lr = case["start"], case["grads"], case["skipped"], case["lr"]
        for step, values in enumerate(case["values"], start=1):
            after_steps = say.SGD_AFTER_STEPS(call=name, lr=f"{lr:.3f}", index=skipped, steps=step)
            if not case["same_objects"][step - 1]:
                fail(after_steps, say.SAME_OBJECTS(), say.OTHER_OBJECTS(), say.SGD_REPLACED)
            if not case["all_parameters"][step - 1]:
                fail(after_steps, say.REMAIN_PARAMETERS(), say.OTHER_ARRAYS(), say.SGD_REPLACED)
            for i, value in enumerate(values):
                what = say.SGD_PARAMETER(after=after_steps, index=i, shape=start[i].shape)
                if i == skipped:
                    if not np.array_equal(value, start[i]):
                        raise CheckFailed(Failure(say.EXPECTED_UNCHANGED(what=what), say.SGD_SKIP_NONE))
                    if case["grads_after"][step - 1][i] is not None:
                        fail(say.ITS_GRAD(what=what), say.LEAVE_GRAD_NONE(), say.AN_ARRAY(), say.SGD_SETS_GRAD)
                    continue
                expected = case["expected"][step - 1][i]
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
                    **case["mistakes"][step - 1][i],
                )
                dtype = case["dtypes"][step - 1][i]
                if np.dtype(dtype) != np.float32:
                    fail(what, say.DTYPE(dtype="float32"), say.DTYPE(dtype=dtype), say.SGD_NOT_FLOAT32)
                after = case["grads_after"][step - 1][i]
                if after is None or np.shape(after) != grads[i].shape or not np.array_equal(after, grads[i]):
                    fail(say.ITS_GRAD(what=what), say.LEAVE_GRAD(), say.IT_CHANGED(), say.SGD_GRAD_CHANGED)


MLP_FORWARD = Quantity(
    "logits",
    say.MLP_FORWARD_FORMULA,
    (
        Suspect(say.MLP_NO_RELU, given="mlp_no_relu"),
        Suspect(say.MLP_RELU_ON_LOGITS, given="mlp_relu_on_logits"),
    ),
)
MLP_BACKWARD = Quantity(
    "dX",
    say.MLP_BACKWARD_FORMULA,
    (Suspect(say.MLP_RETURNS_RELU_GRAD, given="mlp_returns_relu_grad"),),
)

FORWARD_ORDER = ["fc1.forward", "relu.forward", "fc2.forward"]
BACKWARD_ORDER = ["fc2.backward", "relu.backward", "fc1.backward"]


def record_calls(model: Any, names: Sequence[str] = ("fc1", "relu", "fc2")) -> list[str]:
    """Make the model's layers append "fc1.forward", "relu.backward", ... to the returned list when they run. A
    method a layer lacks, or cannot have replaced, is not traced (a ReLU that is a closure may have none)."""
    calls: list[str] = []
    for name in names:
        layer = getattr(model, name)
        for method in ("forward", "backward"):
            if not callable(getattr(layer, method, None)):
                continue

            def traced(
                *args: Any,
                _run: Callable = getattr(layer, method),  # noqa: B008 - bound once, for this layer and method
                _label: str = f"{name}.{method}",
                **kwargs: Any,
            ) -> Any:
                calls.append(_label)
                return _run(*args, **kwargs)

            try:
                setattr(layer, method, traced)
            except (AttributeError, TypeError):  # a layer whose attributes are read-only keeps its own method
                continue
    return calls


def call_order_cause(
    calls: Sequence[str], direction: str, completed: bool = True, unseen: Collection[str] = ()
) -> Text | None:
    """Name what is wrong with the order in which MLP.forward or MLP.backward called its layers, if anything.

    If the method did not complete (it raised), a missing layer proves nothing; only a wrong order already seen does.
    ``unseen``: calls (such as "relu.forward") whose absence proves nothing either (the layer may run without its
    call being seen, a closure called directly): they are left out of both orders.
    """
    expected = [c for c in (FORWARD_ORDER if direction == "forward" else BACKWARD_ORDER) if c not in unseen]
    seen = [c for c in calls if c.endswith(f".{direction}") and c not in unseen]
    if seen == expected or (not completed and seen == expected[: len(seen)]):
        return None
    if direction == "backward" and seen and seen[0] != "fc2.backward":
        return say.BACKWARD_STARTED(layer=seen[0])
    if completed and f"relu.{direction}" not in seen:
        return say.RELU_NOT_CALLED_BACKWARD if direction == "backward" else say.RELU_NOT_CALLED_FORWARD
    return say.LAYER_ORDER(direction=direction, seen=list(seen), order=list(expected))


def run_recorded(
    what: Text | str,
    method: Callable[..., Any],
    calls: list[str],
    direction: str,
    *args: Any,
    formula: Text | None = None,
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


def check_parameters(what: Text | str, description: dict[str, Any]) -> None:
    """Fail unless ``parameters()`` yielded exactly the expected Parameter objects in order (see
    ``describe_parameters``)."""
    if description["exact"]:
        return
    message = say.PARAMETERS_DIFFER(
        what=what,
        names=list(description["names"]),
        shapes=[tuple(s) for s in description["expected_shapes"]],
        count=len(description["found_shapes"]),
        found=[tuple(s) for s in description["found_shapes"]],
    )
    missing = description["missing"]
    cause = say.PARAMETERS_MISS(names=say.ALL_OF(items=list(missing))) if missing else say.PARAMETERS_OTHER
    raise CheckFailed(Failure(message, cause))


_OWN_MODULES = ("nn_core", "nn_checks", "nn_diagnosis", "nn_public")
"""The course's helpers whose frames are never the student's line."""


def _own_files() -> set[Path]:
    """The files of ``_OWN_MODULES``: beside this one, and wherever the ones imported were loaded from (the grader's
    copy of this module is not beside the student's ``nn_core``)."""
    files = {Path(__file__).resolve().parent / f"{name}.py" for name in _OWN_MODULES}
    for name in _OWN_MODULES:
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str):
            files.add(Path(file).resolve())
    return files


ErrorCause = tuple[str, str, Text]
"""(exception class or a base class, text in its message, the cause it shows)."""

NUMPY_SHAPE_WORDS = (
    "mismatch in its core dimension",  # matmul, @
    "not aligned",  # np.dot
    "could not be broadcast",  # +, -, *, / and np.where
    "doesn't match the broadcast shape",  # an in-place operation's output
    "cannot reshape array",
    "input array dimensions",  # np.concatenate, np.stack
    "must have the same shape",
)
"""Words of NumPy's ValueErrors about shapes that do not fit (NumPy 1.26 and 2)."""

ERROR_CAUSES: tuple[ErrorCause, ...] = (
    ("AxisError", "", say.ERROR_AXIS),  # NumPy's: a subclass of ValueError and IndexError, whose causes do not fit it
    # a subclass of NameError: the name is defined, later or in a branch that did not run
    ("UnboundLocalError", "", say.ERROR_UNBOUND),
    ("NotImplementedError", "", say.ERROR_NOT_IMPLEMENTED),
    ("KeyError", "", say.ERROR_KEY),
    # NumPy's own shape errors only: a ValueError the student's code raises itself says nothing about shapes.
    *(("ValueError", words, say.ERROR_SHAPES) for words in NUMPY_SHAPE_WORDS),
    ("TypeError", "NoneType", say.ERROR_NONE),
    ("RecursionError", "", say.ERROR_RECURSION),
    # NumPy's IndexErrors by what they say: more indices than axes (an axis lost), an index that is not an integer,
    # an index past the end of its axis (and any other, such as a list's)
    ("IndexError", "too many indices", say.ERROR_AXIS),
    ("IndexError", "valid indices", say.ERROR_INDEX_TYPE),
    ("IndexError", "must be of integer", say.ERROR_INDEX_TYPE),
    ("IndexError", "", say.ERROR_INDEX),
    ("NameError", "", say.ERROR_NAME),
    ("MemoryError", "", say.ERROR_MEMORY),
    ("NotWhileGrading", "", say.ERROR_PROCESS),  # raised while grading, where each part runs in one process
)


def student_line(error: BaseException, skip: Sequence[str] = ()) -> str | None:
    """The last line of the student's own code in the error's traceback.

    Frames of installed packages (NumPy), of the course's helpers and of files under the ``skip`` folders do not count.
    """
    own = _own_files()
    shown, tb = [], error.__traceback__
    while tb is not None:  # a frame that hides itself from tracebacks (IPython's ``__tracebackhide__``) is not theirs
        if not tb.tb_frame.f_locals.get("__tracebackhide__"):
            shown.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    lines = [
        frame
        for frame in traceback.StackSummary.extract(shown)
        if "site-packages" not in frame.filename
        and Path(frame.filename).resolve() not in own
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


_SHAPE = r"\((?:\d+,?)*(?:\d+)?\)"
_MATMUL = re.compile(
    r"matmul: Input operand (\d) has a mismatch in its core dimension \d+, .*\(size (\d+) is different from (\d+)\)"
)
_DOT = re.compile(rf"shapes ({_SHAPE}) and ({_SHAPE}) not aligned")
_BROADCAST = re.compile(rf"operands could not be broadcast together with shapes ((?:{_SHAPE} ?)+)$")
_OUTPUT = re.compile(
    rf"non-broadcastable output operand with shape ({_SHAPE}) doesn't match the broadcast shape ({_SHAPE})"
)


def _shape(text: str) -> tuple[int, ...]:
    """NumPy's ``(4,3)`` as the tuple ``(4, 3)``, shown as the checks show shapes."""
    return tuple(int(n) for n in text.strip("()").split(",") if n)


def shape_error(info: dict[str, Any]) -> Text | None:
    """A NumPy shape error (of ``describe_error``) explained from what it says: which operation, the shapes or sizes
    that do not fit, with NumPy's own words as a detail; None for any other error."""
    if "ValueError" not in info["kinds"]:
        return None
    numpy = info["message"].strip()
    if found := _MATMUL.search(numpy):
        operand, size, other = found.groups()
        left, right = (other, size) if operand == "1" else (size, other)
        return say.SHAPES_MATMUL(left=int(left), right=int(right), numpy=numpy)
    if found := _DOT.search(numpy):
        return say.SHAPES_DOT(left=_shape(found[1]), right=_shape(found[2]), numpy=numpy)
    if found := _BROADCAST.search(numpy):
        shapes = say.ALL_OF(items=[_shape(s) for s in re.findall(_SHAPE, found[1])])
        return say.SHAPES_BROADCAST(shapes=shapes, numpy=numpy)
    if found := _OUTPUT.search(numpy):
        return say.SHAPES_OUTPUT(target=_shape(found[1]), result=_shape(found[2]), numpy=numpy)
    return None


def not_written(what: Text | str, method: str, formula: Text | None = None) -> Failure:
    """The failure of a method that still raises NotImplementedError: no other cause is guessed."""
    return Failure(say.NOT_WRITTEN(what=what, method=method), None, formula)


def explain_error(
    what: Text | str,
    error: BaseException | dict[str, Any],
    causes: Sequence[ErrorCause] = (),
    formula: Text | None = None,
    cause: Text | None = None,
    skip: Sequence[str] = (),
) -> Failure:
    """The failure of an exception raised by the student's code (or of its ``describe_error``):
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
    fields = dict(what=what, exception=info["raised"], message=shape_error(info) or info["message"])
    message = say.RAISED_AT(**fields, line=info["line"]) if info["line"] else say.RAISED(**fields)
    return Failure(message, cause, formula)


GRADED_STATEMENTS = (
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AnnAssign,
)
"""The top-level statements of an answer cell that run while work is graded; every other one (calls, loops, an
``if __name__ == "__main__":`` block) does not: the grader's worker runs only these."""


def _cell_source(cls: Any) -> str | None:
    """The text of the notebook cell that defines ``cls``'s methods (IPython keeps each cell's text in linecache),
    or None if they come from no cell."""
    for value in vars(cls).values() if isinstance(cls, type) else ():
        filename = getattr(getattr(value, "__code__", None), "co_filename", "")
        if "ipykernel_" in filename or filename.startswith("<ipython-input"):
            lines = linecache.getlines(filename)
            if lines:
                return "".join(lines)
    return None


def _in_scope(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and the nodes below it that run in its scope (not the bodies of functions and classes it defines)."""
    yield node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        for child in ast.iter_child_nodes(node):
            yield from _in_scope(child)


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` binds ``name`` or sets one of its attributes (``name.forward = ...``)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name
    if isinstance(node, ast.Name):
        return node.id == name and isinstance(node.ctx, ast.Store)
    if isinstance(node, ast.Attribute):
        return isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id == name
    return False


def bound_where_grading_skips(name: str, cls: Any) -> tuple[int, str] | None:
    """Where the cell that defines ``cls`` binds ``name`` (or sets its attributes) inside a top-level statement that
    does not run while work is graded (not one of ``GRADED_STATEMENTS``): the line, and that statement's first line;
    None if it nowhere does, or the cell is not known."""
    source = _cell_source(cls)
    try:
        tree = ast.parse(source) if source is not None else None
    except SyntaxError:
        return None
    for statement in tree.body if tree is not None else ():
        if isinstance(statement, GRADED_STATEMENTS):
            continue
        for node in _in_scope(statement):
            if _binds(node, name):
                first = source.splitlines()[statement.lineno - 1].strip()
                return getattr(node, "lineno", statement.lineno), first if len(first) <= 60 else first[:57] + "..."
    return None
