"""The public checks' stored data (``source/mlp/nn_public_data.py``) is what the grader's reference computes.

The public checks compare with data, never with a function a student could call
(``tests/test_helpers_hold_no_answer.py``); that data is generated from one source, ``autograder/judge/public_data.py``:
here it is regenerated and compared, value by value, and the stored finite-difference gradients agree with the
reference's exact ones.
"""

from __future__ import annotations

import re
from typing import Any

import nn_public_data
import numpy as np
import pytest

from autograder.cli import public_data as writer
from autograder.judge import public_data, reference
from nn_checks import worst_difference

GENERATED = public_data.data()
ULPS = 1e-13
"""Floats agree to a few units in the last place, not bit for bit: NumPy's vectorised exp and log round the last bit
differently on CPUs with and without AVX-512, so data written on one machine differs by an ulp on another. A stale
file differs far more (any change of an input or a mistake)."""


def _same(stored: Any, computed: Any, where: str) -> None:
    if isinstance(computed, dict):
        assert isinstance(stored, dict) and set(stored) == set(computed), where
        for key in computed:
            _same(stored[key], computed[key], f"{where}.{key}")
    elif isinstance(computed, (list, tuple)):
        assert len(stored) == len(computed), where
        for i, (s, c) in enumerate(zip(stored, computed, strict=True)):
            _same(s, c, f"{where}[{i}]")
    elif isinstance(computed, np.ndarray):
        assert isinstance(stored, np.ndarray) and stored.dtype == computed.dtype, where
        assert np.shape(stored) == np.shape(computed), where
        if np.issubdtype(computed.dtype, np.floating):
            assert np.allclose(stored, computed, rtol=ULPS, atol=0.0, equal_nan=True), where
        else:
            assert np.array_equal(stored, computed), where
    elif isinstance(computed, float):
        assert type(stored) is float and np.isclose(stored, computed, rtol=ULPS, atol=0.0, equal_nan=True), where
    else:
        assert stored == computed and type(stored) is type(computed), where


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_the_stored_data_is_what_the_generator_computes_from_the_reference(name: str) -> None:
    """Fails on a stale file: run ``python -m autograder public-data``, then regenerate the editions."""
    _same(getattr(nn_public_data, name), GENERATED[name], name)


def test_the_stored_gradients_are_the_reference_gradients() -> None:
    linear, relu, loss, mlp = (
        nn_public_data.LINEAR["fd"],
        nn_public_data.RELU["fd"],
        nn_public_data.CROSS_ENTROPY["fd"],
        nn_public_data.MLP,
    )
    pairs = [
        *zip(
            (linear["dx"], linear["dW"], linear["db"]),
            reference.linear_backward(linear["x"], linear["W"], linear["g"]),
            strict=True,
        ),
        (relu["dx"], reference.relu_backward(relu["h"], relu["g"])),
        (loss["dz"], reference.cross_entropy_grad(loss["z"], loss["y"])),
    ]
    exact = reference.mlp_backward(mlp["x"], mlp["W1"], mlp["b1"], mlp["W2"], mlp["b2"], mlp["g"])
    pairs += [(mlp["grads"][k], exact[k]) for k in exact]
    for stored, expected in pairs:
        assert worst_difference(stored, expected)[0] < 1e-7


def test_the_written_file_evaluates_to_the_data() -> None:
    names: dict[str, Any] = {}
    exec(compile(writer.source(), "<nn_public_data>", "exec"), names)  # noqa: S102 - the generator's own text
    for name, value in GENERATED.items():
        _same(names[name], value, name)


def test_the_written_file_names_only_dtypes_numpy_1_26_has() -> None:
    # np.bool was removed in NumPy 1.24 and came back in 2.0; students may run 1.26 (pyproject: numpy>=1.26).
    dtypes = set(re.findall(r"dtype=([\w.]+)", writer.source()))
    assert dtypes and dtypes <= {"bool", "np.float32", "np.float64", "np.int64"}, dtypes
