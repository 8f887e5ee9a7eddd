"""Feedback minutes after a student submits: the loop of ``python -m autograder watch``.

Every ``Watch.poll_seconds`` it lists the exchange's inbound through the course's exchange classes
(``resubmissions.uncollected``, as ``nbgrader list --inbound``) and journals each new submission (``watch_queue``).
Then, holding the course's grading lock (``course_lock``), for up to ``--jobs`` students picked fairly: collect each
one's latest submission (``watch_exchange.collect``), grade them with the grade command's own pipeline
(``class_run.grade_class``, sandbox, retries, feedback and all), and release each one's feedback. Bad input gets a
note released instead, and the watcher goes on: a submission it could not grade, one whose collect came in part (one
that never came is tried again, then given up on), a student not on the roster (``Watch.roster_only``), a submission
of an assignment the course does not have. A student over ``Watch.graded_per_hour`` gets a note saying when theirs
will be graded. Before the due date the feedback shows what ``Watch.before_due`` says; once it has passed, the full
feedback of every submission released with less is released again. Every ``Watch.report_minutes`` the class report is
written again. One status line per event; the grade command's own output, and the exchange's, go to
``<graded_dir>/watch/grading.log``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from traitlets import Bool, Enum, Float, Integer
from traitlets.config import LoggingConfigurable

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading import course_lock, privacy, watch_exchange
from autograder.grading.class_run import grade_class, this_environments_scripts_first
from autograder.grading.resubmissions import in_exchange, uncollected
from autograder.grading.submissions import shown
from autograder.grading.watch_queue import Entry, Journal, free_at, key, next_up
from autograder.settings import CoursePaths, load_course_config
from autograder.student_text import student_lines

COLLECT_TRIES = 3
"""Rounds in which a submission's collect may fail before the watcher gives up on it (it stays in the exchange)."""


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
    roster_only = Bool(
        False,
        help="Grade only the students on the course's roster (the gradebook's students: nbgrader db student import); "
        "anyone else who submits gets a note saying so, and is not graded. False: a student the gradebook does not "
        "know is added and graded, as the grade command does.",
    ).tag(config=True)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)  # nbgrader's times: naive UTC


