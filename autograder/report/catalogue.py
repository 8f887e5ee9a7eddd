"""The course's message catalogue, to show a verdict's texts (``nn_messages.Text``) in the edition's language.

The texts' wording is the release's ``nn_messages`` with the grader's own ids (``autograder.messages``); the language
is the release's edition's (``autograder.helpers.edition_language``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.helpers import edition_language, use

if TYPE_CHECKING:
    from nn_messages import Text


@dataclass(frozen=True)
class Catalogue:
    """The edition's language, and a text shown in it."""

    language: str

    def render(self, text: Text | None) -> str:
        """``text`` in the edition's language; its id if the catalogue does not know it."""
        if text is None:
            return ""
        try:
            return text.render(self.language)
        except (KeyError, IndexError, ValueError, TypeError):
            return text.id


def load_catalogue(release: Path) -> Catalogue:
    """The catalogue of the release in ``release``: its helpers made importable (as grading does, so verdicts can be
    read), then the grader's message ids declared."""
    if not (release / "nn_messages.py").is_file():
        raise FileNotFoundError(
            f"the release {release} has no nn_messages.py, which every verdict's texts need: generate the release "
            "again (nbgrader generate_assignment)"
        )
    use(release.resolve())
    importlib.import_module("nn_messages")
    importlib.import_module("autograder.messages")
    return Catalogue(edition_language(release))
