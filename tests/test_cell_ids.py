"""Reading a cell's nbgrader identity (``autograder.cell_ids``): the grade id, and the check a hidden test cell
decides; a student's malformed metadata reads as none instead of raising. Fast tier."""

from __future__ import annotations

from typing import Any

import pytest

from autograder import cell_ids, registry
from autograder.cell_ids import check_named, check_of, grade_id, nbgrader


def _cell(metadata: Any, cell_type: str = "code") -> dict[str, Any]:
    return {"cell_type": cell_type, "metadata": metadata, "source": ""}


def test_every_checks_test_cell_names_it_back() -> None:
    for check in registry.CHECKS:
        assert check.cell == cell_ids.hidden_cell_id(check.name)
        assert check_of(_cell({"nbgrader": {"grade_id": check.cell}})) == check.name
    assert check_named("linear") is None and check_named("public_linear") is None


@pytest.mark.parametrize("metadata", [None, [], {"nbgrader": None}, {"nbgrader": {"grade_id": 7}}])
def test_malformed_metadata_reads_as_no_grade_id(metadata: Any) -> None:
    cell = _cell(metadata)
    assert grade_id(cell) == "" and check_of(cell) is None
    assert nbgrader(cell) == ({"grade_id": 7} if isinstance(metadata, dict) and metadata["nbgrader"] else {})


def test_only_a_code_cell_is_a_hidden_test_cell() -> None:
    metadata = {"nbgrader": {"grade_id": "test_relu_forward", "points": 5}}
    assert check_of(_cell(metadata, "markdown")) is None and check_of("not a cell") is None
    assert grade_id(_cell(metadata, "markdown")) == "test_relu_forward"
    assert nbgrader(_cell(metadata))["points"] == 5