class Watcher:
    """One course's watcher: its journal, its settings, and the steps of one round."""

    def __init__(
        self, course: Path, assignment: str, notebook: str, jobs: int, out: Any = sys.stdout, scheduler: str = ""
    ) -> None:
        self.config = load_course_config(course)
        self.scheduler = scheduler or None  # a Dask scheduler's address; None: c.KitGrading.scheduler, else here
        self.paths, self.watch = CoursePaths(self.config), Watch(config=self.config)
        self.assignment, self.notebook, self.jobs, self.out = assignment, notebook, max(1, jobs), out
        state = self.paths.graded_dir() / "watch"
        state.mkdir(parents=True, exist_ok=True)
        self.journal = Journal(state / "journal.json")
        self.log = (state / "grading.log").open("a", encoding="utf-8")
        self.exchange_log = logging.getLogger(f"autograder.watch.{id(self)}")  # the exchange's words, into the log
        self.exchange_log.addHandler(logging.StreamHandler(self.log))
        self.exchange_log.propagate = False
        this_environments_scripts_first()  # the gradebook, opened here, may call nbgrader's alembic
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
        listed = in_exchange(self.config)
        if listed is None and not self.unlisted:
            self.say_line("-", "WARNING", "cannot list the exchange's inbound (c.Exchange.root, course_id?)")
        self.unlisted = listed is None
        latest = {student: when for (student, of), when in (listed or {}).items() if of == self.assignment}
        for found in uncollected(self.config, self.paths, self.assignment, latest) or ():
            entry = self.journal.add(found.student, found.in_exchange.isoformat())
            if entry is not None:
                self.say(entry, "queued")
        self.strays({which: when for which, when in (listed or {}).items() if which[1] != self.assignment})
        ready, held = next_up(self.journal, time.time(), self.watch.graded_per_hour)
        for entry in held:
            if not entry.noted:
                self.hold(entry)
        graded = bool(ready) and self.grade(ready[: self.jobs])
        self.reveal()
        if self.graded_since_report and time.monotonic() - self.reported >= self.watch.report_minutes * 60:
            self.report()
        if not graded:
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

    def grade(self, batch: list[Entry]) -> bool:
        """Collect, grade and release the batch's submissions, holding the course's grading lock; whether any was
        graded (a submission that did not come, or whose student is not on the roster, gets a note instead)."""
        from autograder import messages as say

        with course_lock.grading(self.paths.graded_dir(), self.out):
            groups: dict[str, list[Entry]] = {}
            handed: dict[str, list[str]] = {}  # the notebooks each handed in, before grading renames any
            for entry in batch:
                if not self.collected(entry):
                    continue
                handed[entry.student] = watch_exchange.handed_in(self.paths, self.assignment, entry.student)
                if self.watch.roster_only and entry.student not in self.roster():
                    note = say.WATCH_NOT_ON_ROSTER(submitted=entry.submitted, student=entry.student)
                    self.refuse(entry, note, "NOT ON ROSTER")
                    continue
                self.journal.mark(entry, "grading", graded_at=entry.graded_at or time.time())
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
                    scheduler=self.scheduler,
                )
                for entry in entries:
                    self.finish(entry, graded.get(entry.student), visibility, handed[entry.student])
        self.graded_since_report = self.graded_since_report or bool(groups)
        return bool(groups)

    def collected(self, entry: Entry) -> bool:
        """Collect the entry's submission; False if it did not come whole: then a note is released if it came in part
        (its secret with it), it is tried again next round, or after ``COLLECT_TRIES`` given up on, said."""
        from autograder import messages as say

        went = watch_exchange.collect(self.config, self.assignment, entry.student, self.exchange_log)
        have = self.paths.coursedir.get_existing_timestamp(str(self.paths.submitted(entry.student, self.assignment)))
        if went and have is not None and have >= datetime.fromisoformat(entry.submitted):
            return True
        tries = entry.tries + 1
        if have is not None and have.isoformat() == entry.submitted:  # came in part: the student can be told
            self.journal.mark(entry, entry.state, tries=tries)
            self.refuse(entry, say.WATCH_NOT_COLLECTED(submitted=entry.submitted), "NOT COLLECTED")
        elif tries < COLLECT_TRIES:
            self.journal.mark(entry, "queued", tries=tries)
            self.say(entry, "retry", "(the exchange's collect did not bring it; see grading.log)")
        else:
            self.journal.mark(entry, "failed", tries=tries)
            self.say(entry, "LOST", f"(not collected in {tries} tries; still in the exchange; see grading.log)")
        return False

    def tell(self, entry: Entry, message: Any, assignment: str = "") -> bool:
        """Release ``message`` as the student's feedback on their collected submission (of ``assignment``, else the
        watched one); whether it reached the exchange."""
        assignment = assignment or self.assignment
        with course_lock.grading(self.paths.graded_dir(), self.out):
            notebook = self.notebook if assignment == self.assignment else ""
            text = message.render(self.language())
            return watch_exchange.note(
                self.paths, assignment, notebook, entry.student, text, self.language()
            ) and watch_exchange.release(self.config, assignment, entry.student, self.exchange_log)

    def refuse(self, entry: Entry, message: Any, event: str) -> None:
        """Tell the student why this submission is not graded; journal it as done."""
        told = self.tell(entry, message, entry.assignment)
        self.journal.mark(entry, "failed")
        self.say(entry, event, "(a note released)" if told else "(its note could not be released; see grading.log)")

    def strays(self, found: dict[tuple[str, str], datetime]) -> None:
        """Release a note on each new submission of an assignment the course does not have (one it has is not the
        watcher's to grade, and stays untouched)."""
        from autograder import messages as say

        done = {k for k, e in self.journal.entries.items() if e.assignment and e.state == "failed"}
        new = {which: when for which, when in found.items() if key(which[0], when.isoformat(), which[1]) not in done}
        known = self.assignments() if new else set()
        for (student, assignment), when in sorted(new.items()):
            if assignment in known:
                continue
            self.journal.add(student, when.isoformat(), assignment=assignment)  # a kill before its note: noted again
            entry = self.journal.entries[key(student, when.isoformat(), assignment)]
            with course_lock.grading(self.paths.graded_dir(), self.out):
                watch_exchange.collect(self.config, assignment, student, self.exchange_log)
                note = say.WATCH_OTHER_ASSIGNMENT(
                    submitted=entry.submitted, assignment=assignment, expected=self.assignment
                )
                self.refuse(entry, note, "OTHER")

    def roster(self) -> set[str]:
        """The students in the gradebook."""
        from nbgrader.api import Gradebook

        with Gradebook(self.paths.db_url(), self.paths.coursedir.course_id) as gradebook:
            return {student.id for student in gradebook.students}

    def assignments(self) -> set[str]:
        """The assignments in the gradebook."""
        from nbgrader.api import Gradebook

        with Gradebook(self.paths.db_url(), self.paths.coursedir.course_id) as gradebook:
            return {assignment.name for assignment in gradebook.assignments}

    def finish(self, entry: Entry, graded: bool | None, visibility: str, handed: list[str]) -> None:
        """Release the graded submission's feedback (under the name of each notebook ``handed`` in too), or a note
        saying it could not be graded; journal it."""
        if graded is None:  # graded already, as it is now, before the watcher was killed: its feedback, then release
            from autograder.grading.autograde import feedback_one

            graded = feedback_one(self.paths, self.assignment, entry.student, self.env, visibility) is None
        if not graded:
            from autograder import messages as say

            released = self.tell(entry, say.WATCH_NOT_GRADED(submitted=entry.submitted))
        else:
            watch_exchange.also_as(self.paths, self.assignment, self.notebook, entry.student, handed)
            released = watch_exchange.release(self.config, self.assignment, entry.student, self.exchange_log)
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
        note = say.WATCH_HELD(submitted=entry.submitted, limit=self.watch.graded_per_hour, when=at)
        with course_lock.grading(self.paths.graded_dir(), self.out):
            told = watch_exchange.collect(self.config, self.assignment, entry.student, self.exchange_log) and self.tell(
                entry, note
            )
        self.journal.mark(entry, entry.state, noted=True)
        detail = "" if told else "; its note could not be released, see grading.log"
        self.say(entry, "held", f"(over {self.watch.graded_per_hour} an hour: graded at {at}{detail})")

    def reveal(self) -> None:
        """Once a student's due date has passed, their latest feedback released with less than everything again,
        in full."""
        from autograder.grading.autograde import feedback_one

        latest: dict[str, Entry] = {}
        for entry in self.journal.watched():
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
                done = why is None and watch_exchange.release(
                    self.config, self.assignment, entry.student, self.exchange_log
                )
            self.journal.mark(entry, "released", visibility="full")  # tried once: a failure is said, not retried
            self.say(entry, "released" if done else "UNRELEASED", "(full: the due date has passed)")

    def report(self) -> None:
        from autograder.report.build import report_after_grading

        if report_after_grading(self.paths.root, self.assignment, self.log) is not None:
            self.say_line("-", "report", f"written: {self.paths.root / 'reports' / self.assignment}")
        self.reported, self.graded_since_report = time.monotonic(), False
