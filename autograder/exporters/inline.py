"""A message's text as HTML to read: code spans (`...`) as ``<code>``, numbers, tuples and code kept on one line.

For the kit's own pages (the feedback's top box, the class report). Everything is escaped first: what a message
holds of the student's (a line of code, a value) stays text; the only markup is the ``<code>`` and ``<span>`` added
here, around escaped text. A backtick without its pair stays a backtick.
"""

from __future__ import annotations

import html
import re

CODE_SPAN = re.compile(r"`([^`\n]+)`")
NUMBER = r"[-−+]?\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?%?"
UNBROKEN = re.compile(
    rf"\((?:\s*{NUMBER}\s*,)+\s*(?:{NUMBER}\s*)?\)"  # a tuple of numbers: a shape, (64, 10)
    rf"|{NUMBER}(?:\s*[/×x]\s*{NUMBER})*(?:\s*%)?",  # a number, a ratio or product of numbers: 0.8 / 6, 2 × 3
    re.I,
)
CLASS = "kit-nowrap"
CSS = f".{CLASS} {{ white-space: nowrap; }} code.kit-code {{ white-space: nowrap; }}"
"""What the page's style needs for these spans."""


def _unbroken(text: str) -> str:
    """Escaped ``text`` with each number, ratio and tuple of numbers in a no-wrap span."""
    pieces, last = [], 0
    for match in UNBROKEN.finditer(text):
        if " " not in match.group(0) and "," not in match.group(0):
            continue  # one plain number never breaks
        kept = f'<span class="{CLASS}">{html.escape(match.group(0))}</span>'
        pieces += [html.escape(text[last : match.start()]), kept]
        last = match.end()
    return "".join([*pieces, html.escape(text[last:])])


def readable(text: str) -> str:
    """``text`` (plain, possibly the student's) as HTML: code spans as ``<code>``, numbers kept whole."""
    pieces, last = [], 0
    for match in CODE_SPAN.finditer(text):
        pieces += [_unbroken(text[last : match.start()]), f'<code class="kit-code">{html.escape(match[1])}</code>']
        last = match.end()
    return "".join([*pieces, _unbroken(text[last:])])
