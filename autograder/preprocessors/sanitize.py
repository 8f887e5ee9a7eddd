"""Preprocessors that keep a broken, noisy or hostile submission gradable.

``RefuseLinks`` (first, before autograding) takes out of the graded copy
everything of the submission that is not a plain file: symbolic and hard
links, FIFOs, sockets, devices (``autograder.grading.submissions.refused_files``);
``ForgetUnknownCells`` forgets nbgrader metadata a student changed, so nbgrader
can restore the cells it knows; ``DropForgedVerdicts`` (just after execution) drops every output a
student's code made with the verdict's media type; ``LimitOutputSize`` (after execution) cuts outputs too large
for a graded notebook.

A link in a submission folder (an unpacked archive can hold one) names a file
of the course, the grader or the system: nbgrader copies what it points to
into ``autograded/`` before any preprocessor runs, and the kernel would run
beside that copy. ``python -m autograder grade`` moves such entries aside
before nbgrader starts (``autograder.grading.submissions.quarantine``); for a plain
``nbgrader autograde`` (formgrader's button), ``RefuseLinks`` deletes nbgrader's
copies of them, before the kernel starts, and grades the release in place of
a notebook that is itself a link. Either way the graded notebook names them.

nbgrader stops with a KeyError on a cell whose ``grade_id`` it does not know
(a student renamed it). ``ForgetUnknownCells`` turns such a cell into a plain
cell; ``OverwriteCells.add_missing_cells`` then puts the original test cell
back, and an answer cell renamed this way counts as missing (its checks fail
with a message that says so). It runs before ``OverwriteCells``.

A student's code can display an output of any media type, the verdict's too (``autograder.verdict.MIME``), in any
cell: left there, a public check's forged verdict would hide its failure in the feedback, and a malformed one would
stop the feedback. The grader writes its verdicts after ``DropForgedVerdicts`` has run, so every verdict in a graded
notebook is the grader's; its readers also read one only in a hidden test cell, for that cell's check.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.cell_ids import grade_id, nbgrader
from autograder.grading.submissions import refusal_note, refused_files
from autograder.helpers import graded_language
from autograder.settings import CoursePaths, KitGrading
from autograder.verdict import is_verdict


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
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(refusal_note(refused, paths, assignment)))
        return nb, resources


class ForgetUnknownCells(NbGraderPreprocessor):
    """Drop the nbgrader metadata of cells whose grade_id is not in the source notebook (``CourseDirectory``'s)."""

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        info = resources["nbgrader"]
        master_path = CoursePaths(self.config).source(info["assignment"]) / f"{info['notebook']}.ipynb"
        master = nbformat.read(master_path, as_version=4)
        known = {grade_id(c) for c in master.cells} - {""}
        for cell in nb.cells:
            if "nbgrader" in cell.get("metadata", {}) and grade_id(cell) not in known:
                said = nbgrader(cell).get("grade_id")  # as the student's notebook has it, for the instructor
                self.log.warning("Cell with unknown grade_id %r: graded as a plain cell", said)
                del cell.metadata["nbgrader"]
        return nb, resources


class DropForgedVerdicts(NbGraderPreprocessor):
    """Drop every output of the verdict's media type the kernel left, in every cell (only the grader writes one)."""

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        outputs = cell.get("outputs", [])
        kept = [output for output in outputs if not is_verdict(output)]
        if len(kept) < len(outputs):
            self.log.warning("Dropped %d output(s) of the verdict's type from cell %d", len(outputs) - len(kept), index)
            cell.outputs = kept
        return cell, resources


class LimitOutputSize(NbGraderPreprocessor):
    """Cut every output text longer than ``KitGrading.max_output_chars`` (nbgrader's LimitOutput counts lines), with a
    note in the edition's language."""

    _language = "en"

    @functools.cached_property
    def _limit(self) -> int:
        return KitGrading(config=self.config).max_output_chars

    def _cut(self, text: str) -> str:
        from autograder import messages as say

        if len(text) <= self._limit:
            return text
        from autograder.grading.cell_limits import grouped

        note = say.OUTPUT_CUT(chars=grouped(len(text), self._language)).render(self._language)
        return f"{text[: self._limit]}\n{note}"

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        self._language = graded_language(self.config, resources)
        return super().preprocess(nb, resources)

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
