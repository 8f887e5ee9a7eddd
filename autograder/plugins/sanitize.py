"""Preprocessors that keep a broken or noisy submission gradable.

``ForgetUnknownCells`` (before autograding) forgets nbgrader metadata a student
changed, so nbgrader can restore the cells it knows; ``LimitOutputSize``
(after execution) cuts outputs too large for a graded notebook.

nbgrader stops with a KeyError on a cell whose ``grade_id`` it does not know
(a student renamed it). ``ForgetUnknownCells`` turns such a cell into a plain
cell; ``OverwriteCells.add_missing_cells`` then puts the original test cell
back, and an answer cell renamed this way counts as missing (its checks fail
with a message that says so). It runs before ``OverwriteCells``.
"""

from __future__ import annotations

import functools
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder.settings import CoursePaths, KitGrading


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
