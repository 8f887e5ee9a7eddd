"""The kit's HTML pages run nothing of a student's and load nothing: student HTML made inert, and a strict CSP.

A feedback page shows what a student's notebook holds: markdown (raw HTML allowed), and outputs of any media type
their code displayed (``text/html``, ``application/javascript``, SVG...). Opened by the student, or by an instructor
signed in to formgrader, any of it that ran would run as that reader. So every piece of a student's HTML goes through
``clean``, an allow-list sanitizer (``nh3``, Rust's ammonia): text, formatting, tables, links and MathML (the kit's
formulas, ``latex2mathml``), images only as ``data:`` URLs; no script, event handler, ``javascript:`` URL, style,
frame, object, embed or form. ``inert_output`` keeps of an output only what the page can show safely, and
``with_policy`` gives the page a Content-Security-Policy that forbids script and loading anything but ``data:``
images, should anything slip through.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

import nh3
from nbformat import NotebookNode

MATHML_TAGS = frozenset(
    "math mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover mtable mtr mtd "
    "mstyle mpadded mphantom menclose merror mmultiscripts mprescripts none semantics".split()
)
"""The MathML elements ``latex2mathml`` writes (and MathML Core's presentation elements beside them)."""
# No voffset, height, depth, mpadded's width/lspace (they paint outside the box), mathbackground, mathsize (compounds).
MATHML_ATTRIBUTES = frozenset(
    "display xmlns mathvariant mathcolor stretchy fence separator form largeop movablelimits symmetric accent "
    "accentunder notation displaystyle scriptlevel columnalign columnlines rowalign rowlines frame linebreak "
    "align".split()
)
"""What MathML may say of a formula: nothing that moves or enlarges its painting beyond its place, over the page."""
MATHML_LENGTHS: dict[str, frozenset[str]] = {
    "mspace": frozenset({"width"}),
    "mo": frozenset({"lspace", "rspace", "minsize", "maxsize"}),
    "mfrac": frozenset({"linethickness"}),
    "mtable": frozenset({"columnspacing", "rowspacing"}),
}
"""Spacing in the flow, kept where ``latex2mathml`` writes it and only as small as it writes it (``SMALL``)."""
LENGTH = re.compile(
    r"(?P<n>\d{1,3}(\.\d{1,4})?|\.\d{1,4})(?P<unit>em|ex|pt)|0|thin|medium|thick"
    r"|(negative)?((very){0,2}(thin|thick)|medium)mathspace"
)
SMALL = {"em": 3.0, "ex": 6.0, "pt": 36.0}
"""The largest length of each unit a formula may ask for (``\\Bigg`` is 2.47em, ``\\qquad`` 2em)."""
SCRIPT_LEVEL = re.compile(r"[0-9]")
"""An absolute, non-negative script level: never a larger font than the formula's (a relative ``-9`` compounds)."""
TAGS = (set(nh3.ALLOWED_TAGS) - {"map", "area"}) | MATHML_TAGS
ATTRIBUTES: dict[str, set[str]] = {
    **{tag: set(names) for tag, names in nh3.ALLOWED_ATTRIBUTES.items()},
    **{tag: set(MATHML_ATTRIBUTES | MATHML_LENGTHS.get(tag, frozenset())) for tag in MATHML_TAGS},
    "*": {"class", "id", "title", "lang", "dir"},
}
IMAGE_URL = re.compile(r"data:image/(png|jpeg|gif|webp|bmp|svg\+xml)[;,]", re.I)
LINK_URL = re.compile(r"(#|https?:|mailto:)", re.I)
KIT_CLASS = "kit-"
"""The kit's own CSS classes (its summary box): a student's HTML may not wear them."""
PLACED = frozenset(
    "affix arrow btn btn-group carousel-caption carousel-control carousel-indicators carousel-inner checkbox "
    "checkbox-inline dropdown-backdrop dropdown-menu embed-responsive embed-responsive-item form-control-feedback "
    "glyphicon-chevron-left glyphicon-chevron-right help icon-next icon-prev modal modal-backdrop "
    "modal-scrollbar-measure navbar-fixed-bottom navbar-fixed-top next popover prev radio radio-inline sr-only "
    "statusmessage tooltip tooltip-arrow".split()
)
"""Classes and ids the pages' stylesheets (Bootstrap 3's, formgrader's) place out of the flow (``position: fixed`` or
``absolute``): a student's element wearing one would lie over the page (``tests/test_sanitizer_corpus.py``)."""
BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
SHOWN_AS_TEXT = ("application/javascript", "text/javascript", "application/x-javascript")
IMAGES = ("image/png", "image/jpeg")
MAX_ROUNDS = 4
"""At most this many rounds of cleaning; every vector of ``tests/xss_vectors.py`` is stable after two."""


def _small(value: str) -> bool:
    """Whether every length of ``value`` is a small spacing of the flow, as ``latex2mathml`` writes it."""
    found = [LENGTH.fullmatch(word) for word in value.split()]
    return bool(found) and all(m and (m["unit"] is None or float(m["n"]) <= SMALL[m["unit"]]) for m in found)


def _attribute(element: str, attribute: str, value: str) -> str | None:
    """nh3's last word on each attribute: images only from ``data:``, links only in the page or to the web, no class or
    id that places an element over the page, MathML's sizes only small."""
    if attribute == "src" or (element == "img" and attribute in ("srcset", "longdesc")):
        return value if element == "img" and attribute == "src" and IMAGE_URL.match(value.strip()) else None
    if attribute == "href" or attribute == "cite":
        return value if (element == "a" or attribute == "cite") and LINK_URL.match(value.strip()) else None
    if attribute == "class":
        kept = [name for name in value.split() if not (name.lower().startswith(KIT_CLASS) or name.lower() in PLACED)]
        return " ".join(kept) or None
    if attribute == "id":
        return None if value.strip().lower() in PLACED else value
    if attribute in MATHML_LENGTHS.get(element, ()):
        return value if _small(value) else None
    if attribute == "scriptlevel":
        return value if SCRIPT_LEVEL.fullmatch(value.strip()) else None
    return value


def _clean_once(html: str) -> str:
    return nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=_attribute,
        url_schemes={"http", "https", "mailto", "data"},
        link_rel="noopener noreferrer",
    )


