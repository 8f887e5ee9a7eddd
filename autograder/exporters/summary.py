"""The top of the feedback: what to fix first. Read from the verdicts in the graded notebook, in the edition's language.

``top_box`` lists each hidden check that failed with its points, what came, its likely cause (when the evidence names
one) and the formula; the public checks (0 points) that failed are listed apart. ``contents`` replaces nbgrader's list
of "Test cell" links with the checks' names and scores. Their words are the messages ``feedback.*`` of
``autograder.messages`` (imported when called, with the course helpers, ``autograder.course``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nbformat import NotebookNode

from autograder import verdict
from autograder.cell_ids import check_named, grade_id, nbgrader
from autograder.exporters import inline
from autograder.messages import KERNEL_NOTES
from autograder.report.collect import Lateness
from autograder.student_text import student_lines, student_text
from autograder.verdict import Verdict

if TYPE_CHECKING:
    from autograder.course.nn_messages import Text

CLASS = "kit-failed-summary"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class CheckCell:
    """A graded cell of the feedback notebook: a hidden test (with its verdict) or a public check (0 points)."""

    grade_id: str
    points: float
    score: float
    verdict: Verdict | None  # hidden tests only
    error: str | None  # a public check's message as the kernel showed it (in the edition's language), if it failed
    unreadable: bool = False  # a hidden test whose verdict the grader cannot read: the grader's fault

    @property
    def public(self) -> bool:
        return self.verdict is None and not self.unreadable

    @property
    def automatic(self) -> float | None:
        """The score its check gave (all or nothing); None for a public check or a verdict the grader cannot read."""
        return None if self.verdict is None else (self.points if self.verdict.passed else 0.0)

    @property
    def by_hand(self) -> bool:
        """Scored by a person in formgrader: nbgrader counts that score instead of the check's."""
        return self.automatic is not None and self.score != self.automatic

    @property
    def failed(self) -> bool:
        hidden_failed = self.verdict is not None and not self.verdict.passed
        return hidden_failed or self.unreadable or (self.public and self.error is not None)


def _error_of(cell: NotebookNode) -> str | None:
    """A public check's failure as the student saw it: a check's own message (shown alone, in the edition's language),
    or a note of the grading kernel, as its traceback shows them; or the last line of any other error's traceback (the
    exception and its message)."""
    for output in cell.get("outputs", []):
        if output.get("output_type") != "error":
            continue
        if output.get("ename") in ("CheckFailed", *KERNEL_NOTES) and output.get("traceback"):
            return student_lines("\n".join(ANSI.sub("", line) for line in output["traceback"]).strip())
        return student_text(f"{output.get('ename', '')}: {output.get('evalue', '')}".strip(": "))
    return None


def readable(cell: NotebookNode, language: str) -> Verdict | None:
    """The grader's verdict in a hidden test cell (None in any other cell), checked to render in ``language``.

    Raises ``verdict.Unreadable`` for one that is malformed or names a message the catalogue cannot render."""
    result = verdict.read(cell)
    if result is not None:
        try:
            for text in (result.failure, result.note):
                if text is not None:
                    text.render(language)
        except Exception as error:  # noqa: BLE001 - a verdict that cannot be rendered cannot be read
            raise verdict.Unreadable(f"{result.check}: {type(error).__name__}: {error}") from error
    return result


def checks_of(nb: NotebookNode, language: str = "en") -> list[CheckCell]:
    """The graded cells, in notebook order (read before the outputs are rendered for reading)."""
    found = []
    for cell in nb.cells:
        meta = nbgrader(cell)
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution"):
            continue
        points = float(meta.get("points", 0) or 0)
        score = meta.get("score")
        try:
            result = readable(cell, language)
        except verdict.Unreadable:
            found.append(CheckCell(grade_id(cell), points, float(score or 0), None, None, unreadable=True))
            continue
        if score is None:
            score = points if result is None or result.passed else 0.0
        found.append(CheckCell(grade_id(cell), points, float(score), result, None if result else _error_of(cell)))
    return found


