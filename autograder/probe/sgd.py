"""Probes of ``SGD``: what the student's step does to the parameters it was given."""

from __future__ import annotations

from typing import Any

import numpy as np

from nn_core import Parameter

from .core import Record, collect_cases, plain, time_limit


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
