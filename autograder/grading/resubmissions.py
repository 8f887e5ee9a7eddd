"""Submissions in nbgrader's exchange that the course has not collected: a student's latest submission there, newer
than the one in ``submitted/`` (its ``timestamp.txt``, written by ``nbgrader collect``), or a student never collected.

Read through the course's configured exchange (``c.ExchangeFactory.list``, inbound), as ``nbgrader list --inbound``
does, so it holds for any exchange nbgrader can list, not only the default folder. A course that does not use an
exchange (submissions put in ``submitted/`` by hand, or an exchange this user cannot list) gives ``None``: nothing
to compare with.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange import ExchangeError, ExchangeFactory
from nbgrader.utils import parse_utc
from traitlets.config import Config

from autograder.settings import CoursePaths


@dataclass(frozen=True)
class Uncollected:
    """A student whose latest submission in the exchange is not the one the course would grade."""

    student: str
    in_exchange: datetime
    collected: datetime | None  # the timestamp of the submission in submitted/, None if there is none

    def line(self, assignment: str) -> str:
        """What the instructor reads, with the command that collects it."""
        where = "none was collected" if self.collected is None else f"the collected one is of {self.collected}"
        return (
            f"{self.student}: the exchange holds a submission of {assignment} made {self.in_exchange}, and "
            f"{where}: `nbgrader collect --update --student {self.student} {assignment}` takes it, then grade again."
        )


def in_exchange(config: Config, assignment: str = "*") -> dict[tuple[str, str], datetime] | None:
    """(student, assignment) -> the time of that student's latest submission of it in the exchange (``"*"``: of
    every assignment); None without an exchange this user can list."""
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = assignment
    if not coursedir.course_id:
        return None
    quiet = logging.getLogger("autograder.exchange")
    quiet.disabled = True  # the exchange's own words ("please contact your instructor") are for students
    try:
        lister = ExchangeFactory(config=config).List(
            coursedir=coursedir, authenticator=Authenticator(config=config), config=config, log=quiet
        )
        lister.inbound = True
        found = lister.start()
    except (ExchangeError, OSError):
        return None
    latest: dict[tuple[str, str], datetime] = {}
    for entry in found or ():
        for submission in entry.get("submissions", ()):
            when = parse_utc(submission["timestamp"])
            which = (submission["student_id"], submission["assignment_id"])
            if which not in latest or when > latest[which]:
                latest[which] = when
    return latest


def latest_in_exchange(config: Config, assignment: str) -> dict[str, datetime] | None:
    """student -> the time of their latest submission of ``assignment`` in the exchange; None without an exchange
    this user can list."""
    found = in_exchange(config, assignment)
    return None if found is None else {student: when for (student, of), when in found.items() if of == assignment}


def uncollected(
    config: Config, paths: CoursePaths, assignment: str, latest: dict[str, datetime] | None = None
) -> list[Uncollected] | None:
    """Each student whose latest submission in the exchange (``latest``, else listed now) is newer than their
    collected one, or not collected at all, by student id; None without an exchange to compare with."""
    latest = latest_in_exchange(config, assignment) if latest is None else latest
    if latest is None:
        return None
    found = []
    for student, when in sorted(latest.items()):
        collected = paths.coursedir.get_existing_timestamp(str(paths.submitted(student, assignment)))
        if collected is None or when > collected:
            found.append(Uncollected(student, when, collected))
    return found
