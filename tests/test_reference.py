"""The grader's reference math is right: its gradients agree with central finite differences.

The hidden checks compare every gradient with the reference alone (a finite difference has its own error, which a
student must never be charged for), so the reference is proven here, on inputs where finite differences are exact
to far below the checks' tolerance: away from the ReLU kink and from a saturated softmax.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from autograder.course.nn_checks import worst_difference
from autograder.judge import reference
from autograder.judge.reference import numerical_gradient

SEEDS = range(5)
AGREEMENT = 1e-7  # central differences with ε = 1e-6 on these inputs agree to ~1e-9


def _away_from_zero(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    x = rng.standard_normal(shape)
    return np.sign(x) * (np.abs(x) + 0.1)


def _agrees(analytic: np.ndarray, f: Callable[[], float], x: np.ndarray) -> None:
    error, index = worst_difference(analytic, numerical_gradient(f, x))
    assert error <= AGREEMENT, (error, index)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_linear_gradients_are_those_of_sum_y_times_g(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x, W, b, g = (
        rng.standard_normal((6, 4)),
        rng.standard_normal((4, 3)),
        rng.standard_normal(3),
        rng.standard_normal((6, 3)),
    )
    dx, dW, db = reference.linear_backward(x, W, g)
    for analytic, wrt in ((dx, x), (dW, W), (db, b)):
        _agrees(analytic, lambda: float(np.sum(reference.linear_forward(x, W, b) * g)), wrt)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_relu_gradient_is_that_of_sum_relu_times_g(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x, g = _away_from_zero(rng, (5, 7)), rng.standard_normal((5, 7))
    _agrees(reference.relu_backward(x, g), lambda: float(np.sum(reference.relu_forward(x) * g)), x)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_cross_entropy_gradient_is_that_of_the_mean_loss(seed: int) -> None:
    rng = np.random.default_rng(seed)
    z, y = rng.standard_normal((6, 4)), rng.integers(0, 4, size=6)
    _agrees(reference.cross_entropy_grad(z, y), lambda: reference.cross_entropy(z, y), z)


def test_the_cross_entropy_is_the_mean_negative_log_probability_of_the_targets() -> None:
    z, y = np.array([[0.0, np.log(3.0)], [np.log(4.0), 0.0]]), np.array([1, 1])
    assert reference.cross_entropy(z, y) == pytest.approx(-(np.log(3 / 4) + np.log(1 / 5)) / 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_mlp_gradients_are_those_of_sum_logits_times_g(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x, g = rng.standard_normal((5, 4)), rng.standard_normal((5, 3))
    weights = {"W1": rng.standard_normal((4, 6)), "b1": rng.standard_normal(6)}
    weights |= {"W2": rng.standard_normal((6, 3)), "b2": rng.standard_normal(3)}
    hidden = reference.linear_forward(x, weights["W1"], weights["b1"])
    assert np.abs(hidden).min() > 1e-3  # no pre-activation within a finite-difference step of the ReLU kink

    def total() -> float:
        return float(np.sum(reference.mlp_forward(x, *weights.values()) * g))

    grads = reference.mlp_backward(x, *weights.values(), g)
    _agrees(grads["x"], total, x)
    for name, array in weights.items():
        _agrees(grads[name], total, array)
