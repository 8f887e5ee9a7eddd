"""Small helpers shared by the hidden checks."""
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

from nn_diagnosis import explain_error

from autograder.limits import CheckTimeout

GRADER_FILES = str(Path(__file__).resolve().parent)
"""Frames in these files are the grader's, not the student's."""

VALUE_TOLERANCE = 1e-6
"""Accepted relative error against the reference (float64 inputs)."""


def run_student(what: str, method: Callable[..., Any], *args: Any, causes: Sequence[tuple[type, str, str]] = (), formula: str = "") -> Any:
    """Call the student's ``method``; an exception becomes a failure that names the student's line and the likely cause."""
    try:
        with warnings.catch_warnings():  # overflow warnings would only clutter feedback; the diagnosis names the cause
            warnings.simplefilter("ignore", RuntimeWarning)
            return method(*args)
    except CheckTimeout:
        raise
    except Exception as error:
        raise AssertionError(explain_error(what, error, causes, formula, skip=(GRADER_FILES,))) from None
