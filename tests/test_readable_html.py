"""The kit's pages read as text should: code spans as ``<code>`` (never a student's markup), numbers, ratios and
shapes kept on one line, and the report's students shown with their causes' words, not the causes' ids."""

from __future__ import annotations

import re
from pathlib import Path

from nbformat import NotebookNode
from nbformat.v4 import new_code_cell

from autograder.course.nn_messages import EXPECTED_GOT, SGD_NOTHING_MOVED, SHAPE, Failure
from autograder.exporters import inline, summary
from autograder.report.build import write_report
from autograder.verdict import Verdict
from report_course import ReportCourse, all_passed, verdict


def test_code_spans_become_code_and_student_text_stays_text() -> None:
    shown = inline.readable("in your code: `x[x<0] = 0` then `<script>alert(1)</script>` and a lone ` here")
    assert '<code class="kit-code">x[x&lt;0] = 0</code>' in shown
    assert "<script" not in shown and "&lt;script&gt;" in shown
    assert "`" not in shown.replace("lone ` here", "")  # paired backticks are gone, a lone one stays


def test_numbers_ratios_and_shapes_do_not_break() -> None:
    shown = inline.readable("expected shape (64, 10), got (10,): 0.8 / 6 points, 2 × 3")
    for whole in ("(64, 10)", "(10,)", "0.8 / 6", "2 × 3"):
        assert f'<span class="{inline.CLASS}">{whole}</span>' in shown, shown
    assert "white-space: nowrap" in inline.CSS


def _failed_cell() -> NotebookNode:
    failure = Failure(
        EXPECTED_GOT(what="SGD.step", expected=SHAPE(shape=(64, 10)), got=SHAPE(shape=(10, 64))), SGD_NOTHING_MOVED
    )
    cell = new_code_cell("...")
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "test_sgd_step", "points": 10}
    cell.metadata["nbgrader"]["score"] = 0.8
    cell.outputs = [Verdict.failed("sgd_step", failure).output()]
    return cell


def test_the_feedbacks_top_box_renders_code_spans_and_keeps_points_whole() -> None:
    from nbformat.v4 import new_notebook

    box = summary.top_box(summary.checks_of(new_notebook(cells=[_failed_cell()])), "en")
    assert '<code class="kit-code">p = p - ...</code>' in box and '<code class="kit-code">p -= ...</code>' in box
    assert "`" not in box
    assert re.search(rf'<span class="{inline.CLASS}">\(0\.8 / 10 points\)</span>', box), box
    assert f'<span class="{inline.CLASS}">(64, 10)</span>' in box


def test_the_reports_students_show_their_causes_words(tmp_path: Path) -> None:
    course = ReportCourse(tmp_path / "course")
    verdicts = all_passed()
    verdicts[2] = verdict("linear_backward_dw", False, "cause.linear.dw_transposed")
    course.add("carol", verdicts)
    html, _, _ = write_report(course.root, "mlp")
    students = html.read_text().split('<section id="students">')[1]
    row = next(line for line in students.split("<tr>") if "carol" in line)
    assert "dW = Gᵀ X: the product is transposed" in row, row
    assert "linear.dw_transposed" not in row


def test_every_code_colour_of_the_feedback_has_a_contrast_of_at_least_4_5_to_1() -> None:
    """Whatever token a cell holds (an f-string's ``{...}`` was 4.47:1 in Pygments' default style): the colour the
    feedback's CSS gives it last, WCAG 2.1's ratio on the code's background computed here, not by the code under
    test."""
    from pygments.styles import get_style_by_name
    from pygments.token import STANDARD_TYPES

    from autograder.exporters.feedback import CSS

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    background = luminance("f5f5f5")
    given = dict(re.findall(r"\.highlight \.(\w+) \{ color: #([0-9a-f]{6}); \}", CSS))
    low = {}
    for token, spec in get_style_by_name("default"):
        name = STANDARD_TYPES.get(token)
        if spec["color"] and name:
            colour = given.get(name, spec["color"].lower())
            ratio = (background + 0.05) / (luminance(colour) + 0.05)
            if ratio < 4.5:
                low[name] = round(ratio, 2)
    assert not low, low
    assert given["si"] != "a45a77"  # the one found in the browser test
