"""One submission stops only itself: a worker that mostly waits, or holds too much memory, is stopped from outside, and
a folder no copy can walk is set aside before nbgrader sees it.

Fast tier: the watch on plain processes (no sandbox: ``/proc`` reads the same), the submission folder's walks, the
class run's and the report's per-submission isolation. In the sandbox: ``tests/test_sandbox_bounds.py``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from traitlets.config import Config

from autograder.grading import class_run, process_tree, submissions, workers
from autograder.grading.submissions import MAX_DEPTH, Refused, quarantine, refused_files, remove_tree
from autograder.report import similarity
from autograder.settings import CoursePaths, KitGrading

REPO = Path(__file__).resolve().parents[1]
TRICKLE = """
import time
while True:
    end = time.process_time() + 0.6
    while time.process_time() < end:
        pass
    time.sleep(3)
"""
FORKED_MEMORY = """
import os, time
for _ in range(4):
    if os.fork() == 0:
        block = bytearray(os.urandom(1 << 20)) * {mib}  # touched: resident, not a zero page
        time.sleep(60)
        os._exit(0)
time.sleep(60)
"""
MEMFD = """
import os, time
files = [os.memfd_create("f") for _ in range(4)]
for fd in files:
    os.write(fd, os.urandom(1 << 20) * {mib})
time.sleep(60)
"""


@pytest.fixture(autouse=True)
def _remove_deep_folders(tmp_path: Path) -> Iterator[None]:
    """pytest removes its folders with ``shutil.rmtree``, which recurses: the deep ones go first."""
    yield
    from autograder.grading.submissions import remove_tree

    remove_tree(tmp_path)


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


def _memory_reaches(code: str, least: int) -> bool:
    """Whether ``tree_memory`` of ``code``'s process reaches ``least`` bytes within 10 seconds."""
    process = _start(code)
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if process_tree.tree_memory(process.pid) >= least:
                return True
            time.sleep(0.1)
        return False
    finally:
        workers._kill(process)
        process.wait()


# ------------------------------------------------------------------------------------- what /proc tells from outside


def test_forked_childrens_memory_is_summed_over_the_whole_tree() -> None:
    assert _memory_reaches(FORKED_MEMORY.format(mib=64), 4 * 60 << 20)


def test_memory_in_anonymous_files_counts() -> None:
    assert _memory_reaches(MEMFD.format(mib=48), 4 * 45 << 20)


def test_a_computing_process_is_runnable_all_the_time_even_on_a_busy_machine() -> None:
    """Time spent waiting for a CPU counts: four processes computing on this machine's cores at once."""
    processes = [_start("while True: pass") for _ in range(max(4, 2 * (os.cpu_count() or 1)))]
    try:
        time.sleep(2.5)
        shares = [process_tree.tree_runnable(p.pid) / process_tree.tree_cpu(p.pid) for p in processes]
        runnable = [process_tree.tree_runnable(p.pid) for p in processes]
    finally:
        for process in processes:
            workers._kill(process)
            process.wait()
    assert all(r > 2.0 for r in runnable), runnable  # ~2.5 s each, though each had a fraction of a CPU
    assert max(shares) > 1.5, shares


LOWER_PRIORITY = {
    "nice": "os.nice(19)",
    "sched_idle": "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))",
}
"""Two ways student code can lower its own priority below the worker's."""


@pytest.mark.parametrize("lower", LOWER_PRIORITY)
def test_waiting_at_a_lowered_priority_earns_no_credit(lower: str) -> None:
    if lower == "nice" and os.nice(0) >= 19:  # run under `nice -n 19`: a child cannot go lower than the tests
        pytest.skip("the tests already run at the lowest priority nice can give")
    hog = [_start("while True: pass") for _ in range(2 * (os.cpu_count() or 1))]
    niced = _start(f"import os\nif os.fork() == 0:\n    {LOWER_PRIORITY[lower]}\n    while True: pass\nos.wait()")
    try:
        time.sleep(2.5)
        runnable, cpu = process_tree.tree_runnable(niced.pid), process_tree.tree_cpu(niced.pid)
    finally:
        for process in (*hog, niced):
            workers._kill(process)
            process.wait()
    assert runnable - cpu < 0.2, (runnable, cpu)


