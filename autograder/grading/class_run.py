"""Grading a whole class, the pipeline of ``python -m autograder grade``: one ``nbgrader autograde`` per submission.

Before the first student it refuses a course whose private state other users can read (``privacy``: everything it
writes is then out of their reach), resolves and validates what grading needs (the release, the
grading secret, MNIST, the sandbox: ``autograder.grading.prepare``) and stops with the reason if something is
missing. Each submission is
autograded by its own ``nbgrader autograde --student`` process, N at a time, all writing the one gradebook
(``autograder.grading.autograde``). A failure of grading itself (not of the student's code) is retried; if it
persists, that submission is left ungraded (no grade is written; an earlier grade stays), the reason is printed and
kept in its fault record (for the class report; removed once it is graded), and the command exits with status 1:
running it again grades what is left.
A submission that cannot be read (invalid notebook JSON, a renamed or missing
notebook) is set aside and replaced by a note plus the released notebook, so
it is graded (0 where it is broken) with the reason in its feedback. Links,
FIFOs, sockets and devices in a submission folder are moved out of it before
nbgrader starts (``submissions.quarantine``: nbgrader would copy what a link points to,
the gradebook or the secret, next to the student's code), with a note; the
rest is graded. Each autograde has a wall-time limit
(``KitGrading.autograde_seconds``, a backstop: every part inside has its own,
far lower); a submission that reaches it is left ungraded, not retried. A
submission counts as graded once its autograde finished; running the command
again grades only the rest (``--force`` regrades everyone), so an interrupted
run is simply started again.

With a Dask scheduler (``--scheduler tcp://HOST:8786`` or ``c.KitGrading.scheduler``) each submission is one task
on a Dask worker instead (``autograder.grading.cluster``); everything else (retries, what counts as graded, the
gradebook rows) is the same. A progress bar (tqdm) shows done, failed, running and the time left on a terminal, and
where each running submission is (its stage: ``autograder.grading.stage``) and for how long; without a terminal a
timestamped line says so every half minute. Every finished submission prints one line with the same numbers, for
logs, that ends with its score.

``grade_class`` reads in the order it runs: prepare, make the chosen submissions gradable (``make_gradable``), grade
those not graded yet, each with its retries (``ClassRun``), then ``report``: the class report
(``autograder.report``) and, from it, what the terminal shows (``summary``).
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder.faults import Fault, GraderFault
from autograder.grading import course_lock, pressure, privacy
from autograder.grading.autograde import (
    Attempt,
    autograde_one,
    feedback_one,
    forget_ungraded,
    keep_record,
    stage_path,
    submission_score,
)
from autograder.grading.prepare import prepare_grading
from autograder.grading.progress import Progress
from autograder.grading.resubmissions import uncollected
from autograder.grading.stage import Stage
from autograder.grading.submissions import add_note, is_graded, quarantine, repair, shown
from autograder.grading.summary import summary_lines
from autograder.report.build import report_after_grading
from autograder.settings import CoursePaths, KitGrading, load_course_config
from autograder.student_text import student_lines

if TYPE_CHECKING:
    from autograder.grading.cluster import Dispatcher
    from autograder.grading.workers import Grading

RETRY_WAIT = 300.0  # seconds a submission the grader failed may wait for a quieter machine before its next try


def grade_class(
    course: Path,
    assignment: str,
    notebook: str,
    jobs: int,
    force: bool = False,
    students: list[str] | None = None,
    out=sys.stdout,
    scheduler: str | None = None,
    visibility: str = "full",
    write_report: bool = True,
) -> dict[str, bool]:
    """Autograde every (or every listed) submitted student, ``jobs`` at a time; return student -> graded.

    With ``scheduler`` (or ``KitGrading.scheduler``), each submission is a task on that Dask cluster instead.
    Raises ``GraderFault`` or ``sandbox.SandboxError`` before anyone is graded if grading cannot be trusted here,
    ``privacy.CourseExposed`` if other users can read the course's private state. While another grading of the
    course runs (a watcher's, another grade command's) it waits for it (``course_lock.grading``). ``visibility``:
    what the feedback shows (``FeedbackExporter.visibility``); ``write_report``: the class report at the end.
    """
    config = load_course_config(course)
    paths = CoursePaths(config)
    exposed = privacy.exposed(paths)
    if exposed is not None:
        raise privacy.CourseExposed(exposed)
    with course_lock.grading(paths.graded_dir(), out):
        return _grade_class(
            config, paths, assignment, notebook, jobs, force, students, out, scheduler, visibility, write_report
        )


def _grade_class(
    config: Any,
    paths: CoursePaths,
    assignment: str,
    notebook: str,
    jobs: int,
    force: bool,
    students: list[str] | None,
    out: Any,
    scheduler: str | None,
    visibility: str,
    write_report: bool,
) -> dict[str, bool]:
    kit = KitGrading(config=config)
    grading = prepare_grading(config, assignment)
    this_environments_scripts_first()
    require_assignment(paths, assignment)
    scheduler = scheduler or kit.scheduler or None
    _say(out, _what_grading_uses(grading))
    env = {**os.environ, "MNIST_DIR": str(grading.mnist)}  # each nbgrader process reads the folder validated here
    submitted = paths.submitted_students(assignment)
    chosen = [s for s in submitted if not students or s in students]
    missing = sorted(set(students or ()) - set(submitted))
    if missing:
        where = paths.submitted("<student>", assignment)
        _say(out, f"No submission of {assignment} for {', '.join(missing)} (looked for {where}); not graded.")
    for newer in uncollected(config, paths, assignment) or ():
        if not students or newer.student in students:
            _say(out, newer.line(assignment))
    refused = make_gradable(paths, assignment, notebook, chosen, out)
    todo = [s for s in chosen if s not in refused and (force or not _is_graded(paths, assignment, s, notebook))]
    dispatcher = _dispatcher(scheduler, paths, config, grading, assignment, out) if scheduler else None
    attempt: Callable[[str], Attempt]
    if dispatcher is not None:
        attempt, where = dispatcher.autograde, f"on the Dask cluster at {scheduler}"
    else:
        attempt = functools.partial(autograde_one, paths, assignment, force=force, env=env)
        where = f"with {jobs} job(s)"
    _say(out, f"Grading {len(todo)} of {len(chosen)} submissions {where}; {len(chosen) - len(todo)} already graded.")
    run = ClassRun(
        paths, assignment, attempt, kit.grade_attempts, len(todo), out, dispatcher.running if dispatcher else None
    )
    run.feedback = functools.partial(feedback_one, paths, assignment, env=env, visibility=visibility)
    for student, fault in refused.items():
        run.results[student] = False
        run.faults[student] = fault
        run._record(student)
    try:
        # On a cluster every submission is in flight at once (a thread each only waits for its task): Dask queues them
        run.grade_all(todo, min(len(todo), 512) if dispatcher else jobs)
    finally:
        run.progress.close()
        if dispatcher is not None:
            dispatcher.close()
    if write_report:
        report(run, paths, assignment, out)
    return {**run.results, **dict.fromkeys(missing, False)}


def _say(out: Any, text: str) -> None:
    print(student_lines(text, most=100), file=out, flush=True)  # names and faults may carry a student's text


def this_environments_scripts_first() -> None:
    """nbgrader calls its own scripts (alembic) by name: this environment's bin first."""
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


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


