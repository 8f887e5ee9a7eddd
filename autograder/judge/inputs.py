"""Hidden inputs of every check, drawn from the secret, as plain data (dicts of arrays and numbers).

Each check names its builder here (``registry.Check.inputs``); a builder gets a generator seeded by the secret, the
check's name and the student's id (``secret.rng_for``): two students of a course get different inputs.

The same function gives the same inputs to the probe in the kernel and in the
sandboxed worker, and to the judge. They include B = 1, D_out = 1 and a
square W (a transposed W then gives values, not a shape error).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autograder import registry
from autograder.judge.secret import rng_for

Inputs = dict[str, Any]


def away_from_zero(rng: np.random.Generator, shape: tuple[int, ...], margin: float = 0.1) -> np.ndarray:
    """Normal samples pushed at least ``margin`` away from 0 (so finite differences never cross the ReLU kink)."""
    x = rng.standard_normal(shape)
    return np.sign(x) * (np.abs(x) + margin) + (x == 0) * margin


def linear_cases(rng: np.random.Generator) -> Inputs:
    square = int(rng.integers(3, 7))
    shapes = [
        (int(rng.integers(3, 8)), square, square),
        (1, int(rng.integers(2, 6)), int(rng.integers(2, 6))),
        (int(rng.integers(3, 8)), int(rng.integers(2, 6)), 1),
        (int(rng.integers(8, 17)), int(rng.integers(5, 12)), int(rng.integers(3, 9))),
    ]
    normal = rng.standard_normal
    return {
        "cases": [
            {"x": normal((n, i)), "x_stale": normal((n, i)), "W": normal((i, o)), "b": normal(o), "g": normal((n, o))}
            for n, i, o in shapes
        ]
    }


def _relu_arrays(rng: np.random.Generator) -> list[np.ndarray]:
    """Arrays with some exact zeros (the gradient there must be 0) and values away from the kink."""
    arrays = []
    for shape in [(1, int(rng.integers(3, 7))), (int(rng.integers(4, 9)), int(rng.integers(3, 9)))]:
        x = away_from_zero(rng, shape)
        x.flat[rng.choice(x.size, size=max(1, x.size // 5), replace=False)] = 0.0
        arrays.append(x)
    return arrays


def relu_forward_cases(rng: np.random.Generator) -> Inputs:
    return {"cases": [{"x": x} for x in _relu_arrays(rng)]}


def relu_backward_cases(rng: np.random.Generator) -> Inputs:
    return {
        "cases": [
            {
                "x": x,
                "x_stale": rng.standard_normal(x.shape),
                "g": rng.standard_normal(x.shape),
                "x_smooth": away_from_zero(rng, x.shape),
            }
            for x in _relu_arrays(rng)
        ]
    }


def classification_cases(rng: np.random.Generator) -> Inputs:
    """Logits (B, C) and targets: B = 1 among the cases, then three kinds of huge logits, always in this order:
    ±1000 with every target near its row's max (exp overflows unless shifted; no probability underflows), small logits
    with each target 800 below its row's max (its probability underflows to 0), and ±1000 with random targets."""
    cases = []
    for batch, classes in [(1, int(rng.integers(3, 6))), (int(rng.integers(4, 9)), 2), (int(rng.integers(10, 20)), 10)]:
        cases.append({"z": 3.0 * rng.standard_normal((batch, classes)), "y": rng.integers(0, classes, size=batch)})
    near = rng.uniform(-1000.0, 1000.0, size=(5, 4))
    top = rng.integers(0, 4, size=5)
    near[np.arange(5), top] = rng.uniform(750.0, 1000.0, size=5)  # exp overflows in every row
    # the target is another entry, at most 3 below the largest of the others, so the row's dZ has entries far from 0.
    # (Were the target its row's max by far in every row, every entry of dZ would be a tiny 1 − p, and comparing those
    # would judge the rounding of both sides, not the student's math.)
    y_near = (top + rng.integers(1, 4, size=5)) % 4
    others = np.where(np.arange(4) == y_near[:, None], -np.inf, near)
    near[np.arange(5), y_near] = others.max(axis=1) - rng.uniform(0.0, 3.0, size=5)
    cases.append({"z": near, "y": y_near})
    far = rng.standard_normal((5, 4))
    y_far = rng.integers(0, 4, size=5)
    far[np.arange(5), y_far] = -800.0 - rng.uniform(0.0, 5.0, size=5)
    cases.append({"z": far, "y": y_far})
    cases.append({"z": rng.uniform(-1000.0, 1000.0, size=(6, 5)), "y": rng.integers(0, 5, size=6)})
    for case in cases:  # an earlier forward call, which backward must not use
        case["z_stale"] = rng.standard_normal(case["z"].shape)
        case["y_stale"] = rng.integers(0, case["z"].shape[1], size=case["z"].shape[0])
    return {"cases": cases}


