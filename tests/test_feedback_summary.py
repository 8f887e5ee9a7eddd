"""The feedback's top box says what to fix, from the verdicts as data: each failed hidden check with its points, what
came, the likely cause and the formula, in the edition's language; public checks apart; checks named in the list."""

from __future__ import annotations

import re

from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_notebook
from test_docs import documented_failure

from autograder import messages as say
from autograder.course.nn_messages import DW_TRANSPOSED, EXPECTED_GOT, LINEAR_DW_FORMULA, SHAPE, Failure
from autograder.exporters import summary
from autograder.messages import FEEDBACK_CAUSE, FEEDBACK_FORMULA
from autograder.verdict import Passed, Verdict


def _cell(grade_id: str, points: float, score: float, outputs: list) -> NotebookNode:
    cell = new_code_cell("...")
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": grade_id, "points": points}
    cell.metadata["nbgrader"]["score"] = score
    cell.outputs = outputs
    return cell


def _class_notebook() -> NotebookNode:
    failed = Verdict.failed("linear_backward_dw", documented_failure())
    passed = Verdict.of("linear_forward", Passed())
    public_error = NotebookNode(
        output_type="error",
        ename="CheckFailed",
        evalue="Linear.backward: expected shape (3, 2), got shape (2, 3).",
        traceback=["\x1b[1;31mLinear.backward: expected shape (3, 2),\x1b[0m", "  got shape (2, 3)."],
    )
    return new_notebook(
        cells=[
            _cell("public_linear", 0, 0, [public_error]),
            _cell("test_linear_forward", 8, 8, [passed.output()]),
            _cell("test_linear_backward_dw", 6, 0, [failed.output()]),
            _cell("public_relu", 0, 0, []),
        ]
    )


def test_the_top_box_lists_each_failed_check_with_points_cause_and_formula() -> None:
    checks = summary.checks_of(_class_notebook())
    box = summary.top_box(checks, "en")
    assert "Checks that failed (1): 6 of 14 points lost" in box
    assert '<code>Linear.backward, W.grad</code></a> <span class="kit-nowrap">(0 / 6 points)</span>' in box
    text = re.sub(r"<(?!/?b>)[^>]+>", "", box)  # the words, with the bold labels; numbers are kept whole by spans
    assert "Linear(5, 5) with x of shape (6, 5): W.grad after backward(grad): expected -2.02315" in text
    assert f"<b>{FEEDBACK_CAUSE}:</b> {DW_TRANSPOSED}" in text and f"<b>{FEEDBACK_FORMULA}:</b> dW = Xᵀ G" in text
    public, hidden = box.split("Public checks that failed")[1], box.split("Public checks that failed")[0]
    assert "public_linear" in public and "got shape (2, 3)." in public and "\x1b" not in public
    assert "public_linear" not in hidden and "linear_forward" not in box  # passed checks are not listed


def test_the_top_box_is_in_the_editions_language() -> None:
    box = summary.top_box(summary.checks_of(_class_notebook()), "zh")
    heading = say.FEEDBACK_FAILED_COUNT(failed=say.FEEDBACK_FAILED, count=1, lost=say.FEEDBACK_LOST(lost=6, total=14))
    assert f"<h3>{heading.render('zh')}</h3>" in box
    cause, formula = (
        say.FEEDBACK_LABEL(label=label).render("zh") for label in (say.FEEDBACK_CAUSE, say.FEEDBACK_FORMULA)
    )
    assert f"<b>{cause}</b>{DW_TRANSPOSED.render('zh')}" in box and f"<b>{formula}</b>" in box
    assert LINEAR_DW_FORMULA.render("zh") in box and "Likely cause" not in box and "The formula" not in box
    points = say.FEEDBACK_CELL_POINTS(score=0, points=6, unit=say.FEEDBACK_POINTS).render("zh")
    assert f'<span class="kit-nowrap">{points}</span>' in box
    # the summary's own words beside Chinese: full-width punctuation (the public check's text here is a fake English)
    words = re.sub(r"<[^>]+>", "", box.split(say.FEEDBACK_PUBLIC.render("zh"))[0])
    assert not re.search(r"[\u4e00-\u9fff] ?:", words) and "(1)" not in words and "(0 / 6" not in words, words


def test_the_contents_name_the_hidden_tests_and_count_the_public_checks() -> None:
    contents = summary.contents(summary.checks_of(_class_notebook()), "en")
    assert "Test cell" not in contents and "<code>Linear.backward, W.grad</code></a> (0 / 6)" in contents
    assert "Public checks (0 points): 1 of 2 failed" in contents


