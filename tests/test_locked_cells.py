"""The grading log warns of a locked cell a submission edited, and of nothing the release itself changed.

Fast: the gradebook is made by nbgrader's own SaveCells from this repository's source notebook (as
``generate_assignment`` makes it), and the submission is the committed release, edited or not. The whole grading
log, as nbgrader autograde writes it, is checked in tests/test_grading_log.py (slow tier).
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.preprocessors import ComputeChecksums, SaveCells
from traitlets.config import Config

from autograder import cell_ids
from autograder.preprocessors.locked_cells import OverwriteLockedCells
from autograder.settings import apply
from report_course import fast_new_gradebook

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "source" / "mlp" / "mlp.ipynb"
RELEASE = REPO / "release" / "mlp" / "mlp.ipynb"


@pytest.fixture(scope="module")
def resources(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The gradebook of a course with this repository's source (OverwriteCells only reads it)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('locked-cells') / 'gradebook.db'}"
    with fast_new_gradebook(), Gradebook(url) as gradebook:  # its alembic head read in-process, not by a subprocess
        gradebook.add_assignment("mlp")
    info = {"nbgrader": {"notebook": "mlp", "assignment": "mlp", "db_url": url}}
    source, _ = ComputeChecksums().preprocess(nbformat.read(SOURCE, as_version=4), {})
    SaveCells().preprocess(source, copy.deepcopy(info))
    return info


def _overwrite(nb: nbformat.NotebookNode, resources: dict, **traits) -> tuple[nbformat.NotebookNode, list[str]]:
    """The kit's OverwriteCells, configured as a course's nbgrader_config.py configures it; what it logged."""
    config = Config()
    apply(config)
    records: list[logging.LogRecord] = []
    log = logging.getLogger(f"test-locked-cells-{id(records)}")
    log.setLevel(logging.DEBUG)
    log.addHandler(handler := logging.Handler())
    handler.emit = records.append  # type: ignore[method-assign]
    preprocessor = OverwriteLockedCells(config=config, log=log, **traits)
    nb, _ = preprocessor.preprocess(nb, copy.deepcopy(resources))
    return nb, [f"{r.levelname} {r.getMessage()}" for r in records if r.levelno >= logging.WARNING]


def _cell(nb: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if cell_ids.grade_id(c) == grade_id)


def test_the_kit_registers_it_in_place_of_overwrite_cells() -> None:
    config = Config()
    apply(config)
    preprocessors = config.Autograde.sanitize_preprocessors
    assert "autograder.preprocessors.locked_cells.OverwriteLockedCells" in preprocessors
    assert "nbgrader.preprocessors.OverwriteCells" not in preprocessors
    assert OverwriteLockedCells(config=config).add_missing_cells  # c.OverwriteCells.* still reaches it


def test_the_untouched_release_logs_no_warning_and_gets_its_hidden_tests_back(resources: dict) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    hidden = [c for c in nbformat.read(SOURCE, as_version=4).cells if _hidden(c)]
    assert len(hidden) >= 12  # the release lost them: stock nbgrader warns of each cell
    assert not any(_hidden(_cell(release, cell_ids.grade_id(c))) for c in hidden)
    graded, warnings = _overwrite(release, resources)
    assert warnings == []
    for cell in hidden:
        assert _cell(graded, cell_ids.grade_id(cell)).source == cell.source


def _hidden(cell: nbformat.NotebookNode) -> bool:
    return "BEGIN HIDDEN TESTS" in cell.source


@pytest.mark.parametrize("edited", ["test_relu_forward", "setup"])  # a test cell; a locked cell without tests
def test_an_edited_locked_cell_is_warned_of_by_name_and_graded_as_the_original(resources: dict, edited: str) -> None:
    release = nbformat.read(RELEASE, as_version=4)
    _cell(release, edited).source += "\nprint('I changed a locked cell')"
    graded, warnings = _overwrite(release, resources)
    assert len(warnings) == 1 and f"Locked cell {edited} was edited" in warnings[0], warnings
    assert _cell(graded, edited).source == _cell(nbformat.read(SOURCE, as_version=4), edited).source


def test_stock_warnings_come_back_when_configured(resources: dict) -> None:
    _, warnings = _overwrite(nbformat.read(RELEASE, as_version=4), resources, quiet_when_as_released=False)
    assert len(warnings) >= 12 and all("Attribute 'checksum' for cell test_" in w for w in warnings), warnings
