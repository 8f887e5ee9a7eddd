"""Weakened checks a reviewer's hand-written edits let through (issue 27): each test here fails on one such edit of
the grading code (``benchmarks/named_mutants.py`` lists them, and ``benchmarks/mutation.py --named`` applies each
in turn). Fast tier: the hidden checks run in this process under a fixed secret; no sandbox, no MNIST.

The tests assert on message ids and causes (typed values), never on English text.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nn_messages as say
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import nn_public_data as data  # noqa: E402

import grading  # noqa: E402
import nn_public  # noqa: E402
from autograder.classroom import Edit  # noqa: E402
from autograder.judge.inputs import inputs_for  # noqa: E402
from autograder.probe.loss import cross_entropy_backward  # noqa: E402
from autograder.probe.relu import relu_backward  # noqa: E402
from nn_checks import CheckFailed, check_close, check_within  # noqa: E402
from nn_diagnosis import LINEAR_DW  # noqa: E402

SECRET = grading.SECRETS[0]


def _names(*edits: Edit) -> dict[str, Any]:
    return grading.namespace(grading.catalogue_code(edits), "<weakened>")


def _lost(*edits: Edit, checks: tuple[str, ...] = grading.CHECKS) -> dict[str, say.Failure]:
    with grading.secret(SECRET):
        return grading.failures(_names(*edits), checks)


def _public_failure(check: Any, cls: type) -> say.Failure:
    with pytest.raises(CheckFailed) as failed:
        check(cls)
    return failed.value.failure


def _shape_failure(check: Any) -> say.Failure:
    with pytest.raises(CheckFailed) as failed:
        check()
    failure = failed.value.failure
    assert failure.message.id == say.EXPECTED_GOT.id, failure
    return failure


# ------------------------------------------------------------------ 1. the closeness check compares shapes first


@pytest.mark.parametrize("check", [check_close, lambda w, a, e: check_within(w, a, e, e, e)])
def test_the_closeness_check_refuses_a_transposed_array_before_comparing_values(check: Any) -> None:
    """A (4, 3) array for a (3, 4) one: a shape failure naming both shapes, not a broadcasting error or a pass."""
    expected = np.arange(12.0).reshape(3, 4)
    failure = _shape_failure(lambda: check("dW", expected.T, expected))
    assert failure.message.fields["expected"] == say.SHAPE(shape=(3, 4)), failure
    assert failure.message.fields["got"] == say.SHAPE(shape=(4, 3)), failure


@pytest.mark.parametrize("check", [check_close, lambda w, a, e: check_within(w, a, e, e, e)])
@pytest.mark.parametrize(
    ("given", "expected"),
    [((3, 1), (1, 3)), ((1, 3), (3,)), ((3,), (3, 1))],
    ids=["column-for-row", "row-for-vector", "vector-for-column"],
)
def test_the_closeness_check_refuses_an_array_that_only_broadcasts_to_the_expected_shape(
    check: Any, given: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    """Equal entries, shapes that broadcast together: the values agree after broadcasting, the shape does not."""
    failure = _shape_failure(lambda: check("b.grad", np.full(given, 2.0), np.full(expected, 2.0)))
    assert failure.message.fields["got"] == say.SHAPE(shape=given), failure


def test_a_judged_quantity_refuses_its_transpose() -> None:
    """The judges' closeness check (``Quantity.check``): dW transposed, with a square W (no broadcasting error)."""
    rng = np.random.default_rng(0)
    dw = rng.standard_normal((3, 4))
    with pytest.raises(CheckFailed) as failed:
        LINEAR_DW.check("W.grad", dw.T, dw)
    assert failed.value.failure.message.fields["got"] == say.SHAPE(shape=(4, 3)), failed.value.failure


# ------------------------------------------------------------------ 2. the public finite-difference check: b.grad


def _linear_wrong_only_in_the_fd_case(parameter: str) -> type:
    """The solution's Linear, but ``parameter``.grad is off by 1e-3 relative for layers of the public
    finite-difference case's shape only (the worked example and the small case have other shapes)."""
    shape = data.LINEAR["fd"]["W"].shape
    assert shape not in {data.LINEAR[k]["W"].shape for k in ("example", "small")} | {(3, 2)}
    line = {"W": "self.W.grad = x.T @ grad", "b": "self.b.grad = grad.sum(axis=0)"}[parameter]
    slip = f"{line} * (1.001 if self.W.shape == {shape} else 1.0)"
    return _names(Edit("linear", line, slip))["Linear"]


@pytest.mark.parametrize("parameter", ["W", "b"])
def test_the_public_linear_finite_difference_check_compares_every_parameters_grad(parameter: str) -> None:
    failure = _public_failure(nn_public.check_linear, _linear_wrong_only_in_the_fd_case(parameter))
    what = failure.message.fields["what"]
    assert what.id == say.FD_CHECK.id, failure
    assert what.fields["what"].id == say.NAMED_GRAD.id and what.fields["what"].fields["name"] == parameter, failure


