"""nbgrader's preprocessor for the hidden checks: each decided outside the kernel, its verdict in the test cell.

``VerifyOutsideKernel`` runs after the kernel (and before ``SaveAutoGrades``): it prepares the grading once per
process (``autograder.grading.prepare``), has every hidden check probed in sandboxed workers and judged in this process
(``autograder.grading.verify``), and replaces each test cell's outputs (the kernel's stand-in) with the verdict, which
``SaveAutoGrades`` turns into points.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import nbformat
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool

from autograder.cell_ids import check_of
from autograder.faults import GraderFault, recording_faults
from autograder.grading.prepare import prepare_grading
from autograder.grading.verify import answer_cells, control_cells, verify
from autograder.verdict import Verdict


def apply_verdict(cell: NotebookNode, verdict: Verdict, language: str) -> None:
    """Replace the test cell's outputs (the kernel's stand-in) with the verdict, as data and as words in ``language``:
    an error output (it costs the points), or the note of a check that passed."""
    outputs = []
    if verdict.failure is not None:
        text = verdict.failure.render(language)
        outputs.append(
            NotebookNode(
                output_type="error",
                ename="CheckFailed",
                evalue=text,
                traceback=[f"\x1b[0;31mCheckFailed\x1b[0m: {text}"],
            )
        )
    elif verdict.note is not None:
        outputs.append(NotebookNode(output_type="stream", name="stdout", text=verdict.note.render(language) + "\n"))
    cell.outputs = [*outputs, verdict.output()]


class VerifyOutsideKernel(NbGraderPreprocessor):
    """Decide every hidden check outside the kernel, sandboxed; the verdict replaces the test cell's output."""

    enabled = Bool(True, help="Verify outside the kernel (turn off only to debug the kit itself).").tag(config=True)

    @recording_faults
    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        info = resources["nbgrader"]
        # the hidden inputs are the student's own (``inputs.inputs_for``); the control runs on the same ones
        grading = dataclasses.replace(
            prepare_grading(self.config, info["assignment"], self.log), student=str(info["student"])
        )
        self.log.info("Verifying %s outside the kernel", info["student"])
        try:
            verdicts = verify(
                answer_cells(nb), grading, control_cells(self.config, info["assignment"], info["notebook"])
            )
        except OSError as error:
            raise GraderFault(f"the grader's own files failed ({error})") from error
        for cell in nb.cells:
            check = check_of(cell)
            if check in verdicts:
                apply_verdict(cell, verdicts[check], grading.language)
        if not grading.isolated:
            from autograder.messages import NOTE, NOTE_UNSANDBOXED

            note = NOTE(note=NOTE_UNSANDBOXED).render(grading.language)
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(note))
        return nb, resources