# --------------------------------------------------------------------------------------------------- the watch


def test_a_worker_that_trickles_cpu_is_stopped_at_the_idle_bound_not_the_backstop() -> None:
    budget = workers.WorkerBudget(stall=10.0, idle=3.0, wall=60.0)  # the sandbox's test has the real stall rule
    stopped, seconds = _watched(TRICKLE, budget)
    assert stopped == "idle"
    assert 3.0 <= seconds < 8.0, seconds


def test_a_worker_computing_hard_past_the_idle_bound_is_not_stopped_as_idle() -> None:
    budget = workers.WorkerBudget(stall=2.0, idle=1.0, wall=60.0)
    stopped, seconds = _watched("import time\nend = time.time() + 2.5\nwhile time.time() < end: pass", budget)
    assert stopped == "" and seconds < 15.0


def test_a_worker_a_busy_machine_keeps_waiting_is_not_stopped_as_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    # A machine so busy that the worker gets no CPU at all in a stall window (its CPU clock stands still) while it
    # is ready to run: stuck is the student's, waiting for a CPU is the machine's (verdicts must not depend on load).
    monkeypatch.setattr(workers, "tree_cpu", lambda pid: 0.0)
    budget = workers.WorkerBudget(stall=1.0, idle=60.0, wall=60.0)
    stopped, seconds = _watched("import time\nend = time.time() + 2.5\nwhile time.time() < end: pass", budget)
    assert stopped == "" and seconds < 15.0


def test_a_tree_over_the_memory_bound_is_stopped() -> None:
    budget = workers.WorkerBudget(memory=128 << 20, stall=30.0)
    stopped, seconds = _watched(FORKED_MEMORY.format(mib=48), budget)
    assert stopped == "memory" and seconds < 20.0


def test_the_memory_bound_reaches_the_workers_and_says_what_it_is() -> None:
    kit = KitGrading(config=Config())
    assert kit.worker_sandbox_memory_mib * (1 << 20) == workers.WorkerBudget().memory
    assert kit.worker_idle_seconds == workers.WorkerBudget().idle
    assert workers.WorkerBudget().idle < workers.WorkerBudget().wall / 4


@pytest.mark.parametrize("how", ["idle", "memory"])
def test_a_stop_costs_the_check_with_its_own_message(how: str) -> None:
    from autograder.judge.records import WorkerReport

    run = workers.WorkerRun(WorkerReport(started=True), how, "")
    outcome = workers.crash(workers._why(run, workers.WorkerBudget(), 1.0), 1, how)
    said = str(outcome.failure)
    assert outcome.crash  # a crash: verify's control runs the course's solution before the student is charged
    assert {"idle": "waiting rather than computing", "memory": "2048 MiB of memory"}[how] in said


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


def test_a_folder_nested_too_deep_is_found_without_recursion(tmp_path: Path) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "mlp.ipynb").write_text("{}")
    _nest(folder, 1500)
    _nest(folder, 1, "long")
    _nest(folder / "long", 20, "x" * 60)
    found = refused_files(folder)
    assert Refused("/".join(["d"] * MAX_DEPTH), "deep") in found
    assert any(r.path.startswith("long/") and r.kind == "deep" for r in found), found
    assert len(found) == 2


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


def test_quarantine_moves_a_deep_folder_aside_again_and_again(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
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


def test_remove_tree_removes_what_rmtree_cannot(tmp_path: Path) -> None:
    import shutil

    _nest(tmp_path, 1100, "nnnn")  # 5,500 bytes of path: longer than the system takes
    with pytest.raises((RecursionError, OSError)):
        shutil.rmtree(tmp_path / "nnnn")
    remove_tree(tmp_path / "nnnn")
    assert list(tmp_path.iterdir()) == []


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
