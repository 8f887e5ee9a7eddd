"""Judge of the MNIST gate: the probe trained the student's MLP with the grader's recipe; require 97 % test accuracy.

Every decision rests on what the trusted side computed or measured itself; the probe's process ran student code, so
its record only supplies the trained parameters (and evidence for messages):

- accuracy: the reference forward pass on the trained parameters, here;
- where the parameters ended: against the grader's own training from the same start (``gate_reference``);
- speed: the worker's CPU time, measured from outside its sandbox, against the grader's own training of the same
  steps measured the same way at the same time (``measured``, from ``autograder.grading.pace``). The probe's count of
  Python lines per step only names where a loop is, once speed has failed.

Every number is checked to be finite before it is compared, and every limit is written so that NaN fails.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from autograder import messages as say
from autograder.course.mnist_data import FILES, MnistDataError, load_mnist, to_vectors
from autograder.course.nn_checks import fail
from autograder.course.nn_diagnosis import explain_error
from autograder.course.nn_messages import ALL_OF, EXPECTED_GOT, KIND_SHAPE_DTYPE, SHAPE, CheckFailed, Failure
from autograder.judge import gate_reference, reference
from autograder.judge.common import got
from autograder.verdict import Passed

THRESHOLD = 0.97
AFTER_CHECKS = say.GATE_AFTER_CHECKS
SLOWER_HINT = say.GATE_SLOW
PARAMETER_NAMES = ("W1", "b1", "W2", "b2")
FORGED = say.GATE_FORGED
FAR = say.GATE_FAR
SPEED = say.GATE_SPEED
TRAINING = say.GATE_TRAINING


_read: dict[tuple[Any, ...], Any] = {}
"""MNIST as this process last read and validated it, by loader, folder and the identity of its files
(``kept_mnist``)."""


def _files_key(folder: Path) -> tuple[Any, ...] | None:
    """The folder and each MNIST file's device, inode, size and modification time there; None if one is missing."""
    try:
        stats = [os.stat(folder / name) for name in FILES.values()]
        return (str(folder.resolve()), *((s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns) for s in stats))
    except OSError:
        return None


