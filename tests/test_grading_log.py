"""The grading log a TA reads: nothing alarming for an untouched submission, a clear warning for an edited locked cell.

Stock nbgrader warned "Attribute 'checksum' for cell test_... has changed!" for each of the 12 test cells of every
submission (the release strips their hidden tests), and each grading kernel printed IPython's "Ctrl-C will not work"
note, and nbgrader's gradebook code three SQLAlchemy "not in session" warnings.
``autograder.preprocessors.locked_cells``, the kernel's ``parent_handle`` and ``quiet_gradebook_warnings``
(``autograder.settings``) keep them out; a locked cell a student edited is still warned of, by name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder import classroom
from autograder.cell_ids import grade_id, nbgrader
from gradingkit import MNIST, REPO, grade, make_course, totals

pytestmark = pytest.mark.slow  # grades with nbgrader in the sandbox

EDITED = "test_relu_forward"
NOISE = ("Attribute 'checksum'", "Ctrl-C will not work", "To connect another client", "SAWarning", "Locked cell")


def _as_handed_in(course: Path) -> tuple[str, str]:
    """The reference answers in the released notebook (what a correct student hands in), and the same with one
    locked test cell edited."""
    released = {
        grade_id(c): c["source"]
        for c in json.loads((course / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text())["cells"]
        if grade_id(c)
    }
    notebook = json.loads((REPO / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text())
    for cell in notebook["cells"]:
        if nbgrader(cell).get("locked"):
            cell["source"] = released[grade_id(cell)]
    untouched = json.dumps(notebook)
    for cell in notebook["cells"]:
        if grade_id(cell) == EDITED:
            cell["source"] = "".join(cell["source"]) + "\nprint('I changed a locked cell')"
    return untouched, json.dumps(notebook)


def test_an_untouched_submission_logs_no_alarm_and_an_edited_locked_cell_is_named(tmp_path: Path) -> None:
    course = make_course(
        tmp_path / "course",
        "grading-log",
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}\nc.KitGrading.secret_file = {str(tmp_path / 'secret')!r}",
    )  # and its reference_student: the solutions notebook, its hidden tests stripped as the release's
    untouched, edited = _as_handed_in(course)
    classroom.submit(course, "untouched", untouched)
    classroom.submit(course, "edited", edited)
    result = grade(course, "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    logs = {s: (course / ".kit-graded" / "logs" / f"{s}.log").read_text() for s in totals(course)}
    for student in ("untouched", "reference_student"):
        assert not [line for line in logs[student].splitlines() if any(n in line for n in NOISE)], logs[student]
    assert not any(n in result.stdout + result.stderr for n in NOISE), result.stdout + result.stderr
    warned = [line for line in logs["edited"].splitlines() if any(n in line for n in NOISE)]
    assert len(warned) == 1 and "WARNING" in warned[0] and f"Locked cell {EDITED} was edited" in warned[0], warned
    # graded as nbgrader always grades it: the original cell, hidden tests included
    assert totals(course) == {"untouched": 100, "edited": 100, "reference_student": 100}
    # and the run ends with what the class's grading came to
    assert "Scores of the 3 graded submission(s): mean 100.0, median 100" in result.stdout, result.stdout
    assert "No check was lost." in result.stdout, result.stdout
