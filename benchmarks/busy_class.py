"""A class graded on an idle machine and beside CPU burners: every verdict must be the same. Not a unit test, a table.

Usage (MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/busy_class.py [--burners 2] [--jobs 2]

Grades one class with the kit's command twice, ``--jobs N``: on the machine as it is, then beside ``--burners``
processes spinning (``while True: pass``) at the grader's own priority. The class: the reference solution twice, a
correct solution written unlike it (float64 parameters, ``einsum``), a per-entry Python loop in ``Linear.forward``
(correct, within the speed contract), a wrong ``dW``, code that forks, one that sleeps in ``ReLU.forward``, and one
that trickles CPU with its timers off. Prints, per submission, its total and slot seconds in each run, and whether
the verdicts agree; then the class's wall and CPU seconds (the grade command and everything it started).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_gate_speed_rule import CORRECT, LOOPS  # noqa: E402

from autograder import classroom  # noqa: E402
from autograder.classroom import Edit, apply_edits  # noqa: E402
from autograder.cli.demo import CAROLS_EDITS  # noqa: E402
from gradingkit import MNIST, REPO, grade, make_course, totals  # noqa: E402

RELU = "return np.maximum(x, 0)"
IN_FORWARD = "import time\n        {code}\n        " + RELU
CLASS: dict[str, tuple[Edit, ...]] = {
    "reference_1": (),
    "reference_2": (),
    "einsum_float64": CORRECT["einsum_float64"],
    "per_entry_forward": LOOPS["per_entry_forward"][0],
    "wrong_dw": CAROLS_EDITS,
    "forks": (Edit("relu", RELU, IN_FORWARD.format(code="import os; os.fork()")),),
    "sleeps": (Edit("relu", RELU, IN_FORWARD.format(code="time.sleep(10**6)")),),
    "trickles": (
        Edit(
            "relu",
            RELU,
            IN_FORWARD.format(
                code="import signal\n        [signal.setitimer(t, 0) for t in (0, 1, 2)]\n        "
                "while True:\n            _end = time.process_time() + 0.6\n            "
                "while time.process_time() < _end: pass\n            time.sleep(3)"
            ),
        ),
    ),
}


def run(folder: Path, jobs: int) -> tuple[float, float, dict[str, float], dict[str, str]]:
    """Grade the class; return its wall and CPU seconds, each submission's total and slot (its line's seconds)."""
    course = make_course(folder, "busy", f"c.KitGrading.mnist_dir = {str(MNIST)!r}", {})
    solution = (REPO / "solutions" / "mlp" / "mlp.ipynb").read_text()
    for name, edits in CLASS.items():
        classroom.submit(course, name, apply_edits(solution, edits))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = grade(course, "--jobs", str(jobs), timeout=7200)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    slots = {
        m[1]: f"{m[3]} s" if m[2] == "graded" else "NOT GRADED"
        for m in re.finditer(r"\] (\S+): (graded|NOT GRADED)[^\n]*?\(([\d.]+) s\)", result.stdout)
    }
    return seconds, cpu, totals(course), slots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runs = {}
    for label in ("idle", f"beside {args.burners} burners"):
        burners = []
        if label != "idle":
            burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.burners)]
        try:
            with tempfile.TemporaryDirectory(prefix="kit-busy-") as scratch:
                runs[label] = run(Path(scratch) / "course", args.jobs)
        finally:
            for burner in burners:
                burner.kill()
                burner.wait()
    (idle, busy) = runs
    print(f"| submission | {idle}: points, slot | {busy}: points, slot | same verdict |")
    print("| --- | --- | --- | --- |")
    for name in CLASS:
        cells = [f"{runs[r][2].get(name, 'no grade')}, {runs[r][3].get(name, '?')}" for r in (idle, busy)]
        same = runs[idle][2].get(name) == runs[busy][2].get(name) is not None
        print(f"| {name} | {cells[0]} | {cells[1]} | {'yes' if same else '**NO**'} |")
    for label, (seconds, cpu, _, _) in runs.items():
        print(f"\n{label}: the class took {seconds:.0f} s wall, {cpu:.0f} CPU s (--jobs {args.jobs})")


if __name__ == "__main__":
    main()
