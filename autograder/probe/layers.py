"""Probes of ``Linear``, ``ReLU``, ``CrossEntropyLoss`` and ``SGD``: what the student's methods give on the hidden
inputs."""

from __future__ import annotations

from typing import Any

import numpy as np

from nn_core import Parameter

from .core import Record, Stopped, collect_cases, plain, time_limit


def _linear_layer(Linear: type, case: dict[str, Any], record: Record) -> Any:
    """A student ``Linear`` (its own W and b shapes recorded) holding the case's float64 W and b."""
    d_in, d_out = case["W"].shape
    layer = record.run("layer", Linear, d_in, d_out)
    record.keep("W_shape", list(np.shape(layer.W)))
    record.keep("b_shape", list(np.shape(layer.b)))
    layer.W, layer.b = Parameter(case["W"], dtype=np.float64), Parameter(case["b"], dtype=np.float64)
    return layer


def linear_forward(Linear: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        layer = _linear_layer(Linear, case, record)
        x = case["x"].copy()
        record.run("y", layer, x)
        record.keep("x_after", x)
        fresh = record.run("fresh_layer", Linear, *case["W"].shape)
        record.run("y32", fresh, case["x"].astype(np.float32))

    with time_limit("Linear.forward"):
        return collect_cases(inputs["cases"], probe)


def linear_backward(Linear: type, inputs: dict[str, Any]) -> list[Record]:
    """forward(stale x), forward(x), backward(G); a forward that raised is recorded, and backward is still tried."""

    def probe(case: dict[str, Any], record: Record) -> None:
        layer = _linear_layer(Linear, case, record)
        for key, x in (("forward_stale", case["x_stale"]), ("forward", case["x"])):
            try:
                record.run(key, layer, x.copy())
            except Stopped:
                pass
        g = case["g"].copy()
        try:
            record.run("dx", layer.backward, g)
        finally:  # what backward stored before it raised still counts
            record.keep("W_grad", plain(getattr(layer.W, "grad", None)))
            record.keep("b_grad", plain(getattr(layer.b, "grad", None)))
            record.keep("g_after", g)

    with time_limit("Linear.backward"):
        return collect_cases(inputs["cases"], probe)


def relu_forward(ReLU: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        x = case["x"].copy()
        relu = record.run("layer", ReLU)
        record.run("y", relu, x)
        record.keep("x_after", x)

    with time_limit("ReLU.forward"):
        return collect_cases(inputs["cases"], probe)


def relu_backward(ReLU: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        relu = record.run("layer", ReLU)
        record.run("forward_stale", relu, case["x_stale"].copy())
        record.run("forward", relu, case["x"].copy())
        g = case["g"].copy()
        record.run("dx", relu.backward, g)
        record.keep("g_after", g)
        record.run("forward_smooth", relu, case["x_smooth"].copy())
        record.run("dx_smooth", relu.backward, case["g"].copy())

    with time_limit("ReLU.backward"):
        return collect_cases(inputs["cases"], probe)


def cross_entropy_forward(CrossEntropyLoss: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        z, y = case["z"].copy(), case["y"].copy()
        loss_fn = record.run("layer", CrossEntropyLoss)
        record.run("loss", loss_fn, z, y)
        record.keep("z_after", z)

    with time_limit("CrossEntropyLoss.forward"):
        return collect_cases(inputs["cases"], probe)


def cross_entropy_backward(CrossEntropyLoss: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        loss_fn = record.run("layer", CrossEntropyLoss)
        record.run("forward_stale", loss_fn, case["z_stale"].copy(), case["y_stale"].copy())
        record.run("forward", loss_fn, case["z"].copy(), case["y"].copy())
        record.run("dz", loss_fn.backward)

    with time_limit("CrossEntropyLoss.backward"):
        return collect_cases(inputs["cases"], probe)


def sgd_step(SGD: type, inputs: dict[str, Any]) -> list[Record]:
    """Steps of SGD over float32 Parameters, one without a gradient; a view of each sees in-place updates."""

    def probe(case: dict[str, Any], record: Record) -> None:
        params = [Parameter(p) for p in case["params"]]
        for i, p in enumerate(params):
            p.grad = None if i == case["skipped"] else case["grads"][i].copy()
        views = [p.view(np.ndarray) for p in params]
        optimizer = record.run("optimizer", SGD, params, case["lr"])
        for step in range(1, inputs["steps"] + 1):
            record.run(f"step{step}", optimizer.step)
            held = list(getattr(optimizer, "params", []))
            record.keep(
                f"same_objects{step}",
                len(held) == len(params) and all(h is p for h, p in zip(held, params, strict=True)),
            )
            record.keep(f"all_parameters{step}", all(isinstance(h, Parameter) for h in held))
            record.keep(f"values{step}", [np.array(v) for v in views])
            record.keep(f"dtypes{step}", [str(p.dtype) for p in params])
            record.keep(f"grads{step}", [plain(p.grad) for p in params])

    with time_limit("SGD.step"):
        return collect_cases(inputs["cases"], probe)
