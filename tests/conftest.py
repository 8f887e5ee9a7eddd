"""Shared fixtures: one generated course, and one parallel grading run of every kind of submission per test session."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the kernel sees them
os.environ.setdefault(
    "MLP_GRADER_SECRET", "the-kit-tests-own-secret"
)  # tests pass for any secret; this one must never leak

from autograder.grading.nbgrader_process import defer_iri_checker  # noqa: E402

defer_iri_checker()  # as the kit's commands do: about 2 s less per test process (nbgrader imports jsonschema)

import autograder.course  # noqa: E402, F401 - binds the helpers' bare names to the grader's modules
from autograder import classroom  # noqa: E402

# One copy of each course helper in the tests' process, as in the grader's: the student's bare names (``nn_messages``,
# imported by the public checks) are the grader's modules (``autograder.course.nn_messages``, the same files), so a
# public check and a hidden check (probed and judged here, ``checks.run_here``) fail with the same ``CheckFailed``.
# The kernel and the worker hold theirs (``tests/test_trust_line.py``); the slow tier grades in real workers.
from autograder.classroom import apply_edits  # noqa: E402
from autograder.grading import class_run  # noqa: E402
from catalogue.attacks import CHEATS, CORRECT, FAULTS, Context  # noqa: E402
from catalogue.mistakes import GRADED_MISTAKES, VARIANTS  # noqa: E402
from gradingkit import MNIST, make_course  # noqa: E402

REFERENCE = "reference"
GRADER_FILES = tuple(
    REPO / "autograder" / name for name in ("judge/reference.py", "judge/linear.py", "judge/secret.py")
)
"""Files of the grader a cheat tries to read or print from the kernel: none of their lines may reach a notebook."""
UNTOUCHED = "untouched_release"
JOBS = 2
QUICKER_BOUNDS = ("c.KitGrading.worker_idle_seconds = 30", "c.Execute.timeout = 30", "c.SandboxedExecute.timeout = 30")
"""The graded class's course stops a worker that mostly waits, and a cell that hangs, after 30 s instead of the
defaults' 120: the same rules with a quarter of the wait (its two submissions that reach them took 440 of its 3,169
slot-seconds on a busy machine). The defaults are pinned by ``test_resource_bounds``; a correct worker computes all
the time (the machine's waiting counts as computing), so its verdicts must not change on a busy machine either."""


SLOW_FIXTURES = {"course", "graded_class"}
SHARED_GROUPS = {
    "graded_class": {"test_autograde", "test_trust", "test_generated_files"},
    "unix_users": {"test_exchange_course", "test_watch_course", "test_grading_anywhere", "test_install_forms"},
}
"""Test files whose tests one pytest-xdist worker runs one after the other (``-n 2``): those that use the session's
one course and graded class (``SLOW_FIXTURES``), and those that make the same Unix users (``kit-instructor``,
``kit-x-alice``...) and work in their homes. Every other file's tests run on one worker (its module fixtures are
built once)."""


def worker_group(nodeid: str) -> str:
    """The group of a test (``SHARED_GROUPS``, else its file): one worker runs a whole group."""
    file = nodeid.split("::")[0]
    return next((group for group, files in SHARED_GROUPS.items() if Path(file).stem in files), file)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """pytest-xdist's scheduling by scope, the scope being ``worker_group`` (its own ``--dist loadgroup`` does not
    group on pytest 9.2: pytest-xdist issue 1386)."""
    from xdist.scheduler import LoadScopeScheduling

    class ByWorkerGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return ByWorkerGroup(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs a generated or graded course is in the slow tier, wherever it is, and in the graded class's
    worker group (else a second worker would build the course again)."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
            if worker_group(item.nodeid) != "graded_class":
                raise pytest.UsageError(f"{item.nodeid} uses the graded class: add its file to SHARED_GROUPS")


@dataclass(frozen=True)
class GradedClass:
    course: Path
    grades: dict[str, dict[str, classroom.CellGrade]]
    seconds: float
    log: str
    other_course: Path  # a second course, graded by another command at the same time
    other_log: str


@pytest.fixture(autouse=True)
def numpys_print_options_as_found() -> Iterator[None]:
    """Each test leaves NumPy's print options as it found them: a hostile submission run in this process (the text
    attacks print every array in full) must not slow every later ``str`` of an array, whichever tests follow it."""
    options = np.get_printoptions()
    yield
    np.set_printoptions(**options)


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course directory generated from this repository's source/ with stock nbgrader."""
    return classroom.new_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="session")
def graded_class(course: Path) -> GradedClass:
    """Reference, untouched release, ``GRADED_MISTAKES``, every variant, cheat and fault, graded in one parallel run."""
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text() + "\n".join(("", *QUICKER_BOUNDS, "")))
    solution = (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    classroom.submit(course, REFERENCE, solution)
    classroom.submit(course, UNTOUCHED, (course / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text())
    for entry in (*GRADED_MISTAKES, *VARIANTS):
        classroom.submit(course, entry.name, apply_edits(solution, entry.edits))
    context = Context(
        str(course / "gradebook.db"),
        tuple(
            str(p)
            for p in (
                REPO / "source" / "mlp" / "mlp.ipynb",
                course / "source" / "mlp" / "mlp.ipynb",
                course / "solutions" / "mlp" / "mlp.ipynb",
            )
        ),
        tuple(str(path) for path in GRADER_FILES),
    )
    for entry in (*CHEATS, *FAULTS, *CORRECT):
        for name, text in entry.make(solution, context).items():
            classroom.submit(course, entry.name, text, name)
    other = make_course(
        course.parent / "other-course",
        "other-course",
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}",
        {"other_reference": "reference", "other_einsum": "einsum_float64", "other_release": "release"},
    )
    concurrent = subprocess.Popen(
        [sys.executable, "-m", "autograder", "grade", classroom.ASSIGNMENT, "--jobs", "2"],
        cwd=other,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    start, log = time.perf_counter(), io.StringIO()
    results = class_run.grade_class(course, classroom.ASSIGNMENT, classroom.NOTEBOOK, jobs=JOBS, out=log)
    seconds = time.perf_counter() - start
    other_log, _ = concurrent.communicate(timeout=1800)
    assert all(results.values()), log.getvalue()
    return GradedClass(course, classroom.cell_grades(course), seconds, log.getvalue(), other, other_log)
