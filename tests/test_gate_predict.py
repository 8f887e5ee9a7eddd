"""The gate's test accuracy sums its logits by BLAS and predicts every class the float64 reference predicts: near ties
are left to the reference itself (``autograder.judge.gate.predict``)."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.judge import gate, reference


def _params(rng: np.random.Generator, scale: float = 1.0) -> list[np.ndarray]:
    return [
        rng.standard_normal((784, 256)) * np.sqrt(2 / 784) * scale,
        rng.standard_normal(256) * 0.1,
        rng.standard_normal((256, 10)) * np.sqrt(2 / 256) * scale,
        rng.standard_normal(10) * 0.1,
    ]


def _reference(x: np.ndarray, params: list[np.ndarray]) -> np.ndarray:
    return reference.mlp_forward(x, *params).argmax(axis=1)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e3])
def test_every_prediction_is_the_references(seed: int, scale: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, (1000, 784)).astype(np.float32).astype(np.float64) / 255
    params = _params(rng, scale)
    assert np.array_equal(gate.predict(x, *params), _reference(x, params))


def test_tied_logits_are_ordered_by_the_reference_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two equal output columns tie on every row: the reference's argmax (the first) decides, through its own code."""
    rng = np.random.default_rng(7)
    x = rng.random((50, 784))
    W1, b1, W2, b2 = _params(rng)
    W2[:, 4], b2[4] = W2[:, 7], b2[7]
    W2[:, 7] += 1e-15  # a difference below what two ways of summing can tell apart
    expected = _reference(x, [W1, b1, W2, b2])
    original, called = reference.mlp_forward, []

    def counted(*args: np.ndarray) -> np.ndarray:
        called.append(args[0].shape)
        return original(*args)

    monkeypatch.setattr(reference, "mlp_forward", counted)
    assert np.array_equal(gate.predict(x, W1, b1, W2, b2), expected)
    assert called == [x.shape], "a near tie is decided by the reference's own forward pass on the whole block"


def test_clear_rows_need_no_reference_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    x = rng.random((200, 784))
    params = _params(rng)
    expected = _reference(x, params)
    monkeypatch.setattr(reference, "mlp_forward", lambda *a: pytest.fail("no row is near a tie"))
    assert np.array_equal(gate.predict(x, *params), expected)


def test_non_finite_logits_are_left_to_the_reference() -> None:
    rng = np.random.default_rng(5)
    x = rng.random((20, 784))
    W1, b1, W2, b2 = _params(rng)
    W2[0, 3] = np.inf
    with np.errstate(invalid="ignore", over="ignore"):
        assert np.array_equal(gate.predict(x, W1, b1, W2, b2), _reference(x, [W1, b1, W2, b2]))
