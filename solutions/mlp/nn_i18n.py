"""The language this edition shows its messages in (``LANGUAGE``): English in the English edition, Chinese in the
Chinese edition.

Every message is declared once by id (``nn_messages``) and worded in each language of ``nn_languages``
(``nn_wordings``; English where a language has no wording); it is shown in ``LANGUAGE`` where a student reads it: a
``CheckFailed`` in the notebook, the public checks' "passed" line, what the training cell prints and plots (``say``),
the MNIST loader's errors. Another edition's copy of this file differs from this one in ``LANGUAGE`` only (the kit
generates it).
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from typing import Any

from nn_languages import PLOT_FONT, Language, language
from nn_messages import NO_CHINESE_FONT, Message, Text, render

LANGUAGE = "en"
"""The language messages are shown in: a code of ``nn_languages.LANGUAGES`` ("en", "zh")."""
# what the notebook uses, and all that help(nn_i18n) lists (the functions' docstrings are the edition's language)
__all__ = ["LANGUAGE", "say", "number", "use_plot_fonts"]


def shown_in() -> Language:
    """This edition's language (``LANGUAGE``): how its messages are worded, listed, wrapped and plotted."""
    return language(LANGUAGE)


def say(words: Message | Text, **fields: Any) -> str:
    """A message (with its fields) or a ``Text`` in this edition's language: what a notebook cell prints or plots."""
    return render(words(**fields) if isinstance(words, Message) else words, LANGUAGE)


def number(count: int) -> str:
    """A count as this edition's language writes it: 60,000 in English, 60000 in Chinese."""
    return f"{count:,}".replace(",", shown_in().digit_group)


def use_plot_fonts(plt: Any) -> None:
    """Let matplotlib (``plt``, its pyplot: these helpers import nothing beyond NumPy) draw this edition's plot
    labels: in the Chinese edition, Latin text in matplotlib's own font and Chinese in the first Chinese font
    installed, else in the one beside these helpers (``PLOT_FONT``; else a note on how to get one). The English
    edition changes nothing."""
    fonts = shown_in().plot_fonts
    if not fonts:
        return
    manager = plt.matplotlib.font_manager
    installed = {font.name for font in manager.fontManager.ttflist}
    found = [name for name in fonts if name in installed]
    shipped = Path(__file__).with_name(PLOT_FONT)
    if not found and shipped.is_file():
        manager.fontManager.addfont(shipped)
        found = [manager.FontProperties(fname=shipped).get_name()]
    if found:
        plt.rcParams["font.family"] = ["DejaVu Sans", *found]
        # some Chinese fonts have no "normal" weight (WenQuanYi's is 500): matplotlib uses theirs and says so, at length
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    else:
        print(NO_CHINESE_FONT().render(LANGUAGE))
        # said once, in the edition's language: not again per missing glyph, in English, by matplotlib
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
