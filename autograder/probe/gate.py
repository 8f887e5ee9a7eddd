"""Probe of the MNIST gate: train the student's MLP with the grader's recipe and keep the trained parameters.

The recipe (initialisation, data order, batch, learning rates) comes with the inputs; the loss gradient and the SGD
update are the grader's, so only the student's MLP, Linear and ReLU are exercised. The judge measures accuracy, and
where the parameters ended against the grader's own training.

Nothing here decides speed: student code shares this process and can replace any clock or tracer in it. The
grader measures this worker's CPU time from outside its sandbox, against its own training measured the same way at
the same time (``autograder.grading.pace``). This probe only says how far training has come (``core.progress``, a
hint for the grader's watch) and, as evidence for the message of a speed failure, whether the Python lines of a step
grow with the batch (``python_loop``: a loop over samples or entries, and where).

The worker holds the loss gradient of the logits (the grader's input to the student's ``MLP.backward``) and the SGD
update, no forward or backward of any layer: nothing a student could call instead of their own MLP, Linear or ReLU.
The loss itself is graded in another worker, which holds neither.
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import nn_core
from autograder.course import mnist_data
from autograder.course.mnist_data import load_mnist, to_vectors
from autograder.course.nn_messages import Text
from nn_core import Module, Parameter

from . import core
from .core import Record, Stopped, collect_cases, plain, raised, time_limit
from .messages import GATE_COUNTING, GATE_STEP

LOOP_ROWS = (4, 32)
"""Batch sizes of the line count; a step running at least one more line per extra row loops over the batch."""
LINE_CAP = 200_000
"""Lines counted per call at most (a per-entry loop runs about 43,000 for 32 rows); reaching it counts as a loop."""
STEP_CPU_SECONDS = 10.0
"""CPU seconds one training step may take, against endless loops (a correct step takes milliseconds)."""
PROGRESS_EVERY = 25
"""Training steps between two progress hints."""

_NOT_STUDENT = tuple(
    str(Path(p).resolve())
    for p in (
        Path(__file__).parent,
        Path(np.__file__).parent,
        Path(mnist_data.__file__).parent,  # the course helpers the grader uses (a copy in the worker)
        Path(nn_core.__file__).parent,  # the student's: nn_core's Parameter, which NumPy wraps every result in
        *(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")),
    )
)


def _cross_entropy_grad(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """dL/dlogits of the mean softmax cross-entropy, float64: the grader's input to the student's backward here."""
    z = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    probs[np.arange(len(targets)), targets] -= 1.0
    return probs / len(targets)


def cpu_limit(what: Text | str, seconds: float = STEP_CPU_SECONDS) -> Any:
    """Raise ``CheckTimeout`` once the body has used ``seconds`` of this process's CPU time (main thread only)."""
    return time_limit(what, seconds)


# ---------------------------------------------------------------- evidence: Python lines per step against the batch


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


# ---------------------------------------------------------------- evidence: which parameter, whose backward


def parameter_owners(model: Any, params: list[Any], depth: int = 3) -> list[tuple[str | None, Any]]:
    """For each of ``params``: its attribute path in ``model`` (``fc1.b``, ``layers[0].b``) and the module holding it,
    found through the model's attributes (modules, and lists, tuples and dicts of them); (None, None) where none
    holds it. Evidence for a message only: a student's model may hide its parameters anywhere."""
    wanted = {id(p): k for k, p in enumerate(params)}
    found: list[tuple[str | None, Any]] = [(None, None)] * len(params)

    def walk(module: Any, path: str, level: int) -> None:
        try:
            items = list(vars(module).items())
        except TypeError:
            return
        for name, value in items:
            if isinstance(value, Parameter):
                k = wanted.get(id(value))
                if k is not None and found[k][0] is None:
                    found[k] = (f"{path}{name}", module)
            elif level < depth:
                for suffix, item in _children(value):
                    walk(item, f"{path}{name}{suffix}.", level + 1)

    try:
        walk(model, "", 0)
    except Exception:  # noqa: BLE001 - whatever the student's objects do when read
        pass
    return found


def _children(value: Any) -> list[tuple[str, Any]]:
    """The modules ``value`` is or holds directly, with the suffix naming each (``""``, ``[0]``, ``['fc1']``)."""
    if isinstance(value, Module):
        return [("", value)]
    if isinstance(value, (list, tuple)):
        return [(f"[{i}]", v) for i, v in enumerate(value[:16]) if isinstance(v, Module)]
    if isinstance(value, dict):
        return [(f"[{k!r}]", v) for k, v in list(value.items())[:16] if isinstance(k, str) and isinstance(v, Module)]
    return []


def backward_calls(owners: list[Any], run: Callable[[], Any]) -> list[bool | None]:
    """Run ``run`` (a forward and a backward of the model); say for each of ``owners`` whether its class's backward
    was called on it (None: its backward is not Python code this can watch)."""
    codes = {}
    for owner in owners:
        function = getattr(getattr(type(owner), "backward", None), "__code__", None)
        if function is not None:
            codes.setdefault(function, set()).add(id(owner))
    called: set[int] = set()

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in codes:
            owner = frame.f_locals.get("self")
            if id(owner) in codes[frame.f_code]:
                called.add(id(owner))

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        run()
    except Exception:  # noqa: BLE001 - the calls seen before an error are evidence too
        pass
    finally:
        sys.setprofile(previous)
    return [
        None if getattr(getattr(type(o), "backward", None), "__code__", None) is None else id(o) in called
        for o in owners
    ]


