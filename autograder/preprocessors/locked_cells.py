"""nbgrader's ``OverwriteCells``, telling a locked cell the student edited apart from one the release itself changed.

nbgrader stores each locked cell of ``source/`` in the gradebook with a checksum of its whole source, hidden tests
included, and ``generate_assignment`` then strips the ``### BEGIN HIDDEN TESTS`` block from the release. Every
submission, even the untouched release, therefore hands in each test cell with hidden tests without them, and stock
``OverwriteCells`` warns "Attribute 'checksum' for cell ... has changed!" for all of them (nbgrader issue #1961): a
dozen warnings per student that read like tampering. ``OverwriteLockedCells`` says nothing of a locked cell that is
exactly the release's version of it (the gradebook's source with its hidden tests stripped, by nbgrader's own
``ClearHiddenTests`` as configured, and every other attribute of the checksum unchanged), and warns plainly, naming
the cell, of any other change. Either way the cell is graded as nbgrader always grades it: put back as in the
gradebook, hidden tests included.
"""

from __future__ import annotations

import copy
from typing import Any

from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells
from traitlets import Bool, Unicode


class OverwriteLockedCells(OverwriteCells):
    """``OverwriteCells`` (``c.OverwriteCells.*`` still applies) that warns only of locked cells a submission edited."""

    quiet_when_as_released = Bool(
        True,
        help="Log a locked cell that differs from the gradebook only because the release stripped its hidden tests "
        "at DEBUG level, not as a warning (it is what every submission hands in), and warn of any other change "
        "with edited_cell_warning. False: log every checksum change as stock nbgrader does.",
    ).tag(config=True)
    edited_cell_warning = Unicode(
        "Locked cell {cell_id} was edited in this submission (it is not the cell as released): the original "
        "cell is graded in its place (checksum should be {expected}, got {got})",
        help="Warning logged for a locked cell whose submitted version is not the released one; {cell_id} is its "
        "grade_id, {expected} and {got} the gradebook's checksum and the submitted cell's.",
    ).tag(config=True)

    _cell: NotebookNode | None = None

    def preprocess_cell(self, cell: NotebookNode, resources: Any, cell_index: int) -> tuple[NotebookNode, Any]:
        self._cell = cell
        try:
            return super().preprocess_cell(cell, resources, cell_index)
        finally:
            self._cell = None

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        # OverwriteCells reports the checksum last, after it has put back the cell's type, points and locked flag.
        if attr != "checksum" or self._cell is None or not self.quiet_when_as_released:
            super().report_change(name, attr, old, new)
        elif self._as_released(name, self._cell, old):
            self.log.debug("Locked cell %s is as released (its hidden tests were stripped from the release)", name)
        else:
            self.log.warning(self.edited_cell_warning.format(cell_id=name, expected=old, got=new))

    def _as_released(self, name: str, cell: NotebookNode, checksum: str) -> bool:
        """Whether ``cell`` is the gradebook's cell ``name`` with only its hidden tests stripped, as in the release."""
        try:
            master = self.gradebook.find_source_cell(name, self.notebook_id, self.assignment_id).source
        except MissingEntry:
            return False
        released = NotebookNode(source=master)
        try:
            stripped = ClearHiddenTests(config=self.config)._remove_hidden_test_region(released)
        except RuntimeError:  # hidden tests nbgrader itself could not strip: no release was made from this source
            return False
        if not stripped or cell.source != released.source:
            return False
        # The rest of the checksum (type, grade and solution flags, locked, grade_id, points) must be the master's.
        restored = copy.deepcopy(cell)
        restored.source = master
        return utils.compute_checksum(restored) == checksum
