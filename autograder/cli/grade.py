"""Grade a whole class in parallel: ``python -m autograder grade [ASSIGNMENT] [--jobs N | --scheduler ADDRESS]
[--force] [--student ID ...]``.

Run it in the course folder, as any user. Before the first student it resolves
and validates what grading needs (the release, the grading secret, MNIST, the
sandbox) and stops with the reason if something is missing. Each submission is
autograded by its own ``nbgrader autograde --student`` process, N at a time,
all writing the one gradebook. A failure of grading itself (not of the
student's code) is retried; if it persists, that submission is left ungraded
(no grade is written; an earlier grade stays), the reason is printed and the
command exits with status 1: running it again grades what is left.
A submission that cannot be read (invalid notebook JSON, a renamed or missing
notebook) is set aside and replaced by a note plus the released notebook, so
it is graded (0 where it is broken) with the reason in its feedback. Links,
FIFOs, sockets and devices in a submission folder are moved out of it before
nbgrader starts (``quarantine``: nbgrader would copy what a link points to,
the gradebook or the secret, next to the student's code), with a note; the
rest is graded. Each autograde has a wall-time limit
(``KitGrading.autograde_seconds``, a backstop: every part inside has its own,
far lower); a submission that reaches it is left ungraded, not retried. A
submission counts as graded once its autograde finished; running the command
again grades only the rest (``--force`` regrades everyone), so an interrupted
run is simply started again.

With a Dask scheduler (``--scheduler tcp://HOST:8786`` or ``c.KitGrading.scheduler``) each submission is one task
on a Dask worker instead (``autograder.cli.cluster``); everything else (retries, what counts as graded, the gradebook
rows) is the same. A progress bar (tqdm) shows done, failed, running and the time left on a terminal; every
finished submission also prints one line with the same numbers, for logs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder import sandbox
from autograder.cli.summary import class_scores, summary_lines
from autograder.faults import FAULT_RECORD_ENV, Fault, GraderFault
from autograder.plugins.sanitize import NOTE, refusal_note, refused_files
from autograder.plugins.verify import prepare_grading, prepared_env
from autograder.settings import CoursePaths, KitGrading, load_course_config


def _nbformat():
    import nbformat

    return nbformat


def repair(paths: CoursePaths, assignment: str, student: str, notebook: str) -> str | None:
    """Make the student's submission gradable; return what was done (for the feedback), or None if nothing was."""
    folder = paths.submitted(student, assignment)
    target = folder / notebook
    others = sorted(p for p in folder.glob("*.ipynb") if p.name != notebook)
    if not target.exists() and len(others) == 1:
        others[0].rename(target)
        note = f"Your notebook was named {others[0].name!r}; it was graded as {notebook!r}."
    elif not target.exists():
        note = (
            f"No notebook {notebook!r} was found in your submission; the unmodified release was graded instead "
            "(0 points)."
        )
        return _replace_with_release(paths, assignment, target, note)
    else:
        note = None
    nbformat = _nbformat()
    try:
        nb = nbformat.read(target, as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # noqa: BLE001 - any unreadable notebook is set aside, whatever the reason
        target.rename(target.with_name(target.name + ".unreadable"))
        reason = f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}"
        return _replace_with_release(
            paths,
            assignment,
            target,
            f"Your notebook could not be read ({reason}); it is kept as "
            f"{target.name}.unreadable and the unmodified release was graded instead (0 points).",
        )
    if note:
        _add_note(target, note)
    return note


def _replace_with_release(paths: CoursePaths, assignment: str, target: Path, note: str) -> str:
    release = paths.release(assignment) / target.name
    target.write_text(release.read_text())
    _add_note(target, note)
    return note


def _add_note(path: Path, note: str) -> None:
    nbformat = _nbformat()
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(NOTE + note))
    nbformat.write(nb, path)


