"""笔记本的公开检查：每个类一个函数，由类下方的检查单元格调用。

每项检查都会在几个小算例上运行你的类，逐一检查它的**评分要求**所列的每项性质，
并与有限差分算出的梯度比较。所有输入和应得的结果都是数据，由评分程序的 float64 参考实现事先算好
（``nn_public_data``）：这里没有任何代码会为你自选的输入算出答案。
检查通过时打印 ``<类名>：公开检查全部通过。``，否则抛出 ``CheckFailed``，只给出一条消息：应当是什么、
实际是什么、可能的原因（只在结果能确定原因时给出）以及公式。
仍然抛出 ``NotImplementedError`` 的方法只会被报告为还没有实现，不再推断别的原因。

在终端中运行 ``python nn_public.py mlp_zh.ipynb`` 相当于 ``nbgrader validate mlp_zh.ipynb``，
并且用退出状态表明是否通过（``validate``）。
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import nn_messages as say
import nn_public_data as data
import numpy as np
from nn_messages import CheckFailed, Failure, Text

import nn_diagnosis as diagnose
from nn_checks import FD_TOLERANCE, check_array, check_dtype, check_gradient, check_shape, check_unchanged
from nn_core import Module, Parameter
from nn_i18n import LANGUAGE

# what the notebook calls, and all that help(nn_public) lists (their docstrings are the edition's language)
__all__ = ["check_linear", "check_relu", "check_cross_entropy", "check_sgd", "check_mlp", "ready_to_train"]
Check = Callable[[type], None]
CHECKED: dict[str, bool] = {}
"""Each part whose public check ran in this kernel: whether it passed the last time (read by ``ready_to_train``)."""
PARTS = ("Linear", "ReLU", "CrossEntropyLoss", "SGD", "MLP")
"""Every part with a public check, in the notebook's order."""


def public_check(part: str) -> Callable[[Check], Check]:
    """Run a check of ``part``; print that it passed, or raise ``CheckFailed`` with its message (no traceback)."""

    def decorate(check: Check) -> Check:
        @functools.wraps(check)
        def run(cls: type) -> None:
            CHECKED[part] = False
            skipped = diagnose.bound_where_grading_skips(part, cls)
            if skipped is not None:  # the grader would see another part, or none
                line, statement = skipped
                failure = say.BOUND_WHERE_GRADING_SKIPS(part=part, line=line, statement=statement)
                raise CheckFailed(Failure(failure, say.GRADING_RUNS_TOP_LEVEL))
            try:
                # NumPy's RuntimeWarnings (overflow in exp, divide by zero in log) would print in English beside the
                # check's own words: a check tells a NaN or inf itself, with its likely cause, in the edition's language
                with np.errstate(all="ignore"):
                    check(cls)
            except CheckFailed:
                raise
            except Exception as error:  # noqa: BLE001 - whatever the student's code raises, explained
                method = diagnose.unwritten_method(error)
                failure = (
                    diagnose.not_written(part, method)
                    if method
                    else diagnose.explain_error(say.YOUR_PART(part=part), error)
                )
                raise CheckFailed(failure) from None
            CHECKED[part] = True
            print(say.PASSED(part=part).render(LANGUAGE))

        return run

    return decorate


def ready_to_train() -> None:
    """训练单元格的第一步：如果有部分的公开检查在这个内核中没有通过，就抛出 ``CheckFailed`` 并列出这些部分；
    否则列出公开检查还没有在这个内核中运行的部分（用它们训练只会以报错告终）。"""
    failed = [part for part in PARTS if CHECKED.get(part) is False]
    not_run = [part for part in PARTS if part not in CHECKED]
    if failed or not_run:
        words = say.TRAIN_CHECKS_FAILED if failed else say.TRAIN_CHECKS_NOT_RUN
        raise CheckFailed(Failure(words(parts=failed or not_run)))


