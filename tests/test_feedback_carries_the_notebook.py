"""The feedback page says what the notebook says (issue 43): for every submission of the corpus and every catalogued
mistake, each line a lost hidden check shows in the notebook (its message, "in your code:", the likely cause, the
formula) is in the feedback's top box too, in both editions' languages.

Both come from the same failure (``Verdict``), rendered once for the notebook's cell and once for the box; spaces,
HTML tags (code quotes become code tags) and a sentence's closing full stop are the only differences allowed.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import grading  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.exporters import summary  # noqa: E402
from autograder.verdict import Verdict  # noqa: E402
from catalogue.mistakes import MISTAKES  # noqa: E402

SUBMISSIONS = {
    **{f"corpus:{name}": code for name, code in grading.corpus().items()},
    **{f"mistake:{m.name}": grading.catalogue_code(m.edits) for m in MISTAKES},
}


def _cell(check: str, outputs: list[NotebookNode]) -> NotebookNode:
    cell = new_code_cell("...")
    points = registry.check(check).points
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": f"test_{check}", "points": points}
    cell.metadata["nbgrader"]["score"] = 0
    cell.outputs = outputs
    return cell


def _bare(text: str) -> str:
    """``text`` without spaces, code quotes (the box sets code apart by its tags) and a closing full stop: what two
    renderings of one sentence share."""
    return re.sub(r"[\s`]+", "", text).rstrip("。.")


@pytest.mark.parametrize("name", SUBMISSIONS)
def test_every_line_the_notebook_shows_of_a_lost_check_is_in_the_feedbacks_top_box(name: str) -> None:
    lost = grading.failures_of(SUBMISSIONS[name], f"<{name}>", grading.SECRETS[0])  # as tests/pinned_outputs.py
    if not lost:
        pytest.skip("loses no fast check")  # a correct corpus entry: nothing to show
    notebook = new_notebook(cells=[_cell(check, [Verdict.failed(check, f).output()]) for check, f in lost.items()])
    for language in ("en", "zh"):
        box = _bare(html.unescape(re.sub(r"<[^>]+>", "", summary.top_box(summary.checks_of(notebook), language))))
        for check, failure in lost.items():
            missing = [line for line in failure.render(language).splitlines() if _bare(line) not in box]
            assert not missing, f"{check} ({language}): the notebook shows lines the feedback does not: {missing}"
