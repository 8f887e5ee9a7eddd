"""The sandboxed worker: load the definitions of the student's answer cells, run the named probes, save what came.

Run as ``python -I PROGRAM/worker.py [--no-asides] CHECK [CHECK ...]``. ``PROGRAM`` is read-only in the sandbox:
the worker itself, these probes, the course's helpers, ``answer.json`` (the notebook's setup and answer cells),
``manifest.json`` (each check's probe module, function and class, from ``autograder.registry.manifest``) and
``inputs/<check>``. The worker reports on its standard output only: the line ``STARTED``, then frames (a JSON header
line, then its payloads): ``loading`` an answer cell, ``begin`` a check, ``aside`` (``begin``, ``end``: student code
running only to help a diagnosis), and each check's ``result`` (the two files of ``probe.core.encode``). The grader
reads them with caps (``autograder.judge.records.read_report``); what student code prints goes nowhere.

Only the definitions of an answer cell run here (imports, ``def``, ``class`` and assignments): the checks grade
classes, and a training loop, a ``sleep`` or an ``input()`` left at the top level of a cell must not hold the grading.
The notebook says so to students.

Student code shares this process, so nothing reported here is believed as such: the trusted side reads it with bounds
and judges every value against what it computes itself (``autograder.grading.verify``).
"""

from __future__ import annotations

import ast
import importlib
import json
import linecache
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.course.nn_diagnosis import GRADED_STATEMENTS

from . import core, no_processes
from .core import CheckTimeout, encode, load, raised, time_limit, wall_limit
from .messages import LOADING_CELL

LOAD_CPU_SECONDS, LOAD_WALL_SECONDS = 10, 30
"""Limits on running one answer cell's definitions (they take milliseconds: an assignment that computes is stopped)."""
NO_ASIDES = "--no-asides"
"""The worker's first argument when its probes must not run the student's code aside (``core.ASIDES``)."""
STARTED = "kit-worker-started"
"""Printed before any student code runs: a worker that never says it did not start (the grader's fault)."""


def probe_function(entry: dict[str, str]) -> Any:
    """The probe a manifest entry names, from this package."""
    return getattr(importlib.import_module(f"{__package__}.{entry['module']}"), entry["function"])


def definitions(source: str, filename: str) -> Any:
    """The cell compiled with only its top-level definitions (``GRADED_STATEMENTS``, as the public checks name them);
    line numbers kept."""
    tree = ast.parse(source, filename)
    tree.body = [node for node in tree.body if isinstance(node, GRADED_STATEMENTS)]
    return compile(tree, filename, "exec")


def load_answer(
    cells: list[dict[str, str]], starting: Callable[[str], None] = lambda grade_id: None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the cells' definitions in one namespace, as the kernel runs the cells; a cell that raises is recorded and
    the rest still run. The setup cell is the course's own and runs whole. ``starting`` is told each cell's id first."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    errors = {}
    for cell in cells:
        starting(cell["grade_id"])
        filename = f"<cell {cell['grade_id']}>"
        linecache.cache[filename] = (len(cell["source"]), None, cell["source"].splitlines(True), filename)
        what = LOADING_CELL(cell=repr(cell["grade_id"]))
        try:
            code = (
                compile(cell["source"], filename, "exec")
                if cell["grade_id"] == "setup"
                else definitions(cell["source"], filename)
            )
            with wall_limit(what, LOAD_WALL_SECONDS), time_limit(what, LOAD_CPU_SECONDS):
                exec(code, namespace)
        except (Exception, CheckTimeout) as error:  # noqa: BLE001 - the student's cell may raise anything, or run too long
            errors[cell["grade_id"]] = raised(error)
    return namespace, errors


class Channel:
    """The worker's report to the grader: its standard output, kept on a descriptor of its own."""

    def __init__(self) -> None:
        self._out = os.fdopen(os.dup(1), "wb")

    def line(self, text: str) -> None:
        self._out.write(text.encode() + b"\n")
        self._out.flush()

    def send(self, kind: str, name: str, *payloads: bytes) -> None:
        header = json.dumps({"kind": kind, "name": name, "sizes": [len(p) for p in payloads]})
        self._out.write(header.encode() + b"\n" + b"".join(payloads))
        self._out.flush()


def _silence() -> None:
    """From here on, what student code prints goes nowhere: the grader reads only the channel."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def main(checks: list[str]) -> None:
    program = Path(__file__).resolve().parents[2]  # PROGRAM/autograder/probe/run.py
    no_processes.install()
    channel = Channel()
    channel.line(STARTED)
    core.progress = lambda step: channel.send("progress", str(int(step)))
    core.aside = lambda running: channel.send("aside", "begin" if running else "end")
    if checks[:1] == [NO_ASIDES]:
        core.ASIDES, checks = False, checks[1:]
    _silence()
    manifest = json.loads((program / "manifest.json").read_text())
    cells = json.loads((program / "answer.json").read_text())
    namespace, cell_errors = load_answer(cells, lambda cell: channel.send("loading", cell))
    for check in checks:
        channel.send("begin", check)
        entry = manifest[check]
        cls = namespace.get(entry["class"])
        if not isinstance(cls, type):
            outcome: dict[str, Any] = {"missing_class": entry["class"], "cell_errors": cell_errors}
        else:
            try:
                outcome = {"records": probe_function(entry)(cls, load(program / "inputs" / check))}
            except CheckTimeout as timeout:
                outcome = {"stopped": timeout.failure.to_data()}
        channel.send("result", check, *encode(outcome))


if __name__ == "__main__":
    main(sys.argv[1:])