def check_gradients(
    module: Any,
    x: np.ndarray,
    upstream: np.ndarray,
    expected_dx: np.ndarray,
    expected_grads: Sequence[tuple[str, Any, np.ndarray]],
    quantities: Sequence[Any] = (),
    unset: Mapping[str, Text] | None = None,
    **inputs: Any,
) -> None:
    """Check ``module.backward(upstream)`` after ``module.forward(x)`` against stored gradients (finite differences
    of L = sum(module(x) * upstream) computed by the grader): dX, then each parameter ``parameters()`` yields whose
    expected ``.grad`` is in ``expected_grads`` (its name as code, the parameter and its gradient).

    ``quantities`` (from ``nn_diagnosis``), for dX and then each parameter, name the likely cause of a wrong gradient;
    ``inputs`` (the inputs and the stored wrong answers) are passed on to them, with ``x`` and ``g`` (the upstream).
    ``unset`` names, by parameter name, the cause of a ``.grad`` that is None.
    """
    name = type(module).__name__
    params = list(module.parameters())
    module.forward(x)
    dx = module.backward(upstream.copy())
    call = f"{name}.backward(grad)"
    results = [(say.RETURNED_DX(call=call), dx, expected_dx, None)]
    for p in params:
        named, expected = next(((n, e) for n, q, e in expected_grads if q is p), (None, None))
        if expected is not None:
            not_set = (unset or {}).get(named) if p.grad is None else None
            results.append((say.NAMED_GRAD(call=call, name=named), p.grad, expected, not_set))
    for k, (what, analytic, expected, not_set) in enumerate(results):
        if k < len(quantities):
            quantities[k].check(
                say.FD_CHECK(what=what), analytic, expected, FD_TOLERANCE, unset=not_set, x=x, g=upstream, **inputs
            )
        else:
            check_gradient(what, analytic, expected, not_set)


UNSET = {name: say.GRAD_NOT_SET(attribute=f"{name}.grad", method="Linear.backward") for name in ("W", "b")}
"""What a ``.grad`` of Linear's that is None means: ``Linear.backward`` never stored it."""


@public_check("Linear")
def check_linear(Linear: type) -> None:
    """Linear 的公开检查：一个示例、评分要求中的各项性质（float64、B = 1、最近一次 forward、不修改输入）、有限差分。"""
    case = data.LINEAR["example"]
    layer = Linear(3, 2)
    check_shape("Linear(3, 2).W", layer.W, (3, 2), say.LINEAR_GIVEN)
    check_shape("Linear(3, 2).b", layer.b, (2,), say.LINEAR_GIVEN)
    layer.W[...] = case["W"]
    layer.b[...] = case["b"]
    x, g = case["x"].copy(), case["g"].copy()
    # the inputs and the wrong answers of the typical mistakes on them let a failed check name the likely mistake
    example = dict(x=x, W=np.array(layer.W), b=np.array(layer.b), g=g, **case["mistakes"])
    diagnose.LINEAR_FORWARD.check(say.ON_EXAMPLE(call="Linear.forward"), layer(x), case["y"], **example)
    dx = layer.backward(g)
    diagnose.LINEAR_DX.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="dX"), dx, case["dx"], **example
    )
    diagnose.LINEAR_DW.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="W.grad"),
        layer.W.grad,
        case["dW"],
        unset=UNSET["W"],
        **example,
    )
    diagnose.LINEAR_DB.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="b.grad"),
        layer.b.grad,
        case["db"],
        unset=UNSET["b"],
        **example,
    )

    # float64 in, float64 out; B = 1 and D_out = 1; backward uses the latest forward; nothing it was given is modified
    case = data.LINEAR["small"]
    layer = Linear(2, 1)
    layer.W, layer.b = Parameter(case["W"], dtype=np.float64), Parameter(case["b"], dtype=np.float64)
    x_stale, x, g = case["x_stale"].copy(), case["x"].copy(), case["g"].copy()
    inputs = dict(x=x, x_stale=x_stale, W=np.array(layer.W), b=np.array(layer.b), g=g, **case["mistakes"])
    layer(x_stale.copy())
    y = layer(x)
    diagnose.LINEAR_FORWARD.check(say.FOR_X_SHAPE(call="Linear(2, 1).forward", shape=(1, 2)), y, case["y"], **inputs)
    check_dtype(say.FOR_FLOAT64_XWB(call="Linear(2, 1).forward"), y, np.float64)
    check_unchanged("Linear(2, 1).forward", x, case["x"])
    dx = layer.backward(g)
    check_unchanged("Linear(2, 1).backward(grad)", g, case["g"])
    diagnose.LINEAR_DX.check(say.PART_OF(what="Linear(2, 1).backward", part="dX"), dx, case["dx"], **inputs)
    diagnose.LINEAR_DW.check(
        say.PART_OF(what=say.AFTER_STALE_FORWARD(call="Linear(2, 1).backward"), part="W.grad"),
        layer.W.grad,
        case["dW"],
        unset=UNSET["W"],
        **inputs,
    )
    diagnose.LINEAR_DB.check(
        say.PART_OF(what="Linear(2, 1).backward", part="b.grad"), layer.b.grad, case["db"], unset=UNSET["b"], **inputs
    )
    for name, value in (("dX", dx), ("W.grad", layer.W.grad), ("b.grad", layer.b.grad)):
        call = say.PART_OF(what="Linear(2, 1).backward", part=name)
        check_dtype(say.FOR_FLOAT64_INPUTS(call=call), np.asarray(value), np.float64)
    y32 = Linear(3, 2)(np.ones((4, 3), dtype=np.float32))  # the given float32 parameters work too
    check_shape(say.FOR_FLOAT32_X(call="Linear(3, 2).forward"), y32, (4, 2))
    check_array(say.FOR_FLOAT32_X(call="Linear(3, 2).forward"), y32)

    case = data.LINEAR["fd"]
    layer = Linear(4, 3)
    layer.W, layer.b = Parameter(case["W"], dtype=np.float64), Parameter(case["b"], dtype=np.float64)
    check_gradients(
        layer,
        case["x"].copy(),
        case["g"].copy(),
        case["dx"],
        [("W", layer.W, case["dW"]), ("b", layer.b, case["db"])],
        quantities=(diagnose.LINEAR_DX, diagnose.LINEAR_DW, diagnose.LINEAR_DB),
        unset=UNSET,
        W=case["W"],
        b=case["b"],
        **case["mistakes"],
    )


