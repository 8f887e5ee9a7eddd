"""Grades decided outside the student's process: every hidden check re-run in a sandboxed worker.

``VerifyOutsideKernel`` is an nbgrader preprocessor that runs after the kernel
(and before ``SaveAutoGrades``). For the notebook being graded it

1. takes the setup and answer cells (nbgrader has restored the locked ones),
2. for each part, starts a worker in a sandbox (``autograder.sandbox``) whose
   directory holds only those cells, the course's released helper modules, the
   probe modules of that part and the part's hidden inputs,
3. judges what the worker recorded here, in the nbgrader process, which never
   runs student code (``autograder.checks.judge``: reference, finite
   differences, MNIST accuracy),
4. writes the verdict into each test cell's outputs, which ``SaveAutoGrades``
   turns into points. Where the kernel's result disagrees, the verdict wins
   and the output says that the kernel's result was not trusted.

A worker that dies, hangs or exhausts a limit costs only the check it was
running: the next worker resumes with the rest of its part.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool, Integer, Unicode

from autograder import GATE_DEFERRED, sandbox
from autograder.inputs import inputs_for

PROBE_DIR = Path(__file__).resolve().parent / "probe"
ANSWER_CELLS = ("setup", "linear", "relu", "cross_entropy", "sgd", "mlp")
PARTS: tuple[tuple[str, ...], ...] = (
    ("linear_forward", "linear_backward_dx", "linear_backward_dw", "linear_backward_db"), ("relu_forward", "relu_backward"),
    ("cross_entropy_forward", "cross_entropy_backward"), ("sgd_step",), ("mlp_forward", "mlp_backward"), ("mnist_accuracy",),
)
WORKER = """import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe.run import main
main(sys.argv[1:])
"""
NOT_TRUSTED = "The kernel reported this check as {kernel}; that result was not trusted: re-run outside the notebook's kernel, it {verdict}."


@dataclass(frozen=True)
class Verdict:
    passed: bool
    text: str  # the failure message, or the line to show on success (may be empty)


def answer_cells(nb: NotebookNode) -> list[dict[str, str]]:
    """The setup and answer cells, in notebook order: all the code the worker runs."""
    cells = []
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in ANSWER_CELLS:
            cells.append({"grade_id": grade_id, "source": cell.source})
    return cells


def _worker_seconds(part: tuple[str, ...]) -> float:
    from autograder.probe.core import CHECK_SECONDS

    return 300.0 if part == ("mnist_accuracy",) else 30.0 + CHECK_SECONDS * len(part)


def _prepare(workdir: Path, part: tuple[str, ...], cells: list[dict[str, str]], helpers: Path) -> None:
    """The worker's directory: answer cells, trusted helpers, this part's probe modules and hidden inputs."""
    from autograder.probe.core import save
    from autograder.probe.run import PROBES

    (workdir / "probe").mkdir(parents=True)
    (workdir / "inputs").mkdir()
    (workdir / "answer.json").write_text(json.dumps(cells))
    (workdir / "worker.py").write_text(WORKER)
    for helper in helpers.glob("*.py"):
        shutil.copy(helper, workdir / helper.name)
    for module in {"__init__", "core", "run", *(PROBES[check][0] for check in part)}:
        shutil.copy(PROBE_DIR / f"{module}.py", workdir / "probe" / f"{module}.py")
    for check in part:
        save(workdir / "inputs" / check, inputs_for(check))


def _crash(reason: str) -> dict[str, Any]:
    return {"timeout": "This check could not finish outside the notebook's kernel: the worker process running your code "
                       f"{reason}.\n  Likely cause: your code ended the process, ran too long or used too much memory."}


def run_part(part: tuple[str, ...], cells: list[dict[str, str]], helpers: Path, scratch: Path, slot: int,
             readable: tuple[Path, ...] = ()) -> dict[str, dict[str, Any]]:
    """Run one part's probes in sandboxed workers (resuming after a crash); return each check's outcome."""
    from autograder.probe.core import load

    workdir = scratch / part[0]
    _prepare(workdir, part, cells, helpers)
    box = sandbox.Sandbox(user=sandbox.slot_user(slot), workdir=workdir, readable=(*sandbox.python_paths(), *readable),
                          limits=sandbox.Limits(cpu_seconds=600, memory_bytes=4 << 30, processes=64, file_bytes=64 << 20),
                          env={"OPENBLAS_NUM_THREADS": "1", "MNIST_DIR": os.environ.get("MNIST_DIR", "")})
    box.prepare()
    outcomes: dict[str, dict[str, Any]] = {}
    results = workdir / "results"
    while len(outcomes) < len(part):
        remaining = [check for check in part if check not in outcomes]
        try:
            finished = subprocess.run(box.wrap([sys.executable, "-I", str(workdir / "worker.py"), *remaining]), cwd=workdir,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      timeout=_worker_seconds(part), check=False)
            reason = f"ended with exit status {finished.returncode}"
        except subprocess.TimeoutExpired:
            reason = f"was stopped after {_worker_seconds(part):.0f} s"
        started = False
        for check in remaining:
            if (results / f"{check}.json").exists():
                try:
                    outcomes[check] = load(results / check)
                except Exception as error:  # noqa: BLE001 - the student's code shares the worker and may spoil its files
                    outcomes[check] = _crash(f"left an unreadable result ({type(error).__name__})")
            elif (results / f"{check}.started").exists():
                outcomes[check], started = _crash(f"{reason} while running this check"), True
        if not started:  # it died before any check began: loading the answer cells ended it
            for check in part:
                outcomes.setdefault(check, _crash(f"{reason} while running your answer cells"))
    return outcomes


def verify(cells: list[dict[str, str]], helpers: Path, slot: int = 0, readable: tuple[Path, ...] = ()) -> dict[str, Verdict]:
    """Every hidden check, probed in sandboxed workers and judged here: check name -> verdict."""
    from autograder.checks import judge

    verdicts: dict[str, Verdict] = {}
    with tempfile.TemporaryDirectory(prefix="kit-verify-") as scratch:
        for part in PARTS:
            for check, outcome in run_part(part, cells, helpers, Path(scratch), slot, readable).items():
                try:
                    note = judge(check, inputs_for(check), outcome)
                except AssertionError as failure:
                    verdicts[check] = Verdict(False, str(failure))
                except Exception as error:  # noqa: BLE001 - a record spoiled by the student's code is not judged
                    verdicts[check] = Verdict(False, f"This check's record from outside the kernel could not be judged "
                                                     f"({type(error).__name__}: {error}); your code changed or broke it.")
                else:
                    verdicts[check] = Verdict(True, note or "")
    return verdicts


def _error_output(text: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename="CheckFailed", evalue=text, traceback=[f"\x1b[0;31mCheckFailed\x1b[0m: {text}"])


def apply_verdict(cell: NotebookNode, verdict: Verdict) -> None:
    """Replace the test cell's outputs with the verdict (an error output costs the cell's points), noting a disagreement."""
    outputs = cell.get("outputs", [])
    kernel_passed = not any(o.get("output_type") == "error" for o in outputs)
    deferred = any(GATE_DEFERRED in "".join(o.get("text", "")) for o in outputs)  # the kernel left this check to us
    text = verdict.text
    if kernel_passed != verdict.passed and not deferred:
        note = NOT_TRUSTED.format(kernel="passed" if kernel_passed else "failed", verdict="passed" if verdict.passed else "failed")
        text = f"{text}\n  {note}" if text else note
    cell.outputs = [_error_output(text)] if not verdict.passed else (
        [NotebookNode(output_type="stream", name="stdout", text=text + "\n")] if text else [])


class VerifyOutsideKernel(NbGraderPreprocessor):
    """Re-run every hidden check outside the kernel, sandboxed; its verdict replaces the kernel's in the test cells."""

    enabled = Bool(True, help="Verify outside the kernel (turn off only to debug the kit itself).").tag(config=True)
    helpers = Unicode("release/{assignment}", help="Folder of the released helper modules given to the worker.").tag(config=True)
    slot = Integer(-1, help="Grading slot (its sandbox user); -1 reads KIT_SANDBOX_SLOT, default 0.").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        helpers = Path(self.helpers.format(assignment=resources["nbgrader"]["assignment"])).resolve()
        if str(helpers) not in sys.path:  # the judges import the course's helpers: the released, trusted copies
            sys.path.insert(0, str(helpers))
        slot = self.slot if self.slot >= 0 else int(os.environ.get("KIT_SANDBOX_SLOT", "0"))
        mnist = os.environ.get("MNIST_DIR")
        self.log.info("Verifying %s outside the kernel", resources["nbgrader"]["student"])
        verdicts = verify(answer_cells(nb), helpers, slot, (Path(mnist),) if mnist else ())
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
            check = grade_id[len("test_"):]
            if cell.cell_type == "code" and grade_id.startswith("test_") and check in verdicts:
                apply_verdict(cell, verdicts[check])
        return nb, resources
