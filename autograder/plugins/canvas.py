"""Grades for Canvas: ``nbgrader export --exporter=autograder.plugins.canvas.CanvasExportPlugin`` writes a CSV that
Canvas's gradebook import (Grades, Import) accepts.

Canvas reads the first row as the header: ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then one
column per assignment, named ``<name> (<Canvas assignment id>)`` to update that assignment or ``<name>`` alone (matched
by title, else created). A second row starting ``Points Possible`` gives each assignment's points (used for a new one).
Canvas finds each student by ``ID`` (its own user id), else ``SIS User ID``, else ``SIS Login ID``, else the name. A
score left empty changes nothing: a student without a graded submission (none handed in, or left ungraded by the
grader's fault) is written empty by default, never 0.

Each score is after the late penalty. How late each late submission came, and the points taken off, go into a file
beside it (``canvas_grades_late.csv``), never into the grades file: Canvas's import makes a new assignment of any
column it does not know (``GradebookImporter.parse_assignments`` in canvas-lms), and its one escape, a column whose
``Points Possible`` cell reads "read only", is dropped only when every student of the file is matched.
"""

from __future__ import annotations

import csv
from pathlib import Path

from nbgrader.api import Gradebook
from nbgrader.plugins import ExportPlugin
from traitlets import Bool, Dict, Enum, Unicode

from autograder.report.collect import by_hand_and_late, class_scores

HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
"""The student columns of Canvas's gradebook CSV, in its order."""
LATE_HEADER = ["Assignment", "Hours late", "Points off"]
"""The columns of the lateness file after the student columns: one row a late submission."""


def late_path(grades: str) -> Path:
    """The lateness file beside the grades file: ``canvas_grades.csv`` -> ``canvas_grades_late.csv``."""
    path = Path(grades)
    return path.with_name(f"{path.stem}_late{path.suffix}")


def score_text(score: float) -> str:
    """A score as Canvas keeps it: at most two decimals, no trailing zeros."""
    return f"{score:.2f}".rstrip("0").rstrip(".")


class CanvasExportPlugin(ExportPlugin):
    """Export grades as a CSV for Canvas's gradebook import: one row a student, one column an assignment."""

    assignment_ids = Dict(
        value_trait=Unicode(),
        default_value={},
        help="Canvas's id of each nbgrader assignment, e.g. {'mlp': '123'}: its column is then named 'mlp (123)' and "
        "updates that Canvas assignment. An assignment not listed gets a column named by its name alone, which Canvas "
        "matches by title or creates.",
    ).tag(config=True)
    id_column = Enum(
        ["SIS Login ID", "SIS User ID", "ID"],
        default_value="SIS Login ID",
        help="The Canvas column that holds the nbgrader student id (when no roster gives Canvas's own columns): "
        "'SIS Login ID' (a login name, as on most JupyterHubs), 'SIS User ID', or 'ID' (Canvas's numeric user id).",
    ).tag(config=True)
    roster = Unicode(
        "",
        help="A CSV exported from Canvas's gradebook (or any CSV with its Student, ID, SIS User ID, SIS Login ID and "
        "Section columns): each student's row takes those columns from the roster row whose `roster_match` column is "
        "the nbgrader student id. Empty: no roster.",
    ).tag(config=True)
    roster_match = Unicode(
        "SIS Login ID", help="The roster's column that holds the nbgrader student id (see `roster`)."
    ).tag(config=True)
    section = Unicode(
        "", help="The Section written for students the roster does not give one (Canvas ignores it)."
    ).tag(config=True)
    points_possible = Bool(
        True, help="Write Canvas's 'Points Possible' row (each assignment's maximum score) under the header."
    ).tag(config=True)
    missing = Unicode(
        "",
        help="What a student without a graded submission of an assignment gets: empty (the default) leaves their "
        "Canvas grade as it is; '0' gives zero.",
    ).tag(config=True)

    def _roster(self) -> dict[str, dict[str, str]]:
        if not self.roster:
            return {}
        with Path(self.roster).open(newline="", encoding="utf-8-sig") as rows:
            return {row[self.roster_match]: row for row in csv.DictReader(rows) if row.get(self.roster_match)}

    def _student_columns(self, student, roster: dict[str, dict[str, str]]) -> list[str]:  # noqa: ANN001 - nbgrader's
        found = roster.get(student.id)
        if found is not None:
            return [found.get(column, "") or "" for column in HEADER[:-1]] + [found.get("Section") or self.section]
        name = ", ".join(part for part in (student.last_name, student.first_name) if part) or student.id
        columns = {"Student": name, "ID": "", "SIS User ID": "", "SIS Login ID": "", "Section": self.section}
        columns[self.id_column] = student.id
        return [columns[column] for column in HEADER]

    def _column(self, assignment: str) -> str:
        """The assignment's column: ``mlp (123)`` with its Canvas id, else its name."""
        return f"{assignment} ({self.assignment_ids[assignment]})" if assignment in self.assignment_ids else assignment

    def export(self, gradebook: Gradebook) -> None:
        """Write the CSV to ``to`` (default ``canvas_grades.csv``), and each late submission beside it."""
        destination = self.to or "canvas_grades.csv"
        wanted_assignments = {str(a) for a in self.assignment}
        wanted_students = {str(s) for s in self.student}
        assignments = [a for a in gradebook.assignments if not wanted_assignments or a.name in wanted_assignments]
        students = [s for s in gradebook.students if not wanted_students or s.id in wanted_students]
        roster = self._roster()
        self.log.info(
            "Exporting %d assignment(s) for %d student(s) to %s (late submissions: %s)",
            len(assignments),
            len(students),
            destination,
            late_path(destination),
        )
        header = HEADER + [self._column(a.name) for a in assignments]
        with open(destination, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(header)
            if self.points_possible:
                writer.writerow(["Points Possible", "", "", "", ""] + [score_text(a.max_score) for a in assignments])
            scores = {a.name: class_scores(gradebook, a.name) for a in assignments}
            for student in students:
                found = [scores[a.name].get(student.id) for a in assignments]
                row = [self.missing if score is None else score_text(score[2]) for score in found]
                writer.writerow(self._student_columns(student, roster) + row)
        late = {a.name: by_hand_and_late(gradebook, a.name)[1] for a in assignments}
        with late_path(destination).open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(HEADER + LATE_HEADER)
            for student in students:
                for assignment, of_assignment in late.items():
                    if (lateness := of_assignment.get(student.id)) is not None:
                        columns = [self._column(assignment), lateness.hours, score_text(lateness.penalty)]
                        writer.writerow(self._student_columns(student, roster) + columns)
