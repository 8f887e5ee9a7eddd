"""A notebook cell's nbgrader identity: its grade id (``metadata.nbgrader.grade_id``) and, for a hidden test cell,
the check it decides (its grade id is ``test_<check>``). Every reader of a cell's nbgrader metadata goes through here.

Trusted side, and imports nothing of the kit. The cells may be a student's notebook, whose metadata can be anything:
a missing or malformed one reads as none (no nbgrader metadata, the grade id "").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TEST_PREFIX = "test_"
"""A hidden test cell's grade_id is this prefix and its check's name."""


def nbgrader(cell: Any) -> Mapping[str, Any]:
    """The cell's nbgrader metadata (``{}`` for a cell without any, or with something else there)."""
    metadata = cell.get("metadata") if isinstance(cell, Mapping) else None
    found = metadata.get("nbgrader") if isinstance(metadata, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def grade_id(cell: Any) -> str:
    """The cell's nbgrader grade id, or "" for a cell without one."""
    found = nbgrader(cell).get("grade_id")
    return found if isinstance(found, str) else ""


def hidden_cell_id(check: str) -> str:
    """The grade id of the hidden test cell that decides ``check``."""
    return f"{TEST_PREFIX}{check}"


def check_named(name: str) -> str | None:
    """The check a hidden test cell's grade id (or gradebook grade name) names, or None for any other."""
    return name[len(TEST_PREFIX) :] if name.startswith(TEST_PREFIX) else None


def check_of(cell: Any) -> str | None:
    """The check a hidden test cell decides, or None for any other cell (a test cell is a code cell)."""
    if not isinstance(cell, Mapping) or cell.get("cell_type") != "code":
        return None
    return check_named(grade_id(cell))
