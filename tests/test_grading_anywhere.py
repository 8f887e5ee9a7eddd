"""Grading as an instructor without root, in a course folder of their own, with MNIST where their config says."""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from gradingkit import MNIST, REPO, grade, graded_notebook_text, make_course, totals

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox

INSTRUCTOR = "kit-instructor"


def _as_user() -> tuple[list[str], dict[str, str], Path]:
    """How to run a command as an ordinary user: (prefix, environment, home). Under root, that user is made."""
    if os.geteuid() != 0:
        return [], {}, Path.home()
    try:
        pwd.getpwnam(INSTRUCTOR)
    except KeyError:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", INSTRUCTOR], check=True, capture_output=True)
    entry = pwd.getpwnam(INSTRUCTOR)
    prefix = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups"]
    return prefix, {"HOME": entry.pw_dir, "USER": INSTRUCTOR}, Path(entry.pw_dir)


def _python_for(prefix: list[str], env: dict[str, str], folder: Path) -> str:
    """This environment's Python if the user can sandbox with it, else a venv of the system's Python on its packages.

    (A Python under /root runs for the user through a venv's link, but bubblewrap cannot mount it for them.)
    """
    sandboxes = "from autograder import sandbox; sandbox.check_available()"
    if (
        subprocess.run(
            [*prefix, sys.executable, "-c", sandboxes], env={**os.environ, **env}, capture_output=True, check=False
        ).returncode
        == 0
    ):
        return sys.executable
    system = Path(f"/usr/bin/python3.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"the user cannot run {sys.executable} and there is no {system}")
    venv = folder / "venv"
    subprocess.run([str(system), "-m", "venv", "--without-pip", str(venv)], check=True)
    site = venv / "lib" / f"python3.{sys.version_info.minor}" / "site-packages"
    paths = [p for p in sys.path if p.endswith("site-packages")]
    (site / "kit.pth").write_text("".join(f"import site; site.addsitedir({p!r})\n" for p in paths))
    python = str(venv / "bin" / "python")
    check = subprocess.run(
        [*prefix, python, "-c", sandboxes], env={**os.environ, **env}, capture_output=True, text=True, check=False
    )
    if check.returncode != 0:
        pytest.skip(f"the kit's environment is not readable by an ordinary user: {check.stderr[-300:]}")
    return python


def test_an_ordinary_user_grades_a_course_outside_the_repository_with_relative_data() -> None:
    prefix, env, home = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="kit-anywhere-"))
    try:
        course = folder / "course"
        course.mkdir(parents=True)
        (course / "data").mkdir()
        (course / "data" / "mnist").symlink_to(MNIST)
        make_course(
            course,
            "anywhere-course",
            'c.KitGrading.mnist_dir = "data/mnist"',
            {"reference_student": "reference", "einsum_student": "einsum_float64"},
        )
        assert not course.is_relative_to(REPO)
        secret = home / ".local" / "share" / "dl-notes-kit" / "secrets" / "anywhere-course"
        if os.geteuid() == 0:
            shutil.rmtree(home / ".local" / "share" / "dl-notes-kit", ignore_errors=True)
            subprocess.run(["chown", "-R", f"{INSTRUCTOR}:", str(folder)], check=True)
            folder.chmod(0o755)
            course.chmod(0o700)  # the instructor's alone: grade refuses a course others can read
        # as an instructor types it in the course folder: the interpreter by a relative path (through `..`)
        python = os.path.relpath(_python_for(prefix, env, folder), course)
        result = grade(course, "--jobs", "2", env=env, user=prefix, python=python)
        assert result.returncode == 0, result.stdout + result.stderr
        assert totals(course) == {"reference_student": 100, "einsum_student": 100}, result.stdout
        assert f"Grading secret: {secret} (created now)" in result.stdout, result.stdout
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and not secret.is_relative_to(course)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_grading_without_a_sandbox_is_an_opt_in_that_every_graded_notebook_states(tmp_path: Path) -> None:
    course = make_course(
        tmp_path / "course",
        "unsandboxed",
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}\n"
        f"c.KitGrading.secret_file = {str(tmp_path / 'secret')!r}\nc.KitGrading.sandbox = False",
    )
    result = grade(course)
    assert result.returncode == 0 and "Sandbox: NONE" in result.stdout, result.stdout + result.stderr
    assert totals(course) == {"reference_student": 100}
    assert "graded without a sandbox" in graded_notebook_text(course, "reference_student")
