"""Probes of ``Linear``: what the student's forward and backward give on the hidden inputs."""

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
