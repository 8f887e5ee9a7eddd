"""The MNIST gate's speed rule, probe and judge in this process on a small subset: no sandbox, no nbgrader.

Python loops over the batch are found by counting lines, not by timing; the
timed rule compares CPU-time ratios measured alternately in one process, so no
assertion here depends on how busy the machine is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the worker sees them

from autograder.classroom import Edit, apply_edits  # noqa: E402
from autograder.judge import gate as gate_judge  # noqa: E402
from autograder.judge import gate_reference  # noqa: E402
from autograder.judge.checks import judge  # noqa: E402
from autograder.judge.inputs import inputs_for  # noqa: E402
from autograder.probe import gate  # noqa: E402
from autograder.probe.core import CheckTimeout  # noqa: E402
from autograder.probe.run import load_answer  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS  # noqa: E402

CELLS = ("setup", "linear", "relu", "cross_entropy", "sgd", "mlp")
FLOAT64_PARAMETERS = (
    Edit("linear", "np.sqrt(2.0 / in_features))", "np.sqrt(2.0 / in_features), dtype=np.float64)"),
    Edit("linear", "np.zeros(out_features))", "np.zeros(out_features), dtype=np.float64)"),
)
CORRECT: dict[str, tuple[Edit, ...]] = {
    "reference": (),
    "einsum_float64": next(v.edits for v in VARIANTS if v.name == "linear_einsum") + FLOAT64_PARAMETERS,
    **{v.name: v.edits for v in VARIANTS},
}
LOOPS: dict[str, tuple[tuple[Edit, ...], str]] = {  # name -> (edits, the function the message must name)
    "linear_python_loops": (next(m.edits for m in MISTAKES if m.name == "linear_python_loops"), "Linear.forward"),
    "per_sample_forward": (
        (Edit("linear", "return x @ self.W + self.b", "return np.stack([row @ self.W for row in x]) + self.b"),),
        "Linear.forward",
    ),
    "per_sample_dw": (
        (
            Edit(
                "linear",
                "self.W.grad = x.T @ grad",
                "self.W.grad = sum(np.outer(x[i], grad[i]) for i in range(len(x)))",
            ),
        ),
        "Linear.backward",
    ),
    "relu_per_entry": (
        (Edit("relu", "return np.maximum(x, 0)", "return np.array([[max(v, 0) for v in row] for row in x], x.dtype)"),),
        "ReLU.forward",
    ),
}


def mlp_class(edits: tuple[Edit, ...]) -> type:
    """The MLP of the solution notebook with ``edits``, its cells compiled as the worker compiles them."""
    notebook = json.loads(apply_edits((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text(), edits))
    cells = [
        {"grade_id": c["metadata"]["nbgrader"]["grade_id"], "source": "".join(c["source"])}
        for c in notebook["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in CELLS
    ]
    namespace, errors = load_answer(cells)
    assert not errors, errors
    return namespace["MLP"]


def small_gate(monkeypatch: pytest.MonkeyPatch, **override: Any) -> dict[str, Any]:
    """The gate's inputs for one epoch of 40 steps on random images; accuracy is not what these tests are about."""
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(1280, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, len(images)).astype(np.uint8)
    data = SimpleNamespace(train_images=images, train_labels=labels)
    monkeypatch.setattr(gate, "load_mnist", lambda: data)
    monkeypatch.setattr(gate_judge, "load_mnist", lambda: data)  # the judge trains its own reference on the same data
    monkeypatch.setattr(gate_reference, "cache_folder", lambda: None)
    monkeypatch.setattr(gate_judge, "test_accuracy", lambda params: 0.98)
    inputs = inputs_for("mnist_accuracy")
    return {
        **inputs,
        "orders": [rng.permutation(len(images))],
        "learning_rates": [0.15],
        "speed_window": 20,
        **override,
    }


