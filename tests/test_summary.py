"""The end of a grading run says what the class's grading came to: scores, the checks lost and the named causes seen
most often (counted by id, in the edition's language), and where the report and the feedback are.

A synthetic class of verdicts, counted by the report's own aggregation; no files.
"""

from __future__ import annotations

from pathlib import Path

from autograder.course.nn_messages import Failure, Text
from autograder.grading.summary import summary_lines
from autograder.report.aggregate import ClassSummary, summarize
from autograder.report.catalogue import Catalogue
from autograder.report.collect import CheckInfo, ClassData, Student
from autograder.verdict import Verdict

COURSE = Path("/course")
REPORT = COURSE / "reports" / "mlp" / "report.html"
DW, NONE = "cause.linear.dw_transposed", "cause.returned_none"


def _failed(check: str, cause: str | None) -> Verdict:
    message = Text("expected_got", {"what": check, "expected": "shape (4, 2)", "got": "shape (2, 4)"})
    return Verdict.failed(check, Failure(message, Text(cause) if cause else None))


def _student(id: str, score: float, failed: dict[str, str | None], feedback: bool = True) -> Student:
    found = {check: _failed(check, cause) for check, cause in failed.items()}
    found |= {c: Verdict(c, True) for c in ("a", "b", "c") if c not in found}
    path = COURSE / "feedback" / id / "mlp" / "mlp.html" if feedback else None
    return Student(id, graded=True, score=score, max_score=28.0, verdicts=found, feedback=path)


def _class(language: str = "en", feedback: bool = True) -> ClassSummary:
    students = [
        _student("alice", 28.0, {}, feedback),
        _student("bob", 0.0, {"a": DW, "b": NONE, "c": NONE}, feedback),  # one cause in two checks: one student
        _student("carol", 8.0, {"b": NONE}, feedback),
        _student("dora", 20.0, {"a": DW}, feedback=False),
        _student("erin", 8.0, {"b": None}, feedback),  # no named cause: the report's residue, not listed here
        _student("gus", 20.0, {"c": NONE}, feedback),
        Student("fay"),  # not graded
    ]
    checks = [CheckInfo("a", "A", 8.0), CheckInfo("b", "B", 20.0), CheckInfo("c", "C", 0.0)]
    feedback_folder = COURSE / "feedback" / "<student>" / "mlp"
    data = ClassData(COURSE, "mlp", ["mlp"], COURSE / "release" / "mlp", checks, students, feedback_folder)
    return summarize(data, Catalogue(language))


def test_the_summary_gives_the_totals_the_checks_lost_and_the_causes_named_most_often() -> None:
    assert summary_lines(_class(), REPORT) == [
        "Scores of the 6 graded submission(s): mean 14.0, median 14, lowest 0, highest 28 (of 28).",
        "Checks lost most often: test_b (3 of 6), test_a (2 of 6), test_c (2 of 6).",
        "Named causes seen most often (students, checks):",
        "  3  the method returned None: a missing `return`, or `return` without a value (test_b, test_c)",
        "  2  dW = Gᵀ X: the product is transposed (test_a)",
        f"Class report: {REPORT} (and CSV, JSON beside it)",
        "Feedback: /course/feedback/<student>/mlp/ (5 of 6 graded have it; `nbgrader generate_feedback mlp --force` "
        "writes it again from this grading); grades: `nbgrader export` (grades.csv).",
    ]
    lines = summary_lines(_class(), REPORT, most=1)
    assert lines[1] == "Checks lost most often: test_b (3 of 6)."
    assert lines[2:4] == [
        "Named causes seen most often (students, checks):",
        "  3  the method returned None: a missing `return`, or `return` without a value (test_b, test_c)",
    ]


def test_the_causes_are_in_the_editions_language() -> None:
    lines = summary_lines(_class("zh"), REPORT)
    assert "  2  dW = Gᵀ X：乘积的顺序反了（结果被转置） (test_a)" in lines


def test_before_feedback_is_written_the_summary_says_how() -> None:
    assert summary_lines(_class(feedback=False), REPORT)[-1] == (
        "Feedback: none yet: `nbgrader generate_feedback mlp` writes it into /course/feedback/<student>/mlp/; "
        "grades: `nbgrader export` (grades.csv)."
    )


def test_a_class_that_lost_nothing_says_so_and_an_empty_one_says_where_to_look() -> None:
    data = ClassData(COURSE, "mlp", ["mlp"], COURSE, [CheckInfo("a", "A", 8.0)], [_student("alice", 28.0, {})])
    lines = summary_lines(summarize(data, Catalogue("en")), REPORT)
    assert lines[1] == "No check was lost." and not any("Named causes" in line for line in lines)
    empty = summarize(ClassData(COURSE, "mlp", ["mlp"], COURSE, [], [Student("fay")]), Catalogue("en"))
    assert [line.split(":")[0] for line in summary_lines(empty, REPORT)] == ["Class report", "Feedback"]
