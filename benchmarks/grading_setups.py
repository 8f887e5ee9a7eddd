"""Grades of the same two submissions in every set-up an instructor may have: not a unit test, a table.

Usage (as root, so that the ordinary-user rows can make their user)::

    MNIST_DIR=../shared/data/mnist .venv/bin/python benchmarks/grading_setups.py [--only ROW ...]

Each row builds a fresh course, submits the reference solution and a correct variant written unlike it
(einsum for every product, float64 arithmetic), grades it with the kit's command, and prints both totals,
the command's exit status and the wall time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from gradingkit import MNIST, REPO, grade, make_course, totals  # noqa: E402

STUDENTS = {"reference": "reference", "einsum_float64": "einsum_float64"}
Row = Callable[[Path], tuple[Path, subprocess.CompletedProcess]]


def _course(folder: Path, extra: str, secret: Path) -> Path:
    return make_course(folder / "course", "setups", f"{extra}\nc.KitGrading.secret_file = {str(secret)!r}", STUDENTS)


def absolute_config(folder: Path):
    course = _course(folder, f"c.KitGrading.mnist_dir = {str(MNIST)!r}", folder / "secret")
    return course, grade(course, "--jobs", "2")


def relative_config(folder: Path):
    (folder / "course" / "data").mkdir(parents=True)
    (folder / "course" / "data" / "mnist").symlink_to(MNIST)
    course = _course(folder, 'c.KitGrading.mnist_dir = "data/mnist"', folder / "secret")
    return course, grade(course, "--jobs", "2")


def relative_variable(folder: Path):
    (folder / "course" / "data").mkdir(parents=True)
    (folder / "course" / "data" / "mnist").symlink_to(MNIST)
    course = _course(folder, "", folder / "secret")
    return course, grade(course, "--jobs", "2", env={"MNIST_DIR": "data/mnist"})


def download_cache(folder: Path):
    """MNIST only in ~/.cache/dl-notes/mnist (the shared copy's rebuilt training images are not the official bytes)."""
    cache = folder / "home" / ".cache" / "dl-notes" / "mnist"
    cache.mkdir(parents=True)
    for file in MNIST.glob("*.gz"):
        shutil.copy(file, cache / file.name)
    course = _course(folder, "c.KitGrading.download_mnist = False", folder / "secret")
    return course, grade(course, "--jobs", "2", env={"HOME": str(folder / "home")})


def inside_repository(folder: Path):
    """The course is the repository itself (docs/instructor-guide.md), graded in a scratch copy of it."""
    copy = folder / "repo"
    shutil.copytree(
        REPO,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "demo", "submitted", "autograded", "feedback", "gradebook.db", ".kit-graded"
        ),
    )
    for student, kind in STUDENTS.items():
        text = (REPO / "solutions" / "mlp" / "mlp.ipynb").read_text()
        if kind != "reference":
            from gradingkit import einsum_float64

            text = einsum_float64(text)
        (copy / "submitted" / student / "mlp").mkdir(parents=True)
        (copy / "submitted" / student / "mlp" / "mlp.ipynb").write_text(text)
    from autograder import classroom

    classroom.nbgrader(copy, "generate_assignment", "mlp", "--force")  # the instructor guide's first command
    return copy, grade(copy, "--jobs", "2", env={"MNIST_DIR": str(MNIST), "MLP_GRADER_SECRET": "setups"})


def ordinary_user(folder: Path):
    sys.path.insert(0, str(REPO / "tests"))
    import test_grading_anywhere as anywhere

    prefix, env, _ = anywhere._as_user()
    shared = Path(tempfile.mkdtemp(prefix="kit-setups-"))
    (shared / "course" / "data").mkdir(parents=True)
    (shared / "course" / "data" / "mnist").symlink_to(MNIST)
    course = make_course(shared / "course", "setups-user", 'c.KitGrading.mnist_dir = "data/mnist"', STUDENTS)
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", f"{anywhere.INSTRUCTOR}:", str(shared)], check=True)
        shared.chmod(0o755)
        course.chmod(0o700)  # the instructor's alone: grade refuses a course others can read
    python = anywhere._python_for(prefix, env, shared)
    return course, grade(course, "--jobs", "2", env=env, user=prefix, python=python)


def loaded(folder: Path):
    """Four busy processes on the machine while grading (load about 5 on 2 cores)."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "import time\nend = time.time() + 1800\nwhile time.time() < end: pass"])
        for _ in range(4)
    ]
    try:
        return absolute_config(folder)
    finally:
        for spinner in spinners:
            spinner.kill()


def two_at_once(folder: Path):
    """Two grading commands of two courses at the same time; the row shows the first, the second must agree."""
    results: dict[str, tuple[Path, subprocess.CompletedProcess]] = {}
    threads = [threading.Thread(target=lambda n=n: results.__setitem__(n, absolute_config(folder / n))) for n in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    other_course, other = results["b"]
    assert other.returncode == 0 and totals(other_course) == {s: 100 for s in STUDENTS}, other.stdout + other.stderr
    return results["a"]


ROWS: dict[str, tuple[str, Row]] = {
    "absolute": ("root; MNIST absolute (config); course outside the repository; idle; one grading", absolute_config),
    "relative": ("root; MNIST relative to the course (config)", relative_config),
    "variable": ("root; MNIST_DIR relative to the current folder", relative_variable),
    "cache": ("root; MNIST only in the download cache, downloads off", download_cache),
    "repository": ("root; course inside the repository (MNIST_DIR absolute)", inside_repository),
    "user": ("ordinary user; MNIST relative (config); course outside the repository", ordinary_user),
    "loaded": ("root; machine loaded (4 busy processes on 2 cores)", loaded),
    "concurrent": ("root; two grading commands at once (two courses)", two_at_once),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=list(ROWS), default=list(ROWS))
    args = parser.parse_args()
    print("| set-up | reference | einsum + float64 | exit | wall s |\n| --- | ---: | ---: | ---: | ---: |", flush=True)
    for name in args.only:
        label, row = ROWS[name]
        with tempfile.TemporaryDirectory(prefix=f"kit-setup-{name}-") as scratch:
            start = time.perf_counter()
            course, result = row(Path(scratch))
            seconds = time.perf_counter() - start
            scores = totals(course) if (course / "gradebook.db").exists() else {}
            shown = [f"{scores[s]:g}" if s in scores else "not graded" for s in STUDENTS]
            print(f"| {label} | {shown[0]} | {shown[1]} | {result.returncode} | {seconds:.0f} |", flush=True)
            if result.returncode != 0:
                print(f"|   ↳ {(result.stderr or result.stdout).strip().splitlines()[-1][:200]} | | | | |", flush=True)


if __name__ == "__main__":
    main()
