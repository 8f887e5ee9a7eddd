"""The feedback HTML (``nbgrader generate_feedback``): readable offline, failed checks first, in the edition's language.

``autograder.settings.apply`` makes ``FeedbackExporter`` the exporter of ``GenerateFeedback``. Over nbgrader's
feedback template it

* renders every formula of the markdown cells to MathML (``latex2mathml``), which browsers draw themselves, and
  drops the template's MathJax script (loaded from a CDN): the file needs no network and loads nothing;
* lists at the top what to fix (``summary``): each hidden check that failed, linked to its cell, with its points,
  what came, the likely cause and the formula; the public checks that failed apart; names the checks in nbgrader's
  list of cells; sets every failure message apart in place, and draws the markdown tables' rules (CSS);
* shows each hidden test cell without the grader's call (``### BEGIN HIDDEN TESTS``), as the release does;
* renders every hidden check's message from its verdict (``autograder.verdict``, written by the grader) in the
  language of the assignment's edition (``nn_i18n.LANGUAGE`` of its release, read as text); a verdict it cannot read is
  shown as the grader's fault in its cell, and the rest of the feedback is written;
* runs and loads nothing of the student's (``autograder.safe_html``): every output is kept only as what the page can
  show inertly (HTML and SVG cleaned, script shown as text), every markdown cell's HTML is cleaned once rendered,
  and the page carries a Content-Security-Policy with no script and no loads but ``data:`` images.
"""

from __future__ import annotations

import html
import re
import secrets
from typing import Any

from jinja2 import pass_context
from latex2mathml.converter import convert
from nbconvert.exporters import HTMLExporter
from nbformat import NotebookNode
from nbformat.v4 import new_markdown_cell
from traitlets import Enum

from autograder import safe_html, verdict
from autograder.cell_ids import check_named, check_of
from autograder.exporters import inline, summary
from autograder.helpers import graded_language
from autograder.report.collect import Lateness

MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)\$", re.S)
CODE = re.compile(r"(`+)(?:.+?)\1", re.S)
MATHJAX = re.compile(r"\s*<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
HIDDEN_TESTS = "### BEGIN HIDDEN TESTS"
TOC = re.compile(r'<div id="toc">.*?</div>', re.S)
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
"""Bootstrap's icon font, fetched from a folder next to the page that is not there: the page loads nothing."""
CSS = """
div.output_subarea.output_error { background: #fdecea; border-left: 6px solid #c62828; border-radius: 3px;
  padding: 0.5em 0.8em; margin: 0.3em 0; }
div.output_subarea.output_error pre { white-space: pre-wrap; font-size: 15px; line-height: 1.5; color: #1a1a1a;
  background: transparent; border: none; }
div.kit-failed-summary { background: #fff4f2; border: 2px solid #c62828; border-radius: 4px; padding: 0.6em 1em;
  margin-bottom: 1em; }
div.kit-failed-summary.kit-all-passed { background: #eef8ee; border-color: #2e7d32; }
div.kit-failed-summary h3 { margin-top: 0.2em; color: #b71c1c; }
div.kit-failed-summary li { margin: 0.3em 0; }
div.kit-failed-summary .kit-message { font-family: monospace; white-space: pre-wrap; }
div.kit-failed-summary .kit-cause, div.kit-failed-summary .kit-formula { margin-left: 1em; }
div.text_cell_render table { border-collapse: collapse; margin: 0.6em 0; }
div.text_cell_render th, div.text_cell_render td { border: 1px solid #bbb; padding: 0.25em 0.7em; text-align: left; }
math[display="block"] { margin: 0.6em 0; font-size: 1.1em; }
math { font-size: 1.05em; }
body { font-family: -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; }
"""
CSS += inline.CSS
CODE_BACKGROUND = (0xF5, 0xF5, 0xF5)
"""The background nbconvert's template draws code on (#f5f5f5)."""


def _luminance(rgb: tuple[int, ...]) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(rgb: tuple[int, ...], background: tuple[int, ...] = CODE_BACKGROUND) -> float:
    """WCAG 2.1's contrast ratio of two colours."""
    high, low = sorted((_luminance(rgb), _luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_code_colours(style: str = "default") -> str:
    """CSS giving every text colour of the Pygments style nbconvert highlights code in a contrast of at least 4.5:1
    on the code's background (WCAG 2.1 AA): a colour with less is darkened, its hue kept. Any token a cell holds,
    not only those the kit's notebook shows today (an f-string's ``{...}`` was found at 4.47:1)."""
    from pygments.styles import get_style_by_name
    from pygments.token import STANDARD_TYPES

    rules = []
    for token, spec in get_style_by_name(style):
        if not spec["color"] or token not in STANDARD_TYPES:
            continue
        rgb = tuple(int(spec["color"][i : i + 2], 16) for i in (0, 2, 4))
        if contrast(rgb) >= 4.5:
            continue
        while contrast(rgb) < 4.5:
            rgb = tuple(int(c * 0.95) for c in rgb)
        rules.append(f".highlight .{STANDARD_TYPES[token]} {{ color: #{bytes(rgb).hex()}; }}")
    return "\n".join(rules) + "\n"


CSS += """
div.text_cell_render a, div.kit-failed-summary a, #toc a { text-decoration: underline; }
div.nbgrader_cell .panel-heading a, div.nbgrader_cell .panel-heading a:hover { color: #ffffff;
  text-decoration: underline; }
"""
CSS += readable_code_colours()
"""Readable by everyone (WCAG 2.1 AA, ``tests/test_browser.py``): links not told by colour alone, nbgrader's links
under the blue cell heading (its bbbbbb on 337ab7) in white, and every code colour of at least 4.5:1."""


def latex_to_mathml(latex: str, display: bool) -> str:
    """One formula as MathML (with the blackboard-bold one of 1(H > 0), which MathML Core draws only as a character)."""
    mathml = convert(latex.strip(), display="block" if display else "inline")
    return mathml.replace('<mn mathvariant="double-struck">1</mn>', "<mn>&#x1D7D9;</mn>")


def render_math(markdown: str) -> str:
    """Markdown with every ``$...$`` and ``$$...$$`` outside code spans replaced by MathML."""

    def outside_code(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            display = match["display"] is not None
            try:
                return latex_to_mathml(match["display"] if display else match["inline"], display)
            except Exception:  # noqa: BLE001 - a formula the converter cannot read stays as it was
                return match.group(0)

        return MATH.sub(one, text)

    pieces, last = [], 0
    for code in CODE.finditer(markdown):
        pieces += [outside_code(markdown[last : code.start()]), code.group(0)]
        last = code.end()
    return "".join(pieces + [outside_code(markdown[last:])])


def show_verdicts(nb: NotebookNode, language: str) -> None:
    """Each hidden test cell's outputs as words in ``language``, rendered from the verdict the grader wrote there (or
    the grader's fault, if it cannot be read)."""
    from autograder import messages as say

    for cell in nb.cells:
        try:
            found = summary.readable(cell, language)
        except verdict.Unreadable:
            text = say.FEEDBACK_UNREADABLE.render(language)
            cell.outputs = [NotebookNode(output_type="error", ename="GraderFault", evalue=text, traceback=[text])]
            continue
        if found is None:
            continue
        if found.failure is not None:
            text = found.failure.render(language)
            cell.outputs = [
                NotebookNode(output_type="error", ename="CheckFailed", evalue=text, traceback=[text]),
            ]
        elif found.note is not None:
            cell.outputs = [NotebookNode(output_type="stream", name="stdout", text=found.note.render(language) + "\n")]
        else:
            cell.outputs = []


def lateness(info: dict[str, Any]) -> Lateness | None:
    """How late this submission came and the points taken off, from the gradebook (``nbgrader generate_feedback``
    names it, its student and its assignment); None when on time, or when there is no gradebook entry to read."""
    from nbgrader.api import Gradebook, MissingEntry

    try:
        with Gradebook(info["db_url"]) as gradebook:
            seconds = gradebook.find_submission(info["assignment"], info["student"]).total_seconds_late
    except (KeyError, MissingEntry):
        return None
    return Lateness(seconds, float(info.get("late_penalty") or 0)) if seconds > 0 else None


NOTEBOOK_SCORE = re.compile(r"<h4>(?P<notebook>[^<]*) \(Score: (?P<score>[-\d.]+) / (?P<points>[-\d.]+)\)</h4>")
CELL_SCORE = re.compile(r"Score: (?P<score>[-\d.]+) / (?P<points>[-\d.]+) <a href=\"#top\">\(Top\)</a>")
TOP = '<a href="#top">(Top)</a>'
GRADE_CELL = re.compile(r'<span class="nbgrader-label">Grade cell: <code>(?P<id>[^<]*)</code></span>')
ANSWER = '<span class="nbgrader-label">Student\'s answer</span>'
COMMENTS = "<b>Comments:</b>"
INPUT_PROMPT = re.compile(r'(?P<open><div class="prompt input_prompt">)In(?:\u00a0|&nbsp;| )\[')
"""A code cell's prompt, ``In [5]:``: in another language than English, ``[5]:`` as JupyterLab shows it."""


def in_language(page: str, language: str, scored: bool = True) -> str:
    """nbgrader's framing of the page (its template's English labels, a cell named by its grade id) in
    ``language``, each graded cell named as the student knows it: the template is nbgrader's, pinned (0.9.6).
    Not ``scored`` (feedback before the due date): the notebook's heading without its score."""
    from autograder import messages as say

    def number(text: str) -> str:
        return f"{float(text):g}"

    def notebook(found: re.Match[str]) -> str:
        if not scored:
            return f"<h4>{found['notebook']}</h4>"
        fields = {"score": number(found["score"]), "points": number(found["points"])}
        words = say.FEEDBACK_NOTEBOOK_SCORE(notebook=html.unescape(found["notebook"]), **fields).render(language)
        return f"<h4>{html.escape(words)}</h4>"

    def cell_score(found: re.Match[str]) -> str:
        score = say.FEEDBACK_SCORE(score=number(found["score"]), points=number(found["points"])).render(language)
        return f'{html.escape(score)} <a href="#top">{html.escape(say.FEEDBACK_TOP.render(language))}</a>'

    def heading(found: re.Match[str]) -> str:
        grade = html.unescape(found["id"])
        label = say.FEEDBACK_HIDDEN_HEADING if check_named(grade) else say.FEEDBACK_PUBLIC_HEADING
        name = f"<code>{html.escape(summary.cell_title(grade, language))}</code>"
        words = html.escape(label(name="\0").render(language)).replace("\0", name)
        return f'<span class="nbgrader-label">{words}</span>'

    page = NOTEBOOK_SCORE.sub(notebook, page, count=1)
    page = CELL_SCORE.sub(cell_score, page)
    page = page.replace(TOP, f'<a href="#top">{html.escape(say.FEEDBACK_TOP.render(language))}</a>')
    page = GRADE_CELL.sub(heading, page)
    page = page.replace(
        ANSWER, f'<span class="nbgrader-label">{html.escape(say.FEEDBACK_ANSWER.render(language))}</span>'
    )
    if language != "en":
        page = INPUT_PROMPT.sub(r"\g<open>[", page)
    return page.replace(COMMENTS, f"<b>{html.escape(say.FEEDBACK_COMMENTS.render(language))}</b>")


def hide_hidden_tests(nb: NotebookNode) -> None:
    """Each hidden test cell as the release shows it: its comment, without the grader's call (nbgrader's
    ``### BEGIN HIDDEN TESTS`` block), which is the grader's source and no business of the student's. The cell's
    source is the master's (nbgrader puts locked cells back before grading), so it is cut where the block begins."""
    for cell in nb.cells:
        if check_of(cell) is not None:
            cell.source = cell.source.split(HIDDEN_TESTS, 1)[0].rstrip()


def make_inert(nb: NotebookNode) -> None:
    """Every output only as the page can show it without running or loading anything; raw cells cleaned; no widget
    state (the template would write it into a script element)."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [shown for output in cell.get("outputs", []) if (shown := safe_html.inert_output(output))]
        elif cell.cell_type == "raw":
            cell.source = safe_html.clean(cell.source)
    nb.metadata.pop("widgets", None)


class FeedbackExporter(HTMLExporter):
    """nbgrader's feedback HTML with formulas as MathML (no MathJax, no network), failed checks first, translated."""

    visibility = Enum(
        ("full", "passfail", "public"),
        "full",
        help="What the feedback shows of the hidden tests: full (each one's points and message, the score), passfail "
        "(whether each passed, no points, no message, no score) or public (nothing of them: the public checks only). "
        "`python -m autograder watch` sets it for feedback released before the due date (Watch.before_due).",
    ).tag(config=True)

    def _preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        nb, resources = super()._preprocess(nb, resources)
        info = resources.get("nbgrader", {})
        language = graded_language(self.config, resources)
        import autograder.messages  # noqa: F401 - declares the grader's messages, which verdicts name

        checks = summary.checks_of(nb, language)
        show_verdicts(nb, language)
        hide_hidden_tests(nb)
        if self.visibility != "full":  # before the due date (the watcher): the hidden tests' cells are not shown
            nb.cells = [cell for cell in nb.cells if check_of(cell) is None]
        make_inert(nb)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = render_math(cell.source)
        # The top box is the kit's HTML, put in place once the page is rendered: every markdown cell is cleaned as a
        # student's (markdown2html), and a student's HTML may not wear the box's classes. The mark cannot be guessed.
        mark = f"kit-top-box-{secrets.token_hex(16)}"
        nb.cells.insert(0, new_markdown_cell(mark))
        full = self.visibility == "full"
        box = (
            summary.top_box(checks, language, lateness(info))
            if full
            else summary.held_box(checks, language, self.visibility)
        )
        resources["kit_top_box"] = (mark, box)
        resources["kit_language"] = language
        resources["kit_scored"] = full
        resources["kit_toc"] = summary.contents(checks if full else [c for c in checks if c.public], language)
        return nb, resources

    @pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        """A markdown cell's HTML (nbconvert's renderer), cleaned: its raw HTML may be a student's."""
        return safe_html.clean(super().markdown2html(context, source))

    def from_notebook_node(
        self, nb: NotebookNode, resources: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[str, dict[str, Any]]:
        output, resources = super().from_notebook_node(nb, resources, **kw)
        output = MATHJAX.sub("", output, count=1)
        head, tail = output.split("</head>", 1) if "</head>" in output else (output, None)
        output = head if tail is None else f"{FONT_FACE.sub('', head)}</head>{tail}"
        if resources.get("kit_toc"):  # nbgrader's list of "Test cell" links, replaced by the checks' names
            output = TOC.sub(lambda _: resources["kit_toc"], output, count=1)
        if resources.get("kit_top_box"):
            mark, box = resources["kit_top_box"]
            output = re.sub(rf"<p>{mark}</p>|{mark}", lambda _: box, output, count=1)
        output = output.replace("</head>", f'<style type="text/css">{CSS}</style>\n</head>', 1)
        output = in_language(output, resources.get("kit_language", "en"), resources.get("kit_scored", True))
        output = re.sub(r"<html>", f'<html lang="{resources.get("kit_language", "en")}">', output, count=1)
        return safe_html.with_policy(output), resources