PUBLIC_PREFIX = "public_"
"""A public check cell's grade id is this prefix and its part (``public_linear``)."""


def check_title(check: str, language: str) -> str:
    """A check as a student reads it: its title where that is code (``Linear.backward, W.grad``), else its section
    and its name in the points tables, in ``language`` (``MNIST 准确率 ≥ 97 %``); an unknown name as it is."""
    from autograder import registry
    from autograder.course import nn_messages

    found = registry.BY_NAME.get(check)
    if found is None:
        return check
    if found.part not in registry.SECTIONS:
        return found.title
    short = nn_messages.CATALOGUE.get(f"points.short.{found.name}")
    return f"{registry.SECTIONS[found.part]} {short.template(language) if short else found.short}"


def cell_title(grade: str, language: str) -> str:
    """A graded cell's name for the student, never its grade id: a hidden test cell's check, or a public check cell's
    class (``public_linear`` → ``Linear``)."""
    from autograder import registry

    check = check_named(grade)
    if check is not None:
        return check_title(check, language)
    part = grade.removeprefix(PUBLIC_PREFIX)
    return next((c.cls for c in registry.CHECKS if c.part == part), grade)


def _name(cell: CheckCell, language: str) -> str:
    if cell.verdict is not None:
        return check_title(cell.verdict.check, language)
    return cell_title(cell.grade_id, language)


def _link(cell: CheckCell, language: str) -> str:
    return f'<a href="#{html.escape(cell.grade_id)}"><code>{html.escape(_name(cell, language))}</code></a>'


def _failure_item(cell: CheckCell, language: str) -> str:
    from autograder import messages as say
    from autograder.course.nn_messages import is_formula

    failure = cell.verdict.failure if cell.verdict is not None else None
    points = say.FEEDBACK_CELL_POINTS(score=f"{cell.score:g}", points=f"{cell.points:g}", unit=say.FEEDBACK_POINTS)
    points = html.escape(points.render(language))
    parts = [f'{_link(cell, language)} <span class="{inline.CLASS}">{points}</span>']
    if cell.unreadable:
        parts.append(f'<div class="kit-message">{html.escape(say.FEEDBACK_UNREADABLE.render(language))}</div>')
    if failure is not None:
        # the whole message, as the test cell shows it: a raised exception's second line names the student's line
        parts.append(f'<div class="kit-message">{inline.readable(failure.message.render(language).strip())}</div>')
        if failure.cause is not None:
            cause = inline.readable(failure.cause.render(language))
            parts.append(f'<div class="kit-cause">{_label(say.FEEDBACK_CAUSE, language)}{cause}</div>')
        if failure.formula is not None:
            formula = inline.readable(failure.formula.render(language))
            label = say.FEEDBACK_FORMULA if is_formula(failure.formula) else say.FEEDBACK_HINT
            parts.append(f'<div class="kit-formula">{_label(label, language)}{formula}</div>')
    return "<li>" + "".join(parts) + "</li>"


def _label(label: Text, language: str) -> str:
    """``label`` in bold with its colon as ``language`` writes it ("Likely cause: ", "可能的原因："), no space after a
    full-width colon."""
    from autograder import messages as say
    from autograder.course.nn_messages import is_wide

    words = say.FEEDBACK_LABEL(label=label).render(language)
    return f"<b>{html.escape(words)}</b>" + ("" if is_wide(words[-1]) else " ")


def _by_hand_item(cell: CheckCell, language: str) -> str:
    from autograder import messages as say

    points = html.escape(f"({cell.score:g} / {cell.points:g} {say.FEEDBACK_POINTS.render(language)})")
    automatic = say.FEEDBACK_AUTOMATIC(automatic=f"{cell.automatic:g}", points=f"{cell.points:g}").render(language)
    return f'<li>{_link(cell, language)} <span class="{inline.CLASS}">{points}</span>: {html.escape(automatic)}</li>'


