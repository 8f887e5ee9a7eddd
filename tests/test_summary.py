"""The end of a grading run says what the class's grading came to: scores and the checks lost most often."""

from __future__ import annotations

from autograder.grading.summary import summary_lines


def test_the_summary_gives_the_totals_and_ranks_the_checks_lost_most_often() -> None:
    scores = {
        "alice": {"test_a": (8.0, 8.0), "test_b": (20.0, 20.0)},
        "bob": {"test_a": (0.0, 8.0), "test_b": (0.0, 20.0)},
        "carol": {"test_a": (8.0, 8.0), "test_b": (0.0, 20.0)},
    }
    assert summary_lines(scores) == [
        "Scores of the 3 graded submission(s): mean 12.0, median 8, lowest 0, highest 28 (of 28).",
        "Checks lost most often: test_b (2 of 3), test_a (1 of 3).",
    ]
    assert summary_lines(scores, most_lost=1)[1] == "Checks lost most often: test_b (2 of 3)."


def test_a_class_that_lost_nothing_says_so_and_an_empty_one_says_nothing() -> None:
    assert summary_lines({"alice": {"test_a": (8.0, 8.0)}})[1] == "No check was lost."
    assert summary_lines({}) == []
