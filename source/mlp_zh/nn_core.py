"""每个练习都要用到的基本组件：``Parameter``、``Module`` 和 ``Optimizer``。

这个文件已经给出，你不需要修改它。
笔记本中的练习都是 ``Module`` 和 ``Optimizer`` 的子类。
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from nn_messages import CORE_NOT_A_PARAMETER, CORE_NOT_IMPLEMENTED

from nn_i18n import say  # 消息用笔记本的语言显示


class Parameter(np.ndarray):
    """可训练的数组（除非另行指定，为 float32），多了一个 ``.grad`` 属性。

    拥有它的模块在 ``backward`` 中把 ``dL/dparameter`` 存入 ``.grad``（形状与参数相同）；
    ``Optimizer.zero_grad`` 把它重新设为 ``None``。
    对 Parameter 做算术运算得到的是普通的 ``np.ndarray``。
    """

    grad: np.ndarray | None

    def __new__(cls, data: Any, dtype: Any = np.float32) -> Parameter:
        obj = np.array(data, dtype=dtype).view(cls)
        obj.grad = None
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        self.grad = None

    def __array_wrap__(self, arr: np.ndarray, context: Any = None, return_scalar: bool = False) -> Any:
        if arr is self:  # 原地更新，例如 ``p -= lr * p.grad``
            return arr
        plain = arr.view(np.ndarray)
        return plain[()] if return_scalar else plain


class Module:
    """一层：``forward`` 计算输出，``backward`` 计算梯度。

    ``forward`` 把 ``backward`` 需要的内容保存在 ``self.ctx``（一个字典）中。
    ``backward(grad)`` 接收上游梯度 dL/d(输出)，把 dL/d(参数) 存入每个参数的 ``.grad``，
    并返回 dL/d(输入)。
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
        """按属性顺序，依次给出本模块的 Parameter，然后是其子模块的参数。"""
        for value in vars(self).values():
            if isinstance(value, Parameter):
                yield value
            elif isinstance(value, Module):
                yield from value.parameters()


class Optimizer:
    """根据各参数的 ``.grad`` 更新一个固定的 Parameter 列表。"""

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
