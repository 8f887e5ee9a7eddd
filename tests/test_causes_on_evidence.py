"""A failure names a cause only on evidence, and never sends the student to the wrong place (fast tier).

A ``.grad`` left None is an attribute a method did not set, not a missing ``return``; a parameter is named by where
it is in the student's model, not by its index; a value of the student's that breaks the grader's own arithmetic is
named with its shape; a public MLP check does not blame MLP for its layers; the words fit what was measured. The
MNIST gate's probe runs here on a fabricated MNIST of 64 images: nothing here trains on the real data.
"""

from __future__ import annotations

import contextlib
import functools
import io
import linecache
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
from nn_messages import CheckFailed  # noqa: E402
from wording import lead, said  # noqa: E402

import grading  # noqa: E402
import nn_public  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.classroom import Edit  # noqa: E402
from autograder.course.nn_messages import LIKELY_CAUSE, PASSED  # noqa: E402
from autograder.judge import gate as judge_gate  # noqa: E402
from autograder.judge.checks import judge, run_here  # noqa: E402
from autograder.judge.outcome import WorkerOutcome  # noqa: E402
from autograder.probe import gate as probe_gate  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS  # noqa: E402
from nn_checks import check_array, check_close, check_within  # noqa: E402
from nn_core import Module, Parameter  # noqa: E402

SECRETS = grading.SECRETS[:2]
CAUSE = lead(LIKELY_CAUSE)
"""How a failure's line naming the likely cause starts (its declaration's words: "Likely cause:")."""
NO_DB = (Edit("linear", "self.b.grad = grad.sum(axis=0)", "db = grad.sum(axis=0)"),)
NO_DW = (Edit("linear", "self.W.grad = x.T @ grad", "dW = x.T @ grad"),)
KEEPDIMS = (Edit("linear", "grad.sum(axis=0)", "grad.sum(axis=0, keepdims=True)"),)
RETURN_NOTHING = (Edit("linear", "return grad @ self.W.T", "grad @ self.W.T"),)
MLP_SKIPS_FC1 = (Edit("mlp", "return self.fc1.backward(grad)", "return grad"),)
MLP_CLEARS_B = (
    Edit(
        "mlp",
        "return self.fc1.backward(grad)",
        "dx = self.fc1.backward(grad)\n        self.fc1.b.grad = None\n        return dx",
    ),
)
RELU_MASK_FROM_GRAD = (Edit("relu", 'return grad * self.ctx["mask"]', "return grad * (grad > 0)"),)
RELU_MIN = (Edit("relu", "return np.maximum(x, 0)", "return np.minimum(x, 0)"),)
RETURNED_NONE = "the method returned None"


def _names(edits: tuple[Edit, ...]) -> dict[str, Any]:
    return grading.namespace(grading.catalogue_code(edits), "<causes>")


def _lost(edits: tuple[Edit, ...], secret: str) -> dict[str, str]:
    with grading.secret(secret):
        return grading.grade(_names(edits))


def _public(check: Any, cls: type) -> str:
    """The message of a public check that must fail."""
    with pytest.raises(CheckFailed) as failed:
        check(cls)
    return str(failed.value)


# ------------------------------------------------------------------ 1. a .grad never set is not a missing return


@pytest.mark.parametrize("secret", SECRETS)
def test_a_linear_backward_that_never_sets_b_grad_is_told_which_attribute_and_which_method(secret: str) -> None:
    lost = _lost(NO_DB, secret)
    assert set(lost) == {"linear_backward_db"}, lost
    message = lost["linear_backward_db"]
    assert f"{CAUSE} b.grad was never set: Linear.backward must store the gradient there" in message, message
    assert RETURNED_NONE not in message


@pytest.mark.parametrize("secret", SECRETS)
def test_a_linear_backward_that_never_sets_w_grad_is_told_which_attribute(secret: str) -> None:
    lost = _lost(NO_DW, secret)
    assert set(lost) == {"linear_backward_dw"}, lost
    assert "W.grad was never set: Linear.backward must store" in lost["linear_backward_dw"], lost
    assert RETURNED_NONE not in lost["linear_backward_dw"]


@pytest.mark.parametrize("secret", SECRETS)
def test_a_backward_that_returns_nothing_is_still_told_its_missing_return(secret: str) -> None:
    lost = _lost(RETURN_NOTHING, secret)
    assert "linear_backward_dx" in lost and "missing `return`" in lost["linear_backward_dx"], lost


def test_the_public_linear_check_names_the_attribute_never_set() -> None:
    message = _public(nn_public.check_linear, _names(NO_DB)["Linear"])
    assert "b.grad was never set: Linear.backward must store the gradient there" in message, message
    assert RETURNED_NONE not in message


