"""The sandboxed worker: load the student's answer cells, run the named probes, save what came as plain data.

Run in the worker's directory as ``python -I worker.py CHECK [CHECK ...]``. It reads
``answer.json`` (the notebook's setup and answer cells), ``manifest.json`` (each check's probe module, function
and class, from ``autograder.registry.manifest``) and ``inputs/<check>``,
and writes ``results/<check>`` (``probe.core.save``) after marking
``results/<check>.started``; checks with a result are skipped, so a restarted
worker resumes after a crash.
"""

from __future__ import annotations

import importlib
import json
import linecache
import sys
from pathlib import Path
from typing import Any

from .core import CheckTimeout, load, raised, save


def probe_function(entry: dict[str, str]) -> Any:
    """The probe a manifest entry names, from this package."""
    return getattr(importlib.import_module(f"{__package__}.{entry['module']}"), entry["function"])


def load_answer(cells: list[dict[str, str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the answer cells in one namespace, as the kernel does; a cell that raises is recorded and the rest still
    run."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    errors = {}
    for cell in cells:
        filename = f"<cell {cell['grade_id']}>"
        linecache.cache[filename] = (len(cell["source"]), None, cell["source"].splitlines(True), filename)
        try:
            exec(compile(cell["source"], filename, "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - the student's cell may raise anything
            errors[cell["grade_id"]] = raised(error)
    return namespace, errors


STARTED = "kit-worker-started"
"""Printed before any student code runs: a worker that never says it did not start (the grader's fault)."""


def main(checks: list[str]) -> None:
    results = Path("results")
    results.mkdir(exist_ok=True)
    print(STARTED, flush=True)
    manifest = json.loads(Path("manifest.json").read_text())
    namespace, cell_errors = load_answer(json.loads(Path("answer.json").read_text()))
    for check in checks:
        target = results / check
        if target.with_suffix(".json").exists():
            continue
        target.with_suffix(".started").touch()
        entry = manifest[check]
        cls = namespace.get(entry["class"])
        if not isinstance(cls, type):
            save(target, {"missing_class": entry["class"], "cell_errors": cell_errors})
            continue
        try:
            save(target, {"records": probe_function(entry)(cls, load(Path("inputs") / check))})
        except CheckTimeout as timeout:
            save(target, {"timeout": str(timeout)})


if __name__ == "__main__":
    main(sys.argv[1:])
