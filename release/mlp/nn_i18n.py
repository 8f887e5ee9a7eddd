"""The language this edition shows its messages in: English (this edition), or Chinese in the Chinese edition.

Every message is declared once with all its languages (``nn_messages``); a message is shown in ``LANGUAGE`` where a
student reads it: a ``CheckFailed`` in the notebook, the public checks' "passed" line. The Chinese edition's copy of
this file differs from this one in ``LANGUAGE`` only (the kit generates it).
"""

from __future__ import annotations

import logging
from typing import Any

from nn_messages import NO_CHINESE_FONT

LANGUAGE = "en"
"""The language messages are shown in: "en" or "zh"."""

WIDTH = {"en": 80, "zh": 80}
"""Columns a message is wrapped to in a notebook, per language (a Chinese character takes two columns)."""

CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "SimHei")
"""Fonts with Chinese characters, the most common first: Linux, Windows, macOS."""


def use_plot_fonts(plt: Any) -> None:
    """Let matplotlib (``plt``, its pyplot: these helpers import nothing beyond NumPy) draw this edition's plot
    labels: in the Chinese edition, Latin text in matplotlib's own font and Chinese in the first Chinese font
    installed (or a note on how to get one). The English edition changes nothing."""
    if LANGUAGE == "en":
        return
    installed = {font.name for font in plt.matplotlib.font_manager.fontManager.ttflist}
    found = [name for name in CJK_FONTS if name in installed]
    if found:
        plt.rcParams["font.family"] = ["DejaVu Sans", *found]
        # some Chinese fonts have no "normal" weight (WenQuanYi's is 500): matplotlib uses theirs and says so, at length
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    else:
        print(NO_CHINESE_FONT().render(LANGUAGE))
