"""The sanitizer against a corpus of XSS and overlay vectors (``tests/xss_vectors.py``), checked as properties of
what a parser reads in its output, not as exact strings (fast tier).

Whatever a vector was, what ``safe_html.clean`` leaves holds no element that runs, loads, navigates or restyles, no
event handler, no style, no URL but the kit's own kinds, no class or id that the pages place out of the flow, no MathML
that paints outside its box or grows over the page; and cleaning it again changes nothing (a browser reads the tree
the sanitizer checked: no mutation XSS). The kit's own formulas are cleaned to what they were.
"""

from __future__ import annotations

import base64
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from nbformat import NotebookNode
from xss_vectors import VECTORS, Vector

from autograder import safe_html
from autograder.exporters.feedback import CODE, MATH, latex_to_mathml

REPO = Path(__file__).resolve().parents[1]
FORBIDDEN = frozenset(
    "script style iframe frame frameset object embed applet param base meta link form input button select textarea "
    "svg template noscript noembed noframes xmp plaintext title portal video audio source image animate set use "
    "foreignobject mglyph maction annotation-xml dialog marquee keygen isindex area map html head body".split()
)
"""Elements that run, load, navigate, take input, restyle the page or hide markup from a parser."""
URL_ATTRIBUTES = frozenset(
    "href src xlink:href action formaction srcdoc data srcset poster background lowsrc dynsrc ping cite codebase "
    "longdesc value".split()
)
LINK = re.compile(r"(#|https?:|mailto:)", re.I)
IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp|bmp|svg\+xml)[;,]", re.I)
MATHML_MOVES = frozenset("voffset height depth mathbackground mathsize".split())
"""MathML attributes that move or enlarge a formula's painting beyond its box: none may survive, on any element."""
MATHML_SIZES = {"width": {"mspace"}, "lspace": {"mo"}, "rspace": {"mo"}, "minsize": {"mo"}, "maxsize": {"mo"}}
"""Lengths that survive only on these elements, and only small (``_small``)."""
MATHML_SIZES |= {"linethickness": {"mfrac"}, "columnspacing": {"mtable"}, "rowspacing": {"mtable"}}
LENGTH = re.compile(r"(?P<n>[0-9.]+)(?P<unit>em|ex|pt)|0|thin|medium|thick|(negative)?\w*mathspace")
LARGEST_EM = {"em": 3.0, "ex": 6.0, "pt": 36.0}


