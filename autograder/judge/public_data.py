"""The public checks' data, computed from the grader's reference (written by ``python -m autograder public-data``).

The notebook's public checks (``nn_public``) run a student's class on fixed inputs and compare what came with
expected values they hold as data (``nn_public_data``), never with a function a student could call on inputs of
their own choosing. This module is that data's one source: the fixed inputs, the expected values from the float64
reference (``reference.py``; the gradients by central finite differences of the reference's forward, as the checks
say), and the wrong answers of the typical mistakes (``suspects.py``). ``tests/test_public_data.py`` proves the
released file holds what this computes.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from autograder.judge import reference, suspects


def _fd(f: Any, *arrays: np.ndarray) -> list[np.ndarray]:
    """Central differences of the scalar ``f()`` with respect to each array (changed in place, then restored)."""
    return [reference.numerical_gradient(f, a) for a in arrays]


def _finite(wrong: dict[str, Any]) -> dict[str, Any]:
    """The wrong answers a suspect can match (a non-finite one never does), as stored."""
    return {k: v for k, v in wrong.items() if not isinstance(v, np.ndarray) or np.isfinite(v).all()}


def linear() -> dict[str, Any]:
    example = dict(
        x=np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]], np.float32),
        W=np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        b=np.array([0.5, -0.5]),
        g=np.array([[1.0, 0.0], [0.0, 2.0]], np.float32),
    )
    small = dict(
        x_stale=np.array([[9.0, 9.0]]), x=np.array([[3.0, 1.0]]), W=np.array([[1.0], [-2.0]]), b=np.array([0.5])
    )
    small["g"] = np.array([[2.0]])
    rng = np.random.default_rng(0)
    W, b = rng.standard_normal((4, 3)), rng.standard_normal(3)
    fd = dict(x=rng.standard_normal((5, 4)), W=W, b=b, g=rng.standard_normal((5, 3)))
    data = {}
    for name, case in (("example", example), ("small", small), ("fd", fd)):
        x, W, b, g = (np.asarray(case[k], np.float64) for k in ("x", "W", "b", "g"))
        y = reference.linear_forward(x, W, b)
        dx, dW, db = reference.linear_backward(x, W, g)
        if name == "fd":
            x, W, b = x.copy(), W.copy(), b.copy()
            dx, dW, db = _fd(lambda: float(np.sum(reference.linear_forward(x, W, b) * g)), x, W, b)  # noqa: B023
        data[name] = {**case, "y": y, "dx": dx, "dW": dW, "db": db, "mistakes": _finite(suspects.linear(**case))}
    return data


def relu() -> dict[str, Any]:
    h, h_stale, g = np.array([[-2.0, 0.0, 3.0]]), np.array([[1.0, 1.0, -1.0]]), np.array([[5.0, 5.0, -5.0]])
    rng = np.random.default_rng(1)
    h_fd = rng.standard_normal((4, 5))
    h_fd += np.sign(h_fd) * 0.1  # stay away from the kink at 0, where finite differences are meaningless
    g_fd = rng.standard_normal((4, 5))
    perturbed = h_fd.copy()
    (dx_fd,) = _fd(lambda: float(np.sum(reference.relu_forward(perturbed) * g_fd)), perturbed)
    return {
        "example": {
            "h": h,
            "h_stale": h_stale,
            "g": g,
            "y": reference.relu_forward(h),
            "dx": reference.relu_backward(h, g),
            "forward_mistakes": _finite(suspects.relu(x=h)),
            "backward_mistakes": _finite(suspects.relu(x=h, x_stale=h_stale, g=g)),
        },
        "fd": {"h": h_fd, "g": g_fd, "dx": dx_fd, "mistakes": _finite(suspects.relu(x=h_fd, g=g_fd))},
    }


def cross_entropy() -> dict[str, Any]:
    rng = np.random.default_rng(2)
    cases = {
        "example": (np.array([[0.0, np.log(3.0), 0.0], [0.0, 0.0, 0.0]]), np.array([1, 0])),
        "one": (np.array([[2.0, 0.0]]), np.array([1])),
        "huge": (np.array([[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 999.0]]), np.array([0, 2])),
        "far": (np.array([[0.0, -800.0, 1.0], [2.0, 0.0, -790.0]]), np.array([1, 2])),
        "fd": (0.1 * rng.standard_normal((6, 4)), rng.integers(0, 4, size=6)),
    }
    stale = {"z": np.ones((2, 3)), "y": np.array([2, 2])}  # the forward before the example's: backward must not use it
    earlier = {"example": {"z_stale": stale["z"], "y_stale": stale["y"]}}
    data = {}
    for name, (z, y) in cases.items():
        dz = reference.cross_entropy_grad(z, y)
        if name == "fd":
            z_fd = z.copy()
            (dz,) = _fd(lambda: reference.cross_entropy(z_fd, y), z_fd)  # noqa: B023
        data[name] = {
            "z": z,
            "y": y,
            "log_p": reference.log_softmax(z)[np.arange(len(y)), y],
            "dz": dz,
            "mistakes": _finite(suspects.cross_entropy(z, y, **earlier.get(name, {}))),
        }
    data["stale"] = stale
    return data


def sgd() -> dict[str, Any]:
    start = [np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32), np.array([[-1.0, 0.5]], np.float32)]
    grads = [np.array([10.0, -10.0], np.float32), np.array([4.0], np.float32), np.array([[2.0, -6.0]], np.float32)]
    lr, steps = 0.1, 2
    cases = []
    for skipped in (0, 1, 2):
        case = suspects.sgd_case(start, grads, skipped, lr, steps)
        cases.append({"skipped": skipped, **case, "mistakes": [[_finite(m) for m in s] for s in case["mistakes"]]})
    return {"start": start, "grads": grads, "lr": lr, "steps": steps, "cases": cases}


def mlp() -> dict[str, Any]:
    rng = np.random.default_rng(3)
    shapes = {"W1": (5, 7), "b1": (7,), "W2": (7, 3), "b2": (3,)}
    while True:  # hidden pre-activations away from the ReLU kink, where finite differences are meaningless
        weights = {name: rng.standard_normal(shape) for name, shape in shapes.items()}
        x, g = rng.standard_normal((4, 5)), rng.standard_normal((4, 3))
        if np.abs(x @ weights["W1"] + weights["b1"]).min() > 1e-2:
            break
    arrays = {"x": x.copy(), **{k: v.copy() for k, v in weights.items()}}

    def loss() -> float:
        return float(np.sum(reference.mlp_forward(*(arrays[k] for k in ("x", "W1", "b1", "W2", "b2"))) * g))

    grads = dict(zip(arrays, _fd(loss, *arrays.values()), strict=True))
    logits = reference.mlp_forward(x, *(weights[k] for k in ("W1", "b1", "W2", "b2")))
    mistakes = _finite(suspects.mlp(x=x, g=g, **weights))
    return {"x": x, **weights, "g": g, "logits": logits, "grads": grads, "mistakes": mistakes}


def data() -> dict[str, Any]:
    """Every public check's data, by check."""
    return {"LINEAR": linear(), "RELU": relu(), "CROSS_ENTROPY": cross_entropy(), "SGD": sgd(), "MLP": mlp()}


