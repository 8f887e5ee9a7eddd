"""Probe of the MNIST gate: train the student's MLP with the grader's recipe and keep the trained parameters.

The recipe (initialisation, data order, batch, learning rates) comes with the
inputs; the loss gradient and the SGD update are the grader's, so only the
student's MLP, Linear and ReLU are exercised. The judge measures accuracy.

Speed is judged by two rules that a busy machine does not change:

- before training, one forward and backward on 4 rows and on 32 rows run while
  every line of Python they execute is counted (``sys.settrace``). Whole-batch
  array code runs the same lines for any batch; a Python loop over samples or
  entries runs more lines for more rows, and fails at once.
- during training, student steps alternate with the probe's yardstick: the
  arithmetic of a float32 NumPy step of the same shapes (like the reference
  solution's), on other matrices. The median ratio of their CPU times must stay
  within ``max_slowdown``: both are measured in this process at the same time,
  so load slows both alike.
"""

from __future__ import annotations

import statistics
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import numpy as np
from nn_messages import Text
from threadpoolctl import threadpool_limits

import mnist_data
from mnist_data import load_mnist, to_vectors

from .core import CheckTimeout, Record, Stopped, collect_cases, plain, raised, time_limit, wall_limit
from .messages import GATE_COUNTING, GATE_STEP, GATE_TRAINING

LOOP_ROWS = (4, 32)
"""Batch sizes of the line count; a step running at least one more line per extra row loops over the batch."""
LINE_CAP = 200_000
"""Lines counted per call at most (a per-entry loop runs about 43,000 for 32 rows); reaching it counts as a loop."""
WARMUP_STEPS = 10
STEP_CPU_SECONDS = 10.0
"""CPU seconds one training step may take, against endless loops (a correct step takes milliseconds)."""
PAIR_EVERY, CHECK_EVERY = 20, 1000
"""After the first ``speed_window`` pairs: one pair every PAIR_EVERY steps, their median checked every CHECK_EVERY."""

