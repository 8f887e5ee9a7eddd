"""Checks that explain themselves: used by the notebook's public checks and by the grader.

Every check raises ``AssertionError`` with a message that says what was
expected, what came, and what that usually means. Gradient checks compare a
``backward`` with central finite differences computed in float64.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

FD_EPS = 1e-6
"""Step of the central differences ``(f(x + eps) - f(x - eps)) / (2 eps)``."""

FD_TOLERANCE = 1e-6
"""Largest accepted gradient-check error (see ``gradient_error``)."""


def fail(what: str, expected: str, got: str, hint: str = "") -> None:
    """Raise an AssertionError that says what was expected, what came, and the usual cause."""
    message = f"{what}: expected {expected}, got {got}."
    if hint:
        message += f"\n  This usually means: {hint}"
    raise AssertionError(message)


def check_array(what: str, value: Any, hint: str = "") -> np.ndarray:
    """Assert that ``value`` is a NumPy array of floats with no NaN or inf."""
    if not isinstance(value, np.ndarray):
        fail(what, "a NumPy array", f"{type(value).__name__} {value!r:.60}", hint or "the method returned nothing or the wrong thing (missing `return`?)")
    if not np.issubdtype(value.dtype, np.floating):
        fail(what, "a floating-point dtype", f"dtype {value.dtype}", hint)
    bad = ~np.isfinite(value)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(what, "only finite numbers", f"{int(bad.sum())} NaN/inf entries (first at index {where})", hint or "an overflow, e.g. exp of a large number")
    return value


def check_shape(what: str, value: Any, expected: Sequence[int], hint: str = "") -> None:
    """Assert ``np.shape(value) == expected``."""
    shape = tuple(np.shape(value))
    if shape != tuple(expected):
        fail(what, f"shape {tuple(expected)}", f"shape {shape}", hint)


def check_dtype(what: str, value: np.ndarray, expected: Any, hint: str = "") -> None:
    """Assert ``value.dtype == expected``."""
    if np.dtype(value.dtype) != np.dtype(expected):
        fail(what, f"dtype {np.dtype(expected)}", f"dtype {value.dtype}", hint or "a cast changed the precision; keep the dtype of the inputs")


def worst_difference(actual: np.ndarray, expected: np.ndarray) -> tuple[float, tuple[int, ...]]:
    """Largest ``|actual - expected|`` divided by the largest ``|expected|`` (at least 1e-12), and where."""
    diff = np.abs(np.asarray(actual, np.float64) - np.asarray(expected, np.float64))
    scale = max(float(np.max(np.abs(expected), initial=0.0)), float(np.max(np.abs(actual), initial=0.0)), 1e-12)
    if diff.size == 0:
        return 0.0, ()
    index = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return float(diff[index]) / scale, tuple(int(i) for i in index)


def check_close(what: str, actual: Any, expected: np.ndarray, tolerance: float = 1e-6, hint: str = "") -> None:
    """Assert same shape and ``worst_difference(actual, expected) <= tolerance``."""
    actual = check_array(what, actual, hint)
    check_shape(what, actual, np.shape(expected), hint)
    error, index = worst_difference(actual, expected)
    if not error <= tolerance:
        fail(
            what,
            f"{float(np.asarray(expected)[index]):.6g} at index {index} (relative error at most {tolerance:g})",
            f"{float(actual[index]):.6g}, relative error {error:.3g}",
            hint,
        )


def numerical_gradient(f: Callable[[], float], x: np.ndarray, eps: float = FD_EPS) -> np.ndarray:
    """Central differences of the scalar ``f()`` with respect to every entry of ``x`` (changed in place, then restored)."""
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


def check_module_gradients(module: Any, x: np.ndarray, upstream: np.ndarray, hint: str = "") -> None:
    """Gradient-check ``module.backward`` for L = sum(module(x) * upstream), w.r.t. x and every parameter.

    Run it in float64: ``x``, ``upstream`` and the module's parameters should be float64 arrays.
    """
    name = type(module).__name__

    def loss() -> float:
        return float(np.sum(module.forward(x) * upstream))

    numeric_dx = numerical_gradient(loss, x)
    numeric = [numerical_gradient(loss, p) for p in module.parameters()]
    module.forward(x)
    dx = module.backward(upstream.copy())
    check_gradient(f"{name}.backward(grad), the returned dX", dx, numeric_dx, hint)
    for i, (p, n) in enumerate(zip(module.parameters(), numeric, strict=True)):
        check_gradient(f"{name} parameter {i} of shape {p.shape}: its .grad", p.grad, n, hint)
