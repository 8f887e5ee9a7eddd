"""Every verdict, message id, cause and word the checks give on the pinned submissions is what
``tests/pinned/outputs.json`` recorded (fast tier; ``tests/pinned_outputs.py`` says what is pinned and how to rewrite
it when a message is meant to change). A refactoring that changes what a student reads, or a check that loses a field
of its message, fails here with the submission, the check and the language."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from pinned_outputs import PINNED, outputs_of, submissions

from autograder import registry

REWRITE = "if the change is meant, rewrite the pins with `python tests/pinned_outputs.py --write` and review the diff"


@cache
def _pinned() -> dict[str, Any]:
    return json.loads(PINNED.read_text())


def _differences(pinned: dict[str, Any], now: dict[str, Any], where: str) -> list[str]:
    """Each place where two outcomes differ, with both values."""
    found = []
    for key in sorted(set(pinned) | set(now)):
        if key not in now:
            found.append(f"{where}/{key}: pinned, but not given now: {pinned[key]!r}")
        elif key not in pinned:
            found.append(f"{where}/{key}: given now, but not pinned: {now[key]!r}")
        elif isinstance(pinned[key], dict) and isinstance(now[key], dict):
            found += _differences(pinned[key], now[key], f"{where}/{key}")
        elif pinned[key] != now[key]:
            found.append(f"{where}/{key}:\n    pinned: {pinned[key]!r}\n    now:    {now[key]!r}")
    return found


def test_the_pins_cover_every_submission_and_every_fast_check() -> None:
    assert sorted(_pinned()["submissions"]) == sorted(submissions()), REWRITE
    assert set(_pinned()["checks"]) == {check.name for check in registry.fast_checks()}, REWRITE


@pytest.mark.parametrize("name", sorted(submissions()))
def test_what_the_checks_say_of_a_submission_is_what_was_pinned(name: str) -> None:
    pinned = _pinned()["submissions"].get(name)
    assert pinned is not None, f"{name} is not pinned: {REWRITE}"
    differences = _differences(pinned, outputs_of(submissions()[name], name), name)
    assert not differences, "\n".join([*differences, REWRITE])