def _missing_grads(model: Any, params: list[Any], missing: list[int], x: np.ndarray, y: np.ndarray) -> list[dict]:
    """What the message of a .grad missing after MLP.backward may say: each such parameter's name, the layer holding
    it, its class, and whether that layer's backward ran in one more step on the same batch."""
    owners = parameter_owners(model, params)
    holders = [owners[k][1] for k in missing]

    def step() -> None:
        logits = np.asarray(model(x))
        for p in params:
            p.grad = None
        model.backward(_cross_entropy_grad(logits.astype(np.float64), y).astype(logits.dtype))

    known = [h for h in holders if h is not None]
    ran = dict(zip(map(id, known), backward_calls(known, step), strict=True))
    evidence = []
    for k, holder in zip(missing, holders, strict=True):
        path = owners[k][0]
        layer = path.rsplit(".", 1)[0] if path and "." in path else None
        evidence.append(
            {
                "index": k,
                "name": path,
                "layer": layer,
                "cls": type(holder).__name__ if holder is not None else None,
                "called": ran.get(id(holder)) if holder is not None else None,
            }
        )
    return evidence


def _described(value: Any) -> dict[str, Any]:
    """A value of the student's the grader's own arithmetic could not use: its type, and its shape and dtype if it is
    an array."""
    array = isinstance(value, (np.ndarray, np.generic))
    return {
        "kind": type(value).__name__,
        "shape": list(np.shape(value)) if array else None,
        "dtype": str(value.dtype) if array else None,
    }


def _grad_breaks_update(p: Any, owner: tuple[str | None, Any], index: int) -> dict[str, Any]:
    """The student's .grad the grader's update ``p -= lr * p.grad`` could not apply to ``p``, described, with the
    parameter's name and its layer's class (``owner``, from ``parameter_owners``)."""
    name, holder = owner
    cls = type(holder).__name__ if holder is not None else None
    return {"index": index, "name": name, "cls": cls, **_described(p.grad), "expected": list(np.shape(p))}


# ---------------------------------------------------------------- training


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
    if loop is not None:  # evidence for the message, should the grader find the training too slow
        record.keep("python_loop", loop)
    for p, value in zip(params, inputs["init"], strict=True):
        p[...] = value
    batch, n, step = inputs["batch"], len(x_train), 0
    for lr, order in zip(inputs["learning_rates"], inputs["orders"], strict=True):
        for i in range(0, n, batch):
            rows = order[i : i + batch]
            x, y = x_train[rows], y_train[rows]
            with cpu_limit(GATE_STEP(step=step + 1)):
                logits = np.asarray(record.run("logits", model, x) if step == 0 else model(x))
                if step == 0 and logits.shape != (len(x), 10):
                    raise Stopped
                try:  # the grader's own arithmetic on the student's logits
                    grad = _cross_entropy_grad(logits.astype(np.float64), y).astype(logits.dtype)
                except Exception:  # noqa: BLE001 - logits of another shape or kind at a later step
                    record.keep("bad_logits", {"step": step + 1, **_described(logits)})
                    raise Stopped from None
                for p in params:  # fresh gradients each step, whether backward sets or accumulates them
                    p.grad = None
                model.backward(grad)
                missing = [k for k, p in enumerate(params) if p.grad is None]
                if missing:
                    record.keep("missing_grad", missing)
                    record.keep("missing_grad_evidence", _missing_grads(model, params, missing, x, y))
                    raise Stopped
                for k, p in enumerate(params):
                    try:  # the grader's own arithmetic: what it cannot use is the student's value, named
                        p -= lr * p.grad
                    except Exception:  # noqa: BLE001 - a .grad of another shape or kind than its parameter
                        record.keep("bad_grad", _grad_breaks_update(p, parameter_owners(model, params)[k], k))
                        raise Stopped from None
            step += 1
            if step % PROGRESS_EVERY == 0:
                core.progress(step)
            if (step in (10, 50) or step % 250 == 0) and not np.isfinite(logits).all():
                record.keep("diverged_at", step)
                raise Stopped
    record.keep("trained", [plain(np.array(p)) for p in params])


def mnist_accuracy(MLP: type, inputs: dict[str, Any]) -> list[Record]:
    """Train on one BLAS thread: the result is the same on every machine, and the CPU time the grader measures from
    outside compares like with like (its own training runs on one thread too)."""

    def probe(_: None, record: Record) -> None:
        try:
            _train(MLP, inputs, record)
        except Stopped:
            raise
        except Exception as error:  # noqa: BLE001 - a crash inside training is the student's code failing
            record.keep("training_error", raised(error))

    with threadpool_limits(limits=1, user_api="blas"):
        return collect_cases([None], probe)
