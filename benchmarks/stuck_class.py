"""What stuck submissions cost a class: not a unit test, a table.

Usage (MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/stuck_class.py [--correct 20] [--jobs 2]

Grades, with the kit's command, a class of N correct submissions (the reference solution) twice: alone, and with two
stuck submissions beside them (the reference with ``time.sleep(10**6)`` at the top of the Linear cell, and with
``glob.glob('/**', recursive=True)`` at the top of the ReLU cell, the two cases of the issue about the gate). Prints
each stuck submission's slot time and points, the class's wall time with and without them, and the correct ones'
totals (all must stay 100).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from autograder import classroom  # noqa: E402
from autograder.classroom import Edit, apply_edits  # noqa: E402
from gradingkit import MNIST, REPO, grade, make_course, totals  # noqa: E402

STUCK = {
    "stuck_sleep": Edit("linear", "class Linear(Module):", "import time\ntime.sleep(10**6)\n\nclass Linear(Module):"),
    "stuck_glob": Edit(
        "relu", "class ReLU(Module):", "import glob\n_all = glob.glob('/**', recursive=True)\n\nclass ReLU(Module):"
    ),
}


def run(folder: Path, correct: int, stuck: bool, jobs: int) -> tuple[float, dict[str, float], dict[str, float]]:
    """Grade the class; return its wall time, each submission's total, and each submission's slot seconds."""
    course = make_course(folder, "stuck", f"c.KitGrading.mnist_dir = {str(MNIST)!r}", {})
    solution = (REPO / "solutions" / "mlp" / "mlp.ipynb").read_text()
    for k in range(correct):
        classroom.submit(course, f"correct_{k:02d}", solution)
    for name, edit in STUCK.items() if stuck else ():
        classroom.submit(course, name, apply_edits(solution, (edit,)))
    start = time.perf_counter()
    result = grade(course, "--jobs", str(jobs), timeout=7200)
    seconds = time.perf_counter() - start
    slots = {m[1]: float(m[2]) for m in re.finditer(r"\] (\S+): graded \(([\d.]+) s\)", result.stdout)}
    return seconds, totals(course), slots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correct", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print("| class | wall s | correct ones at 100 | stuck: points, slot s |\n| --- | ---: | --- | --- |", flush=True)
    for stuck in (False, True):
        with tempfile.TemporaryDirectory(prefix="kit-stuck-") as scratch:
            seconds, scores, slots = run(Path(scratch) / "course", args.correct, stuck, args.jobs)
        good = sum(1 for s, v in scores.items() if s.startswith("correct_") and v == 100)
        shown = ", ".join(f"{n}: {scores.get(n, 'not graded')}, {slots.get(n, 0):.0f} s" for n in STUCK if stuck)
        label = f"{args.correct} correct" + (" + 2 stuck" if stuck else "")
        print(f"| {label}, --jobs {args.jobs} | {seconds:.0f} | {good}/{args.correct} | {shown or '-'} |", flush=True)


if __name__ == "__main__":
    main()
