"""The feedback HTML (``nbgrader generate_feedback``): readable offline, failed checks first, in the edition's language.

``autograder.settings.apply`` makes ``FeedbackExporter`` the exporter of ``GenerateFeedback``. Over nbgrader's
feedback template it

* renders every formula of the markdown cells to MathML (``latex2mathml``), which browsers draw themselves, and
  drops the template's MathJax script (loaded from a CDN): the file needs no network and loads nothing;
* lists the checks that failed at the top (each linked to its cell, with the first line of its message), and sets
  every failure message apart in place (CSS);
* shows the messages in the language of the assignment's edition (``nn_i18n.LANGUAGE`` of its released helpers:
  the grader writes them in English, the Chinese edition's feedback shows them in Chinese).
"""

from __future__ import annotations

import html
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from latex2mathml.converter import convert
from nbconvert.exporters import HTMLExporter
from nbformat import NotebookNode
from nbformat.v4 import new_markdown_cell
from nbgrader.coursedir import CourseDirectory

MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)\$", re.S)
CODE = re.compile(r"(`+)(?:.+?)\1", re.S)
MATHJAX = re.compile(r"\s*<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
SUMMARY_CLASS = "kit-failed-summary"
WORDS = {
    "en": {"failed": "Checks that failed", "none": "Every check passed.", "points": "points", "check": "Check failed"},
    "zh": {"failed": "未通过的检查", "none": "所有检查都通过了。", "points": "分", "check": "检查未通过"},
}
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
math[display="block"] { margin: 0.6em 0; font-size: 1.1em; }
math { font-size: 1.05em; }
body { font-family: -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; }
"""


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


def edition_i18n(config: Any, assignment: str) -> ModuleType | None:
    """The ``nn_i18n`` module of the assignment's released helpers (None if it has none)."""
    coursedir = CourseDirectory(config=config)
    path = Path(coursedir.root) / coursedir.format_path(coursedir.release_directory, ".", assignment) / "nn_i18n.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_kit_feedback_i18n_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def translate_outputs(nb: NotebookNode, translate: Callable[[str], str], label: str) -> list[tuple[NotebookNode, str]]:
    """Show every check's message in the edition's language; return the graded cells that failed, with messages."""
    failed = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        grade = cell.get("metadata", {}).get("nbgrader", {}).get("grade", False)
        for output in cell.get("outputs", []):
            if output.output_type == "error" and output.get("ename") == "CheckFailed":
                message = translate(output.get("evalue", ""))
                output.evalue = message
                output.traceback = [f"\x1b[1;31m{label}\x1b[0m", message]
                if grade:
                    failed.append((cell, message))
            elif output.output_type == "error" and grade:
                failed.append((cell, f"{output.get('ename', '')}: {output.get('evalue', '')}"))
            elif output.output_type == "stream" and grade:
                output.text = translate(output.text)
    return failed


def summary_cell(failed: list[tuple[NotebookNode, str]], words: dict[str, str]) -> NotebookNode:
    """A markdown cell (raw HTML) listing each failed graded cell, linked, with its message's first line."""
    if not failed:
        return new_markdown_cell(f'<div class="{SUMMARY_CLASS} kit-all-passed"><b>{words["none"]}</b></div>')
    items = []
    for cell, message in failed:
        meta = cell.metadata.nbgrader
        points = meta.get("points", 0)
        first = message.strip().splitlines()[0] if message.strip() else ""
        items.append(
            f'<li><a href="#{html.escape(meta["grade_id"])}"><code>{html.escape(meta["grade_id"])}</code></a>'
            f' ({points:g} {words["points"]}): <span class="kit-message">{html.escape(first)}</span></li>'
        )
    return new_markdown_cell(
        f'<div class="{SUMMARY_CLASS}"><h3>{words["failed"]} ({len(failed)})</h3><ul>' + "".join(items) + "</ul></div>"
    )


class FeedbackExporter(HTMLExporter):
    """nbgrader's feedback HTML with formulas as MathML (no MathJax, no network), failed checks first, translated."""

    def _preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> tuple[NotebookNode, dict[str, Any]]:
        nb, resources = super()._preprocess(nb, resources)
        info = resources.get("nbgrader", {})
        module = edition_i18n(self.config, info["assignment"]) if info.get("assignment") else None
        language = getattr(module, "LANGUAGE", "en")
        translate = module.translate if module is not None else (lambda text: text)
        words = WORDS.get(language, WORDS["en"])
        failed = translate_outputs(nb, translate, words["check"])
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = render_math(cell.source)
        nb.cells.insert(0, summary_cell(failed, words))
        resources["kit_language"] = language
        return nb, resources

    def from_notebook_node(
        self, nb: NotebookNode, resources: dict[str, Any] | None = None, **kw: Any
    ) -> tuple[str, dict[str, Any]]:
        output, resources = super().from_notebook_node(nb, resources, **kw)
        output = MATHJAX.sub("", output, count=1)
        output = output.replace("</head>", f'<style type="text/css">{CSS}</style>\n</head>', 1)
        output = re.sub(r"<html>", f'<html lang="{resources.get("kit_language", "en")}">', output, count=1)
        return output, resources
