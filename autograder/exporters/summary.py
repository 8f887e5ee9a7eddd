"""The top of the feedback: what to fix first. Read from the verdicts in the graded notebook, in the edition's language.

``top_box`` lists each hidden check that failed with its points, what came, its likely cause (when the evidence names
one) and the formula; the public checks (0 points) that failed are listed apart. ``contents`` replaces nbgrader's list
of "Test cell" links with the checks' names and scores.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from nbformat import NotebookNode

from autograder import verdict
from autograder.verdict import Verdict

CLASS = "kit-failed-summary"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WORDS = {
    "en": {
        "failed": "Checks that failed",
        "lost": "{lost:g} of {total:g} points lost",
        "none": "Every check passed.",
        "hidden_passed": "Every hidden test passed ({total:g} of {total:g} points).",
        "points": "points",
        "cause": "Likely cause",
        "formula": "The formula",
        "public": "Public checks that failed (0 points: they help you find the mistake)",
        "contents": "Hidden tests",
        "public_count": "Public checks (0 points): {failed} of {total} failed",
    },
    "zh": {
        "failed": "未通过的检查",
        "lost": "共 {total:g} 分，失去 {lost:g} 分",
        "none": "所有检查都通过了。",
        "hidden_passed": "所有隐藏测试都通过了（{total:g} 分中得 {total:g} 分）。",
        "points": "分",
        "cause": "可能的原因",
        "formula": "公式",
        "public": "未通过的公开检查（0 分：它们帮助你找到错误）",
        "contents": "隐藏测试",
        "public_count": "公开检查（0 分）：{total} 项中有 {failed} 项未通过",
    },
}


def words(language: str) -> dict[str, str]:
    return WORDS.get(language, WORDS["en"])


@dataclass(frozen=True)
class CheckCell:
    """A graded cell of the feedback notebook: a hidden test (with its verdict) or a public check (0 points)."""

    grade_id: str
    points: float
    score: float
    verdict: Verdict | None  # hidden tests only
    error: str | None  # a public check's message as the kernel showed it (in the edition's language), if it failed

    @property
    def public(self) -> bool:
        return self.verdict is None

    @property
    def failed(self) -> bool:
        return (self.verdict is not None and not self.verdict.passed) or (self.public and self.error is not None)


def _error_of(cell: NotebookNode) -> str | None:
    """A public check's failure as the student saw it: a check's own message (shown alone, in the edition's language),
    or the last line of any other error's traceback (the exception and its message)."""
    for output in cell.get("outputs", []):
        if output.get("output_type") != "error":
            continue
        if output.get("ename") == "CheckFailed" and output.get("traceback"):
            return "\n".join(ANSI.sub("", line) for line in output["traceback"]).strip()
        return f"{output.get('ename', '')}: {output.get('evalue', '')}".strip(": ")
    return None


def checks_of(nb: NotebookNode) -> list[CheckCell]:
    """The graded cells, in notebook order (read before the outputs are rendered for reading)."""
    found = []
    for cell in nb.cells:
        meta: dict[str, Any] = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        points = float(meta.get("points", 0) or 0)
        result = verdict.read(cell)
        score = meta.get("score")
        if score is None:
            score = points if result is None or result.passed else 0.0
        found.append(CheckCell(meta["grade_id"], points, float(score), result, None if result else _error_of(cell)))
    return found


def _name(cell: CheckCell) -> str:
    return cell.verdict.check if cell.verdict is not None else cell.grade_id


def _link(cell: CheckCell) -> str:
    return f'<a href="#{html.escape(cell.grade_id)}"><code>{html.escape(_name(cell))}</code></a>'


def _failure_item(cell: CheckCell, language: str, say: dict[str, str]) -> str:
    failure = cell.verdict.failure if cell.verdict is not None else None
    parts = [f"{_link(cell)} ({cell.score:g} / {cell.points:g} {say['points']})"]
    if failure is not None:
        first = failure.message.render(language).strip().splitlines()[0]
        parts.append(f'<div class="kit-message">{html.escape(first)}</div>')
        if failure.cause is not None:
            cause = html.escape(failure.cause.render(language))
            parts.append(f'<div class="kit-cause"><b>{say["cause"]}:</b> {cause}</div>')
        if failure.formula is not None:
            formula = html.escape(failure.formula.render(language))
            parts.append(f'<div class="kit-formula"><b>{say["formula"]}:</b> {formula}</div>')
    return "<li>" + "".join(parts) + "</li>"


def top_box(checks: list[CheckCell], language: str, say: dict[str, str]) -> str:
    """The box at the top of the feedback (raw HTML for a markdown cell)."""
    hidden = [c for c in checks if not c.public and c.failed]
    public = [c for c in checks if c.public and c.failed]
    if not hidden and not public:
        return f'<div class="{CLASS} kit-all-passed"><b>{say["none"]}</b></div>'
    total = sum(c.points for c in checks if not c.public)
    lost = sum(c.points - c.score for c in checks if not c.public)
    parts = [f'<div class="{CLASS}">']
    if hidden:
        heading = f"{say['failed']} ({len(hidden)}): {say['lost'].format(lost=lost, total=total)}"
        items = "".join(_failure_item(c, language, say) for c in hidden)
        parts.append(f"<h3>{heading}</h3><ul>{items}</ul>")
    else:
        parts.append(f"<p><b>{say['hidden_passed'].format(total=total)}</b></p>")
    if public:
        items = "".join(
            f'<li>{_link(c)}<div class="kit-message">{html.escape(c.error or "")}</div></li>' for c in public
        )
        parts.append(f'<h4>{say["public"]}</h4><ul class="kit-public">{items}</ul>')
    return "".join(parts) + "</div>"


def contents(checks: list[CheckCell], say: dict[str, str]) -> str:
    """nbgrader's table of contents, with each hidden test named and the public checks counted on one line."""
    items = [f"<li>{_link(c)} ({c.score:g} / {c.points:g})</li>" for c in checks if not c.public]
    public = [c for c in checks if c.public]
    if public:
        count = say["public_count"].format(failed=sum(c.failed for c in public), total=len(public))
        items.append(f'<li class="kit-public-count">{count}</li>')
    return f'<div id="toc"><b>{say["contents"]}</b><ol>{"".join(items)}</ol></div>'