def _what_grading_uses(grading: Grading) -> str:
    return (
        f"MNIST: {grading.mnist}\nGrading secret: {grading.secret} (keep it; the same secret regrades identically)\n"
        f"Sandbox: {'bubblewrap' if grading.isolated else 'NONE (KitGrading.sandbox = False)'}"
    )


def make_gradable(
    paths: CoursePaths, assignment: str, notebook: str, students: list[str], out: Any
) -> dict[str, Fault]:
    """Before nbgrader sees them: move what is not a plain file out of each submission, repair its notebook, and say
    so (a line here, a note in the notebook). Return the submissions this failed for, each with why: they are left
    ungraded (graded as they are, a link in one could reach the grader's files); the rest of the class goes on."""
    failed: dict[str, Fault] = {}
    for student in students:
        try:
            _make_gradable(paths, assignment, notebook, student, out)
        except Exception as error:  # noqa: BLE001 - one submission's folder, whatever it holds, stops only itself
            failed[student] = Fault(
                "grader", f"its submission could not be made gradable ({type(error).__name__}: {shown(str(error))})"
            )
            _say(out, f"{shown(student)}: NOT GRADED, {failed[student].detail}")
    return failed


def _make_gradable(paths: CoursePaths, assignment: str, notebook: str, student: str, out: Any) -> None:
    refused = quarantine(paths, assignment, student)
    if refused:
        _say(out, f"{shown(student)}: {refused[1]}")
    note = repair(paths, assignment, student, notebook)
    if note:
        _say(out, f"{shown(student)}: {note}")
    if refused:
        add_note(paths.submitted(student, assignment) / notebook, refused[0])


def _is_graded(paths: CoursePaths, assignment: str, student: str, notebook: str) -> bool:
    """Whether an earlier run graded this submission as it is now; when that cannot be told, it is graded again."""
    try:
        return is_graded(paths, assignment, student=student, notebook=notebook)
    except (OSError, ValueError):
        return False


def _dispatcher(
    scheduler: str, paths: CoursePaths, config: Any, grading: Grading, assignment: str, out: Any
) -> Dispatcher:
    from autograder.grading.cluster import Dispatcher

    dispatcher = Dispatcher(scheduler, paths, config, grading, assignment)
    _say(out, f"Dask scheduler: {scheduler}; {dispatcher.describe()}")
    return dispatcher


