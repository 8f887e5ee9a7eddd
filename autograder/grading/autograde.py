"""One submission's ``nbgrader autograde``: run in a process group of its own within a wall-time limit, and why it
left the submission ungraded, if it did.

``autograde_one`` runs it on this machine (``autograder.grading.cluster`` on a Dask worker, with the same
``run_limited`` and ``outcome``); an ``Attempt`` is graded or holds the fault (``autograder.faults``), which the class
run retries or reports, and keeps in the submission's fault record (``keep_record``). ``forget_ungraded`` removes what
nbgrader registered for a submission it could not grade.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.faults import FAULT_RECORD_ENV, Fault
from autograder.grading import nbgrader_process
from autograder.grading.stage import STAGE_RECORD_ENV
from autograder.grading.submissions import mark_graded
from autograder.settings import CoursePaths

STOPPED = "grading of this submission was stopped after"


def stopped(seconds: float) -> Fault:
    """The fault of an autograde that ran ``KitGrading.autograde_seconds`` and was killed (not retried)."""
    return Fault(
        "stopped",
        f"the {STOPPED} {seconds:g} s (c.KitGrading.autograde_seconds), which only a hung grader or an overloaded "
        "machine reaches; it was not retried",
    )


def nbgrader_failed(returncode: int, log: Path) -> Fault:
    """The fault of an autograde that failed without a record of the kit's: nbgrader's own last error, as it
    wrote it, for the person who reads it."""
    text = log.read_text(errors="replace") if log.exists() else ""
    errors = [line.strip() for line in text.splitlines() if "ERROR" in line or "Error:" in line]
    said = errors[-1] if errors else "no error message"
    return Fault("nbgrader", f"nbgrader autograde failed (exit status {returncode}; {said})")


@dataclass(frozen=True)
class Attempt:
    """One autograde of one submission: graded or not (then the fault), how long it took, and its log."""

    fault: Fault | None
    seconds: float
    log: str

    @property
    def graded(self) -> bool:
        return self.fault is None


def log_path(paths: CoursePaths, student: str) -> Path:
    log = paths.graded_dir() / "logs" / f"{student}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    return log


def record_path(paths: CoursePaths, student: str) -> Path:
    """A submission's fault record, beside its log: there only while the submission's last autograde left it
    ungraded (the class report reads it: ``autograder.report.collect.fault_record``)."""
    return log_path(paths, student).with_suffix(".fault.json")


def stage_path(paths: CoursePaths, student: str) -> Path:
    """Where a submission's autograde keeps its current stage while it runs (``autograder.grading.stage``)."""
    return log_path(paths, student).with_suffix(".stage.json")


def submission_score(paths: CoursePaths, assignment: str, student: str) -> tuple[float, float] | None:
    """The gradebook's score of a graded submission after any late penalty (as ``nbgrader export`` counts it) and its
    maximum, or None if it cannot be read."""
    from nbgrader.api import Gradebook

    try:
        with Gradebook(paths.db_url(), paths.coursedir.course_id) as gradebook:
            submission = gradebook.find_submission(assignment, student)
            penalty = float(submission.late_submission_penalty or 0)
            return max(0.0, float(submission.score) - penalty), float(submission.max_score)
    except Exception:  # noqa: BLE001 - the score is shown, not used: a busy or odd gradebook only hides it
        return None


def keep_record(paths: CoursePaths, student: str, fault: Fault | None) -> None:
    """Leave why the submission is ungraded in its fault record, the record the kit's code inside nbgrader writes
    (``Fault.write``), whatever saw the fault (a time limit, nbgrader, the cluster); None (graded): remove it."""
    record = record_path(paths, student)
    if fault is None:
        record.unlink(missing_ok=True)
    else:
        fault.write(record)


def die_with_parent() -> None:
    """In a child, before it runs its command: killed as soon as the thread that started it ends, even by SIGKILL
    (``PR_SET_PDEATHSIG``): a grading killed with its grader (a watcher's restart) is never left writing the
    gradebook beside the next one."""
    import ctypes

    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG


def run_limited(
    command: list[str], cwd: Path, env: dict[str, str], log: Path, seconds: float, preexec_fn: Any = None
) -> int | None:
    """Run ``command`` in a session of its own, its output into ``log``; return its exit status, or None if it ran
    ``seconds`` and was killed, its whole process group with it (the line saying so ends the log). The time the
    machine kept work waiting for a CPU does not count (``pressure``): a busy machine never cuts a grading short."""
    from autograder.grading.pressure import Waiting

    with log.open("w") as out:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=preexec_fn,
        )
        start, machine = time.monotonic(), Waiting()
        try:
            while True:
                try:
                    return process.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    elapsed = time.monotonic() - start
                    if elapsed - min(machine.seconds(), elapsed) > seconds:
                        raise
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its sandboxes die with it (bubblewrap's --die-with-parent)
            process.wait()
            out.write(f"\n{stopped(seconds).detail}\n")  # for the person reading the log
            return None
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise


def autograde_one(paths: CoursePaths, assignment: str, student: str, force: bool, env: dict[str, str]) -> Attempt:
    """``nbgrader autograde`` of one student, within ``KitGrading.autograde_seconds``."""
    log, record, where = log_path(paths, student), record_path(paths, student), stage_path(paths, student)
    record.unlink(missing_ok=True)
    where.unlink(missing_ok=True)
    redo = force or paths.autograded(student, assignment).exists()  # an interrupted run left a partial result
    start = time.perf_counter()
    command = [*nbgrader_process.COMMAND, "autograde", assignment, "--student", student]
    returncode = run_limited(
        [*command, *(["--force"] if redo else [])],
        paths.root,
        {**env, FAULT_RECORD_ENV: str(record), STAGE_RECORD_ENV: str(where)},
        log,
        paths.kit.autograde_seconds,
        preexec_fn=die_with_parent,
    )
    seconds = time.perf_counter() - start
    where.unlink(missing_ok=True)
    fault = outcome(returncode, record, log, paths.kit.autograde_seconds)
    if fault is None and not paths.autograded(student, assignment).exists():
        fault = Fault("nbgrader", "nbgrader autograde ended without writing the autograded notebook")
    if fault is None:
        mark_graded(paths, assignment, student)
    return Attempt(fault, seconds, str(log))


FEEDBACK_SECONDS = 300.0
"""Backstop of one submission's ``nbgrader generate_feedback`` (it runs no student code: seconds, not minutes)."""


def feedback_one(
    paths: CoursePaths, assignment: str, student: str, env: dict[str, str], visibility: str = "full"
) -> str | None:
    """Write a graded submission's feedback HTML from this grading (``nbgrader generate_feedback --force``), showing
    what ``visibility`` lets the student see (``FeedbackExporter.visibility``); return why it could not be, or None.
    An earlier grading's feedback is removed first: none outlives its grade."""
    shutil.rmtree(paths.feedback(student, assignment), ignore_errors=True)
    log = log_path(paths, student).with_suffix(".feedback.log")
    command = [*nbgrader_process.COMMAND, "generate_feedback", assignment, "--student", student, "--force"]
    command += [] if visibility == "full" else [f"--FeedbackExporter.visibility={visibility}"]
    returncode = run_limited(command, paths.root, env, log, FEEDBACK_SECONDS, preexec_fn=die_with_parent)
    if returncode == 0:
        return None
    return f"nbgrader generate_feedback {'ran too long' if returncode is None else 'failed'}, see {log}"


def outcome(returncode: int | None, record: Path, log: Path, limit: float) -> Fault | None:
    """Why an autograde that exited with ``returncode`` (None: killed at ``limit`` seconds) left its submission
    ungraded, or None if it graded it."""
    if returncode is None:
        return stopped(limit)
    if returncode != 0:
        return Fault.read(record) or nbgrader_failed(returncode, log)
    return None


def forget_ungraded(paths: CoursePaths, assignment: str, student: str) -> None:
    """Remove a submission nbgrader registered but could not grade, so no total of 0 stands for it."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(paths.db_url(), paths.coursedir.course_id) as gradebook:
        try:
            submission = gradebook.find_submission(assignment, student)
        except MissingEntry:
            return
        if all(
            grade.auto_score is None and grade.manual_score is None
            for notebook in submission.notebooks
            for grade in notebook.grades
        ):
            gradebook.remove_submission(assignment, student)