def test_the_solution_linear_passes_the_public_check() -> None:
    """The counterpart of the test above: only the slip fails it."""
    nn_public.check_linear(_names()["Linear"])


# ------------------------------------------------------------------ 3, 4. SGD: .grad left as it was; two steps

CLEARS_GRAD = Edit(
    "sgd",
    "            if p.grad is not None:\n                p -= self.lr * p.grad",
    "            if p.grad is not None:\n"
    "                self.__dict__.setdefault('g', {}).setdefault(id(p), p.grad.copy())\n"
    "                p -= self.lr * self.g[id(p)]\n"
    "                p.grad = np.zeros_like(p.grad)",
)
"""An SGD that clears each .grad after using it (its own copy of the first gradient keeps the second step right)."""

MOVES_ONCE = Edit(
    "sgd",
    "        for p in self.params:\n",
    "        if getattr(self, 'moved', False):\n"
    "            return\n"
    "        self.moved = True\n"
    "        for p in self.params:\n",
)
"""An SGD whose step works the first time only."""


def test_an_sgd_step_that_clears_grad_loses_sgd_step_for_changing_grad() -> None:
    lost = _lost(CLEARS_GRAD, checks=("sgd_step",))
    assert set(lost) == {"sgd_step"} and lost["sgd_step"].cause == say.SGD_GRAD_CHANGED, lost


def test_the_public_sgd_check_requires_grad_left_as_it_was() -> None:
    failure = _public_failure(nn_public.check_sgd, _names(CLEARS_GRAD)["SGD"])
    assert failure.cause == say.SGD_GRAD_CHANGED, failure


def test_an_sgd_that_moves_only_on_its_first_step_loses_sgd_step() -> None:
    """The hidden cases take two steps: one step alone would pass this."""
    lost = _lost(MOVES_ONCE, checks=("sgd_step",))
    assert set(lost) == {"sgd_step"}, lost
    assert lost["sgd_step"].message.fields["what"].fields["after"].fields["steps"] == 2, lost


def test_the_public_sgd_check_takes_a_second_step() -> None:
    failure = _public_failure(nn_public.check_sgd, _names(MOVES_ONCE)["SGD"])
    assert failure.message.fields["what"].fields["after"].fields["steps"] == 2, failure


# ------------------------------------------------------------------ 5. the stale forward gets other inputs


class _Recorder:
    """A layer that only notes the arrays each call is given."""

    calls: list[tuple[np.ndarray, ...]] = []

    def __init__(self) -> None:
        type(self).calls = []

    def __call__(self, *arrays: np.ndarray) -> np.ndarray:
        type(self).calls.append(tuple(np.array(a) for a in arrays))
        return arrays[0]

    def backward(self, grad: np.ndarray | None = None) -> np.ndarray:
        return np.zeros(1) if grad is None else grad


@pytest.mark.parametrize(
    ("probe", "check"), [(cross_entropy_backward, "cross_entropy_backward"), (relu_backward, "relu_backward")]
)
def test_successive_forward_calls_of_a_backward_probe_get_different_inputs(probe: Any, check: str) -> None:
    """A forward that returns what it computed on an earlier call is caught only if the earlier call's inputs
    differ from the judged ones, in every case."""
    with grading.secret(SECRET):
        inputs = inputs_for(check)
    for case in inputs["cases"]:
        probe(_Recorder, {"cases": [case]})
        stale, judged = _Recorder.calls[0][0], _Recorder.calls[1][0]
        assert stale.shape != judged.shape or not np.array_equal(stale, judged), (check, stale, judged)


CACHED_LOSS = Edit(
    "cross_entropy",
    "        batch = logits.shape[0]\n        shifted = logits - logits.max(axis=1, keepdims=True)",
    '        if "probs" in self.ctx:\n            return self.ctx["loss"]\n'
    "        batch = logits.shape[0]\n        shifted = logits - logits.max(axis=1, keepdims=True)",
)


def test_a_loss_forward_that_returns_its_first_result_loses_the_backward_check() -> None:
    """forward computes on its first call only (``ctx["loss"]`` is kept), so backward sees the first inputs."""
    cached = (
        CACHED_LOSS,
        Edit(
            "cross_entropy",
            "        return -log_probs[np.arange(batch), targets].mean()",
            '        self.ctx["loss"] = -log_probs[np.arange(batch), targets].mean()\n        return self.ctx["loss"]',
        ),
    )
    lost = _lost(*cached, checks=("cross_entropy_forward", "cross_entropy_backward"))
    assert set(lost) == {"cross_entropy_backward"}, lost


def test_a_relu_forward_that_keeps_its_first_mask_loses_the_backward_check() -> None:
    lost = _lost(
        Edit("relu", 'self.ctx["mask"] = x > 0', 'self.ctx.setdefault("mask", x > 0)'),
        checks=("relu_forward", "relu_backward"),
    )
    assert set(lost) == {"relu_backward"}, lost


