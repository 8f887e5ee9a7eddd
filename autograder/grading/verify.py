"""Grades decided outside the student's process: every hidden check run in a sandboxed worker, judged here.

``verify`` runs for the notebook being graded (``autograder.preprocessors.verify.VerifyOutsideKernel`` calls it,
after the kernel and before ``SaveAutoGrades``). It

1. takes the setup and answer cells (nbgrader has restored the locked ones),
2. for each group of checks, runs a sandboxed worker (``autograder.grading.workers``)
   on those cells, the course's released helper modules, the probe modules of
   those checks and their hidden inputs, watched from outside,
3. judges what the worker reported here, in the nbgrader process, which never
   runs student code (``autograder.judge.checks.judge``: reference, finite
   differences, MNIST accuracy),
4. returns each check's verdict, which the preprocessor writes into the test cell's outputs, which
   ``SaveAutoGrades`` turns into points (the kernel ran only a stand-in of each check).

Whose fault a failure is decides what it costs. The student's code raising,
looping, running out of memory or ending its process costs the check it was
running (once the same thing happened in a fresh worker too, unless it was
stopped from outside for stalling or spending its CPU budget). A failure that is
not the student's raises ``GraderFault`` and no grade is written: MNIST missing
or corrupt, a sandbox that cannot start, a full disk, a worker killed from
outside (it does not happen again), or anything that also fails for the
course's own solution (the reference, run as a control).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode

from autograder import registry
from autograder.cell_ids import grade_id
from autograder.faults import GraderFault
from autograder.grading import stage
from autograder.grading.workers import Grading, run_group
from autograder.judge.inputs import inputs_for
from autograder.judge.outcome import WorkerOutcome
from autograder.settings import CoursePaths
from autograder.student_text import student_text
from autograder.verdict import Verdict


def answer_cells(nb: NotebookNode) -> list[dict[str, str]]:
    """The setup and answer cells, in notebook order: all the code the worker runs."""
    cells = []
    for cell in nb.cells:
        name = grade_id(cell)
        if cell.cell_type == "code" and name in registry.answer_cells():
            cells.append({"grade_id": name, "source": cell.source})
    return cells


def _judge(check: str, outcome: WorkerOutcome, student: str = "") -> Verdict:
    """The verdict on one check, judged on ``student``'s hidden inputs; raise ``_Unjudgeable`` if the judge itself
    failed on the record."""
    from autograder.course.nn_messages import CheckFailed
    from autograder.judge.checks import judge

    try:
        result = judge(check, inputs_for(check, student), outcome)
    except CheckFailed as failed:
        return Verdict.failed(check, failed.failure)
    except Exception as error:  # noqa: BLE001 - the record may be spoiled by the student, or the judge broken
        raise _Unjudgeable(student_text(f"{type(error).__name__}: {error}")) from error
    return Verdict.of(check, result)


class _Unjudgeable(Exception):
    pass


def _spoiled(check: str, problem: str) -> Verdict:
    from autograder.course.nn_messages import Failure
    from autograder.messages import RECORD_UNJUDGEABLE

    return Verdict.failed(check, Failure(RECORD_UNJUDGEABLE(problem=problem)))


def verify(
    cells: list[dict[str, str]], grading: Grading, control: list[dict[str, str]] | None = None
) -> dict[str, Verdict]:
    """Every hidden check, probed in sandboxed workers and judged here: check name -> verdict.

    ``control`` is the course's own solution: a crash or an unjudgeable record is charged to the student only
    if the solution passes that check in the same setting; otherwise ``GraderFault``.
    """
    verdicts: dict[str, Verdict] = {}
    with tempfile.TemporaryDirectory(prefix="kit-verify-", dir=grading.scratch) as scratch:
        groups = registry.worker_groups()
        for number, group in enumerate(groups, 1):
            slow = registry.check(group[0]).slow  # the gate: its worker's watch then says the training's steps
            stage.report(stage.Stage("gate") if slow else stage.Stage("checks", number, len(groups), group[0]))
            outcomes = run_group(group, cells, grading, Path(scratch) / "student")
            suspects: dict[str, str] = {}
            for check, outcome in outcomes.items():
                try:
                    verdicts[check] = _judge(check, outcome, grading.student)
                except _Unjudgeable as error:
                    suspects[check] = str(error)
                    verdicts[check] = _spoiled(check, str(error))
                if outcome.crash:
                    suspects[check] = str(verdicts[check].failure)
            if suspects and control is not None:
                _control(group, suspects, control, grading, Path(scratch) / f"control-{group[0]}")
    return verdicts


def _control(
    group: tuple[str, ...], suspects: dict[str, str], control: list[dict[str, str]], grading: Grading, scratch: Path
) -> None:
    """Raise ``GraderFault`` unless the course's own solution passes every suspect check in the same setting."""
    stage.report(stage.Stage("control", checks=", ".join(sorted(suspects))))
    reference = run_group(group, control, grading, scratch)
    for check, why in suspects.items():
        try:
            passed = _judge(check, reference[check], grading.student).passed
        except _Unjudgeable:
            passed = False
        if not passed:
            raise GraderFault(
                f"{check} fails for the course's own solution too, so the grader is at "
                f"fault, not the student ({why.splitlines()[0]})"
            )


def control_cells(config: Any, assignment: str, notebook: str) -> list[dict[str, str]] | None:
    """The answer cells of the course's own solution (its source notebook), the control for suspected faults."""
    path = CoursePaths(config).source(assignment) / f"{notebook}.ipynb"
    return answer_cells(nbformat.read(path, as_version=4)) if path.exists() else None