def quarantine(paths: CoursePaths, assignment: str, student: str) -> tuple[str, str] | None:
    """Move every link, FIFO, socket and device out of the submission folder (``sanitize.refused_files``) into
    ``<graded_dir>/refused/<assignment>/<student>/``; return (the note for the student, the line for the log), or
    None if there was none. Run before nbgrader sees the folder: nbgrader copies what a link points to."""
    folder = paths.submitted(student, assignment)
    refused = refused_files(folder)
    if not refused:
        return None
    aside = paths.graded_dir() / "refused" / assignment / student
    for entry in refused:
        source, target = folder / entry.path, aside / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif os.path.lexists(target):
            target.unlink()
        try:
            os.rename(source, target)  # the entry itself: a link is moved, never followed
        except OSError:
            os.unlink(source)  # another file system: a link or special file holds nothing of the student's
    if any(entry.path == "." for entry in refused):
        folder.mkdir()
    listed = ", ".join(f"{e.path} ({e.kind}{' to ' + e.target if e.target else ''})" for e in refused)
    return refusal_note(refused), f"not graded, not plain files, moved to {aside}: {listed}"


def _fingerprint(paths: CoursePaths, assignment: str, student: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths.submitted(student, assignment).rglob("*")):
        if path.is_file() and not path.is_symlink():
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def _marker(paths: CoursePaths, assignment: str, student: str) -> Path:
    return paths.graded_dir() / assignment / student


def is_graded(paths: CoursePaths, assignment: str, student: str, notebook: str) -> bool:
    """Graded by an earlier run, and not resubmitted since."""
    marker = _marker(paths, assignment, student)
    return (
        marker.exists()
        and (paths.autograded(student, assignment) / notebook).exists()
        and marker.read_text() == _fingerprint(paths, assignment, student)
    )


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


def mark_graded(paths: CoursePaths, assignment: str, student: str) -> None:
    """Record that this submission (as it is now) is graded: a later run skips it."""
    marker = _marker(paths, assignment, student)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(_fingerprint(paths, assignment, student))


def run_limited(
    command: list[str], cwd: Path, env: dict[str, str], log: Path, seconds: float, preexec_fn: Any = None
) -> int | None:
    """Run ``command`` in a session of its own, its output into ``log``; return its exit status, or None if it ran
    ``seconds`` and was killed, its whole process group with it (the line saying so ends the log)."""
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
        try:
            return process.wait(timeout=seconds)
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
    log = log_path(paths, student)
    record = log.with_suffix(".fault.json")
    record.unlink(missing_ok=True)
    redo = force or paths.autograded(student, assignment).exists()  # an interrupted run left a partial result
    start = time.perf_counter()
    command = [sys.executable, "-m", "nbgrader", "autograde", assignment, "--student", student]
    returncode = run_limited(
        [*command, *(["--force"] if redo else [])],
        paths.root,
        {**env, FAULT_RECORD_ENV: str(record)},
        log,
        paths.kit.autograde_seconds,
    )
    seconds = time.perf_counter() - start
    fault = outcome(returncode, record, log, paths.kit.autograde_seconds)
    if fault is None and not paths.autograded(student, assignment).exists():
        fault = Fault("nbgrader", "nbgrader autograde ended without writing the autograded notebook")
    if fault is None:
        mark_graded(paths, assignment, student)
    return Attempt(fault, seconds, str(log))


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


