"""What the grader accepts of a failure a worker recorded (``judge.common.recorded_text``, ``recorded_failure``):
the bounds that mutants of the mutation benchmark (issue 27) loosened with no test failing (fast tier)."""

from __future__ import annotations

from typing import Any

import pytest

from autograder.course.nn_messages import CHANGED_IN_PLACE, FD_CHECK, Text
from autograder.judge.common import recorded_failure, recorded_text


def _nested(levels: int) -> dict[str, Any]:
    """``FD_CHECK`` around ``FD_CHECK`` ... around a string, ``levels`` texts in all, as a worker records them."""
    data: Any = "Linear.forward"
    for _ in range(levels):
        data = {"id": FD_CHECK.id, "fields": {"what": data}}
    return data


def test_a_recorded_text_nested_nine_deep_is_read() -> None:
    text = recorded_text(_nested(9))
    assert isinstance(text, Text) and text.id == FD_CHECK.id


@pytest.mark.parametrize("levels", [10, 60])
def test_a_recorded_text_nested_deeper_than_nine_is_refused(levels: int) -> None:
    """Student code shares the worker: a record nested without end must be refused, not followed."""
    with pytest.raises(ValueError):
        recorded_text(_nested(levels))


def test_a_recorded_text_without_fields_is_a_message_without_fields() -> None:
    assert recorded_text({"id": CHANGED_IN_PLACE.id}) == CHANGED_IN_PLACE


def test_a_recorded_failure_that_carries_numbers_is_refused() -> None:
    """A probe measures nothing a verdict reports: numbers in a worker's failure are forged."""
    message = {"id": CHANGED_IN_PLACE.id, "fields": {}}
    assert recorded_failure({"message": message, "numbers": {}}).message == CHANGED_IN_PLACE
    with pytest.raises(ValueError):
        recorded_failure({"message": message, "numbers": {"accuracy": 0.99}})
