"""Privacy by default: ``grade`` refuses a course whose gradebook, students' work, feedback, logs or reports other
users can read, with the ``chmod`` that fixes it, and what it writes is its owner's alone. Fast: no nbgrader run."""

from __future__ import annotations

import shlex
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.cli import demo
from autograder.cli import grade as grade_cli
from autograder.faults import GraderFault
from autograder.grading import class_run, privacy
from autograder.settings import CoursePaths, load_course_config


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user can reach (pytest's own temporary folders are 700, which would keep anything private)."""
    folder = Path(tempfile.mkdtemp(prefix="kit-privacy-"))
    folder.chmod(0o755)
    if not all(p.stat().st_mode & stat.S_IXOTH for p in folder.parents):
        pytest.skip(f"a folder above {folder} keeps other users out already")
    yield folder
    shutil.rmtree(folder)


def _course(folder: Path, mode: int = 0o755, gradebook: int = 0o644, extra: str = "") -> Path:
    """A course folder of ``mode`` with a gradebook of mode ``gradebook`` (0: none) and ``submitted/`` (700)."""
    course = folder / "course"
    course.mkdir()
    (course / "nbgrader_config.py").write_text(f'c = get_config()\nc.CourseDirectory.course_id = "private"\n{extra}')
    if gradebook:
        (course / "gradebook.db").touch()
        (course / "gradebook.db").chmod(gradebook)
    (course / "submitted").mkdir(mode=0o700)
    course.chmod(mode)
    return course


def _exposed(course: Path) -> privacy.Exposed | None:
    return privacy.exposed(CoursePaths(load_course_config(course)))


def test_a_644_gradebook_in_a_755_course_is_refused_and_the_fix_closes_the_course(open_folder: Path) -> None:
    course = _course(open_folder)
    assert _exposed(course) == privacy.Exposed((course / "gradebook.db",), ("chmod", "o-rwx", str(course)))


def test_a_644_gradebook_in_a_700_course_or_a_755_course_in_a_700_home_is_private(open_folder: Path) -> None:
    assert _exposed(_course(open_folder, mode=0o700)) is None
    home = open_folder / "home"
    home.mkdir(mode=0o700)
    assert _exposed(_course(home)) is None  # the folders above the course count too


def test_what_only_the_group_can_read_or_pass_through_is_private(open_folder: Path) -> None:
    course = _course(open_folder, gradebook=0o640)  # others pass through the course but may not read
    (course / "submitted").chmod(0o750)
    assert _exposed(course) is None
    course.chmod(0o750)  # only the group passes through the course
    (course / "gradebook.db").chmod(0o644)
    (course / "submitted").chmod(0o755)
    assert _exposed(course) is None


def test_a_755_submitted_folder_in_a_755_course_is_refused(open_folder: Path) -> None:
    course = _course(open_folder, gradebook=0o600)
    assert _exposed(course) is None
    (course / "submitted").chmod(0o755)
    assert _exposed(course) == privacy.Exposed((course / "submitted",), ("chmod", "o-rwx", str(course)))
    (course / "submitted").chmod(0o711)  # not listable, but students' folders are named by login: guessable
    assert _exposed(course) == privacy.Exposed((course / "submitted",), ("chmod", "o-rwx", str(course)))


def test_the_printed_fix_run_as_printed_makes_the_course_private(open_folder: Path) -> None:
    elsewhere = open_folder / "books"
    elsewhere.mkdir(mode=0o755)
    (elsewhere / "grades.db").touch(mode=0o644)
    course = _course(open_folder, extra=f'c.CourseDirectory.db_url = "sqlite:///{elsewhere}/grades.db"\n')
    for name in ("autograded", "feedback", ".kit-graded", "reports"):
        (course / name).mkdir(mode=0o755)
    exposed = _exposed(course)
    assert exposed is not None and len(exposed.paths) == 5
    assert exposed.fix == ("chmod", "o-rwx", str(elsewhere / "grades.db"), str(course))  # the course, and the rest
    printed = grade_cli.refusal(exposed).splitlines()[-1].strip()
    assert printed == shlex.join(exposed.fix)
    subprocess.run(printed, shell=True, check=True)
    assert _exposed(course) is None


def test_the_grade_command_refuses_an_exposed_course_grades_nothing_and_prints_the_fix(
    open_folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    course = _course(open_folder)
    prepared: list[object] = []
    monkeypatch.setattr(class_run, "prepare_grading", lambda *args: prepared.append(args))
    monkeypatch.chdir(course)
    assert grade_cli.main(["mlp"]) == 2
    assert prepared == [] and {p.name for p in course.iterdir()} == {"gradebook.db", "nbgrader_config.py", "submitted"}
    assert f"\n  chmod o-rwx {course}\n" in capsys.readouterr().err + "\n"


def test_the_demo_makes_its_course_private_before_it_builds_it(
    open_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modes: list[int] = []

    def new_course(course: Path) -> Path:
        modes.append(stat.S_IMODE(course.stat().st_mode))
        raise GraderFault("stop here")

    monkeypatch.setattr(demo.classroom, "new_course", new_course)
    with pytest.raises(GraderFault, match="stop here"):
        demo._build(open_folder / "demo")
    assert modes == [0o700]
