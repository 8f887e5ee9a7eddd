"""Checks that explain themselves: used by the notebook's public checks and by the grader.

Every check raises ``CheckFailed`` (an ``AssertionError``) carrying a ``Failure``: what was expected, what came, and
what that usually means, as data (``nn_messages``); a notebook shows its message alone, without a traceback, in the
edition's language. Gradient checks compare a ``backward`` with the gradient the caller hands: the public checks'
were computed once by the grader's float64 reference with central finite differences, for their fixed inputs
(``nn_public_data``). Nothing here computes a gradient, or anything else graded, from inputs a caller chooses.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import CheckFailed, Failure, Text  # noqa: F401 - checks and the notebook catch CheckFailed from here

from nn_i18n import LANGUAGE, WIDTH

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


Label = Text | str
"""What was checked, or what was expected or came: a message, or code shown as it is in every language."""


def fail(what: Label, expected: Label, got: Label, cause: Text | None = None) -> None:
    """Raise ``CheckFailed``: what was expected, what came, and the usual cause."""
    raise CheckFailed(Failure(say.EXPECTED_GOT(what=what, expected=expected, got=got), cause))


def check_array(what: Label, value: Any, cause: Text | None = None) -> np.ndarray:
    """Assert that ``value`` is a NumPy array of floats with no NaN or inf."""
    if not isinstance(value, np.ndarray):
        got = say.KIND_VALUE(kind=type(value).__name__, value=f"{value!r:.60}")
        fail(what, say.A_NUMPY_ARRAY(), got, cause or (say.RETURNED_NONE if value is None else None))
    if not np.issubdtype(value.dtype, np.floating):
        fail(what, say.FLOAT_DTYPE(), say.DTYPE(dtype=value.dtype), cause)
    bad = ~np.isfinite(value)
    if bad.any():
        if value.ndim == 0:  # a scalar has no index: it is the value that is not finite
            fail(what, say.ONLY_FINITE(), say.NOT_FINITE_VALUE(value=f"{float(value)!r}"), cause)
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(what, say.ONLY_FINITE(), say.NAN_ENTRIES(count=int(bad.sum()), index=where), cause)
    return value


def check_shape(what: Label, value: Any, expected: Sequence[int], cause: Text | None = None) -> None:
    """Assert ``np.shape(value) == expected``."""
    shape = tuple(np.shape(value))
    if shape != tuple(expected):
        fail(what, say.SHAPE(shape=tuple(expected)), say.SHAPE(shape=shape), cause)


def check_dtype(what: Label, value: np.ndarray, expected: Any, cause: Text | None = None) -> None:
    """Assert ``value.dtype == expected``."""
    if np.dtype(value.dtype) != np.dtype(expected):
        fail(
            what,
            say.DTYPE(dtype=np.dtype(expected)),
            say.DTYPE(dtype=value.dtype),
            cause or say.CAST_CHANGED_PRECISION,
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


def _number(value: Any) -> str:
    return f"{float(value):.6g}"


def _bounds(low: float, high: float) -> dict[str, str] | None:
    """``low`` and ``high`` for a message, with as many digits as it takes for them to print differently (at least
    six); None if they are the same number, a band of one value."""
    if float(low) == float(high):
        return None
    for digits in range(6, 18):
        shown = f"{float(low):.{digits}g}", f"{float(high):.{digits}g}"
        if shown[0] != shown[1]:
            break
    return dict(low=shown[0], high=shown[1])


def check_close(
    what: Label,
    actual: Any,
    expected: np.ndarray,
    tolerance: float = 1e-6,
    cause: Text | None = None,
    scale: float = 0.0,
) -> None:
    """Assert same shape and ``worst_difference(actual, expected, scale) <= tolerance``."""
    actual = check_array(what, actual, cause)
    check_shape(what, actual, np.shape(expected), cause)
    error, index = worst_difference(actual, expected, scale)
    if not error <= tolerance:
        value, where = _number(np.asarray(expected)[index]), {"index": index} if index else {}
        fail(
            what,  # a scalar has no index
            (say.VALUE_AT_INDEX if index else say.VALUE_WITHIN)(value=value, tolerance=f"{tolerance:g}", **where),
            say.VALUE_ERROR(value=_number(actual[index]), error=f"{error:.3g}"),
            cause,
        )


def check_within(
    what: Label,
    actual: Any,
    expected: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    tolerance: float = 1e-6,
    cause: Text | None = None,
    accepted: Text | None = None,
) -> None:
    """Like ``check_close``, but anything between ``low`` and ``high`` (elementwise, ``tolerance`` relative) passes.

    ``expected`` is the exact value (shown in the message); ``accepted`` describes the band, e.g. why an eps is allowed.
    """
    actual = check_array(what, actual, cause)
    check_shape(what, actual, np.shape(expected), cause)
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    scale = max(float(np.max(np.abs(expected), initial=0.0)), float(np.max(np.abs(actual), initial=0.0)), 1e-12)
    outside = np.maximum(low - actual, actual - high) / scale
    if not outside.size or outside.max() <= tolerance:
        return
    index = np.unravel_index(int(np.argmax(outside)), outside.shape)
    index = tuple(int(i) for i in index)
    value, bounds = _number(np.asarray(expected)[index]), _bounds(low[index], high[index])
    where = {"index": index} if index else {}
    if accepted is None or bounds is None:  # no band to describe, or a band of one value: the value itself
        message = say.VALUE_AT_INDEX if index else say.VALUE_WITHIN
        expectation = message(value=value, tolerance=f"{tolerance:g}", **where)
    else:
        message = say.BAND_AT_INDEX if index else say.BAND
        expectation = message(value=value, tolerance=f"{tolerance:g}", accepted=accepted, **bounds, **where)
    got = say.VALUE_ERROR(value=_number(actual[index]), error=f"{worst_difference(actual, expected)[0]:.3g}")
    fail(what, expectation, got, cause)


def check_gradient(what: Label, analytic: Any, numeric: np.ndarray, cause: Text | None = None) -> None:
    """Compare a ``backward`` result with finite differences (tolerance ``FD_TOLERANCE``)."""
    check_close(say.FD_CHECK(what=what), analytic, numeric, FD_TOLERANCE, cause)


def check_unchanged(what: Label, after: np.ndarray, before: np.ndarray) -> None:
    """Assert that the array a method was given came back unmodified (``before`` is a copy taken earlier)."""
    after = np.asarray(after)
    if after.shape == before.shape and np.array_equal(after, before):
        return
    if after.shape != before.shape:
        fail(what, say.KEEP_ITS_SHAPE(shape=before.shape), say.SHAPE(shape=after.shape))
    index = tuple(int(i) for i in np.argwhere(after != before)[0])
    fail(
        what,
        say.STAY_UNCHANGED(value=_number(before[index]), index=index),
        _number(after[index]),
        say.CHANGED_IN_PLACE,
    )