_NOT_STUDENT = tuple(
    str(Path(p).resolve())
    for p in (
        Path(__file__).parent,
        Path(np.__file__).parent,
        Path(mnist_data.__file__).parent,
        *(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")),
    )
)


def _cross_entropy_grad(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """dL/dlogits of the mean softmax cross-entropy, float64."""
    z = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    probs[np.arange(len(targets)), targets] -= 1.0
    return probs / len(targets)


def cpu_limit(what: Text | str, seconds: float = STEP_CPU_SECONDS) -> Any:
    """Raise ``CheckTimeout`` once the body has used ``seconds`` of this process's CPU time (main thread only)."""
    return time_limit(what, seconds)


# ---------------------------------------------------------------- rule 1: Python lines per step against the batch size


def _count_lines(call: Callable[[], Any]) -> dict[CodeType, int]:
    """Run ``call``; count the line events of every frame it starts, by code object (at most LINE_CAP in all)."""
    counts: dict[CodeType, int] = {}
    total = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal total
        if event == "line":
            counts[frame.f_code] = counts.get(frame.f_code, 0) + 1
            total += 1
            if total >= LINE_CAP:  # stop tracing: frames already traced drop their tracer on their next event
                sys.settrace(None)
                frame.f_trace = None
                return None
        return local

    def start(frame: FrameType, event: str, arg: Any) -> Any:
        return None if total >= LINE_CAP or frame.f_code.co_filename == __file__ else local

    previous = sys.gettrace()  # a debugger's, in a notebook kernel
    sys.settrace(start)
    try:
        call()
    finally:
        sys.settrace(previous)
    return counts


def _student_function(code: CodeType) -> str | None:
    """``Linear.forward`` for code written by the student (or a comprehension inside it), None for library code."""
    filename = code.co_filename
    if not filename.startswith("<cell"):  # the worker compiles each answer cell under such a name
        if filename.startswith("<") or str(Path(filename).resolve()).startswith(_NOT_STUDENT):
            return None
    return code.co_qualname.split(".<locals>")[0]


def python_loop(MLP: type, inputs: dict[str, Any], x: np.ndarray, y: np.ndarray) -> dict[str, Any] | None:
    """Count the Python lines of a forward and backward on LOOP_ROWS rows; describe the loop if they grow with the rows.

    Runs on a fresh MLP holding the gate's initial parameters; None when the count does not grow, or when the
    student's code raises (training then reports the error).
    """
    try:
        model = MLP(x.shape[1], inputs["hidden"], 10)
        params = list(model.parameters())
        for p, value in zip(params, inputs["init"], strict=True):
            p[...] = value

        def step(rows: int) -> None:
            logits = np.asarray(model(x[:rows]))
            grad = _cross_entropy_grad(logits.astype(np.float64), y[:rows]).astype(logits.dtype)
            for p in params:
                p.grad = None
            model.backward(grad)

        for rows in LOOP_ROWS:  # warm-up: imports, caches and first-call work are not counted
            step(rows)
        small, big = (_count_lines(lambda rows=rows: step(rows)) for rows in LOOP_ROWS)
    except CheckTimeout:
        raise
    except Exception:  # noqa: BLE001 - the same error comes again in training, which records it
        return None
    lines = [sum(small.values()), sum(big.values())]
    if lines[1] - lines[0] < LOOP_ROWS[1] - LOOP_ROWS[0] and lines[1] < LINE_CAP:
        return None
    growth: dict[str, int] = {}
    for code, count in big.items():
        name = _student_function(code)
        if name is not None:
            growth[name] = growth.get(name, 0) + count - small.get(code, 0)
    where = sorted((name for name, more in growth.items() if more > 0), key=lambda name: -growth[name])[:3]
    return {"rows": list(LOOP_ROWS), "lines": lines, "capped": lines[1] >= LINE_CAP, "where": where}


# ---------------------------------------------------------------- rule 2: CPU time against the grader's own step


def _yardstick_step(mats: list[np.ndarray], scratch: list[np.ndarray], x: np.ndarray, y: np.ndarray, lr: float) -> None:
    """The speed yardstick: the arithmetic of one float32 training step of the same shapes (forward, loss gradient,
    backward with dX, update), on matrices that are not the model's and written into scratch arrays. It trains
    nothing and returns nothing: the worker holds no training step a submission could call in place of its own."""
    A, a, B, b = mats
    h = x @ A + a
    r = np.maximum(h, 0)
    g = _cross_entropy_grad((r @ B + b).astype(np.float64), y).astype(np.float32)
    dh = (g @ B.T) * (h > 0)
    dh @ A.T
    for m, d, out in zip(mats, (x.T @ dh, dh.sum(axis=0), r.T @ g, g.sum(axis=0)), scratch, strict=True):
        np.subtract(m, lr * d, out=out)


def _speed(pairs: list[tuple[float, float]], step: int) -> dict[str, Any]:
    """Median ratio of student to reference CPU time over alternating pairs, and each side's median step."""
    return {
        "slowdown": statistics.median(s / max(r, 1e-9) for s, r in pairs),
        "pairs": len(pairs),
        "step": step,
        "student_ms": 1e3 * statistics.median(s for s, _ in pairs),
        "reference_ms": 1e3 * statistics.median(r for _, r in pairs),
    }


def _train(MLP: type, inputs: dict[str, Any], record: Record) -> None:
    data = load_mnist()
    x_train, y_train = to_vectors(data.train_images), data.train_labels.astype(np.int64)
    model = record.run("model", MLP, x_train.shape[1], inputs["hidden"], 10)
    params = list(record.run("parameters", model.parameters))
    record.keep("shapes", [list(np.shape(p)) for p in params])
    if [tuple(np.shape(p)) for p in params] != [tuple(a.shape) for a in inputs["init"]]:
        raise Stopped
    with cpu_limit(GATE_COUNTING, 3 * STEP_CPU_SECONDS):
        loop = python_loop(MLP, inputs, x_train, y_train)
    if loop is not None:
        record.keep("python_loop", loop)
        raise Stopped
    for p, value in zip(params, inputs["init"], strict=True):
        p[...] = value
    yardstick = [np.array(a, dtype=np.float32)[::-1].copy() for a in inputs["init"]]  # same shapes, other values
    scratch = [np.empty_like(m) for m in yardstick]
    # (student, reference) CPU seconds of one step each, back to back. This thread's clock: while cpu_limit's timer
    # is armed, Linux samples the process-wide CPU clock only at scheduler ticks, too coarse for a 0.5 ms step.
    pairs: list[tuple[float, float]] = []
    checked, window_end = 0, WARMUP_STEPS + inputs["speed_window"]
    batch, n = inputs["batch"], len(x_train)

    def check_speed() -> None:
        """Stop if the pairs since the last check (each stretch on its own: a later slow-down counts) are too slow."""
        nonlocal checked
        if len(pairs) > checked:
            recent, checked = _speed(pairs[checked:], step), len(pairs)
            if recent["slowdown"] > inputs["max_slowdown"]:
                record.keep("too_slow", recent)
                raise Stopped

    def student_step(x: np.ndarray, y: np.ndarray, lr: float, first: bool) -> tuple[np.ndarray, float]:
        """One SGD step of the student's MLP with the grader's loss gradient and update: its logits and CPU seconds."""
        t0 = time.thread_time()
        logits = np.asarray(record.run("logits", model, x) if first else model(x))
        if first and logits.shape != (len(x), 10):
            raise Stopped
        grad = _cross_entropy_grad(logits.astype(np.float64), y).astype(logits.dtype)
        for p in params:  # fresh gradients each step, whether backward sets or accumulates them
            p.grad = None
        model.backward(grad)
        missing = [k for k, p in enumerate(params) if p.grad is None]
        if missing:
            record.keep("missing_grad", missing)
            raise Stopped
        for p in params:
            p -= lr * p.grad
        return logits, time.thread_time() - t0

    def reference_step(x: np.ndarray, y: np.ndarray, lr: float) -> float:
        t0 = time.thread_time()
        _yardstick_step(yardstick, scratch, x, y, lr)
        return time.thread_time() - t0

    start, step = time.perf_counter(), 0
    for lr, order in zip(inputs["learning_rates"], inputs["orders"], strict=True):
        for i in range(0, n, batch):
            rows = order[i : i + batch]
            x, y = x_train[rows], y_train[rows]
            paired = step >= WARMUP_STEPS and (step < window_end or step % PAIR_EVERY == 0)
            with cpu_limit(GATE_STEP(step=step + 1)):
                if paired and len(pairs) % 2:  # every other pair, the reference goes first
                    reference_cpu = reference_step(x, y, lr)
                logits, student_cpu = student_step(x, y, lr, step == 0)
                if paired and not len(pairs) % 2:
                    reference_cpu = reference_step(x, y, lr)
            if paired:
                pairs.append((student_cpu, reference_cpu))
            step += 1
            if (step in (10, 50) or step % 250 == 0) and not np.isfinite(logits).all():
                record.keep("diverged_at", step)
                raise Stopped
            if step == window_end or step % CHECK_EVERY == 0:
                check_speed()
    check_speed()
    record.keep("seconds", time.perf_counter() - start)
    if pairs:
        record.keep("speed", _speed(pairs, step))
    record.keep("trained", [plain(np.array(p)) for p in params])


def mnist_accuracy(MLP: type, inputs: dict[str, Any]) -> list[Record]:
    """Train on one BLAS thread: the result is the same on every machine, and the timing compares like with like."""

    def probe(_: None, record: Record) -> None:
        try:
            _train(MLP, inputs, record)
        except (Stopped, CheckTimeout):
            raise
        except Exception as error:  # noqa: BLE001 - a crash inside training is the student's code failing
            record.keep("training_error", raised(error))

    with wall_limit(GATE_TRAINING, inputs["wall_seconds"]), threadpool_limits(limits=1, user_api="blas"):
        return collect_cases([None], probe)