class Tree(HTMLParser):
    """What a parser reads in cleaned HTML: each element with its attributes (entities decoded), its text, and any
    comment, declaration or processing instruction."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.items: list[tuple] = []
        self.other: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {name: value or "" for name, value in attrs}))
        self.items.append((tag, sorted((name, value or "") for name, value in attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self.items.append(("/", tag))

    def handle_data(self, data: str) -> None:
        self.items.append(("text", data))

    def handle_comment(self, data: str) -> None:
        self.other.append(f"comment {data}")

    def handle_decl(self, decl: str) -> None:
        self.other.append(f"declaration {decl}")

    def handle_pi(self, data: str) -> None:
        self.other.append(f"processing instruction {data}")

    def unknown_decl(self, data: str) -> None:
        self.other.append(f"declaration {data}")


def _as_browser_reads(url: str) -> str:
    """A URL as a browser reads it: C0 controls and spaces stripped from its ends, tabs and newlines removed."""
    return re.sub(r"[\t\n\r]", "", url.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f \x1f"))


def _small(value: str) -> bool:
    """Whether each length of ``value`` is small spacing: a few em at most, never negative, no percent or pixels."""
    for word in value.split() or ["(none)"]:
        found = LENGTH.fullmatch(word)
        if found is None or (found["unit"] and float(found["n"]) > LARGEST_EM[found["unit"]]):
            return False
    return True


@cache
def placed_names() -> frozenset[str]:
    """Every class and id that the stylesheets of the kit's pages (the feedback, formgrader's grading page) position
    ``fixed``, ``absolute`` or ``sticky``: out of the flow, over the page."""
    from formgrader_page import formgrade_html
    from hostile_pages import feedback, feedback_notebook
    from nbgrader.server_extensions.formgrader import handlers

    nb = feedback_notebook()
    sheets: list[str] = []
    for page in (feedback(nb), formgrade_html(nb)):
        sheets += re.findall(r"<style[^>]*>(.*?)</style>", page, re.S | re.I)
        for href in re.findall(r'<link[^>]*href="/formgrader/static/([^"]+\.css)"', page):
            sheets.append((Path(handlers.static_path) / href).read_text(encoding="utf-8"))
    names: set[str] = set()
    for css in sheets:
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            if re.search(r"position\s*:\s*(fixed|absolute|sticky)", body, re.I):
                names |= {name.lower() for name in re.findall(r"[.#](-?[_a-zA-Z][\w-]*)", selector)}
    assert {"navbar-fixed-top", "modal-backdrop", "statusmessage"} <= names  # the stylesheets were read
    return frozenset(names)


def problems(html: str) -> list[str]:
    """Everything in cleaned ``html`` that could run, load, navigate, restyle or cover the page."""
    tree = Tree(html)
    found = list(tree.other)
    for tag, attrs in tree.elements:
        if tag in FORBIDDEN or tag not in safe_html.TAGS:
            found.append(f"element <{tag}>")
        for name, value in attrs.items():
            url = _as_browser_reads(value).lower()
            if name.startswith("on") or name == "style" or ":" in name:
                found.append(f"<{tag} {name}>")
            elif name in URL_ATTRIBUTES:
                ok = (name == "href" and tag == "a") or name == "cite"
                if not (ok and LINK.match(url)) and not (name == "src" and tag == "img" and IMAGE.match(url)):
                    found.append(f"<{tag} {name}={value!r}>")
            elif name == "class":
                worn = {word.lower() for word in value.split()}
                found += [f"<{tag} class={w}>" for w in worn if w.startswith("kit-") or w in placed_names()]
            elif name == "id" and value.strip().lower() in placed_names():
                found.append(f"<{tag} id={value}>")
            elif tag in safe_html.MATHML_TAGS and name in MATHML_MOVES:
                found.append(f"<{tag} {name}>")
            elif tag in safe_html.MATHML_TAGS and name in MATHML_SIZES:
                if tag not in MATHML_SIZES[name] or not _small(value):
                    found.append(f"<{tag} {name}={value!r}>")
            elif name == "scriptlevel" and not re.fullmatch(r"[0-9]", value.strip()):
                found.append(f"<{tag} scriptlevel={value!r}>")
    return found


def test_the_corpus_is_large_and_each_vector_is_named_once() -> None:
    ids = [vector.id for vector in VECTORS]
    assert len(ids) >= 120 and len(set(ids)) == len(ids)


def test_the_sanitizer_allows_no_svg_and_no_foreign_element_that_loads() -> None:
    assert not {"svg", "mglyph", "maction", "annotation-xml", "style", "script", "template"} & safe_html.TAGS


@pytest.mark.parametrize("vector", VECTORS, ids=[vector.id for vector in VECTORS])
def test_nothing_survives_that_runs_loads_or_covers_the_page(vector: Vector) -> None:
    cleaned = safe_html.clean(vector.html)
    assert problems(cleaned) == [], cleaned


@pytest.mark.parametrize("vector", VECTORS, ids=[vector.id for vector in VECTORS])
def test_cleaning_again_changes_nothing(vector: Vector) -> None:
    cleaned = safe_html.clean(vector.html)
    assert safe_html.clean(cleaned) == cleaned


def test_the_oracle_sees_what_it_looks_for() -> None:
    """The checks above would fail on the vectors as they are (a broken ``problems`` passes everything)."""
    missed = [vector.id for vector in VECTORS if not problems(vector.html)]  # text, or markup a browser drops
    assert len(missed) < len(VECTORS) // 10, missed


SHOWN = [v for v in VECTORS if v.id.startswith(("handler-", "svg-", "math-", "style-", "class-", "mpadded-"))]


@pytest.mark.parametrize("vector", SHOWN, ids=[vector.id for vector in SHOWN])
def test_an_html_output_carrying_a_vector_is_shown_cleaned(vector: Vector) -> None:
    for kind in ("display_data", "execute_result"):
        output = NotebookNode(output_type=kind, metadata={"isolated": True}, data={"text/html": vector.html})
        if kind == "execute_result":
            output.execution_count = 1
        shown = safe_html.inert_output(output)
        assert shown is not None and shown.metadata == {}
        assert shown.data["text/html"] == safe_html.clean(vector.html) and problems(shown.data["text/html"]) == []


SVGS = [v for v in VECTORS if v.html.startswith("<svg")]


@pytest.mark.parametrize("vector", SVGS, ids=[vector.id for vector in SVGS])
def test_an_svg_output_is_shown_only_as_an_image(vector: Vector) -> None:
    shown = safe_html.inert_output(
        NotebookNode(output_type="display_data", metadata={}, data={"image/svg+xml": vector.html})
    )
    assert shown is not None and problems(shown.data["text/html"]) == []
    [(tag, attrs)] = Tree(shown.data["text/html"]).elements
    assert tag == "img" and set(attrs) == {"src", "alt"}
    prefix = "data:image/svg+xml;base64,"
    assert attrs["src"].startswith(prefix) and base64.b64decode(attrs["src"][len(prefix) :]).decode() == vector.html


def test_no_class_or_id_that_the_pages_place_over_the_page_survives() -> None:
    for name in sorted(placed_names()):
        cleaned = safe_html.clean(f'<div class="note {name}" id="{name}">x</div><div id="{name.upper()}">y</div>')
        assert cleaned == '<div class="note">x</div><div>y</div>', name


@pytest.mark.parametrize("attribute", sorted(MATHML_MOVES | set(MATHML_SIZES)))
@pytest.mark.parametrize("tag", sorted(safe_html.MATHML_TAGS))
def test_a_mathml_attribute_that_moves_or_enlarges_painting_is_dropped(tag: str, attribute: str) -> None:
    """On every MathML element: fails if the attribute goes back into the allow-list (a small value, as latex2mathml
    writes it, survives only where the kit's formulas may need it)."""
    inner = f'<{tag} {attribute}="0.5em">x</{tag}>'
    cleaned = safe_html.clean(inner if tag == "math" else f"<math>{inner}</math>")
    assert tag in [element for element, _ in Tree(cleaned).elements], cleaned
    kept = attribute in MATHML_SIZES and tag in MATHML_SIZES[attribute]
    assert (f'{attribute}="0.5em"' in cleaned) == kept, cleaned
    assert attribute not in safe_html.MATHML_ATTRIBUTES


HUGE = ["100000em", "3.5em", "99999px", "1000%", "-1em", "+1000%", "1e9em", "calc(100vh)", "infinity", "1em 1000em", ""]


@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize(("tag", "attribute"), [(t, a) for a, tags in MATHML_SIZES.items() for t in sorted(tags)])
def test_a_huge_or_negative_mathml_size_cannot_survive(tag: str, attribute: str, value: str) -> None:
    cleaned = safe_html.clean(f'<math><{tag} {attribute}="{value}">x</{tag}></math>')
    assert cleaned == f"<math><{tag}>x</{tag}></math>"


@pytest.mark.parametrize("value", ["100000%", "2em", "9999px", "big", "1em"])
def test_no_mathsize_survives_not_even_small_it_compounds_when_nested(value: str) -> None:
    nested = f'<mstyle mathsize="{value}">' * 3
    assert "mathsize" not in safe_html.clean(f"<math>{nested}<mi>x</mi></math>")


@pytest.mark.parametrize(("value", "kept"), [("0", True), ("1", True), ("2", True), ("-1", False), ("+1", False)])
def test_only_an_absolute_script_level_survives(value: str, kept: bool) -> None:
    cleaned = safe_html.clean(f'<math><mstyle scriptlevel="{value}"><mi>x</mi></mstyle></math>')
    assert ("scriptlevel" in cleaned) == kept


def _kit_formulas() -> list[tuple[str, bool]]:
    """Every formula of the kit's notebooks' markdown (outside code), and whether it is displayed."""
    found: set[tuple[str, bool]] = set()
    for path in sorted((REPO / "source").glob("*/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                text = CODE.sub("", cell.source)
                found |= {(m["display"] or m["inline"], m["display"] is not None) for m in MATH.finditer(text)}
    return sorted(found)


FORMULAS = [
    r"Y = XW + b",
    r"\frac{\partial L}{\partial W} = X^\top G",
    r"\mathbb{1}[x>0]",
    r"\operatorname{softmax}(Z)_{ij}",
    r"a \, b \; c \quad d \qquad e",
    r"\big( \Big( \bigg( \Bigg( x \Bigg) \bigg) \Big) \big) \binom{n}{k} \tfrac{1}{2}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix} \sum_{i=1}^{n} \hat{y}_i",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases} \smallmatrix{a & b} \displaystyle x",
]


def test_the_kit_has_formulas() -> None:
    assert len(_kit_formulas()) >= 40


@pytest.mark.parametrize(("latex", "display"), _kit_formulas() + [(f, d) for f in FORMULAS for d in (False, True)])
def test_the_kits_formulas_are_cleaned_to_what_they_were(latex: str, display: bool) -> None:
    mathml = latex_to_mathml(latex, display)
    assert Tree(safe_html.clean(mathml)).items == Tree(mathml).items, mathml


def test_an_image_map_does_not_survive() -> None:
    """``map`` and ``area`` lay links over an image, where a reader sees none (nh3 allows them; the kit does not)."""
    cleaned = safe_html.clean(
        '<img src="data:image/png;base64,AAAA" usemap="#m" alt="">'
        '<map name="m"><area shape="rect" coords="0,0,9999,9999" href="https://example.org/"></map>'
    )
    assert "<map" not in cleaned and "<area" not in cleaned and "example.org" not in cleaned, cleaned
