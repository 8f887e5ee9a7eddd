"""Probe of the MNIST gate: train the student's MLP with the grader's recipe and keep the trained parameters.

The recipe (initialisation, data order, batch, learning rates) comes with the
inputs; the loss gradient and the SGD update are the grader's, so only the
student's MLP, Linear and ReLU are exercised. The judge measures accuracy.
"""
from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
from mnist_data import load_mnist, to_vectors
from threadpoolctl import threadpool_limits

from .core import CheckTimeout, Record, Stopped, collect_cases, plain, raised, time_limit


def _cross_entropy_grad(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """dL/dlogits of the mean softmax cross-entropy, float64."""
    z = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    probs[np.arange(len(targets)), targets] -= 1.0
    return probs / len(targets)


def _train(MLP: type, inputs: dict[str, Any], record: Record) -> None:
    data = load_mnist()
    x_train, y_train = to_vectors(data.train_images), data.train_labels.astype(np.int64)
    model = record.run("model", MLP, x_train.shape[1], inputs["hidden"], 10)
    params = list(record.run("parameters", model.parameters))
    record.keep("shapes", [list(np.shape(p)) for p in params])
    if [tuple(np.shape(p)) for p in params] != [tuple(a.shape) for a in inputs["init"]]:
        raise Stopped
    for p, value in zip(params, inputs["init"], strict=True):
        p[...] = value
    batch, n = inputs["batch"], len(x_train)
    total_steps = len(inputs["learning_rates"]) * math.ceil(n / batch)
    start, cpu_start, step = time.perf_counter(), time.process_time(), 0
    for lr, order in zip(inputs["learning_rates"], inputs["orders"], strict=True):
        for i in range(0, n, batch):
            rows = order[i:i + batch]
            logits = record.run("logits", model, x_train[rows]) if step == 0 else model(x_train[rows])
            logits = np.asarray(logits)
            if step == 0 and logits.shape != (len(rows), 10):
                raise Stopped
            grad = _cross_entropy_grad(logits.astype(np.float64), y_train[rows]).astype(logits.dtype)
            for p in params:  # fresh gradients each step, whether backward sets or accumulates them
                p.grad = None
            model.backward(grad)
            missing = [k for k, p in enumerate(params) if p.grad is None]
            if missing:
                record.keep("missing_grad", missing)
                raise Stopped
            for p in params:
                p -= lr * p.grad
            step += 1
            if step in (10, 50) or step % 250 == 0:
                if not np.isfinite(logits).all():
                    record.keep("diverged_at", step)
                    raise Stopped
                elapsed = time.process_time() - cpu_start  # CPU time: other load on the machine does not count
                if elapsed * total_steps / step > inputs["budget_seconds"]:
                    record.keep("too_slow", {"step": step, "total_steps": total_steps, "cpu_seconds": elapsed})
                    raise Stopped
    record.keep("seconds", time.perf_counter() - start)
    record.keep("trained", [plain(np.array(p)) for p in params])


def mnist_accuracy(MLP: type, inputs: dict[str, Any]) -> list[Record]:
    """Train on one BLAS thread: the result is the same on every machine, and a busy machine cannot make it look slow."""
    def probe(_: None, record: Record) -> None:
        try:
            _train(MLP, inputs, record)
        except (Stopped, CheckTimeout):
            raise
        except Exception as error:  # noqa: BLE001 - a crash inside training is the student's code failing
            record.keep("training_error", raised(error))

    with time_limit("MNIST training", inputs["budget_seconds"] + 60), threadpool_limits(limits=1, user_api="blas"):
        return collect_cases([None], probe)
