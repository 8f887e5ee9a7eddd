"""While grading, a sandbox is one process (``autograder.sandbox``'s filter): this audit hook says so where student code
starts another, before the system call fails unexplained. Untrusted side: installed in every worker and the grading
kernel before any student code (the filter holds without it). May import: the standard library only."""

from __future__ import annotations

import sys

EVENTS = frozenset({"os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "subprocess.Popen"})
"""Python's audit events of every way it starts a process (``multiprocessing`` and ``os.spawn*`` go through them)."""


class NotWhileGrading(PermissionError):
    """Starting a process while grading: the grading sandbox runs one process."""


def _refuse(event: str, args: tuple) -> None:
    __tracebackhide__ = True  # IPython's and the helpers' tracebacks show the student's line, not this one
    if event in EVENTS:
        raise NotWhileGrading(
            f"{event}: starting another process is not allowed while grading (your code runs in one process "
            "there); it works in your own notebook"
        )


def install() -> None:
    """Refuse, with that sentence, every start of a process from now on in this interpreter."""
    sys.addaudithook(_refuse)
