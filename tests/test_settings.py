"""Configuration the nbgrader way: every kit setting a trait with help, every course folder from ``CourseDirectory``.

The last test (slow tier) grades a course whose every folder and gradebook is renamed in its ``nbgrader_config.py``.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from traitlets.config import Config

from autograder.grading.kernel import SandboxKernelManager
from autograder.sandbox import Limits
from autograder.settings import CoursePaths, KitGrading, MiB

REPO = Path(__file__).resolve().parents[1]
TRAITS = KitGrading.class_traits(config=True)
COURSE_FOLDERS = {"source", "release", "submitted", "autograded", "feedback", "solutions", "gradebook.db"}


def _documented() -> dict[str, object]:
    """``# c.KitGrading.<name> = <value>`` lines of the repository's nbgrader_config.py."""
    found = {}
    for line in (REPO / "nbgrader_config.py").read_text().splitlines():
        if line.startswith("# c.KitGrading."):
            name, value = line.removeprefix("# c.KitGrading.").split("#")[0].split("=", 1)
            found[name.strip()] = ast.literal_eval(value.strip())
    return found


@pytest.mark.parametrize("name", sorted(TRAITS))
def test_every_setting_is_a_trait_with_help_shown_in_the_course_config_with_its_default(name: str) -> None:
    assert len(TRAITS[name].help) > 20, f"KitGrading.{name} needs a help text"
    documented = _documented()
    assert name in documented, f"nbgrader_config.py does not show c.KitGrading.{name}"
    if name != "mnist_dir":  # shown with an example value
        assert documented[name] == TRAITS[name].default_value


@pytest.mark.parametrize("gate, checks", [(1800, 120), (5000, 120), (60, 900)])
def test_the_kernel_never_stops_a_worker_before_the_budgets_the_watch_enforces(gate: int, checks: int) -> None:
    """A worker's RLIMIT_CPU stands behind the workers' watch (which tells a too-slow student from a too-slow machine):
    below the MNIST gate's budget, the kernel would end a gate the speed rule lets run, as a crash."""
    config = Config()
    config.KitGrading.worker_gate_cpu_seconds, config.KitGrading.worker_checks_cpu_seconds = gate, checks
    assert KitGrading(config=config).worker_limits().cpu_seconds > max(gate, checks)


def test_the_limits_a_course_sets_reach_the_kernel_and_the_workers(tmp_path: Path) -> None:
    config = Config()
    config.KitGrading.kernel_memory_mib, config.KitGrading.worker_processes = 1000, 7
    config.KitGrading.work_dir = str(tmp_path)
    kit = KitGrading(config=config)
    assert kit.worker_limits() == Limits(cpu_seconds=3600, memory_bytes=2048 * MiB, processes=7, file_bytes=64 * MiB)
    manager = SandboxKernelManager(config=config)
    try:
        assert manager._limits == Limits(cpu_seconds=1800, memory_bytes=1000 * MiB, processes=64, file_bytes=256 * MiB)
    finally:
        shutil.rmtree(manager._home)


def test_course_paths_follow_the_course_directory_traits(tmp_path: Path) -> None:
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    config.CourseDirectory.submitted_directory, config.CourseDirectory.release_directory = "handins", "out"
    config.CourseDirectory.db_url = "sqlite:///books/grades.db"
    config.KitGrading.graded_dir = "state"
    for student in ("bob", "alice"):
        (tmp_path / "handins" / student / "mlp").mkdir(parents=True)
    (tmp_path / "handins" / "carol" / "other").mkdir(parents=True)
    paths = CoursePaths(config)
    assert paths.submitted("alice", "mlp") == tmp_path / "handins" / "alice" / "mlp"
    assert paths.release("mlp") == tmp_path / "out" / "mlp"
    assert paths.submitted_students("mlp") == ["alice", "bob"]
    assert paths.db_url() == f"sqlite:///{tmp_path / 'books' / 'grades.db'}"
    assert paths.graded_dir() == tmp_path / "state"


