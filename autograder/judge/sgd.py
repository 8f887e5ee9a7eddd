"""Judge of ``SGD.step``: θ ← θ − η ∂L/∂θ, in place, skipping parameters without a gradient.

Every secret gets the same cases: the parameter without a gradient first, in the middle and last; the judge is
``nn_diagnosis.check_sgd``, which the notebook's public check calls too, handed the expected parameters and the
suspects' wrong answers computed here (``suspects.sgd_case``).
"""

from __future__ import annotations

from typing import Any

from autograder.course.nn_diagnosis import SGD_UPDATE, ErrorCause, check_sgd
from autograder.course.nn_messages import SGD_REPLACED, SGD_SKIP_NONE
from autograder.judge import suspects
from autograder.judge.common import got
from autograder.messages import SGD_STEP

NONE_GRAD: tuple[ErrorCause, ...] = (("TypeError", "NoneType", SGD_SKIP_NONE),)


def judge_step(inputs: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Two steps per case with a secret lr over float32 parameters; the one without a gradient must not move."""
    cases = []
    for case, record in zip(inputs["cases"], records, strict=True):
        name = f"SGD(params, lr={case['lr']:.3f})"
        got(record, "optimizer", name)
        for step in range(1, inputs["steps"] + 1):
            # a step that raises after an earlier one replaced the list's Parameters (new arrays have no .grad)
            replaced = not all(record.get(f"same_objects{k}", True) for k in range(1, step))
            got(
                record,
                f"step{step}",
                SGD_STEP(call=f"{name}.step()", index=case["skipped"]),
                SGD_UPDATE.formula,
                NONE_GRAD,
                SGD_REPLACED if replaced else None,
            )
        steps = range(1, inputs["steps"] + 1)
        cases.append(
            {
                **case,
                "start": case["params"],
                "values": [record[f"values{k}"] for k in steps],
                "same_objects": [record[f"same_objects{k}"] for k in steps],
                "all_parameters": [record[f"all_parameters{k}"] for k in steps],
                "dtypes": [record[f"dtypes{k}"] for k in steps],
                "grads_after": [record[f"grads{k}"] for k in steps],
                **suspects.sgd_case(case["params"], case["grads"], case["skipped"], case["lr"], inputs["steps"]),
            }
        )
    check_sgd("SGD(params).step()", cases)
