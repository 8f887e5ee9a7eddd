"""Checks that explain themselves: used by the notebook's public checks and by the grader.

Every check raises ``CheckFailed`` (an ``AssertionError``) with a message that says what was
expected, what came, and what that usually means; a notebook shows that message alone, without a
traceback. Gradient checks compare a
``backward`` with central finite differences computed in float64.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nn_i18n import LANGUAGE, WIDTH, translate

FD_EPS = 1e-6
"""Step of the central differences ``(f(x + eps) - f(x - eps)) / (2 eps)``."""

FD_TOLERANCE = 1e-6
"""Largest accepted gradient-check error (see ``gradient_error``)."""


MESSAGE_WIDTH = WIDTH[LANGUAGE]
"""Width a failure message is wrapped to in a notebook (nbgrader's validator cuts lines after 86 characters)."""


def render_message(message: str, width: int = MESSAGE_WIDTH) -> list[str]:
    """A failure message as notebook traceback lines: wrapped to ``width``, the first line in red."""
    lines: list[str] = []
    for line in message.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip()))
        lines += textwrap.wrap(
            line, width, subsequent_indent=indent + "  ", break_on_hyphens=False, break_long_words=True
        ) or [""]
    lines[0] = f"\x1b[1;31m{lines[0]}\x1b[0m"
    return lines


class CheckFailed(AssertionError):
    """A check failed. IPython shows the message alone (``_render_traceback_``), wrapped to fit a narrow screen, in
    the edition's language (``nn_i18n``; the message itself stays English for the checks that read it)."""

    def _render_traceback_(self) -> list[str]:
        return render_message(translate(str(self)))


RETURNED_NONE = "the method returned None: a missing `return`, or `return` without a value"


def fail(what: str, expected: str, got: str, hint: str = "") -> None:
    """Raise an AssertionError that says what was expected, what came, and the usual cause."""
    message = f"{what}: expected {expected}, got {got}."
    if hint:
        message += f"\n  Likely cause: {hint}"
    raise CheckFailed(message)


def check_array(what: str, value: Any, hint: str = "") -> np.ndarray:
    """Assert that ``value`` is a NumPy array of floats with no NaN or inf."""
    if not isinstance(value, np.ndarray):
        kind = getattr(value, "type_name", type(value).__name__)  # the grader may describe a value it only saw recorded
        fail(what, "a NumPy array", f"{kind} {value!r:.60}", hint or (RETURNED_NONE if value is None else ""))
    if not np.issubdtype(value.dtype, np.floating):
        fail(what, "a floating-point dtype", f"dtype {value.dtype}", hint)
    bad = ~np.isfinite(value)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(what, "only finite numbers", f"{int(bad.sum())} NaN/inf entries (first at index {where})", hint)
    return value


def check_shape(what: str, value: Any, expected: Sequence[int], hint: str = "") -> None:
    """Assert ``np.shape(value) == expected``."""
    shape = tuple(np.shape(value))
    if shape != tuple(expected):
        fail(what, f"shape {tuple(expected)}", f"shape {shape}", hint)


def check_dtype(what: str, value: np.ndarray, expected: Any, hint: str = "") -> None:
    """Assert ``value.dtype == expected``."""
    if np.dtype(value.dtype) != np.dtype(expected):
        fail(
            what,
            f"dtype {np.dtype(expected)}",
            f"dtype {value.dtype}",
            hint or "a cast changed the precision; keep the dtype of the inputs",
        )


def worst_difference(actual: np.ndarray, expected: np.ndarray, scale: float = 0.0) -> tuple[float, tuple[int, ...]]:
    """Largest ``|actual - expected|`` divided by the largest ``|expected|`` or ``|actual|`` (or by ``scale``, the
    size of the numbers the value was computed from, if larger; at least 1e-12), and where."""
    diff = np.abs(np.asarray(actual, np.float64) - np.asarray(expected, np.float64))
    scale = max(float(np.max(np.abs(expected), initial=0.0)), float(np.max(np.abs(actual), initial=0.0)), scale, 1e-12)
    if diff.size == 0:
        return 0.0, ()
    index = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return float(diff[index]) / scale, tuple(int(i) for i in index)


def check_close(
    what: str, actual: Any, expected: np.ndarray, tolerance: float = 1e-6, hint: str = "", scale: float = 0.0
) -> None:
    """Assert same shape and ``worst_difference(actual, expected, scale) <= tolerance``."""
    actual = check_array(what, actual, hint)
    check_shape(what, actual, np.shape(expected), hint)
    error, index = worst_difference(actual, expected, scale)
    if not error <= tolerance:
        fail(
            what,
            f"{float(np.asarray(expected)[index]):.6g} at index {index} (relative error at most {tolerance:g})",
            f"{float(actual[index]):.6g}, relative error {error:.3g}",
            hint,
        )


