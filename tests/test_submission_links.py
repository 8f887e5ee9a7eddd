"""A submission is read without following links out of its folder, and no autograde waits for ever.

Links, FIFOs, sockets and devices in a submission are taken out of what is graded (``submissions.refused_files``):
moved aside by ``python -m autograder grade`` before nbgrader sees them, or deleted from nbgrader's copy by the
``RefuseLinks`` preprocessor under a plain ``nbgrader autograde``; the student's notebook says which. Each
autograde of the grade command has a wall-time limit, its whole process group killed on expiry.
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from pathlib import Path

import pytest
from traitlets.config import Config

from autograder import classroom
from autograder.grading.autograde import STOPPED, outcome, run_limited
from autograder.grading.submissions import Refused, quarantine, refused_files
from autograder.settings import CoursePaths
from gradingkit import MNIST, grade, graded_notebook_text, make_course, rows_in_gradebook, totals

READ_EVERYTHING = """import os
for root, _, files in os.walk(".", followlinks=True):
    for name in files:
        path = os.path.join(root, name)
        if os.path.isfile(path) and not path.endswith(".ipynb"):
            print(path, open(path, errors="replace").read()[:5000])
"""


def _hostile_folder(folder: Path, outside: Path, canary: str) -> None:
    """Next to the notebook: a link to a file outside the course, a hard link to another, a FIFO, a linked folder."""
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.txt").write_text(canary)
    (outside / "secret2.txt").write_text(canary)
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").symlink_to(outside / "secret.txt")
    os.link(outside / "secret2.txt", folder / "data.txt")
    os.mkfifo(folder / "pipe")
    (folder / "sub" / "shadow").symlink_to("/etc/shadow")
    (folder / "everything").symlink_to(outside)
    (folder / "plain.txt").write_text("mine")
    (folder / "sub" / "plain.txt").write_text("mine too")


def test_every_link_and_special_file_is_found_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "submission"
    _hostile_folder(folder, tmp_path / "outside", "canary")
    monkeypatch.chdir(folder)  # a socket's address holds 107 bytes; a deep $TMPDIR's would not fit
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        found = refused_files(folder)
    assert found == [
        Refused("data.txt", "hard_link"),
        Refused("everything", "symlink", str(tmp_path / "outside")),
        Refused("notes.txt", "symlink", str(tmp_path / "outside" / "secret.txt")),
        Refused("pipe", "fifo"),
        Refused("sock", "socket"),
        Refused("sub/shadow", "symlink", "/etc/shadow"),
    ]
    (tmp_path / "linked").symlink_to(folder)
    assert refused_files(tmp_path / "linked") == [Refused(".", "symlink", str(folder))]


def test_the_grade_command_moves_them_aside_before_nbgrader_and_says_so(tmp_path: Path) -> None:
    config = Config()
    config.CourseDirectory.root = str(tmp_path / "course")
    paths = CoursePaths(config)
    folder = paths.submitted("mallory", "mlp")
    _hostile_folder(folder, tmp_path / "outside", "canary")
    note, line = quarantine(paths, "mlp", "mallory")
    assert refused_files(folder) == []
    assert sorted(p.name for p in folder.rglob("*")) == ["plain.txt", "plain.txt", "sub"]
    aside = paths.graded_dir() / "refused" / "mlp" / "mallory"
    assert (aside / "notes.txt").is_symlink() and (aside / "sub" / "shadow").is_symlink()
    assert (tmp_path / "outside" / "secret.txt").read_text() == "canary"  # the link moved, its target untouched
    for name in ("`notes.txt` (a symbolic link)", "`data.txt` (a hard link)", "`pipe` (a FIFO", "`sub/shadow`"):
        assert name in note
    assert "/etc/shadow" in line and str(aside) in line and "/etc/shadow" not in note
    assert quarantine(paths, "mlp", "mallory") is None


def test_an_autograde_over_its_time_is_killed_with_every_process_it_started(tmp_path: Path) -> None:
    log = tmp_path / "log"
    script = f"sleep 300 & echo $! > {tmp_path / 'child'}; sleep 300"
    start = time.monotonic()
    assert run_limited(["sh", "-c", script], tmp_path, dict(os.environ), log, 1) is None
    # Ended at its 1 s, not when its sleeps end (300 s): on a busy machine later, as time the machine kept work
    # waiting does not count (this took 43 s beside a CI run and three test runs on 2 cores).
    assert time.monotonic() - start < 150
    child = int((tmp_path / "child").read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    assert STOPPED in log.read_text()  # said in the log too, for the person who reads it
    fault = outcome(None, tmp_path / "no-record.json", log, 1)
    assert fault is not None and fault.kind == "stopped" and not fault.retry and "autograde_seconds" in fault.detail
    assert run_limited(["sh", "-c", "exit 3"], tmp_path, dict(os.environ), log, 10) == 3


# ---------------------------------------------------------------- slow tier: grading with nbgrader


def _config(tmp_path: Path, extra: str = "") -> str:
    return (
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}\nc.KitGrading.secret_file = {str(tmp_path / 'secret')!r}\n"
        f"c.KitGrading.work_dir = {str(tmp_path / 'work')!r}\n{extra}"
    )


def _with_cell(notebook: str, code: str) -> str:
    nb = json.loads(notebook)
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": code, "outputs": [], "execution_count": None})
    return json.dumps(nb)


def _everything_under(*folders: Path) -> str:
    return "\n".join(
        p.read_text(errors="replace")
        for folder in folders
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    )


def _hostile_course(tmp_path: Path, canary: str, fifo: bool = True) -> Path:
    course = make_course(tmp_path / "course", "links", _config(tmp_path), {"mallory": "reference"})
    (tmp_path / "work").mkdir()
    folder = course / "submitted" / "mallory" / "mlp"
    (folder / "mlp.ipynb").write_text(_with_cell((folder / "mlp.ipynb").read_text(), READ_EVERYTHING))
    _hostile_folder(folder, tmp_path / "outside", canary)
    if not fifo:
        (folder / "pipe").unlink()
    linked = course / "submitted" / "linked_notebook" / "mlp"
    linked.mkdir(parents=True)
    (linked / "mlp.ipynb").symlink_to(course / "source" / "mlp" / "mlp.ipynb")  # the solutions, hidden tests
    return course


@pytest.mark.slow
def test_links_in_a_submission_reach_nothing_graded_by_the_grade_command(tmp_path: Path) -> None:
    canary = f"canary-{uuid.uuid4()}"
    course = _hostile_course(tmp_path, canary)
    result = grade(course)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mallory: not graded, not plain files" in result.stdout and "/etc/shadow" in result.stdout
    assert totals(course) == {"mallory": 100, "linked_notebook": 0}, result.stdout
    classroom.nbgrader(course, "generate_feedback", "mlp")
    assert canary not in _everything_under(course / "autograded", course / "feedback", tmp_path / "work")
    assert canary not in _everything_under(course / ".kit-graded" / "logs") + result.stdout
    text = graded_notebook_text(course, "mallory")
    for name in ("notes.txt", "data.txt", "pipe", "sub/shadow", "not plain files"):
        assert name in text
    assert "`mlp.ipynb` (a symbolic link)" in graded_notebook_text(course, "linked_notebook")


@pytest.mark.slow
def test_links_in_a_submission_reach_nothing_graded_by_plain_nbgrader(tmp_path: Path) -> None:
    """Formgrader's button: nbgrader has copied what the links point to before the kit's preprocessors run."""
    canary = f"canary-{uuid.uuid4()}"
    if not os.access("/etc/shadow", os.R_OK):
        pytest.skip("stock nbgrader stops at a link to a file it cannot read (/etc/shadow, as an ordinary user)")
    course = _hostile_course(tmp_path, canary, fifo=False)  # nbgrader itself stops at a FIFO (shutil's copy)
    classroom.nbgrader(course, "autograde", "mlp")
    assert totals(course) == {"mallory": 100, "linked_notebook": 0}
    graded = course / "autograded" / "mallory" / "mlp"
    assert not (graded / "notes.txt").exists() and not (graded / "data.txt").exists()
    assert canary not in _everything_under(course / "autograded")
    assert "`notes.txt` (a symbolic link)" in graded_notebook_text(course, "mallory")
    assert "`mlp.ipynb` (a symbolic link)" in graded_notebook_text(course, "linked_notebook")


@pytest.mark.slow
def test_an_autograde_that_reaches_its_wall_time_is_left_ungraded_and_leaves_nothing_running(tmp_path: Path) -> None:
    course = make_course(
        tmp_path / "course", "stuck", _config(tmp_path, "c.KitGrading.autograde_seconds = 8"), {"stuck": "reference"}
    )
    (tmp_path / "work").mkdir()
    notebook = course / "submitted" / "stuck" / "mlp" / "mlp.ipynb"
    notebook.write_text(_with_cell(notebook.read_text(), "import time\ntime.sleep(100)"))
    start = time.monotonic()
    result = grade(course)
    assert result.returncode == 1, result.stdout + result.stderr
    assert time.monotonic() - start < 60, "retried, or not stopped"
    assert "stuck: NOT GRADED" in result.stdout and "0 graded, 1 not graded (stuck)" in result.stdout
    assert STOPPED in result.stdout and "autograde_seconds" in result.stdout
    assert rows_in_gradebook(course) == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _processes_using(tmp_path / "work"):
        time.sleep(0.2)
    assert not _processes_using(tmp_path / "work")


def _processes_using(folder: Path) -> list[str]:
    """Command lines of the processes whose arguments name ``folder`` (the kernel's and workers' scratch)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(folder) in command:
            found.append(command)
    return found


@pytest.mark.slow
def test_a_cluster_task_has_the_same_wall_time_limit(tmp_path: Path) -> None:
    from autograder.grading.cluster import Task, grade_task

    course = make_course(tmp_path / "course", "stuck-on-dask", _config(tmp_path), {"stuck": "reference"})
    notebook = (course / "submitted" / "stuck" / "mlp" / "mlp.ipynb").read_text()
    task = Task(
        assignment="mlp",
        student="stuck",
        config=(course / "nbgrader_config.py").read_text(),
        course_files={
            str(p.relative_to(course)): p.read_bytes()
            for folder in ("source", "release")
            for p in (course / folder / "mlp").iterdir()
            if p.is_file()
        },
        submission={"mlp.ipynb": _with_cell(notebook, "import time\ntime.sleep(100)").encode()},
        db_url=f"sqlite:///{course / 'gradebook.db'}",
        course_id="stuck-on-dask",
        secret="the-test-secret",
        mnist_hint=str(MNIST),
        autograde_seconds=8,
    )
    result = grade_task(task)
    assert result.fault is not None and result.fault.kind == "stopped"  # the Dispatcher stores nothing of it
    assert STOPPED in result.log and result.seconds < 60, result.log[-2000:]
