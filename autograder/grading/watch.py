"""Feedback minutes after a student submits: the loop of ``python -m autograder watch``.

Every ``Watch.poll_seconds`` it lists the exchange's inbound through the course's exchange classes
(``resubmissions.uncollected``, as ``nbgrader list --inbound``) and journals each new submission (``watch_queue``).
Then, holding the course's grading lock (``course_lock``), for up to ``--jobs`` students picked fairly: collect each
one's latest submission (``watch_exchange.collect``), grade them with the grade command's own pipeline
(``class_run.grade_class``, sandbox, retries, feedback and all), and release each one's feedback; a submission it
could not grade gets a note instead. A student over ``Watch.graded_per_hour`` gets a note saying when theirs will be
graded. Before the due date the feedback shows what ``Watch.before_due`` says; once it has passed, the full feedback
of every submission released with less is released again. Every ``Watch.report_minutes`` the class report is written
again. One status line per event; the grade command's own output goes to ``<graded_dir>/watch/grading.log``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from traitlets import Enum, Float, Integer
from traitlets.config import LoggingConfigurable

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading import course_lock, privacy, watch_exchange
from autograder.grading.class_run import grade_class
from autograder.grading.resubmissions import uncollected
from autograder.grading.submissions import shown
from autograder.grading.watch_queue import Entry, Journal, free_at, next_up
from autograder.settings import CoursePaths, load_course_config
from autograder.student_text import student_lines


class Watch(LoggingConfigurable):
    """What ``python -m autograder watch`` shows students before the due date, how often it looks and grades."""

    before_due = Enum(
        ("public", "passfail", "full"),
        "public",
        help="What a student's feedback shows before the due date (after it: full, released again to everyone "
        "who got less): public (their public checks only: the hidden tests' results and the score come after "
        "the due date, as Gradescope's 'after due date' visibility of hidden tests), passfail (whether each hidden "
        "test passed, without points or messages), full (everything, as after the due date). Without a due date "
        "in the gradebook: full.",
    ).tag(config=True)
    poll_seconds = Float(
        5.0, min=0.5, help="Seconds between two looks at the exchange's inbound for new submissions."
    ).tag(config=True)
    graded_per_hour = Integer(
        6,
        min=0,
        help="Submissions of one student graded in any hour at most; a later one waits (the student is told "
        "until when) and is graded then. 0: no limit.",
    ).tag(config=True)
    report_minutes = Float(
        5.0, min=0.0, help="Minutes between two writings of the class report while submissions are being graded."
    ).tag(config=True)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)  # nbgrader's times: naive UTC


class Watcher:
    """One course's watcher: its journal, its settings, and the steps of one round."""

    def __init__(self, course: Path, assignment: str, notebook: str, jobs: int, out: Any = sys.stdout) -> None:
        self.config = load_course_config(course)
        self.paths, self.watch = CoursePaths(self.config), Watch(config=self.config)
        self.assignment, self.notebook, self.jobs, self.out = assignment, notebook, max(1, jobs), out
        state = self.paths.graded_dir() / "watch"
        state.mkdir(parents=True, exist_ok=True)
        self.journal = Journal(state / "journal.json")
        self.log = (state / "grading.log").open("a", encoding="utf-8")
        self.env = dict(os.environ)
        self.reported = time.monotonic()
        self.graded_since_report = False
        self.unlisted = False  # the exchange could not be listed last time (said once)

    def run(self, keep_going: Callable[[], bool] = lambda: True) -> None:
        """Watch until stopped (or ``keep_going`` says no). Raises ``privacy.CourseExposed``, or
        ``course_lock.WatcherRunning`` if another watcher holds the course."""
        exposed = privacy.exposed(self.paths)
        if exposed is not None:
            raise privacy.CourseExposed(exposed)
        lock = course_lock.watcher(self.paths.graded_dir())
        try:
            self.say_line("-", "watching", f"{self.assignment} in the exchange, every {self.watch.poll_seconds:g} s")
            for entry in self.journal.open_entries():
                self.say(entry, "queued", "(from before a restart)")
            while keep_going():
                try:
                    self.round()
                except (GraderFault, sandbox.SandboxError):
                    raise  # grading cannot be trusted here: the command says why and stops
                except Exception as error:  # noqa: BLE001 - one round's trouble (a busy gradebook) stops no one
                    self.say_line("-", "ERROR", f"{type(error).__name__}: {shown(str(error))}; trying again")
                    time.sleep(self.watch.poll_seconds)
        finally:
            lock.close()

    def round(self) -> None:
        """Look at the exchange once, grade what may be graded now, tell the held, reveal, report."""
        found_all = uncollected(self.config, self.paths, self.assignment)
        if found_all is None and not self.unlisted:
            self.say_line("-", "WARNING", "cannot list the exchange's inbound (c.Exchange.root, course_id?)")
        self.unlisted = found_all is None
        for found in found_all or ():
            entry = self.journal.add(found.student, found.in_exchange.isoformat())
            if entry is not None:
                self.say(entry, "queued")
        ready, held = next_up(self.journal, time.time(), self.watch.graded_per_hour)
        for entry in held:
            if not entry.noted:
                self.hold(entry)
        if ready:
            self.grade(ready[: self.jobs])
        self.reveal()
        if self.graded_since_report and time.monotonic() - self.reported >= self.watch.report_minutes * 60:
            self.report()
        if not ready:
            time.sleep(self.watch.poll_seconds)

    def say_line(self, student: str, event: str, detail: str = "") -> None:
        line = f"{_now():%H:%M:%S} {shown(student):<20} {event:<9} {detail}".rstrip()
        print(student_lines(line, most=3), file=self.out, flush=True)  # a student id is a folder name anyone made

    def say(self, entry: Entry, event: str, detail: str = "") -> None:
        """One status line: the student, the event, the seconds since the submission."""
        since = (_now() - datetime.fromisoformat(entry.submitted)).total_seconds()
        self.say_line(entry.student, event, f"{since:.0f} s after submission {detail}")

    def due(self, student: str) -> datetime | None:
        """The student's due date (the assignment's, plus any extension), None without one."""
        from nbgrader.api import Gradebook, MissingEntry

        duedate, extension = None, None
        with Gradebook(self.paths.db_url(), self.paths.coursedir.course_id) as gradebook:
            try:
                duedate = gradebook.find_assignment(self.assignment).duedate
                extension = gradebook.find_submission(self.assignment, student).extension
            except MissingEntry:
                pass
        return None if duedate is None else duedate + (extension or timedelta(0))

    def visibility(self, student: str) -> str:
        due = self.due(student)
        return "full" if due is None or _now() >= due else self.watch.before_due

    def grade(self, batch: list[Entry]) -> None:
        """Collect, grade and release the batch's submissions, holding the course's grading lock."""
        with course_lock.grading(self.paths.graded_dir(), self.out):
            groups: dict[str, list[Entry]] = {}
            for entry in batch:
                self.journal.mark(entry, "grading", graded_at=entry.graded_at or time.time())
                if watch_exchange.collect(self.paths, self.assignment, entry.student, self.env) is None:
                    self.say(entry, "lost", "(nbgrader collect found no submission; see its log)")
                    self.journal.mark(entry, "failed")
                    continue
                groups.setdefault(self.visibility(entry.student), []).append(entry)
            for visibility, entries in groups.items():
                for entry in entries:
                    self.say(entry, "grading")
                graded = grade_class(
                    self.paths.root,
                    self.assignment,
                    self.notebook,
                    self.jobs,
                    force=False,  # a submission graded before a crash (as it is now) is not graded again
                    students=[e.student for e in entries],
                    out=self.log,
                    visibility=visibility,
                    write_report=False,
                )
                for entry in entries:
                    self.finish(entry, graded.get(entry.student), visibility)
        self.graded_since_report = True

    def finish(self, entry: Entry, graded: bool | None, visibility: str) -> None:
        """Release the graded submission's feedback, or a note saying it could not be graded; journal it."""
        if graded is None:  # graded already, as it is now, before the watcher was killed: its feedback, then release
            from autograder.grading.autograde import feedback_one

            graded = feedback_one(self.paths, self.assignment, entry.student, self.env, visibility) is None
        if not graded:
            from autograder import messages as say

            text = say.WATCH_NOT_GRADED(submitted=entry.submitted).render(self.language())
            watch_exchange.note(self.paths, self.assignment, self.notebook, entry.student, text)
        released = watch_exchange.release(self.paths, self.assignment, entry.student, self.env)
        self.journal.mark(entry, "released" if graded else "failed", visibility=visibility)
        event = ("released" if released else "UNRELEASED") if graded else "NOT GRADED"
        self.say(entry, event, f"({visibility})" if graded else "(a note released; see grading.log)")

    def language(self) -> str:
        return watch_exchange.language(self.paths, self.assignment)

    def hold(self, entry: Entry) -> None:
        """Tell a student over the rate limit when their submission will be graded."""
        from autograder import messages as say

        when = free_at(self.journal, entry.student, time.time(), self.watch.graded_per_hour)
        at = f"{datetime.fromtimestamp(when, UTC):%H:%M} UTC"
        text = say.WATCH_HELD(submitted=entry.submitted, limit=self.watch.graded_per_hour, when=at)
        with course_lock.grading(self.paths.graded_dir(), self.out):
            if watch_exchange.collect(self.paths, self.assignment, entry.student, self.env) is not None:
                watch_exchange.note(
                    self.paths, self.assignment, self.notebook, entry.student, text.render(self.language())
                )
                watch_exchange.release(self.paths, self.assignment, entry.student, self.env)
        self.journal.mark(entry, entry.state, noted=True)
        self.say(entry, "held", f"(over {self.watch.graded_per_hour} an hour: graded at {at})")

    def reveal(self) -> None:
        """Once a student's due date has passed, their latest feedback released with less than everything again,
        in full."""
        from autograder.grading.autograde import feedback_one

        latest: dict[str, Entry] = {}
        for entry in sorted(self.journal.entries.values(), key=lambda e: e.submitted):
            latest[entry.student] = entry
        for entry in latest.values():
            if (
                entry.state != "released"
                or entry.visibility in ("", "full")
                or self.visibility(entry.student) != "full"
            ):
                continue
            with course_lock.grading(self.paths.graded_dir(), self.out):
                why = feedback_one(self.paths, self.assignment, entry.student, self.env, "full")
                done = why is None and watch_exchange.release(self.paths, self.assignment, entry.student, self.env)
            self.journal.mark(entry, "released", visibility="full")  # tried once: a failure is said, not retried
            self.say(entry, "released" if done else "UNRELEASED", "(full: the due date has passed)")

    def report(self) -> None:
        from autograder.report.build import report_after_grading

        if report_after_grading(self.paths.root, self.assignment, self.log) is not None:
            self.say_line("-", "report", f"written: {self.paths.root / 'reports' / self.assignment}")
        self.reported, self.graded_since_report = time.monotonic(), False
