"""Locks of a course's grading, in its private state (``KitGrading.graded_dir``): ``fcntl`` locks, released by the
kernel when their process ends, even by SIGKILL.

``grading`` is held around every grading of the course (``python -m autograder grade``, the watcher's collect, grade
and release): a second one waits, saying for whom, so two never write the gradebook at once. It is re-entrant within
a process (the watcher holds it while it calls the grade command's pipeline). ``watcher`` is held as long as a
``python -m autograder watch`` runs: a second watcher of the course refuses to start.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

_held: dict[Path, int] = {}
_guard = threading.Lock()


class WatcherRunning(Exception):
    """Another watcher holds the course (its lock file's words say which)."""


def _holder() -> str:
    return f"pid {os.getpid()}: {' '.join(sys.argv) or 'python'}"


def _try(handle: IO[str]) -> bool:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _say_holder(handle: IO[str]) -> None:
    handle.seek(0)
    handle.truncate()
    handle.write(_holder())
    handle.flush()


def _who(path: Path) -> str:
    try:
        return path.read_text().strip() or "another process"
    except OSError:
        return "another process"


@contextmanager
def grading(graded_dir: Path, out: Any = None) -> Iterator[None]:
    """Hold the course's grading lock; while another process holds it, say so once and wait."""
    path = (graded_dir / "grading.lock").resolve()
    with _guard:
        nested = path in _held  # this process holds it already (the watcher, around the grade command's pipeline)
        if nested:
            _held[path] += 1
    if nested:
        try:
            yield
        finally:
            with _guard:
                _held[path] -= 1
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+")
    try:
        if not _try(handle):
            print(f"waiting for {_who(path)} to finish grading this course ...", file=out or sys.stdout, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        _say_holder(handle)
        with _guard:
            _held[path] = 1
        try:
            yield
        finally:
            with _guard:
                _held.pop(path, None)
    finally:
        handle.close()


def watcher(graded_dir: Path) -> IO[str]:
    """Take the course's watcher lock for as long as the returned file stays open; raise ``WatcherRunning`` if
    another watcher has it."""
    path = graded_dir / "watch" / "watch.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+")
    if not _try(handle):
        handle.close()
        raise WatcherRunning(
            f"another watcher already watches this course ({_who(path)}); stop it first, or let it do the work"
        )
    _say_holder(handle)
    return handle
