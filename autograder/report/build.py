"""The class report of one assignment, from the course folder to files: ``write_report``.

Read the class (``collect``), count its verdicts (``aggregate``), find similar answer cells (``similarity``) and
mark the rare mistakes each pair shares, then write ``report.html`` and the tables into
``<course>/reports/<assignment>/`` (or another folder).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from autograder.report.aggregate import ClassSummary, rare_groups, summarize
from autograder.report.catalogue import load_catalogue
from autograder.report.collect import ClassData, collect
from autograder.report.render_html import render
from autograder.report.similarity import Similarity, SimilaritySettings, answer_code, release_code, similar_pairs
from autograder.report.write_tables import write_tables


def find_similar(data: ClassData, summary: ClassSummary, settings: SimilaritySettings | None = None) -> Similarity:
    """Similar answer cells among the submitted notebooks, each pair with the rare mistakes both made."""
    answers = {s.id: "\n\n".join(answer_code(p) for p in s.submitted) for s in data.students if s.submitted}
    given = "\n\n".join(release_code(p) for p in data.release_notebooks())
    similarity = similar_pairs(answers, given, settings)
    rare = rare_groups(summary)
    mistakes: dict[str, set[str]] = {}
    for key, group in rare.items():
        for student in group.students:
            mistakes.setdefault(student, set()).add(key)
    for pair in similarity.pairs:
        pair.shared = sorted(mistakes.get(pair.first, set()) & mistakes.get(pair.second, set()))
    similarity.pairs.sort(key=lambda p: (-len(p.shared), -p.score, -p.tokens, p.first, p.second))
    return similarity


def write_report(
    course: Path,
    assignment: str,
    folder: Path | None = None,
    notebooks: list[str] | None = None,
    similar: bool = True,
    settings: SimilaritySettings | None = None,
) -> tuple[Path, ClassSummary, Similarity]:
    """Write the report of ``assignment`` (HTML, CSV, JSON) into ``folder`` (default
    ``<course>/reports/<assignment>/``); return its HTML file, the summary and the similar pairs."""
    data = collect(course, assignment, notebooks)
    summary = summarize(data, load_catalogue(data.release))
    similarity = find_similar(data, summary, settings) if similar else Similarity([], 0, 0, searched=False)
    folder = (folder or data.course / "reports" / assignment).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    html = folder / "report.html"
    html.write_text(render(summary, similarity, folder), encoding="utf-8")
    write_tables(summary, similarity, folder)
    return html, summary, similarity


def report_after_grading(course: Path, assignment: str, out: Any = None) -> tuple[Path, ClassSummary] | None:
    """For the end of a grading run: write the class report; return its HTML file and the summary the terminal shows
    (``autograder.grading.summary``), or None, saying why, if it could not be written: that stops nothing."""
    try:
        html, summary, _ = write_report(course, assignment)
    except Exception as error:  # noqa: BLE001 - the report is a courtesy: grading is done whatever it meets
        print(f"(No class report: {type(error).__name__}: {error})", file=out or sys.stdout, flush=True)
        return None
    return html, summary
