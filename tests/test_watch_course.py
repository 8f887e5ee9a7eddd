"""``python -m autograder watch`` over nbgrader's exchange as Unix users (slow tier), like ``test_exchange_course``: an
instructor starts the watcher; five students submit within seconds: alice and fiona (the reference solution), bob and
erik (catalogued mistakes), dora (a correct variant written unlike the reference); the watcher is killed (SIGKILL)
while it grades them; carol submits a file that is no notebook while it is down; restarted, it grades all six; bob
hands in a fix, graded again while the instructor's own ``grade`` waits for the watcher's lock; a
second watcher refuses. Before the due date each feedback says whether each hidden test passed, nothing more
(``c.Watch.before_due = "passfail"``); once it has passed, everyone's latest is released again in full. Each student
fetches their own feedback, carol's with a note on her file; the gradebook holds each student once."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from test_docs import STUDENT_CONFIG, configured, guide_exchange_root
from test_exchange_course import (
    INSTRUCTOR,
    WORK,
    _course,
    _environment,
    _handed_in,
    _kit_environment,
    _run,
    _user,
    _utc,
)

from autograder import classroom
from autograder.classroom import apply_edits
from catalogue.mistakes import MISTAKES, VARIANTS

pytestmark = pytest.mark.slow  # grades with nbgrader in the sandbox, needs root to make the users

STUDENTS = {
    "kit-x-alice": None,
    "kit-x-bob": "linear_dw_transposed",
    "kit-x-carol": None,
    "kit-x-dora": "mlp_loop_over_layers",
    "kit-x-erik": "sgd_sign_flipped",
    "kit-x-fiona": None,
}
"""Each student and what they hand in first: the solution (None), a catalogued mistake or a correct variant."""
NOT_A_NOTEBOOK = "carol's mlp.ipynb, which is no notebook"


def _watcher(teacher, course: Path, path: str, log: Path) -> subprocess.Popen:
    """The instructor's ``python -m autograder watch mlp --jobs 2``, its lines into ``log``."""
    return subprocess.Popen(
        [
            shutil.which("runuser") or "runuser",
            "-u",
            teacher.pw_name,
            "--",
            "bash",
            "-c",
            "exec python -m autograder watch mlp --jobs 2",
        ],
        cwd=course,
        env=_environment(teacher, path),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def _wait_for(log: Path, patterns: list[str], process: subprocess.Popen, seconds: float = 400) -> str:
    """The log once every pattern is in it (each a regular expression, matched on a line)."""
    deadline = time.monotonic() + seconds
    while True:
        text = log.read_text()
        if all(re.search(p, text, re.M) for p in patterns):
            return text
        assert process.poll() is None, f"the watcher ended ({process.returncode}):\n{text}"
        assert time.monotonic() < deadline, f"not all of {patterns} in {seconds} s:\n{text}"
        time.sleep(1)


def _submit(user, notebook: str) -> None:
    work = Path(user.pw_dir) / WORK
    (work / classroom.ASSIGNMENT / classroom.NOTEBOOK).write_text(notebook)
    shutil.chown(work / classroom.ASSIGNMENT / classroom.NOTEBOOK, user.pw_name, user.pw_name)
    done = _run(user, ".venv/bin/nbgrader submit mlp", work, "/usr/bin:/bin")
    assert done.returncode == 0, done.stdout + done.stderr


def _first(name: str, scratch: Path) -> str:
    """What ``name`` hands in first: the solved notebook with their entry's edits (``STUDENTS``)."""
    entry = next((e for e in (*MISTAKES, *VARIANTS) if e.name == STUDENTS[name]), None)
    solved = _handed_in(None, scratch)
    return solved if entry is None else apply_edits(solved, entry.edits)


def _kill(course: Path, process: subprocess.Popen) -> None:
    """SIGKILL the watcher, by the pid its lock file names."""
    holder = (course / ".kit-graded" / "watch" / "watch.lock").read_text()
    os.kill(int(re.match(r"pid (\d+):", holder)[1]), signal.SIGKILL)
    process.wait(30)


def test_the_watcher_grades_each_submission_as_it_comes_across_a_kill_and_a_resubmission() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: it makes an instructor and six students (useradd) and runs each one's commands")
    teacher = _user(INSTRUCTOR)
    students = {name: _user(name) for name in STUDENTS}
    for user in (teacher, *students.values()):
        for left in (".local/share/dl-notes-kit", ".local/share/jupyter/nbgrader_cache", WORK):
            shutil.rmtree(Path(user.pw_dir) / left, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix="kit-watch-"))
    watchers: list[subprocess.Popen] = []
    try:
        folder.chmod(0o755)
        root = str(folder / guide_exchange_root().lstrip("/"))
        subprocess.run(["install", "-d", "-m", "1777", root], check=True)  # the administrator's step
        course = _course(folder, root)
        config = course / "nbgrader_config.py"
        config.write_text(config.read_text() + '\nc.Watch.before_due = "passfail"\nc.Watch.poll_seconds = 1\n')
        subprocess.run(["chown", "-R", f"{INSTRUCTOR}:", str(course)], check=True)
        course.chmod(0o700)
        venv = _kit_environment(teacher, folder, course)
        path = f"{venv / 'bin'}:/usr/bin:/bin"
        for command in (
            "nbgrader generate_assignment mlp --force",
            f'nbgrader db assignment add mlp --duedate="{_utc(days=1)}"',
            "nbgrader release_assignment mlp",
        ):
            done = _run(teacher, command, course, path)
            assert done.returncode == 0, f"$ {command}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        for name, user in students.items():
            work = Path(user.pw_dir) / WORK
            work.mkdir(mode=0o700)
            (work / ".venv").symlink_to(venv)
            (work / "nbgrader_config.py").write_text(
                STUDENT_CONFIG.read_text().replace(configured(STUDENT_CONFIG, "Exchange.root"), root)
            )
            subprocess.run(["chown", "-R", f"{name}:", str(work)], check=True)
            fetched = _run(user, ".venv/bin/nbgrader fetch_assignment mlp", work, "/usr/bin:/bin")
            assert fetched.returncode == 0, fetched.stdout + fetched.stderr
        bob, carol = students["kit-x-bob"], students["kit-x-carol"]
        for name, user in students.items():  # within seconds, all but carol
            if user is not carol:
                _submit(user, _first(name, folder / "scratch" / name))

        first = folder / "watch-1.log"
        watchers.append(_watcher(teacher, course, path, first))
        _wait_for(first, [r"kit-x-alice\s+grading", r"kit-x-bob\s+grading"], watchers[-1])
        time.sleep(3)
        _kill(course, watchers[-1])  # mid-class: two are being graded, three wait
        _submit(carol, NOT_A_NOTEBOOK)  # while no watcher runs: nothing in the exchange is lost

        second = folder / "watch-2.log"
        watchers.append(_watcher(teacher, course, path, second))
        released = [rf"{name}\s+released" for name in STUDENTS]
        _wait_for(second, [r"kit-x-alice\s+queued.*before a restart", *released], watchers[-1])
        refused = _run(teacher, "python -m autograder watch mlp", course, path)
        assert refused.returncode == 2 and "another watcher already watches" in refused.stderr, refused.stderr

        _submit(bob, _handed_in(None, folder / "scratch" / "bob-fix"))
        _wait_for(second, [r"kit-x-bob\s+grading(.|\n)*kit-x-bob\s+grading"], watchers[-1])
        beside = _run(teacher, "python -m autograder grade mlp --student kit-x-alice", course, path)
        assert "waiting for pid" in beside.stdout and "watch mlp" in beside.stdout, beside.stdout[-3000:]
        _wait_for(second, [r"kit-x-bob\s+released(.|\n)*kit-x-bob\s+released"], watchers[-1])
        passfail = re.findall(r"^\S+ kit-x-\w+\s+released .*\(passfail\)$", second.read_text(), re.M)
        assert len(passfail) == len(STUDENTS) + 1, passfail  # each student's first, and bob's fix
        passed = _run(teacher, f'nbgrader db assignment add mlp --duedate="{_utc(seconds=-5)}"', course, path)
        assert passed.returncode == 0, passed.stderr  # the due date has passed: everyone's latest, in full
        _wait_for(second, [rf"{name}\s+released.*due date has passed" for name in STUDENTS], watchers[-1])
        _kill(course, watchers[-1])

        journal = json.loads((course / ".kit-graded" / "watch" / "journal.json").read_text())
        assert sorted((e["student"], e["state"]) for e in journal) == [
            ("kit-x-alice", "released"),
            ("kit-x-bob", "released"),
            ("kit-x-bob", "released"),
            ("kit-x-carol", "released"),
            ("kit-x-dora", "released"),
            ("kit-x-erik", "released"),
            ("kit-x-fiona", "released"),
        ], journal
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            graded = sorted(s.student.id for s in gradebook.find_assignment("mlp").submissions)
        assert graded == sorted(STUDENTS), graded  # each student once, bob's fix in place of his first

        feedback = {}
        for name, user in students.items():
            work = Path(user.pw_dir) / WORK
            fetched = _run(user, ".venv/bin/nbgrader fetch_feedback mlp", work, "/usr/bin:/bin")
            assert fetched.returncode == 0, fetched.stdout + fetched.stderr
            pages = sorted((work / classroom.ASSIGNMENT / "feedback").glob("*/mlp.html"))
            feedback[name] = [page.read_text() for page in pages]
        assert {name: len(pages) for name, pages in feedback.items()} == {name: 1 for name in STUDENTS} | {
            "kit-x-bob": 2
        }
        scores = {name: re.search(r"mlp \(score: ([\d.]+) / 100\)", pages[-1]) for name, pages in feedback.items()}
        assert all(scores.values()), feedback  # each one's latest: in full, once the due date has passed
        assert {name: float(score[1]) for name, score in scores.items() if name != "kit-x-erik"} == {
            name: 0.0 if name == "kit-x-carol" else 100.0 for name in STUDENTS if name != "kit-x-erik"
        }  # bob's fix; carol's file graded as the release; dora's variant as correct as the reference
        erik = next(m for m in MISTAKES if m.name == STUDENTS["kit-x-erik"])
        assert float(scores["kit-x-erik"][1]) < 100 and erik.cause in feedback["kit-x-erik"][-1], scores["kit-x-erik"]
        first = feedback["kit-x-bob"][0]  # before the due date: whether each hidden test passed, nothing more
        assert "kit-pass-fail" in first and "CheckFailed" not in first and "(score:" not in first, first[-3000:]
        assert (
            "<code>Linear.backward, W.grad</code>: failed" in first and "<code>Linear.forward</code>: passed" in first
        )
        assert "Your notebook could not be read" in feedback["kit-x-carol"][0], feedback["kit-x-carol"][0][-3000:]
    finally:
        for process in watchers:
            if process.poll() is None:
                process.kill()
        shutil.rmtree(folder, ignore_errors=True)
