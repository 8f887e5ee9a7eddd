"""The given building blocks behave as the notebook says."""

import numpy as np
import pytest
from nn_messages import CORE_NOT_A_PARAMETER, CORE_NOT_IMPLEMENTED

from nn_core import Module, Optimizer, Parameter


class _Pair(Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = Parameter(np.ones((2, 3)))
        self.child = _Leaf()
        self.last = Parameter(np.zeros(4))


class _Leaf(Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = Parameter(np.ones(5))


def test_parameter_is_a_float32_array_with_an_empty_grad_slot() -> None:
    p = Parameter([[1, 2], [3, 4]])
    assert isinstance(p, np.ndarray) and p.dtype == np.float32 and p.grad is None
    assert Parameter([1.0], dtype=np.float64).dtype == np.float64


def test_arithmetic_on_a_parameter_gives_plain_arrays_and_in_place_updates_keep_it() -> None:
    p = Parameter(np.ones((2, 2)))
    assert type(p @ p) is np.ndarray and type(p + 1) is np.ndarray and type(p.sum()) is not Parameter
    view = p.view(np.ndarray)
    p -= 0.5 * np.ones((2, 2), np.float32)
    assert type(p) is Parameter and view[0, 0] == 0.5


def test_parameters_yields_own_then_child_parameters_in_attribute_order() -> None:
    module = _Pair()
    assert [p.shape for p in module.parameters()] == [(2, 3), (5,), (4,)]
    assert next(iter(module.parameters())) is module.first


def test_module_call_runs_forward_and_unimplemented_methods_say_so() -> None:
    module = Module()
    try:
        module(np.ones(1))
    except NotImplementedError as error:
        assert "Module.forward" in str(error)
    else:
        raise AssertionError("Module.forward should raise NotImplementedError")


def test_zero_grad_clears_every_grad_and_optimizer_rejects_plain_arrays() -> None:
    params = list(_Pair().parameters())
    for p in params:
        p.grad = np.ones_like(p)
    optimizer = Optimizer(params)
    optimizer.zero_grad()
    assert all(p.grad is None for p in params)
    try:
        Optimizer([np.ones(2)])
    except TypeError as error:
        assert "Parameters" in str(error)
    else:
        raise AssertionError("Optimizer accepted a plain array")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_base_classes_errors_are_messages_in_the_editions_language(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nn_i18n

    monkeypatch.setattr(nn_i18n, "LANGUAGE", language)
    with pytest.raises(NotImplementedError) as unwritten:
        Module().backward(np.ones(1))
    assert str(unwritten.value) == CORE_NOT_IMPLEMENTED(method="Module.backward").render(language)
    with pytest.raises(TypeError) as plain:
        Optimizer([np.ones(2)])
    assert str(plain.value) == CORE_NOT_A_PARAMETER(kind="ndarray").render(language)
    if language == "zh":
        assert "还没有实现" in str(unwritten.value) and "Parameter" in str(plain.value)
