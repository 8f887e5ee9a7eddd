"""Judge of the MNIST gate: the probe trained the student's MLP with the grader's recipe; require 97 % test accuracy.

Accuracy is measured here, with the reference forward pass on the trained
parameters, so the probe's process (which ran student code) only supplies weights.
Speed fails on what the probe counted, not on a time budget: Python lines per
step that grow with the batch (a loop over samples or entries), or a step far
slower than the grader's own NumPy step measured alternately with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from nn_messages import EXPECTED_GOT, SHAPE, CheckFailed, Failure

from autograder import messages as say
from autograder.judge import gate_reference, reference
from autograder.judge.common import got
from autograder.verdict import Passed
from mnist_data import MnistDataError, load_mnist, to_vectors
from nn_checks import fail
from nn_diagnosis import explain_error

THRESHOLD = 0.97
AFTER_CHECKS = say.GATE_AFTER_CHECKS
SLOW_HINT = say.GATE_LOOP
SLOWER_HINT = say.GATE_SLOW
FORGED = say.GATE_FORGED
FAR = say.GATE_FAR
SPEED = say.GATE_SPEED
TRAINING = say.GATE_TRAINING


def _mnist() -> Any:
    try:
        return load_mnist()
    except MnistDataError as error:
        raise RuntimeError(
            f"The grading machine cannot read MNIST (an instructor's problem, not the student's): {error}"
        ) from None


def test_accuracy(params: list[np.ndarray]) -> float:
    """Accuracy on the 10,000 MNIST test images of the reference MLP holding ``params`` (W1, b1, W2, b2)."""
    data = _mnist()
    x, y = to_vectors(data.test_images).astype(np.float64), data.test_labels.astype(np.int64)
    W1, b1, W2, b2 = (np.asarray(p, dtype=np.float64) for p in params)
    predictions = np.concatenate(
        [reference.mlp_forward(x[i : i + 1000], W1, b1, W2, b2).argmax(axis=1) for i in range(0, len(x), 1000)]
    )
    return float(np.mean(predictions == y))


def _reference_end(inputs: dict[str, Any]) -> list[np.ndarray]:
    """Where the grader's training of the reference MLP ends for these inputs (cached: it depends on the secret)."""
    data = _mnist()
    return gate_reference.reference_end(inputs, data.train_images, data.train_labels, gate_reference.cache_folder())


def _fail_python_loop(loop: dict[str, Any]) -> None:
    """The Python lines a training step runs grew with the batch: a loop over samples or entries."""
    (small, big), (rows_small, rows_big) = loop["lines"], loop["rows"]
    big_lines = say.GATE_AT_LEAST(count=f"{big:,}") if loop.get("capped") else f"{big:,}"
    counts = dict(small=f"{small:,}", small_rows=rows_small, big=big_lines, big_rows=rows_big)
    fail(
        SPEED,
        say.GATE_LOOP_EXPECTED(big_rows=rows_big, small_rows=rows_small),
        say.GATE_LOOP_GOT_WHERE(**counts, where=", ".join(loop["where"]))
        if loop.get("where")
        else say.GATE_LOOP_GOT(**counts),
        SLOW_HINT,
    )


def _fail_slowdown(speed: dict[str, Any], limit: float) -> None:
    """A training step took far more CPU time than the grader's own NumPy step, measured alternately with it."""
    message = EXPECTED_GOT(
        what=SPEED,
        expected=say.GATE_SLOWDOWN_EXPECTED(limit=f"{limit:g}"),
        got=say.GATE_SLOWDOWN_GOT(
            times=f"{speed['slowdown']:.1f}",
            student=f"{speed['student_ms']:.1f}",
            reference=f"{speed['reference_ms']:.2f}",
            pairs=speed["pairs"],
            step=speed["step"],
        ),
    )
    raise CheckFailed(Failure(message, SLOWER_HINT, None, {"times_reference": float(speed["slowdown"])}))


