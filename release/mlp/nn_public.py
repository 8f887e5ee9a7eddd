"""The notebook's public checks: one function per class, called from the check cell below it.

Each check tries your class on small worked examples, on every property its *Graded* paragraph states, and
with finite differences. It prints ``<class>: public checks passed.`` or raises ``CheckFailed`` with one
message: what was expected, what came, the likely cause (only when what came identifies it) and the formula.
A method that still raises ``NotImplementedError`` is reported as not written yet, and nothing else is guessed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import CheckFailed, Failure

import nn_diagnosis as diagnose
from nn_checks import (
    FD_TOLERANCE,
    check_array,
    check_dtype,
    check_module_gradients,
    check_shape,
    check_unchanged,
    numerical_gradient,
)
from nn_core import Parameter
from nn_i18n import LANGUAGE

Check = Callable[[type], None]


def public_check(part: str) -> Callable[[Check], Check]:
    """Run a check of ``part``; print that it passed, or raise ``CheckFailed`` with its message (no traceback)."""

    def decorate(check: Check) -> Check:
        @functools.wraps(check)
        def run(cls: type) -> None:
            try:
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
            print(say.PASSED(part=part).render(LANGUAGE))

        return run

    return decorate


@public_check("Linear")
def check_linear(Linear: type) -> None:
    """A worked example, the graded properties (float64, B = 1, latest forward, inputs kept), finite differences."""
    layer = Linear(3, 2)
    layer.W[...] = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    layer.b[...] = [0.5, -0.5]
    x = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    g = np.array([[1.0, 0.0], [0.0, 2.0]], dtype=np.float32)
    example = dict(x=x, W=np.array(layer.W), b=np.array(layer.b), g=g)  # lets a failed check name the likely mistake
    diagnose.LINEAR_FORWARD.check(
        say.ON_EXAMPLE(call="Linear.forward"), layer(x), [[-3.5, -4.5], [3.5, 3.5]], **example
    )
    dx = layer.backward(g)
    diagnose.LINEAR_DX.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="dX"),
        dx,
        [[1.0, 3.0, 5.0], [4.0, 8.0, 12.0]],
        **example,
    )
    diagnose.LINEAR_DW.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="W.grad"),
        layer.W.grad,
        [[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0]],
        **example,
    )
    diagnose.LINEAR_DB.check(
        say.PART_OF(what=say.ON_EXAMPLE(call="Linear.backward"), part="b.grad"), layer.b.grad, [1.0, 2.0], **example
    )

    # float64 in, float64 out; B = 1 and D_out = 1; backward uses the latest forward; nothing it was given is modified
    layer = Linear(2, 1)
    layer.W, layer.b = Parameter([[1.0], [-2.0]], dtype=np.float64), Parameter([0.5], dtype=np.float64)
    x_stale, x, g = np.array([[9.0, 9.0]]), np.array([[3.0, 1.0]]), np.array([[2.0]])
    inputs = dict(x=x, x_stale=x_stale, W=np.array(layer.W), b=np.array(layer.b), g=g)
    layer(x_stale.copy())
    y = layer(x)
    diagnose.LINEAR_FORWARD.check(say.FOR_X_SHAPE(call="Linear(2, 1).forward", shape=(1, 2)), y, [[1.5]], **inputs)
    check_dtype(say.FOR_FLOAT64_XWB(call="Linear(2, 1).forward"), y, np.float64)
    check_unchanged("Linear(2, 1).forward", x, np.array([[3.0, 1.0]]))
    dx = layer.backward(g)
    check_unchanged("Linear(2, 1).backward(grad)", g, np.array([[2.0]]))
    diagnose.LINEAR_DX.check("Linear(2, 1).backward: dX", dx, [[2.0, -4.0]], **inputs)
    diagnose.LINEAR_DW.check(
        say.PART_OF(what=say.AFTER_STALE_FORWARD(call="Linear(2, 1).backward"), part="W.grad"),
        layer.W.grad,
        [[6.0], [2.0]],
        **inputs,
    )
    diagnose.LINEAR_DB.check("Linear(2, 1).backward: b.grad", layer.b.grad, [2.0], **inputs)
    for name, value in (("dX", dx), ("W.grad", layer.W.grad), ("b.grad", layer.b.grad)):
        check_dtype(say.FOR_FLOAT64_INPUTS(call=f"Linear(2, 1).backward: {name}"), np.asarray(value), np.float64)
    y32 = Linear(3, 2)(np.ones((4, 3), dtype=np.float32))  # the given float32 parameters work too
    check_shape(say.FOR_FLOAT32_X(call="Linear(3, 2).forward"), y32, (4, 2))
    check_array(say.FOR_FLOAT32_X(call="Linear(3, 2).forward"), y32)

    rng = np.random.default_rng(0)
    W, b = rng.standard_normal((4, 3)), rng.standard_normal(3)
    layer = Linear(4, 3)
    layer.W, layer.b = Parameter(W, dtype=np.float64), Parameter(b, dtype=np.float64)
    check_module_gradients(
        layer,
        rng.standard_normal((5, 4)),
        rng.standard_normal((5, 3)),
        quantities=(diagnose.LINEAR_DX, diagnose.LINEAR_DW, diagnose.LINEAR_DB),
        W=W,
        b=b,
    )


@public_check("ReLU")
def check_relu(ReLU: type) -> None:
    """A worked example with an exact zero, the graded properties, then finite differences away from the kink."""
    relu = ReLU()
    h, h_stale, g = np.array([[-2.0, 0.0, 3.0]]), np.array([[1.0, 1.0, -1.0]]), np.array([[5.0, 5.0, -5.0]])
    relu(h_stale.copy())
    y = relu(h)
    diagnose.RELU_FORWARD.check(say.ON_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), y, [[0.0, 0.0, 3.0]], x=h)
    check_dtype(say.ON_FLOAT64_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), y, np.float64)
    check_unchanged(say.ON_INPUT(call="ReLU.forward", h="[-2, 0, 3]"), h, np.array([[-2.0, 0.0, 3.0]]))
    dx = relu.backward(g)
    check_unchanged(say.WITH_GRAD(call="ReLU.backward(grad)", g="[5, 5, -5]"), g, np.array([[5.0, 5.0, -5.0]]))
    diagnose.RELU_BACKWARD.check(
        say.AFTER_EARLIER_WITH_GRAD(call="ReLU.backward", h="[-2, 0, 3]", g="[5, 5, -5]"),
        dx,
        [[0.0, 0.0, -5.0]],
        x=h,
        x_stale=h_stale,
        g=g,
    )
    check_dtype(say.FOR_FLOAT64_GRAD(call="ReLU.backward"), dx, np.float64)

    rng = np.random.default_rng(1)
    h = rng.standard_normal((4, 5))
    h += np.sign(h) * 0.1  # stay away from the kink at 0, where finite differences are meaningless
    check_module_gradients(ReLU(), h, rng.standard_normal((4, 5)), quantities=(diagnose.RELU_BACKWARD,))


@public_check("CrossEntropyLoss")
def check_cross_entropy(CrossEntropyLoss: type) -> None:
    """Worked examples, logits of ±1000, targets whose probability underflows, then finite differences."""
    loss_fn = CrossEntropyLoss()
    z, y = np.array([[0.0, np.log(3.0), 0.0], [0.0, 0.0, 0.0]]), np.array([1, 0])  # softmax [1/5, 3/5, 1/5], [1/3]*3
    loss_fn(np.ones((2, 3)), np.array([2, 2]))  # an earlier call, which backward must not use
    example = say.ON_EXAMPLE(call="CrossEntropyLoss")
    diagnose.check_loss(example, loss_fn(z, y), np.log([3 / 5, 1 / 3]), z=z, y=y)
    check_unchanged(example, z, np.array([[0.0, np.log(3.0), 0.0], [0.0, 0.0, 0.0]]))
    dz = loss_fn.backward()
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.ON_EXAMPLE(call="CrossEntropyLoss.backward"), dz, [[0.1, -0.2, 0.1], [-1 / 3, 1 / 6, 1 / 6]], z=z, y=y
    )
    check_dtype(say.FOR_FLOAT64_LOGITS(call="CrossEntropyLoss.backward"), dz, np.float64)
    z1, y1 = np.array([[2.0, 0.0]]), np.array([1])  # one sample: still one number
    diagnose.check_loss(
        say.FOR_LOGITS_SHAPE(call="CrossEntropyLoss", shape=(1, 2)),
        loss_fn(z1, y1),
        [-np.log1p(np.exp(2.0))],
        z=z1,
        y=y1,
    )

    huge = np.array([[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 999.0]])
    y = np.array([0, 2])  # targets near the row's max: exp(1000) overflows unless each row's max is subtracted
    diagnose.check_loss(
        say.ON_HUGE_LOGITS(call="CrossEntropyLoss"), loss_fn(huge, y), [0.0, -1.0 - np.log1p(np.exp(-1.0))], z=huge, y=y
    )
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.ON_HUGE_LOGITS(call="CrossEntropyLoss.backward"),
        loss_fn.backward(),
        [[0.0, 0.0, 0.0], [0.0, 0.5 / (1 + np.exp(-1.0)), -0.5 / (1 + np.exp(-1.0))]],
        z=huge,
        y=y,
    )
    far, y = np.array([[0.0, -800.0, 1.0], [2.0, 0.0, -790.0]]), np.array([1, 2])  # target probabilities underflow
    diagnose.check_loss(
        say.TARGETS_UNDERFLOW(call="CrossEntropyLoss"),
        loss_fn(far, y),
        [-800.0 - np.log1p(np.e), -792.0 - np.log1p(np.exp(-2.0))],
        z=far,
        y=y,
    )
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.TARGETS_UNDERFLOW(call="CrossEntropyLoss.backward"),
        loss_fn.backward(),
        [[0.5 / (1 + np.e), -0.5, 0.5 / (1 + np.exp(-1.0))], [0.5 / (1 + np.exp(-2.0)), 0.5 / (1 + np.exp(2.0)), -0.5]],
        z=far,
        y=y,
    )

    rng = np.random.default_rng(2)
    z, y = 0.1 * rng.standard_normal((6, 4)), rng.integers(0, 4, size=6)  # small logits: an eps changes nothing here
    loss_fn(z, y)
    dz = loss_fn.backward()
    z_fd = z.copy()
    diagnose.CROSS_ENTROPY_GRAD.check(
        say.FD_CHECK(what="CrossEntropyLoss.backward()"),
        dz,
        numerical_gradient(lambda: float(CrossEntropyLoss().forward(z_fd, y)), z_fd),
        FD_TOLERANCE,
        z=z,
        y=y,
    )


@public_check("SGD")
def check_sgd(SGD: type) -> None:
    """Two steps in place, with the parameter without a gradient first, in the middle and last."""
    cases = []
    for skipped in (0, 1, 2):
        start = [np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32), np.array([[-1.0, 0.5]], np.float32)]
        grads = [np.array([10.0, -10.0], np.float32), np.array([4.0], np.float32), np.array([[2.0, -6.0]], np.float32)]
        params = [Parameter(s) for s in start]
        for i, p in enumerate(params):
            p.grad = None if i == skipped else grads[i].copy()
        views = [p.view(np.ndarray) for p in params]  # a view sees the update only if the parameter changes in place
        optimizer = SGD(params, lr=0.1)
        case: dict[str, Any] = dict(
            start=start,
            grads=grads,
            skipped=skipped,
            lr=0.1,
            values=[],
            same_objects=[],
            all_parameters=[],
            dtypes=[],
            grads_after=[],
        )
        for _ in range(2):
            optimizer.step()
            case["values"].append([np.array(v) for v in views])
            case["same_objects"].append(
                len(optimizer.params) == 3 and all(a is b for a, b in zip(optimizer.params, params, strict=False))
            )
            case["all_parameters"].append(all(isinstance(p, Parameter) for p in optimizer.params))
            case["dtypes"].append([str(p.dtype) for p in params])
            case["grads_after"].append([None if p.grad is None else np.array(p.grad) for p in params])
        cases.append(case)
    diagnose.check_sgd("SGD(params).step()", cases)


@public_check("MLP")
def check_mlp(MLP: type) -> None:
    """The order of the layers, parameters() and shapes, then finite differences through the whole network."""
    rng = np.random.default_rng(3)
    model = MLP(5, 7, 3, rng=rng)
    calls = diagnose.record_calls(model)  # the layers note when they run, so a failure can name a wrong order
    logits = diagnose.run_recorded("MLP(5, 7, 3).forward(x)", model, calls, "forward", rng.standard_normal((4, 5)))
    check_shape(say.FOR_X_SHAPE(call="MLP(5, 7, 3).forward(x)", shape=(4, 5)), logits, (4, 3))
    diagnose.run_recorded("MLP(5, 7, 3).backward(grad)", model.backward, calls, "backward", np.ones((4, 3)))
    order = diagnose.call_order_cause(calls, "forward") or diagnose.call_order_cause(calls, "backward")
    if order is not None:
        raise CheckFailed(Failure(say.LAYERS_RAN(model="MLP(5, 7, 3)", calls=", ".join(calls)), order))
    diagnose.check_parameters(
        "list(MLP(5, 7, 3).parameters())",
        diagnose.describe_parameters(
            list(model.parameters()), [model.fc1.W, model.fc1.b, model.fc2.W, model.fc2.b], ["W1", "b1", "W2", "b2"]
        ),
    )
    model = MLP(5, 7, 3, rng=rng)
    for layer in (model.fc1, model.fc2):  # float64 parameters for a precise gradient check
        layer.W = Parameter(layer.W, dtype=np.float64)
        layer.b = Parameter(rng.standard_normal(layer.b.shape), dtype=np.float64)
    check_module_gradients(
        model, rng.standard_normal((4, 5)), rng.standard_normal((4, 3)), quantities=(diagnose.MLP_BACKWARD,)
    )