def clean(html: str) -> str:
    """``html`` (a student's) with only the allowed elements and attributes left: nothing runs, nothing loads.

    Cleaned again until it stays the same: what nh3 writes of misnested markup (``<a>`` in ``<a>``, a heading in a
    heading) a browser may read as another tree (mutation XSS); the page shows a tree that parsing leaves as it is."""
    for _ in range(MAX_ROUNDS):
        cleaned = _clean_once(html)
        if cleaned == html:
            break
        html = cleaned
    return cleaned


def _text(value: Any) -> str | None:
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return value if isinstance(value, str) else None


def _image(value: Any) -> str | None:
    """A base64 image's data, if it is base64 (the template puts it into an attribute)."""
    text = _text(value)
    if text is None or not BASE64.fullmatch(text):
        return None
    try:
        base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        return None
    return text


def _data(data: Mapping[str, Any]) -> dict[str, str]:
    """What of a display's data the page shows: text as text, HTML and SVG cleaned, script as its text."""
    shown: dict[str, str] = {}
    for mime in IMAGES:
        if (image := _image(data.get(mime))) is not None:
            shown[mime] = image
    if (svg := _text(data.get("image/svg+xml"))) is not None:  # as an image: an SVG image runs and loads nothing
        encoded = base64.b64encode(svg.encode()).decode()
        shown["text/html"] = clean(f'<img src="data:image/svg+xml;base64,{encoded}" alt="">')
    if (html := _text(data.get("text/html"))) is not None:
        shown["text/html"] = clean(html)
    for mime in ("text/markdown", "text/latex", "text/plain"):  # markdown is cleaned once rendered (the exporter)
        if (text := _text(data.get(mime))) is not None:
            shown[mime] = text
    for mime in SHOWN_AS_TEXT:
        if (script := _text(data.get(mime))) is not None and "text/plain" not in shown:
            shown["text/plain"] = script
    return shown


def inert_output(output: Mapping[str, Any]) -> NotebookNode | None:
    """A student cell's output as the page may show it, or None: nothing of it runs or loads when shown."""
    kind = output.get("output_type")
    if kind == "stream":
        text = _text(output.get("text"))
        name = output.get("name") if output.get("name") in ("stdout", "stderr") else "stdout"
        return NotebookNode(output_type="stream", name=name, text=text) if text is not None else None
    if kind == "error":
        traceback = output.get("traceback")
        lines = [line for line in traceback if isinstance(line, str)] if isinstance(traceback, list) else []
        return NotebookNode(
            output_type="error",
            ename=_text(output.get("ename")) or "",
            evalue=_text(output.get("evalue")) or "",
            traceback=lines,
        )
    if kind in ("display_data", "execute_result"):
        data = output.get("data")
        shown = _data(data) if isinstance(data, Mapping) else {}
        if not shown:
            return None
        node = NotebookNode(output_type=kind, data=shown, metadata={})
        if kind == "execute_result":
            count = output.get("execution_count")
            node.execution_count = count if isinstance(count, int) else None
        return node
    return None


