"""The language of a release's edition, which the trusted side renders every message in.

The grader imports its own copy of the course's helpers (``autograder.course``), never a release's: of a release it
reads only the edition's language, ``nn_i18n.LANGUAGE``, as text.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any


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


def graded_language(config: Any, resources: Any) -> str:
    """The language of the edition a preprocessor is grading (nbgrader names its assignment in ``resources``): the
    language its notes are written in; English if it cannot be told."""
    from autograder.settings import CoursePaths

    assignment = (resources or {}).get("nbgrader", {}).get("assignment")
    return edition_language(CoursePaths(config).release(assignment)) if assignment else "en"
