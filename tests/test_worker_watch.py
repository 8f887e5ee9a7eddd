"""A stuck submission costs seconds of a worker, not an hour: workers are watched from outside their sandbox.

Each test runs the layer checks' worker (``workers.run_group``) in the real sandbox on the reference solution with one
change, with a short stall window and CPU budget, and checks what each check's outcome is and how long it took.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
import pytest

from autograder import registry, sandbox
from autograder.classroom import Edit, apply_edits
from autograder.faults import GraderFault
from autograder.grading import verify, workers
from autograder.judge.outcome import WorkerOutcome
from gradingkit import MNIST

pytestmark = pytest.mark.slow  # starts sandboxed workers

REPO = Path(__file__).resolve().parents[1]
LAYERS = registry.worker_groups()[0]
BUDGET = workers.WorkerBudget(checks_cpu=8.0, gate_cpu=8.0, stall=3.0, wall=120.0)
RELU_FORWARD = "return np.maximum(x, 0)"


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLP_GRADER_SECRET", "worker-watch")


def _said(outcome: WorkerOutcome) -> str:
    """The failure a worker's end gave a check, in English."""
    return str(outcome.failure)


def _cells(*edits: Edit) -> list[dict[str, str]]:
    text = apply_edits((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text(), edits)
    return verify.answer_cells(nbformat.reads(text, as_version=4))


def _run(tmp_path: Path, *edits: Edit) -> tuple[dict[str, WorkerOutcome], float]:
    grading = workers.Grading(
        helpers=REPO / "release" / "mlp", mnist=None, limits=sandbox.Limits(), attempts=2, budget=BUDGET
    )
    start = time.monotonic()
    outcomes = workers.run_group(LAYERS, _cells(*edits), grading, tmp_path)
    return outcomes, time.monotonic() - start


def _judged(outcomes: dict[str, WorkerOutcome]) -> dict[str, bool]:
    return {check: verify._judge(check, outcome).passed for check, outcome in outcomes.items()}


def test_the_reference_passes_every_layer_check(tmp_path: Path) -> None:
    outcomes, _ = _run(tmp_path)
    assert all(_judged(outcomes).values()), outcomes


@pytest.mark.parametrize(
    "stuck",
    [
        "time.sleep(10**6)",
        "input()",
        "subprocess.run(['sleep', '1000'])",
        "glob.glob('/**', recursive=True)",
        "print('x' * 10**6 * 200)",
        "while True:\n    pass",
    ],
)
def test_a_stuck_top_level_statement_does_not_run_in_the_worker(tmp_path: Path, stuck: str) -> None:
    """Only definitions run: the class after the stuck statement is graded as if it were not there."""
    outcomes, seconds = _run(tmp_path, Edit("relu", "class ReLU(Module):", f"{stuck}\n\nclass ReLU(Module):"))
    assert all(_judged(outcomes).values()), outcomes
    assert seconds < 60, seconds


def test_an_assignment_that_hangs_costs_the_checks_and_names_the_cell(tmp_path: Path) -> None:
    hang = "import time\n_files = time.sleep(10**6)\n\nclass ReLU(Module):"
    outcomes, seconds = _run(tmp_path, Edit("relu", "class ReLU(Module):", hang))
    verdicts = _judged(outcomes)
    assert not any(verdicts[c] for c in LAYERS if registry.check(c).answer_cell == "relu"), verdicts
    message = next(_said(o) for c, o in outcomes.items() if registry.check(c).answer_cell == "relu")
    assert "used almost no CPU for 3 s" in message and "answer cell 'relu'" in message, message
    assert seconds < 60, seconds


def test_a_method_that_sleeps_costs_its_checks_at_once_and_the_rest_are_graded(tmp_path: Path) -> None:
    sleep = f"__import__('time').sleep(10**6)\n        {RELU_FORWARD}"
    outcomes, seconds = _run(tmp_path, Edit("relu", RELU_FORWARD, sleep))
    verdicts = _judged(outcomes)
    assert not verdicts["relu_forward"] and not verdicts["relu_backward"], verdicts
    assert all(v for c, v in verdicts.items() if not c.startswith("relu")), verdicts
    assert "used almost no CPU" in _said(outcomes["relu_forward"])
    assert "Likely cause: your code waits for something that never comes" in _said(outcomes["relu_forward"])
    assert seconds < 60, seconds  # two stalls of 3 s, not two wall limits of minutes


def test_code_that_swallows_the_time_limit_is_stopped_by_the_cpu_budget(tmp_path: Path) -> None:
    swallow = "while True:\n            try:\n                sum(range(10**6))\n            except BaseException:\n                pass"  # noqa: E501
    outcomes, seconds = _run(tmp_path, Edit("relu", RELU_FORWARD, f"{swallow}\n        {RELU_FORWARD}"))
    assert "used its 8 s of CPU time" in _said(outcomes["relu_forward"]), outcomes["relu_forward"]
    assert "Likely cause: an endless loop, perhaps one that catches" in _said(outcomes["relu_forward"])
    assert seconds < 90, seconds


def test_the_workers_program_cannot_be_changed_from_student_code(tmp_path: Path) -> None:
    """The program folder is read-only inside the sandbox: rewriting the worker or a probe fails, grading goes on."""
    attack = (
        "def _rewrite():\n"
        "    import autograder.probe.relu as relu, os\n"
        "    here = os.path.dirname(relu.__file__)\n"
        "    for path in (relu.__file__, os.path.join(here, '..', '..', 'worker.py')):\n"
        "        try:\n"
        "            open(path, 'a').write('\\nraise SystemExit(3)\\n')\n"
        "        except OSError as error:\n"
        "            print(error)\n"
        "_done = _rewrite()\n"
    )
    outcomes, _ = _run(tmp_path, Edit("relu", "class ReLU(Module):", f"{attack}\nclass ReLU(Module):"))
    assert all(_judged(outcomes).values()), outcomes
    program = tmp_path / LAYERS[0] / "program"  # workers.prepare's layout
    assert "SystemExit(3)" not in (program / "worker.py").read_text()
    assert "SystemExit(3)" not in (program / "autograder" / "probe" / "relu.py").read_text()


def test_files_written_where_results_once_were_are_never_read(tmp_path: Path) -> None:
    """The worker reports on its standard output; a FIFO or a forged file in its folder is read by nobody."""
    attack = (
        "def _plant():\n"
        "    import os\n"
        "    os.makedirs('results', exist_ok=True)\n"
        "    os.mkfifo('results/relu_forward.json')\n"
        "    open('results/relu_backward.json', 'w').write('{}')\n"
        "_done = _plant()\n"
    )
    outcomes, seconds = _run(tmp_path, Edit("relu", "class ReLU(Module):", f"{attack}\nclass ReLU(Module):"))
    assert all(_judged(outcomes).values()), outcomes
    assert seconds < 60, seconds


def test_writing_into_the_report_costs_the_check_that_was_running(tmp_path: Path) -> None:
    """Student code can find the worker's report descriptor; what it writes there ends the reading, and costs the
    check it ran in, never another one."""
    spoil = (
        "for _fd in range(3, 20):\n"
        "            try:\n"
        "                os.write(_fd, b'not a frame\\n')\n"
        "            except OSError:\n"
        "                pass\n"
        f"        {RELU_FORWARD}"
    )
    outcomes, _ = _run(tmp_path, Edit("relu", RELU_FORWARD, spoil))
    verdicts = _judged(outcomes)
    assert not verdicts["relu_forward"], verdicts
    assert "wrote something other than its report" in _said(outcomes["relu_forward"]), outcomes["relu_forward"]
    assert all(v for c, v in verdicts.items() if not c.startswith("relu")), verdicts


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v", *sys.argv[1:]]))


def test_a_gate_worker_within_its_speed_limit_is_never_charged_for_the_cpu_backstop(tmp_path: Path) -> None:
    """The gate's fixed CPU budget is only a backstop: on a machine where the grader's own training makes the speed
    rule allow more than it, reaching it is the grader's fault (here the reference solution, far within its speed
    limit, meets a 1 s backstop: its whole training takes 3-7 CPU s on the machines we run, so it is reached on any)."""
    gate = next(group for group in registry.worker_groups() if registry.check(group[0]).slow)
    grading = workers.Grading(
        helpers=REPO / "release" / "mlp",
        mnist=MNIST,
        budget=workers.WorkerBudget(gate_cpu=1.0, stall=10.0, wall=300.0),
    )
    with pytest.raises(GraderFault, match="within its speed limit"):
        workers.run_group(gate, _cells(), grading, tmp_path)
