"""The course's message catalogue, to show a verdict's texts (data: an id and fields) in the edition's language.

The texts' wording is the release's ``nn_messages`` with the grader's own ids (``autograder.messages``); the language
is ``LANGUAGE`` in the release's ``nn_i18n.py``, read without running it.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TextData = Mapping[str, Any]
"""A text as a verdict holds it: ``{"id": ..., "fields": {name: raw value | text}}``."""


@dataclass(frozen=True)
class Catalogue:
    """The edition's language and a way to show a text in it."""

    language: str
    render_text: Callable[[TextData, str], str] | None = None

    def render(self, data: TextData | None) -> str:
        """``data`` in the edition's language; its id (and fields) if the catalogue does not know it."""
        if not data:
            return ""
        if self.render_text is not None:
            try:
                return self.render_text(data, self.language)
            except (KeyError, IndexError, ValueError, TypeError):
                pass
        return str(data.get("id", ""))


def edition_language(release: Path) -> str:
    """``LANGUAGE`` of the release's ``nn_i18n.py`` ("en" if there is none)."""
    try:
        tree = ast.parse((release / "nn_i18n.py").read_text())
    except (OSError, SyntaxError):
        return "en"
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "LANGUAGE" for t in node.targets):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    return "en"


def load_catalogue(release: Path) -> Catalogue:
    """The catalogue of the release in ``release``: its helpers put on ``sys.path`` (as grading does), then the
    grader's message ids declared; without ``nn_messages`` there, texts are shown by id."""
    language = edition_language(release)
    if not (release / "nn_messages.py").is_file():
        return Catalogue(language)
    if str(release.resolve()) not in sys.path:
        sys.path.insert(0, str(release.resolve()))
    nn_messages = importlib.import_module("nn_messages")
    importlib.import_module("autograder.messages")

    def render_text(data: TextData, language: str) -> str:
        return nn_messages.render(nn_messages.Text.from_data(data), language)

    return Catalogue(language, render_text)
