"""Probes of ``CrossEntropyLoss``: what the student's forward and backward give on the hidden inputs."""

from __future__ import annotations

from typing import Any

from autograder.course.nn_diagnosis import noting_float_errors

from .core import Record, collect_cases, time_limit


def cross_entropy_forward(CrossEntropyLoss: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        z, y = case["z"].copy(), case["y"].copy()
        loss_fn = record.run("layer", CrossEntropyLoss)
        with noting_float_errors() as float_errors:  # where a NaN began, for the diagnosis
            record.run("loss", loss_fn, z, y)
        record.keep("float_errors", list(float_errors))
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
