"""Write the master notebook's hidden test cells from the registry: ``python -m autograder hidden-cells [--check]``.

Every check in ``autograder.registry`` gets its cell (grade_id ``test_<name>``) with the source and points it
declares. A check without a cell gets a new one after the last cell of its part (the answer cell, its public check
or an earlier hidden cell); a hidden cell whose check is gone is removed. ``python -m autograder regenerate`` runs
this first, then brings the rest up to date (points tables, editions, release, solutions). ``--check`` only
compares: exit 1 if the notebook differs.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path

import nbformat
from nbformat import NotebookNode

from autograder import registry
from autograder.cell_ids import check_named
from autograder.cell_ids import grade_id as grade_id_of

MASTER = Path(__file__).resolve().parents[2] / "source" / "mlp" / "mlp.ipynb"


def _new_cell(check: registry.Check) -> NotebookNode:
    cell = nbformat.v4.new_code_cell(registry.hidden_cell_source(check))
    cell.id = uuid.uuid4().hex[:8]
    cell.metadata = {
        "nbgrader": {
            "grade": True,
            "grade_id": check.cell,
            "locked": True,
            "points": check.points,
            "schema_version": 3,
            "solution": False,
            "task": False,
        }
    }
    return cell


def _part_of(grade_id: str) -> str | None:
    """The part a cell belongs to: an answer cell, its public check, or a hidden cell."""
    check = check_named(grade_id)
    if check is not None and check in registry.BY_NAME:
        return registry.check(check).part
    name = grade_id.removeprefix("public_")
    return name if name in registry.parts() else None


def synced(notebook: NotebookNode) -> NotebookNode:
    """A copy of ``notebook`` whose hidden test cells are exactly the registry's."""
    nb = nbformat.from_dict(notebook)
    wanted = {check.cell: check for check in registry.CHECKS}
    nb.cells = [c for c in nb.cells if check_named(grade_id_of(c)) is None or grade_id_of(c) in wanted]
    for cell in nb.cells:
        check = wanted.get(grade_id_of(cell))
        if check is not None:
            cell.source = registry.hidden_cell_source(check)
            cell.metadata["nbgrader"]["points"] = check.points
    present = {grade_id_of(c) for c in nb.cells}
    for check in registry.CHECKS:
        if check.cell in present:
            continue
        same_part = (i for i, c in enumerate(nb.cells) if _part_of(grade_id_of(c)) == check.part)
        at = max(same_part, default=len(nb.cells) - 1)
        nb.cells.insert(at + 1, _new_cell(check))
        present.add(check.cell)
    return nb


def write(notebook: Path = MASTER) -> bool:
    """Write ``notebook``'s hidden test cells from the registry; whether it changed."""
    text = notebook.read_text()
    new = nbformat.writes(synced(nbformat.reads(text, as_version=4))) + "\n"
    if new != text:
        notebook.write_text(new)
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the notebook is out of date")
    parser.add_argument("--notebook", type=Path, default=MASTER, help="the master notebook (default: %(default)s)")
    args = parser.parse_args(argv)
    text = args.notebook.read_text()
    new = nbformat.writes(synced(nbformat.reads(text, as_version=4))) + "\n"
    if new == text:
        print(f"{args.notebook}: the hidden test cells match the registry.")
        return 0
    if args.check:
        print(
            f"{args.notebook}: the hidden test cells differ from the registry: run `python -m autograder hidden-cells`",
            file=sys.stderr,
        )
        return 1
    args.notebook.write_text(new)
    print(f"{args.notebook}: hidden test cells written from the registry; now run `python -m autograder regenerate`.")
    return 0