def kept_mnist(folder: Path | None, load: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``load(*args, **kwargs)`` (the course loader's ``load_mnist``, reading ``folder``), called once per process
    while the files in ``folder`` stay the same: the preparation validates MNIST and the gate's judge reads it twice a
    submission, each time the same files (decompressing and checking them takes about 0.2 CPU seconds). The arrays
    are kept read-only. ``folder`` None: the folder the loader read, once it has."""
    key = _files_key(folder) if folder is not None else None
    if key is not None and (load, *key) in _read:
        return _read[(load, *key)]
    data = load(*args, **kwargs)
    for role in FILES:
        array = getattr(data, role, None)
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    source = getattr(data, "source", None)
    key = key or (_files_key(Path(source)) if source is not None else None)
    if key is not None:
        _read.clear()  # one copy: a long-lived process (a cluster's worker) keeps the last folder's only
        _read[(load, *key)] = data
    return data


def _mnist() -> Any:
    try:
        folder = os.environ.get("MNIST_DIR", "")
        return kept_mnist(Path(folder).expanduser() if folder else None, load_mnist)
    except MnistDataError as error:
        raise RuntimeError(
            f"The grading machine cannot read MNIST (an instructor's problem, not the student's): {error}"
        ) from None


def test_accuracy(params: list[np.ndarray]) -> float:
    """Accuracy on the 10,000 MNIST test images of the reference MLP holding ``params`` (W1, b1, W2, b2)."""
    data = _mnist()
    x, y = to_vectors(data.test_images).astype(np.float64), data.test_labels.astype(np.int64)
    W1, b1, W2, b2 = (np.asarray(p, dtype=np.float64) for p in params)
    predictions = np.concatenate([predict(x[i : i + 1000], W1, b1, W2, b2) for i in range(0, len(x), 1000)])
    return float(np.mean(predictions == y))


TIE_FACTOR = 1e-9
"""Two logits closer than this times the size of their sums (``predict``) are ordered by the reference itself: a
thousand times what two float64 summations of the gate's 784 and 256 terms can differ by (2 x 785 x 2**-53 of the
sum of the terms' magnitudes, about 1.7e-13)."""


def predict(x: np.ndarray, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """``reference.mlp_forward(x, ...).argmax(axis=1)``, the same classes, for a quarter of its CPU time.

    The logits are summed by BLAS (one thread) instead of einsum's loops. Summed either way, a logit is within
    n x 2**-53 of the sum of its terms' magnitudes of the exact one, so the two can order a row's two largest logits
    differently only when these are that close: if any row's are within ``TIE_FACTOR`` times that sum, its rows
    (the whole block, as ``x`` is given) are predicted by ``reference.mlp_forward`` itself, as they always were."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        hidden = x @ W1 + b1
        logits = np.where(hidden > 0, hidden, 0.0) @ W2 + b2
    # every hidden sum's terms: at most |x|_1 max|W1| + max|b1|; every logit's: that times 256 max|W2|, + max|b2|
    size1 = np.abs(x).sum(axis=1) * np.abs(W1).max() + np.abs(b1).max()
    size2 = size1 * (np.abs(W2).sum(axis=0).max() + W2.shape[0] * np.abs(W2).max()) + np.abs(b2).max()
    top = np.sort(logits, axis=1)[:, -2:]
    if logits.shape[1] > 1 and not np.all(top[:, 1] - top[:, 0] > TIE_FACTOR * (size2 + 1.0)):  # NaN: not clear
        return reference.mlp_forward(x, W1, b1, W2, b2).argmax(axis=1)
    return logits.argmax(axis=1)


def _reference_end(inputs: dict[str, Any]) -> list[np.ndarray]:
    """Where the grader's training of the reference MLP ends for these inputs (cached: it depends on the secret)."""
    data = _mnist()
    return gate_reference.reference_end(inputs, data.train_images, data.train_labels, gate_reference.cache_folder())


def _loop_cause(record: dict[str, Any]) -> Any:
    """Where the probe saw a step's Python lines grow with the batch (a loop over samples or entries), if it did.

    The count was taken beside student code, so it is only evidence for the message of a speed failure that the
    trusted side's own measurement decided."""
    loop = record.get("python_loop")
    try:
        (small, big), (rows_small, rows_big) = loop["lines"], loop["rows"]
        where = [str(name)[:60] for name in loop["where"]][:3]
        counts = [int(small), int(big), int(rows_small), int(rows_big)]
    except (TypeError, KeyError, ValueError):
        return SLOWER_HINT
    if not where:
        return SLOWER_HINT
    big_lines = say.GATE_AT_LEAST(count=counts[1]) if loop.get("capped") else counts[1]
    return say.GATE_LOOP_GOT_WHERE(
        small=counts[0], small_rows=counts[2], big=big_lines, big_rows=counts[3], where=ALL_OF(items=where)
    )


def speed_of(measured: dict[str, Any]) -> tuple[float, float, int]:
    """(how many times the grader's own training's CPU time the student's took, the grader's CPU seconds for the steps
    compared, those steps); NaN when the measurement is unusable, which fails."""
    try:
        steps = int(measured["steps"] if measured["too_slow_at"] is None else measured["too_slow_at"])
        reference = float(measured["pace_setup"]) + max(steps, 0) * float(measured["pace_step"])
        times = float(measured["cpu"]) / reference
    except (TypeError, KeyError, ValueError, ZeroDivisionError):
        return math.nan, math.nan, 0
    if not (math.isfinite(reference) and reference > 0 and math.isfinite(times)):
        return math.nan, reference, steps
    return times, reference, steps


def _judge_speed(inputs: dict[str, Any], measured: dict[str, Any], record: dict[str, Any]) -> float:
    """Fail unless the training's CPU time, measured from outside, was within ``max_slowdown`` times the grader's own
    training of the same steps; return how many times it was."""
    limit = float(inputs["max_slowdown"])
    times, reference, steps = speed_of(measured)
    if measured.get("too_slow_at") is None and times <= limit:
        return times
    numbers = {"times_reference": times} if math.isfinite(times) else {}
    if measured.get("too_slow_at") is None:
        fields = dict(student=_seconds(float(measured["cpu"])), reference=_seconds(reference), steps=steps)
        got_text = say.GATE_CPU_GOT(times=f"{times:.1f}", **fields)
    else:
        got_text, numbers = _stopped(measured, limit)
    message = EXPECTED_GOT(what=SPEED, expected=say.GATE_CPU_EXPECTED(limit=f"{limit:g}"), got=got_text)
    cause = say.GATE_SLOW_BEFORE_TRAINING if measured.get("too_slow_at") == 0 else _loop_cause(record)
    raise CheckFailed(Failure(message, cause, None, numbers))


def _seconds(value: float) -> str:
    """CPU seconds for a message: one decimal, two under a second (0.14 s, not 0.1 s)."""
    return f"{value:.1f}" if not abs(value) < 1 else f"{value:.2f}"


def _stopped(measured: dict[str, Any], limit: float) -> tuple[Any, dict[str, float]]:
    """What the watch compared when it stopped the worker as too slow, for the message, and the verdict's numbers."""
    seen = measured.get("too_slow") or {}
    try:
        times, student, reference = (float(seen[k]) for k in ("times", "student", "reference"))
        first, step, steps = int(seen["from"]), int(measured["too_slow_at"]), int(measured["steps"])
    except (TypeError, KeyError, ValueError):
        return say.GATE_CPU_GOT_STOPPED_BARE(limit=f"{limit:g}"), {}
    fields = dict(times=f"{times:.1f}", student=_seconds(student), reference=_seconds(reference))
    fields.update(step=step, steps=steps)
    if first:
        return say.GATE_CPU_GOT_RATE(first=first, **fields), {"times_reference": times}
    return say.GATE_CPU_GOT_STOPPED(**fields), {"times_reference": times}


def measure_here(inputs: dict[str, Any], cpu: float, chunk: int = 200) -> dict[str, Any]:
    """A speed measurement for a gate probed in this process (``checks.run_here``, the kit's tests): ``cpu`` is the
    probe's CPU time, set against the grader's own training step timed here, in the same process."""
    from autograder.judge.gate_reference import step, steps_of

    rng = np.random.default_rng(0)
    x, y = rng.random((chunk * inputs["batch"], 784), dtype=np.float32), rng.integers(0, 10, chunk * inputs["batch"])
    params = [np.array(a, np.float32) for a in inputs["init"]]
    start = time.process_time()
    for i in range(chunk):
        rows = slice(i * inputs["batch"], (i + 1) * inputs["batch"])
        step(params, x[rows], y[rows], 0.01)
    pace_step = (time.process_time() - start) / chunk
    steps = steps_of(inputs, len(inputs["orders"][0]))
    return {
        "cpu": cpu,
        "steps": steps,
        "pace_setup": 0.0,
        "pace_step": pace_step,
        "pace_chunks": 1,
        "too_slow_at": None,
    }


def _finite_parameters(trained: list[np.ndarray]) -> None:
    """Fail if a trained parameter holds NaN or infinity (training diverged, or something wrote it there)."""
    bad = [name for name, p in zip(PARAMETER_NAMES, trained, strict=True) if not np.isfinite(p).all()]
    if bad:
        fail(TRAINING, say.GATE_FINITE_PARAMETERS, say.GATE_NOT_FINITE(names=ALL_OF(items=bad)), say.GATE_DIVERGED)


def judge_accuracy(
    inputs: dict[str, Any], records: list[dict[str, Any]], measured: dict[str, Any] | None = None
) -> Passed:
    """Judge the training the probe did and its speed as measured from outside; return the line to show on success.

    ``measured`` is the trusted side's (``autograder.grading.pace``; ``measure_here`` in one process): without it
    there is nothing to judge speed on, which is the grader's fault, never a pass."""
    if measured is None:
        raise RuntimeError("the MNIST gate was judged without the grader's own measurement of its speed")
    if measured.get("too_slow_at") is not None:  # stopped from outside before it finished: nothing else to judge
        _judge_speed(inputs, measured, records[0] if records else {})
    (record,) = records
    got(record, "model", "MLP(784, 256, 10)", AFTER_CHECKS)
    got(record, "parameters", "MLP(784, 256, 10).parameters()", AFTER_CHECKS)
    expected = [list(a.shape) for a in inputs["init"]]
    if record.get("shapes") != expected:
        fail(
            "MLP(784, 256, 10).parameters()",
            say.GATE_SHAPES_EXPECTED(shapes=expected),
            say.GATE_SHAPES(shapes=_plain_shapes(record.get("shapes"))),
            AFTER_CHECKS,
        )
    logits = got(record, "logits", say.GATE_FORWARD, AFTER_CHECKS)
    if np.shape(logits) != (inputs["batch"], 10):
        fail(say.GATE_FORWARD, SHAPE(shape=(inputs["batch"], 10)), SHAPE(shape=np.shape(logits)), AFTER_CHECKS)
    if "training_error" in record:
        raise CheckFailed(explain_error(TRAINING, record["training_error"], formula=AFTER_CHECKS))
    if "missing_grad" in record:
        names, cause = _missing_grads(record)
        fail(TRAINING, say.GATE_EVERY_GRAD, say.GATE_WITHOUT_GRAD(names=ALL_OF(items=names)), cause)
    if "bad_grad" in record:
        _fail_bad_grad(record["bad_grad"])
    if "bad_logits" in record:
        _fail_bad_logits(record["bad_logits"], inputs["batch"])
    if "diverged_at" in record:
        fail(
            TRAINING,
            say.GATE_FINITE,
            say.GATE_DIVERGED_AT(steps=_plain_indices([record["diverged_at"]])),
            say.GATE_DIVERGED,
        )
    times = _judge_speed(inputs, measured, record)
    trained = record.get("trained")
    if not (
        isinstance(trained, list)
        and [np.shape(p) for p in trained] == [a.shape for a in inputs["init"]]
        and all(isinstance(p, np.ndarray) and p.dtype.kind == "f" for p in trained)
    ):
        fail(TRAINING, say.GATE_FLOAT_ARRAYS, say.GATE_SOMETHING_ELSE, FORGED)
    _finite_parameters(trained)
    accuracy, seconds = test_accuracy(trained), float(measured["cpu"])
    numbers = {"accuracy": accuracy, "seconds": seconds, "times_reference": times}
    if not accuracy >= THRESHOLD:
        message = say.GATE_ACCURACY(
            epochs=len(inputs["learning_rates"]),
            seconds=f"{seconds:.1f}",
            required=f"{THRESHOLD:.2%}",
            accuracy=f"{accuracy:.2%}",
        )
        raise CheckFailed(Failure(message, not_learning(accuracy), AFTER_CHECKS, numbers))
    far = gate_reference.distances(trained, _reference_end(inputs))
    if not all(d <= gate_reference.MAX_DISTANCE for d in far):  # NaN fails
        message = EXPECTED_GOT(
            what=TRAINING,
            expected=say.GATE_NEAR_REFERENCE(limit=f"{gate_reference.MAX_DISTANCE:.0%}"),
            got=say.GATE_TOO_FAR(w1=f"{far[0]:.0%}", w2=f"{far[1]:.0%}", accuracy=f"{accuracy:.2%}"),
        )
        raise CheckFailed(Failure(message, FAR, None, numbers))
    passed = dict(accuracy=f"{accuracy:.2%}", seconds=f"{seconds:.1f}", required=f"{THRESHOLD:.0%}")
    return Passed(say.GATE_PASSED(**passed, times=f"{times:.1f}"), numbers)


NEAR_CHANCE = 0.2
"""Test accuracy below which training did not learn at all (chance is 10 %)."""
NEAR_THRESHOLD = 0.9
"""Test accuracy from which a failing training learned, only not enough (a slightly wrong gradient)."""


def not_learning(accuracy: float) -> Any:
    """The likely cause of a test accuracy below the threshold, worded by how far below it is."""
    if accuracy >= NEAR_THRESHOLD:
        return say.GATE_NOT_LEARNING
    return say.GATE_LEARNS_LITTLE if accuracy >= NEAR_CHANCE else say.GATE_NO_LEARNING


def _code(value: Any) -> str | None:
    """A name the probe recorded (a parameter's attribute path, a class), if it is a short string."""
    return value[:60] if isinstance(value, str) and value else None


def _missing_grads(record: dict[str, Any]) -> tuple[Any, Any]:
    """The parameters without a .grad after MLP.backward, by name where the probe found one in the student's MLP
    (``fc1.b``), else by index, and the cause the probe's evidence supports: a layer whose backward never ran, or
    layers whose backward ran and did not set them (the evidence was gathered beside student code: it only words
    the message of a failure the missing .grad already decided)."""
    indices = _plain_indices(record["missing_grad"])
    try:
        evidence = [
            (int(e["index"]), _code(e["name"]), _code(e["layer"]), _code(e["cls"]), e["called"])
            for e in list(record["missing_grad_evidence"])[:8]
        ]
    except (TypeError, KeyError, ValueError):
        return indices, say.GATE_BACKWARD_CALLS
    if not evidence or any(name is None or layer is None or cls is None for _, name, layer, cls, _ in evidence):
        names = [name or str(index) for index, name, *_ in evidence] or indices
        return names, say.GATE_BACKWARD_CALLS
    names = [name for _, name, *_ in evidence]
    never = [(name, layer) for _, name, layer, _, called in evidence if called is False]
    if never:
        methods = list(dict.fromkeys(f"{layer}.backward" for _, layer in never))
        return names, say.GATE_BACKWARD_NOT_CALLED(methods=methods, names=[f"{n}.grad" for n, _ in never])
    if all(called is True for *_, called in evidence):
        methods = list(dict.fromkeys(f"{layer}.backward" for _, _, layer, _, _ in evidence))
        classes = list(dict.fromkeys(f"{cls}.backward" for _, _, _, cls, _ in evidence))
        unset = [f"{n}.grad" for n in names]
        return names, say.GATE_GRAD_NOT_SET(methods=methods, names=unset, method=classes)
    return names, say.GATE_BACKWARD_CALLS


def _described(value: dict[str, Any]) -> Any:
    """What the probe recorded of a student's value the grader's arithmetic could not use: an array's kind, shape
    and dtype, or the type of anything else."""
    kind = _code(value.get("kind")) or "?"
    if value.get("shape") is None or value.get("dtype") is None:
        return say.GATE_A_KIND(kind=kind)
    return KIND_SHAPE_DTYPE(kind=kind, shape=_plain_shape(value["shape"]), dtype=_code(value["dtype"]) or "?")


def _fail_bad_grad(bad: Any) -> None:
    """Fail naming the .grad the grader's own SGD update could not apply, what it was and what it must be."""
    try:
        index, name, cls, expected = int(bad["index"]), _code(bad["name"]), _code(bad["cls"]), bad["expected"]
        got_text = _described(bad)
    except (TypeError, KeyError, ValueError, AttributeError):
        fail(TRAINING, say.GATE_FLOAT_ARRAYS, say.GATE_SOMETHING_ELSE, FORGED)
    if name is None:  # not found among the model's attributes: the gate's own name of that place
        name = PARAMETER_NAMES[index] if 0 <= index < len(PARAMETER_NAMES) else str(index)
    method = f"{cls}.backward" if cls else "backward"
    fail(
        TRAINING,
        say.GATE_GRAD_FOR_UPDATE(name=name, shape=_plain_shape(expected)),
        got_text,
        say.GATE_GRAD_BREAKS_UPDATE(method=method, name=name),
    )


def _fail_bad_logits(bad: Any, batch: int) -> None:
    """Fail naming the logits of a later step the grader's own loss gradient could not use."""
    try:
        step, got_text = int(bad["step"]), _described(bad)
    except (TypeError, KeyError, ValueError, AttributeError):
        fail(TRAINING, say.GATE_FLOAT_ARRAYS, say.GATE_SOMETHING_ELSE, FORGED)
    expected = say.GATE_FLOAT_LOGITS(shape=(batch, 10))
    fail(say.GATE_FORWARD_AT_STEP(step=step), expected, got_text, say.GATE_LOGITS_BREAK_LOSS)


def _plain_shape(shape: Any) -> Any:
    """A shape the probe recorded, as a tuple of small integers ('?' if it is not one)."""
    try:
        return tuple(int(n) for n in list(shape)[:8])
    except (TypeError, ValueError):
        return "?"


def _plain_shapes(shapes: Any) -> Any:
    """The shapes the probe recorded, if they are lists of small integers (anything else is shown as '?')."""
    try:
        return [[int(n) for n in shape][:4] for shape in shapes][:8]
    except (TypeError, ValueError):
        return "?"


def _plain_indices(values: Any) -> list[int] | str:
    """Integers the probe recorded, as a list for a message (anything else is shown as '?')."""
    try:
        return [int(v) for v in list(values)[:8]]
    except (TypeError, ValueError):
        return "?"