@pytest.mark.parametrize("secret", SECRETS)
def test_an_mlp_backward_that_clears_a_grad_its_layer_set_is_told_so(secret: str) -> None:
    lost = _lost(MLP_CLEARS_B, secret)
    assert "mlp_backward" in lost, lost
    assert "fc1.b.grad is None after MLP.backward, though fc1.backward ran and sets it" in lost["mlp_backward"]
    assert RETURNED_NONE not in lost["mlp_backward"]


def test_the_public_mlp_check_tells_an_mlp_that_clears_a_grad_by_its_name() -> None:
    message = _public(nn_public.check_mlp, _names(MLP_CLEARS_B)["MLP"])
    assert "MLP.backward(grad): fc1.b.grad" in message, message
    assert "fc1.b.grad is None after MLP.backward, though fc1.backward ran" in message, message
    assert "parameter 1" not in message and RETURNED_NONE not in message


def test_the_public_mlp_check_names_a_wrong_gradient_by_its_attribute_not_an_index() -> None:
    doubled = (
        Edit(
            "mlp",
            "return self.fc1.backward(grad)",
            "dx = self.fc1.backward(grad)\n        self.fc1.b.grad = 2 * self.fc1.b.grad\n        return dx",
        ),
    )
    message = _public(nn_public.check_mlp, _names(doubled)["MLP"])
    assert "MLP.backward(grad): fc1.b.grad (finite-difference check)" in message, message
    assert "parameter 1" not in message


# -------------------------------------------------- 2. and 3. the MNIST gate: names, evidence, the grader's arithmetic

HIDDEN = 8


def _gate_inputs(epochs: int = 1) -> dict[str, Any]:
    """A gate of the real recipe's form on 64 fabricated images (two steps of 32 per epoch)."""
    rng = np.random.default_rng(0)
    init = [
        (0.05 * rng.standard_normal((784, HIDDEN))).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        (0.3 * rng.standard_normal((HIDDEN, 10))).astype(np.float32),
        np.zeros(10, np.float32),
    ]
    return dict(
        hidden=HIDDEN,
        init=init,
        batch=32,
        learning_rates=[0.1] * epochs,
        orders=[np.arange(64)] * epochs,
        max_slowdown=45,
    )


MEASURED = {"cpu": 1.0, "steps": 2, "pace_setup": 0.0, "pace_step": 0.5, "too_slow_at": None}


def _gate(MLP: type, monkeypatch: pytest.MonkeyPatch, epochs: int = 1) -> tuple[dict[str, Any], str]:
    """The gate probe's record of training ``MLP`` on the fabricated MNIST, and its judge's verdict (a failure)."""
    rng = np.random.default_rng(1)
    data = SimpleNamespace(
        train_images=rng.integers(0, 256, (64, 28, 28), dtype=np.uint8), train_labels=np.arange(64, dtype=np.uint8) % 10
    )
    monkeypatch.setattr(probe_gate, "load_mnist", lambda: data)
    inputs = _gate_inputs(epochs)
    records = probe_gate.mnist_accuracy(MLP, inputs)
    with pytest.raises(CheckFailed) as failed:
        judge_gate.judge_accuracy(inputs, records, MEASURED)
    return records[0], str(failed.value)


def test_the_gate_names_the_grads_never_set_and_the_layers_whose_backward_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    record, message = _gate(_names(NO_DB)["MLP"], monkeypatch)
    assert "got parameters fc1.b, fc2.b without one" in message, message
    assert (
        f"{CAUSE} fc1.backward, fc2.backward ran but never set fc1.b.grad, fc2.b.grad: Linear.backward must "
        "store the gradient of each of its parameters in its .grad"
    ) in message, message
    assert "MLP.backward must call" not in message and "parameters 1, 3" not in message
    assert record["missing_grad"] == [1, 3]


