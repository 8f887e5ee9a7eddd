"""Benchmark of the kit: reference vs PyTorch epoch, MNIST gate, autograde, class throughput, student Run All.

Usage (from anywhere; MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/run.py [--quick] [--repeats N] [--threads 1 2] [--students N] [--only ROW ...]

Prints one Markdown table; each figure is the median of several repetitions
measured in this run (min-max in the next column). Not a unit test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "source" / "mlp"
if str(SOURCE) not in sys.path:
    sys.path.insert(0, str(SOURCE))  # nn_core, nn_checks, mnist_data: as the notebook's kernel sees them

from autograder import classroom, registry  # noqa: E402
from mnist_data import load_mnist, to_vectors  # noqa: E402

SEED, HIDDEN, BATCH, LR = 0, 256, 128, 0.1
WARMUP_STEPS = 10
ROWS = ("epoch", "gate", "autograde", "class", "runall")


@dataclass(frozen=True)
class Settings:
    repeats: int  # in-process rows (epoch, gate)
    slow_repeats: int  # rows that start nbgrader or a kernel
    epoch_images: int  # training images per "epoch" (60,000 unless --quick)
    gate_epochs: int | None  # None: the gate's own recipe
    students: int
    threads: tuple[int, ...]


@dataclass(frozen=True)
class Row:
    name: str
    seconds: list[float] | None  # repetitions; None for a derived figure
    value: str = ""  # shown instead of the median when seconds is None
    note: str = ""


# ----------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------


def load_reference() -> SimpleNamespace:
    """The kit's reference classes, made by executing the solution cells of source/mlp/mlp.ipynb (never a copy)."""
    notebook = json.loads((SOURCE / "mlp.ipynb").read_text())
    cells = {
        c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"])
        for c in notebook["cells"]
        if c["cell_type"] == "code"
    }
    namespace: dict[str, Any] = {"__name__": "mlp_reference"}
    for grade_id in registry.answer_cells():  # exec: the kit's own notebook
        exec(compile(cells[grade_id], f"mlp.ipynb[{grade_id}]", "exec"), namespace)  # noqa: S102
    return SimpleNamespace(**{name: namespace[name] for name in registry.answers().values()})


def repeat(measure: Callable[[], float], times: int) -> list[float]:
    """Seconds of ``times`` calls of ``measure`` (each returns its own seconds)."""
    return [measure() for _ in range(times)]


