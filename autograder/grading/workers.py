"""Running one group of checks (run together: ``registry.worker_groups``) in sandboxed workers, watched from outside,
and reading back what they report.

A worker (``autograder/probe/run.py``) runs beside the student's code, so everything about it is hostile input:

- its program (the worker, the probes, the helpers, the hidden inputs, the answer cells) is a folder that is
  read-only inside the sandbox, and its working folder is a size-limited tmpfs that exists only inside: nothing a
  worker writes reaches the host's disk, and the grader reads no file the worker wrote;
- it reports through its standard output alone: a line saying it started, then frames (what it is loading, which
  check it begins, each result), read here with caps on every size (``autograder.judge.records``); anything else on
  that stream ends the reading and costs the check that was running;
- it is watched from outside, where student code cannot catch or stop the watch: stopped when it stalls (waiting
  for something that never comes), when it spends its CPU budget, when it has run for minutes mostly waiting (a
  little CPU now and then: ``WorkerBudget.idle``), or, the machine's fault, after a wall-clock backstop; its memory
  is the kernel's to bound (the sandbox is one process: ``RLIMIT_AS``, and tmpfs folders of fixed sizes).

``run_group`` returns each check's outcome (``autograder.judge.outcome.WorkerOutcome``, read from the worker's record
and checked here, once); whose fault a failure is, is decided by ``verify`` (the control).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder import registry, sandbox
from autograder.faults import GraderFault
from autograder.grading import stage
from autograder.grading.pressure import Waiting
from autograder.judge.inputs import inputs_for
from autograder.judge.outcome import WorkerOutcome
from autograder.judge.records import RecordRefused, WorkerReport, decode_record, read_report
from autograder.student_text import student_text

if TYPE_CHECKING:  # the course's helpers are importable once the grading is prepared (``grading.prepare``)
    from autograder.course.nn_messages import Text

GRADER_PACKAGE = Path(__file__).resolve().parents[1]
PROBE_DIR = GRADER_PACKAGE / "probe"
COURSE_DIR = GRADER_PACKAGE / "course"
WORKER = """import sys
from autograder.probe.run import main
main(sys.argv[1:])
"""
WORKER_PACKAGE = '"""What a sandboxed worker has of the grader: ``probe`` and ``course`` (copies), never a judge."""\n'
STALL_CPU = 0.5
"""CPU seconds a worker must use in each ``stall`` window. Waiting code (sleep, input) uses none, whatever the load; a
computing worker uses this much even on a machine so busy that 80 processes share each CPU."""
IDLE_SHARE = 0.75
"""Share of its time a worker past ``WorkerBudget.idle`` must have computed or been kept waiting by a busy machine
(``pressure``). A correct solution's worker computes all the time (0.94 for the reference's gate, start-up
included; 0.99 for float64 with einsum, measured)."""


@dataclass(frozen=True)
class WorkerBudget:
    """How long a worker may take, judged from outside the sandbox (student code cannot catch or stop this)."""

    checks_cpu: float = 120.0  # CPU seconds of the worker of a group of small checks (the sandbox is one process)
    gate_cpu: float = 1800.0  # backstop of the MNIST gate's worker: its speed rule (``grading.pace``) stops it first
    stall: float = 20.0  # wall seconds in which a worker using under STALL_CPU seconds of CPU is stopped as stuck
    wall: float = 900.0  # wall seconds, less the machine's waiting, after which a computing worker is the machine's
    idle: float = 120.0  # wall seconds after which a worker that computed under IDLE_SHARE of them is stopped

    def cpu(self, group: tuple[str, ...]) -> float:
        return self.gate_cpu if any(registry.check(name).slow for name in group) else self.checks_cpu


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
    disk_bytes: int = 256 << 20  # the worker's working folder, a tmpfs inside its sandbox
    language: str = "en"  # of the assignment's edition: what the notebook's outputs are written in
    student: str = ""  # whose submission: the hidden inputs are drawn for this student (``inputs.inputs_for``)


@dataclass(frozen=True)
class WorkerRun:
    report: WorkerReport  # what the worker said on its standard output
    stopped: str  # "" (it ended by itself), "stalled", "cpu" (its budget), "idle" or "wall" (the machine's)
    reason: str  # how it ended, for the instructor (a grader fault)
    status: int | None = None  # its exit status
    speed: dict[str, Any] | None = None  # the gate's speed, measured from outside (``grading.pace.SpeedWatch.finish``)


def prepare(
    folder: Path, group: tuple[str, ...], cells: list[dict[str, str]], helpers: Path, student: str = ""
) -> tuple[Path, Path]:
    """The worker's two folders: ``program`` (read-only in the sandbox: the worker; an ``autograder`` package holding
    this group's probes and a copy of the course helpers the grader uses, which the probes import and whose bare names
    the answer cells then find; the release's helpers, ``nn_core`` among them; the answer cells, manifest and hidden
    inputs) and ``work`` (empty: a tmpfs inside
    the sandbox)."""
    from autograder.probe.core import save

    program, work = folder / "program", folder / "work"
    manifest = registry.manifest(group)
    package = program / "autograder"
    (package / "probe").mkdir(parents=True)
    (package / "__init__.py").write_text(WORKER_PACKAGE)
    shutil.copytree(COURSE_DIR, package / "course", ignore=shutil.ignore_patterns("__pycache__"))
    (program / "inputs").mkdir()
    work.mkdir()
    (program / "answer.json").write_text(json.dumps(cells))
    (program / "manifest.json").write_text(json.dumps(manifest))
    (program / "worker.py").write_text(WORKER)
    for helper in [*helpers.glob("*.py"), *helpers.glob("nn_*.json")]:  # the modules, and the data they read
        shutil.copy(helper, program / helper.name)
    others = {check.probe.split(".")[0] for check in registry.CHECKS} - {e["module"] for e in manifest.values()}
    for path in PROBE_DIR.glob("*.py"):  # the support modules and this group's probes; other groups' stay out
        if path.stem not in others:
            shutil.copy(path, package / "probe" / path.name)
    for check in group:
        save(program / "inputs" / check, inputs_for(check, student))
    for root, _, files in os.walk(program):  # readable by the sandbox's user (nobody, under root), never writable
        os.chmod(root, 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    return program, work


def crash(reason: Text, attempts: int, how: str = "") -> WorkerOutcome:
    """The outcome of a check whose worker ended (or was stopped: ``how``) while running it: a failure."""
    from autograder import messages as say
    from autograder.course.nn_messages import Failure

    cause = {
        "": say.WORKER_ENDED_CAUSE,
        "stalled": say.WORKER_STALLED_CAUSE,
        "cpu": say.WORKER_CPU_CAUSE,
        "idle": say.WORKER_IDLE_CAUSE,
        "spoiled": say.WORKER_SPOILED_CAUSE,
    }[how]
    if attempts == 1:
        message = say.NOT_FINISHED(reason=reason)
    elif attempts == 2:
        message = say.NOT_FINISHED_TWICE(reason=reason)
    else:
        message = say.NOT_FINISHED_TIMES(reason=reason, count=attempts)
    return WorkerOutcome(failure=Failure(message, cause), crash=True)


def refused(why: str) -> WorkerOutcome:
    """The outcome of a record the trusted side would not read: it was not what the probe writes."""
    from autograder import messages as say
    from autograder.course.nn_messages import Failure

    failure = Failure(say.RECORD_REFUSED(problem=why[:300]), say.RECORD_CHANGED_CAUSE)
    return WorkerOutcome(failure=failure, crash=True)


def unjudgeable(problem: str) -> WorkerOutcome:
    """The outcome of a record read within its caps but not one the probe writes (a forged failure or cell errors);
    verify's control decides whose fault it is."""
    from autograder import messages as say
    from autograder.course.nn_messages import Failure

    return WorkerOutcome(failure=Failure(say.RECORD_UNJUDGEABLE(problem=problem)), crash=True)


