"""release/ and solutions/ are generated from source/ and contain what they should, and nothing more."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest

from autograder import classroom, registry
from autograder.cell_ids import check_of, grade_id, nbgrader
from autograder.cli import edition
from conftest import REPO

GENERATED = ("release", "solutions")


def _files(root: Path) -> dict[str, Path]:
    return {
        str(p.relative_to(root)): p for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts
    }


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


EDITIONS = (classroom.ASSIGNMENT, *(f"{classroom.ASSIGNMENT}_{language}" for language in edition.languages()))
"""The English master and every edition generated from it (``python -m autograder edition <language>``)."""


@pytest.mark.parametrize("folder", GENERATED)
def test_committed_folder_matches_a_fresh_generation(course: Path, folder: str, tmp_path: Path) -> None:
    fresh = _files(course / folder)  # the course fixture generates mlp; the other editions only here, each in a
    for assignment in EDITIONS[1:]:  # course of its own (a course lists every folder of its source/ in formgrader)
        editions = tmp_path / assignment
        (editions / "source").mkdir(parents=True)
        shutil.copy(REPO / "nbgrader_config.py", editions)
        shutil.copytree(REPO / "source" / assignment, editions / "source" / assignment)
        classroom.nbgrader(editions, "generate_assignment", assignment, "--force")  # the gradebook knows it then
        if folder == "solutions":
            classroom.nbgrader(editions, "generate_solution", assignment, "--force")
        fresh.update(_files(editions / folder))
    committed = _files(REPO / folder)
    command = "python -m autograder regenerate"
    assert sorted(committed) == sorted(fresh), (
        f"{folder}/ has other files than a fresh generation: run `{command}` and commit"
    )
    for name, path in fresh.items():
        if name.endswith(".ipynb"):
            same = json.loads(path.read_text()) == json.loads(committed[name].read_text())
        else:
            same = path.read_bytes() == committed[name].read_bytes()
        assert same, f"{folder}/{name} is out of date with source/: run `{command}` and commit"


def test_release_has_no_solution_and_no_hidden_test_code() -> None:
    release = REPO / "release" / classroom.ASSIGNMENT
    text = "\n".join(p.read_text() for p in release.rglob("*") if p.is_file() and p.suffix in (".py", ".ipynb"))
    for marker in (
        "BEGIN SOLUTION",
        "END SOLUTION",
        "BEGIN HIDDEN TESTS",
        "autograder",
        "1ae287373328993a4b3c76daec8bbe62",
    ):
        assert marker not in text, f"release/ contains {marker!r}"
    answers = [c for c in _cells(release / classroom.NOTEBOOK) if nbgrader(c).get("solution")]
    assert {grade_id(c) for c in answers} == set(registry.answers())
    code = "\n".join(_source(c) for c in _cells(release / classroom.NOTEBOOK) if c["cell_type"] == "code")
    for snippet in (
        "x.T @ grad",
        "grad.sum(axis=0)",
        'self.ctx["probs"]',
        "p -= self.lr * p.grad",
        "self.fc2.backward(grad)",
    ):
        assert snippet not in code, f"release/ still contains solution code {snippet!r}"
    stubs = sum(_source(c).count("raise NotImplementedError()") for c in answers)
    assert stubs == 9, f"expected 9 stubbed methods (2 Linear, 2 ReLU, 2 CrossEntropyLoss, 1 SGD, 2 MLP), found {stubs}"


@pytest.mark.parametrize("assignment", EDITIONS)
def test_the_solution_holds_no_hidden_test_code(assignment: str) -> None:
    """The answer key runs on its own, where the kit is not installed: its hidden tests are stripped as the release's
    (the slow tier validates it so, ``tests/test_student_validate.py``)."""
    text = (REPO / "solutions" / assignment / f"{assignment}.ipynb").read_text()
    assert "BEGIN HIDDEN TESTS" not in text and "autograder" not in text, f"solutions/{assignment} calls the kit"


def test_hidden_test_cells_are_one_quiet_call_each() -> None:
    cells = [c for c in _cells(REPO / "source" / classroom.ASSIGNMENT / classroom.NOTEBOOK) if check_of(c) is not None]
    assert {grade_id(c) for c in cells} == {check.cell for check in registry.CHECKS}
    for cell in cells:
        hidden = re.search(r"### BEGIN HIDDEN TESTS\n(.*)\n### END HIDDEN TESTS", _source(cell), re.S)
        assert hidden, f"{grade_id(cell)} has no hidden block"
        # one call, ended by `;` so IPython shows no value (nbgrader would read a value as partial credit)
        assert re.fullmatch(r"import autograder; autograder\.check_\w+\(\w+\);", hidden.group(1)), hidden.group(1)


def test_public_check_cells_are_short_locked_zero_point_autograded_cells() -> None:
    """nbgrader's Validate fails a 0-point test cell that raised: so it reports a failed public check."""
    cells = [
        c
        for c in _cells(REPO / "release" / classroom.ASSIGNMENT / classroom.NOTEBOOK)
        if _source(c).startswith("# Public checks for ")
    ]
    assert [nbgrader(c).get("grade_id") for c in cells] == [f"public_{p}" for p in registry.answers()]
    for cell, (part, name) in zip(cells, registry.answers().items(), strict=True):
        meta = nbgrader(cell)
        assert meta["grade"] and meta["locked"] and meta["points"] == 0 and not meta["solution"], meta
        assert _source(cell).splitlines()[-1] == f"nn_public.check_{part}({name})"
        assert len(_source(cell).splitlines()) <= 4 and max(len(line) for line in _source(cell).splitlines()) <= 100


