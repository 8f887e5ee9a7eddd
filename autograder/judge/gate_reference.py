"""Where the gate's training must end: the grader's own run of its recipe, and how far a student's run may be from it.

The gate trains the student's MLP in the sandboxed worker, which also runs the student's code, so the parameters it
hands back prove nothing by themselves: weights trained elsewhere, or written into the parameters during training,
reach 97 % too. So the judge also asks where they are. This module trains the reference MLP (float32, NumPy) from
the same initialisation, on the same data order, with the same loss gradient and update, here on the trusted side.
Honest training with a correct forward and backward ends close to it (float64, ``einsum`` or another order of
operations: 2-9 % apart, relative L2 per tensor), while training moves every weight matrix 50-100 % of its size away
from the initialisation, and a network trained elsewhere is unrelated to it. A run whose parameters are farther than
``MAX_DISTANCE`` from the reference's end is not the recipe applied to a correct MLP, whatever its accuracy.

It depends only on the secret and the data, so it is computed once and kept in a cache file (mode 600) outside every
sandbox, keyed by a digest of the recipe and of the training data.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from autograder.judge import reference

MAX_DISTANCE = 0.25
"""Largest relative L2 distance (per weight matrix) from the reference's end that still counts as the recipe."""
WEIGHTS = (0, 2)
"""W1 and W2: the biases start at 0, so their relative distances say little."""
CACHE_VERSION = 3
"""Of the cache file's format and of what it holds: raised whenever the reference's training could change (3: its
loss gradient is ``reference.cross_entropy_grad``, the judges' own)."""


def step(params: list[np.ndarray], x: np.ndarray, y: np.ndarray, lr: float) -> None:
    """One SGD step of the reference MLP on ``params`` (W1, b1, W2, b2, float32, updated in place). Trusted side only:
    it never goes into a worker (see ``autograder.grading.pace`` for its use as the speed yardstick)."""
    W1, b1, W2, b2 = params
    h = x @ W1 + b1
    a = np.maximum(h, 0)
    g = reference.cross_entropy_grad((a @ W2 + b2).astype(np.float64), y).astype(np.float32)
    dh = (g @ W2.T) * (h > 0)
    for p, d in zip(params, (x.T @ dh, dh.sum(axis=0), a.T @ g, g.sum(axis=0)), strict=True):
        p -= lr * d


def train(inputs: dict[str, Any], x_train: np.ndarray, y_train: np.ndarray) -> list[np.ndarray]:
    """The reference MLP trained with the gate's recipe on ``x_train`` (float32 rows in [0, 1]): W1, b1, W2, b2 at the
    end, float32."""
    params = [np.array(a, dtype=np.float32) for a in inputs["init"]]
    batch = inputs["batch"]
    for lr, order in zip(inputs["learning_rates"], inputs["orders"], strict=True):
        for i in range(0, len(x_train), batch):
            rows = order[i : i + batch]
            step(params, x_train[rows], y_train[rows], lr)
    return params


def steps_of(inputs: dict[str, Any], train_size: int) -> int:
    """How many SGD steps the gate's recipe takes on ``train_size`` images."""
    return len(inputs["learning_rates"]) * -(-train_size // inputs["batch"])


def distances(trained: list[np.ndarray], reference: list[np.ndarray]) -> list[float]:
    """Relative L2 distance of each trained weight matrix from the reference's: |t - r| / |r|."""
    return [
        float(np.linalg.norm(np.asarray(trained[k], np.float64) - reference[k]) / np.linalg.norm(reference[k]))
        for k in WEIGHTS
    ]


def _digest(inputs: dict[str, Any], images: np.ndarray, labels: np.ndarray) -> str:
    h = hashlib.sha256(f"gate-reference-{CACHE_VERSION}".encode())
    for a in (*inputs["init"], *inputs["orders"], np.asarray(inputs["learning_rates"]), images, labels):
        h.update(str((a.dtype, a.shape)).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(str(inputs["batch"]).encode())
    return h.hexdigest()


def cache_folder() -> Path:
    """Where computed ends are kept: the user's cache (``$XDG_CACHE_HOME``), never a folder a sandbox sees."""
    return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "dl-notes-kit" / "gate-reference"


_memo: dict[str, list[np.ndarray]] = {}


def reference_end(
    inputs: dict[str, Any], images: np.ndarray, labels: np.ndarray, cache: Path | None
) -> list[np.ndarray]:
    """The reference's parameters at the end of the recipe on the MNIST training ``images`` (uint8) and ``labels``,
    from ``cache`` (a folder) when computed before."""
    from autograder.course.mnist_data import to_vectors  # a course helper: the same scaling as the probe's

    digest = _digest(inputs, images, labels)
    if digest in _memo:
        return _memo[digest]
    path = cache / f"gate-reference-{digest[:32]}.npz" if cache is not None else None
    if path is not None and path.is_file():
        try:
            with np.load(path, allow_pickle=False) as stored:
                params = [stored[f"p{k}"] for k in range(4)]
            if [p.shape for p in params] == [np.shape(a) for a in inputs["init"]]:
                _memo[digest] = params
                return params
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is recomputed
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # the same arithmetic on every machine
        params = train(inputs, to_vectors(images), labels.astype(np.int64))
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # mode 600
            with os.fdopen(fd, "wb") as out:
                np.savez(out, **{f"p{k}": p for k, p in enumerate(params)})
            os.replace(tmp, path)
        except OSError:
            pass  # no cache: computed again next time
    _memo[digest] = params
    return params
