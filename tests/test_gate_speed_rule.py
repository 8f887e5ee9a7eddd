"""The MNIST gate's probe and judge in this process on a small subset: no sandbox, no nbgrader.

Speed is decided on the trusted side's measurement only (in grading: the worker's CPU from outside, against the
grader's own training beside it, ``autograder.grading.pace``); here the tests hand the judge measurements, so no
assertion depends on how busy the machine is. The probe's line count is only evidence for a speed failure's message.
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

from autograder.cell_ids import grade_id  # noqa: E402
from autograder.classroom import Edit, apply_edits  # noqa: E402
from autograder.judge import gate as gate_judge  # noqa: E402
from autograder.judge import gate_reference  # noqa: E402
from autograder.judge.checks import judge  # noqa: E402
from autograder.judge.inputs import GATE_MAX_SLOWDOWN, inputs_for  # noqa: E402
from autograder.judge.outcome import WorkerOutcome  # noqa: E402
from autograder.probe import gate  # noqa: E402
from autograder.probe.core import CheckTimeout  # noqa: E402
from autograder.probe.run import load_answer  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS, per_entry  # noqa: E402

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
    "per_entry_forward": (  # within the limit on every machine measured (inputs.py): here only its message matters
        (
            Edit(
                "linear",
                "return x @ self.W + self.b",
                f"return {per_entry('x', 'self.W')} + self.b",
            ),
        ),
        "Linear.forward",
    ),
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

OVER = 1.5 * GATE_MAX_SLOWDOWN
"""A measured speed over the gate's limit."""


