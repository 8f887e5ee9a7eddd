"""The feedback runs and loads nothing of the student's, and reads verdicts only from the grader (fast tier).

Student HTML is cleaned (``autograder.safe_html``, nh3), the page carries a strict Content-Security-Policy, and a
verdict-typed output of a student's is dropped after execution and never read: a forged one hides no failure, a
malformed one stops no feedback. The same pages in Chromium: ``test_hostile_pages_browser.py``.
"""

from __future__ import annotations

import re

import pytest
from hostile_pages import cell, feedback, feedback_notebook, forged, hostile_cells
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_notebook

from autograder import safe_html, verdict
from autograder.exporters import summary
from autograder.exporters.feedback import latex_to_mathml
from autograder.preprocessors.sanitize import DropForgedVerdicts

URL = "http://127.0.0.1:9"
PASSED_DW = {"check": "linear_backward_dw", "passed": True, "failure": None, "note": None, "numbers": {}}


@pytest.mark.parametrize(
    "html",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        '<a href="javascript:alert(1)">x</a>',
        '<iframe src="https://example.org"></iframe><object data="x"></object><embed src="x">',
        '<form action="https://example.org"><input></form><style>p{}</style><link rel=stylesheet href=x>',
        f'<img src="{URL}/a.png"><img src="a.png"><img srcset="{URL}/b.png">',
        "<svg><script>alert(1)</script></svg><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        '<p style="background: url(https://example.org/x.png)">x</p><base href="https://example.org/">',
        "<meta http-equiv=refresh content='0;url=https://example.org'>",
    ],
)
def test_clean_leaves_nothing_that_runs_or_loads(html: str) -> None:
    cleaned = safe_html.clean(html)
    for word in ("<script", "onerror", "javascript:", "<iframe", "<object", "<embed", "<form", "<style", "<link"):
        assert word not in cleaned.lower(), cleaned
    assert "http" not in cleaned and "a.png" not in cleaned and "style=" not in cleaned and "<meta" not in cleaned


def _elements(html: str) -> list[tuple]:
    """Every element, its attributes and text, as a browser reads them (entities decoded, attributes in order)."""
    from html.parser import HTMLParser

    found: list[tuple] = []

    class Reader(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            found.append((tag, sorted(attrs)))

        def handle_data(self, data: str) -> None:
            found.append(("text", data))

    Reader(convert_charrefs=True).feed(html)
    return found


def test_clean_keeps_formatting_data_images_and_the_kits_mathml() -> None:
    mathml = latex_to_mathml(r"\frac{\partial L}{\partial W} = X^\top G \quad \mathbb{1}(H > 0)", display=True)
    html = (
        '<p><b>b</b> <code>c</code></p><table><tr><td colspan="2">t</td></tr></table>'
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="plot"><a href="#top">up</a>' + mathml
    )
    cleaned = safe_html.clean(html)
    assert _elements(mathml) == _elements(cleaned[cleaned.index("<math") :])
    for kept in (
        "<b>b</b>",
        "<code>c</code>",
        'colspan="2"',
        'src="data:image/png;base64,iVBORw0KGgo="',
        'href="#top"',
    ):
        assert kept in cleaned


def test_a_student_may_not_wear_the_kits_classes() -> None:
    assert safe_html.clean('<div class="kit-failed-summary note">x</div>') == '<div class="note">x</div>'


def test_script_outputs_are_shown_as_text_and_images_only_as_base64() -> None:
    shown = safe_html.inert_output(
        NotebookNode(output_type="display_data", metadata={}, data={"application/javascript": "alert(1)"})
    )
    assert shown is not None and shown.data == {"text/plain": "alert(1)"}
    bad = NotebookNode(output_type="display_data", metadata={}, data={"image/png": 'x" onerror="alert(1)'})
    assert safe_html.inert_output(bad) is None
    assert safe_html.inert_output(NotebookNode(output_type="display_data", data={verdict.MIME: PASSED_DW})) is None


def _body(page: str) -> str:
    return page[page.index("<body") :]


def _top(page: str) -> str:
    """The kit's box at the top of the feedback."""
    start = page.index('<div class="kit-failed-summary')
    return page[start : page.index('<div class="cell', start)]


def test_the_feedback_of_a_hostile_notebook_has_no_script_no_handler_and_no_remote_load() -> None:
    page = feedback(feedback_notebook(hostile_cells(URL)))
    body = _body(page).lower()
    assert "<script" not in page.lower()
    assert not re.search(r"<[^>]*\son\w+\s*=", body), re.search(r"<[^>]*\son\w+\s*=", body)
    assert "javascript:" not in body
    assert "127.0.0.1" not in body
    for tag in ("<iframe", "<object", "<embed", "<form", "<style", "<base", "<link"):
        assert tag not in body, tag
    assert "<pre>console.log('pwned'); document.title = 'pwned'</pre>" in body  # the JS as text
    assert body.count('class="kit-failed-summary') == 1  # the kit's box, not the student's copy of it


def test_every_feedback_page_has_a_strict_content_security_policy_before_its_styles() -> None:
    page = feedback(feedback_notebook())
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert found is not None and page.index(found.group(0)) < page.index("<style")
    policy = found.group(1)
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    nothing = ["'none'"]
    assert {name: sources for name, sources in directives.items() if name != "style-src"} == {
        "default-src": nothing,
        "img-src": ["data:"],  # no image from anywhere else, the web included
        "script-src": nothing,
        "connect-src": nothing,
        "font-src": nothing,
        "object-src": nothing,
        "frame-src": nothing,
        "base-uri": nothing,
        "form-action": nothing,
    }
    assert directives["style-src"] and all(s.startswith("'sha256-") for s in directives["style-src"])
    assert "unsafe-inline" not in policy and "'sha256-" in policy
    assert policy.count("'sha256-") == len(set(re.findall(r"<style[^>]*>(.*?)</style>", page, re.S)))


def test_the_kits_formulas_survive_in_the_feedback() -> None:
    page = feedback(feedback_notebook())
    assert page.count("<math") >= 40 and "<mfrac>" in page and "$$" not in _body(page)


def test_a_forged_passed_verdict_in_a_public_check_hides_nothing_and_adds_no_hidden_test() -> None:
    nb = feedback_notebook()
    public = cell(nb, "public_linear")
    public.outputs = [
        NotebookNode(output_type="error", ename="CheckFailed", evalue="dW: expected -2, got 3", traceback=["dW: -2"]),
        forged(PASSED_DW),
    ]
    cell(nb, "linear").outputs = [forged(PASSED_DW)]
    checks = summary.checks_of(nb)
    named = [c for c in checks if c.grade_id == "public_linear"]
    assert named and named[0].public and named[0].failed
    assert [c.verdict.check for c in checks if c.verdict is not None].count("linear_backward_dw") == 1
    page = feedback(nb)
    top = _top(page)
    assert "Checks that failed (1)" in top and "public_linear" in top.split("Public checks that failed")[1]


def test_a_malformed_verdict_is_the_graders_fault_and_the_feedback_is_still_written() -> None:
    nb = feedback_notebook()
    cell(nb, "test_relu_forward").outputs = [forged({"oops": 1})]
    cell(nb, "test_sgd_step").outputs = [forged({**PASSED_DW, "check": "sgd_step", "note": {"id": "no.such.id"}})]
    cell(nb, "public_relu").outputs = [forged({"oops": 1})]  # a student's: never read
    page = feedback(nb)
    assert page.count("could not read its own verdict") >= 4  # in each cell and in the box at the top
    top = _top(page)
    assert "relu_forward" in top and "sgd_step" in top and "public_relu" not in top


def test_a_verdict_is_read_only_in_a_hidden_test_cell_and_for_its_check() -> None:
    def code(grade_id: str, *outputs: NotebookNode) -> NotebookNode:
        c = new_code_cell("")
        c.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "points": 0, "solution": False}
        c.outputs = list(outputs)
        return c

    assert verdict.read(code("public_linear", forged(PASSED_DW))) is None
    assert verdict.read(code("test_linear_backward_dw", forged(PASSED_DW))).passed
    for outputs in ([forged({"oops": 1})], [forged(PASSED_DW), forged(PASSED_DW)]):
        with pytest.raises(verdict.Unreadable):
            verdict.read(code("test_linear_backward_dw", *outputs))
    with pytest.raises(verdict.Unreadable):
        verdict.read(code("test_linear_forward", forged(PASSED_DW)))  # names another check


