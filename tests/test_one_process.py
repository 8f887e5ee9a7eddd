"""A sandbox is one process: every way of starting another, or of holding memory outside it, is refused by the kernel,
as root and as an ordinary user, isolated or not; threads and NumPy run. So its own limits and CPU time cover it all.

Each attempt is one line of Python run inside a sandbox; ``ATTEMPTS`` says what each must give.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_grading_anywhere import _as_user, _python_for

from autograder import sandbox

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")]
REPO = Path(__file__).resolve().parents[1]

REFUSED = {
    "os.fork": "os.fork()",
    "os.posix_spawn": "os.posix_spawn('/bin/true', ['true'], {})",
    "subprocess": "subprocess.run(['true'])",
    "multiprocessing": "multiprocessing.get_context('fork').Process(target=print).start()",
    "multiprocessing spawn": "multiprocessing.get_context('spawn').Process(target=print).start()",
    "libc fork": "libc.fork()",
    "libc vfork": "libc.vfork()",
    "raw clone, no CLONE_THREAD": "libc.syscall(56, 17, 0, 0, 0, 0)",  # SIGCHLD: fork by clone
    "raw clone3": "libc.syscall(435, 0, 0)",
    "x32 fork": "libc.syscall(0x40000000 + 57)",
    "shmget": "libc.shmget(0, 1 << 30, 0o1000 | 0o600)",  # IPC_CREAT: SysV shared memory
    "memfd_create": "libc.memfd_create(b'kit', 0)",
}
"""Attempts that must fail: a raised OSError, or -1 from libc."""
ATTEMPT = """
import ctypes, json, multiprocessing, os, subprocess, sys, threading
import numpy as np
libc = ctypes.CDLL(None, use_errno=True)
said = {}
for name, code in json.loads(sys.argv[1]).items():
    try:
        result = eval(code)
        if result == 0 and name.endswith("fork"):
            os._exit(0)  # a child: it must never print
        said[name] = "refused" if result == -1 else f"ran: {result!r}"
    except OSError as error:
        said[name] = "refused"
    except Exception as error:
        said[name] = f"{type(error).__name__}: {error}"
threads = [threading.Thread(target=lambda: np.ones((200, 200)) @ np.ones((200, 200))) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
said["threads and NumPy"] = "ran"
print(json.dumps(said))
"""
SCRIPT = """
import subprocess, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from autograder import sandbox
box = sandbox.Sandbox(workdir=Path({work!r}), readable=sandbox.python_paths(), isolated={isolated!r})
box.prepare()
done = subprocess.run(box.wrap([sandbox.PYTHON, "-c", {attempt!r}, {attempts!r}]), capture_output=True, text=True)
print(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr)
"""
RUNS = {"as root or this user": (False, True), "as an ordinary user": (True, True), "without isolation": (False, False)}


@pytest.fixture(scope="module")
def said() -> dict[str, dict[str, str]]:
    """What each run's sandbox said of every attempt."""
    found = {}
    for run, (user, isolated) in RUNS.items():
        if user and os.geteuid() != 0:
            continue  # this user is the ordinary user: the first run covers it
        folder = Path(tempfile.mkdtemp(prefix="kit-one-process-"))
        try:
            folder.chmod(0o755)
            prefix, env, _ = _as_user() if user else ([], {}, Path.home())
            if user:
                subprocess.run(["chown", f"{env['USER']}:", str(folder)], check=True)
            python = _python_for(prefix, env, folder) if user else sys.executable
            script = folder / "attempt.py"
            script.write_text(
                SCRIPT.format(
                    repo=str(REPO),
                    work=str(folder / "work"),
                    isolated=isolated,
                    attempt=ATTEMPT,
                    attempts=json.dumps(REFUSED),
                )
            )
            done = subprocess.run(
                [*prefix, python, str(script)], env={**os.environ, **env}, capture_output=True, text=True, timeout=120
            )
            try:
                found[run] = json.loads(done.stdout.strip().splitlines()[-1])
            except (ValueError, IndexError):
                found[run] = {"error": done.stdout + done.stderr}
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return found


@pytest.mark.parametrize("run", list(RUNS))
@pytest.mark.parametrize("attempt", list(REFUSED))
def test_no_process_and_no_memory_outside_it_can_be_had(
    said: dict[str, dict[str, str]], run: str, attempt: str
) -> None:
    if run not in said:
        pytest.skip("this user is the ordinary user: the first run covers it")
    assert said[run].get(attempt) == "refused", said[run]


@pytest.mark.parametrize("run", list(RUNS))
def test_threads_and_numpy_run(said: dict[str, dict[str, str]], run: str) -> None:
    if run not in said:
        pytest.skip("this user is the ordinary user: the first run covers it")
    assert said[run].get("threads and NumPy") == "ran", said[run]


def test_the_filter_refuses_exactly_what_it_declares() -> None:
    """Pinned: a call taken off ``REFUSED_CALLS`` (or the errno changed) changes the filter's program."""
    assert sandbox.REFUSED_CALLS == ("fork", "vfork", "shmget", "memfd_create")
    assert sandbox.NO_PROCESS_ERRNO == 1 and sandbox.CLONE_THREAD == 0x10000
    program = sandbox.one_process_filter()
    assert len(program) % 8 == 0 and len(program) > 8 * 10


def test_the_sandboxs_cpu_is_all_that_it_ran(tmp_path: Path) -> None:
    """Its threads' CPU time, the exited ones' too, is in the figure read from outside while it runs."""
    code = """
import threading, time
def spin():
    end = time.thread_time() + 0.6
    while time.thread_time() < end:
        pass
for _ in range(3):  # one after another: each has ended before the next starts
    thread = threading.Thread(target=spin)
    thread.start()
    thread.join()
print("done", flush=True)
time.sleep(1.5)
"""
    box = sandbox.Sandbox(workdir=tmp_path / "work", readable=sandbox.python_paths())
    box.prepare()
    process = subprocess.Popen(box.wrap([sandbox.PYTHON, "-c", code]), stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "done"
    time.sleep(0.5)
    live = sandbox.cpu_seconds(process.pid)
    process.wait()
    assert 1.8 <= live <= 3.5, live