def test_the_grader_joins_no_course_folder_name_itself() -> None:
    """What grades a course takes its folders from ``CourseDirectory`` (``CoursePaths``), never ``root / "submitted"``.

    (The cluster's worker lays out a private copy of the course itself; the classroom of the demo and the tests, the
    demo, the edition generator and the hidden-cell writer work on this repository's own layout.)
    """
    not_graders = {REPO / "autograder" / "classroom.py", REPO / "autograder" / "grading" / "cluster.py"}
    graders = [
        path
        for folder in ("", "preprocessors", "exporters", "grading", "judge")
        for path in (REPO / "autograder" / folder).glob("*.py")
        if path not in not_graders
    ] + [REPO / "autograder" / "cli" / "grade.py"]
    found = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in graders
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Div)
        and isinstance(node.right, ast.Constant)
        and node.right.value in COURSE_FOLDERS
    ]
    assert found == []


@pytest.mark.slow
def test_a_course_with_every_folder_renamed_is_graded(tmp_path: Path) -> None:
    from gradingkit import MNIST, einsum_float64

    course = tmp_path / "renamed"
    course.mkdir()
    (course / "nbgrader_config.py").write_text(f"""from autograder.settings import apply

c = get_config()
apply(c)
c.CourseDirectory.course_id = "renamed-course"
c.CourseDirectory.source_directory = "master"
c.CourseDirectory.release_directory = "out"
c.CourseDirectory.submitted_directory = "handins"
c.CourseDirectory.autograded_directory = "marked"
c.CourseDirectory.db_url = "sqlite:///books/grades.db"
c.KitGrading.graded_dir = "state"
c.KitGrading.mnist_dir = {str(MNIST)!r}
""")
    (course / "books").mkdir()
    shutil.copytree(REPO / "source" / "mlp", course / "master" / "mlp", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    env.pop("MNIST_DIR", None)
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", "mlp"],
        cwd=course,
        env=env,
        check=True,
        capture_output=True,
    )
    solution = (REPO / "solutions" / "mlp" / "mlp.ipynb").read_text()
    for student, text in {"alice": einsum_float64(solution), "carol": "{ not json"}.items():
        (course / "handins" / student / "mlp").mkdir(parents=True)
        (course / "handins" / student / "mlp" / "mlp.ipynb").write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", "mlp", "--jobs", "2"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(course / "books" / "grades.db") as db:
        totals = dict(
            db.execute(
                "SELECT student.id, SUM(grade.auto_score) FROM grade "
                "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
                "JOIN submitted_assignment ON submitted_notebook.assignment_id = submitted_assignment.id "
                "JOIN student ON submitted_assignment.student_id = student.id GROUP BY student.id"
            )
        )
    assert totals == {"alice": 100, "carol": 0}
    assert (course / "marked" / "alice" / "mlp" / "mlp.ipynb").exists() and (
        course / "state" / "mlp" / "alice"
    ).exists()
    note = json.loads((course / "handins" / "carol" / "mlp" / "mlp.ipynb").read_text())["cells"][0]["source"]
    assert "could not be read" in "".join(note)  # replaced by the release from out/, with a note
    assert not any((course / name).exists() for name in ("submitted", "autograded", "release", "gradebook.db"))


@pytest.mark.parametrize("attempts", [2, 3])
def test_a_crash_message_says_how_often_the_worker_was_tried_in_english_and_chinese(
    attempts: int,
) -> None:
    sys.path.insert(0, str(REPO / "source" / "mlp"))
    from autograder import messages
    from autograder.grading.workers import crash as _crash

    reason = messages.WHILE_CHECK(reason=messages.WORKER_EXIT(status=1))
    failure = _crash(reason, attempts).failure
    assert failure is not None
    assert ("twice" if attempts == 2 else f"{attempts} times in a row") in str(failure)
    assert "ended with exit status 1 while running this check" in str(failure)
    chinese = failure.render("zh")
    assert "times" not in chinese and "twice" not in chinese and "次" in chinese, chinese