class Progress:
    """Done, failed, running and time left: a tqdm bar on a terminal, and the same numbers on each printed line."""

    def __init__(self, total: int, out, running: Callable[[], int]) -> None:
        from tqdm import tqdm  # tqdm: small, no dependencies, keeps the bar below printed lines (tqdm.write)

        self._tqdm, self._out, self._running = tqdm, out, running
        self.total, self.done, self.failed, self.started = total, 0, 0, time.perf_counter()
        self.lock = threading.Lock()
        self.bar = tqdm(
            total=total,
            file=out,
            unit="submission",
            dynamic_ncols=True,
            disable=None,
            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}] {postfix}",
        )

    def left(self) -> str:
        if not self.done or self.done >= self.total:
            return "?" if self.done < self.total else "0 s"
        seconds = (time.perf_counter() - self.started) / self.done * (self.total - self.done)
        return f"{seconds / 60:.1f} min" if seconds >= 120 else f"{seconds:.0f} s"

    def say(self, text: str) -> None:
        self._tqdm.write(text, file=self._out)
        self._out.flush()

    def finished(self, ok: bool, text: str) -> None:
        """One submission finished (graded or not): print its line, move the bar."""
        with self.lock:
            self.done += 1
            self.failed += not ok
            running = self._running()
            self.say(
                f"[{self.done}/{self.total}] {text} ({time.perf_counter() - self.started:.0f} s in all; "
                f"{self.failed} failed, {running} running, about {self.left()} left)"
            )
            self.bar.set_postfix_str(f"failed {self.failed}, running {running}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def require_assignment(paths: CoursePaths, assignment: str) -> None:
    """Stop before anyone is graded if the gradebook does not know the assignment (nbgrader would fail everyone)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(paths.db_url(), paths.coursedir.course_id) as gradebook:
        try:
            gradebook.find_assignment(assignment)
        except MissingEntry:
            raise GraderFault(
                f"the gradebook {paths.db_url().split('@')[-1]} has no assignment {assignment!r}: run `nbgrader "
                f"generate_assignment {assignment}` in {paths.root}, with this db_url, first (it builds the release "
                "and registers the assignment)"
            ) from None


def grade_class(
    course: Path,
    assignment: str,
    notebook: str,
    jobs: int,
    force: bool = False,
    students: list[str] | None = None,
    out=sys.stdout,
    scheduler: str | None = None,
) -> dict[str, bool]:
    """Autograde every (or every listed) submitted student, ``jobs`` at a time; return student -> graded.

    With ``scheduler`` (or ``KitGrading.scheduler``), each submission is a task on that Dask cluster instead.
    Raises ``GraderFault`` or ``sandbox.SandboxError`` before anyone is graded if grading cannot be trusted here.
    """
    config = load_course_config(course)
    paths, kit = CoursePaths(config), KitGrading(config=config)
    grading = prepare_grading(config, assignment)
    # nbgrader calls its own scripts (alembic) by name: this environment's bin first
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    require_assignment(paths, assignment)
    scheduler = scheduler or kit.scheduler or None
    print(
        f"MNIST: {grading.mnist}\nGrading secret: {grading.secret} (keep it; the same secret regrades identically)\n"
        f"Sandbox: {'bubblewrap' if grading.isolated else 'NONE (KitGrading.sandbox = False)'}",
        file=out,
        flush=True,
    )
    env = {**os.environ, "MNIST_DIR": str(grading.mnist), **prepared_env(course, grading, assignment)}
    chosen = [s for s in paths.submitted_students(assignment) if not students or s in students]
    for student in chosen:
        refused = quarantine(paths, assignment, student)
        if refused:
            print(f"{student}: {refused[1]}", file=out, flush=True)
        note = repair(paths, assignment, student, notebook)
        if note:
            print(f"{student}: {note}", file=out, flush=True)
        if refused:
            _add_note(paths.submitted(student, assignment) / notebook, refused[0])
    todo = [s for s in chosen if force or not is_graded(paths, assignment, student=s, notebook=notebook)]
    dispatcher = None
    if scheduler:
        from autograder.cli.cluster import Dispatcher

        dispatcher = Dispatcher(scheduler, paths, config, grading, assignment)
        print(f"Dask scheduler: {scheduler}; {dispatcher.describe()}", file=out, flush=True)
        attempt: Callable[[str], Attempt] = dispatcher.autograde
        where = f"on the Dask cluster at {scheduler}"
    else:

        def attempt(student: str) -> Attempt:
            return autograde_one(paths, assignment, student, force, env)

        where = f"with {jobs} job(s)"
    print(
        f"Grading {len(todo)} of {len(chosen)} submissions {where}; {len(chosen) - len(todo)} already graded.",
        file=out,
        flush=True,
    )
    results: dict[str, bool] = {}
    faults: dict[str, Fault] = {}
    in_flight: set[str] = set()
    progress = Progress(len(todo), out, dispatcher.running if dispatcher else lambda: len(in_flight))

    def run(student: str) -> None:
        with progress.lock:
            in_flight.add(student)
        for tried in range(1, kit.grade_attempts + 1):
            result = attempt(student)
            if result.fault is None:
                break
            again = result.fault.retry and tried < kit.grade_attempts
            with progress.lock:
                progress.say(
                    f"  {student}: grading failed ({result.fault.detail}); "
                    + ("trying again" if again else "left ungraded")
                )
            if not result.fault.retry:
                break
        if result.fault is not None:
            faults[student] = result.fault
            try:
                forget_ungraded(paths, assignment, student)
            except Exception as error:  # noqa: BLE001 - the gradebook itself may be what failed
                faults[student] = Fault(
                    result.fault.kind, f"{result.fault.detail} (and the gradebook could not be cleaned: {error})"
                )
        with progress.lock:
            in_flight.discard(student)
            results[student] = result.graded
        status = "graded" if result.graded else f"NOT GRADED (the grader's fault, not the student's), see {result.log}"
        progress.finished(result.graded, f"{student}: {status} ({result.seconds:.1f} s)")

    started = progress.started
    try:
        # On a cluster every submission is in flight at once (a thread each only waits for its task): Dask queues them
        workers = min(len(todo), 512) if dispatcher else jobs
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            list(pool.map(run, todo))
    finally:
        progress.close()
        if dispatcher is not None:
            dispatcher.close()
    failed = sorted(faults)
    print(
        f"Done in {time.perf_counter() - started:.0f} s: {len(results) - len(failed)} graded, {len(failed)} not graded"
        + (f" ({', '.join(failed)})" if failed else "")
        + ".",
        file=out,
        flush=True,
    )
    for student in failed:
        print(f"  {student}: {faults[student].detail}", file=out, flush=True)
    try:
        scores = class_scores(paths.db_url(), paths.coursedir.course_id, assignment, notebook)
    except Exception as error:  # noqa: BLE001 - the summary is a courtesy: grading is done whatever it meets
        print(f"(No summary: the gradebook could not be read: {error})", file=out, flush=True)
    else:
        for line in summary_lines(scores):
            print(line, file=out, flush=True)
        print(
            f"Feedback: nbgrader generate_feedback {assignment} (then feedback/<student>/{assignment}/); "
            "grades: nbgrader export (grades.csv).",
            file=out,
            flush=True,
        )
    if failed:
        print(
            "No grade was written for them. Fix the cause above, then run the same command again: it grades only "
            "what is left.",
            file=out,
            flush=True,
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", default="mlp")
    parser.add_argument("--notebook", default=None, help="notebook file name (default: ASSIGNMENT.ipynb)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="submissions graded at once (default: the number of cores)",
    )
    parser.add_argument("--force", action="store_true", help="regrade submissions that are graded already")
    parser.add_argument("--student", action="append", help="grade only this student (repeatable)")
    parser.add_argument(
        "--scheduler",
        default=None,
        help="a Dask scheduler's address (tcp://HOST:8786): grade on its "
        "workers, one task per submission (default: c.KitGrading.scheduler, else this machine)",
    )
    args = parser.parse_args(argv)
    try:
        results = grade_class(
            Path.cwd(),
            args.assignment,
            args.notebook or f"{args.assignment}.ipynb",
            max(1, args.jobs),
            args.force,
            args.student,
            scheduler=args.scheduler,
        )
    except (sandbox.SandboxError, GraderFault) as error:
        print(f"Cannot grade, nobody was graded: {error}", file=sys.stderr)
        return 2
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
