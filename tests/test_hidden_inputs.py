"""The hidden inputs are what the checks and the notebook say they are, for every secret (fast tier).

A builder that drifts can silently weaken a check (an empty batch passes any forward; no two-class case lets a
two-class bug through) or fail correct code (a target that is its row's max by far makes dZ all rounding). These
properties hold for every secret; twelve are drawn here. Found missing by the mutation benchmark
(``benchmarks/mutation.py``).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import grading  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.judge.inputs import GATE_TRAIN_SIZE, away_from_zero, inputs_for  # noqa: E402

SECRETS = tuple(f"inputs-{i}" for i in range(12))


def _inputs(check: str, secret: str) -> dict[str, Any]:
    with grading.secret(secret):
        return inputs_for(check)


def _arrays(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, dict):
        return [a for v in value.values() for a in _arrays(v)]
    if isinstance(value, list | tuple):
        return [a for v in value for a in _arrays(v)]
    return []


def test_away_from_zero_keeps_every_sample_at_least_the_margin_from_zero() -> None:
    samples = away_from_zero(np.random.default_rng(0), (2000,), margin=0.1)
    assert np.abs(samples).min() >= 0.1
    assert (samples > 0).any() and (samples < 0).any()


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize("check", [check.name for check in registry.fast_checks()])
def test_no_hidden_input_is_empty(check: str, secret: str) -> None:
    """An array with a zero-length axis passes any forward: every axis of every hidden array has length ≥ 1."""
    arrays = _arrays(_inputs(check, secret))
    assert arrays and all(0 not in a.shape for a in arrays), [a.shape for a in arrays if 0 in a.shape]


@pytest.mark.parametrize("secret", SECRETS)
def test_linear_has_one_sample_one_output_a_square_w_and_a_larger_case(secret: str) -> None:
    shapes = [(c["x"].shape[0], *c["W"].shape) for c in _inputs("linear_forward", secret)["cases"]]
    assert any(batch == 1 for batch, _, _ in shapes) and any(d_out == 1 for _, _, d_out in shapes), shapes
    assert any(d_in == d_out for _, d_in, d_out in shapes), shapes
    assert max(batch for batch, _, _ in shapes) >= 8 and max(d_out for _, _, d_out in shapes) >= 3, shapes


@pytest.mark.parametrize("secret", SECRETS)
def test_the_cross_entropy_cases_are_the_four_kinds_the_checks_describe(secret: str) -> None:
    cases = _inputs("cross_entropy_backward", secret)["cases"]
    shapes = [c["z"].shape for c in cases]
    assert any(b == 1 for b, _ in shapes) and any(c == 2 for _, c in shapes), shapes
    near, far, wild = cases[-3], cases[-2], cases[-1]
    rows = np.arange(len(near["y"]))
    top = near["z"].max(axis=1)
    assert (top >= 750).all()  # exp overflows in every row unless shifted
    assert (near["z"].argmax(axis=1) != near["y"]).all() and (top - near["z"][rows, near["y"]] <= 3).all()
    rows = np.arange(len(far["y"]))
    assert (far["z"].max(axis=1) - far["z"][rows, far["y"]] >= 800).all()  # the target's probability underflows
    assert wild["z"].min() < -500 and wild["z"].max() > 500, wild["z"]


@pytest.mark.parametrize("secret", SECRETS)
def test_relu_has_exact_zeros_and_a_case_away_from_the_kink(secret: str) -> None:
    cases = _inputs("relu_backward", secret)["cases"]
    assert all((c["x"] == 0).any() for c in cases) and any(c["x"].shape[0] == 1 for c in cases)
    assert all(np.abs(c["x_smooth"]).min() >= 0.1 for c in cases)


@pytest.mark.parametrize("secret", SECRETS[:3])
def test_the_gate_starts_from_he_initialisation_and_shuffles_every_epoch(secret: str) -> None:
    recipe = _inputs("mnist_accuracy", secret)
    assert set(recipe) == {
        "init",
        "orders",
        "learning_rates",
        "batch",
        "hidden",
        "max_slowdown",
    }  # the keys autograder/probe/gate.py and the gate's judge read
    W1, b1, W2, b2 = recipe["init"]
    assert all(a.dtype == np.float32 for a in recipe["init"])
    assert W1.shape == (784, recipe["hidden"]) and W2.shape == (recipe["hidden"], 10)
    assert abs(W1.std() / math.sqrt(2 / 784) - 1) < 0.05 and abs(W2.std() / math.sqrt(2 / recipe["hidden"]) - 1) < 0.05
    assert not b1.any() and not b2.any()
    assert len(recipe["orders"]) == len(recipe["learning_rates"])
    for order in recipe["orders"]:
        assert np.array_equal(np.sort(order), np.arange(GATE_TRAIN_SIZE))


# ------------------------------------------------------------------ each student's own, all the way to the worker


def _same(a: Any, b: Any) -> bool:
    left, right = _arrays(a), _arrays(b)
    if len(left) != len(right):
        return False
    return all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(left, right, strict=True))


def test_the_workers_program_folder_holds_this_students_inputs(tmp_path: Path) -> None:
    from autograder.grading import workers
    from autograder.probe.core import load

    group = registry.worker_groups()[0]
    for student in ("alice", "bob"):
        program, _ = workers.prepare(tmp_path / student, group, [], tmp_path / "no-helpers", student)
        for check in group:
            saved = load(program / "inputs" / check)
            assert _same(saved, inputs_for(check, student)), (student, check)
            assert not _same(saved, inputs_for(check)), (student, check)  # not the course's


def test_nbgraders_verify_step_grades_the_submission_on_its_students_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    import nbformat

    from autograder.grading.workers import Grading
    from autograder.preprocessors import verify

    graded: list[str] = []
    monkeypatch.setattr(verify, "prepare_grading", lambda *args: Grading(helpers=Path("."), mnist=None))
    monkeypatch.setattr(verify, "control_cells", lambda *args: None)
    monkeypatch.setattr(verify, "verify", lambda cells, grading, control: graded.append(grading.student) or {})
    info = {"assignment": "mlp", "student": "alice", "notebook": "mlp"}
    verify.VerifyOutsideKernel().preprocess(nbformat.v4.new_notebook(), {"nbgrader": info})
    assert graded == ["alice"]
