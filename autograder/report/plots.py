"""The report's charts as inline SVG (matplotlib's SVG backend): text kept as text, ids unique in the page.

No file, no script, no font embedded: the browser draws the labels, in any language.
"""

from __future__ import annotations

import html
import io
import re
import warnings
from collections.abc import Sequence

_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)
_ID = re.compile(r'(\bid="|url\(#|xlink:href="#|href="#)')


def _figure(width: float, height: float):  # noqa: ANN202 - matplotlib's Figure
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=72)
    figure.set_layout_engine("tight")
    return figure


def _svg(figure, name: str, alternative: str) -> str:  # noqa: ANN001 - matplotlib's Figure
    """The figure as one ``<svg>`` element, its ids prefixed with ``name`` (several charts share one page), read out
    as ``alternative`` (its text alternative: what it shows, as words and numbers)."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": name}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Glyph .* missing from font")  # text stays text: the browser's fonts draw it
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    svg = _XML_PROLOGUE.sub("", buffer.getvalue(), count=1)
    svg = _ID.sub(lambda m: f"{m.group(1)}{name}-", svg)
    label = html.escape(alternative, quote=True)
    return svg.replace("<svg ", f'<svg class="chart" role="img" aria-label="{label}" ', 1)


def histogram(
    values: Sequence[float],
    name: str,
    xlabel: str,
    bins: int | Sequence[float] = 20,
    value_range: tuple[float, float] | None = None,
    log: bool = False,
    ylabel: str = "students",
) -> str:
    """A histogram of ``values`` (number of students per bin) as SVG, its text alternative each bin's range and count;
    "" when there are none."""
    if not values:
        return ""
    import numpy as np

    figure = _figure(6.4, 2.6)
    axes = figure.add_subplot()
    data = np.asarray(values, dtype=float)
    if log:
        data = data[data > 0]
        low, high = (value_range or (data.min(), data.max())) if len(data) else (1, 10)
        bins = np.geomspace(max(low, 1e-3), max(high, low * 1.01, 1e-3 * 1.01), 21)
        axes.set_xscale("log")
    from matplotlib.ticker import MaxNLocator, ScalarFormatter

    shown_range = None if log else value_range
    counts, edges, _ = axes.hist(data, bins=bins, range=shown_range, color="#3b6ea5", edgecolor="white")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if log:
        axes.xaxis.set_major_formatter(ScalarFormatter())
        axes.xaxis.set_minor_formatter(ScalarFormatter())
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.spines[["top", "right"]].set_visible(False)
    shown = [f"{low:.3g}–{high:.3g}: {int(n)}" for n, low, high in zip(counts, edges[:-1], edges[1:], strict=True) if n]
    return _svg(figure, name, f"{xlabel} ({ylabel}): {', '.join(shown)}")


def pass_rates(names: Sequence[str], rates: Sequence[float], name: str, xlabel: str) -> str:
    """One horizontal bar per check: its pass rate (0..1), as SVG; its text alternative every check's rate."""
    if not names:
        return ""
    figure = _figure(6.4, 0.8 + 0.28 * len(names))
    axes = figure.add_subplot()
    positions = list(range(len(names)))[::-1]
    axes.barh(positions, [100 * r for r in rates], color="#3b6ea5")
    axes.set_yticks(positions, names, fontsize=9)
    axes.set_xlim(0, 100)
    axes.set_xlabel(xlabel)
    axes.spines[["top", "right"]].set_visible(False)
    shown = ", ".join(f"{check} {100 * rate:.0f} %" for check, rate in zip(names, rates, strict=True))
    return _svg(figure, name, f"{xlabel}: {shown}")