# ------------------------------------------------------------------ 6. Linear.forward leaves x unchanged

OVERWRITES_X = Edit(
    "linear",
    'self.ctx["x"] = x\n        return x @ self.W + self.b',
    'self.ctx["x"] = x.copy()\n        y = x @ self.W + self.b\n        x[...] = 0\n        return y',
)
"""A Linear.forward that overwrites its input after using it (its own copy keeps backward right)."""


def test_a_linear_forward_that_overwrites_x_loses_linear_forward_for_changing_it_in_place() -> None:
    lost = _lost(OVERWRITES_X, checks=("linear_forward", "linear_backward_dw"))
    assert set(lost) == {"linear_forward"} and lost["linear_forward"].cause == say.CHANGED_IN_PLACE, lost


def test_the_public_linear_check_requires_x_unchanged() -> None:
    failure = _public_failure(nn_public.check_linear, _names(OVERWRITES_X)["Linear"])
    assert failure.cause == say.CHANGED_IN_PLACE, failure


# ------------------------------------------------------------------ 7. the ReLU finite-difference case: 1e-6

SMOOTH_SLIP = Edit(
    "relu",
    'return grad * self.ctx["mask"]',
    'return grad * self.ctx["mask"] * (1.0 if self.ctx["zero"] else 1 + 1e-5)',
)
"""A ReLU.backward off by 1e-5 relative on inputs without an exact zero: only the finite-difference cases have none
(every hidden kink input and the public worked example hold one)."""


def _smooth_slip() -> tuple[Edit, ...]:
    return (
        SMOOTH_SLIP,
        Edit("relu", 'self.ctx["mask"] = x > 0', 'self.ctx["mask"] = x > 0\n        self.ctx["zero"] = (x == 0).any()'),
    )


def test_a_relu_backward_off_by_1e_5_away_from_the_kink_fails_the_hidden_finite_difference_check() -> None:
    lost = _lost(*_smooth_slip(), checks=("relu_forward", "relu_backward"))
    assert set(lost) == {"relu_backward"}, lost
    assert lost["relu_backward"].message.fields["what"].id == say.FD_CHECK.id, lost


def test_a_relu_backward_off_by_1e_5_away_from_the_kink_fails_the_public_finite_difference_check() -> None:
    failure = _public_failure(nn_public.check_relu, _names(*_smooth_slip())["ReLU"])
    assert failure.message.fields["what"].id == say.FD_CHECK.id, failure


# ------------------------------------------------------------------ kin: the loss and the MLP leave their inputs

SHIFTS_IN_PLACE = Edit(
    "cross_entropy",
    "        shifted = logits - logits.max(axis=1, keepdims=True)",
    "        logits -= logits.max(axis=1, keepdims=True)\n        shifted = logits",
)
"""The max shift done in place: the loss is right, the caller's logits are not."""


def test_a_loss_forward_that_shifts_the_logits_in_place_loses_the_forward_check_for_changing_them() -> None:
    lost = _lost(SHIFTS_IN_PLACE, checks=("cross_entropy_forward",))
    assert set(lost) == {"cross_entropy_forward"}, lost
    assert lost["cross_entropy_forward"].cause == say.CHANGED_IN_PLACE, lost


def test_the_public_loss_check_requires_the_logits_unchanged() -> None:
    failure = _public_failure(nn_public.check_cross_entropy, _names(SHIFTS_IN_PLACE)["CrossEntropyLoss"])
    assert failure.cause == say.CHANGED_IN_PLACE, failure


OVERWRITES_MLP_X = Edit(
    "mlp",
    "        return self.fc2(self.relu(self.fc1(x)))",
    "        logits = self.fc2(self.relu(self.fc1(x.copy())))\n        x[...] = 0\n        return logits",
)


def test_an_mlp_forward_that_overwrites_x_loses_mlp_forward_for_changing_it_in_place() -> None:
    lost = _lost(OVERWRITES_MLP_X, checks=("mlp_forward",))
    assert set(lost) == {"mlp_forward"} and lost["mlp_forward"].cause == say.CHANGED_IN_PLACE, lost


OVERWRITES_MLP_GRAD = Edit(
    "mlp",
    "        grad = self.fc2.backward(grad)\n",
    "        upstream, grad = grad, self.fc2.backward(grad.copy())\n        upstream[...] = 0\n",
)


def test_an_mlp_backward_that_overwrites_grad_loses_mlp_backward_for_changing_it_in_place() -> None:
    lost = _lost(OVERWRITES_MLP_GRAD, checks=("mlp_forward", "mlp_backward"))
    assert set(lost) == {"mlp_backward"} and lost["mlp_backward"].cause == say.CHANGED_IN_PLACE, lost