@public_check("ReLU")
def check_relu(ReLU: type) -> None:
    """ReLU 的公开检查：含有恰好为 0 的输入的示例、评分要求中的各项性质，然后在远离不可导点处做有限差分。"""
    case = data.RELU["example"]
    relu = ReLU()
    h, h_stale, g = case["h"].copy(), case["h_stale"].copy(), case["g"].copy()
    relu(h_stale.copy())
    y = relu(h)
    diagnose.RELU_FORWARD.check(
        say.ON_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), y, case["y"], x=h, **case["forward_mistakes"]
    )
    check_dtype(say.ON_FLOAT64_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), y, np.float64)
    check_unchanged(say.ON_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), h, case["h"])
    dx = relu.backward(g)
    check_unchanged(say.WITH_GRAD(call="ReLU.backward(grad)", g="[5, 5, -5]"), g, case["g"])
    diagnose.RELU_BACKWARD.check(
        say.AFTER_EARLIER_WITH_GRAD(call="ReLU.backward", h="[-2, 0, 3]", g="[5, 5, -5]"),
        dx,
        case["dx"],
        x=h,
        x_stale=h_stale,
        g=g,
        **case["backward_mistakes"],
    )
    check_dtype(say.FOR_FLOAT64_GRAD(call="ReLU.backward"), dx, np.float64)
    relu = ReLU()  # a layer whose every input is negative (dead units) passes no gradient back, whatever its mask
    relu(np.full((2, 3), -1.0))
    dead = say.WITH_GRAD(call=say.ON_INPUT(call="ReLU.backward", h="np.full((2, 3), -1.0)"), g="np.ones((2, 3))")
    diagnose.RELU_BACKWARD.check(dead, relu.backward(np.ones((2, 3))), np.zeros((2, 3)))

    case = data.RELU["fd"]  # away from the kink at 0, where finite differences are meaningless
    check_gradients(
        ReLU(), case["h"].copy(), case["g"].copy(), case["dx"], [], (diagnose.RELU_BACKWARD,), **case["mistakes"]
    )


