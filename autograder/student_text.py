"""Text that student code controls, made short, one line and harmless wherever the grader shows it (trusted side).

An exception's message and type name, the repr of a returned value, the source line a traceback names, a cell id: a
sandboxed worker records them beside the student's code, so they can be anything, of any size. ``student_text`` is
the one function every such text passes through on the grader's side before it reaches a failure, a verdict, the
graded notebook, the feedback, the class report or the terminal, whatever the worker claims to have capped.
"""

from __future__ import annotations

import re
from typing import Any

LIMIT = 300
"""Characters of student text the grader keeps (an ellipsis ends a longer one)."""
LINE_LIMIT = 1000
"""Characters of a line the grader writes around student text (a rendered message, a line in the terminal)."""
LINES = 12
"""Lines of a text the grader shows line by line (a check's rendered failure is at most a few)."""
ELLIPSIS = "…"

# Escape sequences first, whole, so that none of their printable tail survives (ECMA-48: CSI, OSC and the other
# string controls, in their 7-bit ESC forms and their 8-bit C1 forms, ended by BEL, ST or the end of the text).
_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"  # CSI: colours, cursor moves, clear screen
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC (window title), DCS, ...
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"  # any other ESC sequence (and a lone ESC)
)
_LINE_BREAKS = re.compile(r"[\t\n\v\f\r\x1c-\x1e\x85\u2028\u2029]+")
# Bidirectional controls make a text read otherwise than it is (overrides, isolates, marks); zero-width ones hide.
_CONTROLS = re.compile(
    r"[\x00-\x1f\x7f-\x9f"  # C0, DEL, C1
    r"\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"  # zero-width and bidirectional controls
    r"\ufeff\ufff9-\ufffb]"  # the BOM, interlinear annotations
)
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def student_text(value: Any, limit: int = LIMIT) -> str:
    """``value`` (any object: its ``str``) as one line of at most ``limit`` characters: escape sequences and control
    characters removed, line breaks and tabs made one space, an ellipsis at the end of what was cut."""
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception:  # noqa: BLE001 - a recorded value is plain data, but be safe for anything
        text = "?"
    if len(text) > 64 * limit:  # the work below stays proportional to what is kept
        text = text[: 64 * limit]
    text = _SEQUENCES.sub("", text)
    text = _LINE_BREAKS.sub(" ", text)
    text = _CONTROLS.sub("", text)
    text = _SURROGATES.sub("\ufffd", text)
    if len(text) > limit:
        text = text[: max(0, limit - len(ELLIPSIS))].rstrip() + ELLIPSIS
    return text


def student_lines(value: Any, limit: int = LINE_LIMIT, most: int = LINES) -> str:
    """``value`` shown line by line: its first ``most`` lines, each passed through ``student_text``."""
    lines = str(value).splitlines() or [""]
    kept = [student_text(line, limit) for line in lines[:most]]
    return "\n".join(kept + [ELLIPSIS] if len(lines) > most else kept)


def student_data(value: Any, limit: int = LIMIT) -> Any:
    """Plain data (dicts, lists, strings, numbers, arrays, ...) with every string in it, keys too, passed through
    ``student_text``; everything else as it is."""
    if isinstance(value, str):
        return student_text(value, limit)
    if isinstance(value, dict):
        return {student_text(k, limit) if isinstance(k, str) else k: student_data(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [student_data(v, limit) for v in value]
    if isinstance(value, tuple):
        return tuple(student_data(v, limit) for v in value)
    return value
