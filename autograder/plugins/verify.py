"""Grades decided outside the student's process: every hidden check run in a sandboxed worker, judged here.

``VerifyOutsideKernel`` is an nbgrader preprocessor that runs after the kernel
(and before ``SaveAutoGrades``). For the notebook being graded it

1. takes the setup and answer cells (nbgrader has restored the locked ones),
2. for each part, starts a worker in a sandbox (``autograder.sandbox``) whose
   directory holds only those cells, the course's released helper modules, the
   probe modules of that part and the part's hidden inputs,
3. judges what the worker recorded here, in the nbgrader process, which never
   runs student code (``autograder.judge.checks.judge``: reference, finite
   differences, MNIST accuracy),
4. writes the verdict into each test cell's outputs, which ``SaveAutoGrades``
   turns into points (the kernel ran only a stand-in of each check).

Whose fault a failure is decides what it costs. The student's code raising,
looping, running out of memory or ending its process costs the check it was
running, once the same thing happened in a fresh worker too. A failure that is
not the student's raises ``GraderFault`` and no grade is written: MNIST missing
or corrupt, a sandbox that cannot start, a full disk, a worker killed from
outside (it does not happen again), or anything that also fails for the
course's own solution (the reference, run as a control).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool

from autograder import registry, sandbox
from autograder.faults import GraderFault
from autograder.judge import secret
from autograder.judge.inputs import inputs_for
from autograder.judge.records import RecordRefused, read_regular_file, read_result
from autograder.plugins.course_data import resolve_mnist
from autograder.settings import CoursePaths

PROBE_DIR = Path(__file__).resolve().parents[1] / "probe"
PREPARED_ENV = "KIT_GRADING_PREPARED"
"""Set by ``autograder.cli.grade`` for the nbgrader processes it starts: what it already resolved and validated
(JSON: course root, assignment, MNIST folder, sandbox), so each process does not validate MNIST and start a test
sandbox again."""
GRADER_PACKAGE = Path(__file__).resolve().parents[1]
WORKER = """import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe.run import main
main(sys.argv[1:])
"""
UNSANDBOXED_NOTE = (
    "**Note from the grader.** This notebook was graded without a sandbox "
    "(`KitGrading.sandbox = False` in the course's configuration)."
)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    text: str  # the failure message, or the line to show on success (may be empty)


@dataclass(frozen=True)
class WorkerBudget:
    """How long a worker may take, judged from outside the sandbox (student code cannot catch or stop this)."""

    checks_cpu: float = 120.0  # CPU seconds of the small parts' worker, all its processes together
    gate_cpu: float = 200.0  # CPU seconds of the MNIST gate's worker
    stall: float = 20.0  # wall seconds in which a worker using under STALL_CPU seconds of CPU is stopped as stuck
    wall: float = 900.0  # wall seconds after which a worker still computing means the machine cannot keep up

    def cpu(self, part: tuple[str, ...]) -> float:
        return self.gate_cpu if any(registry.check(name).slow for name in part) else self.checks_cpu


STALL_CPU = 0.5
"""CPU seconds a worker must use in each ``stall`` window: waiting code (sleep, input, a sleeping child) uses none."""


@dataclass(frozen=True)
class Grading:
    """Where and how workers run: everything the trusted side resolved before the first student."""

    helpers: Path  # the released helper modules (trusted copies)
    mnist: Path | None
    isolated: bool = True
    scratch: str | None = None
    secret: str = ""  # where the grading secret is (a file, or the environment variable)
    limits: sandbox.Limits = sandbox.Limits()  # of each sandboxed worker (``KitGrading.worker_*``)
    attempts: int = 2  # a crash costs the student only if it happens this often, each time in a fresh worker
    start_attempts: int = 3  # a worker that never starts is retried, then grading stops: the grader's fault
    budget: WorkerBudget = WorkerBudget()


def answer_cells(nb: NotebookNode) -> list[dict[str, str]]:
    """The setup and answer cells, in notebook order: all the code the worker runs."""
    cells = []
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in registry.answer_cells():
            cells.append({"grade_id": grade_id, "source": cell.source})
    return cells


def _prepare(folder: Path, part: tuple[str, ...], cells: list[dict[str, str]], helpers: Path) -> tuple[Path, Path]:
    """The worker's two folders: ``program`` (read-only in the sandbox: the worker, this part's probes, the trusted
    helpers, answer cells, manifest and hidden inputs) and ``work`` (writable: its results)."""
    from autograder.probe.core import save

    program, work = folder / "program", folder / "work"
    manifest = registry.manifest(part)
    (program / "probe").mkdir(parents=True)
    (program / "inputs").mkdir()
    work.mkdir()
    (program / "answer.json").write_text(json.dumps(cells))
    (program / "manifest.json").write_text(json.dumps(manifest))
    (program / "worker.py").write_text(WORKER)
    for helper in helpers.glob("*.py"):
        shutil.copy(helper, program / helper.name)
    for module in {"__init__", "core", "run", *(entry["module"] for entry in manifest.values())}:
        shutil.copy(PROBE_DIR / f"{module}.py", program / "probe" / f"{module}.py")
    for check in part:
        save(program / "inputs" / check, inputs_for(check))
    for root, _, files in os.walk(program):  # readable by the sandbox's user (nobody, under root), never writable
        os.chmod(root, 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    return program, work


def _crash(reason: str, attempts: int) -> dict[str, Any]:
    times = "" if attempts == 1 else (", twice" if attempts == 2 else f", {attempts} times in a row")
    return {
        "crash": True,
        "timeout": "This check could not finish: the worker process running your code "
        f"{reason}{times}.\n  Likely cause: your code ended the process, ran too long or used too much memory.",
    }


@dataclass(frozen=True)
class WorkerRun:
    started: bool  # the worker said it started: a failure from here on may be the student's
    stopped: str  # "" (it ended by itself), "stalled", "cpu" (its CPU budget) or "wall" (the machine's fault)
    reason: str  # how it ended, for a person


def _tree_cpu(pid: int) -> float:
    """CPU seconds used by ``pid`` and every process below it (live ones, and the children they have reaped)."""
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        cpu[int(entry.name)] = sum(int(f) for f in fields[11:15]) / tick  # utime, stime, cutime, cstime
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        total += cpu.get(current, 0.0)
        stack.extend(children.get(current, ()))
    return total


def _run_worker(
    box: sandbox.Sandbox, program: Path, checks: list[str], cpu_budget: float, budget: WorkerBudget
) -> WorkerRun:
    """Run the worker on ``checks``, watching it from outside: stopped when it stalls, spends its CPU budget, or
    (the machine's fault) outlives the wall-clock backstop."""
    from autograder.probe.run import STARTED

    log = box.workdir.parent / "worker.stderr"
    first_line: list[bytes] = []
    with log.open("wb") as err:
        process = subprocess.Popen(
            box.wrap([sandbox.PYTHON, "-I", str(program / "worker.py"), *checks]),
            cwd=box.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            start_new_session=True,
        )
        # The worker prints STARTED, then sends its output nowhere: one bounded line is all this side reads.
        reader = threading.Thread(target=lambda: first_line.append(process.stdout.readline(64)), daemon=True)
        reader.start()
        start = time.monotonic()
        history: list[tuple[float, float]] = []  # (wall, CPU) samples
        stopped = ""
        while process.poll() is None:
            time.sleep(0.25)
            now, used = time.monotonic() - start, _tree_cpu(process.pid)
            history.append((now, used))
            while len(history) > 1 and history[1][0] <= now - budget.stall:
                history.pop(0)
            if used > cpu_budget:
                stopped = "cpu"
            elif history[0][0] <= now - budget.stall and used - history[0][1] < STALL_CPU and now >= budget.stall:
                stopped = "stalled"
            elif now > budget.wall:
                stopped = "wall"
            if stopped:
                _kill(process)
                break
        process.wait()
        reader.join(timeout=5)
        process.stdout.close()
    started = bool(first_line) and first_line[0].startswith(STARTED.encode())
    reason = {
        "": f"ended with exit status {process.returncode}",
        "stalled": f"used almost no CPU for {budget.stall:g} s (it waited for something that never came)",
        "cpu": f"used its {cpu_budget:g} s of CPU time",
        "wall": f"was still running after {budget.wall:g} s",
    }[stopped]
    if not started:
        reason = f"{reason}: {log.read_text(errors='replace').strip()[-500:]}"
    return WorkerRun(started, stopped, reason)


def _kill(process: subprocess.Popen) -> None:
    """Kill the sandbox: its first process (bubblewrap dies with it, and every process in its PID namespace)."""
    for kill in (lambda: os.killpg(process.pid, signal.SIGKILL), process.kill):
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass


def run_part(part: tuple[str, ...], cells: list[dict[str, str]], grading: Grading, scratch: Path) -> dict[str, dict]:
    """Run one part's probes in sandboxed workers, retrying crashes in fresh workers; return each check's outcome.

    A check whose worker stalled or spent its CPU budget costs the student at once; one whose worker ended by itself
    costs it after ``grading.attempts`` such ends (a kill from outside happens once); the answer cells' own crash
    costs every check left. Whether the student is really at fault is decided by the control in ``verify``.
    """
    folder = scratch / part[0]
    try:
        program, workdir = _prepare(folder, part, cells, grading.helpers)
    except OSError as error:
        raise GraderFault(f"could not prepare the worker's folder in {scratch} ({error})") from error
    box = sandbox.Sandbox(
        workdir=workdir,
        readable=(*sandbox.python_paths(), program, *([grading.mnist] if grading.mnist else [])),
        hidden=(GRADER_PACKAGE,),
        limits=grading.limits,
        isolated=grading.isolated,
        env={"OPENBLAS_NUM_THREADS": "1", "MNIST_DIR": str(grading.mnist or "")},
    )
    outcomes: dict[str, dict[str, Any]] = {}
    crashes: dict[str | None, int] = {}
    failed_starts, results = 0, workdir / "results"
    while len(outcomes) < len(part):
        remaining = [check for check in part if check not in outcomes]
        shutil.rmtree(results, ignore_errors=True)  # nothing from an earlier run is read again
        box.prepare()
        run = _run_worker(box, program, remaining, grading.budget.cpu(part), grading.budget)
        if run.stopped == "wall":
            raise GraderFault(f"a sandboxed worker {run.reason}: this machine is too busy to grade now")
        if not run.started:
            failed_starts += 1
            if failed_starts >= grading.start_attempts:
                raise GraderFault(f"the sandboxed worker could not start ({run.reason})")
            continue
        running = _collect(remaining, results, outcomes, scratch)
        if running == "":  # every check read has its outcome; the rest run in a fresh worker
            continue
        crashes[running] = crashes.get(running, 0) + 1
        attempts = 1 if run.stopped else grading.attempts
        if crashes[running] >= attempts:
            where = "while running this check" if running else _loading(results)
            for check in [running] if running else remaining:
                outcomes[check] = _crash(f"{run.reason} {where}", attempts)
    return outcomes


def _collect(remaining: list[str], results: Path, outcomes: dict[str, dict], scratch: Path) -> str | None:
    """Read the results of ``remaining`` in order into ``outcomes``; return the check that was running when the worker
    ended (None: none had begun, the answer cells were running), or "" when there is none to blame: all were read, or
    reading stopped at a refused record (the student's code spoiled it; its check has that outcome)."""
    for check in remaining:
        stem = results / check
        if os.path.lexists(stem.with_suffix(".json")):
            try:
                outcomes[check] = read_result(stem)  # bounded and checked before anything is decompressed
            except RecordRefused as error:  # the worker's files are the student's code's to spoil
                outcomes[check] = _refused(check, error.reason)
                return ""
            except OSError as error:  # the reader raises these only for the machine's own failures
                full = error.errno in (errno.ENOSPC, errno.EDQUOT)
                why = f"the disk holding {scratch} is full" if full else f"reading {stem} failed ({error})"
                raise GraderFault(why) from error
        elif os.path.lexists(stem.with_suffix(".started")):
            return check
        else:
            return None if check == remaining[0] else check
    return ""


def _loading(results: Path) -> str:
    """Where the worker was while loading the answer cells, as the worker said (a cell id of the registry, or none)."""
    from autograder.probe.run import LOADING

    try:
        cell = read_regular_file(results / LOADING, 64).decode("ascii", "replace")
    except (RecordRefused, OSError):
        cell = ""
    return (
        f"while running answer cell {cell!r}" if cell in registry.answer_cells() else "while running your answer cells"
    )


def _refused(check: str, why: str) -> dict[str, Any]:
    """The outcome of a record the trusted side would not read: the student's code changed the worker's files."""
    return {
        "crash": True,
        "timeout": f"This check's record could not be read ({why[:300]}).\n"
        "  Likely cause: your code changed or replaced the files the grader's worker writes.",
    }


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
