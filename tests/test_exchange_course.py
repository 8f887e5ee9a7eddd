"""The course over nbgrader's exchange as docs/instructor-guide.md walks it: the administrator's one step, then an
instructor and two students, each an ordinary Unix user in their own home, running the guide's commands as printed
(read from the guide's blocks; only the exchange root is moved into this test's folder, in the commands and in both
configuration files, and the administrator's `sudo` dropped: the test is root). One student hands in the reference
solution, the other a catalogued mistake; the grades exported and the feedback fetched are checked."""

from __future__ import annotations

import csv
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_docs import STUDENT_CONFIG, STUDENT_VALIDATE, configured, exchange_steps, guide_exchange_root
from test_install_forms import _pip_settings

from autograder import classroom, registry
from autograder.classroom import apply_edits
from catalogue.mistakes import GATE_CELL, MISTAKES
from gradingkit import MNIST, REPO
from student_notebooks import student_notebook

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox, needs root to make the users

INSTRUCTOR = "kit-x-teacher"
STUDENTS = {"kit-x-alice": None, "kit-x-bob": "linear_dw_transposed"}
"""Each student -> the catalogued mistake they hand in (None: the reference solution)."""
WORK = "dl-notes"
"""The folder in each student's home they work in: nbgrader_config.py, .venv, and mlp/ once fetched."""


def _user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        made = subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", name], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"cannot make the user {name} with useradd: {made.stderr[-300:]}")
        return pwd.getpwnam(name)


def _environment(user: pwd.struct_passwd, path: str) -> dict[str, str]:
    """A login's environment, nothing of root's (no MLP_GRADER_SECRET, no Jupyter folders of root's) but where pip
    finds packages."""
    return {
        **{k: v for k, v in os.environ.items() if k.startswith("PIP_")},
        **_pip_settings(),
        "HOME": user.pw_dir,
        "USER": user.pw_name,
        "LOGNAME": user.pw_name,
        "PATH": path,
        "LANG": "C.UTF-8",
        "MNIST_DIR": str(MNIST),  # absolute: the grader's gate (and a student's training cell) find it anywhere
    }


def _run(user: pwd.struct_passwd, command: str, cwd: Path, path: str) -> subprocess.CompletedProcess:
    """``command`` as printed, in a shell of ``user``'s, as ``runuser -u USER`` would run it."""
    runuser = shutil.which("runuser") or pytest.skip("no runuser (util-linux) to run a command as another user")
    return subprocess.run(
        [runuser, "-u", user.pw_name, "--", "bash", "-c", command],
        cwd=cwd,
        env=_environment(user, path),
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )


def _kit_environment(teacher: pwd.struct_passwd, folder: Path, course: Path) -> Path:
    """The kit installed by the instructor into a venv of their own (the README's set-up, `pip install -e`, on the
    system's Python: this environment's may sit under /root, out of the users' reach), outside the course folder so
    that the students' commands can run it too (standing in for their own set-up of nbgrader, docs/student-guide.md)."""
    system = Path(f"/usr/bin/python3.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"no {system} the users can run (this environment's Python may not be theirs to run)")
    (folder / "kit").mkdir()
    shutil.chown(folder / "kit", teacher.pw_name, teacher.pw_name)
    venv = folder / "kit" / "venv"
    made = _run(teacher, f"{system} -m venv {venv} && {venv}/bin/pip install -q -e {course}", folder, "/usr/bin:/bin")
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    return venv


def _course(folder: Path, root: str) -> Path:
    """The instructor's copy of the repository (the files git tracks), theirs alone, with the exchange at ``root``."""
    course = folder / "course"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (REPO / name).is_file():
            (course / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, course / name)
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text().replace(configured(config, "Exchange.root"), root))
    return course


def _handed_in(mistake: str | None, scratch: Path) -> str:
    """The released notebook with every answer cell written as the solution's (what a student has), and the
    catalogued mistake's edits if any."""
    solved = student_notebook("solved", scratch).read_text()
    return solved if mistake is None else apply_edits(solved, next(m for m in MISTAKES if m.name == mistake).edits)


def _expected_lost(mistake: str | None) -> set[str]:
    """The hidden test cells the submission loses: the mistake's own (the catalogue), and the MNIST gate, since a dW
    of shape (out, in) cannot train MLP(784, 256, 10)."""
    if mistake is None:
        return set()
    return {*next(m for m in MISTAKES if m.name == mistake).must_lose, GATE_CELL}


def _utc(**delta: float) -> str:
    """A time from now, as nbgrader takes a due date."""
    return (datetime.now(UTC) + timedelta(**delta)).strftime("%Y-%m-%d %H:%M:%S UTC")


MANUAL = ("test_linear_forward", 3.0)
"""The cell a TA scores by hand on alice's submission, and the score: formgrader's manual score."""
PER_DAY = 10.0
"""The course's late penalty, per started day."""


def _the_rest_of_the_week(
    teacher: pwd.struct_passwd, students: dict[str, pwd.struct_passwd], course: Path, venv: Path, folder: Path
) -> None:
    """After the first grading: a TA scores one of alice's cells by hand, the due date passes with a penalty per
    day, bob hands in a fix late; the instructor grades before and after collecting it, then feedback and export. The
    totals agree in the grade command's output, the report, the feedback and the export; lateness and the TA's score
    are said; the grade command names bob's uncollected resubmission."""
    path = f"{venv / 'bin'}:/usr/bin:/bin"

    def instructor(command: str) -> str:
        done = _run(teacher, command, course, path)
        assert done.returncode == 0, f"$ {command}\n{done.stdout[-4000:]}{done.stderr[-4000:]}"
        return done.stdout + done.stderr

    config = course / "nbgrader_config.py"
    config.write_text(config.read_text() + f"\nc.LatePenalty.points_per_day = {PER_DAY}\n")
    cell, score = MANUAL
    instructor(  # what formgrader's score box does: the grade's manual score, committed
        'python -c "from nbgrader.api import Gradebook\n'
        "with Gradebook('sqlite:///gradebook.db', 'dl-notes-mlp') as gb:\n"
        f"    g = gb.find_grade('{cell}', 'mlp', 'mlp', 'kit-x-alice'); g.manual_score = {score}; gb.db.commit()\""
    )
    instructor(f'nbgrader db assignment add mlp --duedate="{_utc(seconds=-60)}"')
    bob = students["kit-x-bob"]
    work = Path(bob.pw_dir) / WORK
    (work / classroom.ASSIGNMENT / classroom.NOTEBOOK).write_text(_handed_in(None, folder / "scratch" / "bob-fix"))
    submitted = _run(bob, ".venv/bin/nbgrader submit mlp", work, "/usr/bin:/bin")
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr

    before = instructor("python -m autograder grade mlp --jobs 2")
    assert "kit-x-bob: the exchange holds a submission of mlp" in before and "--update --student kit-x-bob" in before
    instructor("nbgrader collect --update mlp")
    graded = instructor("python -m autograder grade mlp --jobs 2")
    assert "the exchange holds" not in graded, graded
    instructor("nbgrader generate_feedback mlp --force")
    instructor("nbgrader release_feedback mlp")
    instructor("nbgrader export")
    for user in students.values():
        fetched = _run(user, ".venv/bin/nbgrader fetch_feedback mlp", Path(user.pw_dir) / WORK, "/usr/bin:/bin")
        assert fetched.returncode == 0, fetched.stdout + fetched.stderr

    points = registry.check(cell.removeprefix("test_")).points
    expected = {"kit-x-alice": 100.0 - points + score, "kit-x-bob": 100.0 - PER_DAY}
    with (course / "grades.csv").open() as rows:
        exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(rows) if r["assignment"] == "mlp"}
    assert exported == expected, (exported, graded)
    with (course / "reports" / "mlp" / "students.csv").open(encoding="utf-8-sig") as rows:
        reported = {r["student"]: float(r["score"]) for r in csv.DictReader(rows)}
    assert reported == expected, reported
    assert f"kit-x-alice: {cell} {score:g} of {points:g} (automatic {points:g})" in graded, graded
    assert "kit-x-bob: " in graded.split("Late submissions")[1] and f"{PER_DAY:g} point(s) off" in graded, graded
    assert f"{expected['kit-x-bob']:g} of 100" in graded, graded  # the submission's line, after the penalty
    for name, user in students.items():
        newest = max((Path(user.pw_dir) / WORK / classroom.ASSIGNMENT / "feedback").glob("*/mlp.html"))
        html = newest.read_text()
        assert f"mlp (score: {expected[name]:g} / 100)" in html, (name, html[:3000])
        if name == "kit-x-alice":
            assert "Scores your instructor set" in html and "Every check passed" not in html
        else:
            assert "after the due date" in html and f"{PER_DAY:g} points off" in html

    # no student reads another's work, feedback or grades (the student guide's `chmod 700 .`, the course's)
    for reader, owner in ((students["kit-x-bob"], "kit-x-alice"), (students["kit-x-alice"], "kit-x-bob")):
        theirs = Path(students[owner].pw_dir) / WORK / classroom.ASSIGNMENT
        for path in (theirs / classroom.NOTEBOOK, course / "gradebook.db", course / "grades.csv"):
            read = _run(reader, f"head -c 1 '{path}'", Path("/"), "/usr/bin:/bin")
            assert read.returncode != 0, f"{reader.pw_name} can read {path}"
        for folder in (theirs / "feedback", course / "feedback" / owner, course / "submitted" / owner):
            listed = _run(reader, f"ls '{folder}'", Path("/"), "/usr/bin:/bin")
            assert listed.returncode != 0, f"{reader.pw_name} can list {folder}"


