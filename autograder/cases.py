"""Hidden inputs: shapes and arrays drawn from the secret, including B = 1 and D_out = 1."""
from dataclasses import dataclass

import numpy as np

from autograder.secret import rng_for


@dataclass
class LinearCase:
    x: np.ndarray        # (B, D_in) the input that backward must use
    x_stale: np.ndarray  # an earlier input of the same shape, passed to forward first
    W: np.ndarray        # (D_in, D_out)
    b: np.ndarray        # (D_out,)
    g: np.ndarray        # (B, D_out) upstream gradient


def linear_shapes(rng: np.random.Generator) -> list[tuple[int, int, int]]:
    """(B, D_in, D_out): a square W first (a transposed W then gives values, not a shape error), one sample, one output unit, a general case."""
    square = int(rng.integers(3, 7))
    return [
        (int(rng.integers(3, 8)), square, square),
        (1, int(rng.integers(2, 6)), int(rng.integers(2, 6))),
        (int(rng.integers(3, 8)), int(rng.integers(2, 6)), 1),
        (int(rng.integers(8, 17)), int(rng.integers(5, 12)), int(rng.integers(3, 9))),
    ]


def linear_cases(check: str) -> list[LinearCase]:
    rng = rng_for(check)
    cases = []
    for batch, d_in, d_out in linear_shapes(rng):
        normal = rng.standard_normal
        cases.append(LinearCase(normal((batch, d_in)), normal((batch, d_in)), normal((d_in, d_out)), normal(d_out), normal((batch, d_out))))
    return cases


def away_from_zero(rng: np.random.Generator, shape: tuple[int, ...], margin: float = 0.1) -> np.ndarray:
    """Normal samples pushed at least ``margin`` away from 0 (so finite differences never cross the ReLU kink)."""
    x = rng.standard_normal(shape)
    return np.sign(x) * (np.abs(x) + margin) + (x == 0) * margin


def relu_inputs(check: str) -> list[np.ndarray]:
    """Arrays with some exact zeros (the gradient there must be 0) and values away from the kink."""
    rng = rng_for(check)
    arrays = []
    for shape in [(1, int(rng.integers(3, 7))), (int(rng.integers(4, 9)), int(rng.integers(3, 9)))]:
        x = away_from_zero(rng, shape)
        x.flat[rng.choice(x.size, size=max(1, x.size // 5), replace=False)] = 0.0
        arrays.append(x)
    return arrays


def classification_cases(check: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """(logits (B, C), targets (B,) int) with B = 1 among the cases."""
    rng = rng_for(check)
    cases = []
    for batch, classes in [(1, int(rng.integers(3, 6))), (int(rng.integers(4, 9)), 2), (int(rng.integers(10, 20)), 10)]:
        logits = 3.0 * rng.standard_normal((batch, classes))
        cases.append((logits, rng.integers(0, classes, size=batch)))
    return cases
