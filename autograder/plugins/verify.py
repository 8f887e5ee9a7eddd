"""Grades decided outside the student's process: every hidden check run in a sandboxed worker, judged here.

``VerifyOutsideKernel`` is an nbgrader preprocessor that runs after the kernel
(and before ``SaveAutoGrades``). For the notebook being graded it

1. takes the setup and answer cells (nbgrader has restored the locked ones),
2. for each group of checks, runs a sandboxed worker (``autograder.plugins.workers``)
   on those cells, the course's released helper modules, the probe modules of
   those checks and their hidden inputs, watched from outside,
3. judges what the worker reported here, in the nbgrader process, which never
   runs student code (``autograder.judge.checks.judge``: reference, finite
   differences, MNIST accuracy),
4. writes the verdict into each test cell's outputs, which ``SaveAutoGrades``
   turns into points (the kernel ran only a stand-in of each check).

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

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool

from autograder import registry, sandbox
from autograder.faults import GraderFault, recording_faults
from autograder.judge import secret
from autograder.judge.inputs import inputs_for
from autograder.plugins.course_data import resolve_mnist
from autograder.plugins.workers import Grading, WorkerBudget, run_part
from autograder.settings import CoursePaths, MiB

PREPARED_ENV = "KIT_GRADING_PREPARED"
"""Set by ``autograder.cli.grade`` for the nbgrader processes it starts: what it already resolved and validated
(JSON: course root, assignment, MNIST folder, sandbox), so each process does not validate MNIST and start a test
sandbox again."""
UNSANDBOXED_NOTE = (
    "**Note from the grader.** This notebook was graded without a sandbox "
    "(`KitGrading.sandbox = False` in the course's configuration)."
)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    text: str  # the failure message, or the line to show on success (may be empty)


def answer_cells(nb: NotebookNode) -> list[dict[str, str]]:
    """The setup and answer cells, in notebook order: all the code the worker runs."""
    cells = []
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in registry.answer_cells():
            cells.append({"grade_id": grade_id, "source": cell.source})
    return cells


def _judge(check: str, outcome: dict[str, Any]) -> Verdict:
    """The verdict on one check; raise ``_Unjudgeable`` if the judge itself failed on the record."""
    from autograder.judge.checks import judge

    try:
        note = judge(check, inputs_for(check), outcome)
    except AssertionError as failure:
        return Verdict(False, str(failure))
    except Exception as error:  # noqa: BLE001 - the record may be spoiled by the student, or the judge broken
        raise _Unjudgeable(f"{type(error).__name__}: {error}") from error
    return Verdict(True, note or "")


class _Unjudgeable(Exception):
    pass


def verify(
    cells: list[dict[str, str]], grading: Grading, control: list[dict[str, str]] | None = None
) -> dict[str, Verdict]:
    """Every hidden check, probed in sandboxed workers and judged here: check name -> verdict.

    ``control`` is the course's own solution: a crash or an unjudgeable record is charged to the student only
    if the solution passes that check in the same setting; otherwise ``GraderFault``.
    """
    verdicts: dict[str, Verdict] = {}
    with tempfile.TemporaryDirectory(prefix="kit-verify-", dir=grading.scratch) as scratch:
        for part in registry.worker_groups():
            outcomes = run_part(part, cells, grading, Path(scratch) / "student")
            suspects: dict[str, str] = {}
            for check, outcome in outcomes.items():
                try:
                    verdicts[check] = _judge(check, outcome)
                except _Unjudgeable as error:
                    suspects[check] = str(error)
                    verdicts[check] = Verdict(
                        False,
                        f"This check's record could not be judged ({error}); your code "
                        "changed or broke the worker's files.",
                    )
                if outcome.get("crash"):
                    suspects[check] = outcome["timeout"]
            if suspects and control is not None:
                reference = run_part(part, control, grading, Path(scratch) / f"control-{part[0]}")
                for check, why in suspects.items():
                    try:
                        passed = _judge(check, reference[check]).passed
                    except _Unjudgeable:
                        passed = False
                    if not passed:
                        raise GraderFault(
                            f"{check} fails for the course's own solution too, so the grader is at "
                            f"fault, not the student ({why.splitlines()[0]})"
                        )
    return verdicts


def _error_output(text: str) -> NotebookNode:
    return NotebookNode(
        output_type="error", ename="CheckFailed", evalue=text, traceback=[f"\x1b[0;31mCheckFailed\x1b[0m: {text}"]
    )


def apply_verdict(cell: NotebookNode, verdict: Verdict) -> None:
    """Replace the test cell's outputs (the kernel's stand-in) with the verdict: an error output costs the points."""
    cell.outputs = (
        [_error_output(verdict.text)]
        if not verdict.passed
        else ([NotebookNode(output_type="stream", name="stdout", text=verdict.text + "\n")] if verdict.text else [])
    )


_resolved: dict[tuple[str, str], Grading] = {}


def prepare_grading(config: Any, assignment: str, log: Any = None) -> Grading:
    """Resolve, once per process: the helpers, the secret, MNIST, the sandbox. Raises ``GraderFault`` or
    ``sandbox.SandboxError`` with the reason before any student is graded."""
    paths = CoursePaths(config)
    kit = paths.kit
    key = (str(paths.root), assignment)
    if key in _resolved:
        return _resolved[key]
    helpers = paths.release(assignment).resolve()
    if not helpers.is_dir():
        raise GraderFault(f"the release {helpers} is missing: run `nbgrader generate_assignment {assignment}` first")
    if str(helpers) not in sys.path:  # the judges import the course's helpers: the released, trusted copies
        sys.path.insert(0, str(helpers))
    where, created = secret.use_course_secret(kit.secret_path())
    if log is not None:
        log.info("Hidden inputs drawn from the grading secret in %s%s", where, " (created now)" if created else "")
    prepared = _prepared_by_parent(str(paths.root), assignment)
    mnist = Path(prepared["mnist"]) if prepared else resolve_mnist(kit, helpers)
    os.environ["MNIST_DIR"] = str(mnist)  # the judge's accuracy measurement reads the same validated copy
    if kit.sandbox and not (prepared and prepared.get("sandbox")):
        sandbox.check_available()
    _resolved[key] = Grading(
        helpers,
        mnist,
        kit.sandbox,
        kit.scratch(),
        where + (" (created now)" if created else ""),
        kit.worker_limits(),
        kit.worker_attempts,
        kit.worker_start_attempts,
        WorkerBudget(
            kit.worker_checks_cpu_seconds,
            kit.worker_gate_cpu_seconds,
            kit.worker_stall_seconds,
            kit.worker_wall_seconds,
        ),
        kit.worker_disk_mib * MiB,
    )
    return _resolved[key]


def prepared_env(root: Path, grading: Grading, assignment: str) -> dict[str, str]:
    """The environment entry telling nbgrader processes started for this course what is validated already."""
    return {
        PREPARED_ENV: json.dumps(
            {
                "root": str(root.resolve()),
                "assignment": assignment,
                "mnist": str(grading.mnist),
                "sandbox": grading.isolated,
            }
        )
    }


def _prepared_by_parent(root: str, assignment: str) -> dict[str, Any] | None:
    """What ``autograder.cli.grade`` validated for this course and assignment, if it started this process."""
    try:
        prepared = json.loads(os.environ.get(PREPARED_ENV, ""))
    except ValueError:
        return None
    if prepared.get("root") != root or prepared.get("assignment") != assignment or not prepared.get("mnist"):
        return None
    return prepared


def control_cells(config: Any, assignment: str, notebook: str) -> list[dict[str, str]] | None:
    """The answer cells of the course's own solution (its source notebook), the control for suspected faults."""
    path = CoursePaths(config).source(assignment) / f"{notebook}.ipynb"
    return answer_cells(nbformat.read(path, as_version=4)) if path.exists() else None


class VerifyOutsideKernel(NbGraderPreprocessor):
    """Decide every hidden check outside the kernel, sandboxed; the verdict replaces the test cell's output."""

    enabled = Bool(True, help="Verify outside the kernel (turn off only to debug the kit itself).").tag(config=True)

    @recording_faults
    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        info = resources["nbgrader"]
        grading = prepare_grading(self.config, info["assignment"], self.log)
        self.log.info("Verifying %s outside the kernel", info["student"])
        try:
            verdicts = verify(
                answer_cells(nb), grading, control_cells(self.config, info["assignment"], info["notebook"])
            )
        except OSError as error:
            raise GraderFault(f"the grader's own files failed ({error})") from error
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
            check = grade_id[len("test_") :]
            if cell.cell_type == "code" and grade_id.startswith("test_") and check in verdicts:
                apply_verdict(cell, verdicts[check])
        if not grading.isolated:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(UNSANDBOXED_NOTE))
        return nb, resources
