"""A submission folder as the class run finds it: made gradable before nbgrader sees it, and marked once graded.

``quarantine`` moves every entry that is not a plain file (``refused_files``: links, FIFOs, sockets, devices) out of
the folder: nbgrader would copy what a link points to, the gradebook or the secret, next to the student's code. It
also moves out folders nested deeper than ``MAX_DEPTH`` (or with a path longer than ``MAX_PATH``) and whatever lies
beyond the first ``MAX_ENTRIES`` entries: nbgrader and the standard library copy and walk a folder by recursion, and
one folder nested a thousand deep made every copy of it fail. Every walk here is iterative and follows no link.
``repair`` grades a notebook under another name as the expected one, and the release in place of one that is
missing or cannot be read; each says so in a note at the top of the graded notebook (``add_note``). A marker holding
the submission's fingerprint (``mark_graded``) tells a later run what is graded already (``is_graded``).
"""

from __future__ import annotations

import hashlib
import os
import stat
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.helpers import edition_language
from autograder.settings import CoursePaths

KINDS = ("symlink", "hard_link", "fifo", "socket", "device", "other", "deep", "many")
"""What an entry that is not graded can be (``Refused.kind``): each has its words in ``autograder.messages``."""
SET_ASIDE = ("deep", "many")
"""Kinds that are plain files or folders, set aside only for their shape (the rest are not plain files)."""
MAX_DEPTH = 32
"""Folders a submission may nest; a deeper one is moved out whole (nbgrader's copy recurses once per level)."""
MAX_PATH = 1024
"""Bytes of an entry's path inside the submission; a longer one is moved out (the system's limit is 4096 in all)."""
MAX_ENTRIES = 10_000
"""Entries (files and folders) a submission may hold; those beyond, in breadth-first order, are moved out."""


@dataclass(frozen=True)
class Refused:
    """An entry of a submission folder that is not graded: not a folder, nor a regular file with a single link."""

    path: str  # relative to the submission folder
    kind: str  # what it is: one of ``KINDS``
    target: str = ""  # where a symbolic link points (for the instructor's log only)

    @property
    def shown(self) -> str:
        """The path as a person can read it, whatever bytes its name holds."""
        return shown(self.path)