def mlp_class(edits: tuple[Edit, ...]) -> type:
    """The MLP of the solution notebook with ``edits``, its cells compiled as the worker compiles them."""
    notebook = json.loads(apply_edits((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text(), edits))
    cells = [
        {"grade_id": grade_id(c), "source": "".join(c["source"])} for c in notebook["cells"] if grade_id(c) in CELLS
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
        **override,
    }


def run_gate(MLP: type, inputs: dict[str, Any], times: float = 2.0) -> tuple[str, dict[str, Any]]:
    """Probe and judge, the training's speed measured as ``times`` the grader's own: the verdict's text (success line
    or failure message) and the record."""
    records = gate.mnist_accuracy(MLP, inputs)
    steps = len(inputs["learning_rates"]) * -(-len(inputs["orders"][0]) // inputs["batch"])
    measured = {"cpu": times * (0.2 + steps * 0.001), "steps": steps, "pace_setup": 0.2, "pace_step": 0.001}
    outcome = WorkerOutcome(records=records, measured={**measured, "pace_chunks": 3, "too_slow_at": None})
    try:
        return str(judge("mnist_accuracy", inputs, outcome) or ""), records[0]
    except AssertionError as failure:
        return f"FAILED: {failure}", records[0]


@pytest.mark.parametrize("name", CORRECT)
def test_whole_batch_code_runs_the_same_python_lines_for_any_batch(name: str) -> None:
    rng = np.random.default_rng(1)
    x, y = rng.random((32, 784), dtype=np.float32), rng.integers(0, 10, 32)
    assert gate.python_loop(mlp_class(CORRECT[name]), inputs_for("mnist_accuracy"), x, y) is None


@pytest.mark.parametrize(
    "name",
    # the catalogue's per-entry loops train the small gate twice at 650 times the pace: a minute, the slow tier's
    [pytest.param(n, marks=pytest.mark.slow) if n == "linear_python_loops" else n for n in LOOPS],
)
def test_a_python_loop_is_named_when_the_measured_speed_fails_and_decides_nothing_itself(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    edits, where = LOOPS[name]
    inputs = small_gate(monkeypatch)
    verdict, record = run_gate(mlp_class(edits), inputs, times=OVER)
    assert verdict.startswith("FAILED: MNIST training speed") and "Python loop" in verdict and where in verdict, verdict
    assert record["python_loop"]["where"][0] == where
    passed, _ = run_gate(mlp_class(edits), inputs, times=3.0)  # the line count is the student's process's word
    assert passed.startswith("MNIST: 98.00% test accuracy"), passed


@pytest.mark.parametrize("name", ["reference", "einsum_float64"])
def test_correct_code_passes_the_gate(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict, record = run_gate(mlp_class(CORRECT[name]), small_gate(monkeypatch))
    assert verdict.startswith("MNIST: 98.00% test accuracy") and "2.0 times the grader's own NumPy training" in verdict
    assert "python_loop" not in record


def test_training_over_the_limit_fails_with_a_message_about_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict, record = run_gate(mlp_class(()), small_gate(monkeypatch), times=GATE_MAX_SLOWDOWN + 0.5)
    limit = f"at most {GATE_MAX_SLOWDOWN:g} times"
    assert verdict.startswith(f"FAILED: MNIST training speed: expected the training to use {limit}"), verdict
    assert f"{GATE_MAX_SLOWDOWN + 0.5:.1f} times" in verdict and "loop" in verdict, verdict


def test_the_probe_holds_no_clock_tracer_or_step_that_decides_speed() -> None:
    """What decides speed is measured outside the worker: the gate's probe module has no yardstick step, no pairs of
    timings, no speed limit of its own to replace and no wall-clock limit (wall time is the machine's: a busy one must
    not cost the student)."""
    source = Path(gate.__file__).read_text()
    for gone in ("thread_time", "process_time", "perf_counter", "_yardstick", "max_slowdown", "slowdown", "wall_limit"):
        assert gone not in source, gone


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
    measured = {"cpu": 1.0, "steps": 40, "pace_setup": 0.2, "pace_step": 0.01, "pace_chunks": 3, "too_slow_at": None}
    with pytest.raises(AssertionError, match="expected the trained W1 and W2 within 25%"):
        judge("mnist_accuracy", moved, WorkerOutcome(records=[record], measured=measured))
    assert gate_reference.MAX_DISTANCE == 0.25


CALL_EVERYTHING = '''
class MLP(Module):
    """Learns nothing itself: its backward calls every function the gate's worker holds with arrays of its choice
    (the model's own parameters as matrices and as scratch, the batch and the labels from the caller's frame)."""

    def __init__(self, in_features, hidden, out_features):
        self.fc1, self.fc2 = Linear(in_features, hidden), Linear(hidden, out_features)

    def parameters(self):
        return [self.fc1.W, self.fc1.b, self.fc2.W, self.fc2.b]

    def forward(self, x):
        self.x = x
        return np.zeros((len(x), self.fc2.W.shape[1]), np.float32)

    def backward(self, grad):
        import inspect, itertools, sys
        params = self.parameters()
        for p in params:
            p.grad = np.zeros_like(p)
        CALLS[0] += 1
        if CALLS[0] not in (5, 6):  # the first two training steps (the line count's four calls come first)
            return np.zeros_like(self.x)
        y = sys._getframe(1).f_locals.get("y")
        pool = [params, params, self.x, y, 0.2, grad]  # the parameters as matrices and as scratch
        for name, module in list(sys.modules.items()):
            if not name.startswith(HELD):
                continue
            for fname, f in list(vars(module).items()):
                if not inspect.isfunction(f) or fname in SKIP:
                    continue
                try:
                    arity = len(inspect.signature(f).parameters)
                except (TypeError, ValueError):
                    continue
                for args in itertools.islice(itertools.permutations(pool, min(arity, len(pool))), 40):
                    CALLS[1] += 1
                    try:
                        f(*args)
                    except BaseException:
                        pass
        return np.zeros_like(self.x)
'''


def test_nothing_the_gate_worker_holds_trains_a_model_that_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue: the worker once held a correct training step (the speed yardstick) that wrote into arrays its caller
    chose; an MLP whose forward returned zeros got the gate by calling it. Every function of the probe package and of
    the helpers, called with the model's parameters as matrices and scratch, the batch and the labels, trains
    nothing: the run ends where it started, far from the grader's own training."""
    import autograder.probe.core as core_module
    import nn_core

    namespace: dict[str, Any] = {
        "np": np,
        "Module": nn_core.Module,
        "Parameter": nn_core.Parameter,
        "HELD": ("autograder.probe", "nn_", "mnist_data"),
        "SKIP": {
            "mnist_accuracy",
            "_train",
            "python_loop",
            "main",
            "_silence",
            "load_answer",
            "collect_cases",
            "install",
        },
        "CALLS": [0, 0],  # backward calls, calls of the worker's functions
    }
    exec(mlp_source_with_linear(), namespace)  # noqa: S102 - the test's own hostile submission
    exec(CALL_EVERYTHING, namespace)  # noqa: S102
    monkeypatch.setattr(core_module, "progress", lambda step: None)
    _, record = run_gate(namespace["MLP"], small_gate(monkeypatch, orders=[np.arange(256)]))
    assert namespace["CALLS"][1] > 1000, namespace["CALLS"]  # it did call them
    distances = gate_reference.distances(record["trained"], [np.asarray(a, np.float64) for a in small_gate_init()])
    assert max(distances) < 1e-6, distances  # nothing moved the parameters


def mlp_source_with_linear() -> str:
    """The reference solution's Linear class, as the worker would have it."""
    notebook = json.loads((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text())
    (cell,) = [c for c in notebook["cells"] if grade_id(c) == "linear"]
    return "".join(cell["source"])


def small_gate_init() -> list[np.ndarray]:
    return list(inputs_for("mnist_accuracy")["init"])
