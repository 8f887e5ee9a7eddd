"""Parts of the MNIST gate's judge that format what the probe measured: what mutants of the mutation benchmark
(issue 27) changed with no test failing (fast tier; nothing trains)."""

from __future__ import annotations

from autograder import messages as say
from autograder.judge.gate import _loop_cause, _plain_indices


def test_the_indices_a_probe_recorded_are_shown_as_integers() -> None:
    assert _plain_indices([3, 5.0, "7"]) == [3, 5, 7]
    assert _plain_indices(range(20)) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert _plain_indices(None) == "?"


def test_a_capped_python_loop_count_shows_the_big_batchs_lines_as_at_least() -> None:
    loop = {"lines": [40, 1300], "rows": [2, 64], "where": ["forward"], "capped": True}
    cause = _loop_cause({"python_loop": loop})
    assert cause.id == say.GATE_LOOP_GOT_WHERE.id, cause
    assert cause.fields["big"] == say.GATE_AT_LEAST(count=1300), cause
    assert (cause.fields["small"], cause.fields["small_rows"], cause.fields["big_rows"]) == (40, 2, 64), cause
    uncapped = _loop_cause({"python_loop": {**loop, "capped": False}})
    assert uncapped.fields["big"] == 1300, uncapped