TABLE_ROWS = {registry.part_label(part): part for part in registry.parts()}
"""The points table's rows, by the name each part has there."""


def check_points_table(where: str, text: str) -> None:
    """The markdown table `| part | cells with points | total |` agrees with the notebook's metadata."""
    cells = _cells(REPO / "source" / classroom.ASSIGNMENT / classroom.NOTEBOOK)
    points = {grade_id(c): nbgrader(c)["points"] for c in cells if nbgrader(c).get("grade")}
    rows = {
        label: (detail.strip(), int(total))
        for label, detail, total in re.findall(r"^\| (.+?) \|(.*?)\| \**(\d+)\** \|$", text, re.M)
    }
    assert set(TABLE_ROWS) | {"**total**"} <= set(rows), f"{where}: points table rows {sorted(rows)}"
    for label, part in TABLE_ROWS.items():
        test_cells = registry.cells_of_part(part)
        detail, total = rows[label]
        assert total == sum(points[c] for c in test_cells), f"{where}: {label} total {total}"
        if part not in registry.SECTIONS:  # a section's row names its one cell without its points
            # each cell's points end its item ("forward 5, x<0 2"): a digit in a check's short name is no figure
            figures = re.findall(r"(?<= )(\d+)(?=[,、]|$)", f" {detail}")
            assert [int(n) for n in figures] == [points[c] for c in test_cells], f"{where}: {label} split {detail}"
    assert rows["**total**"][1] == sum(points.values()) == 100  # a course decision


def test_points_add_up_to_100_and_the_notebook_table_agrees() -> None:
    intro = _source(_cells(REPO / "source" / classroom.ASSIGNMENT / classroom.NOTEBOOK)[0])
    check_points_table("the notebook's introduction", intro)


def test_the_graders_course_helpers_are_the_masters_files() -> None:
    """``autograder/course/`` holds no copy: each module of ``MODULES`` is a link to ``source/mlp/``'s, the file
    students get, so the judges cannot use other messages or another catalogue than students read; every helper the
    master's modules import of one another is among them."""
    from autograder import course

    folder = REPO / "autograder" / "course"
    assert sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py") == sorted(
        f"{name}.py" for name in course.MODULES
    )
    for name in course.MODULES:
        link = folder / f"{name}.py"
        assert link.is_symlink() and link.resolve() == (REPO / "source" / "mlp" / f"{name}.py").resolve(), link
        for node in ast.walk(ast.parse(link.read_text())):
            names = [node.module] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            helpers = {n for n in names if n and (n.startswith("nn_") or n == "mnist_data")}
            assert helpers <= set(course.MODULES), f"{name}.py imports {helpers}, not all modules of the grader's"
    data = [p for p in folder.iterdir() if p.suffix not in (".py", "") and p.name != "__pycache__"]
    assert [p.name for p in data] == ["nn_wordings.json"], data  # the data they read, a link to the master's too
    assert data[0].is_symlink() and data[0].resolve() == (REPO / "source" / "mlp" / "nn_wordings.json").resolve()
