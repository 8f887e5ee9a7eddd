"""A submission folder as the class run finds it: made gradable before nbgrader sees it, and marked once graded.

``quarantine`` moves every entry that is not a plain file (``refused_files``: links, FIFOs, sockets, devices) out of
the folder: nbgrader would copy what a link points to, the gradebook or the secret, next to the student's code.
``repair`` grades a notebook under another name as the expected one, and the release in place of one that is
missing or cannot be read; each says so in a note at the top of the graded notebook (``add_note``). A marker holding
the submission's fingerprint (``mark_graded``) tells a later run what is graded already (``is_graded``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.helpers import edition_language
from autograder.helpers import use as use_helpers
from autograder.settings import CoursePaths

KINDS = ("symlink", "hard_link", "fifo", "socket", "device", "other")
"""What an entry that is not graded can be (``Refused.kind``): each has its words in ``autograder.messages``."""


@dataclass(frozen=True)
class Refused:
    """An entry of a submission folder that is not graded: not a folder, nor a regular file with a single link."""

    path: str  # relative to the submission folder
    kind: str  # what it is: one of ``KINDS``
    target: str = ""  # where a symbolic link points (for the instructor's log only)


def refused_files(folder: Path) -> list[Refused]:
    """Every entry under ``folder`` that is not a folder or a regular file with one link; nothing is followed."""
    found: list[Refused] = []

    def walk(directory: Path) -> None:
        with os.scandir(directory) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = Path(entry.path)
                info = entry.stat(follow_symlinks=False)
                relative = str(path.relative_to(folder))
                if stat.S_ISLNK(info.st_mode):
                    found.append(Refused(relative, "symlink", os.readlink(path)))
                elif stat.S_ISDIR(info.st_mode):
                    walk(path)
                elif not stat.S_ISREG(info.st_mode):
                    found.append(Refused(relative, _special_kind(info.st_mode)))
                elif info.st_nlink > 1:  # the same file is elsewhere too: its content is not the student's to hand in
                    found.append(Refused(relative, "hard_link"))

    if folder.is_symlink():
        return [Refused(".", "symlink", os.readlink(folder))]
    if folder.is_dir():
        walk(folder)
    return found


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "other"


def _messages(paths: CoursePaths, assignment: str) -> tuple[Any, str]:
    """The grader's messages (the release's helpers made importable first) and the edition's language."""
    release = paths.release(assignment)
    use_helpers(release)
    from autograder import messages

    return messages, edition_language(release)


def refusal_note(refused: list[Refused], paths: CoursePaths, assignment: str) -> str:
    """What the graded notebook tells the student about the entries taken out of their submission, in the edition's
    language."""
    say, language = _messages(paths, assignment)
    if any(r.path == "." for r in refused):
        return say.NOTE(note=say.NOTE_FOLDER_LINK).render(language)
    kinds = dict(
        zip(
            KINDS,
            (say.KIND_SYMLINK, say.KIND_HARD_LINK, say.KIND_FIFO, say.KIND_SOCKET, say.KIND_DEVICE, say.KIND_OTHER),
            strict=True,
        )
    )
    entries: list[Any] = [say.NOTE_ENTRY(path=r.path, kind=kinds[r.kind]) for r in refused[:20]]
    if len(refused) > 20:
        entries.append(say.NOTE_MORE(count=len(refused) - 20))
    return say.NOTE(note=say.NOTE_REFUSED(entries=entries)).render(language)


def _nbformat():
    import nbformat

    return nbformat


def repair(paths: CoursePaths, assignment: str, student: str, notebook: str) -> str | None:
    """Make the student's submission gradable; return what was done (for the feedback), or None if nothing was."""
    folder = paths.submitted(student, assignment)
    target = folder / notebook
    others = sorted(p for p in folder.glob("*.ipynb") if p.name != notebook)
    say, language = _messages(paths, assignment)
    if not target.exists() and len(others) == 1:
        others[0].rename(target)
        note = say.NOTE(note=say.NOTE_RENAMED(found=repr(others[0].name), expected=repr(notebook))).render(language)
    elif not target.exists():
        note = say.NOTE(note=say.NOTE_MISSING(name=repr(notebook))).render(language)
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
        note = say.NOTE(note=say.NOTE_UNREADABLE(reason=reason, kept=f"{target.name}.unreadable")).render(language)
        return _replace_with_release(paths, assignment, target, note)
    if note:
        add_note(target, note)
    return note


def _replace_with_release(paths: CoursePaths, assignment: str, target: Path, note: str) -> str:
    release = paths.release(assignment) / target.name
    target.write_text(release.read_text())
    add_note(target, note)
    return note


def add_note(path: Path, note: str) -> None:
    """Put ``note`` (words in the edition's language) at the top of the notebook."""
    nbformat = _nbformat()
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(note))
    nbformat.write(nb, path)


def quarantine(paths: CoursePaths, assignment: str, student: str) -> tuple[str, str] | None:
    """Move every link, FIFO, socket and device out of the submission folder (``refused_files``) into
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
    return refusal_note(refused, paths, assignment), f"not graded, not plain files, moved to {aside}: {listed}"


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


def mark_graded(paths: CoursePaths, assignment: str, student: str) -> None:
    """Record that this submission (as it is now) is graded: a later run skips it."""
    marker = _marker(paths, assignment, student)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(_fingerprint(paths, assignment, student))
