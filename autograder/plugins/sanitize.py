"""Preprocessors that keep a broken, noisy or hostile submission gradable.

``RefuseLinks`` (first, before autograding) takes out of the graded copy
everything of the submission that is not a plain file: symbolic and hard
links, FIFOs, sockets, devices (``refused_files``); ``ForgetUnknownCells``
forgets nbgrader metadata a student changed, so nbgrader can restore the
cells it knows; ``LimitOutputSize`` (after execution) cuts outputs too large
for a graded notebook.

A link in a submission folder (an unpacked archive can hold one) names a file
of the course, the grader or the system: nbgrader copies what it points to
into ``autograded/`` before any preprocessor runs, and the kernel would run
beside that copy. ``python -m autograder grade`` moves such entries aside
before nbgrader starts (``autograder.cli.grade.quarantine``); for a plain
``nbgrader autograde`` (formgrader's button), ``RefuseLinks`` deletes nbgrader's
copies of them, before the kernel starts, and grades the release in place of
a notebook that is itself a link. Either way the graded notebook names them.

nbgrader stops with a KeyError on a cell whose ``grade_id`` it does not know
(a student renamed it). ``ForgetUnknownCells`` turns such a cell into a plain
cell; ``OverwriteCells.add_missing_cells`` then puts the original test cell
back, and an answer cell renamed this way counts as missing (its checks fail
with a message that says so). It runs before ``OverwriteCells``.
"""

from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.settings import CoursePaths, KitGrading

NOTE = "**Note from the grader.** "
"""How every note put into a graded notebook begins (``autograder.cli.grade`` adds its own the same way)."""


@dataclass(frozen=True)
class Refused:
    """An entry of a submission folder that is not graded: not a folder, nor a regular file with a single link."""

    path: str  # relative to the submission folder
    kind: str  # what it is, for the student: "a symbolic link", "a hard link", "a FIFO", ...
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
                    found.append(Refused(relative, "a symbolic link", os.readlink(path)))
                elif stat.S_ISDIR(info.st_mode):
                    walk(path)
                elif not stat.S_ISREG(info.st_mode):
                    found.append(Refused(relative, _special_kind(info.st_mode)))
                elif info.st_nlink > 1:  # the same file is elsewhere too: its content is not the student's to hand in
                    found.append(Refused(relative, "a hard link"))

    if folder.is_symlink():
        return [Refused(".", "a symbolic link", os.readlink(folder))]
    if folder.is_dir():
        walk(folder)
    return found


def _special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    return "not a regular file"


def refusal_note(refused: list[Refused]) -> str:
    """What the graded notebook tells the student about the entries taken out of their submission."""
    if any(r.path == "." for r in refused):
        return "Your submission folder was a symbolic link, not a folder: nothing in it was graded."
    names = ", ".join(f"`{r.path}` ({r.kind})" for r in refused[:20])
    more = f" and {len(refused) - 20} more" if len(refused) > 20 else ""
    return (
        f"These entries of your submission were not graded, since they are not plain files: {names}{more}. "
        "Submit plain files only (no links, pipes or devices)."
    )


class RefuseLinks(NbGraderPreprocessor):
    """Take every link, FIFO, socket and device of the submission out of the graded copy, and say so in the notebook.

    nbgrader has copied the submission's other files into ``autograded/`` already (a link as the file it points
    to) when this runs: those copies are deleted here, before the kernel starts, except where nbgrader put the
    master version from ``source/``. A notebook that is itself a link is graded as the release.
    """

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        info = resources["nbgrader"]
        paths = CoursePaths(self.config)
        student, assignment = info["student"], info["assignment"]
        refused = refused_files(paths.submitted(student, assignment))
        if not refused:
            return nb, resources
        graded, source = paths.autograded(student, assignment), paths.source(assignment)
        kept = set(self.config.get("Autograde", {}).get("exclude_overwriting", {}).get(assignment, []))
        for entry in refused:
            self.log.warning("Not graded, not a plain file: %s (%s) %s", entry.path, entry.kind, entry.target)
            copy = graded / entry.path
            master = source / entry.path
            if entry.path == "." or (master.is_file() and not master.is_symlink() and entry.path not in kept):
                continue  # nbgrader put the master version there
            if copy.is_dir() and not copy.is_symlink():
                continue  # nbgrader does not copy a linked folder's content
            if os.path.lexists(copy):
                copy.unlink()
        notebook = f"{info['notebook']}.ipynb"
        if any(entry.path in (".", notebook) for entry in refused):
            nb = nbformat.read(paths.release(assignment) / notebook, as_version=4)
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(NOTE + refusal_note(refused)))
        return nb, resources


class ForgetUnknownCells(NbGraderPreprocessor):
    """Drop the nbgrader metadata of cells whose grade_id is not in the source notebook (``CourseDirectory``'s)."""

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        info = resources["nbgrader"]
        master_path = CoursePaths(self.config).source(info["assignment"]) / f"{info['notebook']}.ipynb"
        master = nbformat.read(master_path, as_version=4)
        known = {c.metadata.get("nbgrader", {}).get("grade_id") for c in master.cells} - {None}
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if "nbgrader" in cell.get("metadata", {}) and grade_id not in known:
                self.log.warning("Cell with unknown grade_id %r: graded as a plain cell", grade_id)
                del cell.metadata["nbgrader"]
        return nb, resources


class LimitOutputSize(NbGraderPreprocessor):
    """Cut every output text longer than ``KitGrading.max_output_chars`` (nbgrader's LimitOutput counts lines)."""

    @functools.cached_property
    def _limit(self) -> int:
        return KitGrading(config=self.config).max_output_chars

    def _cut(self, text: str) -> str:
        limit = self._limit
        return text if len(text) <= limit else f"{text[:limit]}\n... output cut: {len(text):,} characters in all ..."

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        for output in cell.get("outputs", []):
            if "text" in output:
                output.text = self._cut("".join(output.text))
            for mime, value in output.get("data", {}).items():
                if isinstance(value, str) or isinstance(value, list):
                    output.data[mime] = self._cut("".join(value))
            if "evalue" in output:
                output.evalue = self._cut(output.evalue)
                output.traceback = [self._cut(line) for line in output.get("traceback", [])]
        return cell, resources
