"""Probes of ``ReLU``: what the student's forward and backward give on the hidden inputs."""

from __future__ import annotations

from typing import Any

from .core import Record, collect_cases, time_limit


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
