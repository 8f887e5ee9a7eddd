"""What the checks print when something goes wrong: the student's error explained, with its hint and formula,
no invented cause, no crash of the check itself (fast tier). Found missing by the mutation benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
from nn_messages import LINEAR_FORWARD_FORMULA, NO_BIAS, TRAIN_CHECKS_FAILED, TRAIN_CHECKS_NOT_RUN  # noqa: E402

import grading  # noqa: E402
import nn_public  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.classroom import Edit  # noqa: E402
from autograder.judge.common import got  # noqa: E402
from autograder.probe.core import raised  # noqa: E402
from nn_checks import CheckFailed, check_array, fail, render_message  # noqa: E402
from nn_diagnosis import explain_error  # noqa: E402


def _mlp(old: str, new: str) -> type:
    return grading.namespace(grading.catalogue_code((Edit("mlp", old, new),)), "<public>")["MLP"]


def test_an_mlp_forward_that_raises_is_explained_not_a_crash_of_the_check() -> None:
    """A typo in forward's ReLU line: the public check reports the NameError, with the line, not a TypeError of its
    own (``nn_diagnosis.run_recorded``)."""
    MLP = _mlp("return self.fc2(self.relu(self.fc1(x)))", "return self.fc2(self.rleu(self.fc1(x)))")
    with pytest.raises(CheckFailed) as failed:
        nn_public.check_mlp(MLP)
    message = str(failed.value)
    assert "raised AttributeError" in message and "rleu" in message, message
    assert "TypeError" not in message, message


UNWRITTEN = {
    "forward": Edit("mlp", "return self.fc2(self.relu(self.fc1(x)))", "raise NotImplementedError()"),
    "backward": Edit("mlp", "return self.fc1.backward(grad)", "raise NotImplementedError()"),
}


@pytest.mark.parametrize("method", sorted(UNWRITTEN))
def test_an_unwritten_mlp_method_is_told_as_not_written_even_when_its_layers_are_unwritten(method: str) -> None:
    """The untouched release: MLP's own stub is what to write, not "fix Linear.forward first" (the layers' checks run
    first only for an MLP whose own methods run)."""
    edits = (UNWRITTEN[method], Edit("linear", "return x @ self.W + self.b", "raise NotImplementedError()"))
    if method == "backward":  # Linear.forward written, so that MLP.forward runs and backward is reached
        edits = edits[:1]
    MLP = grading.namespace(grading.catalogue_code(edits), "<public>")["MLP"]
    with pytest.raises(CheckFailed) as failed:
        nn_public.check_mlp(MLP)
    assert failed.value.failure.message.id == "not_written", failed.value.failure
    assert failed.value.failure.message.fields["method"] == f"MLP.{method}", failed.value.failure


def test_a_failure_without_a_hint_names_no_cause() -> None:
    with pytest.raises(AssertionError) as failed:
        fail("Linear.forward", "shape (2, 3)", "shape (3, 2)")
    assert "Likely cause" not in str(failed.value), str(failed.value)
    with pytest.raises(AssertionError) as named:
        fail("Linear.forward", "shape (2, 3)", "shape (3, 2)", NO_BIAS)
    assert f"Likely cause: {NO_BIAS}." in str(named.value) and named.value.failure.cause == NO_BIAS


def test_a_message_is_rendered_for_the_notebook_wrapped_with_its_first_line_in_red() -> None:
    message = "Linear.forward: " + "expected something long " * 8 + "\n  Likely cause: a short one."
    lines = render_message(message, width=40)
    assert lines[0].startswith("\x1b[1;31m") and lines[0].endswith("\x1b[0m"), lines
    assert all(len(line.removeprefix("\x1b[1;31m").removesuffix("\x1b[0m")) <= 40 for line in lines), lines
    assert any(line.startswith("  Likely cause:") for line in lines), lines


def test_every_check_is_grouped_with_its_probe_module_and_the_gate_alone() -> None:
    """A worker holds either the layers' probes or the MLP's (whose stand-ins are correct layers), never both; the
    gate runs alone. One worker per probe module, not one per check (each worker costs a start-up)."""
    groups = registry.worker_groups()
    modules = [{registry.check(name).probe.split(".")[0] for name in group} for group in groups]
    layers = {"linear", "relu", "loss", "sgd"}
    assert sorted(map(sorted, modules)) == sorted(map(sorted, [layers, {"mlp"}, {"gate"}])), modules
    assert ("mnist_accuracy",) in groups


def test_an_array_check_says_what_came_and_keeps_its_hint() -> None:
    with pytest.raises(AssertionError) as integers:
        check_array("Linear.forward", np.arange(3), NO_BIAS)
    assert "expected a floating-point dtype, got dtype int64" in str(integers.value), str(integers.value)
    assert f"Likely cause: {NO_BIAS}." in str(integers.value)
    with pytest.raises(AssertionError) as nan:
        check_array("Linear.forward", np.array([[1.0, np.nan], [np.inf, 2.0]]), NO_BIAS)
    assert "2 NaN/inf entries (first at index (0, 1))" in str(nan.value) and f"Likely cause: {NO_BIAS}." in str(
        nan.value
    )


def test_a_raised_error_keeps_the_formula_and_an_unwritten_method_is_named_with_its_class() -> None:
    try:
        raise ValueError("operands could not be broadcast together")
    except ValueError as error:
        record = {"y": raised(error)}
    with pytest.raises(AssertionError) as failed:
        got(record, "y", "Linear.forward", LINEAR_FORWARD_FORMULA)
    message = str(failed.value)
    assert (
        "raised ValueError: operands could not be broadcast together" in message
        and "The formula: Y = X W + b" in message
    )

    class Linear:
        def forward(self, x: np.ndarray) -> np.ndarray:
            raise NotImplementedError()

    try:
        Linear().forward(np.zeros(1))
    except NotImplementedError as error:
        unwritten = str(explain_error("Linear(3, 2): forward(x)", error, formula=LINEAR_FORWARD_FORMULA))
    assert "`Linear.forward` is not written yet." in unwritten, unwritten
    assert "Likely cause" not in unwritten and "The formula: Y = X W + b" in unwritten, unwritten


@pytest.mark.parametrize("secret", grading.SECRETS[:1])
def test_a_cast_in_linear_forward_is_told_to_keep_the_dtype(secret: str) -> None:
    edits = (Edit("linear", "return x @ self.W + self.b", "return (x @ self.W + self.b).astype(np.float32)"),)
    with grading.secret(secret):
        lost = grading.grade(grading.namespace(grading.catalogue_code(edits), "<cast>"))
    assert "keep the dtype of x and of the parameters" in lost["linear_forward"], lost


@pytest.mark.parametrize("secret", grading.SECRETS[:1])
def test_a_cast_in_relu_backward_is_told_to_keep_the_dtype(secret: str) -> None:
    edits = (Edit("relu", 'return grad * self.ctx["mask"]', 'return (grad * self.ctx["mask"]).astype(np.float32)'),)
    with grading.secret(secret):
        lost = grading.grade(grading.namespace(grading.catalogue_code(edits), "<cast>"))
    assert set(lost) == {"relu_backward"} and "keep the dtype of the input" in lost["relu_backward"], lost


def test_the_public_linear_check_names_the_given_init_when_b_is_made_2d() -> None:
    """The hidden checks refuse a b of shape (1, D_out) from the given ``__init__``; the public check did not look."""
    edit = Edit(
        "linear", "self.b = Parameter(np.zeros(out_features))", "self.b = Parameter(np.zeros((1, out_features)))"
    )
    Linear = grading.namespace(grading.catalogue_code((edit,)), "<public>")["Linear"]
    with pytest.raises(CheckFailed) as failed:
        nn_public.check_linear(Linear)
    assert failed.value.failure.cause is not None and failed.value.failure.cause.id == "linear.given_init"
    assert "expected shape (2,), got shape (1, 2)" in str(failed.value), failed.value


CHECKS = (nn_public.check_linear, nn_public.check_relu, nn_public.check_cross_entropy, nn_public.check_sgd)
"""The public checks of the parts, in the notebook's order (``nn_public.PARTS``), the MLP's last."""


def test_the_training_cell_waits_until_every_public_check_passed_in_the_kernel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No check run yet: it says so, naming all; a failed ReLU (and the MLP that runs it): it names those two to fix
    first; all passed: it lets training start (``nn_public.ready_to_train``, the training cell's first step)."""
    monkeypatch.setattr(nn_public, "CHECKED", {})  # a kernel just started
    with pytest.raises(CheckFailed) as refused:
        nn_public.ready_to_train()
    assert refused.value.failure.message == TRAIN_CHECKS_NOT_RUN(parts=list(nn_public.PARTS)), refused.value.failure
    solved = grading.namespace(grading.catalogue_code(()), "<public>")
    broken = grading.namespace(
        grading.catalogue_code((Edit("relu", 'self.ctx["mask"] = x > 0', 'self.ctx["mask"] = x >= 0'),)), "<public>"
    )
    for classes in (broken, solved):
        for part, check in zip(nn_public.PARTS, (*CHECKS, nn_public.check_mlp), strict=True):
            try:
                check(classes[part])
            except CheckFailed:
                pass
        if classes is broken:
            with pytest.raises(CheckFailed) as refused:
                nn_public.ready_to_train()
            assert refused.value.failure.message == TRAIN_CHECKS_FAILED(parts=["ReLU", "MLP"])
            assert "ReLU, MLP" in str(refused.value), refused.value
    nn_public.ready_to_train()
    assert capsys.readouterr().out.count("public checks passed") == 3 + 5
