"""The building blocks every exercise uses: ``Parameter``, ``Module`` and ``Optimizer``.

This file is given to you; you do not need to change it. The notebook's
exercises subclass ``Module`` and ``Optimizer``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from nn_messages import CORE_NOT_A_PARAMETER, CORE_NOT_IMPLEMENTED

from nn_i18n import say  # a message in the notebook's language


class Parameter(np.ndarray):
    """A trainable array (float32 unless asked otherwise) with a ``.grad`` slot.

    ``backward`` of the module that owns it stores ``dL/dparameter`` in
    ``.grad`` (same shape as the parameter); ``Optimizer.zero_grad`` resets it
    to ``None``. Arithmetic on a Parameter gives a plain ``np.ndarray``.
    """

    grad: np.ndarray | None

    def __new__(cls, data: Any, dtype: Any = np.float32) -> Parameter:
        obj = np.array(data, dtype=dtype).view(cls)
        obj.grad = None
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        self.grad = None

    def __array_wrap__(self, arr: np.ndarray, context: Any = None, return_scalar: bool = False) -> Any:
        if arr is self:  # in-place update such as ``p -= lr * p.grad``
            return arr
        plain = arr.view(np.ndarray)
        return plain[()] if return_scalar else plain


class Module:
    """A layer: ``forward`` computes the output, ``backward`` the gradients.

    ``forward`` saves what ``backward`` needs in ``self.ctx`` (a dict).
    ``backward(grad)`` receives dL/d(output), stores dL/d(parameter) in each
    parameter's ``.grad`` and returns dL/d(input).
    """

    def __init__(self) -> None:
        self.ctx: dict[str, Any] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(say(CORE_NOT_IMPLEMENTED, method=f"{type(self).__name__}.forward"))

    def backward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(say(CORE_NOT_IMPLEMENTED, method=f"{type(self).__name__}.backward"))

    def parameters(self) -> Iterator[Parameter]:
        """Yield this module's Parameters, then its child modules', in attribute order."""
        for value in vars(self).values():
            if isinstance(value, Parameter):
                yield value
            elif isinstance(value, Module):
                yield from value.parameters()


class Optimizer:
    """Updates a fixed list of Parameters from their ``.grad``."""

    def __init__(self, params: Iterable[Parameter]) -> None:
        self.params: list[Parameter] = list(params)
        for p in self.params:
            if not isinstance(p, Parameter):
                raise TypeError(say(CORE_NOT_A_PARAMETER, kind=type(p).__name__))

    def step(self) -> None:
        raise NotImplementedError(say(CORE_NOT_IMPLEMENTED, method=f"{type(self).__name__}.step"))

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None