def test_a_failure_without_a_cause_shows_no_cause_line() -> None:
    plain = Failure(EXPECTED_GOT(what="Linear(3, 2)", expected=SHAPE(shape=(3, 2)), got=SHAPE(shape=(2, 3))))
    nb = new_notebook(cells=[_cell("test_linear_forward", 8, 0, [Verdict.failed("linear_forward", plain).output()])])
    box = summary.top_box(summary.checks_of(nb), "en")
    text = re.sub(r"<[^>]+>", "", box)
    assert FEEDBACK_CAUSE.render("en") not in box and "Linear(3, 2): expected shape (3, 2), got shape (2, 3)." in text


def test_public_failures_alone_say_the_hidden_tests_passed_and_show_an_error_by_its_last_line() -> None:
    died = NotebookNode(
        output_type="error", ename="NameError", evalue="name 'Linear' is not defined", traceback=["-----", "Cell In[3]"]
    )
    nb = new_notebook(
        cells=[
            _cell("public_linear", 0, 0, [died]),
            _cell("test_linear_forward", 8, 8, [Verdict.of("linear_forward", None).output()]),
        ]
    )
    box = summary.top_box(summary.checks_of(nb), "en")
    assert "Every hidden test passed (8 of 8 points)." in box and "Checks that failed" not in box
    assert "NameError: name &#x27;Linear&#x27; is not defined" in box and "Cell In[3]" not in box


def test_every_check_passed_says_so() -> None:
    nb = new_notebook(cells=[_cell("test_linear_forward", 8, 8, [Verdict.of("linear_forward", None).output()])])
    assert "Every check passed." in summary.top_box(summary.checks_of(nb), "en")


def test_a_score_set_by_hand_is_shown_beside_what_the_check_gave_and_no_longer_reads_as_all_passed() -> None:
    """A TA's score in formgrader counts instead of the check's (nbgrader's rule, kept on every regrade): the box
    must not say "Every check passed" over an exported 96."""
    passed = Verdict.of("linear_backward_db", Passed())
    nb = new_notebook(cells=[_cell("test_linear_forward", 8, 8, []), _cell("test_linear_backward_db", 5, 1, [])])
    nb.cells[0].outputs = [Verdict.of("linear_forward", Passed()).output()]
    nb.cells[1].outputs = [passed.output()]
    checks = summary.checks_of(nb)
    assert [c.by_hand for c in checks] == [False, True]
    box = summary.top_box(checks, "en")
    assert "Every check passed" not in box and "Every hidden test passed" not in box
    assert "Scores your instructor set" in box and "(1 / 5 points)" in box
    assert "the automatic check gave 5 of 5 points" in box
    assert "自动检查给了 5 分（满分 5 分）" in summary.top_box(checks, "zh")


def test_a_late_submission_says_how_late_and_the_points_taken_off() -> None:
    from autograder.report.collect import Lateness

    nb = new_notebook(cells=[_cell("test_linear_forward", 8, 8, [Verdict.of("linear_forward", Passed()).output()])])
    checks = summary.checks_of(nb)
    assert "Every check passed" in summary.top_box(checks, "en")
    box = summary.top_box(checks, "en", Lateness(seconds=2.5 * 3600, penalty=10))
    assert "Every check passed" not in box and "Submitted 2.5 h after the due date: 10 points off." in box


def test_the_top_box_keeps_every_line_of_a_message_the_cell_shows_and_so_the_students_line() -> None:
    from autograder.course.nn_messages import RAISED_AT

    raised = Failure(RAISED_AT(what="ReLU.forward(x)", exception="ValueError", message="bad", line="return x[mask]"))
    nb = new_notebook(cells=[_cell("test_relu_forward", 5, 0, [Verdict.failed("relu_forward", raised).output()])])
    box = summary.top_box(summary.checks_of(nb), "en")
    assert "ReLU.forward(x) raised ValueError: bad" in box and "in your code:" in box and "return x[mask]" in box


def test_before_the_due_date_the_box_holds_back_the_hidden_tests_as_the_watcher_is_set() -> None:
    """``Watch.before_due``: public shows no hidden test at all, passfail only whether each passed; neither shows a
    point, a hidden test's message or its cause; both list the public checks that failed."""
    checks = summary.checks_of(_class_notebook())
    public, passfail = summary.held_box(checks, "en", "public"), summary.held_box(checks, "en", "passfail")
    for box in (public, passfail):
        assert "got shape (2, 3)." in box and "Public checks that failed" in box
        assert (
            "/ 6" not in box and "/ 8" not in box and "expected -2.02315" not in box and f"{DW_TRANSPOSED}" not in box
        )
    assert "W.grad" not in public and "public checks only" in public
    assert (
        "<code>Linear.backward, W.grad</code>: failed" in passfail and "<code>Linear.forward</code>: passed" in passfail
    )
    assert "隐藏测试" in summary.held_box(checks, "zh", "passfail") and "未通过" in summary.held_box(
        checks, "zh", "passfail"
    )
