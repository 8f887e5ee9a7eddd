"""Helpers of the trusted half of the checks: read what a probe recorded, failing with the student's error if it
raised."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from autograder.probe.core import is_raised
from nn_diagnosis import explain_error

VALUE_TOLERANCE = 1e-6
"""Accepted relative error against the reference (float64 inputs)."""

Causes = Sequence[tuple[str, str, str]]


class Opaque:
    """Something the student's code returned that is not an array or a number (a list, a dict, ...), as recorded."""

    def __init__(self, recorded: dict[str, str]) -> None:
        self.type_name, self.text = recorded["opaque"], recorded["text"]

    def __repr__(self) -> str:
        return self.text


def got(
    record: dict[str, Any], key: str, what: str, formula: str = "", causes: Causes = (), cause: str | None = None
) -> Any:
    """What the student's call gave under ``key``; an error it raised fails the check with its explanation."""
    if key not in record:
        raise AssertionError(f"{what}: the check stopped before this step.")
    value = record[key]
    if is_raised(value):
        raise AssertionError(explain_error(what, value, causes, formula, cause=cause))
    if isinstance(value, dict) and "opaque" in value:
        return Opaque(value)
    return value


def judge_cases(
    cases: Sequence[dict[str, Any]],
    records: Sequence[dict[str, Any]],
    judge_one: Callable[[dict[str, Any], dict[str, Any]], None],
) -> None:
    """Judge every case; fail with the first failure whose cause is identified, else the first failure.

    A small case can leave two mistakes indistinguishable (then no cause is named); a larger one may tell them apart.
    """
    failures = []
    for case, record in zip(cases, records, strict=True):
        try:
            judge_one(case, record)
        except AssertionError as failure:
            failures.append(str(failure))
    if failures:
        raise AssertionError(next((f for f in failures if "\n  Likely cause:" in f), failures[0]))