def _loss(loss_fn: Any, z: np.ndarray, y: np.ndarray) -> tuple[Any, dict[str, list[str]]]:
    """``loss_fn(z, y)``, and the floating-point errors it met (where a NaN began), for ``check_loss``'s diagnosis."""
    with diagnose.noting_float_errors() as float_errors:
        loss = loss_fn(z, y)
    return loss, {"float_errors": float_errors}


@public_check("CrossEntropyLoss")
def check_cross_entropy(CrossEntropyLoss: type) -> None:
    """CrossEntropyLoss 的公开检查：示例、±1000 的 logits、真实标签的概率下溢为 0 的情况，然后做有限差分。"""
    cases = data.CROSS_ENTROPY
    loss_fn = CrossEntropyLoss()
    stale = cases["stale"]
    loss_fn(stale["z"].copy(), stale["y"].copy())  # an earlier call, which backward must not use
    case = cases["example"]  # softmax [1/5, 3/5, 1/5] and [1/3] * 3
    z, y = case["z"].copy(), case["y"].copy()
    example = say.ON_EXAMPLE(call="CrossEntropyLoss")
    loss, noted = _loss(loss_fn, z, y)
    diagnose.check_loss(example, loss, case["log_p"], z=z, y=y, **noted, **case["mistakes"])
    check_unchanged(example, z, case["z"])
    dz = loss_fn.backward()
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.ON_EXAMPLE(call="CrossEntropyLoss.backward"), dz, case["dz"], z=z, y=y, **case["mistakes"]
    )
    check_dtype(say.FOR_FLOAT64_LOGITS(call="CrossEntropyLoss.backward"), dz, np.float64)
    case = cases["one"]  # one sample: still one number
    z, y = case["z"].copy(), case["y"].copy()
    loss, noted = _loss(loss_fn, z, y)
    diagnose.check_loss(
        say.FOR_LOGITS_SHAPE(call="CrossEntropyLoss", shape=(1, 2)),
        loss,
        case["log_p"],
        z=z,
        y=y,
        **noted,
        **case["mistakes"],
    )

    # targets near the row's max: exp(1000) overflows unless each row's max is subtracted
    case = cases["huge"]
    z, y = case["z"].copy(), case["y"].copy()
    loss, noted = _loss(loss_fn, z, y)
    diagnose.check_loss(
        say.ON_HUGE_LOGITS(call="CrossEntropyLoss"), loss, case["log_p"], z=z, y=y, **noted, **case["mistakes"]
    )
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.ON_HUGE_LOGITS(call="CrossEntropyLoss.backward"),
        loss_fn.backward(),
        case["dz"],
        z=z,
        y=y,
        **case["mistakes"],
    )
    case = cases["far"]  # target probabilities underflow
    z, y = case["z"].copy(), case["y"].copy()
    loss, noted = _loss(loss_fn, z, y)
    diagnose.check_loss(
        say.TARGETS_UNDERFLOW(call="CrossEntropyLoss"), loss, case["log_p"], z=z, y=y, **noted, **case["mistakes"]
    )
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.TARGETS_UNDERFLOW(call="CrossEntropyLoss.backward"),
        loss_fn.backward(),
        case["dz"],
        z=z,
        y=y,
        **case["mistakes"],
    )

    case = cases["fd"]  # small logits: an eps changes nothing here
    z, y = case["z"].copy(), case["y"].copy()
    loss_fn(z, y)
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.FD_CHECK(what="CrossEntropyLoss.backward()"),
        loss_fn.backward(),
        case["dz"],
        FD_TOLERANCE,
        z=z,
        y=y,
        **case["mistakes"],
    )