def _why(run: WorkerRun, budget: WorkerBudget, cpu_budget: float) -> Text:
    """How a worker that started ended, for the student."""
    from autograder import messages as say

    if run.report.spoiled:
        return say.WORKER_SPOILED(problem=run.report.spoiled)
    if run.stopped == "stalled":
        return say.WORKER_STALLED(seconds=f"{budget.stall:g}")
    if run.stopped == "cpu":
        return say.WORKER_CPU(seconds=f"{cpu_budget:g}")
    if run.stopped == "idle":
        return say.WORKER_IDLE(seconds=f"{budget.idle:g}")
    return say.WORKER_EXIT(status=run.status)


def run_worker(
    box: sandbox.Sandbox,
    program: Path,
    checks: list[str],
    cpu_budget: float,
    budget: WorkerBudget,
    gate: dict[str, Any] | None = None,
    asides: bool = True,
) -> WorkerRun:
    """Run the worker on ``checks`` and read its report, watching it from outside: stopped when it stalls, spends its
    CPU budget, or (the machine's fault) outlives the wall-clock backstop. For the MNIST gate (``gate``: its hidden
    inputs), its CPU time is also set against the grader's own training, run beside it (``grading.pace``). Without
    ``asides``, its probes never run the student's code aside (``probe.core.ASIDES``)."""
    from autograder.grading.pace import Pace, SpeedWatch
    from autograder.judge.gate_reference import steps_of
    from autograder.probe.run import NO_ASIDES, STARTED

    log = box.workdir.parent / "worker.stderr"
    reports: list[WorkerReport] = []
    live = WorkerReport()
    # The gate's pace first: one that cannot start is the grader's fault, and no worker is left running then.
    pace = Pace(gate["hidden"], gate["batch"]) if gate is not None else None
    with log.open("wb") as err, pace or contextlib.nullcontext():
        flags = [] if asides else [NO_ASIDES]
        process = subprocess.Popen(
            box.wrap([sandbox.PYTHON, *sandbox.ISOLATED, str(program / "worker.py"), *flags, *checks]),
            cwd=box.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            start_new_session=True,
        )

        def read() -> None:
            reports.append(read_report(process.stdout, STARTED.encode(), report=live))
            process.stdout.close()  # a worker that breaks the format gets no further reading: its writes fail

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        speed, observe = None, None
        if pace is not None and gate is not None:
            steps = steps_of(gate, len(gate["orders"][0]))
            speed = SpeedWatch(pace, gate["max_slowdown"], steps, live, lambda: _kill(process))
            observe = functools.partial(_gate_reading, speed, live, steps, itertools.count())
        try:
            stopped = _watch(process, cpu_budget, budget, observe)
            process.wait()
        except BaseException:
            _kill(process)
            process.wait()
            raise
        finally:
            measured = speed.finish() if speed is not None else None
        reader.join(timeout=10)
    report = reports[0] if reports else WorkerReport(spoiled="its report could not be read in time")
    run = WorkerRun(report, stopped, "", process.returncode, measured)
    # for the instructor: what the student is told, in English; the backstop is never the student's
    reason = f"was still running after {budget.wall:g} s" if stopped == "wall" else str(_why(run, budget, cpu_budget))
    if not report.started:
        reason = f"{reason}: {log.read_text(errors='replace').strip()[-500:]}"
    return dataclasses.replace(run, reason=reason)


