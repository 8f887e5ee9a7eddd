"""The course helpers' diagnosis and the worker's lookups: what mutants of the second sample of the mutation benchmark
(issue 27) changed with no test failing (fast tier, in this process)."""

from __future__ import annotations

from types import SimpleNamespace

import nn_messages as say
import nn_public_data
import numpy as np
import pytest

import nn_public
from autograder.probe import gate as probe_gate
from autograder.probe import linear as probe_linear
from autograder.probe import mlp as probe_mlp
from autograder.probe.run import probe_function
from nn_checks import check_within, worst_difference
from nn_core import Module, Parameter
from nn_diagnosis import LINEAR_DB, LINEAR_DW, LINEAR_DX, check_sgd


def test_an_sgd_that_replaces_the_parameters_is_told_so() -> None:
    """The step rebound the parameters to new objects: the cause says the update must be in place."""
    start = [np.zeros(2, np.float32), np.zeros(2, np.float32)]
    case = {
        "start": start,
        "grads": [np.ones(2, np.float32), np.ones(2, np.float32)],
        "skipped": 1,
        "lr": 0.1,
        "values": [[np.full(2, -0.1, np.float32), np.zeros(2, np.float32)]],
        "same_objects": [False],
    }
    with pytest.raises(AssertionError) as failed:
        check_sgd("SGD(params).step()", [case])
    failure = failed.value.failure
    assert failure.message.id == say.EXPECTED_GOT.id and failure.cause == say.SGD_REPLACED, failure


def test_a_manifest_entry_names_its_probe_function() -> None:
    assert probe_function({"module": "linear", "function": "linear_forward"}) is probe_linear.linear_forward


@pytest.mark.parametrize("container", ["list", "dict"])
def test_parameter_owners_look_at_the_first_16_modules_of_a_container_only(container: str) -> None:
    """The walk is bounded (a student's model may hold anything): a 17th layer is not searched."""
    layers = [Module() for _ in range(17)]
    model = Module()
    model.layers = layers if container == "list" else {f"l{i}": m for i, m in enumerate(layers)}
    children = probe_gate._children(model.layers)
    assert [m for _, m in children] == layers[:16]


def test_a_kept_array_of_the_same_shape_but_other_values_is_not_taken_for_the_layers_output() -> None:
    """What a student's layer kept is mirrored by the stand-ins only if it is the array (or equal to it)."""
    y = np.arange(6.0).reshape(2, 3)
    assert probe_mlp._same(y.copy(), y) and probe_mlp._same(y + 1e-9, y)
    assert not probe_mlp._same(y + 1.0, y) and not probe_mlp._same(y.T, y) and not probe_mlp._same(y.astype(int), y)


def test_the_stand_ins_replace_layers_an_mlp_holds_in_a_tuple_a_list_or_a_dict() -> None:
    own, stand_in, other = Module(), Module(), Module()
    model = SimpleNamespace(fc1=own, layers=(own, other), listed=[own], named={"fc1": own})
    probe_mlp._swap(model, {id(own): stand_in})
    assert model.fc1 is stand_in and model.layers == (stand_in, other)
    assert model.listed == [stand_in] and model.named == {"fc1": stand_in}


def test_the_worst_difference_is_relative_to_small_values_too() -> None:
    """2e-4 for 1e-4 is 50 % off: a scale of at least 1 would make the error absolute and pass a wrong small
    gradient."""
    assert worst_difference(np.array([0.0, 2e-4]), np.array([0.0, 1e-4])) == (0.5, (1,))
    assert worst_difference(np.array([3e-9]), np.array([1e-9]), scale=0.0)[0] == pytest.approx(2 / 3)


def test_the_loss_bands_error_is_relative_to_the_larger_of_the_value_and_the_answer() -> None:
    """1 outside a band at 1, for an answer of 2, is 50 % off (as in worst_difference), not 100 %."""
    check_within("loss", np.array(2.0), np.array(1.0), np.array(1.0), np.array(1.0), tolerance=0.6)
    with pytest.raises(AssertionError):
        check_within("loss", np.array(2.0), np.array(1.0), np.array(1.0), np.array(1.0), tolerance=0.4)


class _AveragedBias(Module):
    """A Linear whose backward averages db over the batch (the mistake ``DB_MEAN`` names, from the upstream's B)."""

    def __init__(self, W: np.ndarray, b: np.ndarray) -> None:
        super().__init__()
        self.W, self.b = Parameter(W, dtype=np.float64), Parameter(b, dtype=np.float64)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = x
        return x @ self.W + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        self.W.grad, self.b.grad = self.ctx["x"].T @ grad, grad.mean(axis=0)
        return grad @ self.W.T


def test_the_public_finite_difference_check_hands_the_upstream_to_the_suspects() -> None:
    """The cause of an averaged db is found from the upstream's batch size: ``check_gradients`` must pass it on."""
    case = nn_public_data.LINEAR["fd"]
    layer = _AveragedBias(case["W"], case["b"])
    with pytest.raises(AssertionError) as failed:
        nn_public.check_gradients(
            layer,
            case["x"].copy(),
            case["g"].copy(),
            case["dx"],
            [("W", layer.W, case["dW"]), ("b", layer.b, case["db"])],
            quantities=(LINEAR_DX, LINEAR_DW, LINEAR_DB),
            W=case["W"],
            b=case["b"],
            **case["mistakes"],
        )
    assert failed.value.failure.cause == say.DB_MEAN, failed.value.failure
