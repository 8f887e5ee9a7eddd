"""Checks that explain themselves: used by the notebook's public checks and by the grader.

Every check raises ``CheckFailed`` (an ``AssertionError``) carrying a ``Failure``: what was expected, what came, and
what that usually means, as data (``nn_messages``); a notebook shows its message alone, without a traceback, in the
edition's language. Gradient checks compare a ``backward`` with the gradient the caller hands: the public checks'
were computed once by the grader's float64 reference with central finite differences, for their fixed inputs
(``nn_public_data``). Nothing here computes a gradient, or anything else graded, from inputs a caller chooses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import CheckFailed, Failure, Text  # noqa: F401 - checks and the notebook catch CheckFailed from here

from nn_i18n import shown_in

FD_TOLERANCE = 1e-6
"""Largest accepted gradient-check error (see ``gradient_error``)."""


MESSAGE_WIDTH = shown_in().width
"""Columns a failure message is wrapped to in a notebook (nbgrader's validator cuts lines after 86 characters)."""

_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:/\d+(?:\.\d+)?)?(?: ?%)?")
_UNIT = re.compile(
    r"`[^`\n]*`"  # a code span
    r"|\((?:[^()\s]+(?:, ?[^()\s]+)*,?)?\)"  # a tuple or shape: (3, 2), (2,), (), (D_in, D_out)
    rf"|{_NUMBER.pattern}"  # a number: 1e-06, 0.8/60311, 97 %
    r"|\S"  # one character (a backtick without its pair too)
)
"""What a line is never broken inside: a code span, a tuple, a number; a run of Latin letters is kept whole below."""
_OPENING = set("（“‘《「『【〔([{")
_CLOSING = set("，。、：；！？）”’》」』】〕)]}.,:;!?%")


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal or a notebook: a Chinese character or full-width sign takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in text)


Piece = list[str]
"""What a line is not broken inside unless it is wider than a line: its units (code spans, tuples, numbers,
characters), cut between them then."""


def _pieces(line: str) -> list[Piece]:
    """``line`` cut where it may be broken: spaces are pieces of their own; a code span, a tuple, a number or a word
    of Latin letters is one piece; each Chinese character is one, with the punctuation that may not start a line
    before it, or end one after it."""
    pieces: list[Piece] = []
    for unit in (m.group() for m in re.finditer(_UNIT.pattern + r"|\s+", line)):
        glued = bool(pieces) and not pieces[-1][-1].isspace() and not unit.isspace()
        before = pieces[-1][-1][-1] if pieces else ""
        latin = glued and not say.is_wide(unit[0]) and not say.is_wide(before)
        if glued and (latin or unit[0] in _CLOSING or before in _OPENING):
            pieces[-1].append(unit)
        else:
            pieces.append([unit])
    return pieces


def wrap(line: str, width: int, indent: str = "") -> list[str]:
    """``line`` wrapped to ``width`` columns, never inside a code span, a number, a tuple or a Latin word (a piece
    wider than a whole line is cut between those); lines after the first start with ``indent``. Punctuation that may
    not start a line stays at the end of the one before, past ``width`` if need be."""
    lines: list[str] = []
    current, space = line[: len(line) - len(line.lstrip())], ""
    for piece in _pieces(line.lstrip()):
        if piece[0].isspace():
            space = piece[0]
            continue
        if current.strip() and not _fits(current + space + "".join(piece), width):
            lines.append(current)
            current, space = indent, ""
        current += space
        space = ""
        while not _fits(current + "".join(piece), width) and len(current + "".join(piece)) > len(indent) + 1:
            kept, piece = _cut(current, piece, width)  # a piece wider than a line
            lines.append(current + kept)
            current = indent
        current += "".join(piece)
    lines.append(current)
    return [line.rstrip() for line in lines]


def _fits(line: str, width: int) -> bool:
    """Whether ``line`` fits in ``width`` columns, punctuation that may not start a line hanging past the end."""
    return display_width(line.rstrip("".join(_CLOSING))) <= width


def _cut(line: str, piece: Piece, width: int) -> tuple[str, Piece]:
    """What of ``piece``, too wide to follow ``line``, ends the line, and the rest: whole units, as many as fit,
    leaving no punctuation alone; part of the first unit only if it alone does not fit."""
    ends = [n for n in range(1, len(piece)) if _fits(line + "".join(piece[:n]), width)]
    kind = [n for n in ends if piece[n][0] not in _CLOSING and piece[n - 1][-1] not in _OPENING]
    if kind or ends:
        n = (kind or ends)[-1]
        return "".join(piece[:n]), piece[n:]
    first = piece[0]
    cut = len(first)
    while cut > 1 and display_width(line + first[:cut]) > width:
        cut -= 1
    return first[:cut], [first[cut:], *piece[1:]]


def render_message(message: str, width: int = MESSAGE_WIDTH) -> list[str]:
    """A failure message as notebook traceback lines: wrapped to ``width`` columns, its first line (all of its wrapped
    lines) in red."""
    lines: list[str] = []
    for number, line in enumerate(message.splitlines() or [""]):
        indent = " " * (len(line) - len(line.lstrip()))
        wrapped = wrap(line, width, indent + "  ")
        lines += [f"\x1b[1;31m{part}\x1b[0m" for part in wrapped] if number == 0 else wrapped
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