@public_check("SGD")
def check_sgd(SGD: type) -> None:
    """SGD 的公开检查：原地更新两步，没有梯度的参数分别位于第一个、中间和最后一个。"""
    cases = []
    start, grads, lr = data.SGD["start"], data.SGD["grads"], data.SGD["lr"]
    for stored in data.SGD["cases"]:  # the expected parameters after each step, and the typical mistakes' ones
        skipped = stored["skipped"]
        params = [Parameter(s) for s in start]
        for i, p in enumerate(params):
            p.grad = None if i == skipped else grads[i].copy()
        views = [p.view(np.ndarray) for p in params]  # a view sees the update only if the parameter changes in place
        optimizer = SGD(params, lr=lr)
        case: dict[str, Any] = dict(
            start=start,
            grads=grads,
            skipped=skipped,
            lr=lr,
            expected=stored["expected"],
            mistakes=stored["mistakes"],
            values=[],
            same_objects=[],
            all_parameters=[],
            dtypes=[],
            grads_after=[],
        )
        for _ in range(data.SGD["steps"]):
            try:
                optimizer.step()
            except Exception as error:  # noqa: BLE001 - after a step that replaced the list's Parameters, that is why
                if all(case["same_objects"]):
                    raise
                failure = diagnose.explain_error(say.YOUR_PART(part="SGD"), error, cause=say.SGD_REPLACED)
                raise CheckFailed(failure) from None
            case["values"].append([np.array(v) for v in views])
            case["same_objects"].append(
                len(optimizer.params) == 3 and all(a is b for a, b in zip(optimizer.params, params, strict=False))
            )
            case["all_parameters"].append(all(isinstance(p, Parameter) for p in optimizer.params))
            case["dtypes"].append([str(p.dtype) for p in params])
            case["grads_after"].append([None if p.grad is None else np.array(p.grad) for p in params])
        cases.append(case)
    diagnose.check_sgd("SGD(params).step()", cases)


def _traced(cls: type) -> tuple[type, list[str]]:
    """A subclass of the student's layer ``cls``, of the same name, that notes which of forward and backward was
    called last from outside (the method a failed check had just run), and that list."""
    last: list[str] = []
    depth = [0]

    def tracing(method: str) -> Callable[..., Any]:
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            if not depth[0]:
                last.append(method)
            depth[0] += 1
            try:
                return getattr(cls, method)(self, *args, **kwargs)
            finally:
                depth[0] -= 1

        return run

    try:
        traced = type(cls.__name__, (cls,), {"forward": tracing("forward"), "backward": tracing("backward")})
    except Exception:  # noqa: BLE001 - a class that cannot be subclassed is checked as it is
        return cls, last
    traced.__qualname__, traced.__module__ = cls.__qualname__, cls.__module__
    return traced, last


def _check_layers_first(name: str, model: Any) -> None:
    """Run the public checks of the layers ``model`` runs (the student's own Linear and ReLU), so that the MLP is not
    blamed for its layers: fail naming the first layer whose check fails, and the method it had just run."""
    checked: set[type] = set()
    for attribute, check in (("fc1", check_linear), ("relu", check_relu), ("fc2", check_linear)):
        layer = getattr(model, attribute, None)
        cls = type(layer)
        if not isinstance(layer, Module) or cls in checked:  # a layer of the kind the layers' checks check
            continue
        checked.add(cls)
        traced, last = _traced(cls)
        try:
            check.__wrapped__(traced)  # the check itself, without printing that it passed
        except Exception:  # noqa: BLE001 - a failed check, or whatever the layer raised
            layer_name = cls.__name__
            cause = (
                say.FIX_LAYER_FIRST(method=f"{layer_name}.{last[-1]}", layer=layer_name)
                if last
                else say.FIX_CLASS_FIRST(layer=layer_name)
            )
            raise CheckFailed(Failure(say.LAYER_UNCHECKED(model=name, layer=layer_name), cause)) from None


def _own_method_not_written(model: Any) -> None:
    """Re-raise the NotImplementedError of a method of ``model``'s own class not written yet (forward, then backward
    after a forward that ran), so that it is told as not written rather than as its layers' fault; anything else
    raised here is left to the checks that follow."""
    own = f"{type(model).__name__}."
    for method, arguments in (("forward", np.zeros((4, 5))), ("backward", np.zeros((4, 3)))):
        try:
            getattr(model, method)(arguments)
        except NotImplementedError as error:
            if (diagnose.unwritten_method(error) or "").startswith(own):
                raise
            return
        except Exception:  # noqa: BLE001 - the checks below run it again and say what went wrong
            return


