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

from autograder.judge import gate_reference, reference
from autograder.judge.common import got
from mnist_data import MnistDataError, load_mnist, to_vectors
from nn_checks import fail
from nn_diagnosis import explain, explain_error

THRESHOLD = 0.97
AFTER_CHECKS = "the gate trains your MLP, Linear and ReLU: make their checks above pass first"
SLOW_HINT = "a Python loop over samples or entries in forward/backward; use matrix products (x @ W) on the whole batch"
SLOWER_HINT = (
    "a Python loop over samples or entries in forward/backward, or very large temporary arrays; "
    "use matrix products (x @ W) on the whole batch"
)
FORGED = "something other than the grader's training changed the parameters"
FAR = (
    "a gradient of your MLP, Linear or ReLU differs from the chapter's (see the backward checks above), or "
    "something other than the grader's update changed the parameters during training"
)
SPEED = "MNIST training speed"
TRAINING = "MNIST training (784-256-10, batch 32)"


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
    where = f", the extra ones in {', '.join(loop['where'])}" if loop.get("where") else ""
    got_lines = f"at least {big:,}" if loop.get("capped") else f"{big:,}"
    fail(
        SPEED,
        f"a training step (forward and backward) to run as many lines of Python for {rows_big} rows as for "
        f"{rows_small}, as whole-batch array operations do",
        f"{small:,} lines for {rows_small} rows and {got_lines} for {rows_big}{where}",
        SLOW_HINT,
    )


def _fail_slowdown(speed: dict[str, Any], limit: float) -> None:
    """A training step took far more CPU time than the grader's own NumPy step, measured alternately with it."""
    fail(
        SPEED,
        f"a training step to take at most {limit:g} times the CPU time of the grader's NumPy step of the "
        "same shapes, measured alternately with it",
        f"{speed['slowdown']:.1f} times ({speed['student_ms']:.1f} ms against {speed['reference_ms']:.2f} ms, "
        f"median of {speed['pairs']} pairs, up to step {speed['step']})",
        SLOWER_HINT,
    )


def judge_accuracy(inputs: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """Judge the training the probe did; return the line to show on success."""
    (record,) = records
    got(record, "model", "MLP(784, 256, 10)", AFTER_CHECKS)
    got(record, "parameters", "MLP(784, 256, 10).parameters()", AFTER_CHECKS)
    expected = [list(a.shape) for a in inputs["init"]]
    if record["shapes"] != expected:
        fail(
            "MLP(784, 256, 10).parameters()",
            f"W1, b1, W2, b2 of shapes {expected}",
            f"shapes {record['shapes']}",
            AFTER_CHECKS,
        )
    if "python_loop" in record:
        _fail_python_loop(record["python_loop"])
    logits = got(record, "logits", "MLP(784, 256, 10).forward on 32 MNIST images", AFTER_CHECKS)
    if np.shape(logits) != (inputs["batch"], 10):
        fail(
            "MLP(784, 256, 10).forward on 32 MNIST images",
            f"shape ({inputs['batch']}, 10)",
            f"shape {np.shape(logits)}",
            AFTER_CHECKS,
        )
    if "training_error" in record:
        raise AssertionError(explain_error(TRAINING, record["training_error"], formula=AFTER_CHECKS))
    if "missing_grad" in record:
        fail(
            TRAINING,
            "every parameter to have a .grad after MLP.backward",
            f"parameters {record['missing_grad']} without one",
            "MLP.backward must call fc2.backward, relu.backward and fc1.backward",
        )
    if "diverged_at" in record:
        fail(
            TRAINING,
            "finite logits",
            f"NaN or inf after {record['diverged_at']} SGD steps",
            "training diverged; a gradient is wrong (check the gradient tests above)",
        )
    for key in ("too_slow", "speed"):
        if key in record and not record[key]["slowdown"] <= inputs["max_slowdown"]:
            _fail_slowdown(record[key], inputs["max_slowdown"])
    trained = record["trained"]
    if not (
        isinstance(trained, list)
        and [np.shape(p) for p in trained] == [a.shape for a in inputs["init"]]
        and all(isinstance(p, np.ndarray) and p.dtype.kind == "f" for p in trained)
    ):
        fail(TRAINING, "the trained W1, b1, W2, b2 as float arrays", "something else", FORGED)
    accuracy, seconds = test_accuracy(trained), record["seconds"]
    if not accuracy >= THRESHOLD:
        message = (
            f"MNIST test accuracy after the grader's training ({len(inputs['learning_rates'])} epochs, {seconds:.1f} "
            "s): "
            f"expected at least {THRESHOLD:.2%} (a correct MLP reaches about 98%), got {accuracy:.2%}."
        )
        raise AssertionError(explain(message, "a gradient is slightly wrong or the model does not learn", AFTER_CHECKS))
    far = gate_reference.distances(trained, _reference_end(inputs))
    if max(far) > gate_reference.MAX_DISTANCE:
        fail(
            TRAINING,
            f"the trained W1 and W2 within {gate_reference.MAX_DISTANCE:.0%} (relative L2) of where the grader's own "
            "training of a correct MLP from the same start on the same data ends (a correct MLP, in float32, float64 "
            "or with einsum, ends 2-9 % away; training moves W1 about 50 % and W2 about 75 %)",
            f"W1 {far[0]:.0%} and W2 {far[1]:.0%} away (test accuracy {accuracy:.2%})",
            FAR,
        )
    speed = f", {record['speed']['slowdown']:.1f} times the grader's NumPy step" if "speed" in record else ""
    return f"MNIST: {accuracy:.2%} test accuracy after {seconds:.1f} s of training{speed} (required {THRESHOLD:.0%})."
