"""Hidden checks of ``MLP`` wiring: logits = fc2(relu(fc1(x))); backward through fc2, relu, fc1 in reverse order.

The student's MLP gets reference layers swapped in, so these checks test the
MLP's own code; a bug in the student's Linear or ReLU costs points there, not here.
The layers record the order in which the MLP calls them, for the diagnosis.
"""
import numpy as np
from nn_checks import FD_TOLERANCE, check_shape, check_unchanged, numerical_gradient
from nn_diagnosis import MLP_BACKWARD, MLP_FORWARD, call_order_cause, check_parameters, record_calls, run_recorded

from autograder import reference
from autograder.common import GRADER_FILES, VALUE_TOLERANCE, run_student
from autograder.limits import time_limit
from autograder.reference_modules import ReferenceLinear, ReferenceReLU
from autograder.secret import rng_for

NAMES = ("W1", "b1", "W2", "b2")
GIVEN = "MLP.__init__ is given code: keep fc1 = Linear(input_dim, hidden_dim), relu = ReLU(), fc2 = Linear(hidden_dim, num_classes)"


def _with_reference_layers(MLP: type, weights: dict[str, np.ndarray]):
    """The student's MLP with reference layers holding ``weights``, and the list their calls are recorded in."""
    W1, b1, W2, b2 = (weights[n] for n in NAMES)
    mlp = run_student(f"MLP{(W1.shape[0], W1.shape[1], W2.shape[1])}", MLP, W1.shape[0], W1.shape[1], W2.shape[1])
    what = f"list(MLP{(W1.shape[0], W1.shape[1], W2.shape[1])}.parameters())"
    check_parameters(what, list(run_student(what, mlp.parameters)), NAMES, [mlp.fc1.W, mlp.fc1.b, mlp.fc2.W, mlp.fc2.b])
    mlp.fc1, mlp.relu, mlp.fc2 = ReferenceLinear(W1, b1), ReferenceReLU(), ReferenceLinear(W2, b2)
    return mlp, record_calls(mlp)


def _weights(rng: np.random.Generator, d_in: int, hidden: int, classes: int) -> dict[str, np.ndarray]:
    shapes = {"W1": (d_in, hidden), "b1": (hidden,), "W2": (hidden, classes), "b2": (classes,)}
    return {name: rng.standard_normal(shape) for name, shape in shapes.items()}


def check_mlp_forward(MLP: type) -> None:
    """parameters() yields W1, b1, W2, b2; forward gives fc2(relu(fc1(x))) and leaves x alone."""
    rng = rng_for("mlp_forward")
    with time_limit("MLP.forward"):
        for batch, d_in, hidden, classes in [(1, 4, 6, 3), (int(rng.integers(3, 9)), 5, 7, 1), (int(rng.integers(9, 17)), 8, 10, 4)]:
            weights = _weights(rng, d_in, hidden, classes)
            mlp, calls = _with_reference_layers(MLP, weights)
            x = rng.standard_normal((batch, d_in))
            given = x.copy()
            what = f"MLP({d_in}, {hidden}, {classes}).forward(x) for x of shape {x.shape}"
            logits = run_recorded(what, mlp, calls, "forward", given, formula=MLP_FORWARD.formula, skip=(GRADER_FILES,))
            MLP_FORWARD.check(what, logits, reference.mlp_forward(x, *(weights[n] for n in NAMES)), VALUE_TOLERANCE,
                              cause=call_order_cause(calls, "forward"), x=x, **weights)
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
    with time_limit("MLP.backward"):
        for batch, d_in, hidden, classes in [(1, 3, 5, 4), (int(rng.integers(4, 9)), 6, 8, 3)]:
            weights, x = _margin_inputs(rng, d_in, hidden, classes, batch)
            targets = rng.integers(0, classes, size=batch)
            mlp, calls = _with_reference_layers(MLP, weights)
            what = f"MLP({d_in}, {hidden}, {classes}) with x of shape {x.shape}"
            logits = run_recorded(f"{what}: forward(x)", mlp, calls, "forward", x.copy(), formula=MLP_FORWARD.formula, skip=(GRADER_FILES,))
            check_shape(f"{what}: forward(x)", logits, (batch, classes))
            upstream = reference.cross_entropy_grad(np.asarray(logits), targets)
            given = upstream.copy()
            dx = run_recorded(f"{what}: backward(grad)", mlp.backward, calls, "backward", given, formula=MLP_BACKWARD.formula, skip=(GRADER_FILES,))
            check_unchanged(f"{what}: backward(grad)", given, upstream)
            expected = reference.mlp_backward(x, *(weights[n] for n in NAMES), upstream)
            order = call_order_cause(calls, "backward")
            inputs = {"x": x, "g": upstream, **weights}
            MLP_BACKWARD.check(f"{what}: dX returned by backward(grad)", dx, expected["x"], VALUE_TOLERANCE, cause=order, **inputs)
            params = dict(zip(NAMES, (mlp.fc1.W, mlp.fc1.b, mlp.fc2.W, mlp.fc2.b), strict=True))
            for name, p in params.items():
                MLP_BACKWARD.check(f"{what}: {name}.grad after backward(grad)", p.grad, expected[name], VALUE_TOLERANCE, cause=order)
            arrays = {"x": x.copy(), **{name: weights[name].copy() for name in NAMES}}

            def loss() -> float:
                return reference.cross_entropy(reference.mlp_forward(*(arrays[n] for n in ("x", *NAMES))), targets)

            MLP_BACKWARD.check(f"{what}: dX of cross-entropy(MLP(x)) (finite-difference check)", dx, numerical_gradient(loss, arrays["x"]),
                               FD_TOLERANCE, cause=order, **inputs)
            for name, p in params.items():
                MLP_BACKWARD.check(f"{what}: {name}.grad of cross-entropy(MLP(x)) (finite-difference check)", p.grad,
                                   numerical_gradient(loss, arrays[name]), FD_TOLERANCE, cause=order)
