"""The autograded notebook holds nothing of the student's that runs or loads, as formgrader renders it
(``autograder.preprocessors.inert.MakeInert``, ``autograder.safe_html.inert_markdown``); the kit's verdicts and the
feedback of a normal submission are as before."""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser

import nbformat
import pytest
from formgrader_page import formgrade_html
from hostile_pages import REPO, _display, cell, feedback, feedback_notebook, hostile_cells
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell

from autograder.preprocessors.inert import MakeInert
from autograder.safe_html import inert_markdown
from autograder.verdict import is_verdict

URL = "http://127.0.0.1:9"
WEB_LINK = re.compile(r"(https?:|mailto:|#)", re.I)


def formgrader_cells(url: str) -> list[NotebookNode]:
    """Hostile cells that only formgrader's page (no sanitizer) would run: markdown's own script links, an image's
    size from output metadata into an unquoted attribute, a widget view."""
    links = new_markdown_cell(
        "[click](javascript:console.log('pwned')) [also](&#106;avascript:console.log('pwned')) "
        f"![remote]({url}/md-image.png) [ref]\n\n[ref]: javascript:console.log('pwned')\n"
    )
    code = new_code_cell("show()")
    code.outputs = [
        NotebookNode(
            output_type="display_data",
            data={"image/png": "iVBORw0KGgo="},
            metadata={"image/png": {"width": "1 onload=console.log('pwned') onerror=console.log('pwned')"}},
        ),
        _display(**{"application/vnd.jupyter.widget-view+json": {"model_id": "x", "version_major": 2}}),
        _display(**{"text/javascript": "console.log('pwned')", "application/x-javascript": "console.log('pwned')"}),
    ]
    return [links, code]


def hostile_graded() -> NotebookNode:
    nb = feedback_notebook([*hostile_cells(URL), *formgrader_cells(URL)])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2}}
    return nb


def inert(nb: NotebookNode) -> NotebookNode:
    nb, _ = MakeInert().preprocess(copy.deepcopy(nb), {})
    return nb


class Page(HTMLParser):
    """Every script, event handler and URL attribute of a page (links to the web, which load nothing until clicked, not
    counted)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.urls: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"{tag} {name}={value}")
            if name in ("src", "href", "data", "action", "formaction", "srcset", "poster", "xlink:href"):
                url = (value or "").strip()
                if not (tag == "a" and name == "href" and WEB_LINK.match(url)):
                    self.urls.append(url)
        if tag == "script":
            self._in_script = True
            self.scripts.append(dict(attrs).get("src") or "")

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data.strip()

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"


@pytest.fixture(scope="module")
def template_only() -> Page:
    """formgrader's page of the solution as graded: only the template's own scripts, handlers and URLs."""
    return Page(formgrade_html(feedback_notebook()))


def _student_parts(page: Page, template: Page) -> list[str]:
    found = [s for s in page.scripts if s not in template.scripts]
    found += [h for h in page.handlers if h not in template.handlers]
    found += [u for u in page.urls if u not in template.urls and not u.startswith(("data:image/", "#"))]
    return found


def test_formgrader_shows_nothing_of_a_hostile_notebook_that_runs_or_loads(template_only: Page) -> None:
    page = Page(formgrade_html(inert(hostile_graded())))
    assert _student_parts(page, template_only) == []
    assert not any(URL in u or "javascript:" in u.lower() for u in page.urls)


def test_without_make_inert_formgrader_runs_the_students_script(template_only: Page) -> None:
    """The control: formgrader's template shows the same notebook's script, handlers and links as they are."""
    found = _student_parts(Page(formgrade_html(hostile_graded())), template_only)
    assert any("pwned" in part for part in found), found
    assert any(part.lower().startswith("javascript:") for part in found), found
    assert any(URL in part for part in found), found


def test_the_graders_verdicts_and_errors_are_kept_as_they_are() -> None:
    nb = hostile_graded()
    graded = inert(nb)
    before, after = cell(nb, "test_linear_backward_dw"), cell(graded, "test_linear_backward_dw")
    assert after.outputs == before.outputs and any(is_verdict(o) for o in after.outputs)
    assert [o.output_type for o in after.outputs].count("error") == 1
    assert "widgets" not in graded.metadata


def test_a_normal_submissions_feedback_is_as_before() -> None:
    nb = feedback_notebook()
    nb.cells.append(new_markdown_cell("Plain **notes**, $x_1 < 2$, a [link](https://example.org)."))
    code = new_code_cell("print(1)")
    code.outputs = [
        NotebookNode(output_type="stream", name="stdout", text="1\n"),
        NotebookNode(output_type="execute_result", execution_count=3, metadata={}, data={"text/plain": "2"}),
    ]
    nb.cells.append(code)
    strip = re.compile(r"kit-top-box-[0-9a-f]{32}|sha256-[A-Za-z0-9+/=]+")
    assert strip.sub("", feedback(inert(nb))) == strip.sub("", feedback(nb))


def test_the_kits_own_markdown_is_unchanged() -> None:
    for path in ("release/mlp/mlp.ipynb", "release/mlp_zh/mlp_zh.ipynb"):
        for c in nbformat.read(str(REPO / path), as_version=4).cells:
            if c.cell_type == "markdown":
                assert inert_markdown(c.source) == c.source, (path, c.source[:80])


@pytest.mark.parametrize(
    "source",
    [
        "<script>console.log('pwned')</script>",
        "<img src=x onerror=\"console.log('pwned')\">",
        "<svg><style><img src=x onerror=console.log(1)></style></svg>",
        "<!-- --><iframe src=http://127.0.0.1:9/>",
        "[x](javascript:console.log('pwned'))",
        "[x](&#x6A;avascript:console.log('pwned'))",
        "[x](java\tscript:1) [y](<javascript:1>)",
        "![x](http://127.0.0.1:9/x.png)",
        "[x][r]\n\n[r]: javascript:console.log('pwned')",
        "<javascript:console.log('pwned')>",
        "[x](notes.html)",
        "```` `` ```\n<script>1</script>\n[x](javascript:1)",
    ],
)
def test_markdown_that_could_run_or_load_is_shown_as_text(source: str, template_only: Page) -> None:
    nb = feedback_notebook([new_markdown_cell(inert_markdown(source))])
    assert _student_parts(Page(formgrade_html(nb)), template_only) == []


def test_harmless_markdown_keeps_its_formatting() -> None:
    source = (
        "# Title\n\n- a **b** `c`\n\n| x | y |\n|:--|--:|\n| 1 | 2 |\n\n$$W^T$$ [doc](https://numpy.org) [up](#Title)"
    )
    assert inert_markdown(source) == source
    assert inert_markdown("a <b>bold</b> word") == "a &lt;b>bold&lt;/b> word"


def test_make_inert_runs_after_the_grades_are_saved() -> None:
    from traitlets.config import Config

    from autograder.settings import apply

    c = Config()
    apply(c)
    steps = c.Autograde.autograde_preprocessors
    assert steps.index("autograder.preprocessors.inert.MakeInert") > steps.index(
        "nbgrader.preprocessors.SaveAutoGrades"
    )