def _watch(
    process: subprocess.Popen, cpu_budget: float, budget: WorkerBudget, observe: Callable[[float], None] | None = None
) -> str:
    """Wait for ``process``; stop it (and say why) when it spends its CPU budget, uses almost no CPU for
    ``budget.stall`` seconds, has mostly waited for ``budget.idle`` seconds, or outlives the backstop. Its CPU is the
    kernel's figure for the whole sandbox, which is one process; ``observe``, if given, gets each reading (the
    gate's speed rule)."""
    start, machine = time.monotonic(), Waiting()
    history: list[tuple[float, float]] = []  # (wall, CPU) samples of the last stall window
    while process.poll() is None:
        time.sleep(0.25)
        now, used, waited = time.monotonic() - start, sandbox.cpu_seconds(process.pid), machine.seconds()
        used = max(used, history[-1][1] if history else 0.0)  # 0 from a sandbox that ended since ``poll``: no stall
        if observe is not None:
            observe(used)
        history.append((now, used))
        while len(history) > 1 and history[1][0] <= now - budget.stall:
            history.pop(0)
        stopped = ""
        if used > cpu_budget:
            stopped = "cpu"
        # Stuck means using no CPU, whatever the load: a busy machine gives a computing worker far more than this.
        elif now >= budget.stall and history[0][0] <= now - budget.stall and used - history[0][1] < STALL_CPU:
            stopped = "stalled"
        # Past ``idle``, only a worker that mostly slept is the student's: the time a busy machine kept work waiting
        # for a CPU counts as computing.
        elif now > budget.idle and used + min(waited, now) < IDLE_SHARE * now:
            stopped = "idle"
        elif now - min(waited, now) > budget.wall:
            stopped = "wall"
        if stopped:
            _kill(process)
            return stopped
    return ""


def _gate_reading(speed: Any, live: WorkerReport, steps: int, polls: Iterator[int], used: float) -> None:
    """A reading of the gate's worker: for its speed rule, and about once a second the stage the grade command shows
    (``grading.stage``: the step its worker says it reached, its word: shown, never judged)."""
    speed.observe(used)
    if next(polls) % 4 == 0:
        stage.report(stage.Stage("gate", max(0, min(live.progress, steps)), steps))


def _kill(process: subprocess.Popen) -> None:
    """Kill the sandbox: its first process (bubblewrap dies with it, and every process in its PID namespace)."""
    for kill in (lambda: os.killpg(process.pid, signal.SIGKILL), process.kill):
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass


