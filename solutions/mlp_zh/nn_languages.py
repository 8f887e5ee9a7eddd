"""The languages the kit's messages can be shown in: one declaration per language, everything the helpers keep about it.

English is the source language (every message's English wording is in its declaration); another language's wordings
are in ``i18n/messages.<code>.toml`` (``nn_wordings.json`` beside these helpers, generated from it: ``WORDINGS_FILE``),
its notebook's translation, if any, in ``i18n/mlp.<code>.md`` (without it the edition's notebook is the English
master's). Adding a language is that one file: its ``language`` table holds this module's ``Language`` fields, which
reach this module through the generated file (the maintainer guide's "Adding a language"). English and Chinese are
declared below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

WORDINGS_FILE = Path(__file__).with_name("nn_wordings.json")
"""The helpers' messages in each language but English, as data: ``{"languages": {code: Language fields},
"wordings": {code: {message id: wording}}}``, generated from ``i18n/messages.<code>.toml`` by the kit's ``edition``
command."""


def _generated() -> tuple[dict[str, dict], str | None]:
    """What ``WORDINGS_FILE`` holds, and why it could not be read (None if it could); nothing if it is missing or
    damaged: then every message is shown by its id and fields, with a note saying why (``UNREADABLE``)."""
    try:
        data = json.loads(WORDINGS_FILE.read_text(encoding="utf-8"))
        if all(isinstance(data.get(part), dict) for part in ("languages", "wordings")) and all(
            isinstance(words, dict) for words in data["wordings"].values()
        ):
            return data, None
        problem = "it is not the kit's"
    except (OSError, ValueError, AttributeError) as error:
        problem = str(error)
    return {"languages": {}, "wordings": {}}, problem


GENERATED, _problem = _generated()
UNREADABLE = (
    None
    if _problem is None
    else (
        f"(The messages' words, {WORDINGS_FILE.name} beside nn_public.py, could not be read: {_problem}. Messages are "
        "shown by their ids: copy the file back from the assignment's folder as it was released.)"
    )
)
"""The note a failed check ends with when ``WORDINGS_FILE`` could not be read (in English: its words are in it)."""
WORDED: dict[str, dict[str, object]] = GENERATED["languages"]
"""The languages declared in their wordings file: ``Language`` fields by code."""

CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "SimHei")
"""Fonts with Chinese characters, the most common first: Linux, Windows, macOS."""
PLOT_FONT = "nn_plot_font.otf"
"""The font beside these helpers with every character of the plot labels (a subset of Noto Sans CJK SC, its license
beside it, made by the kit's ``plot-font`` command): drawn in when none of a language's ``plot_fonts`` is installed."""


@dataclass(frozen=True)
class Language:
    """How one language shows the kit's messages."""

    code: str
    """Its code: the edition's ``nn_i18n.LANGUAGE``, the ``i18n/*.<code>.*`` files' suffix, ``mlp_<code>``."""
    name: str
    """Its name in English, as the kit's own messages to maintainers name it."""
    list_separator: str
    """What joins the items of a plain list."""
    and_word: str
    """What comes before the last item of a list whose items all count (``nn_messages.ALL_OF``)."""
    space_beside_wide: str = " "
    """What a space in a template between a field and a wide (Chinese, full-width) character becomes, when the other
    side is wide too: a template sets its fields off by spaces ("应为 {expected}"), which Chinese typography keeps
    beside Latin letters, code and numbers ("应为 0.5") and drops between two Chinese characters ("应为形状 (3, 2)")."""
    digit_group: str = ","
    """What groups the digits of a large count (60,000 in English, 60000 in Chinese)."""
    width: int = 80
    """Columns a message is wrapped to in a notebook (a Chinese character takes two columns)."""
    plot_fonts: tuple[str, ...] = ()
    """Fonts to draw plot labels in, the most common first (none: matplotlib's own, which has Latin letters)."""


ENGLISH = Language("en", "English", list_separator=", ", and_word=", ")
"""English keeps the comma lists its checks always showed."""
LANGUAGES = {
    language.code: language
    for language in (
        ENGLISH,
        Language(
            "zh",
            "Chinese",
            list_separator="、",
            and_word=" 和 ",
            space_beside_wide="",
            digit_group="",
            plot_fonts=CJK_FONTS,
        ),
        *(
            Language(code, **{k: tuple(v) if isinstance(v, list) else v for k, v in settings.items()})
            for code, settings in WORDED.items()
        ),
    )
}
"""Every language the kit knows, by code; English first, then Chinese, then those declared in their wordings file."""


def language(code: str) -> Language:
    """The language of ``code``; English for a code the table does not hold (a message is never shown empty)."""
    return LANGUAGES.get(code, ENGLISH)