def sgd_cases(rng: np.random.Generator) -> Inputs:
    """The parameter without a gradient first, in the middle and last, for every secret (a `break` is caught)."""
    shapes = [(4, 3), (3,), (2, 5), (1,), (5, 1)]
    cases = []
    for skipped in (0, len(shapes) // 2, len(shapes) - 1):
        cases.append(
            {
                "params": [rng.standard_normal(s).astype(np.float32) for s in shapes],
                "grads": [rng.standard_normal(s).astype(np.float32) for s in shapes],
                "skipped": skipped,
                "lr": float(rng.uniform(0.05, 0.5)),
            }
        )
    return {"cases": cases, "steps": 2}


def _weights(rng: np.random.Generator, d_in: int, hidden: int, classes: int) -> dict[str, np.ndarray]:
    shapes = {"W1": (d_in, hidden), "b1": (hidden,), "W2": (hidden, classes), "b2": (classes,)}
    return {name: rng.standard_normal(shape) for name, shape in shapes.items()}


def mlp_forward_cases(rng: np.random.Generator) -> Inputs:
    sizes = [(1, 4, 6, 3), (int(rng.integers(3, 9)), 5, 7, 1), (int(rng.integers(9, 17)), 8, 10, 4)]
    return {
        "cases": [
            {**_weights(rng, d_in, hidden, classes), "x": rng.standard_normal((batch, d_in))}
            for batch, d_in, hidden, classes in sizes
        ]
    }


def mlp_backward_cases(rng: np.random.Generator) -> Inputs:
    """Inputs whose hidden pre-activations are all at least 1e-3 away from the ReLU kink."""
    cases = []
    for batch, d_in, hidden, classes in [(1, 3, 5, 4), (int(rng.integers(4, 9)), 6, 8, 3)]:
        while True:
            weights, x = _weights(rng, d_in, hidden, classes), rng.standard_normal((batch, d_in))
            if np.abs(x @ weights["W1"] + weights["b1"]).min() > 1e-3:
                break
        cases.append({**weights, "x": x, "g": rng.standard_normal((batch, classes)) / batch})
    return {"cases": cases}


GATE_HIDDEN, GATE_BATCH, GATE_TRAIN_SIZE = 256, 32, 60000
# One learning rate per epoch. Three epochs (5,625 steps) instead of six: the reference solution reaches 97.63-97.89 %
# over 12 secrets (six epochs at 0.15: 98.0-98.2 %), never below 97.5 %, at half the gate's cost
# (benchmarks/gate_recipe.py, BENCHMARKS.md).
GATE_LEARNING_RATES = (0.2, 0.2, 0.03)
# Speed (autograder/grading/pace.py, autograder/judge/gate.py): the gate worker's CPU time, measured from outside its
# sandbox, must stay within GATE_MAX_SLOWDOWN times the grader's own float32 NumPy training of the same steps,
# measured the same way at the same time. How far other code is from that training depends on the CPU and on the
# load (BENCHMARKS.md, "The speed limit across machines"): float64 + einsum about 24 times, a per-entry Python loop
# in forward only 38-65, per-entry loops in forward and backward too (the catalogue's) about 650 per step. The
# limit is 4 times the einsum code's, and 1.5 times the forward-only loop's on the machine where it was slowest.
# No wall-clock limit inside the worker: wall time is the machine's, and the watch outside it (workers.py) stops a
# worker that waits (its stall and idle rules) and says when the machine cannot keep up (its backstop).
GATE_MAX_SLOWDOWN = 100.0


def gate_recipe(rng: np.random.Generator) -> Inputs:
    """The gate's recipe: He initialisation (biases 0) and one data order per epoch, from the grader's seed."""
    init = [
        rng.standard_normal((784, GATE_HIDDEN)) * math.sqrt(2.0 / 784),
        np.zeros(GATE_HIDDEN),
        rng.standard_normal((GATE_HIDDEN, 10)) * math.sqrt(2.0 / GATE_HIDDEN),
        np.zeros(10),
    ]
    return {
        "init": [a.astype(np.float32) for a in init],
        "orders": [rng.permutation(GATE_TRAIN_SIZE) for _ in GATE_LEARNING_RATES],
        "learning_rates": list(GATE_LEARNING_RATES),
        "batch": GATE_BATCH,
        "hidden": GATE_HIDDEN,
        "max_slowdown": GATE_MAX_SLOWDOWN,
    }


PER_COURSE = ("gate_recipe",)
"""The builders whose inputs are the course's, the same for every student: the gate's recipe (its reference training
is cached per secret, ``gate_reference``; it holds no input a student could use to pass another check)."""


def inputs_for(check: str, student: str = "") -> Inputs:
    """The hidden inputs of ``check`` (a name such as "linear_backward_dw") for ``student`` (an nbgrader student id),
    the same on every call. Every check's but the gate's differ from one student to the next; no student (``""``)
    gives the course's own (what the fast tier pins)."""
    per_course = registry.check(check).inputs in PER_COURSE
    return registry.inputs_of(check)(rng_for(check, "" if per_course else student))
