"""A correct submission earns every hidden check whatever the course's secret (fast tier: in this process).

Each course draws its own hidden inputs from its secret, so a check that a correct answer fails for one input in
a thousand fails some course's whole class. Three such inputs were found by grading the reference under thousands
of secrets (``benchmarks/fair_secrets.py``): a finite difference that disagreed with the exact gradient of a
nearly saturated softmax, a cross-entropy case whose dZ was all rounding, and a float32 SGD update that cancelled.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import grading  # noqa: E402
from autograder.course.nn_diagnosis import check_sgd  # noqa: E402
from autograder.judge import reference, suspects  # noqa: E402
from autograder.judge.common import VALUE_TOLERANCE  # noqa: E402
from autograder.judge.inputs import inputs_for  # noqa: E402
from catalogue.mistakes import VARIANTS  # noqa: E402

FOUND = (
    "cf5595240bb8361c0a005f0ea8d970bf",  # the B = 1 cross-entropy case: its finite difference was off by 2.75e-6
    "50004b0e84965d1affb5dc1cbedbb6b2",  # the ±1000 case with every target its row's max: dZ ~ 1e-9 everywhere
    "78dc4bf9487271fb01b2ce7ed9a311f3",  # SGD on a parameter of shape (1,) whose update θ − η·g cancels to 1e-4
)
SWEEP = tuple(f"fairness-{i}" for i in range(25))
CORRECT = {"reference": (), **{variant.name: variant.edits for variant in VARIANTS}}


@pytest.fixture(scope="module")
def submissions() -> dict[str, dict]:
    return {name: grading.namespace(grading.catalogue_code(edits), f"<{name}>") for name, edits in CORRECT.items()}


@pytest.mark.parametrize("secret", FOUND + SWEEP)
def test_the_reference_and_every_correct_variant_earn_every_check(submissions: dict[str, dict], secret: str) -> None:
    with grading.secret(secret):
        lost = {name: grading.grade(names) for name, names in submissions.items()}
    assert not any(lost.values()), {
        name: {c: m[:300] for c, m in cells.items()} for name, cells in lost.items() if cells
    }


@pytest.mark.parametrize("secret", FOUND + SWEEP)
def test_every_cross_entropy_case_has_a_gradient_far_from_rounding(secret: str) -> None:
    """Softmax shifts the logits by their max, so any sound code rounds dZ by about ε·max|Z|. A case whose dZ is that
    small everywhere (1 − p ≈ 1e-9 beside logits of 1000) judges rounding, not math: rounding must stay 100 times
    below the tolerance, relative to the largest |dZ| as the checks measure it."""
    with grading.secret(secret):
        cases = inputs_for("cross_entropy_backward")["cases"]
    for case in cases:
        dz = reference.cross_entropy_grad(case["z"], case["y"])
        rounding = np.finfo(np.float64).eps * max(1.0, float(np.abs(case["z"]).max()))
        assert rounding / np.abs(dz).max() <= VALUE_TOLERANCE / 100, (case["z"], case["y"])


def test_a_float32_update_that_cancels_is_judged_against_the_size_of_its_operands() -> None:
    """θ ≈ η·g: float32 rounds both to ~6e-8 before they cancel, so θ − η·g ≈ 1e-4 carries a relative error near
    1e-3 in the student's float32 arithmetic. That is not the student's mistake; a wrong update still fails."""
    lr = 0.319
    grad = np.array([0.5], dtype=np.float32)
    start = np.array([lr * 0.5 + 1.18e-4], dtype=np.float32)
    done = start.copy()
    done -= np.float32(lr) * grad  # the float32 arithmetic a correct `p -= self.lr * p.grad` does
    wrong = start + np.float32(lr) * grad
    skipped = np.array([1.0], dtype=np.float32)

    def case(value: np.ndarray) -> dict:
        return {
            "start": [start, skipped],
            "grads": [grad, skipped],
            "skipped": 1,
            "lr": lr,
            "values": [[value, skipped]],
            "same_objects": [True],
            "all_parameters": [True],
            "dtypes": [["float32", "float32"]],
            "grads_after": [[grad, None]],
            **suspects.sgd_case([start, skipped], [grad, skipped], 1, lr, 1),
        }

    check_sgd("SGD(params).step()", [case(done)])
    with pytest.raises(AssertionError, match="parameter 0"):
        check_sgd("SGD(params).step()", [case(wrong)])