def test_the_preprocessor_drops_every_verdict_typed_output_the_kernel_left() -> None:
    cells = [new_code_cell("") for _ in range(3)]
    cells[0].outputs = [forged(PASSED_DW), NotebookNode(output_type="stream", name="stdout", text="kept\n")]
    cells[1].outputs = [forged({"oops": 1})]
    nb, _ = DropForgedVerdicts().preprocess(new_notebook(cells=cells), {})
    assert [len(c.outputs) for c in nb.cells] == [1, 0, 0] and nb.cells[0].outputs[0].text == "kept\n"


def test_the_preprocessor_runs_after_the_kernel_and_before_the_grader_writes_verdicts() -> None:
    from traitlets.config import Config

    from autograder.settings import apply

    c = Config()
    apply(c)
    chain = [name.rsplit(".", 1)[-1] for name in c.Autograde.autograde_preprocessors]
    assert chain.index("SandboxedExecute") < chain.index("DropForgedVerdicts") < chain.index("VerifyOutsideKernel")


def test_the_feedback_shows_no_grader_source_and_a_students_own_marker_stays() -> None:
    """A hidden test cell shows its comment, as the release does, not the grader's call; a student's answer cell that
    happens to hold the marker is shown as written (and breaks nothing)."""
    nb = feedback_notebook()
    hidden = cell(nb, "test_linear_forward")
    assert "### BEGIN HIDDEN TESTS" in hidden.source and "autograder" in hidden.source
    cell(nb, "linear").source += "\n# ### BEGIN HIDDEN TESTS (a student's comment)"
    page = _body(feedback(nb))
    assert "autograder.check_" not in page and "import autograder" not in page
    assert page.count("BEGIN HIDDEN TESTS") == 1 and "a student&#39;s comment" in page.replace("'", "&#39;")
    assert "Hidden tests of Linear.forward" in page


@pytest.mark.parametrize(
    ("assignment", "words"),
    [
        ("mlp", ["Hidden tests of <code>Linear.forward</code>", "Public checks of <code>Linear</code>", "Your answer"]),
        ("mlp_zh", ["<code>Linear.forward</code> 的隐藏测试", "<code>Linear</code> 的公开检查", "你的答案", "得分："]),
    ],
)
def test_nbgraders_framing_is_in_the_editions_language_and_names_cells_never_by_their_grade_id(
    assignment: str, words: list[str]
) -> None:
    page = _body(feedback(feedback_notebook(), assignment))
    shown = re.sub(r'(href|id|name)="[^"]*"', "", page)  # anchors keep the ids; no text shows one
    for grade_id in ("test_linear_forward", "public_linear", "linear_backward_dw", "Grade cell", "Student's answer"):
        assert grade_id not in shown, grade_id
    for expected in words:
        assert expected in page, expected