def run_gate(MLP: type, inputs: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Probe and judge: the verdict's text (success line or failure message) and the record."""
    records = gate.mnist_accuracy(MLP, inputs)
    try:
        return str(judge("mnist_accuracy", inputs, {"records": records}) or ""), records[0]
    except AssertionError as failure:
        return f"FAILED: {failure}", records[0]


@pytest.mark.parametrize("name", CORRECT)
def test_whole_batch_code_runs_the_same_python_lines_for_any_batch(name: str) -> None:
    rng = np.random.default_rng(1)
    x, y = rng.random((32, 784), dtype=np.float32), rng.integers(0, 10, 32)
    assert gate.python_loop(mlp_class(CORRECT[name]), inputs_for("mnist_accuracy"), x, y) is None


@pytest.mark.parametrize("name", LOOPS)
def test_a_python_loop_over_the_batch_fails_the_gate_at_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    edits, where = LOOPS[name]
    verdict, record = run_gate(mlp_class(edits), small_gate(monkeypatch))
    assert verdict.startswith("FAILED: MNIST training speed") and "Python loop" in verdict and where in verdict, verdict
    assert "trained" not in record and "logits" not in record  # decided before any training step


@pytest.mark.parametrize("name", ["reference", "einsum_float64"])
def test_correct_code_passes_the_gate(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict, record = run_gate(mlp_class(CORRECT[name]), small_gate(monkeypatch))
    assert verdict.startswith("MNIST: 98.00% test accuracy") and "times the grader's NumPy step" in verdict, verdict
    assert record["speed"]["pairs"] == 20 and record["speed"]["slowdown"] > 0


def test_a_step_slower_than_the_limit_fails_with_a_message_about_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    # A limit no step can meet: the CPU-time rule fires after the window, whatever the machine's speed.
    verdict, record = run_gate(mlp_class(()), small_gate(monkeypatch, max_slowdown=1e-3))
    assert verdict.startswith("FAILED: MNIST training speed"), verdict
    assert "times the CPU time of the grader's NumPy step" in verdict and "loop" in verdict, verdict
    assert record["too_slow"]["step"] == gate.WARMUP_STEPS + 20


def test_an_endless_loop_is_stopped_by_cpu_time() -> None:
    with pytest.raises(CheckTimeout, match="of CPU time"):
        with gate.cpu_limit("MNIST training, step 1", 0.2):
            while True:
                pass


FORGERIES: dict[str, str] = {  # name -> code put at the start of MLP.backward (the parameters are W1, b1, W2, b2)
    "weights_written_during_training": (
        "        for p in self.parameters():\n"
        "            p[...] = np.random.default_rng(7).standard_normal(p.shape) * 0.05\n"
    ),
    "gradients_walk_to_stored_weights": (
        "        for p in self.parameters():\n"
        "            p.grad = (p - np.random.default_rng(7).standard_normal(p.shape).astype(p.dtype) * 0.05) * 0.5\n"
        "        return np.zeros((len(grad), 784), np.float32)\n"
    ),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_parameters_that_training_did_not_produce_fail_the_gate(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Accuracy is taken as 98 % here: the verdict rests on where the parameters ended, measured by the judge."""
    anchor = "        grad = self.fc2.backward(grad)"
    MLP = mlp_class((Edit("mlp", anchor, FORGERIES[name] + anchor),))
    verdict, record = run_gate(MLP, small_gate(monkeypatch))
    assert verdict.startswith(
        "FAILED: MNIST training (784-256-10, batch 32): expected the trained W1 and W2 within 25%"
    )
    assert "W1" in verdict and "away" in verdict and "something other than the grader's update" in verdict, verdict


def test_the_distance_is_measured_from_the_judges_own_training(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference's end is computed on the trusted side from the inputs, and stays strict: a correct run from a
    different start (another initialisation) does not pass."""
    inputs = small_gate(monkeypatch)
    verdict, record = run_gate(mlp_class(()), inputs)
    assert verdict.startswith("MNIST: 98.00%"), verdict
    moved = {**inputs, "init": [a[::-1].copy() for a in inputs["init"]]}
    with pytest.raises(AssertionError, match="expected the trained W1 and W2 within 25%"):
        judge("mnist_accuracy", moved, {"records": [record]})
    assert gate_reference.MAX_DISTANCE == 0.25
