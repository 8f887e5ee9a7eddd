"""The autograded notebook runs and loads nothing of the student's, in any renderer: ``MakeInert``, the last step.

formgrader's manual grading shows ``autograded/<student>/<assignment>/<notebook>.ipynb`` in the instructor's
signed-in browser session with nbconvert's HTML exporter and nbgrader's ``formgrade`` template, unsanitized: a
``text/html`` or ``text/markdown`` output as HTML, an ``application/javascript`` output as a ``<script>``, markdown
cells with their raw HTML and markdown's own ``javascript:`` links, raw cells, image sizes from output metadata into an
unquoted attribute. The page has formgrader's own scripts, so no Content-Security-Policy can help there; the notebook
itself must hold nothing that runs. So every output but the grader's verdicts is kept only as what a page can show
inertly (``autograder.safe_html.stored_output``: HTML and SVG cleaned, script as text, no metadata, no widget), every
markdown cell as ``safe_html.inert_markdown`` leaves it, every raw cell cleaned, and the notebook's widget state
dropped. It runs after ``SaveAutoGrades``, so no grade depends on it; the feedback, made from this notebook, is as
before for a submission without HTML.
"""

from __future__ import annotations

from typing import Any

from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograder import safe_html
from autograder.verdict import is_verdict


class MakeInert(NbGraderPreprocessor):
    """Keep of every cell only what no renderer can run or load: outputs, markdown and raw cells (not the verdicts)."""

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        nb, resources = super().preprocess(nb, resources)
        nb.metadata.pop("widgets", None)  # the HTML exporter writes it into a script element with a widget manager
        return nb, resources

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        if cell.cell_type == "code":
            # DropForgedVerdicts ran before the grader wrote its verdicts: every verdict left is the grader's.
            outputs = cell.get("outputs", [])
            kept = [output if is_verdict(output) else safe_html.stored_output(output) for output in outputs]
            cell.outputs = [output for output in kept if output is not None]
            if len(cell.outputs) < len(outputs):
                dropped = len(outputs) - len(cell.outputs)
                self.log.info("Cell %d: %d output(s) that nothing can show inertly dropped", index, dropped)
        elif cell.cell_type == "markdown":
            cell.source = safe_html.inert_markdown(cell.source)
        elif cell.cell_type == "raw":
            cell.source = safe_html.clean("".join(cell.source) if isinstance(cell.source, list) else cell.source)
        return cell, resources
