"""Helpers of the trusted half of the checks: read what a probe recorded, failing with the student's error if it
raised."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from autograder.course.nn_diagnosis import ErrorCause, explain_error
from autograder.course.nn_messages import CATALOGUE, CheckFailed, Failure, Text
from autograder.messages import STOPPED
from autograder.probe.core import is_raised
from autograder.student_text import ELLIPSIS, student_data, student_text

VALUE_TOLERANCE = 1e-6
"""Accepted relative error against the reference (float64 inputs)."""

Causes = Sequence[ErrorCause]
Label = Text | str
"""What was checked: a message, or code shown as it is in every language (``MLP(4, 6, 3)``)."""


def opaque(recorded: dict[str, str]) -> object:
    """A stand-in for what the student's code returned that is not an array or a number (a list, a dict, ...), as
    recorded: an object of a class with the value's type name, whose repr is the value's. The checks describe it as
    they describe any value, with no knowledge of records."""
    text = student_text(recorded["text"])
    return type(student_text(recorded["opaque"]), (), {"__repr__": lambda self: text})()


def got(
    record: dict[str, Any],
    key: str,
    what: Label,
    formula: Label | None = None,
    causes: Causes = (),
    cause: Text | None = None,
) -> Any:
    """What the student's call gave under ``key``; an error it raised fails the check with its explanation."""
    if key not in record:
        raise CheckFailed(Failure(STOPPED(what=what)))
    value = record[key]
    if is_raised(value):  # every text of it is the student's: capped here, whatever the worker did
        raise CheckFailed(explain_error(what, student_data(value), causes, formula, cause=cause))
    return recorded(value)


def recorded(value: Any) -> Any:
    """A recorded value as the judges compare it: what was not an array or a number is its ``opaque`` stand-in (its
    type and repr), never the record's own dict."""
    return opaque(value) if isinstance(value, dict) and "opaque" in value else value


def judge_cases(
    cases: Sequence[dict[str, Any]],
    records: Sequence[dict[str, Any]],
    judge_one: Callable[[dict[str, Any], dict[str, Any]], None],
) -> None:
    """Judge every case; fail with the first failure whose cause is identified, else the first failure.

    A small case can leave two mistakes indistinguishable (then no cause is named); a larger one may tell them apart.
    """
    failures: list[CheckFailed] = []
    for case, record in zip(cases, records, strict=True):
        try:
            judge_one(case, record)
        except CheckFailed as failure:
            failures.append(failure)
    if failures:
        raise next((f for f in failures if f.failure.cause is not None), failures[0])


# ---------------------------------------------------------------- a failure recorded as data by a worker


def recorded_text(data: Any, depth: int = 0) -> Text:
    """The ``Text`` a worker recorded (``Text.to_data``), refused with ``ValueError`` unless it is a declared message
    with exactly its fields, each plain (a string, a number, a boolean, None) or such a text: the worker runs student
    code, so what it says is checked before it is rendered."""
    if depth > 8 or not isinstance(data, Mapping) or set(data) - {"id", "fields"}:
        raise ValueError(f"not a recorded message: {str(data)[:80]!r}")
    declared = CATALOGUE.get(data.get("id")) if isinstance(data.get("id"), str) else None
    fields = data.get("fields", {})
    if declared is None or not isinstance(fields, Mapping):
        raise ValueError(f"not a declared message: {str(data.get('id'))[:80]!r}")
    names = {name for _, name, _, _ in string.Formatter().parse(declared.en) if name is not None}
    if set(fields) != names:
        raise ValueError(
            f"the message {declared.id!r} recorded with the fields {sorted(fields)[:8]}, not {sorted(names)}"
        )
    for value in fields.values():
        if isinstance(value, Mapping):
            recorded_text(value, depth + 1)
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            raise ValueError(f"the message {declared.id!r} recorded with a field of type {type(value).__name__}")
    return Text.from_data(student_data(data))


def recorded_failure(data: Any) -> Failure:
    """The ``Failure`` a worker recorded (``Failure.to_data``), each of its texts checked as ``recorded_text`` does."""
    if not isinstance(data, Mapping) or set(data) - {"message", "cause", "formula", "numbers"}:
        raise ValueError(f"not a recorded failure: {str(data)[:80]!r}")
    message, cause, formula = (
        recorded_text(data[key]) if data.get(key) is not None else None for key in ("message", "cause", "formula")
    )
    if message is None:
        raise ValueError("a recorded failure without its message")
    if data.get("numbers"):  # a probe measures nothing a verdict reports
        raise ValueError("a recorded failure with numbers")
    return Failure(message, cause, formula)


# ---------------------------------------------------------------- every failure, bounded before it becomes a verdict

MAX_ITEMS = 16
"""Items of a list field a failure keeps (a correct check lists a handful: parameters, layers)."""


def bounded_field(value: Any) -> Any:
    """A field of a failure's text with whatever the student may have put in it bounded: each string made one short
    line (``student_text``), each list cut to ``MAX_ITEMS``, any other value whose words are too long made short
    words; a ``Text`` bounded field by field, numbers and None as they are."""
    if isinstance(value, Text):
        return bounded_text(value)
    if isinstance(value, list):
        kept = [bounded_field(item) for item in value[:MAX_ITEMS]]
        return kept + [ELLIPSIS] if len(value) > MAX_ITEMS else kept
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return student_text(value)
    words = student_text(value)
    return value if words == str(value) else words


def bounded_text(text: Text | None) -> Text | None:
    if text is None:
        return None
    return Text(text.id, {name: bounded_field(value) for name, value in text.fields.items()})


def bounded_failure(failure: Failure) -> Failure:
    """``failure`` with every field of its texts bounded (``bounded_field``): what a verdict may carry."""
    return Failure(
        bounded_text(failure.message), bounded_text(failure.cause), bounded_text(failure.formula), failure.numbers
    )
