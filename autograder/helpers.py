"""The course's released helper modules, as the trusted side uses them: importable, and the edition's language.

The judges apply the mistake catalogue students read (``nn_diagnosis``) and every message is declared in
``nn_messages``: the grader imports the release's copies (the trusted ones the instructor generated, never a
submission). ``use`` makes them importable in this process, once; ``edition_language`` reads the edition's language.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def use(release: Path) -> None:
    """Make the helper modules of ``release`` (an assignment's release folder) importable in this process."""
    if str(release) not in sys.path:
        sys.path.insert(0, str(release))


def edition_language(release: Path) -> str:
    """The language of the release's edition: ``nn_i18n.LANGUAGE`` there, read without importing it (two editions may
    be graded in one process)."""
    try:
        tree = ast.parse((release / "nn_i18n.py").read_text())
    except (OSError, SyntaxError):
        return "en"
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["LANGUAGE"]:
            return str(ast.literal_eval(node.value))
    return "en"