ARRAY_KEYS = ("dtype", "shape", "data")
"""An array as stored: ``{"dtype": "float64", "shape": [2, 3], "data": [[...], [...]]}``, its dtype's name, its shape
and its values as nested lists (``ndarray.tolist()``); every other value is JSON's own (dicts, lists, numbers, booleans,
null). Floats are written by ``repr``, which round-trips a float64 bit for bit; a float32 is exactly a float64."""


def encoded(value: Any) -> Any:
    """``value`` as JSON values that decode to it exactly (``nn_public_data.decoded``)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and not np.isfinite(value).all():
            raise ValueError("a stored value must be finite")
        if value.dtype.name not in ("bool", "float32", "float64", "int64"):
            raise TypeError(f"cannot store an array of {value.dtype}")
        return dict(zip(ARRAY_KEYS, (value.dtype.name, list(value.shape), value.tolist()), strict=True))
    if isinstance(value, dict):
        if set(value) == set(ARRAY_KEYS) or not all(isinstance(k, str) for k in value):
            raise TypeError(f"cannot store a dict with the keys {sorted(map(str, value))}")
        return {k: encoded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encoded(v) for v in value]
    if isinstance(value, (float, int, bool, str, type(None))) and not isinstance(value, np.generic):
        if isinstance(value, float) and not np.isfinite(value):
            raise ValueError("a stored value must be finite")
        return value
    raise TypeError(f"cannot store {type(value).__name__}")


def text(value: Any) -> str:
    """``value`` as JSON text (``encoded``): dicts and lists one item a line, indented by two spaces; an array on one
    line."""
    return _layout(encoded(value), "")


def _layout(value: Any, indent: str) -> str:
    if not isinstance(value, (dict, list)) or not value or isinstance(value, dict) and set(value) == set(ARRAY_KEYS):
        return json.dumps(value, allow_nan=False, ensure_ascii=False)
    inner = indent + "  "
    if isinstance(value, dict):
        items, brackets = [f"{inner}{json.dumps(k)}: {_layout(v, inner)}" for k, v in value.items()], "{}"
    else:
        items, brackets = [inner + _layout(v, inner) for v in value], "[]"
    return brackets[0] + "\n" + ",\n".join(items) + "\n" + indent + brackets[1]