def test_the_guides_walk_over_the_exchange_with_an_instructor_and_two_students() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: it makes an instructor and two students (useradd) and runs each one's commands")
    teacher = _user(INSTRUCTOR)
    students = {name: _user(name) for name in STUDENTS}
    for user in (teacher, *students.values()):  # what an earlier run left in their homes
        for left in (".local/share/dl-notes-kit", ".local/share/jupyter/nbgrader_cache", WORK):
            shutil.rmtree(Path(user.pw_dir) / left, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix="kit-exchange-"))
    try:
        folder.chmod(0o755)
        guide_root = guide_exchange_root()
        root = str(folder / guide_root.lstrip("/"))  # the administrator's folder, inside this test's own
        course = _course(folder, root)
        subprocess.run(["chown", "-R", f"{INSTRUCTOR}:", str(course)], check=True)
        course.chmod(0o700)  # the course (solutions, gradebook, the kit) is the instructor's alone
        venv = _kit_environment(teacher, folder, course)
        check = "python -c 'from autograder import sandbox; sandbox.check_available()'"
        usable = _run(teacher, check, course, f"{venv / 'bin'}:/usr/bin:/bin")
        if usable.returncode != 0:  # grading as an ordinary user needs unprivileged user namespaces
            pytest.skip(f"an ordinary user cannot sandbox here: {usable.stdout[-300:]}{usable.stderr[-300:]}")
        for name, user in students.items():  # each student's set-up (docs/student-guide.md), and the handed-out file
            work = Path(user.pw_dir) / WORK
            work.mkdir(mode=0o700)  # the guide's `chmod 700 .`: their work is theirs alone
            (work / ".venv").symlink_to(venv)
            student_config = STUDENT_CONFIG.read_text()
            (work / "nbgrader_config.py").write_text(
                student_config.replace(configured(STUDENT_CONFIG, "Exchange.root"), root)
            )
            subprocess.run(["chown", "-R", f"{name}:", str(work)], check=True)

        ran: list[tuple[str, str, subprocess.CompletedProcess]] = []
        for who, commands in exchange_steps():
            for command in commands:
                command = command.replace(guide_root, root)
                command = re.sub(r'--duedate="[^"]*"', f'--duedate="{_utc(days=1)}"', command)
                if who == "administrator":
                    done = subprocess.run(
                        command.removeprefix("sudo "), shell=True, capture_output=True, text=True, check=False
                    )
                    ran.append((who, command, done))
                    continue
                if who == "instructor":
                    ran.append((who, command, _run(teacher, command, course, f"{venv / 'bin'}:/usr/bin:/bin")))
                    continue
                for name, user in students.items():
                    work = Path(user.pw_dir) / WORK
                    ran.append((name, command, _run(user, command, work, "/usr/bin:/bin")))
                    if " fetch_assignment " in command:  # the student's work, saved over the fetched notebook
                        fetched = ran[-1][2]
                        assert fetched.returncode == 0, f"{name} could not fetch: {fetched.stdout}{fetched.stderr}"
                        notebook = work / classroom.ASSIGNMENT / classroom.NOTEBOOK
                        notebook.write_text(_handed_in(STUDENTS[name], folder / "scratch" / name))
                        shutil.chown(notebook, name, name)

        log = "\n".join(f"[{who}] $ {cmd}\n{done.stdout[-3000:]}{done.stderr[-3000:]}" for who, cmd, done in ran)
        validated = {who: done for who, cmd, done in ran if STUDENT_VALIDATE in cmd}
        failed = [(who, cmd) for who, cmd, done in ran if done.returncode != 0 and validated.get(who) is not done]
        assert not failed, f"{failed}\n{log}"
        warned = [(who, cmd) for who, cmd, done in ran if "No nbgrader_config.py file found" in done.stderr]
        assert not warned, f"{warned}\n{log}"
        alice, bob = validated["kit-x-alice"], validated["kit-x-bob"]
        assert alice.returncode == 0 and "Success!" in alice.stdout, log  # the mistake fails validate: status 1
        assert bob.returncode == 1 and "Success!" not in bob.stdout and "Linear" in bob.stdout, log

        # both students fetched their own feedback, in nbgrader's folder named after the submission's time
        for name, user in students.items():
            fetched = list((Path(user.pw_dir) / WORK / classroom.ASSIGNMENT / "feedback").glob("*/mlp.html"))
            assert len(fetched) == 1 and re.search(r"\d\d:\d\d:\d\d\.\d+ UTC$", fetched[0].parent.name), fetched
            html = fetched[0].read_text()
            mistake = STUDENTS[name]
            if mistake is not None:
                assert next(m.cause for m in MISTAKES if m.name == mistake) in html, html[-2000:]

        # the grades, as exported: 100 for the reference, and exactly the catalogued cells lost for the mistake
        with (course / "grades.csv").open() as rows:
            exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(rows) if r["assignment"] == "mlp"}
        cells = classroom.cell_grades(course)
        for name, mistake in STUDENTS.items():
            lost = {cell for cell, grade in cells[name].items() if grade.score < grade.max_score}
            assert lost == _expected_lost(mistake), (name, lost)
            points = sum(c.points for c in registry.CHECKS if c.cell in _expected_lost(mistake))
            assert exported[name] == 100 - points, (name, exported, log)
        carol = 100.0 - registry.check("linear_backward_dw").points - registry.check("mnist_accuracy").points
        assert exported == {"kit-x-alice": 100.0, "kit-x-bob": carol}, exported  # as the demo's carol (README)
        _the_rest_of_the_week(teacher, students, course, venv, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
