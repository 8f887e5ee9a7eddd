"""What a class's grading came to, for the terminal at the end of ``python -m autograder grade``: scores and the
checks lost most often, read from the gradebook (numbers, not messages)."""

from __future__ import annotations

import statistics
from pathlib import Path

CellScores = dict[str, tuple[float, float]]  # test cell grade_id -> (score, max_score)


def class_scores(db_url: str, course_id: str, assignment: str, notebook: str) -> dict[str, CellScores]:
    """student -> their test cells' scores, for every graded submission of ``assignment`` in the gradebook."""
    from nbgrader.api import Gradebook

    found: dict[str, CellScores] = {}
    with Gradebook(db_url, course_id) as gradebook:
        for submission in gradebook.assignment_submissions(assignment):
            student = submission.student.id
            graded = gradebook.find_submission_notebook(Path(notebook).stem, assignment, student)
            found[student] = {
                grade.name: (float(grade.score), float(grade.max_score))
                for grade in graded.grades
                if grade.cell.cell_type == "code" and grade.max_score  # the graded test cells, not 0-point checks
            }
    return found


def summary_lines(scores: dict[str, CellScores], most_lost: int = 5) -> list[str]:
    """The class in a few lines: the totals' mean, median and range, and the checks lost most often."""
    if not scores:
        return []
    totals = [sum(score for score, _ in cells.values()) for cells in scores.values()]
    best = max(sum(top for _, top in cells.values()) for cells in scores.values())
    lines = [
        f"Scores of the {len(totals)} graded submission(s): mean {statistics.fmean(totals):.1f}, median "
        f"{statistics.median(totals):g}, lowest {min(totals):g}, highest {max(totals):g} (of {best:g})."
    ]
    lost: dict[str, int] = {}
    for cells in scores.values():
        for cell, (score, top) in cells.items():
            if score < top:
                lost[cell] = lost.get(cell, 0) + 1
    if lost:
        ranked = sorted(lost.items(), key=lambda item: (-item[1], item[0]))[:most_lost]
        lines.append(
            "Checks lost most often: " + ", ".join(f"{cell} ({count} of {len(scores)})" for cell, count in ranked) + "."
        )
    else:
        lines.append("No check was lost.")
    return lines
