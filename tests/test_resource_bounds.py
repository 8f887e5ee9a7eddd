"""One submission stops only itself: a worker that uses no CPU, mostly waits or spends its budget is stopped from
outside, and a folder no copy can walk is set aside before nbgrader sees it.

Fast tier: the watch on plain processes (no sandbox: ``/proc`` reads the same) and, rule by rule, on a simulated clock,
the submission folder's walks, the class run's and the report's per-submission isolation. In the sandbox:
``tests/test_sandbox_bounds.py``.
"""

from __future__ import annotations

import ctypes
import errno
import io
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from traitlets.config import Config

from autograder import registry, sandbox
from autograder.grading import class_run, submissions, workers
from autograder.grading.submissions import MAX_DEPTH, Refused, quarantine, refused_files, remove_tree
from autograder.report import similarity
from autograder.settings import CoursePaths, KitGrading

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _remove_deep_folders(tmp_path: Path) -> Iterator[None]:
    """pytest removes its folders with ``shutil.rmtree``, which recurses: the deep ones go first."""
    yield
    from autograder.grading.submissions import remove_tree

    remove_tree(tmp_path)


@pytest.fixture
def deep_tmp(tmp_path: Path) -> Iterator[Path]:
    """A folder for the trees a thousand folders deep: in memory (``/dev/shm``) where there is one, as making and
    removing a thousand folders one in another takes seconds on a disk; else ``tmp_path``."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK | os.X_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="kit-deep-", dir=shm))
    try:
        yield folder
    finally:
        remove_tree(folder)


def _start(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def _watched(code: str, budget: workers.WorkerBudget, cpu: float = 60.0) -> tuple[str, float]:
    process = _start(code)
    start = time.monotonic()
    try:
        stopped = workers._watch(process, cpu, budget)
    finally:
        workers._kill(process)
        process.wait()
    return stopped, time.monotonic() - start


SLEEP = "import time\ntime.sleep(60)"
SPIN = "import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass"


# ------------------------------------------------------------------------------- what the kernel tells from outside


def test_the_machines_waiting_is_the_kernels_and_grows_when_the_cpus_are_oversubscribed() -> None:
    from autograder.grading import pressure

    if pressure.cpu_waiting() is None:
        pytest.skip("this kernel gives no pressure stall information")
    waiting = pressure.Waiting()
    processes = [_start(SPIN.format(seconds=1.0)) for _ in range(2 * (os.cpu_count() or 1) + 1)]
    for process in processes:
        process.wait()
    assert waiting.seconds() > 0.5, waiting.seconds()


def test_without_pressure_information_the_machine_is_taken_as_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.grading import pressure

    monkeypatch.setattr(pressure, "PRESSURE", "/nonexistent/pressure/cpu")
    assert pressure.cpu_waiting() is None and pressure.Waiting().seconds() == 0.0


# --------------------------------------------------------------------------------------------------- the watch


def test_the_rules_constants_are_pinned() -> None:
    kit = KitGrading(config=Config())
    assert (workers.STALL_CPU, workers.IDLE_SHARE) == (0.5, 0.75)
    default = workers.WorkerBudget()
    assert (default.checks_cpu, default.gate_cpu, default.stall, default.wall, default.idle) == (
        kit.worker_checks_cpu_seconds,
        kit.worker_gate_cpu_seconds,
        kit.worker_stall_seconds,
        kit.worker_wall_seconds,
        kit.worker_idle_seconds,
    )
    assert (default.stall, default.idle, default.wall) == (20.0, 120.0, 900.0)
    # a sandbox is one process: these address-space limits bound all it holds besides its sized tmpfs folders
    assert (kit.kernel_memory_mib, kit.worker_memory_mib, kit.kernel_processes, kit.worker_processes) == (
        2048,
        2048,
        64,
        16,
    )


# Two rules on real processes, as the watch reads them from /proc; every rule, its constant and the machine's load are
# pinned below on a simulated clock.


def test_a_worker_that_uses_no_cpu_is_stuck_within_the_stall_window() -> None:
    stopped, seconds = _watched(SLEEP, workers.WorkerBudget(stall=1.0, idle=60.0, wall=60.0))
    assert stopped == "stalled" and 1.0 <= seconds < 3.0, (stopped, seconds)


def test_a_worker_computing_hard_past_the_idle_bound_is_not_stopped_as_idle() -> None:
    """On this machine as it is: what a busy machine keeps it from computing, its pressure figures credit."""
    budget = workers.WorkerBudget(stall=2.0, idle=0.5, wall=60.0)
    stopped, seconds = _watched(SPIN.format(seconds=1.25), budget)
    assert stopped == "" and seconds < 7.5


def test_a_worker_past_its_cpu_budget_is_stopped() -> None:
    stopped, seconds = _watched(SPIN.format(seconds=30), workers.WorkerBudget(stall=20.0, idle=60.0), cpu=1.0)
    assert stopped == "cpu" and seconds < 5.0, (stopped, seconds)


# Each rule on a simulated clock: the worker's CPU seconds a function of the wall seconds, read every 0.25 s as the
# watch reads them; the stop's time pins the rule's comparison and constant exactly, in milliseconds.


class _Simulated:
    """A worker process as the watch sees it: running until it is killed or ``ends`` (wall seconds)."""

    pid = 0

    def __init__(self, clock: dict[str, float], ends: float) -> None:
        self.clock, self.ends, self.killed = clock, ends, False

    def poll(self) -> int | None:
        return 0 if self.killed or self.clock["now"] >= self.ends else None


def _simulated(
    monkeypatch: pytest.MonkeyPatch,
    cpu: Callable[[float], float],
    budget: workers.WorkerBudget,
    cpu_budget: float = math.inf,
    busy: float = 0.0,
    ends: float = 2000.0,
) -> tuple[str, float]:
    """(why the watch stopped a worker using ``cpu(t)`` CPU seconds by wall second t on a machine that kept work
    waiting ``busy`` of the time, when), on a simulated clock."""
    clock = {"now": 0.0}

    def sleep(seconds: float) -> None:
        clock["now"] += seconds

    class Machine:
        def seconds(self) -> float:
            return busy * clock["now"]

    process = _Simulated(clock, ends)
    monkeypatch.setattr(workers, "time", SimpleNamespace(monotonic=lambda: clock["now"], sleep=sleep))
    monkeypatch.setattr(workers, "Waiting", Machine)
    monkeypatch.setattr(workers, "_kill", lambda p: setattr(p, "killed", True))
    monkeypatch.setattr(sandbox, "cpu_seconds", lambda pid: cpu(clock["now"]))
    return workers._watch(process, cpu_budget, budget), clock["now"]  # type: ignore[arg-type]


RULES = workers.WorkerBudget(checks_cpu=math.inf, stall=20.0, idle=120.0, wall=900.0)


@pytest.mark.parametrize("busy", [0.0, 1.0], ids=["quiet-machine", "busy-machine"])
def test_the_stall_rule_looks_at_the_last_window_only_whatever_the_load(
    monkeypatch: pytest.MonkeyPatch, busy: float
) -> None:
    """1 CPU s, then sleep: stuck once the last 20 s held under 0.5 CPU s (at 20.75 s), not at the first 20 s. A
    busy machine slows a worker, it never makes one that uses no CPU at all compute: the load changes nothing."""
    assert _simulated(monkeypatch, lambda t: min(t, 1.0), RULES, busy=busy) == ("stalled", 20.75)


@pytest.mark.parametrize(("per_window", "stopped"), [(0.45, ("stalled", 20.25)), (0.55, ("idle", 120.25))])
def test_a_worker_under_half_a_cpu_second_per_stall_window_is_stuck(
    monkeypatch: pytest.MonkeyPatch, per_window: float, stopped: tuple[str, float]
) -> None:
    assert _simulated(monkeypatch, lambda t: per_window / 20.0 * t, RULES) == stopped


def test_the_cpu_budget_stops_at_the_first_reading_past_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _simulated(monkeypatch, lambda t: t, RULES, cpu_budget=10.0) == ("cpu", 10.25)


@pytest.mark.parametrize(
    ("share", "busy", "stopped"),
    [
        (0.7, 0.0, ("idle", 120.25)),
        (0.8, 0.0, ("", 2000.0)),
        (0.45, 0.35, ("", 2000.0)),
        (0.45, 0.25, ("idle", 120.25)),
    ],
    ids=["computes-70%", "computes-80%", "computes-45%-kept-waiting-35%", "computes-45%-kept-waiting-25%"],
)
def test_past_the_idle_bound_a_worker_must_have_computed_or_waited_three_quarters(
    monkeypatch: pytest.MonkeyPatch, share: float, busy: float, stopped: tuple[str, float]
) -> None:
    budget = workers.WorkerBudget(checks_cpu=math.inf, stall=20.0, idle=120.0, wall=1e9)
    assert _simulated(monkeypatch, lambda t: share * t, budget, busy=busy) == stopped


@pytest.mark.parametrize(("busy", "at"), [(0.0, 900.25), (0.5, 1800.25)])
def test_the_backstop_stops_a_computing_worker_after_900_s_the_machine_did_not_keep_waiting(
    monkeypatch: pytest.MonkeyPatch, busy: float, at: float
) -> None:
    assert _simulated(monkeypatch, lambda t: t, RULES, busy=busy, ends=5000.0) == ("wall", at)


def test_a_worker_of_small_checks_has_120_cpu_seconds_and_the_gate_1800() -> None:
    budget = workers.WorkerBudget()
    (gate,) = [group for group in registry.worker_groups() if registry.check(group[0]).slow]
    assert [budget.cpu(group) for group in registry.worker_groups() if group != gate] == [120.0] * (
        len(registry.worker_groups()) - 1
    )
    assert budget.cpu(gate) == 1800.0


def test_the_courses_watch_settings_reach_the_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.grading import prepare

    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    config.KitGrading.sandbox = False
    settings = {"checks_cpu": 11, "gate_cpu": 12, "stall": 13, "wall": 14, "idle": 15}
    for name, value in settings.items():
        setattr(config.KitGrading, f"worker_{name}_seconds", value)
    CoursePaths(config).release("mlp").mkdir(parents=True)
    monkeypatch.setattr(prepare, "resolve_mnist", lambda kit: tmp_path)
    monkeypatch.setattr(prepare, "_resolved", {})
    monkeypatch.setenv("MNIST_DIR", str(tmp_path))  # preparing sets it for the judge: restored after this test
    grading = prepare.prepare_grading(config, "mlp")
    assert grading.budget == workers.WorkerBudget(**settings)


# ------------------------------------------------------------------------ the sandbox's one process and its figures

BURN_IN_THE_KERNEL = """
import os, time
zero = os.open("/dev/zero", os.O_RDONLY)
while time.process_time() < 0.3:  # nearly all of it system time
    os.read(zero, 1 << 20)
