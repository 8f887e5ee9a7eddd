"""The watcher's steps through nbgrader's exchange, each one student's: stock ``nbgrader collect --update --student``
and ``nbgrader release_feedback --student`` (the course's configured exchange classes), and a short note released as
that student's feedback (``note``), which ``nbgrader fetch_feedback`` brings like any other.

A note is released the way nbgrader releases feedback: an HTML file named as the notebook in the student's feedback
folder, beside the collected submission's ``timestamp.txt`` and ``submission_secret.txt``, whose hash names it in the
exchange; so the student fetches it for the very submission it is about.
"""

from __future__ import annotations

import html
import shutil
from datetime import datetime
from pathlib import Path

from autograder.grading import nbgrader_process
from autograder.grading.autograde import FEEDBACK_SECONDS, die_with_parent, log_path, run_limited
from autograder.helpers import edition_language
from autograder.settings import CoursePaths


def nbgrader(paths: CoursePaths, student: str, step: str, args: list[str], env: dict[str, str]) -> bool:
    """Run ``nbgrader ARGS`` for one student in the course folder, its output in the student's ``.<step>.log``;
    return whether it succeeded."""
    log = log_path(paths, student).with_suffix(f".{step}.log")
    command = [*nbgrader_process.COMMAND, *args]
    return run_limited(command, paths.root, env, log, FEEDBACK_SECONDS, preexec_fn=die_with_parent) == 0


def collect(paths: CoursePaths, assignment: str, student: str, env: dict[str, str]) -> datetime | None:
    """The student's latest submission from the exchange into ``submitted/`` (``nbgrader collect --update``); return
    its time, None if there is none to grade."""
    nbgrader(paths, student, "collect", ["collect", "--update", "--student", student, assignment], env)
    return paths.coursedir.get_existing_timestamp(str(paths.submitted(student, assignment)))


def release(paths: CoursePaths, assignment: str, student: str, env: dict[str, str]) -> bool:
    """The student's feedback folder into the exchange, for them alone (``nbgrader release_feedback --student``)."""
    return nbgrader(paths, student, "release", ["release_feedback", assignment, "--student", student], env)


def language(paths: CoursePaths, assignment: str) -> str:
    """The language of the assignment's edition, which a note is written in."""
    return edition_language(paths.release(assignment))


def note(paths: CoursePaths, assignment: str, notebook: str, student: str, text: str) -> None:
    """Put ``text`` (already in the edition's language) in the student's feedback folder as the feedback of their
    collected submission, in place of any earlier feedback there (which the exchange keeps for its own submission)."""
    coursedir = paths.coursedir
    folder = Path(coursedir.format_path(coursedir.feedback_directory, student, assignment))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in ("timestamp.txt", "submission_secret.txt"):
        shutil.copy(paths.submitted(student, assignment) / name, folder / name)
    lang = language(paths, assignment)
    page = (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{html.escape(assignment)}</title></head>\n"
        f'<body><p class="kit-watch-note">{html.escape(text)}</p></body></html>\n'
    )
    (folder / f"{Path(notebook).stem}.html").write_text(page, encoding="utf-8")
