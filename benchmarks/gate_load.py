"""Benchmark of the MNIST gate's speed rule on an idle and on a loaded machine. Not a unit test.

Usage (MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/gate_load.py [--busy 4] [--repeats 1] [--variants reference einsum64 ...]

Each submission variant is the reference solution with a few edits (the catalogue's and the speed tests'); each
gate runs as in grading: the gate's worker in the sandbox (``workers.run_group``), watched from outside, its CPU time
set against the grader's own training run beside it (``autograder.grading.pace``), then judged. First on the idle
machine, then with ``--busy`` processes spinning (``while True: pass``, each ending by itself after
``--busy-seconds`` and killed when the loaded runs are done). The table gives each gate's verdicts, wall and CPU
seconds as median (min–max) over the repetitions, the median wall time as a multiple of the reference's in the same
state of the machine, and what the rule measured: the worker's CPU time over the grader's training of the same steps.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # nn_core, mnist_data: as the worker sees them
sys.path.insert(0, str(REPO))
os.environ.setdefault("MLP_GRADER_SECRET", "gate-load-benchmark")

sys.path.insert(0, str(REPO / "tests"))  # the catalogue's edits


def _variants() -> dict[str, tuple[tuple[Any, ...], str]]:
    """name -> (edits of the solution notebook, description)."""
    from test_gate_speed_rule import FLOAT64_PARAMETERS, LOOPS

    from catalogue.mistakes import MISTAKES, VARIANTS

    einsum = next(v.edits for v in VARIANTS if v.name == "linear_einsum")
    return {
        "reference": ((), "the reference solution (float32, x @ W)"),
        "einsum64": (einsum + FLOAT64_PARAMETERS, "float64 + np.einsum Linear"),
        "float64": (FLOAT64_PARAMETERS, "float64 Linear, x @ W"),
        "per_sample_loop": (LOOPS["per_sample_forward"][0] + LOOPS["per_sample_dw"][0], "Python loop over samples"),
        "per_entry_forward": (LOOPS["per_entry_forward"][0], "per-entry Python loop in Linear.forward only"),
        "per_entry_loop": (
            next(m.edits for m in MISTAKES if m.name == "linear_python_loops"),
            "catalogue linear_python_loops (per-entry loops, forward and backward)",
        ),
    }


NAMES = ("reference", "einsum64", "float64", "per_sample_loop", "per_entry_forward", "per_entry_loop")
DEFAULT = ("reference", "einsum64", "per_sample_loop", "per_entry_forward", "per_entry_loop")


def one_gate(name: str) -> dict[str, Any]:
    """Run the gate on one variant as grading does (sandboxed worker, the pace beside it, the judge here)."""
    import tempfile

    import nbformat

    from autograder.classroom import apply_edits
    from autograder.grading import verify, workers
    from autograder.judge.gate import speed_of

    edits, _ = _variants()[name]
    text = apply_edits((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text(), edits)
    cells = verify.answer_cells(nbformat.reads(text, as_version=4))
    grading = workers.Grading(helpers=REPO / "release" / "mlp", mnist=Path(os.environ["MNIST_DIR"]).resolve())
    wall = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        outcome = workers.run_group(("mnist_accuracy",), cells, grading, Path(scratch))["mnist_accuracy"]
    wall = time.perf_counter() - wall
    verdict = verify._judge("mnist_accuracy", outcome)
    measured = outcome.measured or {}
    times = speed_of(measured)[0] if measured else None
    return {
        "passed": verdict.passed,
        "verdict": str(verdict.failure or verdict.note).splitlines()[0],
        "wall": wall,
        "cpu": measured.get("cpu", float("nan")),
        "slowdown": times if measured.get("too_slow_at") is None else (measured.get("too_slow") or {}).get("times"),
        "lines": "stopped early" if measured.get("too_slow_at") is not None else "",
    }


def run_child(name: str) -> dict[str, Any]:
    """One gate in a fresh process, on one BLAS thread as in the worker."""
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, __file__, "--one", name], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        return {
            "passed": False,
            "verdict": f"CRASHED: {done.stderr.strip().splitlines()[-1:]}",
            "wall": float("nan"),
            "cpu": float("nan"),
            "slowdown": None,
            "lines": "",
        }
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(names: list[str], repeats: int, condition: str) -> list[dict[str, Any]]:
    """Every variant ``repeats`` times, interleaved (reference first in each round)."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for _ in range(repeats):
        for name in names:
            runs[name].append(run_child(name))
            print(f"{condition}: {name}: {runs[name][-1]}", file=sys.stderr, flush=True)
    return [{"name": name, "condition": condition, "results": results} for name, results in runs.items()]


def spread(values: list[float], digits: int = 1) -> str:
    """``median (min–max)``, or the one value."""
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def table(rows: list[dict[str, Any]]) -> None:
    """One Markdown row per variant and machine state; wall × reference compares medians in the same state."""
    print(
        "| variant | machine | verdict (n) | gate wall s | gate CPU s | wall × reference | × the grader's training "
        "| message |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    reference = {
        row["condition"]: statistics.median(r["wall"] for r in row["results"])
        for row in rows
        if row["name"] == "reference"
    }
    for row in rows:
        results = row["results"]
        verdicts = "/".join(sorted({"pass" if r["passed"] else "FAIL" for r in results}))
        walls, cpus = [r["wall"] for r in results], [r["cpu"] for r in results]
        slowdowns = [r["slowdown"] for r in results if r["slowdown"] is not None]
        measured = f"{spread(slowdowns)}×" if slowdowns else results[-1]["lines"]
        message = results[-1]["verdict"].replace("|", "/")
        print(
            f"| {_variants()[row['name']][1]} | {row['condition']} | {verdicts} ({len(results)}) | {spread(walls)} "
            f"| {spread(cpus)} | {statistics.median(walls) / reference[row['condition']]:.2f} | {measured} "
            f"| {message[:90]}{'…' if len(message) > 90 else ''} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT), choices=list(NAMES))
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--busy", type=int, default=4, help="spinning processes in the loaded runs (default 4)")
    parser.add_argument(
        "--busy-seconds", type=float, default=1800.0, help="each spinning process ends itself after this (default 1800)"
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_gate(args.one)))
        return
    names = ["reference", *(n for n in args.variants if n != "reference")]
    start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    loads = [os.getloadavg()[0]]
    rows = measure(names, args.repeats, "idle")
    loads.append(os.getloadavg()[0])
    spin = f"import time\nend = time.monotonic() + {args.busy_seconds}\nwhile time.monotonic() < end: pass"
    busy = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(args.busy)]
    try:
        time.sleep(5)
        loads.append(os.getloadavg()[0])
        rows += measure(names, args.repeats, f"{args.busy} busy")
        loads.append(os.getloadavg()[0])
    finally:
        for process in busy:
            process.kill()
            process.wait()
    print(
        f"date: {start}; {os.cpu_count()} cores; numpy {np.__version__}; load average (1 min) before idle runs "
        f"{loads[0]:.1f}, after {loads[1]:.1f}; loaded runs: at start {loads[2]:.1f}, at end {loads[3]:.1f}\n"
    )
    table(rows)


if __name__ == "__main__":
    main()
