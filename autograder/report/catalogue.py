"""The course's message catalogue, to show a verdict's texts (``nn_messages.Text``) in the edition's language.

The texts' wording is the grader's own (``autograder.course.nn_messages``, with the ids of ``autograder.messages``);
the language is the release's edition's (``autograder.helpers.edition_language``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.helpers import edition_language

if TYPE_CHECKING:
    from autograder.course.nn_messages import Text


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
    """The catalogue of the release in ``release``: the grader's own messages (``autograder.course.nn_messages`` and
    ``autograder.messages``), shown in the release's edition's language."""
    import autograder.messages  # noqa: F401 - declares the grader's message ids, which verdicts name

    return Catalogue(edition_language(release))
