"""The watcher's steps through nbgrader's exchange, each one student's, in the watcher's process through the course's
configured exchange classes (``c.ExchangeFactory``: the folder exchange, or any other nbgrader can be given): collect
(as ``nbgrader collect --update --student``), release the feedback (as ``nbgrader release_feedback --student``), and a
short note released as that student's feedback (``note``), which ``nbgrader fetch_feedback`` brings like any other.

A note is released the way nbgrader releases feedback: an HTML file named as a notebook of the submission in the
student's feedback folder, beside the collected submission's ``timestamp.txt`` and ``submission_secret.txt``, whose
hash names it in the exchange; so the student fetches it for the very submission it is about. A student's
``fetch_feedback`` looks for the feedback of each notebook they handed in, so the note is written under each of their
notebooks' names (a submission with no notebook at all can be told nothing through nbgrader).
"""

from __future__ import annotations

import html
import logging
import shutil
from pathlib import Path

from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange import ExchangeFactory
from traitlets.config import Config

from autograder.helpers import edition_language
from autograder.settings import CoursePaths


def step(config: Config, kind: str, assignment: str, student: str, log: logging.Logger, **traits: object) -> bool:
    """Run the exchange's ``kind`` step (``Collect``, ``ReleaseFeedback``) for one student's ``assignment``; return
    whether it went through (its trouble, whatever the exchange raised, is in ``log``)."""
    coursedir = CourseDirectory(config=config)  # this step's own: its assignment and student are set below
    coursedir.assignment_id, coursedir.student_id = assignment, student
    try:
        action = getattr(ExchangeFactory(config=config), kind)(
            coursedir=coursedir, authenticator=Authenticator(config=config), config=config, log=log
        )
        for name, value in traits.items():
            setattr(action, name, value)
        action.start()
    except Exception as error:  # noqa: BLE001 - any exchange's failure is one student's, said and survived
        log.error("%s of %s for %s failed: %s: %s", kind, assignment, student, type(error).__name__, error)
        return False
    return True


def collect(config: Config, assignment: str, student: str, log: logging.Logger) -> bool:
    """The student's latest submission from the exchange into ``submitted/``; whether the exchange said it went."""
    return step(config, "Collect", assignment, student, log, update=True)


def release(config: Config, assignment: str, student: str, log: logging.Logger) -> bool:
    """The student's feedback folder into the exchange, for them alone."""
    return step(config, "ReleaseFeedback", assignment, student, log)


def language(paths: CoursePaths, assignment: str) -> str:
    """The language of the assignment's edition, which a note is written in."""
    return edition_language(paths.release(assignment))


def handed_in(paths: CoursePaths, assignment: str, student: str) -> list[str]:
    """The names (without ``.ipynb``) of the notebooks in the student's collected submission."""
    return sorted(p.stem for p in paths.submitted(student, assignment).glob("*.ipynb"))


def note(paths: CoursePaths, assignment: str, notebook: str, student: str, text: str, lang: str) -> bool:
    """Put ``text`` (already in ``lang``) in the student's feedback folder as the feedback of their collected
    submission, under ``notebook``'s name and each of theirs, in place of any earlier feedback there (which the
    exchange keeps for its own submission); False if there is no collected submission to attach it to."""
    submitted = paths.submitted(student, assignment)
    if not all((submitted / name).is_file() for name in ("timestamp.txt", "submission_secret.txt")):
        return False
    folder = paths.feedback(student, assignment)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in ("timestamp.txt", "submission_secret.txt"):
        shutil.copy(submitted / name, folder / name)
    page = (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(assignment)}</title></head>\n"
        f'<body><p class="kit-watch-note">{html.escape(text)}</p></body></html>\n'
    )
    for name in {*([Path(notebook).stem] if notebook else []), *handed_in(paths, assignment, student)}:
        (folder / f"{name}.html").write_text(page, encoding="utf-8")
    return True


def also_as(paths: CoursePaths, assignment: str, notebook: str, student: str, names: list[str]) -> None:
    """Copy the student's feedback on ``notebook`` under each of ``names`` (the notebooks they handed in: a renamed
    notebook, graded as ``notebook``, is fetched by its own name)."""
    folder = paths.feedback(student, assignment)
    page = folder / f"{Path(notebook).stem}.html"
    for name in names:
        if page.is_file() and name != page.stem:
            shutil.copy(page, folder / f"{name}.html")
