"""The registry of checks is the one list: every entry resolves, and the notebook's hidden cells are written from it.

Fast tier: no nbgrader run, no sandbox.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the judges import the course's helpers

from autograder import registry  # noqa: E402
from autograder.cell_ids import grade_id, nbgrader  # noqa: E402
from autograder.cli import demo, hidden_cells  # noqa: E402
from catalogue.mistakes import MISTAKES  # noqa: E402

MASTER = REPO / "source" / "mlp" / "mlp.ipynb"


@pytest.mark.parametrize("check", registry.CHECKS, ids=lambda c: c.name)
def test_every_check_names_a_probe_a_judge_and_inputs_that_exist(check: registry.Check) -> None:
    assert inspect.getmodule(registry.probe_of(check.name)).__name__.startswith("autograder.probe.")
    assert inspect.getmodule(registry.judge_of(check.name)).__name__.startswith("autograder.judge.")
    assert callable(registry.inputs_of(check.name))
    assert check.answer_cell in registry.answers() and set(check.also_costs) <= set(registry.answers())
    assert json.loads(json.dumps(registry.manifest((check.name,)))) == registry.manifest((check.name,))


def test_the_points_add_up_to_100_and_every_name_is_unique() -> None:
    assert sum(check.points for check in registry.CHECKS) == 100
    assert len(registry.BY_NAME) == len(registry.CHECKS)


def test_every_check_runs_in_exactly_one_worker() -> None:
    names = [name for group in registry.worker_groups() for name in group]
    assert sorted(names) == sorted(registry.BY_NAME)


def test_a_checks_probe_and_judge_are_paired_by_part() -> None:
    """``probe/<part>.py`` records what the student's class does, ``judge/<part>.py`` decides on it."""
    for check in registry.CHECKS:
        assert check.probe.split(".")[0] == check.judge.split(".")[0], check
        assert (REPO / "autograder" / "probe" / f"{check.probe.split('.')[0]}.py").is_file(), check


def test_three_workers_the_layers_the_mlp_and_the_gate() -> None:
    """The layers' probes share a worker, the MLP's (whose stand-ins are correct layers) have their own, the gate runs
    alone: one worker per group, not one per check or per probe module (each worker costs a start-up)."""
    groups = registry.worker_groups()
    modules = [{registry.check(name).probe.split(".")[0] for name in group} for group in groups]
    assert modules == [set(registry.LAYER_PROBES), {"mlp"}, {"gate"}], modules
    assert groups[-1] == ("mnist_accuracy",)


def test_the_master_notebooks_hidden_cells_are_the_registrys() -> None:
    """(The editions copy the master's code cells: tests/test_edition.py.)"""
    text = MASTER.read_text()
    assert nbformat.writes(hidden_cells.synced(nbformat.reads(text, as_version=4))) + "\n" == text, (
        "run `python -m autograder regenerate`"
    )


def _cells(nb: nbformat.NotebookNode) -> list[str]:
    return [grade_id(c) or c.cell_type for c in nb.cells]


def test_a_new_check_gets_its_cell_after_its_part_and_a_removed_one_loses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    new = dataclasses.replace(registry.check("relu_backward"), name="relu_backward_twice", points=3)
    checks = tuple(c for c in registry.CHECKS if c.name != "sgd_step") + (new,)
    monkeypatch.setattr(registry, "CHECKS", checks)
    monkeypatch.setattr(registry, "BY_NAME", {c.name: c for c in checks})
    before = nbformat.read(MASTER, as_version=4)
    after = hidden_cells.synced(before)
    order = _cells(after)
    last = max(order.index(cell) for cell in registry.cells_of_part("relu") if cell != new.cell)
    assert order.index(new.cell) == last + 1  # after its part's other cells
    assert "test_sgd_step" not in order and "sgd" in order and "public_sgd" in order
    cell = after.cells[order.index(new.cell)]
    assert cell.source == registry.hidden_cell_source(new) and nbgrader(cell)["points"] == 3
    assert len(order) == len(_cells(before)) and "test_sgd_step" in _cells(before)  # the original is left as it was


def test_the_demo_mistake_is_the_catalogued_one() -> None:
    catalogued = next(m for m in MISTAKES if m.name == "linear_dw_transposed")
    assert (catalogued.edits, catalogued.description) == (demo.CAROLS_EDITS, demo.CAROLS_MISTAKE)
