"""One submission cannot hold a grading slot, take the host's memory or stop the class: in the real sandbox.

A worker that trickles CPU (a little every few seconds, its own timers off) is stopped at ``WorkerBudget.idle`` and
charged, once the course's solution passed the same check; code that starts a process or holds memory past the
worker's limits costs only its check, with its cause; a class with a folder nested 1,500 deep in one submission is
graded, that student included. Fast-tier tests of the same rules on plain processes: ``tests/test_resource_bounds.py``,
which also pins the default bounds (stall 20 s, idle 120 s) that the idle rule here is played with a small bound of.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from autograder import registry, sandbox
from autograder.classroom import Edit, apply_edits
from autograder.faults import GraderFault
from autograder.grading import verify, workers
from autograder.judge.outcome import WorkerOutcome
from gradingkit import MNIST, grade, graded_notebook_text, make_course, totals

pytestmark = pytest.mark.slow  # starts sandboxed workers

REPO = Path(__file__).resolve().parents[1]
LAYERS = registry.worker_groups()[0]
MLP_CHECKS = registry.worker_groups()[1]
RELU_FORWARD = "return np.maximum(x, 0)"
TIMERS_OFF = (
    "import signal, time\n"
    "        for _timer in (signal.ITIMER_PROF, signal.ITIMER_REAL, signal.ITIMER_VIRTUAL):\n"
    "            signal.setitimer(_timer, 0)\n"
)
TRICKLE = TIMERS_OFF + (
    "        while True:\n"
    "            _end = time.process_time() + 0.6\n"
    "            while time.process_time() < _end:\n"
    "                pass\n"
    "            time.sleep(3)\n"
)
HELD_OUTSIDE = {
    "fork": ("import os\n        os.fork()\n", "starts another process"),
    "subprocess": ("import subprocess\n        subprocess.run(['true'])\n", "starts another process"),
    "multiprocessing": (
        "import multiprocessing\n        multiprocessing.Process(target=print).start()\n",
        "starts another process",
    ),
    "memfd": ("import os\n        os.memfd_create('f')\n", "PermissionError"),
    "past-the-memory-limit": ("_block = bytearray(5 << 30)\n", "an array far too large"),
}
"""Code in ReLU.forward that would start a process or hold memory no limit of the worker's process counts (or more
than its limit), and the cause its check then names: the kernel refuses it, only that check is lost."""


@pytest.fixture(autouse=True)
def _remove_deep_folders(tmp_path: Path) -> Iterator[None]:
    """pytest removes its folders with ``shutil.rmtree``, which recurses: the deep ones go first."""
    yield
    from autograder.grading.submissions import remove_tree

    remove_tree(tmp_path)


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLP_GRADER_SECRET", "sandbox-bounds")


def _cells(*edits: Edit) -> list[dict[str, str]]:
    text = apply_edits((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text(), edits)
    return verify.answer_cells(nbformat.reads(text, as_version=4))


def _grading(budget: workers.WorkerBudget) -> workers.Grading:
    return workers.Grading(helpers=REPO / "release" / "mlp", mnist=None, limits=sandbox.Limits(), budget=budget)


def _forward(code: str) -> Edit:
    return Edit("relu", RELU_FORWARD, f"{code}        {RELU_FORWARD}")


def _said(outcome: WorkerOutcome) -> str:
    return str(outcome.failure)


def _run(tmp_path: Path, budget: workers.WorkerBudget, *edits: Edit) -> tuple[dict[str, WorkerOutcome], float]:
    start = time.monotonic()
    outcomes = workers.run_group(LAYERS, _cells(*edits), _grading(budget), tmp_path)
    return outcomes, time.monotonic() - start


def _judged(outcomes: dict[str, WorkerOutcome]) -> dict[str, bool]:
    return {check: verify._judge(check, outcome).passed for check, outcome in outcomes.items()}


def test_a_worker_that_trickles_cpu_is_stopped_at_a_small_idle_bound(tmp_path: Path) -> None:
    budget = workers.WorkerBudget(checks_cpu=60.0, stall=5.0, idle=12.0, wall=300.0)  # 0.6 CPU s in any 5 s
    outcomes, seconds = _run(tmp_path, budget, _forward(TRICKLE))
    verdicts = _judged(outcomes)
    assert not verdicts["relu_forward"] and not verdicts["relu_backward"], verdicts
    assert all(v for c, v in verdicts.items() if not c.startswith("relu")), verdicts
    said = _said(outcomes["relu_forward"])
    assert "still running after 12 s, most of them spent waiting" in said, said
    assert "computes only now and then" in said
    assert seconds < 90, seconds  # two stops of 12 s, not the backstop


def test_a_trickling_check_is_charged_only_when_the_solution_passes_it(tmp_path: Path) -> None:
    """``verify._control``: the course's solution passes, so the student is charged; when the solution stops the
    same way, it is the grader's fault."""
    grading = _grading(workers.WorkerBudget(checks_cpu=60.0, stall=5.0, idle=8.0, wall=300.0))
    suspects = {"relu_forward": "stopped: waiting most of the time"}
    verify._control(LAYERS, suspects, _cells(), grading, tmp_path / "solution")
    with pytest.raises(GraderFault, match="fails for the course's own solution too"):
        verify._control(LAYERS, suspects, _cells(_forward(TRICKLE)), grading, tmp_path / "broken-solution")


