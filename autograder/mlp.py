"""Hidden checks of ``MLP`` wiring: logits = fc2(relu(fc1(x))); backward through fc2, relu, fc1 in reverse order.

The student's MLP gets reference layers swapped in, so these checks test the
MLP's own code; a bug in the student's Linear or ReLU costs points there, not here.
"""
import numpy as np
from nn_checks import check_close, check_gradient, check_shape, fail, numerical_gradient

from autograder import reference
from autograder.common import VALUE_TOLERANCE, check_unchanged
from autograder.limits import time_limit
from autograder.reference_modules import ReferenceLinear, ReferenceReLU
from autograder.secret import rng_for

NAMES = ("W1", "b1", "W2", "b2")
GIVEN = "MLP.__init__ is given code: keep fc1 = Linear(input_dim, hidden_dim), relu = ReLU(), fc2 = Linear(hidden_dim, num_classes)"


def _check_parameters(mlp, d_in: int, hidden: int, classes: int) -> None:
    params = list(mlp.parameters())
    expected = [(d_in, hidden), (hidden,), (hidden, classes), (classes,)]
    what = f"list(MLP({d_in}, {hidden}, {classes}).parameters())"
    if [tuple(p.shape) for p in params] != expected:
        fail(what, f"W1, b1, W2, b2 with shapes {expected}", f"shapes {[tuple(p.shape) for p in params]}", GIVEN)
    owners = [mlp.fc1.W, mlp.fc1.b, mlp.fc2.W, mlp.fc2.b]
    if not all(p is q for p, q in zip(params, owners, strict=True)):
        fail(what, "the Parameter objects fc1.W, fc1.b, fc2.W, fc2.b themselves", "other arrays", GIVEN)


def _with_reference_layers(MLP: type, weights: dict[str, np.ndarray]):
    W1, b1, W2, b2 = (weights[n] for n in NAMES)
    mlp = MLP(W1.shape[0], W1.shape[1], W2.shape[1])
    _check_parameters(mlp, W1.shape[0], W1.shape[1], W2.shape[1])
    mlp.fc1, mlp.relu, mlp.fc2 = ReferenceLinear(W1, b1), ReferenceReLU(), ReferenceLinear(W2, b2)
    return mlp


def _weights(rng: np.random.Generator, d_in: int, hidden: int, classes: int) -> dict[str, np.ndarray]:
    shapes = {"W1": (d_in, hidden), "b1": (hidden,), "W2": (hidden, classes), "b2": (classes,)}
    return {name: rng.standard_normal(shape) for name, shape in shapes.items()}


def check_mlp_forward(MLP: type) -> None:
    """parameters() yields W1, b1, W2, b2; forward gives fc2(relu(fc1(x))) and leaves x alone."""
    rng = rng_for("mlp_forward")
    with time_limit("MLP.forward"):
        for batch, d_in, hidden, classes in [(1, 4, 6, 3), (int(rng.integers(3, 9)), 5, 7, 1), (int(rng.integers(9, 17)), 8, 10, 4)]:
            weights = _weights(rng, d_in, hidden, classes)
            mlp = _with_reference_layers(MLP, weights)
            x = rng.standard_normal((batch, d_in))
            given = x.copy()
            what = f"MLP({d_in}, {hidden}, {classes}).forward(x) for x of shape {x.shape}"
            logits = mlp(given)
            check_close(what, logits, reference.mlp_forward(x, *(weights[n] for n in NAMES)), VALUE_TOLERANCE,
                        "logits = fc2(relu(fc1(x))): call the three layers in this order and return the last output")
            check_unchanged(what, given, x)


def _margin_inputs(rng: np.random.Generator, d_in: int, hidden: int, classes: int, batch: int):
    """Inputs whose hidden pre-activations are all at least 1e-3 away from the ReLU kink."""
    for _ in range(1000):
        weights = _weights(rng, d_in, hidden, classes)
        x = rng.standard_normal((batch, d_in))
        if np.abs(reference.linear_forward(x, weights["W1"], weights["b1"])).min() > 1e-3:
            return weights, x
    raise RuntimeError("could not draw inputs away from the ReLU kink")  # pragma: no cover


def check_mlp_backward(MLP: type) -> None:
    """backward(dLogits) returns dX and fills every parameter's .grad; finite differences of MLP + cross-entropy."""
    rng = rng_for("mlp_backward")
    hint = "backward runs in reverse order: grad = fc2.backward(grad); grad = relu.backward(grad); return fc1.backward(grad)"
    with time_limit("MLP.backward"):
        for batch, d_in, hidden, classes in [(1, 3, 5, 4), (int(rng.integers(4, 9)), 6, 8, 3)]:
            weights, x = _margin_inputs(rng, d_in, hidden, classes, batch)
            targets = rng.integers(0, classes, size=batch)
            mlp = _with_reference_layers(MLP, weights)
            what = f"MLP({d_in}, {hidden}, {classes}) with x of shape {x.shape}"
            logits = mlp(x.copy())
            check_shape(f"{what}: forward(x)", logits, (batch, classes))
            upstream = reference.cross_entropy_grad(np.asarray(logits), targets)
            given = upstream.copy()
            dx = mlp.backward(given)
            check_unchanged(f"{what}: backward(grad)", given, upstream)
            expected = reference.mlp_backward(x, *(weights[n] for n in NAMES), upstream)
            check_close(f"{what}: dX returned by backward(grad)", dx, expected["x"], VALUE_TOLERANCE, hint)
            params = dict(zip(NAMES, (mlp.fc1.W, mlp.fc1.b, mlp.fc2.W, mlp.fc2.b), strict=True))
            for name, p in params.items():
                check_close(f"{what}: {name}.grad after backward(grad)", p.grad, expected[name], VALUE_TOLERANCE, hint)
            arrays = {"x": x.copy(), **{name: weights[name].copy() for name in NAMES}}

            def loss() -> float:
                return reference.cross_entropy(reference.mlp_forward(*(arrays[n] for n in ("x", *NAMES))), targets)

            check_gradient(f"{what}: dX of cross-entropy(MLP(x))", dx, numerical_gradient(loss, arrays["x"]), hint)
            for name, p in params.items():
                check_gradient(f"{what}: {name}.grad of cross-entropy(MLP(x))", p.grad, numerical_gradient(loss, arrays[name]), hint)