def run_group(
    group: tuple[str, ...], cells: list[dict[str, str]], grading: Grading, scratch: Path
) -> dict[str, WorkerOutcome]:
    """Run one group's probes in sandboxed workers, retrying crashes in fresh workers; return each check's outcome.

    A check whose worker stalled, spent its CPU budget or broke its report's format costs the student at once (ended
    while running the student's code aside, it runs again first, without that: ``probe.core.ASIDES``); one
    whose worker ended by itself costs it after ``grading.attempts`` such ends (a kill from outside happens once);
    the answer cells' own crash costs every check left. Whether the student is really at fault is decided by the
    control in ``verify``.
    """
    try:
        program, workdir = prepare(scratch / group[0], group, cells, grading.helpers, grading.student)
    except OSError as error:
        raise GraderFault(f"could not prepare the worker's folder in {scratch} ({error})") from error
    box = sandbox.Sandbox(
        workdir=workdir,
        readable=(*sandbox.python_paths(), program, *([grading.mnist] if grading.mnist else [])),
        hidden=(GRADER_PACKAGE,),
        limits=grading.limits,
        isolated=grading.isolated,
        disk_bytes=grading.disk_bytes,
        env={"OPENBLAS_NUM_THREADS": "1", "MNIST_DIR": str(grading.mnist or "")},
    )
    outcomes: dict[str, WorkerOutcome] = {}
    crashes: dict[str | None, int] = {}
    failed_starts = 0
    asides = True
    while len(outcomes) < len(group):
        remaining = [check for check in group if check not in outcomes]
        if not grading.isolated:  # without a sandbox the working folder is the host's: start each worker afresh
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir()
        box.prepare()
        gate = inputs_for(group[0], grading.student) if registry.check(group[0]).slow else None
        run = run_worker(box, program, remaining, grading.budget.cpu(group), grading.budget, gate, asides)
        if run.stopped == "wall":
            raise GraderFault(f"a sandboxed worker {run.reason}: this machine is too busy to grade now")
        if run.stopped == "cpu" and gate is not None:
            # The speed rule, limit x the grader's training measured beside it, stops a too-slow gate worker before
            # this fixed backstop wherever the grader's own training is fast enough for the backstop: reaching it
            # says that this machine is not, which is no fault of the student's.
            raise GraderFault(
                f"the MNIST gate's worker {run.reason} within its speed limit (KitGrading.worker_gate_cpu_seconds "
                f"is too low for {gate['max_slowdown']:g} times the grader's own training on this machine)"
            )
        if not run.report.started:
            failed_starts += 1
            if failed_starts >= grading.start_attempts:
                raise GraderFault(f"the sandboxed worker could not start ({run.reason})")
            continue
        if run.speed is not None and run.speed["too_slow_at"] is not None:  # stopped from outside: too slow
            outcomes[group[0]] = WorkerOutcome(measured=run.speed)
            continue
        running = _collect(remaining, run.report, outcomes)
        if run.speed is not None and group[0] in outcomes and not outcomes[group[0]].crash:
            # the trusted side's numbers, whatever the worker recorded
            outcomes[group[0]] = dataclasses.replace(outcomes[group[0]], measured=run.speed)
        if running == "":  # every check read has its outcome; the rest run in a fresh worker
            continue
        if run.report.aside and asides and not run.report.spoiled:
            # Ended (stopped, or by itself) while the student's code ran aside, only to help a diagnosis (a layer run
            # for the MLP's check): the check decides again in a fresh worker without that run, on its own code alone.
            asides = False
            continue
        crashes[running] = crashes.get(running, 0) + 1
        how = "spoiled" if run.report.spoiled else run.stopped
        attempts = 1 if how else grading.attempts
        if crashes[running] >= attempts:
            reason = _why(run, grading.budget, grading.budget.cpu(group))
            where = _while(running, run.report, reason)
            for check in [running] if running else remaining:
                outcomes[check] = crash(where, attempts, how)
    return outcomes


def _collect(remaining: list[str], report: WorkerReport, outcomes: dict[str, WorkerOutcome]) -> str | None:
    """Read the results of ``remaining`` in order into ``outcomes``; return the check that was running when the
    worker ended (None: none had begun, the answer cells were running), or "" when there is none to blame: all were
    read, or reading stopped at a refused record (its check has that outcome)."""
    for check in remaining:
        if check in report.results:
            try:  # bounded and checked before anything is decompressed
                record = decode_record(*report.results[check], Path(check))
            except RecordRefused as error:
                outcomes[check] = refused(error.reason)
                return ""
            try:  # every value the worker gave, checked once, here
                outcomes[check] = WorkerOutcome.from_record(record)
            except ValueError as error:
                outcomes[check] = unjudgeable(student_text(f"{type(error).__name__}: {error}"))
        elif check in report.begun:
            return check
        else:
            return None if check == remaining[0] else check
    return ""


def _while(running: str | None, report: WorkerReport, reason: Text) -> Text:
    """Where the worker was when it ended: running a check, or loading the answer cells (a cell id of the registry, as
    it said, or none)."""
    from autograder import messages as say

    if running:
        return say.WHILE_CHECK(reason=reason)
    if report.loading in registry.answer_cells():
        return say.WHILE_CELL(reason=reason, cell=repr(report.loading))
    return say.WHILE_CELLS(reason=reason)
