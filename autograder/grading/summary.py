"""What a class's grading came to, for the terminal at the end of ``python -m autograder grade``: the scores, the
checks lost and the named causes seen most often, and where the class report and the feedback are.

Read from the class report's summary (``autograder.report``: the gradebook's scores and the verdicts as data, read
once), never from rendered messages; a cause is counted by its id and shown in the edition's language; a check is
named by its test cell, as nbgrader names it (``test_linear_backward_dw``).
"""

from __future__ import annotations

import statistics
from pathlib import Path

from autograder.cell_ids import hidden_cell_id
from autograder.report.aggregate import ClassSummary, causes_by_id
from autograder.report.collect import Student
from autograder.student_text import student_text


def summary_lines(summary: ClassSummary, report: Path, most: int = 5) -> list[str]:
    """The class in a few lines: the totals' mean, median and range, the checks lost and the named causes seen most
    often (``most`` of each), then where the report and the feedback are."""
    data = summary.data
    graded = data.graded()
    lines = []
    totals = summary.scores.values
    if totals:
        lines.append(
            f"Scores of the {len(totals)} graded submission(s): mean {statistics.fmean(totals):.1f}, median "
            f"{statistics.median(totals):g}, lowest {min(totals):g}, highest {max(totals):g} "
            f"(of {summary.max_score or 0:g})."
        )
    lost = sorted((c for c in summary.checks if c.failed), key=lambda c: (-c.failed, c.info.name))[:most]
    if lost:
        ranked = ", ".join(f"{hidden_cell_id(c.info.name)} ({c.failed} of {len(graded)})" for c in lost)
        lines.append(f"Checks lost most often: {ranked}.")
    elif graded:
        lines.append("No automatic check was lost." if any(s.by_hand for s in graded) else "No check was lost.")
    lines += by_hand_lines(graded) + late_lines(graded)
    causes = causes_by_id(summary)[:most]
    if causes:
        lines.append("Named causes seen most often (students, checks):")
        width = len(str(len(causes[0].students)))
        lines += [
            f"  {len(c.students):>{width}}  {student_text(c.text)} ({', '.join(map(hidden_cell_id, c.checks))})"
            for c in causes
        ]
    lines.append(f"Class report: {report} (and CSV, JSON beside it)")
    lines.append(_feedback_line(summary))
    return lines


def by_hand_lines(graded: list[Student]) -> list[str]:
    """Each cell whose score a person set: nbgrader counts it, here and in the export, instead of the automatic one."""
    found = [(s.id, hand) for s in graded for hand in s.by_hand]
    if not found:
        return []
    lines = ["Scores set by hand in formgrader, counted instead of the automatic ones (here and in `nbgrader export`;"]
    lines.append("  clear one in formgrader to count the automatic score again):")
    for student, hand in found:
        automatic = "never autograded" if hand.automatic is None else f"automatic {hand.automatic:g}"
        lines.append(f"  {student}: {hand.cell} {hand.score:g} of {hand.points:g} ({automatic})")
    return lines


def late_lines(graded: list[Student]) -> list[str]:
    """Each late submission: how late, and the points nbgrader's late penalty took off."""
    late = [s for s in graded if s.late is not None]
    if not late:
        return []
    return ["Late submissions (after the due date and any extension):"] + [
        f"  {s.id}: {s.late.hours} h late, {s.late.penalty:g} point(s) off" for s in late
    ]


def _feedback_line(summary: ClassSummary) -> str:
    data = summary.data
    graded = data.graded()
    have = sum(1 for s in graded if s.feedback is not None)
    command = f"`nbgrader generate_feedback {data.assignment}"
    where = data.feedback or Path("feedback", "<student>", data.assignment)
    grades = "grades: `nbgrader export` (grades.csv)."
    if not have:
        return f"Feedback: none yet: {command}` writes it into {where}/; {grades}"
    return (
        f"Feedback: {where}/ ({have} of {len(graded)} graded have it; {command} --force` writes it again from this "
        f"grading); {grades}"
    )