def _order_cause(model: Any, calls: list[str], x: np.ndarray, g: np.ndarray, came: dict[str, Any]) -> Text | None:
    """The layer-order mistake the calls show, forward first. A ReLU whose call was not seen is said to be skipped
    only if what came is what the MLP gives without it (``_relu_skipped``): a ReLU that is a closure, called
    directly, runs without its ``forward`` being seen."""
    for direction in ("forward", "backward"):
        cause = diagnose.call_order_cause(calls, direction)
        if cause in (say.RELU_NOT_CALLED_FORWARD, say.RELU_NOT_CALLED_BACKWARD) and not _relu_skipped(
            model, direction, x, g, came[direction]
        ):
            cause = diagnose.call_order_cause(calls, direction, unseen=(f"relu.{direction}",))
        if cause is not None:
            return cause
    return None


def _relu_skipped(model: Any, direction: str, x: np.ndarray, g: np.ndarray, came: Any) -> bool:
    """Whether what the MLP's ``direction`` gave (``came``) is what its own fc1 and fc2 (their checks passed) give
    without the ReLU, and not what they give with it."""
    try:
        with np.errstate(all="ignore"):
            h = np.asarray(model.fc1.forward(x.copy()), dtype=np.float64)
            if direction == "forward":
                without, with_relu = model.fc2.forward(h.copy()), model.fc2.forward(np.maximum(h, 0.0))
            else:
                model.fc2.forward(np.maximum(h, 0.0))
                upstream = np.asarray(model.fc2.backward(g.copy()), dtype=np.float64)
                without, with_relu = model.fc1.backward(upstream.copy()), model.fc1.backward(upstream * (h > 0))
            came, without, with_relu = (np.asarray(a, dtype=np.float64) for a in (came, without, with_relu))
            return (
                came.shape == without.shape == with_relu.shape
                and bool(np.allclose(came, without))
                and not bool(np.allclose(came, with_relu))
            )
    except Exception:  # noqa: BLE001 - whatever the student's layers raise here proves nothing
        return False


@public_check("MLP")
def check_mlp(MLP: type) -> None:
    """MLP 的公开检查：先运行各层的公开检查，再检查各层的调用顺序、parameters() 和形状，
    最后对整个网络做有限差分。"""
    rng = np.random.default_rng(3)
    model = MLP(5, 7, 3, rng=rng)
    _own_method_not_written(model)
    _check_layers_first("MLP(5, 7, 3)", model)
    calls = diagnose.record_calls(model)  # the layers note when they run, so a failure can name a wrong order
    x, g = rng.standard_normal((4, 5)), np.ones((4, 3))
    logits = diagnose.run_recorded("MLP(5, 7, 3).forward(x)", model, calls, "forward", x.copy())
    check_shape(say.FOR_X_SHAPE(call="MLP(5, 7, 3).forward(x)", shape=(4, 5)), logits, (4, 3))
    dx = diagnose.run_recorded("MLP(5, 7, 3).backward(grad)", model.backward, calls, "backward", g.copy())
    ran = list(calls)
    order = _order_cause(model, ran, x, g, {"forward": logits, "backward": dx})
    if order is not None:
        raise CheckFailed(Failure(say.LAYERS_RAN(model="MLP(5, 7, 3)", calls=ran), order))
    diagnose.check_parameters(
        "list(MLP(5, 7, 3).parameters())",
        diagnose.describe_parameters(
            list(model.parameters()), [model.fc1.W, model.fc1.b, model.fc2.W, model.fc2.b], ["W1", "b1", "W2", "b2"]
        ),
    )
    case = data.MLP
    model = MLP(5, 7, 3, rng=rng)
    for layer, n in ((model.fc1, "1"), (model.fc2, "2")):  # float64 parameters for a precise gradient check
        layer.W = Parameter(case[f"W{n}"], dtype=np.float64)
        layer.b = Parameter(case[f"b{n}"], dtype=np.float64)
    x = case["x"].copy()
    logits = model.forward(x)
    what = say.FOR_X_SHAPE(call="MLP(5, 7, 3).forward(x)", shape=x.shape)
    diagnose.MLP_FORWARD.check(what, logits, case["logits"], **case["mistakes"])
    check_unchanged(what, x, case["x"])
    check_dtype(say.FOR_FLOAT64_INPUTS(call="MLP(5, 7, 3).forward"), np.asarray(logits), np.float64)
    grads = case["grads"]
    check_gradients(
        model,
        case["x"].copy(),
        case["g"].copy(),
        grads["x"],
        [
            (name, p, grads[stored])
            for name, p, stored in (
                ("fc1.W", model.fc1.W, "W1"),
                ("fc1.b", model.fc1.b, "b1"),
                ("fc2.W", model.fc2.W, "W2"),
                ("fc2.b", model.fc2.b, "b2"),
            )
        ],
        quantities=(diagnose.MLP_BACKWARD,),
        # its layers' checks passed and it called them all: a .grad still None was cleared by MLP.backward
        unset={n: say.MLP_GRAD_UNSET(attribute=f"{n}.grad", layer=n[:3]) for n in ("fc1.W", "fc1.b", "fc2.W", "fc2.b")},
    )