class ClassRun:
    """The submissions being graded, from many threads: each tried up to ``attempts`` times, counted as it finishes."""

    def __init__(
        self,
        paths: CoursePaths,
        assignment: str,
        attempt: Callable[[str], Attempt],
        attempts: int,
        total: int,
        out: Any,
        running: Callable[[], int] | None = None,
    ) -> None:
        self.paths, self.assignment, self.attempt, self.attempts = paths, assignment, attempt, attempts
        self.results: dict[str, bool] = {}
        self.faults: dict[str, Fault] = {}
        self.in_flight: set[str] = set()
        self.feedback: Callable[[str], str | None] | None = None  # writes a graded submission's feedback
        self.local = running is None  # graded here, not on a cluster: its stage is in a file here
        self.progress = Progress(total, out, self._in_flight if running is None else running)

    def _in_flight(self) -> int:
        return len(self.in_flight)

    def grade_all(self, students: list[str], threads: int) -> None:
        with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
            list(pool.map(self.grade, students))

    def grade(self, student: str) -> None:
        """Grade one submission, with its retries; an ungraded one is taken out of the gradebook."""
        with self.progress.lock:
            self.in_flight.add(student)
        self.progress.begun(student, stage_path(self.paths, student) if self.local else None)
        try:
            result = self._tries(student)
        except Exception as error:  # noqa: BLE001 - a failure around one submission's autograde stops only it
            result = Attempt(
                Fault("grader", f"its grading failed ({type(error).__name__}: {shown(str(error))})"), 0, ""
            )
        if result.fault is not None:
            self._leave_ungraded(student, result.fault)
        elif self.feedback is not None:  # the report links each student to feedback of this very grading
            self.progress.at(student, Stage("feedback"))
            try:
                why = self.feedback(student)
            except Exception as error:  # noqa: BLE001 - the grade stands; its feedback is said to be missing
                why = f"{type(error).__name__}: {shown(str(error))}"
            if why:
                with self.progress.lock:
                    self.progress.say(f"  {student}: graded, but no feedback was written ({why})")
        self._record(student)
        with self.progress.lock:
            self.in_flight.discard(student)
            self.results[student] = result.graded
        status = "graded" if result.graded else f"NOT GRADED (the grader's fault, not the student's), see {result.log}"
        self.progress.finished(
            student, result.graded, f"{student}: {status} ({result.seconds:.1f} s)", self._score(student, result)
        )

    def _score(self, student: str, result: Attempt) -> str:
        """The score the gradebook holds now, for the submission's line."""
        if not result.graded:
            return "no grade written"
        score = submission_score(self.paths, self.assignment, student)
        return "score unknown (the gradebook could not be read)" if score is None else f"{score[0]:g} of {score[1]:g}"

    def _tries(self, student: str) -> Attempt:
        """Autograde until graded, a fault that is not retried, or the last of ``attempts``; return the last try."""
        for tried in range(1, self.attempts + 1):
            result = self.attempt(student)
            if result.fault is None:
                break
            again = result.fault.retry and tried < self.attempts
            with self.progress.lock:
                self.progress.say(
                    f"  {student}: grading failed ({result.fault.detail}); "
                    + ("trying again once the machine is less busy" if again else "left ungraded")
                )
            if not again:
                break
            pressure.wait_until_quiet(RETRY_WAIT)
        return result

    def _record(self, student: str) -> None:
        """Keep why the submission is ungraded on disk, for the class report; remove that record once it is graded."""
        try:
            keep_record(self.paths, student, self.faults.get(student))
        except OSError as error:  # a full disk: the terminal still says why
            with self.progress.lock:
                self.progress.say(f"  {student}: its fault record could not be written or removed ({error})")

    def _leave_ungraded(self, student: str, fault: Fault) -> None:
        self.faults[student] = fault
        try:
            forget_ungraded(self.paths, self.assignment, student)
        except Exception as error:  # noqa: BLE001 - the gradebook itself may be what failed
            self.faults[student] = Fault(
                fault.kind, f"{fault.detail} (and the gradebook could not be cleaned: {error})"
            )


def report(run: ClassRun, paths: CoursePaths, assignment: str, out: Any) -> None:
    """Who was not graded and why; the class report written, and what the class's grading came to; what next."""
    failed = sorted(run.faults)
    _say(
        out,
        f"Done in {time.perf_counter() - run.progress.started:.0f} s: {len(run.results) - len(failed)} graded, "
        f"{len(failed)} not graded" + (f" ({', '.join(failed)})" if failed else "") + ".",
    )
    for student in failed:
        _say(out, f"  {student}: {run.faults[student].detail}")
    built = report_after_grading(paths.root, assignment, out)  # reports/ASSIGNMENT/: the class, counted once
    if built is not None:
        html, summary = built
        for line in summary_lines(summary, html):
            _say(out, line)
    if failed:
        _say(
            out,
            "No grade was written for them. Fix the cause above, then run the same command again: it grades only "
            "what is left.",
        )
