"""The lean kit's figures next to their goals (issue 42): what a TA carries, how long the tests take, what they pin.

Usage (from the repository, with the test extras installed; MNIST_DIR as for the tests)::

    .venv/bin/python benchmarks/lean.py [--fast] [--named] [--tasks] [--full] [--all]

Always printed, read from the files: the grader's lines, the students' helper lines beside ``nn_core.py``, the
grader's copy of the helpers, ``sys.path.insert`` in the grader, ``CheckFailed`` classes, the README's words. The
measured ones run only when asked, each on a fresh clone of HEAD (committed work only):

- ``--fast``: the fast tier (``pytest -m "not slow" -n 2``, as the README runs it), its wall seconds;
- ``--named``: the named weakenings of ``benchmarks/named_mutants.py`` (``benchmarks/mutation.py --named``), the share
  caught; the sampled mutmut score is in ``benchmarks/mutation_survivors.md`` (hours to measure);
- ``--tasks``: the maintainer's tasks played by ``tests/test_maintainer_tasks.py`` (adding a check, a language);
- ``--full``: ``.ci/run``, as CI runs it (its own venv; about 21 minutes on 2 cores), its wall minutes.

Each line says whether its figure is within its goal; the exit status is 1 when a figure is not.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HELPERS = REPO / "source" / "mlp"
MNIST = os.environ.get("MNIST_DIR", str(REPO.parent / "shared" / "data" / "mnist"))


@dataclass(frozen=True)
class Figure:
    """One figure of the lean kit and its goal: ``within`` holds when the figure meets it."""

    name: str
    value: float | None  # None: not measured in this run
    goal: float
    unit: str
    at_most: bool = True

    @property
    def within(self) -> bool | None:
        if self.value is None:
            return None
        return self.value <= self.goal if self.at_most else self.value >= self.goal

    def line(self) -> str:
        said = "not measured" if self.value is None else f"{_number(self.value)} {self.unit}"
        goal = f"{'≤' if self.at_most else '≥'} {_number(self.goal)} {self.unit}"
        verdict = {None: "", True: "within", False: "NOT within"}[self.within]
        return f"{self.name:<50} {said:>16}   goal {goal:<16} {verdict}"


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def lines(paths: list[Path]) -> int:
    return sum(len(path.read_text().splitlines()) for path in paths)


def read_figures() -> list[Figure]:
    """The figures read from the files."""
    grader = sorted(p for p in (REPO / "autograder").rglob("*.py") if not p.is_symlink())  # links: the course's
    helpers = [p for p in sorted(HELPERS.glob("*.py")) if p.name != "nn_core.py"]
    copy = [p for p in (REPO / "autograder" / "course").glob("*.py") if p.name != "__init__.py" and not p.is_symlink()]
    inserts = sum(p.read_text().count("sys.path.insert") for p in grader)
    check_failed = sum(len(re.findall(r"^class CheckFailed\b", p.read_text(), re.M)) for p in grader + helpers)
    words = len((REPO / "README.md").read_text().split())
    return [
        Figure("grader: lines of autograder/", lines(grader), 10_000, "lines"),
        Figure("students' helpers beside nn_core.py", lines(helpers), 1_000, "lines"),
        Figure("grader's copy of the helpers (autograder/course/)", lines(copy), 0, "lines"),
        Figure("sys.path.insert in the grader", inserts, 0, "times"),
        Figure("CheckFailed classes (grader and helpers)", check_failed, 1, "classes"),
        Figure("README.md", words, 1_500, "words"),
    ]


def clone(work: Path) -> Path:
    """A fresh clone of HEAD, importing its own ``autograder`` (``PYTHONPATH``)."""
    target = work / "kit"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(target)], check=True)
    return target


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, float]:
    start = time.monotonic()
    code = subprocess.run(command, cwd=cwd, env=env).returncode
    return code, time.monotonic() - start


def fast_tier(kit: Path) -> Figure:
    env = dict(os.environ, PYTHONPATH=str(kit), MNIST_DIR=MNIST)
    command = [sys.executable, "-m", "pytest", "-q", "-m", "not slow", "-n", "2", "-p", "no:cacheprovider"]
    code, seconds = timed(command, kit, env)
    return Figure("fast tier, wall" + ("" if code == 0 else f" (FAILED, exit {code})"), seconds, 60, "s")


def named_weakenings(kit: Path) -> Figure:
    import mutation  # beside this file, as named_mutants is
    from named_mutants import MUTANTS

    missed = mutation.named(kit, kit.parent / "named", [])
    return Figure("named weakenings caught", 100 * (len(MUTANTS) - missed) / len(MUTANTS), 95, "%", at_most=False)


def maintainer_tasks(kit: Path) -> Figure:
    env = dict(os.environ, PYTHONPATH=str(kit), MNIST_DIR=MNIST)
    tests = kit / "tests" / "test_maintainer_tasks.py"
    if not tests.exists():
        return Figure("maintainer's tasks played (no test yet)", None, 2, "passed", at_most=False)
    code, _ = timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)], kit, env)
    return Figure("maintainer's tasks played, test passed", 2 if code == 0 else 0, 2, "of 2", at_most=False)


def full_run(kit: Path) -> Figure:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    venv = str(Path(sys.executable).parent)
    env.update(CI="true", MNIST_DIR=MNIST, PATH=os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv))
    code, seconds = timed(["bash", ".ci/run"], kit, env)
    return Figure(
        ".ci/run on a fresh clone" + ("" if code == 0 else f" (FAILED, exit {code})"), seconds / 60, 25, "min"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="run the fast tier on a fresh clone (minutes)")
    parser.add_argument("--named", action="store_true", help="run the named weakenings (tens of minutes)")
    parser.add_argument("--tasks", action="store_true", help="play the maintainer's tasks (minutes)")
    parser.add_argument("--full", action="store_true", help="run .ci/run on a fresh clone (about 21 minutes)")
    parser.add_argument("--all", action="store_true", help="all of the above")
    args = parser.parse_args()
    figures = read_figures()
    measured: list[tuple[bool, Callable[[Path], Figure]]] = [
        (args.fast, fast_tier),
        (args.named, named_weakenings),
        (args.tasks, maintainer_tasks),
        (args.full, full_run),
    ]
    with tempfile.TemporaryDirectory(prefix="kit-lean-") as work:
        # Readable by all, as a clone on a fresh machine is: else the tests that grade as an ordinary user skip
        Path(work).chmod(0o755)
        for wanted, measure in measured:
            if wanted or args.all:
                figures.append(measure(clone(Path(work) / measure.__name__)))
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout
    print(f"\nThe lean kit at {head.strip()}, {time.strftime('%Y-%m-%d')}:")
    for figure in figures:
        print(figure.line())
    return 1 if any(f.within is False for f in figures) else 0


if __name__ == "__main__":
    sys.exit(main())