CSP_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.S | re.I)


def policy(page: str, inline_style: bool = False) -> str:
    """The Content-Security-Policy of ``page``: no script, nothing loaded but ``data:`` images; only the ``<style>``
    elements of its head (by hash), or any inline style if ``inline_style``."""
    if inline_style:
        styles = "'unsafe-inline'"
    else:
        head = page[: page.lower().find("</head>")] if "</head>" in page.lower() else ""
        digests = sorted({_digest(css) for css in CSP_STYLE.findall(head)})
        styles = " ".join(f"'sha256-{d}'" for d in digests) or "'none'"
    return (
        f"default-src 'none'; img-src data:; style-src {styles}; script-src 'none'; connect-src 'none'; "
        "font-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'"
    )


def _digest(css: str) -> str:
    """The hash a browser checks: of the element's text, its line ends made newlines as the HTML parser does."""
    text = css.replace("\r\n", "\n").replace("\r", "\n")
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


HEAD = re.compile(r"<head\b[^>]*>(\s*<meta charset=[^>]*>)?", re.I)
CSP_META = re.compile(r'\s*<meta http-equiv="Content-Security-Policy"[^>]*>', re.I)


def with_policy(page: str, inline_style: bool = False) -> str:
    """``page`` with its Content-Security-Policy first in its head, after its charset (a policy applies to what
    comes after it)."""
    page = CSP_META.sub("", page)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(page, inline_style)}">'
    found = HEAD.search(page)
    if found is None:
        raise ValueError("a page without <head>")
    return f"{page[: found.end()]}\n{meta}{page[found.end() :]}"


TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
"""Where raw HTML (or an autolink) can start in markdown: every renderer needs one of these (CommonMark does)."""
MARKDOWN_TAGS = frozenset(TAGS | {"input"})
"""What nbconvert's markdown renderer writes (a task list's disabled checkbox besides the cleaned page's elements)."""
MARKDOWN_ATTRIBUTES = frozenset(
    "id class href title src alt start type disabled checked style width height align colspan rowspan".split()
)
ALIGNED = re.compile(r"text-align:\s*(left|right|center)\s*;?")
FENCE = re.compile(r"`+")


class _Rendered(HTMLParser):
    """Whether HTML that nbconvert's markdown renderer wrote (no raw HTML in its markdown) runs and loads nothing."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inert = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inert = self.inert and tag in MARKDOWN_TAGS and all(self._inert(tag, n, v or "") for n, v in attrs)

    def _inert(self, tag: str, name: str, value: str) -> bool:
        if name not in MARKDOWN_ATTRIBUTES:
            return False
        if name == "href":
            return tag == "a" and LINK_URL.match(value.strip()) is not None
        if name == "src":
            value = value.strip()
            return tag == "img" and (IMAGE_URL.match(value) is not None or value.lower().startswith("attachment:"))
        if name == "style":
            return ALIGNED.fullmatch(value.strip()) is not None
        return True


def _renders_inertly(markdown: str) -> bool:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune  # formgrader's renderer (and the feedback's)

    parser = _Rendered()
    parser.feed(markdown2html_mistune(markdown))
    parser.close()
    return parser.inert


def inert_markdown(source: str | list[str]) -> str:
    """A student's markdown as any renderer may show it: unchanged if it holds no HTML and no link or image that could
    run or load anything; its HTML tags shown as text (``&lt;``) if that is enough; else its whole text as a code block.

    Escaping every ``<`` that could open a tag leaves a renderer no raw HTML to pass on; links and images of markdown's
    own syntax (``[x](javascript:...)``, ``![](http://...)``: nbconvert keeps both) are judged on the HTML that
    nbconvert's renderer, formgrader's, makes of them."""
    text = "".join(source) if isinstance(source, list) else source
    shown = TAG_START.sub("&lt;", text)
    if _renders_inertly(shown):
        return shown
    fence = "`" * max(3, 1 + max((len(run) for run in FENCE.findall(text)), default=0))
    return f"{fence}\n{text}\n{fence}"


def stored_output(output: Mapping[str, Any]) -> NotebookNode | None:
    """``inert_output`` for a notebook kept on disk (the autograded one, which formgrader renders): its markdown made
    inert too (``inert_markdown``; the feedback cleans it once rendered instead)."""
    shown = inert_output(output)
    if shown is not None and "text/markdown" in shown.get("data", {}):
        shown.data["text/markdown"] = inert_markdown(shown.data["text/markdown"])
    return shown