SWALLOWING_SLEEP = (
    "while True:\n            try:\n                time.sleep(1)\n"
    "            except BaseException:\n                pass"
)
"""A wait that swallows every limit raised inside the worker: only the watch outside stops it (as stalled)."""
FORGED_ASIDE = (
    "import os, time\n"
    "        for _fd in range(3, 64):  # the worker's channel among them: 'my code runs aside now'\n"
    "            try:\n"
    '                os.write(_fd, b\'{"kind": "aside", "name": "begin", "sizes": []}\\n\')\n'
    "            except OSError:\n"
    "                pass\n"
    "        time.sleep(60)\n"
)


@pytest.mark.parametrize(
    ("edit", "lost"),
    [
        # the layer's own wait, met while the MLP's checks run the layer aside: it costs the MLP nothing
        (Edit("relu", 'return grad * self.ctx["mask"]', "import time\n        " + SWALLOWING_SLEEP), set()),
        # the MLP's own wait, after forging the worker's word that it runs code aside: a second run decides the same
        (Edit("mlp", "return self.fc2(self.relu(self.fc1(x)))", FORGED_ASIDE), {"mlp_forward", "mlp_backward"}),
    ],
    ids=["layer-waits-aside", "mlp-waits-after-forging-aside"],
)
def test_a_stop_while_a_layer_runs_aside_costs_the_mlp_nothing_and_a_forged_aside_buys_nothing(
    tmp_path: Path, edit: Edit, lost: set[str]
) -> None:
    budget = workers.WorkerBudget(stall=5.0, idle=60.0, wall=300.0)  # 0.5 CPU s in any 5 s, as above
    outcomes = workers.run_group(MLP_CHECKS, _cells(edit), _grading(budget), tmp_path)
    verdicts = _judged(outcomes)
    assert {check for check, passed in verdicts.items() if not passed} == lost, verdicts
    for check in lost:
        assert "used almost no CPU for 5 s" in _said(outcomes[check]), _said(outcomes[check])


@pytest.mark.parametrize("attack", sorted(HELD_OUTSIDE))
def test_a_process_or_memory_outside_the_workers_limits_costs_only_its_check(tmp_path: Path, attack: str) -> None:
    code, cause = HELD_OUTSIDE[attack]
    outcomes, seconds = _run(tmp_path, workers.WorkerBudget(), _forward(code))
    verdicts = _judged(outcomes)
    assert not verdicts["relu_forward"], verdicts
    assert all(v for c, v in verdicts.items() if not c.startswith("relu")), verdicts  # backward runs forward
    said = str(verify._judge("relu_forward", outcomes["relu_forward"]).failure)
    assert cause in said, said
    assert seconds < 60, seconds


def _nest(folder: Path, depth: int) -> None:
    current = os.open(folder, os.O_RDONLY)
    for _ in range(depth):
        if not os.path.lexists(f"/proc/self/fd/{current}/d"):
            os.mkdir("d", dir_fd=current)
        inner = os.open("d", os.O_RDONLY, dir_fd=current)
        os.close(current)
        current = inner
    os.close(os.open("notes.txt", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=current))
    os.close(current)


def test_a_class_with_a_folder_nested_1500_deep_grades_everyone(tmp_path: Path) -> None:
    course = make_course(
        tmp_path / "course",
        "deep-folder",
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}",
        {"alice": "reference", "deep": "reference"},
    )
    _nest(course / "submitted" / "deep" / "mlp", 1500)
    for _ in range(2):  # and again: the folder set aside last time is in the way
        result = grade(course, "--force")
        assert result.returncode == 0, result.stdout + result.stderr
        assert totals(course) == {"alice": 100.0, "deep": 100.0}
        assert "nested too deep" in graded_notebook_text(course, "deep")
        _nest(course / "submitted" / "deep" / "mlp" / "d", 1500)
