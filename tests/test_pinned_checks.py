"""Pins what the hidden and public checks must catch, so that weakening a check makes a test here fail (fast tier).

Each test grades a submission whose one mistake only the pinned property of a check catches (a tolerance, a case of
the hidden inputs, one assertion of a judge), in this process under fixed secrets, and asserts the exact checks it
loses and the words of the failure. Weakening that property lets the mistake through, and the test fails. The
MNIST gate is pinned at its judge, on fabricated records and a fabricated test set: nothing here trains on MNIST.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import grading  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.classroom import Edit  # noqa: E402
from autograder.judge import gate as mnist_gate  # noqa: E402
from autograder.judge import gate_reference  # noqa: E402
from autograder.judge.checks import judge  # noqa: E402
from autograder.judge.inputs import inputs_for  # noqa: E402
from autograder.judge.outcome import WorkerOutcome  # noqa: E402
from autograder.messages import GATE_AFTER_CHECKS  # noqa: E402
from catalogue.mistakes import MISTAKES  # noqa: E402

SECRETS = grading.SECRETS[:2]
LINEAR_BACKWARD = {"linear_backward_dx", "linear_backward_dw", "linear_backward_db"}
SGD_LOOP = "for p in self.params:\n            if p.grad is not None:\n                p -= self.lr * p.grad"


def _lost(edits: tuple[Edit, ...], secret: str) -> dict[str, str]:
    """The checks the solution with ``edits`` loses under ``secret``, and their messages."""
    with grading.secret(secret):
        return grading.grade(grading.namespace(grading.catalogue_code(edits), "<pinned>"))


def _assert_loses(edits: tuple[Edit, ...], secret: str, checks: set[str], *words: str) -> dict[str, str]:
    """The submission loses exactly ``checks``, each with a message holding every one of ``words``."""
    lost = _lost(edits, secret)
    assert set(lost) == checks, {c: m[:300] for c, m in lost.items()}
    for check, message in lost.items():
        for word in words:
            assert word in message, f"{check}: {word!r} not in {message!r}"
    return lost


def _catalogued(name: str) -> tuple[Edit, ...]:
    return next(m.edits for m in MISTAKES if m.name == name)


# ------------------------------------------------------------------- 1. the value tolerance of the hidden checks


@pytest.mark.parametrize("secret", SECRETS)
def test_a_leaky_relu_off_by_a_thousandth_fails_the_value_tolerance_of_1e_6(secret: str) -> None:
    """np.maximum(x, 0.001 x) is off by about 1e-3 relative: only a tolerance far below that catches it."""
    leaky = (Edit("relu", "return np.maximum(x, 0)", "return np.maximum(x, 0.001 * x)"),)
    _assert_loses(leaky, secret, {"relu_forward"}, "ReLU().forward(x)", "relative error at most 1e-06")


# ------------------------------------------------------------------------- 2. B = 1 among the hidden inputs


@pytest.mark.parametrize("secret", SECRETS)
def test_linear_forward_that_squeezes_a_batch_of_one_fails_the_b_1_case(secret: str) -> None:
    squeeze = (Edit("linear", "return x @ self.W + self.b", "return np.squeeze(x) @ self.W + self.b"),)
    _assert_loses(squeeze, secret, {"linear_forward"}, "with x of shape (1, ", "expected shape (1, ")


@pytest.mark.parametrize("secret", SECRETS)
def test_cross_entropy_backward_that_squeezes_a_batch_of_one_fails_the_b_1_case(secret: str) -> None:
    squeeze = (Edit("cross_entropy", "return grad / batch", "return np.squeeze(grad / batch)"),)
    _assert_loses(squeeze, secret, {"cross_entropy_backward"}, "logits of shape (1, ", "expected shape (1, ")


# --------------------------------------------------------------- 3. Linear: grad left alone, float64 kept


@pytest.mark.parametrize("secret", SECRETS)
def test_linear_backward_that_zeroes_its_grad_argument_loses_every_backward_check(secret: str) -> None:
    """The gradients are right (computed before the grad is cleared): only the "grad unchanged" check catches it."""
    clears = (
        Edit("linear", "return grad @ self.W.T", "dx = grad @ self.W.T\n        grad.fill(0.0)\n        return dx"),
    )
    _assert_loses(clears, secret, LINEAR_BACKWARD, "backward(grad)", "stay unchanged", "in place")


@pytest.mark.parametrize("secret", SECRETS)
def test_linear_forward_cast_to_float32_fails_the_float64_dtype_check(secret: str) -> None:
    """float32 rounding is far below the value tolerance: only the dtype check catches the cast."""
    cast = (Edit("linear", "return x @ self.W + self.b", "return (x @ self.W + self.b).astype(np.float32)"),)
    _assert_loses(cast, secret, {"linear_forward"}, "expected dtype float64, got dtype float32", "a cast")


# ------------------------------------------------------------------------ 4. the loss's shape, SGD's rules


@pytest.mark.parametrize("secret", SECRETS)
def test_a_loss_of_shape_1_is_not_one_number(secret: str) -> None:
    keepdims = (Edit("cross_entropy", "targets].mean()", "targets].mean(keepdims=True)"),)
    _assert_loses(keepdims, secret, {"cross_entropy_forward"}, "expected one floating-point number", "shape (1,)")


@pytest.mark.parametrize("secret", SECRETS)
def test_sgd_that_moves_a_parameter_without_a_gradient_loses_sgd_step(secret: str) -> None:
    """It raises nothing and updates every other parameter right: only the "unchanged" rule of check_sgd catches
    it."""
    decays = (
        Edit(
            "sgd",
            SGD_LOOP,
            "for p in self.params:\n            if p.grad is None:\n                p -= self.lr * p\n"
            "            else:\n                p -= self.lr * p.grad",
        ),
    )
    _assert_loses(decays, secret, {"sgd_step"}, "expected it unchanged, got it changed", ".grad is None is not skipped")


@pytest.mark.parametrize("secret", SECRETS)
def test_sgd_that_gives_a_zero_gradient_to_a_parameter_without_one_loses_sgd_step(secret: str) -> None:
    """`p.grad = np.zeros_like(p)` before the update moves nothing, but breaks the contract that step leaves .grad
    alone: the parameter without a gradient must keep .grad None."""
    fills = (
        Edit(
            "sgd",
            SGD_LOOP,
            "for p in self.params:\n            if p.grad is None:\n                p.grad = np.zeros_like(p)\n"
            "            p -= self.lr * p.grad",
        ),
    )
    _assert_loses(fills, secret, {"sgd_step"}, "its .grad: expected step to leave .grad None", "had none")


@pytest.mark.parametrize("secret", SECRETS)
def test_sgd_with_a_leftover_weight_decay_of_1e_4_fails_the_update_tolerance_of_1e_5(secret: str) -> None:
    decay = (Edit("sgd", "p -= self.lr * p.grad", "p -= self.lr * (p.grad + 1e-4 * p)"),)
    _assert_loses(decay, secret, {"sgd_step"}, "relative error at most 1e-05", "θ ← θ − η ∂L/∂θ")


@pytest.mark.parametrize("secret", SECRETS)
def test_sgd_that_breaks_at_a_missing_gradient_loses_sgd_step_and_is_named(secret: str) -> None:
    stops = (
        Edit(
            "sgd",
            SGD_LOOP,
            "for p in self.params:\n            if p.grad is None:\n                break\n"
            "            p -= self.lr * p.grad",
        ),
    )
    _assert_loses(stops, secret, {"sgd_step"}, "the loop stops at the first parameter whose .grad is None")


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize("position", ["0", "len(self.params) // 2", "-1"], ids=["first", "middle", "last"])
def test_a_missing_gradient_first_in_the_middle_and_last_each_has_a_case(position: str, secret: str) -> None:
    """A step that does nothing when the parameter at ``position`` has no gradient is wrong in exactly one hidden
    case: the one whose missing gradient is there."""
    sentinel = (
        Edit(
            "sgd",
            "for p in self.params:",
            f"if self.params[{position}].grad is None:\n            return\n        for p in self.params:",
        ),
    )
    _assert_loses(sentinel, secret, {"sgd_step"}, "the .grad of parameter", "relative error at most 1e-05")


# --------------------------------------------------------------------- exact zeros at the kink; D_out = 1


@pytest.mark.parametrize("secret", SECRETS)
def test_a_relu_mask_ge_zero_loses_relu_backward_at_the_exact_zeros(secret: str) -> None:
    _assert_loses(_catalogued("relu_mask_ge_zero"), secret, {"relu_backward"}, "1(H ≥ 0)", "exactly H = 0")


@pytest.mark.parametrize("secret", SECRETS)
def test_a_db_squeezed_to_a_number_for_one_output_unit_fails_the_d_out_1_case(secret: str) -> None:
    squeeze = (Edit("linear", "self.b.grad = grad.sum(axis=0)", "self.b.grad = grad.sum(axis=0).squeeze()"),)
    lost = _assert_loses(
        squeeze, secret, {"linear_backward_db"}, ", 1) with x of shape", "expected shape (1,), got shape ()"
    )
    # at D_out = 1 a squeeze and a sum over every axis give the same number: the cause names both, not one
    assert "summed over every axis (or squeezed)" in lost["linear_backward_db"], lost


# ------------------------------------------------------------- 6. the cross-entropy case whose target underflows


@pytest.mark.parametrize("secret", SECRETS)
def test_the_log_of_a_softmax_that_underflowed_is_named(secret: str) -> None:
    """log(softmax) is -inf where a target's probability underflows: the hidden case of targets 800 below their row's
    max (and no logit that overflows) is the one that names this cause."""
    log_of_softmax = (
        Edit(
            "cross_entropy",
            "log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))",
            "log_probs = np.log(np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True))",
        ),
    )
    _assert_loses(log_of_softmax, secret, {"cross_entropy_forward"}, "only finite numbers", "underflowed to 0")


# --------------------------------------------------------------------------------------- 7. a missing class

RENAMED = {  # answer cell -> (class line, renamed class line)
    "linear": ("class Linear(Module):", "class LinearLayer(Module):"),
    "relu": ("class ReLU(Module):", "class Relu(Module):"),
    "cross_entropy": ("class CrossEntropyLoss(Module):", "class CrossEntropy(Module):"),
    "sgd": ("class SGD(Optimizer):", "class Sgd(Optimizer):"),
    "mlp": ("class MLP(Module):", "class TwoLayerPerceptron(Module):"),
}


@pytest.mark.parametrize("answer", RENAMED)
def test_a_missing_class_loses_its_own_checks_only_saying_it_is_not_defined(answer: str) -> None:
    """Its own checks say the class is missing; the MLP, built from the Linear and the ReLU, is still graded on its
    own (a placeholder takes a missing layer class's name while it is built), as the notebook promises."""
    cls = registry.answers()[answer]
    own = {check.name for check in registry.fast_checks() if check.answer_cell == answer}
    lost = _lost((Edit(answer, *RENAMED[answer]),), SECRETS[0])
    assert set(lost) == own, {c: m[:300] for c, m in lost.items()}
    for check in own:
        assert lost[check].startswith(f"{cls}: expected the class from its answer cell, but it is not defined."), lost


# ------------------------------------------------------------------------- 8. what each part's mistakes may cost


def test_each_answer_cell_may_cost_exactly_its_own_cells_and_the_gate_for_the_layers_it_trains() -> None:
    trained = {"linear", "relu", "mlp"}  # the gate trains the student's MLP, made of the student's Linear and ReLU
    gate = registry.check("mnist_accuracy").cell
    assert {answer: registry.cells_a_part_may_cost(answer) for answer in registry.answers()} == {
        answer: {*registry.cells_of_part(answer), *([gate] if answer in trained else [])}
        for answer in ("linear", "relu", "cross_entropy", "sgd", "mlp")
    }
    assert {check.name: check.also_costs for check in registry.CHECKS if check.also_costs} == {
        "mnist_accuracy": ("linear", "relu")
    }


# -------------------------------------------------------------------------------- 9. the notebook's public checks

PUBLIC_OF = {cls: answer for answer, cls in registry.answers().items()}


def _public_failures(edits: tuple[Edit, ...]) -> dict[str, str]:
    """The answer cells whose public check cell fails for the solution with ``edits``, and the message."""
    names, failed = grading.namespace(grading.catalogue_code(edits), "<pinned>"), {}
    for cls, source in grading.PUBLIC_CELLS.items():
        try:
            exec(compile(source, f"<public {cls}>", "exec"), names)
        except AssertionError as failure:
            failed[PUBLIC_OF[cls]] = str(failure)
    return failed


def test_the_public_linear_check_calls_an_earlier_forward_so_a_stale_input_fails() -> None:
    failed = _public_failures(_catalogued("linear_stale_input"))
    assert set(failed) == {"linear", "mlp"}, failed  # the MLP check runs Linear's first, and says so
    assert "after forward(x_stale), forward(x): W.grad" in failed["linear"]
    assert "dW uses the input of an earlier forward call" in failed["linear"]
    assert "fix `Linear.backward` first (the public check of Linear fails there)" in failed["mlp"], failed["mlp"]


def test_the_public_finite_difference_checks_catch_a_gradient_off_by_1e_4() -> None:
    """dW rounded to 3 decimals is exact on the worked examples (integers) and about 1.5e-4 off on random inputs:
    only the finite-difference check, with its tolerance of 1e-6, catches it in Linear's (the MLP's runs Linear's
    first); MLP's own catches dX rounded the same way in MLP.backward."""
    rounded = (Edit("linear", "self.W.grad = x.T @ grad", "self.W.grad = np.round(x.T @ grad, 3)"),)
    failed = _public_failures(rounded)
    assert set(failed) == {"linear", "mlp"}, failed
    message = failed["linear"]
    assert "(finite-difference check)" in message and "relative error at most 1e-06" in message, message
    assert "fix `Linear.backward` first" in failed["mlp"], failed["mlp"]
    rounded = (Edit("mlp", "return self.fc1.backward(grad)", "return np.round(self.fc1.backward(grad), 3)"),)
    failed = _public_failures(rounded)
    assert set(failed) == {"mlp"}, failed
    assert "(finite-difference check)" in failed["mlp"] and "relative error at most 1e-06" in failed["mlp"], failed


# ------------------------------------------------------------------------------- 5. the MNIST gate's judge

TEST_SET = 2_000  # fabricated test images: 0.05 % apart, and fast to classify
PREDICTED = 3  # every fabricated model predicts this class


def _gate_inputs() -> dict[str, Any]:
    with grading.secret(SECRETS[0]):
        return inputs_for("mnist_accuracy")


def _constant_model(inputs: dict[str, Any]) -> list[np.ndarray]:
    """W1, b1, W2, b2 of the gate's shapes whose hidden layer is 0 on every image, so it predicts PREDICTED."""
    rng = np.random.default_rng(0)
    W1, b1, W2, b2 = (np.array(a, dtype=np.float32) for a in inputs["init"])
    W1 = (0.01 * rng.standard_normal(W1.shape)).astype(np.float32)
    b1 = np.full(b1.shape, -100.0, np.float32)
    W2 = rng.standard_normal(W2.shape).astype(np.float32)
    b2 = np.zeros(b2.shape, np.float32)
    b2[PREDICTED] = 10.0
    return [W1, b1, W2, b2]


MEASURED = {"cpu": 20.0, "steps": 5625, "pace_setup": 0.25, "pace_step": 0.002, "pace_chunks": 3, "too_slow_at": None}
"""A speed measurement from outside: 20 s of CPU against the grader's 0.25 + 5625 x 0.002 = 11.5 s (1.7 times)."""


def _gate_verdict(
    monkeypatch: pytest.MonkeyPatch,
    correct: int,
    distance: float = 0.05,
    measured: dict[str, Any] | None = MEASURED,
    **record_extra: Any,
) -> str:
    """The gate judge's verdict on a fabricated run: ``correct`` of the 2,000 fabricated test images right, W1 and
    W2 at relative distance ``distance`` from the fabricated end of the grader's own training, its speed as the
    trusted side ``measured`` it."""
    inputs = _gate_inputs()
    trained = _constant_model(inputs)
    rng = np.random.default_rng(1)
    labels = np.where(np.arange(TEST_SET) < correct, PREDICTED, PREDICTED + 1).astype(np.uint8)
    data = SimpleNamespace(
        test_images=rng.integers(0, 256, size=(TEST_SET, 28, 28), dtype=np.uint8),
        test_labels=labels,
        train_images=np.zeros((1, 28, 28), np.uint8),
        train_labels=np.zeros(1, np.uint8),
    )
    # |t - t / (1 - d)| / |t / (1 - d)| = d: the reference's W1 and W2 are the trained ones scaled
    reference = [p / (1.0 - distance) if k in gate_reference.WEIGHTS else p for k, p in enumerate(trained)]
    monkeypatch.setattr(mnist_gate, "load_mnist", lambda: data)
    monkeypatch.setattr(gate_reference, "reference_end", lambda *args: [np.asarray(p, np.float64) for p in reference])
    record = {
        "model": {"opaque": "MLP", "text": "MLP()"},
        "parameters": {"opaque": "generator", "text": "<generator>"},
        "shapes": [list(a.shape) for a in inputs["init"]],
        "logits": np.zeros((inputs["batch"], 10), np.float32),
        "trained": trained,
        **record_extra,
    }
    try:
        return str(judge("mnist_accuracy", inputs, WorkerOutcome(records=[record], measured=measured)) or "")
    except AssertionError as failure:
        return f"FAILED: {failure}"


def test_the_gate_passes_97_05_percent_and_fails_96_95_percent(monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _gate_verdict(monkeypatch, 1939)
    assert failed.startswith("FAILED: MNIST test accuracy") and "expected at least 97.00%" in failed, failed
    assert "got 96.95%" in failed, failed
    passed = _gate_verdict(monkeypatch, 1941)
    assert passed.startswith("MNIST: 97.05% test accuracy") and "(required 97%)" in passed, passed


def test_the_gate_fails_a_run_ending_26_percent_from_the_graders_own_training(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _gate_verdict(monkeypatch, 1980, distance=0.24).startswith("MNIST: 99.00% test accuracy")
    failed = _gate_verdict(monkeypatch, 1980, distance=0.26)
    assert failed.startswith("FAILED: MNIST training (784-256-10, batch 32): expected the trained W1 and W2 within 25%")
    assert "W1 26% and W2 26% away" in failed, failed


def test_the_gate_fails_a_training_just_over_100_times_the_graders_own(monkeypatch: pytest.MonkeyPatch) -> None:
    reference = MEASURED["pace_setup"] + MEASURED["steps"] * MEASURED["pace_step"]
    assert _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "cpu": 99.9 * reference}).startswith("MNIST: 99.00%")
    failed = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "cpu": 100.1 * reference})
    assert failed.startswith(
        "FAILED: MNIST training speed: expected the training to use at most 100 times the CPU time of the grader's own"
    ), failed
    assert "100.1 times: your MLP's training used 1151.1 s of CPU time for 5625 steps, the grader's 11.5 s" in failed