def stopwatch(action: Callable[[], Any]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def tool_env() -> dict[str, str]:
    """This environment for nbgrader and Jupyter: the venv's bin first (nbgrader calls alembic by name)."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def run_tool(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a command; raise with the tail of its output if it fails."""
    result = subprocess.run(command, cwd=cwd, env=env or tool_env(), check=False, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(
            f"`{' '.join(command)}` failed in {cwd} (exit {result.returncode}):\n{result.stdout[-3000:]}\n"
            f"{result.stderr[-3000:]}"
        )


def header(settings: Settings) -> str:
    """Date, machine, Python, NumPy's BLAS and PyTorch's, as threadpoolctl and torch report them."""
    blas = [
        f"{i['internal_api']} {i['version']} ({i.get('architecture', '?')}, {i['num_threads']} threads by default, "
        f"{Path(i['filepath']).name})"
        for i in threadpool_info()
        if i["user_api"] == "blas"
    ]
    lines = [
        f"date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"machine: {platform.machine()}, {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable), load average "
        f"{load_average()}",
        f"kit: {kit_version()} at {REPO}",
        f"python {platform.python_version()}, numpy {np.__version__}; numpy BLAS: {'; '.join(blas) or 'none found'}",
    ]
    try:
        import torch

        torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
        lines.append(
            f"torch {torch.__version__}, BLAS {torch_blas.group(1) if torch_blas else '?'}, {torch.get_num_threads()} "
            "threads by default"
        )
    except ImportError:
        lines.append("torch: not installed (.venv/bin/pip install -e '.[bench]')")
    lines.append(f"settings: {settings}")
    return "\n".join(lines)


def progress(message: str) -> None:
    """Progress on stderr, so that stdout holds only the header and the table."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def kit_version() -> str:
    """``git describe --always --dirty`` of the measured tree ('unknown' outside a git checkout)."""
    result = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=REPO, check=False, capture_output=True, text=True
    )
    return result.stdout.strip() or "unknown"


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# ----------------------------------------------------------------------------
# 1. One training epoch: reference vs PyTorch
# ----------------------------------------------------------------------------


def reference_epoch(ref: SimpleNamespace, x: np.ndarray, y: np.ndarray, order: np.ndarray) -> tuple[float, Any]:
    """Seconds of one epoch of the kit's classes through their API, and the trained model."""
    model = ref.MLP(x.shape[1], HIDDEN, 10, rng=np.random.default_rng(SEED))
    loss_fn, optimizer = ref.CrossEntropyLoss(), ref.SGD(model.parameters(), lr=LR)
    start = time.perf_counter()
    for i in range(0, len(order), BATCH):
        batch = order[i : i + BATCH]
        loss_fn(model(x[batch]), y[batch])
        optimizer.zero_grad()
        model.backward(loss_fn.backward())
        optimizer.step()
    return time.perf_counter() - start, model


def torch_epoch(ref: SimpleNamespace, x: np.ndarray, y: np.ndarray, order: np.ndarray) -> tuple[float, Any]:
    """Seconds of the same epoch with torch.nn, started from the reference's initial weights, and the trained model."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    init = ref.MLP(x.shape[1], HIDDEN, 10, rng=np.random.default_rng(SEED))
    model = nn.Sequential(nn.Linear(x.shape[1], HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 10))
    with torch.no_grad():
        for layer, source in ((model[0], init.fc1), (model[2], init.fc2)):
            layer.weight.copy_(torch.from_numpy(np.asarray(source.W).T))  # torch stores (out, in)
            layer.bias.copy_(torch.from_numpy(np.asarray(source.b)))
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    xt, yt, order_t = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(order)
    start = time.perf_counter()
    for i in range(0, len(order_t), BATCH):
        batch = order_t[i : i + BATCH]
        loss = F.cross_entropy(model(xt[batch]), yt[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return time.perf_counter() - start, model


def accuracy(predict: Callable[[np.ndarray], np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(predict(x).argmax(axis=1) == y))


def measure_epoch(ref: SimpleNamespace, data, settings: Settings, threads: int) -> list[Row]:
    """Reference and torch epochs alternated (AB BA ...), each after a short warm-up, with the same threads, data order
    and initial weights."""
    import torch

    x, y = to_vectors(data.train_images), data.train_labels.astype(np.int64)
    x_test, y_test = to_vectors(data.test_images), data.test_labels.astype(np.int64)
    order = np.random.default_rng(SEED).permutation(len(x))[: settings.epoch_images]
    times: dict[str, list[float]] = {"reference": [], "torch": []}
    models: dict[str, Any] = {}
    runners = {"reference": reference_epoch, "torch": torch_epoch}
    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with threadpool_limits(limits=threads):  # NumPy's OpenBLAS and torch's OpenMP alike
            for r in range(settings.repeats):
                for name in ("reference", "torch") if r % 2 == 0 else ("torch", "reference"):
                    runners[name](
                        ref, x, y, order[: WARMUP_STEPS * BATCH]
                    )  # untimed: wakes this framework's threads and caches
                    seconds, models[name] = runners[name](ref, x, y, order)
                    times[name].append(seconds)
            with torch.no_grad():
                acc = {
                    "reference": accuracy(lambda a: np.asarray(models["reference"](a)), x_test, y_test),
                    "torch": accuracy(lambda a: models["torch"](torch.from_numpy(a)).numpy(), x_test, y_test),
                }
    finally:
        torch.set_num_threads(previous)
    label = f"{threads} thread{'s' if threads > 1 else ''}"
    what = f"{len(order):,} images, batch {BATCH}, 784-{HIDDEN}-10, float32, SGD lr {LR}"
    ratio = statistics.median(times["reference"]) / statistics.median(times["torch"])
    return [
        Row(
            f"epoch, reference classes ({label})",
            times["reference"],
            note=f"{what}; test accuracy {acc['reference']:.2%}",
        ),
        Row(
            f"epoch, torch.nn ({label})",
            times["torch"],
            note=f"same data order and initial weights; test accuracy {acc['torch']:.2%}",
        ),
        Row(f"epoch ratio reference/torch ({label})", None, f"{ratio:.2f}", "ratio of the medians; goal ≤ 1.0"),
    ]


# ----------------------------------------------------------------------------
# 2. The MNIST gate
# ----------------------------------------------------------------------------


def measure_gate(ref: SimpleNamespace, data, settings: Settings) -> list[Row]:
    """The hidden MNIST gate on the reference MLP, in one process: its probe trains (one BLAS thread), its judge
    measures accuracy."""
    from autograder.judge.checks import judge
    from autograder.judge.inputs import inputs_for
    from autograder.judge.outcome import WorkerOutcome
    from autograder.probe.gate import mnist_accuracy

    inputs = inputs_for("mnist_accuracy")
    epochs = settings.gate_epochs or len(inputs["learning_rates"])
    inputs = {**inputs, "learning_rates": inputs["learning_rates"][:epochs], "orders": inputs["orders"][:epochs]}
    training, verdicts = [], []

    def once() -> float:
        start = time.perf_counter()
        records = mnist_accuracy(ref.MLP, inputs)
        training.append(records[0].get("seconds", float("nan")))
        try:
            verdicts.append(judge("mnist_accuracy", inputs, WorkerOutcome(records=records)))
        except AssertionError as failure:
            verdicts.append(str(failure).splitlines()[0])
        return time.perf_counter() - start

    seconds = repeat(once, settings.repeats)
    load = stopwatch(load_mnist)
    return [
        Row(
            "MNIST gate: probe (training) + judge (accuracy)",
            seconds,
            note=f"{epochs} epoch{'s' if epochs > 1 else ''}, batch {inputs['batch']}, 1 BLAS thread; training alone "
            f"{statistics.median(training):.1f} s; {verdicts[-1]}{' (full recipe: 6 epochs)' if epochs < 6 else ''}",
        ),
        Row("MNIST gate: load_mnist (also part of the gate)", [load], note="one measurement"),
    ]


# ----------------------------------------------------------------------------
# 3. and 4. Autograding with nbgrader
# ----------------------------------------------------------------------------


def copy_course(pristine: Path, destination: Path) -> Path:
    shutil.copytree(pristine, destination)
    return destination


def autograde(course: Path, assignment: str, *students: str) -> float:
    """Seconds of one ``nbgrader autograde ASSIGNMENT --force`` (for the given students, else all submitted)."""
    chosen = [arg for student in students for arg in ("--student", student)]
    return stopwatch(lambda: classroom.nbgrader(course, "autograde", assignment, *chosen, "--force"))


def marks(course: Path, assignment: str = classroom.ASSIGNMENT) -> str:
    """'score S/M', or a warning naming the students below full marks (then the timing graded a broken kit)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s.student.id: (s.score, s.max_score) for s in gradebook.assignment_submissions(assignment)}
    lost = {student: f"{s[0]:g}/{s[1]:g}" for student, s in scores.items() if s[0] < s[1]}
    if lost or not scores:
        return f"WARNING: not full marks: {lost or 'no submission graded'}"
    score, max_score = next(iter(scores.values()))
    return f"score {score:g}/{max_score:g}"


def floor_course(destination: Path) -> Path:
    """A separate minimal nbgrader course: one notebook, one autograded cell `assert 1 + 1 == 2` worth 1 point."""
    import nbformat

    (destination / "source" / "floor").mkdir(parents=True)
    (destination / "nbgrader_config.py").write_text(
        'c = get_config()  # noqa: F821\nc.CourseDirectory.course_id = "floor"\nc.Autograde.create_student = True\n'
    )
    notebook = nbformat.v4.new_notebook(
        metadata={"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    )
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "assert 1 + 1 == 2",
            metadata={
                "nbgrader": {
                    "grade": True,
                    "grade_id": "test_floor",
                    "locked": True,
                    "points": 1,
                    "schema_version": 3,
                    "solution": False,
                    "task": False,
                }
            },
        )
    )
    nbformat.write(notebook, destination / "source" / "floor" / "floor.ipynb")
    classroom.nbgrader(destination, "generate_assignment", "floor", "--force")
    folder = destination / "submitted" / "student" / "floor"
    folder.mkdir(parents=True)
    shutil.copy(destination / "release" / "floor" / "floor.ipynb", folder)
    return destination


def measure_autograde(pristine: Path, work: Path, settings: Settings) -> list[Row]:
    """One full correct submission of the kit, against the floor course, alternated in the same run."""
    course = copy_course(pristine, work / "single")
    classroom.submit(course, "student", (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text())
    floor = floor_course(work / "floor")
    kit, empty = [], []
    for _ in range(settings.slow_repeats):
        kit.append(autograde(course, classroom.ASSIGNMENT, "student"))
        empty.append(autograde(floor, "floor", "student"))
    kit_marks, floor_marks = marks(course), marks(floor, "floor")
    return [
        Row(
            "autograde: one correct mlp submission",
            kit,
            note=f"nbgrader autograde mlp --student X --force; {kit_marks}",
        ),
        Row(
            "autograde: floor (one-cell notebook, one trivial test)",
            empty,
            note=f"separate minimal course; {floor_marks}",
        ),
        Row(
            "autograde: kit cost above the floor",
            None,
            f"{statistics.median(kit) - statistics.median(empty):.1f} s",
            "difference of the medians",
        ),
    ]


def measure_class(pristine: Path, work: Path, settings: Settings) -> list[Row]:
    """N copies of a correct submission graded by ``python -m autograder grade``: one job at a time, then two."""
    course = copy_course(pristine, work / "class")
    solution = (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    n = settings.students
    for k in range(n):
        classroom.submit(course, f"student{k + 1:02d}", solution)

    def grade(jobs: int) -> list[float]:
        command = [sys.executable, "-m", "autograder", "grade", classroom.ASSIGNMENT, "--jobs", str(jobs), "--force"]
        return repeat(lambda: stopwatch(lambda: run_tool(command, course)), settings.slow_repeats)

    def per_minute(seconds: list[float]) -> str:
        return f"{n / statistics.median(seconds) * 60:.1f} submissions/minute"

    sequential = grade(1)
    sequential_marks = marks(course)
    parallel = grade(2)
    return [
        Row(
            f"class: {n} submissions, autograder grade --jobs 1",
            sequential,
            note=f"{per_minute(sequential)}; {sequential_marks} each",
        ),
        Row(
            f"class: {n} submissions, autograder grade --jobs 2",
            parallel,
            note=f"{per_minute(parallel)}; {marks(course)} each",
        ),
        Row(
            "class: speed-up of --jobs 2",
            None,
            f"{statistics.median(sequential) / statistics.median(parallel):.2f}x",
            "ratio of the medians",
        ),
    ]


# ----------------------------------------------------------------------------
# 5. A student's Run All
# ----------------------------------------------------------------------------


def measure_run_all(pristine: Path, work: Path, settings: Settings) -> list[Row]:
    """Execute the solved notebook top to bottom with nbconvert, as a student's Run All (MNIST training included)."""
    folder = work / "run_all"
    shutil.copytree(pristine / "solutions" / classroom.ASSIGNMENT, folder)  # with its helpers: runs as a student's
    env = tool_env()
    env.pop("NBGRADER_EXECUTION", None)  # the training cell runs only outside grading
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        "--ExecutePreprocessor.timeout=1800",
        "--output",
        "executed.ipynb",
        classroom.NOTEBOOK,
    ]

    def once() -> float:
        return stopwatch(lambda: run_tool(command, folder, env))

    seconds = repeat(once, settings.slow_repeats)
    executed = json.loads((folder / "executed.ipynb").read_text())
    printed = "".join(
        "".join(o.get("text", "")) for c in executed["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
    )
    epochs = re.findall(r"epoch \d+: .*test accuracy ([\d.]+%)", printed)
    return [
        Row(
            "student Run All of the solved notebook",
            seconds,
            note="nbconvert --execute, hidden tests cut out, default threads; "
            f"training cell printed {len(epochs)} epochs, last test accuracy {epochs[-1] if epochs else '?'}",
        )
    ]


# ----------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    lines = ["| measurement | median | min–max (n) | notes |", "| --- | ---: | --- | --- |"]
    for row in rows:
        if row.seconds is None:
            lines.append(f"| {row.name} | {row.value} | | {row.note} |")
        else:
            spread = f"{min(row.seconds):.2f}–{max(row.seconds):.2f} s ({len(row.seconds)})"
            lines.append(f"| {row.name} | {statistics.median(row.seconds):.2f} s | {spread} | {row.note} |")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> tuple[Settings, set[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a check of the script: 100 steps per epoch, 1-epoch gate, 2 students, 1 nbgrader repetition",
    )
    parser.add_argument("--repeats", type=int, help="repetitions of the in-process rows (default 5, quick 3)")
    parser.add_argument(
        "--slow-repeats", type=int, help="repetitions of the nbgrader and notebook rows (default 3, quick 1)"
    )
    parser.add_argument("--students", type=int, help="submissions for class throughput (default 6, quick 2)")
    parser.add_argument(
        "--threads", type=int, nargs="+", default=[1, 2], help="thread counts for the epoch comparison (default 1 2)"
    )
    parser.add_argument("--only", nargs="+", choices=ROWS, default=list(ROWS), help="measure only these rows")
    args = parser.parse_args(argv)
    quick = args.quick
    settings = Settings(
        repeats=args.repeats or (3 if quick else 5),
        slow_repeats=args.slow_repeats or (1 if quick else 3),
        epoch_images=100 * BATCH if quick else 60_000,
        gate_epochs=1 if quick else None,
        students=args.students or (2 if quick else 6),
        threads=tuple(args.threads),
    )
    return settings, set(args.only)


def measure(rows: list[Row], what: str, measurement: Callable[[], list[Row]]) -> None:
    """Append a measurement's rows; a failure becomes a FAILED row instead of losing the whole table."""
    progress(what)
    try:
        rows += measurement()
    except Exception as error:  # noqa: BLE001 (reported in the table, with its message)
        message = " ".join(str(error).split())[:300]
        rows.append(Row(what, None, "FAILED", f"{type(error).__name__}: {message}"))
        progress(f"{what} FAILED:\n{error}")


def main(argv: list[str] | None = None) -> None:
    settings, only = parse_args(argv)
    if "epoch" in only:
        try:
            import torch  # noqa: F401
        except ImportError:
            sys.exit(
                "PyTorch is needed for the epoch comparison: .venv/bin/pip install -e '.[bench]' (or leave out the "
                "epoch row with --only)"
            )
    print(header(settings), flush=True)
    ref = load_reference()
    data = load_mnist()
    rows: list[Row] = []
    if "epoch" in only:
        for threads in settings.threads:
            measure(
                rows,
                f"epoch, reference vs torch, {threads} thread(s)",
                lambda t=threads: measure_epoch(ref, data, settings, t),
            )
    if "gate" in only:
        measure(rows, "MNIST gate", lambda: measure_gate(ref, data, settings))
    if only & {"autograde", "class", "runall"}:
        with tempfile.TemporaryDirectory(prefix="mlp-bench-") as tmp:
            work = Path(tmp)
            progress("generating a course (nbgrader generate_assignment, generate_solution)")
            pristine = classroom.new_course(work / "pristine")
            if "autograde" in only:
                measure(
                    rows,
                    "autograde: one submission and the floor course",
                    lambda: measure_autograde(pristine, work, settings),
                )
            if "class" in only:
                measure(
                    rows,
                    f"class throughput, {settings.students} submissions",
                    lambda: measure_class(pristine, work, settings),
                )
            if "runall" in only:
                measure(rows, "student Run All", lambda: measure_run_all(pristine, work, settings))
    print(f"\nload average at the end: {load_average()}\n")
    print(table(rows))


if __name__ == "__main__":
    main()