time.sleep(60)
"""


def test_the_cpu_figure_counts_system_time_of_the_processes_below_the_first() -> None:
    """A grandchild's time spent in system calls is the tree's: no CPU hides in the kernel or below bubblewrap."""
    inner = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {BURN_IN_THE_KERNEL!r}])"
    first = _start(inner)
    try:
        deadline = time.monotonic() + 20.0
        while sandbox.cpu_seconds(first.pid) < 0.25 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sandbox.cpu_seconds(first.pid) >= 0.25, sandbox.cpu_seconds(first.pid)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()


def _libc_errno(call: Callable[[ctypes.CDLL], int]) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    return ctypes.get_errno() if call(libc) == -1 else 0


def _under_the_filter() -> dict[str, int]:
    """In a fork of this process with the sandbox's seccomp filter loaded: the errno of each refused call (0: it
    worked), and 0 for a thread that ran."""
    import pickle

    program = sandbox.one_process_filter()  # built here: the child only loads it
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            sandbox._load_filter(program)
            found = {}
            try:
                child = os.fork()
                if child == 0:
                    os._exit(0)
                os.waitpid(child, 0)
                found["fork"] = 0
            except OSError as error:
                found["fork"] = error.errno
            try:
                os.close(os.memfd_create("held"))
                found["memfd_create"] = 0
            except OSError as error:
                found["memfd_create"] = error.errno
            found["shmget"] = _libc_errno(lambda libc: libc.shmget(0, 4096, 0o1600))
            found["clone3"] = _libc_errno(lambda libc: libc.syscall(435, None, ctypes.c_size_t(0)))
            ran: list[bool] = []
            thread = threading.Thread(target=lambda: ran.append(True))
            thread.start()
            thread.join()
            found["thread"] = 0 if ran else -1
            os.write(write, pickle.dumps(found))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.mark.skipif(sys.platform != "linux", reason="seccomp is Linux's")
def test_the_filter_refuses_every_way_to_a_second_process_or_memory_outside_and_runs_threads() -> None:
    refused = _under_the_filter()
    assert refused == {
        "fork": errno.EPERM,
        "memfd_create": errno.EPERM,
        "shmget": errno.EPERM,
        "clone3": errno.ENOSYS,  # the C library then falls back to clone, whose flags the filter reads
        "thread": 0,
    }


def test_the_launcher_sets_every_limit_on_the_sandboxs_process(tmp_path: Path) -> None:
    limits = sandbox.Limits(
        cpu_seconds=77, memory_bytes=3 << 30, processes=33, file_bytes=5 << 20, open_files=99, tmp_bytes=1 << 20
    )
    box = sandbox.Sandbox(workdir=tmp_path, limits=limits, isolated=False)
    show = (
        "import resource as r, json; print(json.dumps([r.getrlimit(getattr(r, n))[0] for n in "
        "('RLIMIT_CPU', 'RLIMIT_AS', 'RLIMIT_NPROC', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE', 'RLIMIT_CORE')]))"
    )
    done = subprocess.run(box.wrap([sandbox.PYTHON, "-c", show]), capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [77, 3 << 30, 33, 5 << 20, 99, 0]
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != 3 << 30  # set there, not here


def test_a_stop_costs_the_check_with_its_own_message() -> None:
    from autograder.judge.records import WorkerReport

    run = workers.WorkerRun(WorkerReport(started=True), "idle", "")
    outcome = workers.crash(workers._why(run, workers.WorkerBudget(), 1.0), 1, "idle")
    assert outcome.crash  # a crash: verify's control runs the course's solution before the student is charged
    assert "waiting rather than computing" in str(outcome.failure)


# ------------------------------------------------------------------------------------------- submission folders


def _nest(folder: Path, depth: int, name: str = "d") -> None:
    """``depth`` folders inside each other under ``folder``, made relative to open folders (the path may be too long
    for the system)."""
    current = os.open(folder, os.O_RDONLY)
    for _ in range(depth):
        if not os.path.lexists(f"/proc/self/fd/{current}/{name}"):
            os.mkdir(name, dir_fd=current)
        inner = os.open(name, os.O_RDONLY, dir_fd=current)
        os.close(current)
        current = inner
    os.close(os.open("deepest.txt", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=current))
    os.close(current)


def _paths(tmp_path: Path) -> CoursePaths:
    config = Config()
    config.CourseDirectory.root = str(tmp_path / "course")
    return CoursePaths(config)


def test_a_folder_nested_too_deep_is_found_without_recursion(deep_tmp: Path) -> None:
    folder = deep_tmp / "submission"
    folder.mkdir()
    (folder / "mlp.ipynb").write_text("{}")
    _nest(folder, 1500)
    _nest(folder, 1, "long")
    _nest(folder / "long", 20, "x" * 60)
    found = refused_files(folder)
    assert Refused("/".join(["d"] * MAX_DEPTH), "deep") in found
    assert any(r.path.startswith("long/") and r.kind == "deep" for r in found), found
    assert len(found) == 2


def test_the_folder_limits_are_the_documented_ones() -> None:
    """docs/trust-and-sandbox.md: folders nested more than 32 deep, paths over 1,024 bytes, entries beyond 10,000."""
    assert (submissions.MAX_DEPTH, submissions.MAX_PATH, submissions.MAX_ENTRIES) == (32, 1024, 10_000)


def test_a_file_whose_path_is_too_long_is_set_aside_in_a_folder_that_is_not(tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    inner = folder / "f" / ("x" * 200) / ("y" * 200) / ("z" * 200)  # 605 bytes of path
    inner.mkdir(parents=True)
    (inner / ("n" * 250)).write_text("")  # 856 bytes
    (inner / ("l" * 250)).mkdir()
    (inner / ("l" * 250) / ("m" * 200)).write_text("")  # 1,057 bytes
    assert refused_files(folder) == [Refused(f"{(inner / ('l' * 250) / ('m' * 200)).relative_to(folder)}", "deep")]


def test_entries_beyond_the_limit_are_set_aside_and_the_notebook_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 100)
    folder = tmp_path / "submission"
    (folder / "many").mkdir(parents=True)
    for k in range(100 + 5):
        (folder / "many" / f"a{k:06}").write_text("")
    (folder / "mlp.ipynb").write_text("{}")
    found = refused_files(folder)
    assert len(found) == 7 and {r.kind for r in found} == {"many"}
    assert not any(r.path == "mlp.ipynb" for r in found)


def test_a_name_with_odd_bytes_is_shown_readably(tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    os.symlink("/etc/passwd", os.path.join(os.fsencode(folder), b"bad\xff\xfe"))
    (found,) = refused_files(folder)
    assert found.kind == "symlink" and found.shown == "bad\\xff\\xfe"
    found.shown.encode("utf-8")  # printable, and savable in a notebook


def test_quarantine_moves_a_deep_folder_aside_again_and_again(deep_tmp: Path) -> None:
    paths = _paths(deep_tmp)
    folder = paths.submitted("deep", "mlp")
    folder.mkdir(parents=True)
    (folder / "mlp.ipynb").write_text("{}")
    for _ in range(2):  # the second time, last run's deep folder is where this one goes
        _nest(folder, 1100)
        note, line = quarantine(paths, "mlp", "deep")
        assert refused_files(folder) == []
        assert "nested too deep" in note and "32" in note
    assert sorted(p.name for p in folder.iterdir()) == ["d", "mlp.ipynb"]
    assert (paths.graded_dir() / "refused" / "mlp" / "deep" / "d").is_dir()
    assert submissions._fingerprint(paths, "mlp", "deep")


def test_remove_tree_removes_what_rmtree_cannot(deep_tmp: Path) -> None:
    import shutil

    _nest(deep_tmp, 1100, "nnnn")  # 5,500 bytes of path: longer than the system takes
    with pytest.raises((RecursionError, OSError)):
        shutil.rmtree(deep_tmp / "nnnn")
    remove_tree(deep_tmp / "nnnn")
    assert list(deep_tmp.iterdir()) == []


def test_one_submission_that_cannot_be_made_gradable_stops_only_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _paths(tmp_path)
    real = class_run.quarantine

    def quarantine(paths: CoursePaths, assignment: str, student: str) -> tuple[str, str] | None:
        if student == "broken":
            raise OSError(36, "File name too long")
        return real(paths, assignment, student)

    for student in ("alice", "broken", "carol"):
        paths.submitted(student, "mlp").mkdir(parents=True)
    monkeypatch.setattr(class_run, "quarantine", quarantine)
    monkeypatch.setattr(class_run, "repair", lambda *args: None)
    out = io.StringIO()
    failed = class_run.make_gradable(paths, "mlp", "mlp.ipynb", ["alice", "broken", "carol"], out)
    assert list(failed) == ["broken"] and failed["broken"].kind == "grader"
    assert "File name too long" in failed["broken"].detail and "broken: NOT GRADED" in out.getvalue()


def test_a_failure_around_one_autograde_stops_only_that_submission(tmp_path: Path) -> None:
    from autograder.grading.autograde import Attempt

    def attempt(student: str) -> Attempt:
        if student == "broken":
            raise UnicodeEncodeError("utf-8", "x", 0, 1, "surrogates not allowed")
        return Attempt(None, 0.1, "")

    run = class_run.ClassRun(_paths(tmp_path), "mlp", attempt, 2, 3, io.StringIO())
    run.grade_all(["alice", "broken", "carol"], 2)
    assert run.results == {"alice": True, "broken": False, "carol": True}
    assert "UnicodeEncodeError" in run.faults["broken"].detail


# ----------------------------------------------------------------------------------------------------- the report


@pytest.mark.parametrize(
    "notebook",
    [
        {"cells": [{"cell_type": "code", "metadata": {"nbgrader": {"solution": True}}, "source": [1, 2]}]},
        {"cells": {"not": "a list"}},
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["source-of-numbers", "cells-a-dict", "nested-100000-deep"],
)
def test_a_submitted_notebook_that_cannot_be_read_has_no_answer_code(tmp_path: Path, notebook: object) -> None:
    path = tmp_path / "mlp.ipynb"
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook))
    assert similarity.answer_code(path) == ""


def test_code_the_tokeniser_fails_on_is_compared_as_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    import copydetect.utils

    def fails(*args: object, **kwargs: object) -> None:
        raise RecursionError("too deep")

    monkeypatch.setattr(copydetect.utils, "filter_code", fails)
    assert similarity.normalised("x = 1") == ""