def shown(name: str) -> str:
    """``name`` (a file name as the system gives it, maybe with bytes that are not UTF-8) safe to print and save."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def refused_files(folder: Path) -> list[Refused]:
    """Every entry under ``folder`` that is not a folder or a regular file with one link, every folder nested too deep,
    and every entry beyond the first ``MAX_ENTRIES``; nothing is followed. Iterative and breadth-first: the notebooks
    at the top are visited first."""
    if folder.is_symlink():
        return [Refused(".", "symlink", os.readlink(folder))]
    if not folder.is_dir():
        return []
    found: list[Refused] = []
    queue: deque[tuple[str, int]] = deque([("", 0)])  # (folder relative to ``folder``, its depth)
    seen = 0
    while queue:
        relative, depth = queue.popleft()
        if seen >= MAX_ENTRIES:
            found.append(Refused(relative, "many"))
            continue
        try:
            with os.scandir(folder / relative if relative else folder) as listing:
                entries = sorted(listing, key=lambda e: (not e.name.endswith(".ipynb"), e.name))
        except OSError:  # a folder that cannot be read cannot be copied either
            found.append(Refused(relative or ".", "other"))
            continue
        for entry in entries:
            path = os.path.join(relative, entry.name)
            seen += 1
            if seen > MAX_ENTRIES:
                found.append(Refused(path, "many"))
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                found.append(Refused(path, "other"))
                continue
            if stat.S_ISLNK(info.st_mode):
                found.append(Refused(path, "symlink", _link_target(folder / path)))
            elif stat.S_ISDIR(info.st_mode):
                if depth + 1 >= MAX_DEPTH or len(os.fsencode(path)) > MAX_PATH:
                    found.append(Refused(path, "deep"))
                else:
                    queue.append((path, depth + 1))
            elif not stat.S_ISREG(info.st_mode):
                found.append(Refused(path, _special_kind(info.st_mode)))
            elif len(os.fsencode(path)) > MAX_PATH:
                found.append(Refused(path, "deep"))
            elif info.st_nlink > 1:  # the same file is elsewhere too: its content is not the student's to hand in
                found.append(Refused(path, "hard_link"))
    return found


def _link_target(path: Path) -> str:
    try:
        return shown(os.readlink(path))
    except OSError:
        return ""


def files_below(folder: Path) -> list[Path]:
    """Every regular file under ``folder``, sorted as ``sorted(folder.rglob("*"))`` sorts them, found iteratively
    without following links (``rglob`` recurses, once per level)."""
    found: list[tuple[str, ...]] = []
    stack: list[tuple[str, ...]] = [()]
    while stack:
        parts = stack.pop()
        try:
            with os.scandir(folder.joinpath(*parts)) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((*parts, entry.name))
                elif entry.is_file(follow_symlinks=False):
                    found.append((*parts, entry.name))
            except OSError:
                continue
    return [folder.joinpath(*parts) for parts in sorted(found)]


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything in it, however deep, following no link. ``shutil.rmtree`` recurses, and a path
    a thousand folders deep is longer than the system accepts: each folder's subfolders are moved up into ``path``
    first (relative to open folders, never by a long path), so at most two folders are open at a time."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
        return
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    root = os.open(path, flags)
    try:
        while entries := _listed(root):
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    os.unlink(entry.name, dir_fd=root)
                    continue
                folder = os.open(entry.name, flags, dir_fd=root)
                try:
                    for inner in _listed(folder):
                        if inner.is_dir(follow_symlinks=False):
                            up = f".kit-removing-{uuid.uuid4().hex}"
                            os.rename(inner.name, up, src_dir_fd=folder, dst_dir_fd=root)
                        else:
                            os.unlink(inner.name, dir_fd=folder)
                finally:
                    os.close(folder)
                os.rmdir(entry.name, dir_fd=root)
    finally:
        os.close(root)
    os.rmdir(path)


def _listed(folder: int) -> list[os.DirEntry]:
    with os.scandir(folder) as listing:
        return list(listing)


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "other"


def _messages(paths: CoursePaths, assignment: str) -> tuple[Any, str]:
    """The grader's messages and the edition's language."""
    release = paths.release(assignment)
    from autograder import messages

    return messages, edition_language(release)


def refusal_note(refused: list[Refused], paths: CoursePaths, assignment: str) -> str:
    """What the graded notebook tells the student about the entries taken out of their submission, in the edition's
    language."""
    say, language = _messages(paths, assignment)
    if any(r.path == "." and r.kind == "symlink" for r in refused):
        return say.NOTE(note=say.NOTE_FOLDER_LINK).render(language)
    words = (say.KIND_SYMLINK, say.KIND_HARD_LINK, say.KIND_FIFO, say.KIND_SOCKET, say.KIND_DEVICE, say.KIND_OTHER)
    kinds = dict(zip(KINDS, (*words, say.KIND_DEEP, say.KIND_MANY), strict=True))
    notes = []
    for note, group in (
        (say.NOTE_REFUSED, [r for r in refused if r.kind not in SET_ASIDE]),
        (say.NOTE_SET_ASIDE, [r for r in refused if r.kind in SET_ASIDE]),
    ):
        if not group:
            continue
        entries: list[Any] = [say.NOTE_ENTRY(path=r.shown, kind=kinds[r.kind]) for r in group[:20]]
        if len(group) > 20:
            entries.append(say.NOTE_MORE(count=len(group) - 20))
        fields = {"depth": MAX_DEPTH, "count": MAX_ENTRIES} if note is say.NOTE_SET_ASIDE else {}
        notes.append(say.NOTE(note=note(entries=entries, **fields)).render(language))
    return "\n\n".join(notes)


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
        if os.path.lexists(target):
            remove_tree(target)  # what an earlier run set aside: it may be the deep folder itself
        try:
            os.rename(source, target)  # the entry itself: a link is moved, never followed
        except OSError:
            if entry.kind in SET_ASIDE:  # a folder on another file system: removed, however deep
                remove_tree(source)
            else:
                os.unlink(source)  # another file system: a link or special file holds nothing of the student's
    if any(entry.path == "." for entry in refused):
        folder.mkdir(exist_ok=True)
    listed = ", ".join(f"{e.shown} ({e.kind}{' to ' + e.target if e.target else ''})" for e in refused[:100])
    if len(refused) > 100:
        listed += f" and {len(refused) - 100} more"
    return refusal_note(refused, paths, assignment), f"not graded, not plain files, moved to {aside}: {listed}"


def _fingerprint(paths: CoursePaths, assignment: str, student: str) -> str:
    digest = hashlib.sha256()
    for path in files_below(paths.submitted(student, assignment)):
        digest.update(os.fsencode(path.name))
        with path.open("rb") as content:
            while chunk := content.read(1 << 20):
                digest.update(chunk)
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
