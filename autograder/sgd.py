"""Judge of ``SGD.step``: θ ← θ − η ∂L/∂θ, in place, skipping parameters without a gradient."""
from __future__ import annotations

from typing import Any

import numpy as np
from nn_checks import check_dtype, check_unchanged, fail
from nn_diagnosis import SGD_UPDATE, explain

from autograder.common import got

SKIP_NONE = "a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)"
NONE_GRAD = (("TypeError", "NoneType", SKIP_NONE),)
REPLACED = "step replaced the list's entries; update each array in place instead"


def judge_step(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Steps with a secret lr over float32 parameters; the one without a gradient must not move."""
    (record,) = records
    lr, start, grads = inputs["lr"], inputs["params"], inputs["grads"]
    name = f"SGD(params, lr={lr:.3f})"
    got(record, "optimizer", name)
    for step in range(1, inputs["steps"] + 1):
        got(record, f"step{step}", f"{name}.step()", SGD_UPDATE.formula, NONE_GRAD)
        if not record[f"same_objects{step}"]:
            fail(f"{name} after {step} step(s)", "optimizer.params to hold the same Parameter objects", "other objects", REPLACED)
        if not record[f"all_parameters{step}"]:
            fail(f"{name} after {step} step(s)", "optimizer.params to remain Parameters", "other arrays", REPLACED)
        for i, value in enumerate(record[f"values{step}"]):
            what = f"{name} after {step} step(s): parameter {i} of shape {start[i].shape}"
            if i == inputs["skipped"]:
                if not np.array_equal(value, start[i]):
                    raise AssertionError(explain(f"{what} whose .grad is None: expected it unchanged, got it changed", SKIP_NONE))
                continue
            expected = start[i].astype(np.float64) - step * lr * grads[i].astype(np.float64)
            SGD_UPDATE.check(what, value, expected, 1e-5, start=start[i], grad=grads[i], lr=lr, steps=step)
            check_dtype(what, np.empty(0, dtype=record[f"dtypes{step}"][i]), np.float32, "the update must keep the parameter float32 (update in place)")
            check_unchanged(f"{what}: its .grad", record[f"grads{step}"][i], grads[i])
