"""Benchmark of the MNIST gate's speed rule on an idle and on a loaded machine. Not a unit test.

Usage (MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/gate_load.py [--busy 4] [--repeats 1] [--variants reference einsum64 ...]

Each submission variant below is a small set of classes; each gate (probe and
judge, in one process, one BLAS thread as in the worker) runs in a fresh child
process, first on the idle machine, then with ``--busy`` processes spinning
(``while True: pass``, each ending by itself after ``--busy-seconds`` and
killed when the loaded runs are done). The table gives each gate's verdicts,
wall and CPU seconds as median (min–max) over the repetitions, the median wall
time as a multiple of the reference's in the same state of the machine, and
what the rule measured: the slowdown (median CPU ratio of the variant's
training step to the grader's NumPy step, measured alternately with it) or the
Python lines one step ran for 4 and for 32 rows.
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

from nn_core import Module, Parameter  # noqa: E402


class Linear(Module):
    """The reference solution's Linear."""

    def __init__(
        self, in_features: int, out_features: int, rng: np.random.Generator | None = None, dtype: Any = np.float32
    ) -> None:
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features), dtype)
        self.b = Parameter(np.zeros(out_features), dtype)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x
        return x @ self.W + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        x = self.ctx["x"]
        self.W.grad = x.T @ grad
        self.b.grad = grad.sum(axis=0)
        return grad @ self.W.T


class EinsumLinear64(Linear):
    """float64 parameters, every product and sum with np.einsum (default: no optimize, no BLAS)."""

    def __init__(self, in_features: int, out_features: int, rng: np.random.Generator | None = None) -> None:
        super().__init__(in_features, out_features, rng, np.float64)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x  # float32 images against float64 W: einsum casts as it goes
        return np.einsum("bi,io->bo", x, self.W) + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        x = self.ctx["x"]
        self.W.grad = np.einsum("bi,bo->io", x, grad)
        self.b.grad = np.einsum("bo->o", grad)
        return np.einsum("bo,io->bi", grad, self.W)


class Float64Linear(Linear):
    """float64 parameters and matrix products (BLAS dgemm)."""

    def __init__(self, in_features: int, out_features: int, rng: np.random.Generator | None = None) -> None:
        super().__init__(in_features, out_features, rng, np.float64)


class BroadcastLinear(Linear):
    """Products as broadcast (B, D_in, D_out) temporaries summed over an axis: no loop, much memory traffic."""

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x
        return (x[:, :, None] * self.W[None]).sum(axis=1) + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        x = self.ctx["x"]
        self.W.grad = (x[:, :, None] * grad[:, None, :]).sum(axis=0)
        self.b.grad = grad.sum(axis=0)
        return (grad[:, None, :] * self.W[None]).sum(axis=2)


class PerSampleLinear(Linear):
    """A Python loop over the samples, forward and backward: x[i] @ W, outer products for dW."""

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x
        return np.stack([x[i] @ self.W for i in range(x.shape[0])]) + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        x = self.ctx["x"]
        self.W.grad = sum(np.outer(x[i], grad[i]) for i in range(x.shape[0]))
        self.b.grad = grad.sum(axis=0)
        return np.stack([grad[i] @ self.W.T for i in range(grad.shape[0])])


class PerEntryLinear(Linear):
    """The catalogue's linear_python_loops: each output entry in a Python loop (forward only)."""

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x
        out = np.array([[x[i] @ self.W[:, j] for j in range(self.W.shape[1])] for i in range(x.shape[0])])
        return out + self.b


class ReLU(Module):
    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["mask"] = x > 0
        return np.maximum(x, 0)

    def backward(self, grad: np.ndarray) -> np.ndarray:
        return grad * self.ctx["mask"]


def mlp_with(linear: type) -> type:
    """The reference MLP built from ``linear``."""

    class MLP(Module):
        def __init__(
            self, input_dim: int, hidden_dim: int, num_classes: int, rng: np.random.Generator | None = None
        ) -> None:
            super().__init__()
            rng = np.random.default_rng() if rng is None else rng
            self.fc1, self.relu = linear(input_dim, hidden_dim, rng=rng), ReLU()
            self.fc2 = linear(hidden_dim, num_classes, rng=rng)

        def forward(self, x: np.ndarray) -> np.ndarray:
            return self.fc2(self.relu(self.fc1(x)))

        def backward(self, grad: np.ndarray) -> np.ndarray:
            return self.fc1.backward(self.relu.backward(self.fc2.backward(grad)))

    return MLP


VARIANTS: dict[str, tuple[type, str]] = {
    "reference": (Linear, "the reference solution (float32, x @ W)"),
    "einsum64": (EinsumLinear64, "float64 + np.einsum Linear"),
    "per_sample_loop": (PerSampleLinear, "Python loop over samples (x[i] @ W; outer products)"),
    "per_entry_loop": (PerEntryLinear, "catalogue linear_python_loops (per-entry loop)"),
    "float64": (Float64Linear, "float64 Linear, x @ W"),
    "broadcast": (BroadcastLinear, "broadcast (B, D_in, D_out) temporaries"),
}
DEFAULT = ("reference", "einsum64", "per_sample_loop", "per_entry_loop")


def one_gate(name: str) -> dict[str, Any]:
    """Run the gate (probe, then judge) on one variant in this process; what came, as JSON-able data."""
    from autograder.judge.checks import judge
    from autograder.judge.inputs import inputs_for
    from autograder.probe.gate import mnist_accuracy

    inputs = inputs_for("mnist_accuracy")
    wall, cpu = time.perf_counter(), time.process_time()
    records = mnist_accuracy(mlp_with(VARIANTS[name][0]), inputs)
    try:
        verdict, passed = judge("mnist_accuracy", inputs, {"records": records}), True
    except AssertionError as failure:
        verdict, passed = str(failure), False
    record = records[0]
    speed = record.get("speed") or record.get("too_slow") or {}
    loop = record.get("python_loop")
    lines = (
        (
            f"Python lines per step: {loop['lines'][0]} for {loop['rows'][0]} rows, {loop['lines'][1]} for "
            f"{loop['rows'][1]} ({', '.join(loop['where'])})"
        )
        if loop
        else ""
    )
    return {
        "passed": passed,
        "verdict": verdict.splitlines()[0],
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "slowdown": speed.get("slowdown"),
        "lines": lines,
    }


def run_child(name: str) -> dict[str, Any]:
    """One gate in a fresh process, on one BLAS thread as in the worker."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
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
        "| variant | machine | verdict (n) | gate wall s | gate CPU s | wall × reference | slowdown measured "
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
            f"| {VARIANTS[row['name']][1]} | {row['condition']} | {verdicts} ({len(results)}) | {spread(walls)} "
            f"| {spread(cpus)} | {statistics.median(walls) / reference[row['condition']]:.2f} | {measured} "
            f"| {message[:90]}{'…' if len(message) > 90 else ''} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT), choices=list(VARIANTS))
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
