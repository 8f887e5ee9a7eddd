"""A message's words as tests pin them: read from its declaration (English) and its language's file
(``nn_wordings.json``, generated from ``i18n/messages.<language>.toml``), never copied by hand, so that a reworded
message needs no test edited while what the test pins (which message, which cause, which field) still fails when it
changes."""

from __future__ import annotations

from typing import Any

from autograder.course.nn_messages import Message


def said(message: Message, language: str = "en", **fields: Any) -> str:
    """``message`` with ``fields`` in ``language``, as a line of a failure shows it, its indent aside."""
    return message(**fields).render(language).strip()


def lead(message: Message, language: str = "en") -> str:
    """The words ``message``'s template starts with in ``language``, up to its first field: "Likely cause:"."""
    return message.template(language).split("{", 1)[0].strip()
