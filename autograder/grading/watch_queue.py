"""The watcher's journal and queue (``python -m autograder watch``): pure Python, no grading.

Every submission the watcher has seen is one entry, keyed by student and the submission's time in the exchange, in a
JSON file in the course's private state (``<KitGrading.graded_dir>/watch/journal.json``), written atomically after
each step: ``queued`` (seen), ``grading`` (collected, being graded), ``released`` (graded, feedback released),
``failed`` (not graded, a note released if one could be), ``superseded`` (a newer submission of the same student came
first). A submission of an assignment the course does not have is an entry too (``assignment``), never graded. After a
crash (SIGKILL) a restarted watcher finds every entry it had not finished still ``queued`` or ``grading`` and grades
it; one it finished is never graded again, and a submission seen again is not a new entry.

``next_up`` picks what to grade next: only each student's latest unfinished submission, every student's first
submission before anyone's resubmission, older first within each; a student who had ``per_hour`` submissions graded
in the last hour waits (``free_at`` says until when).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

HOUR = 3600.0
OPEN = ("queued", "grading")
"""States of a submission the watcher still owes a grading."""


@dataclass
class Entry:
    """One submission: who, when it was made (ISO time, as the exchange says), and how far the watcher got."""

    student: str
    submitted: str
    state: str = "queued"
    graded_at: float | None = None  # time.time() when its grading started, for the rate limit
    visibility: str = ""  # what its released feedback showed ("full", "public", "passfail")
    noted: bool = False  # the student was told it is held by the rate limit
    tries: int = 0  # collects that did not bring it
    assignment: str = ""  # another assignment's (a note released, never graded); "" the watched one's

    @property
    def key(self) -> str:
        return key(self.student, self.submitted, self.assignment)


def key(student: str, submitted: str, assignment: str = "") -> str:
    """An entry's key: the student, the submission's time, and its assignment unless it is the watched one."""
    return f"{student}@{submitted}" + (f"+{assignment}" if assignment else "")


class Journal:
    """The watcher's entries, on disk after every change (a temporary file renamed over the journal)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, Entry] = {}
        if path.exists():
            for raw in json.loads(path.read_text()):
                entry = Entry(**raw)
                self.entries[entry.key] = entry

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        with temporary.open("w") as out:
            json.dump([asdict(e) for e in self.entries.values()], out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)

    def add(self, student: str, submitted: str, assignment: str = "", state: str = "queued") -> Entry | None:
        """Record a submission seen in the exchange; return its entry if it is new, None if already known."""
        if key(student, submitted, assignment) in self.entries:
            return None
        entry = Entry(student, submitted, state, assignment=assignment)
        self.entries[entry.key] = entry
        self.save()
        return entry

    def watched(self) -> list[Entry]:
        """The entries of the watched assignment, oldest first."""
        return sorted((e for e in self.entries.values() if not e.assignment), key=lambda e: e.submitted)

    def mark(self, entry: Entry, state: str, **changes: object) -> None:
        entry.state = state
        for name, value in changes.items():
            setattr(entry, name, value)
        self.save()

    def open_entries(self) -> list[Entry]:
        """Every submission still owed a grading, each student's latest only; the older ones are superseded."""
        latest: dict[str, Entry] = {}
        for entry in self.watched():
            if entry.state in OPEN:
                if entry.student in latest:
                    self.mark(latest[entry.student], "superseded")
                latest[entry.student] = entry
        return list(latest.values())

    def graded_times(self, student: str) -> list[float]:
        """When each of the student's graded (or grading) submissions started grading."""
        return sorted(e.graded_at for e in self.entries.values() if e.student == student and e.graded_at is not None)

    def has_graded(self, student: str) -> bool:
        """Whether the student had a submission graded before (their next one is a resubmission)."""
        return any(e.state == "released" for e in self.entries.values() if e.student == student)


def free_at(journal: Journal, student: str, now: float, per_hour: int) -> float:
    """When the student may have another submission graded: ``now`` if they had fewer than ``per_hour`` graded in
    the hour before it, else the hour after the oldest of those (``per_hour`` 0: no limit)."""
    recent = [t for t in journal.graded_times(student) if now - t < HOUR]
    if per_hour <= 0 or len(recent) < per_hour:
        return now
    return recent[-per_hour] + HOUR


def next_up(journal: Journal, now: float, per_hour: int) -> tuple[list[Entry], list[Entry]]:
    """What may be graded now, in order (first submissions before resubmissions, older first), and what the rate
    limit holds."""
    ready, held = [], []
    for entry in journal.open_entries():
        (ready if free_at(journal, entry.student, now, per_hour) <= now else held).append(entry)
    ready.sort(key=lambda e: (journal.has_graded(e.student), e.submitted))
    return ready, held