def test_the_gate_blames_mlp_backward_only_for_a_layer_whose_backward_never_ran(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, message = _gate(_names(MLP_SKIPS_FC1)["MLP"], monkeypatch)
    assert "got parameters fc1.W, fc1.b without one" in message, message
    assert f"{CAUSE} MLP.backward never called fc1.backward, which should have set fc1.W.grad, fc1.b.grad" in message


def test_the_gate_finds_names_wherever_the_students_mlp_keeps_its_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    names = _names(NO_DB)
    Linear, ReLU = names["Linear"], names["ReLU"]

    class Renamed(Module):
        def __init__(self, d_in: int, hidden: int, classes: int) -> None:
            super().__init__()
            self.hidden, self.act, self.out = Linear(d_in, hidden), ReLU(), Linear(hidden, classes)

        def forward(self, x: np.ndarray) -> np.ndarray:
            return self.out(self.act(self.hidden(x)))

        def backward(self, grad: np.ndarray) -> np.ndarray:
            return self.hidden.backward(self.act.backward(self.out.backward(grad)))

    _, message = _gate(Renamed, monkeypatch)
    assert "got parameters hidden.b, out.b without one" in message, message
    assert "hidden.backward, out.backward ran but never set hidden.b.grad, out.b.grad" in message, message


def test_parameter_owners_follow_lists_and_dicts_of_layers() -> None:
    class Layer(Module):
        def __init__(self) -> None:
            super().__init__()
            self.W, self.b = Parameter(np.zeros((2, 2))), Parameter(np.zeros(2))

    model = Module()
    model.layers = [Layer(), Layer()]
    model.named = {"head": Layer()}
    params = [model.layers[1].b, model.named["head"].W, Parameter(np.zeros(1))]
    found = probe_gate.parameter_owners(model, params)
    assert [name for name, _ in found] == ["layers[1].b", "named['head'].W", None]
    assert found[0][1] is model.layers[1] and found[2][1] is None


def _fabricated(**extra: Any) -> str:
    """The gate judge's verdict on a fabricated record (no training) holding ``extra``."""
    inputs = _gate_inputs()
    record = {
        "model": {"opaque": "MLP", "text": "MLP()"},
        "parameters": {"opaque": "generator", "text": "<generator>"},
        "shapes": [list(a.shape) for a in inputs["init"]],
        "logits": np.zeros((32, 10), np.float32),
        **extra,
    }
    with pytest.raises(CheckFailed) as failed:
        judge("mnist_accuracy", inputs, WorkerOutcome(records=[record], measured=MEASURED))
    return str(failed.value)


def test_without_evidence_the_gate_names_indices_and_blames_no_one_method() -> None:
    message = _fabricated(missing_grad=[1, 3])
    assert "got parameters 1, 3 without one" in message, message
    assert "each layer's backward must store the gradients of its parameters" in message, message
    forged = _fabricated(missing_grad=[1], missing_grad_evidence=[{"index": "x", "name": 3}])
    assert "got parameters 1 without one" in forged and "each layer's backward must store" in forged, forged


@pytest.mark.parametrize("secret", SECRETS)
def test_a_b_grad_that_breaks_the_graders_update_is_named_with_its_shape(
    secret: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert set(_lost(KEEPDIMS, secret)) == {"linear_backward_db"}  # its own check fails as before
    record, message = _gate(_names(KEEPDIMS)["MLP"], monkeypatch)
    assert "training_error" not in record and record["bad_grad"]["shape"] == [1, HIDDEN], record
    assert f"expected fc1.b.grad to be an array of the shape of fc1.b, ({HIDDEN},)" in message, message
    assert f"got ndarray of shape (1, {HIDDEN}) and dtype float32" in message, message
    assert f"{CAUSE} Linear.backward stores in fc1.b.grad something the grader's SGD update cannot" in message
    assert "do not line up" not in message


def test_logits_that_break_the_graders_loss_gradient_at_a_later_step_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shrinking = (
        Edit(
            "mlp",
            "return self.fc2(self.relu(self.fc1(x)))",
            "self.calls = getattr(self, 'calls', 0) + 1\n"
            "        logits = self.fc2(self.relu(self.fc1(x)))\n"
            "        return logits if self.calls < 3 else logits[:, :5]",
        ),
    )
    record, message = _gate(_names(shrinking)["MLP"], monkeypatch, epochs=2)
    assert "training_error" not in record and record["bad_logits"]["step"] == 3, record
    assert "MLP(784, 256, 10).forward at training step 3: expected float logits of shape (32, 10)" in message, message
    assert "got ndarray of shape (32, 5)" in message and "cannot use what forward returned" in message, message


# ------------------------------------------------------- 4. the public MLP check runs its layers' checks first


def test_a_wrong_relu_backward_is_not_blamed_on_a_correct_mlp() -> None:
    message = _public(nn_public.check_mlp, _names(RELU_MASK_FROM_GRAD)["MLP"])
    assert "MLP(5, 7, 3): not checked, because it runs your ReLU, whose public check fails." in message, message
    assert "fix `ReLU.backward` first (the public check of ReLU fails there)" in message, message
    assert "MLP.backward" not in message


def test_a_wrong_relu_forward_is_named_as_the_method_to_fix_first() -> None:
    message = _public(nn_public.check_mlp, _names(RELU_MIN)["MLP"])
    assert "fix `ReLU.forward` first" in message and "MLP.forward" not in message, message


def test_a_linear_backward_that_never_sets_b_grad_is_named_by_the_mlp_check() -> None:
    message = _public(nn_public.check_mlp, _names(NO_DB)["MLP"])
    assert "runs your Linear, whose public check fails" in message and "fix `Linear.backward` first" in message


def test_only_layers_are_run_through_the_layers_checks() -> None:
    """A ReLU that is a plain function is the MLP's own choice: no layer check runs on it, none is blamed."""
    function_relu = (Edit("mlp", "self.relu = ReLU()", "self.relu = lambda x: x * (x > 0)"),)
    message = _public(nn_public.check_mlp, _names(function_relu)["MLP"])
    assert "first" not in message and "public check fails" not in message, message


CLOSURE_RELU = (
    "def make_relu():\n"
    "    saved = {}\n"
    "    def relu(x):\n"
    "        saved['mask'] = x > 0\n"
    "        return x * saved['mask']\n"
    "    def backward(grad):\n"
    "        return grad * saved['mask']\n"
    "    relu.backward = backward\n"
    "    return relu\n\n\n"
)


def _closure_mlp(attribute: str, forward: str = "") -> type:
    """The solution's MLP whose ReLU is a closure (a function with a ``backward`` attribute, called directly), kept
    as ``attribute``; ``forward`` replaces the forward's return line."""
    names = _names(())
    exec(CLOSURE_RELU, names)  # noqa: S102 - the test's own code, in the solution's namespace
    source = "self.relu" if attribute == "relu" else f"self.{attribute}"
    forward = forward or f"self.fc2({source}(self.fc1(x)))"
    code = (
        "class ClosureMLP(MLP):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        f"        self.{attribute} = make_relu()\n"
        "    def forward(self, x):\n"
        f"        return {forward}\n"
        "    def backward(self, grad):\n"
        f"        return self.fc1.backward({source}.backward(self.fc2.backward(grad)))\n"
    )
    exec(code, names)  # noqa: S102
    return names["ClosureMLP"]


@pytest.mark.parametrize("attribute", ["relu", "act"])
def test_a_correct_mlp_whose_relu_is_a_closure_passes_the_public_check(
    attribute: str, capsys: pytest.CaptureFixture
) -> None:
    """Its forward runs the ReLU without any ``forward`` being seen (a closure called directly, or kept under
    another name than ``relu``): the public check does not say the ReLU is skipped."""
    nn_public.check_mlp(_closure_mlp(attribute))
    assert capsys.readouterr().out == "MLP: public checks passed.\n"


@pytest.mark.parametrize("attribute", ["relu", "act"])
def test_an_mlp_whose_closure_relu_is_really_skipped_is_still_told_so(attribute: str) -> None:
    """The same closure MLP with the ReLU left out of forward: what came is what fc2(fc1(x)) gives."""
    message = _public(nn_public.check_mlp, _closure_mlp(attribute, "self.fc2(self.fc1(x))"))
    assert "the ReLU is skipped: relu is never called in forward" in message, message


@pytest.mark.parametrize(
    ("mistake", "words"),
    [
        ("mlp_forward_skips_relu", "relu is never called in forward"),
        ("mlp_backward_skips_relu", "relu.backward is not called"),
    ],
)
def test_a_relu_module_really_skipped_is_still_told_so_by_the_public_check(mistake: str, words: str) -> None:
    edits = next(m.edits for m in MISTAKES if m.name == mistake)
    message = _public(nn_public.check_mlp, _names(edits)["MLP"])
    assert f"the ReLU is skipped: {words}" in message, message


def test_the_public_mlp_check_still_passes_the_solution(capsys: pytest.CaptureFixture) -> None:
    nn_public.check_mlp(_names(())["MLP"])
    assert capsys.readouterr().out == said(PASSED, part="MLP") + "\n"  # the layers' checks print nothing of their own


# ------------------------------------------------------------------------------ 5. words that fit the evidence


@pytest.mark.parametrize(
    ("accuracy", "words"),
    [
        (0.11, "training does not learn (the accuracy is near chance, 10%)"),
        (0.60, "training learns far too little"),
        (0.95, "training learns, but not enough: a gradient is slightly wrong"),
    ],
)
def test_the_gates_cause_for_a_low_accuracy_depends_on_how_low(
    accuracy: float, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = _gate_inputs()
    monkeypatch.setattr(judge_gate, "test_accuracy", lambda params: accuracy)
    record = {
        "model": {"opaque": "MLP", "text": "MLP()"},
        "parameters": {"opaque": "generator", "text": "<generator>"},
        "shapes": [list(a.shape) for a in inputs["init"]],
        "logits": np.zeros((32, 10), np.float32),
        "trained": [np.array(a) for a in inputs["init"]],
    }
    with pytest.raises(CheckFailed) as failed:
        judge("mnist_accuracy", inputs, WorkerOutcome(records=[record], measured=MEASURED))
    message = str(failed.value)
    assert f"{CAUSE} {words}" in message, message
    if accuracy < 0.9:
        assert "slightly" not in message


def test_a_band_prints_enough_digits_for_its_two_ends_to_differ() -> None:
    with pytest.raises(CheckFailed) as failed:
        check_within("L", np.asarray(0.9), np.asarray(0.8282812), 0.8282811, 0.8282813, accepted="anything")
    message = str(failed.value)  # at six digits both ends print 0.828281
    assert "anything between 0.8282811 and 0.8282813)" in message, message


def test_a_band_of_one_value_is_shown_as_that_value() -> None:
    with pytest.raises(CheckFailed) as failed:
        check_within("L", np.asarray(0.9), np.asarray(0.8282812), 0.8282812, 0.8282812, accepted="anything")
    message = str(failed.value)
    assert "between" not in message and "expected 0.828281 (relative error at most 1e-06)" in message, message


def test_a_scalar_nan_is_said_to_be_nan_not_at_an_index() -> None:
    with pytest.raises(CheckFailed) as failed:
        check_array("L", np.asarray(np.nan))
    assert "expected only finite numbers, got the value nan" in str(failed.value), failed.value
    with pytest.raises(CheckFailed) as failed:
        check_close("L", np.asarray(2.0), np.asarray(1.0))
    assert "index ()" not in str(failed.value) and "expected 1 (relative error at most 1e-06)" in str(failed.value)


@pytest.mark.slow  # the real MNIST; training stops at its first step
@pytest.mark.parametrize(
    ("edits", "words"),
    [
        (NO_DB, "fc1.backward, fc2.backward ran but never set fc1.b.grad, fc2.b.grad: Linear.backward must store"),
        (KEEPDIMS, "got ndarray of shape (1, 256) and dtype float32"),
    ],
)
def test_the_gate_on_mnist_names_what_the_student_left_or_gave(edits: tuple[Edit, ...], words: str) -> None:
    with grading.secret(SECRETS[0]), pytest.raises(CheckFailed) as failed:
        run_here("mnist_accuracy", _names(edits)["MLP"])
    assert words in str(failed.value), failed.value


# ------------------------------------------------------------------ an exception's cause: NumPy's words, not its class


def _raised(code: str) -> BaseException:
    try:
        exec(code, {"np": np})  # noqa: S102 - fixed test snippets
    except Exception as error:  # noqa: BLE001 - the error is what is examined
        return error
    raise AssertionError("the snippet did not raise")


@pytest.mark.parametrize(
    "code",
    [
        "np.ones((2, 3)) @ np.ones((2, 3))",
        "np.dot(np.ones((2, 3)), np.ones((2, 3)))",
        "np.ones((2, 3)) + np.ones((3, 2))",
        "a = np.ones(3); a += np.ones((1, 3))",
        "np.ones(6).reshape(4, 2)",
        "np.concatenate([np.ones((2, 3)), np.ones((2, 2))])",
    ],
)
def test_numpys_shape_errors_name_the_shapes_cause(code: str) -> None:
    import nn_messages as say

    import nn_diagnosis

    failure = nn_diagnosis.explain_error("Linear.backward(grad)", _raised(code))
    assert failure.cause == say.ERROR_SHAPES, failure


@pytest.mark.parametrize(
    ("code", "cause"),
    [
        ("np.ones(3)[0, 1]", "ERROR_AXIS"),  # more indices than axes: an axis was lost, not an index out of range
        ("np.ones((2, 3))[5]", "ERROR_INDEX"),
        ("[1][3]", "ERROR_INDEX"),
        ("np.ones(3)[1.5]", "ERROR_INDEX_TYPE"),
        ("np.ones(3)[np.array([1.0])]", "ERROR_INDEX_TYPE"),
        ("np.ones((2, 3))[:, 1.0]", "ERROR_INDEX_TYPE"),
    ],
)
def test_numpys_index_errors_are_told_apart_by_what_they_say(code: str, cause: str) -> None:
    """An IndexError is not always an index out of range (issue 44: the Chinese reviewer's ``too many indices``)."""
    import nn_messages as say

    import nn_diagnosis

    failure = nn_diagnosis.explain_error("Linear.backward(grad)", _raised(code))
    assert failure.cause == getattr(say, cause), failure


@pytest.mark.parametrize("text", ["the input is wrong", "shapes are fine, I checked", "{'x': array([1., 2.])}"])
def test_a_valueerror_the_student_raises_names_no_cause(text: str) -> None:
    """A ValueError is NumPy's shape error only when NumPy's words say so (the leaking attack raised its own)."""
    import nn_diagnosis

    failure = nn_diagnosis.explain_error("Linear.backward(grad)", _raised(f"raise ValueError({text!r})"))
    assert failure.cause is None, failure


HANG = "while True:\n            pass\n        "
NNFS_BROKEN_LAYERS = {
    "relu_backward_hangs": ("relu_backward", "self.dinputs = grad.copy()", f"{HANG}self.dinputs = grad.copy()"),
    "relu_backward_typo": ("relu_backward", "self.dinputs = grad.copy()", "self.dinputs = grads.copy()"),
    "relu_forward_typo": ("relu_forward", "self.output = np.maximum(0, x)", "self.output = np.maximum(0, inputs)"),
    "linear_backward_shapes": (
        "linear_backward_dx",
        "self.dinputs = np.dot(grad, self.W.T)",
        "self.dinputs = np.dot(grad, self.W)",
    ),
    "linear_forward_hangs": (
        "linear_forward",
        "self.output = np.dot(x, self.W)",
        f"{HANG}self.output = np.dot(x, self.W)",
    ),
}
"""An nnfs-style submission (its MLP reads each layer's results from the layer's attributes) with one layer broken:
the check it costs, and the edit."""


@pytest.mark.parametrize(
    "broken",
    # a hanging layer waits out its check's 10 s CPU limit: the slow tier's
    [pytest.param(b, marks=pytest.mark.slow) if b.endswith("_hangs") else b for b in NNFS_BROKEN_LAYERS],
)
def test_a_broken_layer_costs_an_mlp_that_reads_its_attributes_nothing(broken: str) -> None:
    """The stand-ins keep the attributes the student's own layer would set (``self.relu.dinputs``); when that layer
    raises or hangs, they are read from its code, as the worker has it (``linecache``), so the MLP keeps its points."""
    check, old, new = NNFS_BROKEN_LAYERS[broken]
    code = (grading.CORPUS / "nnfs_style.py").read_text()
    assert code.count(old) == 1, old
    name = f"<nnfs {broken}>"
    code = code.replace(old, new)
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # as the worker registers the cells
    try:
        names = grading.namespace(code, name)
        with grading.secret(SECRETS[0]):
            assert set(grading.grade(names, (check, "mlp_forward", "mlp_backward"))) == {check}
    finally:
        del linecache.cache[name]


def test_a_broken_layer_never_makes_a_wrong_mlp_right() -> None:
    """The attack on the stand-ins' reading of code: a ReLU that raises and keeps its input in ``self.inp`` by a
    computation (``x * 1``), and an MLP that feeds ``relu.inp`` to fc2, skipping the ReLU. Had the stand-in put its
    output in every attribute the code sets, this MLP would get full marks."""
    code = (grading.CORPUS / "nnfs_style.py").read_text()
    edits = {
        "        self.inputs = x\n        self.output = np.maximum(0, x)": "        self.inp = x * 1\n"
        "        self.output = np.maximum(0, inputs)",
        "self.fc2.forward(self.relu.output)": "self.fc2.forward(self.relu.inp)",
    }
    for old, new in edits.items():
        assert code.count(old) == 1, old
        code = code.replace(old, new)
    name = "<nnfs mlp skips relu>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    try:
        names = grading.namespace(code, name)
        with grading.secret(SECRETS[0]):
            assert "mlp_forward" in grading.grade(names, ("mlp_forward",))
    finally:
        del linecache.cache[name]


def test_a_layer_that_hangs_costs_its_own_checks_never_the_mlps() -> None:
    """The MLP's checks run the student's own layers once, aside and under a limit of their own, only to learn where
    they keep their results: a ReLU.backward that never returns costs its own check (and the gate, which trains with
    it), never MLP.forward or MLP.backward. It used to swallow the check's time limit, so the worker's CPU budget
    stopped both MLP checks with a cause the student had not written (a bare ``except``)."""
    hang = (Edit("relu", 'return grad * self.ctx["mask"]', "while True:\n            pass"),)
    with grading.secret(SECRETS[0]):
        assert grading.grade(_names(hang), ("mlp_forward", "mlp_backward")) == {}


def test_the_checks_own_limit_firing_in_a_layer_run_aside_costs_the_mlp_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A layer that swallows the limit of its run aside, then the check's own limit fires while it still runs: that
    time is the layer's too (a retry loop's ``except`` catches a signal wherever it lands, and the next one may land
    outside it)."""
    from autograder.probe import core
    from autograder.probe import mlp as probe_mlp

    monkeypatch.setattr(probe_mlp, "time_limit", functools.partial(core.time_limit, seconds=1.0))
    body = (
        "while True:\n            try:\n                while True:\n                    sum(range(1000))\n"
        "            except BaseException as error:\n                if type(error).__name__ != 'AsideTimeout':\n"
        "                    raise"
    )
    swallows_its_own = (Edit("relu", 'return grad * self.ctx["mask"]', body),)
    with grading.secret(SECRETS[0]):
        assert grading.grade(_names(swallows_its_own), ("mlp_forward", "mlp_backward")) == {}


def test_a_layer_that_sleeps_costs_the_mlp_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for a layer that waits without computing (a CPU limit never fires on a sleep): the run aside has a
    wall limit of its own too, and the mirrors are read from the layer's code."""
    from autograder.probe import mlp as probe_mlp

    monkeypatch.setattr(probe_mlp, "MIRROR_WALL_SECONDS", 0.2)
    sleep = (Edit("relu", 'return grad * self.ctx["mask"]', "import time\n        time.sleep(60)"),)
    start = time.monotonic()
    with grading.secret(SECRETS[0]):
        assert grading.grade(_names(sleep), ("mlp_forward", "mlp_backward")) == {}
    # without the wall limit each case sleeps its minute; with it, the layer is run aside once, then read from its code
    assert time.monotonic() - start < 5 and probe_mlp._HUNG
    assert probe_mlp.MIRROR_WALL_SECONDS == 0.2 and monkeypatch.undo() is None and probe_mlp.MIRROR_WALL_SECONDS == 5.0


# --------------------------------------------- 6. the loss's and SGD's causes of issue 43: named on their evidence only

ISSUE_43 = {
    "the loss is averaged over the classes too": "ce_loss_over_classes",
    "dZ is divided by B·C": "ce_backward_over_classes",
    "dZ is off by the same constant": "ce_backward_plus_one",
    "dZ comes from the logits and targets of an earlier forward": "ce_backward_earlier_forward",
    "replaced the list's entries": "sgd_replaces_list_entries",
    "0 · log 0 = NaN": "ce_zero_times_log_zero",
}
"""Each cause's words, and the catalogued mistake that makes it."""
PUBLIC = {"cross_entropy": nn_public.check_cross_entropy, "sgd": nn_public.check_sgd}


@functools.cache
def _causes_named(secret: str) -> dict[str, set[str]]:
    """Every catalogued mistake, correct variant and corpus submission, by name: the causes its hidden checks (under
    ``secret``) and its public loss and SGD checks name."""
    sources = {m.name: grading.catalogue_code(m.edits) for m in (*MISTAKES, *VARIANTS)} | grading.corpus()
    named: dict[str, set[str]] = {}
    for name, code in sources.items():
        failures = list(grading.failures_of(code, f"<{name}>", secret).values())  # as test_corpus grades them
        names = grading.namespace(code, f"<{name}>")  # the public checks' own, as the notebook's kernel is
        failures += [_public_failure(check, names[registry.answers()[part]]) for part, check in PUBLIC.items()]
        named[name] = {str(f.cause) for f in failures if f is not None and f.cause is not None}
    return named


def _public_failure(check: Any, cls: type) -> Any:
    """The failure of a public check, None if it passes."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            check(cls)
    except CheckFailed as failed:
        return failed.failure
    return None


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize("words", ISSUE_43)
def test_a_cause_of_issue_43_is_named_on_its_own_mistake_and_on_nothing_else(words: str, secret: str) -> None:
    """Its mistake's hidden and public checks name it; no other catalogued mistake, correct variant or corpus
    submission gets it, but one whose true cause it is (``mytorch_style`` puts new Parameters in SGD's list)."""
    named = {name for name, causes in _causes_named(secret).items() if any(words in c for c in causes)}
    truly = {name for name, code in grading.corpus().items() if words in str(grading.expected_of(code).values())}
    assert named == {ISSUE_43[words], *truly}, named


@pytest.mark.parametrize(
    ("offset", "words"), [(1.0, "the same constant, 1, in every entry"), (-0.25, "the same constant, -0.25, in")]
)
def test_a_constant_added_to_dz_is_named_with_its_value(offset: float, words: str) -> None:
    import nn_diagnosis

    z, y = np.array([[0.0, np.log(3.0), 0.0], [0.0, 0.0, 0.0]]), np.array([1, 0])
    expected = (np.exp(z) / np.exp(z).sum(axis=1, keepdims=True) - np.eye(3)[y]) / 2
    cause = nn_diagnosis.CROSS_ENTROPY_GRAD.likely_cause(expected + offset, expected, z=z, y=y)
    assert cause is not None and words in str(cause), cause
    uneven = expected + offset
    uneven[0, 0] += 0.01  # off by a constant everywhere but one entry: not a constant added
    for wrong in (uneven, expected * 1.5, expected + 1e-9):
        assert nn_diagnosis.CROSS_ENTROPY_GRAD.likely_cause(wrong, expected, z=z, y=y) is None


# ---------------------------------- 7. a NaN from 0 · log 0 is told apart from an overflow by where the NaN began

NO_MAX_SHIFT = "without subtracting each row's max"
ZERO_LOG_ZERO = "0 · log 0 = NaN"


@pytest.mark.parametrize("secret", SECRETS)
def test_a_nan_from_zero_times_log_zero_is_never_blamed_on_the_max_shift(secret: str) -> None:
    """The max shift is there: its hidden and public checks name 0 · log 0, never the shift; the mistake without the
    shift is still told so, and never 0 · log 0."""
    named = _causes_named(secret)
    assert any(ZERO_LOG_ZERO in c for c in named["ce_zero_times_log_zero"]), named["ce_zero_times_log_zero"]
    assert not any(NO_MAX_SHIFT in c for c in named["ce_zero_times_log_zero"]), named["ce_zero_times_log_zero"]
    assert any(NO_MAX_SHIFT in c for c in named["ce_no_max_shift"]), named["ce_no_max_shift"]
    assert not any(ZERO_LOG_ZERO in c for c in named["ce_no_max_shift"]), named["ce_no_max_shift"]


def _zero_times_log_zero(z: np.ndarray, y: np.ndarray) -> float:
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return -(np.eye(z.shape[1])[y] * np.log(p)).sum() / len(y)


def _unshifted(z: np.ndarray, y: np.ndarray) -> float:
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    return -np.log(p[np.arange(len(y)), y]).mean()


def _silenced(z: np.ndarray, y: np.ndarray) -> float:
    with np.errstate(all="ignore"):
        return _zero_times_log_zero(z, y)


@pytest.mark.parametrize(
    ("loss", "words"), [(_zero_times_log_zero, ZERO_LOG_ZERO), (_unshifted, NO_MAX_SHIFT), (_silenced, None)]
)
def test_where_the_nan_began_names_the_cause_and_nothing_else_does(loss: Any, words: str | None) -> None:
    """On logits of ±1000 with each target near its row's max, both mistakes give NaN: the first floating-point
    error (an exp that overflowed, or a log of 0) tells them apart; code that silences them shows nothing, and gets
    no cause. Without the noted errors, no NaN is called 0 · log 0."""
    import nn_diagnosis
    from autograder.judge import inputs, reference, suspects

    case = inputs.classification_cases(np.random.default_rng(5))["cases"][3]  # the "near" case
    z, y = case["z"], case["y"]
    with nn_diagnosis.noting_float_errors() as float_errors:
        value = loss(z, y)
    assert np.isnan(value)
    wrong = suspects.cross_entropy(z, y)
    expected = -reference.log_softmax(z)[np.arange(len(y)), y].mean()
    cause = nn_diagnosis.CROSS_ENTROPY.likely_cause(value, expected, z=z, y=y, float_errors=float_errors, **wrong)
    assert (words is None and cause is None) or (cause is not None and words in str(cause)), cause
    unnoted = nn_diagnosis.CROSS_ENTROPY.likely_cause(value, expected, z=z, y=y, **wrong)
    assert unnoted is None or ZERO_LOG_ZERO not in str(unnoted), unnoted


# ------------------------------ 8. a class bound where grading does not run: its public check says so (issue 43)

GUARD = '\nif __name__ == "__main__":\n'


def _run_as_a_cell(code: str, names: dict[str, Any]) -> None:
    """Run ``code`` as IPython runs a notebook cell: under a cell's file name, its text kept in linecache."""
    filename = f"/tmp/ipykernel_0/{abs(hash(code))}.py"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    exec(compile(code, filename, "exec"), names)  # noqa: S102 - the test's own cell


def test_a_class_bound_where_grading_skips_fails_its_public_check() -> None:
    """A Linear bound under ``if __name__ == "__main__":`` exists in the kernel, not in the grader's run of the cell
    (only its top-level definitions run): the public check says so, naming the line, instead of passing."""
    from autograder.probe.run import definitions

    cell = grading.SOURCE_CELLS["linear"].replace("class Linear(", "class _Linear(") + GUARD + "    Linear = _Linear\n"
    names = _names(())
    _run_as_a_cell(cell, names)
    message = _public(nn_public.check_linear, names["Linear"])
    line = cell.count("\n")
    assert f"Linear is bound on line {line} of its cell, inside `{GUARD.strip()}`" in message, message
    assert "at the top level of the cell" in message, message
    graded = grading.namespace("")  # the setup cell, then what the grader's worker runs of the cell
    exec(definitions(cell, "<cell linear>"), graded)  # noqa: S102
    assert "_Linear" in graded and "Linear" not in graded


@pytest.mark.parametrize(
    "guarded",
    [
        "    layer = Linear(3, 2)\n    print(layer(np.ones((1, 3))).shape)\n",  # trying the class out: not graded
        "    Linear_test = Linear\n",  # reads Linear, binds another name
    ],
)
def test_a_guard_that_binds_no_part_changes_nothing(guarded: str, capsys: pytest.CaptureFixture) -> None:
    names = _names(())
    _run_as_a_cell(grading.SOURCE_CELLS["linear"] + GUARD + guarded, names)
    nn_public.check_linear(names["Linear"])
    assert capsys.readouterr().out.endswith("Linear: public checks passed.\n")


def test_noting_float_errors_keeps_what_the_code_asked_numpy_to_raise() -> None:
    """Code that has NumPy raise on an overflow (and catches it) runs as it would without the noting."""
    import nn_diagnosis

    old = np.seterr(over="raise")
    try:
        with nn_diagnosis.noting_float_errors() as float_errors, pytest.raises(FloatingPointError):
            np.exp(np.array([1000.0]))
        with nn_diagnosis.noting_float_errors() as float_errors:
            np.log(np.zeros(1))
        assert float_errors == ["divide by zero"]
    finally:
        np.seterr(**old)
