"""The sandboxed worker: load the student's answer cells, run the named probes, save what came as plain data.

Run in the worker's directory as ``python -I worker.py CHECK [CHECK ...]``. It reads
``answer.json`` (the notebook's setup and answer cells) and ``inputs/<check>``,
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

PROBES: dict[str, tuple[str, str]] = {  # check -> (probe module, class the probe exercises)
    "linear_forward": ("layers", "Linear"), "linear_backward_dx": ("layers", "Linear"), "linear_backward_dw": ("layers", "Linear"),
    "linear_backward_db": ("layers", "Linear"), "relu_forward": ("layers", "ReLU"), "relu_backward": ("layers", "ReLU"),
    "cross_entropy_forward": ("layers", "CrossEntropyLoss"), "cross_entropy_backward": ("layers", "CrossEntropyLoss"),
    "sgd_step": ("layers", "SGD"), "mlp_forward": ("mlp", "MLP"), "mlp_backward": ("mlp", "MLP"), "mnist_accuracy": ("gate", "MLP"),
}
PROBE_FUNCTIONS = {"linear_backward_dx": "linear_backward", "linear_backward_dw": "linear_backward", "linear_backward_db": "linear_backward"}


def probe_function(check: str) -> Any:
    module, _ = PROBES[check]
    return getattr(importlib.import_module(f"{__package__}.{module}"), PROBE_FUNCTIONS.get(check, check))


def student_class(check: str) -> str:
    """The class a check exercises (the gate trains the MLP)."""
    return PROBES[check][1]


def load_answer(cells: list[dict[str, str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the answer cells in one namespace, as the kernel does; a cell that raises is recorded and the rest still run."""
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
    namespace, cell_errors = load_answer(json.loads(Path("answer.json").read_text()))
    for check in checks:
        target = results / check
        if target.with_suffix(".json").exists():
            continue
        target.with_suffix(".started").touch()
        cls = namespace.get(student_class(check))
        if not isinstance(cls, type):
            save(target, {"missing_class": student_class(check), "cell_errors": cell_errors})
            continue
        try:
            save(target, {"records": probe_function(check)(cls, load(Path("inputs") / check))})
        except CheckTimeout as timeout:
            save(target, {"timeout": str(timeout)})


if __name__ == "__main__":
    main(sys.argv[1:])