def judge_accuracy(inputs: dict[str, Any], records: list[dict[str, Any]]) -> Passed:
    """Judge the training the probe did; return the line to show on success."""
    (record,) = records
    got(record, "model", "MLP(784, 256, 10)", AFTER_CHECKS)
    got(record, "parameters", "MLP(784, 256, 10).parameters()", AFTER_CHECKS)
    expected = [list(a.shape) for a in inputs["init"]]
    if record["shapes"] != expected:
        fail(
            "MLP(784, 256, 10).parameters()",
            say.GATE_SHAPES_EXPECTED(shapes=expected),
            say.GATE_SHAPES(shapes=record["shapes"]),
            AFTER_CHECKS,
        )
    if "python_loop" in record:
        _fail_python_loop(record["python_loop"])
    logits = got(record, "logits", say.GATE_FORWARD, AFTER_CHECKS)
    if np.shape(logits) != (inputs["batch"], 10):
        fail(say.GATE_FORWARD, SHAPE(shape=(inputs["batch"], 10)), SHAPE(shape=np.shape(logits)), AFTER_CHECKS)
    if "training_error" in record:
        raise CheckFailed(explain_error(TRAINING, record["training_error"], formula=AFTER_CHECKS))
    if "missing_grad" in record:
        fail(
            TRAINING,
            say.GATE_EVERY_GRAD,
            say.GATE_WITHOUT_GRAD(names=record["missing_grad"]),
            say.GATE_BACKWARD_CALLS,
        )
    if "diverged_at" in record:
        fail(TRAINING, say.GATE_FINITE, say.GATE_DIVERGED_AT(steps=record["diverged_at"]), say.GATE_DIVERGED)
    for key in ("too_slow", "speed"):
        if key in record and not record[key]["slowdown"] <= inputs["max_slowdown"]:
            _fail_slowdown(record[key], inputs["max_slowdown"])
    trained = record["trained"]
    if not (
        isinstance(trained, list)
        and [np.shape(p) for p in trained] == [a.shape for a in inputs["init"]]
        and all(isinstance(p, np.ndarray) and p.dtype.kind == "f" for p in trained)
    ):
        fail(TRAINING, say.GATE_FLOAT_ARRAYS, say.GATE_SOMETHING_ELSE, FORGED)
    accuracy, seconds = test_accuracy(trained), record["seconds"]
    numbers = {"accuracy": accuracy, "seconds": seconds}
    if "speed" in record:
        numbers["times_reference"] = record["speed"]["slowdown"]
    if not accuracy >= THRESHOLD:
        message = say.GATE_ACCURACY(
            epochs=len(inputs["learning_rates"]),
            seconds=f"{seconds:.1f}",
            required=f"{THRESHOLD:.2%}",
            accuracy=f"{accuracy:.2%}",
        )
        raise CheckFailed(Failure(message, say.GATE_NOT_LEARNING, AFTER_CHECKS, numbers))
    far = gate_reference.distances(trained, _reference_end(inputs))
    if max(far) > gate_reference.MAX_DISTANCE:
        message = EXPECTED_GOT(
            what=TRAINING,
            expected=say.GATE_NEAR_REFERENCE(limit=f"{gate_reference.MAX_DISTANCE:.0%}"),
            got=say.GATE_TOO_FAR(w1=f"{far[0]:.0%}", w2=f"{far[1]:.0%}", accuracy=f"{accuracy:.2%}"),
        )
        raise CheckFailed(Failure(message, FAR, None, numbers))
    passed = dict(accuracy=f"{accuracy:.2%}", seconds=f"{seconds:.1f}", required=f"{THRESHOLD:.0%}")
    if "speed" in record:
        return Passed(say.GATE_PASSED_SPEED(**passed, times=f"{record['speed']['slowdown']:.1f}"), numbers)
    return Passed(say.GATE_PASSED(**passed), numbers)