def test_the_gate_fails_what_no_measurement_or_a_nan_backs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Speed rests only on the trusted side's measurement: none is the grader's fault, a NaN in it fails."""
    with pytest.raises(RuntimeError, match="without the grader's own measurement"):
        _gate_verdict(monkeypatch, 1980, measured=None)
    for broken in ({"cpu": float("nan")}, {"pace_step": float("nan")}, {"pace_setup": float("inf")}):
        failed = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, **broken})
        assert failed.startswith("FAILED: MNIST training speed"), (broken, failed)


def test_a_worker_stopped_from_outside_as_too_slow_fails_on_speed_whatever_it_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = {"times": 120.0, "student": 60.0, "reference": 0.5, "from": 0}
    failed = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "cpu": 62.0, "too_slow_at": 1000, "too_slow": seen})
    assert failed.startswith("FAILED: MNIST training speed: expected the training to use at most 100 times"), failed
    assert "got 120.0 times: your MLP's training had used 60.0 s of CPU time when it said it was at step 1000" in failed
    assert "(the grader's training of those steps, start-up included: 0.50 s), and it was stopped there" in failed


def test_a_worker_stopped_on_its_cpu_per_step_shows_the_steps_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {"times": 128.0, "student": 16.0, "reference": 0.125, "from": 25}
    failed = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "cpu": 18.0, "too_slow_at": 275, "too_slow": seen})
    assert "got 128.0 times: from step 25 to step 275 (of 5625) your MLP's training used 16.0 s of CPU time" in failed
    assert "the grader's training of those steps 0.12 s, and it was stopped there" in failed, failed


def test_a_worker_stopped_before_its_first_step_is_told_where_the_time_went(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {"times": 150.0, "student": 60.0, "reference": 0.4, "from": 0}
    failed = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "cpu": 60.0, "too_slow_at": 0, "too_slow": seen})
    assert "Likely cause: the time went before the first training step" in failed, failed
    bare = _gate_verdict(monkeypatch, 1980, measured={**MEASURED, "too_slow_at": 10})  # no figures: still a failure
    assert "got more than 100 times, and it was stopped before the end" in bare, bare


@pytest.mark.parametrize("where", [0, 1, 2, 3])
def test_a_nan_in_any_trained_parameter_fails_the_gate_by_name(where: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """One NaN must not turn a comparison off: the distance and accuracy of a NaN model are never a pass."""
    inputs = _gate_inputs()
    trained = [p.copy() for p in _constant_model(inputs)]
    trained[where].flat[0] = np.nan
    failed = _gate_verdict(monkeypatch, 1980, trained=trained)
    name = ("W1", "b1", "W2", "b2")[where]
    assert failed.startswith("FAILED: MNIST training (784-256-10, batch 32): expected the trained W1, b1, W2, b2 to")
    assert f"got {name} holding NaN or infinity after training" in failed, failed


def test_a_nan_distance_fails_the_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_reference, "distances", lambda *args: [float("nan"), 0.01])
    failed = _gate_verdict(monkeypatch, 1980)
    assert failed.startswith("FAILED: MNIST training (784-256-10, batch 32): expected the trained W1 and W2 within 25%")


GATE_RULES: dict[str, tuple[dict[str, Any], str]] = {  # record entries -> the start of the failure
    "too_slow": (
        {"measured": {**MEASURED, "cpu": 4000.0}},
        "FAILED: MNIST training speed: expected the training to use at most 100 times",
    ),
    "missing_grad": (
        {"missing_grad": [0, 1]},
        "FAILED: MNIST training (784-256-10, batch 32): expected every parameter to have a .grad",
    ),
    "diverged": ({"diverged_at": 12}, "FAILED: MNIST training (784-256-10, batch 32): expected finite logits"),
    "wrong_shapes": (
        {"shapes": [[784, 10]]},
        "FAILED: MLP(784, 256, 10).parameters(): expected W1, b1, W2, b2 of shapes",
    ),
    "logits_shape": ({"logits": np.zeros((32, 9))}, "FAILED: MLP(784, 256, 10).forward on 32 MNIST images"),
    "not_floats": (
        {"trained": [np.zeros((784, 256), np.int64)] * 4},
        "FAILED: MNIST training (784-256-10, batch 32): expected the trained W1, b1, W2, b2 as float arrays",
    ),
    "training_raised": (  # the student's error, told with the gate's hint (a KeyError here would be the grader's)
        {
            "training_error": {
                "raised": "ValueError",
                "kinds": ["ValueError", "Exception", "BaseException", "object"],
                "message": "operands could not be broadcast together",
                "line": "return x @ self.W.T",
                "unwritten": None,
            }
        },
        "FAILED: MNIST training (784-256-10, batch 32) raised ValueError: operands could not be broadcast together",
    ),
}


GATE_HINTS: dict[str, str] = {  # what each failure of the gate tells the student to do
    "too_slow": "Likely cause: a Python loop over samples or entries in forward/backward, or very large temporary",
    "missing_grad": "Likely cause: each layer's backward must store the gradients of its parameters in their .grad",
    "diverged": "Likely cause: training diverged; a gradient is wrong (check the gradient tests above)",
    "logits_shape": "expected shape (32, 10), got shape (32, 9)",
    "not_floats": "Likely cause: something other than the grader's training changed the parameters",
    "training_raised": f"Hint: {GATE_AFTER_CHECKS}",
}


@pytest.mark.parametrize("rule", GATE_HINTS)
def test_every_failure_of_the_gate_keeps_its_hint(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _gate_verdict(monkeypatch, 1980, **GATE_RULES[rule][0])
    assert GATE_HINTS[rule] in verdict, verdict


def test_an_accuracy_below_the_threshold_names_its_likely_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _gate_verdict(monkeypatch, 1900)
    assert "Likely cause: training learns, but not enough: a gradient is slightly wrong" in failed, failed
    assert f"Hint: {GATE_AFTER_CHECKS}" in failed, failed


@pytest.mark.parametrize("rule", GATE_RULES)
def test_every_rule_of_the_gate_fails_a_record_that_breaks_it_whatever_the_accuracy(
    rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra, start = GATE_RULES[rule]
    verdict = _gate_verdict(monkeypatch, 1980, **extra)
    assert verdict.startswith(start), verdict