def top_box(checks: list[CheckCell], language: str, late: Lateness | None = None) -> str:
    """The box at the top of the feedback (raw HTML for a markdown cell), in ``language``: the checks that failed,
    the scores a person set instead of the checks', the late penalty, the public checks that failed."""
    from autograder import messages as say

    hidden = [c for c in checks if not c.public and c.failed]
    public = [c for c in checks if c.public and c.failed]
    by_hand = [c for c in checks if c.by_hand]
    if not hidden and not public and not by_hand and late is None:
        return f'<div class="{CLASS} kit-all-passed"><b>{say.FEEDBACK_NONE.render(language)}</b></div>'
    total = f"{sum(c.points for c in checks if not c.public):g}"
    lost = f"{sum(c.points - c.score for c in checks if not c.public):g}"
    parts = [f'<div class="{CLASS}">']
    if hidden:
        lost_points = say.FEEDBACK_LOST(lost=lost, total=total)
        heading = say.FEEDBACK_FAILED_COUNT(failed=say.FEEDBACK_FAILED, count=len(hidden), lost=lost_points)
        heading = heading.render(language)
        items = "".join(_failure_item(c, language) for c in hidden)
        parts.append(f"<h3>{heading}</h3><ul>{items}</ul>")
    elif not by_hand:
        parts.append(f"<p><b>{say.FEEDBACK_HIDDEN_PASSED(total=total).render(language)}</b></p>")
    if by_hand:
        items = "".join(_by_hand_item(c, language) for c in by_hand)
        parts.append(f'<h4>{say.FEEDBACK_BY_HAND.render(language)}</h4><ul class="kit-by-hand">{items}</ul>')
    if late is not None:
        text = say.FEEDBACK_LATE(hours=late.hours, penalty=f"{late.penalty:g}").render(language)
        parts.append(f'<p class="kit-late"><b>{html.escape(text)}</b></p>')
    if public:
        items = "".join(
            f'<li>{_link(c, language)}<div class="kit-message">{html.escape(c.error or "")}</div></li>' for c in public
        )
        parts.append(f'<h4>{say.FEEDBACK_PUBLIC.render(language)}</h4><ul class="kit-public">{items}</ul>')
    return "".join(parts) + "</div>"


def held_box(checks: list[CheckCell], language: str, visibility: str) -> str:
    """The top box of feedback released before the due date: what it holds back; with ``passfail``, whether each
    hidden test passed (no points, no message); the public checks that failed, as ``top_box`` lists them."""
    from autograder import messages as say

    held = say.FEEDBACK_HELD_PASSFAIL if visibility == "passfail" else say.FEEDBACK_HELD_PUBLIC
    parts = [f'<div class="{CLASS} kit-held"><p><b>{html.escape(held.render(language))}</b></p>']
    if visibility == "passfail":
        items = "".join(
            f"<li><code>{html.escape(_name(c, language))}</code>: "
            f"{(say.FEEDBACK_HIDDEN_FAIL if c.failed else say.FEEDBACK_HIDDEN_PASS).render(language)}</li>"
            for c in checks
            if not c.public
        )
        parts.append(f'<ul class="kit-pass-fail">{items}</ul>')
    public = top_box([c for c in checks if c.public and c.failed], language)
    if "kit-public" in public:
        parts.append(public[public.index("<h4>") : -len("</div>")])
    return "".join(parts) + "</div>"


def contents(checks: list[CheckCell], language: str) -> str:
    """nbgrader's table of contents, with each hidden test named and the public checks counted on one line, in
    ``language``."""
    from autograder import messages as say

    points = {c.grade_id: say.FEEDBACK_TOC_POINTS(score=f"{c.score:g}", points=f"{c.points:g}") for c in checks}
    items = [f"<li>{_link(c, language)} {points[c.grade_id].render(language)}</li>" for c in checks if not c.public]
    public = [c for c in checks if c.public]
    if public:
        count = say.FEEDBACK_PUBLIC_COUNT(failed=sum(c.failed for c in public), total=len(public)).render(language)
        items.append(f'<li class="kit-public-count">{count}</li>')
    return f'<div id="toc"><b>{say.FEEDBACK_CONTENTS.render(language)}</b><ol>{"".join(items)}</ol></div>'