def validate() -> int:
    """``nbgrader validate`` of the notebooks named on the command line (its configuration, its run, its output), but
    1 when a check cell failed or a locked cell changed, read from the validator's results, 0 when it said "Success!"
    (nbgrader 0.9.6 exits 0 either way: nbgrader issue #1908). Runs where nbgrader is installed, never in the kernel."""
    from nbgrader.apps.validateapp import ValidateApp  # the student's environment's, imported only here
    from nbgrader.validator import Validator

    found: list[dict[str, list[dict[str, str]]]] = []

    class Recording(Validator):
        """nbgrader's validator, keeping each notebook's results; in another edition than English, its words in the
        edition's language (nbgrader's own in English)."""

        def validate(self, filename: str) -> dict[str, list[dict[str, str]]]:
            found.append(super().validate(filename))
            return found[-1]

        def _said(self, *lines: str) -> None:
            self.stream.write("\n" + "=" * self.width + "\n" + "".join(lines))

        def _print_error(self, source: str, error: str) -> None:
            if LANGUAGE == "en":
                return super()._print_error(source, error)
            words = (say.VALIDATE_FAILED_CELL.render(LANGUAGE), say.VALIDATE_ERROR_WAS.render(LANGUAGE))
            self._said(
                f"{words[0]}\n\n", self._indent(source) + "\n\n", f"{words[1]}\n\n", self._indent(error) + "\n\n"
            )

        def _print_changed(self, source: str) -> None:
            if LANGUAGE == "en":
                return super()._print_changed(source)
            self._said(say.VALIDATE_CHANGED_CELL.render(LANGUAGE) + "\n\n", self._indent(source) + "\n\n")

        def _print_type_changed(self, old_type: str, new_type: str, source: str) -> None:
            if LANGUAGE == "en":
                return super()._print_type_changed(old_type, new_type, source)
            words = say.VALIDATE_TYPE_CHANGED_CELL(old=old_type, new=new_type).render(LANGUAGE)
            self._said(words + "\n\n", self._indent(source) + "\n\n")

        def _print_num_failed(self, num_failed: int) -> None:
            if LANGUAGE == "en":
                return super()._print_num_failed(num_failed)
            words = say.VALIDATE_FAILED(count=num_failed) if num_failed else say.VALIDATE_SUCCESS
            self.stream.write(words.render(LANGUAGE) + "\n")

        def _print_num_changed(self, num_changed: int) -> None:
            if LANGUAGE == "en" or not num_changed:
                return super()._print_num_changed(num_changed)
            self.stream.write(say.VALIDATE_CHANGED(count=num_changed).render(LANGUAGE) + "\n")

        def _print_num_type_changed(self, num_changed: int) -> None:
            if LANGUAGE == "en" or not num_changed:
                return super()._print_num_type_changed(num_changed)
            self.stream.write(say.VALIDATE_TYPE_CHANGED(count=num_changed).render(LANGUAGE) + "\n")

    app = ValidateApp()
    app.initialize(sys.argv[1:])
    if not app.extra_args:
        app.start()  # nbgrader's own usage message, and exit status 1
    validator = Recording(parent=app)
    for notebook in app.extra_args:
        validator.validate_and_print(notebook)
    return 1 if any(results.get(key) for results in found for key in ("type_changed", "changed", "failed")) else 0


if __name__ == "__main__":
    sys.exit(validate())