def check_within(
    what: str,
    actual: Any,
    expected: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    tolerance: float = 1e-6,
    hint: str = "",
    accepted: str = "",
) -> None:
    """Like ``check_close``, but anything between ``low`` and ``high`` (elementwise, ``tolerance`` relative) passes.

    ``expected`` is the exact value (shown in the message); ``accepted`` describes the band, e.g. why an eps is allowed.
    """
    actual = check_array(what, actual, hint)
    check_shape(what, actual, np.shape(expected), hint)
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    scale = max(float(np.max(np.abs(expected), initial=0.0)), float(np.max(np.abs(actual), initial=0.0)), 1e-12)
    outside = np.maximum(low - actual, actual - high) / scale
    if not outside.size or outside.max() <= tolerance:
        return
    index = np.unravel_index(int(np.argmax(outside)), outside.shape)
    band = f"; {accepted} between {float(low[index]):.6g} and {float(high[index]):.6g}" if accepted else ""
    fail(
        what,
        f"{float(np.asarray(expected)[index]):.6g}{' at index ' + str(tuple(int(i) for i in index)) if index else ''} "
        f"(relative error at most {tolerance:g}{band})",
        f"{float(actual[index]):.6g}, relative error {worst_difference(actual, expected)[0]:.3g}",
        hint,
    )


def numerical_gradient(f: Callable[[], float], x: np.ndarray, eps: float = FD_EPS) -> np.ndarray:
    """Central differences of the scalar ``f()`` with respect to every entry of ``x`` (changed in place, then
    restored)."""
    grad = np.zeros(x.shape, dtype=np.float64)
    for index in np.ndindex(x.shape):
        old = x[index]
        x[index] = old + eps
        f_plus = float(f())
        x[index] = old - eps
        f_minus = float(f())
        x[index] = old
        grad[index] = (f_plus - f_minus) / (2 * eps)
    return grad


def check_gradient(what: str, analytic: Any, numeric: np.ndarray, hint: str = "") -> None:
    """Compare a ``backward`` result with finite differences (tolerance ``FD_TOLERANCE``)."""
    check_close(f"{what} (finite-difference check)", analytic, numeric, FD_TOLERANCE, hint)


def check_unchanged(what: str, after: np.ndarray, before: np.ndarray) -> None:
    """Assert that the array a method was given came back unmodified (``before`` is a copy taken earlier)."""
    after = np.asarray(after)
    if after.shape == before.shape and np.array_equal(after, before):
        return
    if after.shape != before.shape:
        fail(what, f"the array it was given to keep its shape {before.shape}", f"shape {after.shape}")
    index = tuple(int(i) for i in np.argwhere(after != before)[0])
    fail(
        what,
        f"the array it was given to stay unchanged ({before[index]:.6g} at index {index})",
        f"{after[index]:.6g}",
        "the method changed the array it was given, in place (such as `np.maximum(x, 0, out=x)`, `x[x < 0] = 0` "
        "or `grad *= mask`); build a new array instead",
    )


def check_module_gradients(
    module: Any, x: np.ndarray, upstream: np.ndarray, quantities: Sequence[Any] = (), **inputs: Any
) -> None:
    """Gradient-check ``module.backward`` for L = sum(module(x) * upstream), w.r.t. x and every parameter.

    Run it in float64: ``x``, ``upstream`` and the module's parameters should be float64 arrays.
    ``quantities`` (from ``nn_diagnosis``), for dX and then each parameter, name the likely cause of a
    wrong gradient; ``inputs`` are passed on to them, with ``x`` and ``g`` (the upstream gradient).
    """
    name = type(module).__name__

    def loss() -> float:
        return float(np.sum(module.forward(x) * upstream))

    numeric_dx = numerical_gradient(loss, x)
    params = list(module.parameters())
    numeric = [numerical_gradient(loss, p) for p in params]
    module.forward(x)
    dx = module.backward(upstream.copy())
    results = [("the returned dX", dx, numeric_dx)]
    results += [
        (f"parameter {i} of shape {p.shape}: its .grad", p.grad, n)
        for i, (p, n) in enumerate(zip(params, numeric, strict=True))
    ]
    for k, (label, analytic, expected) in enumerate(results):
        what = f"{name}.backward(grad), {label}"
        if k < len(quantities):
            quantities[k].check(
                f"{what} (finite-difference check)", analytic, expected, FD_TOLERANCE, x=x, g=upstream, **inputs
            )
        else:
            check_gradient(what, analytic, expected)
