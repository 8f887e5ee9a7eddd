"""The points the kit states in words are the registry's (``autograder.cli.points_table``), and
``python -m autograder regenerate`` brings every generated file up to date in one run."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder import registry
from autograder.cli import edition, points_table, wordings
from conftest import REPO

COMMAND = "run `python -m autograder regenerate`"


def _moved(giver: str, taker: str, points: int = 1) -> tuple[registry.Check, ...]:
    """The registry's checks with ``points`` moved from ``giver`` to ``taker``."""
    change = {giver: -points, taker: points}
    return tuple(dataclasses.replace(c, points=c.points + change.get(c.name, 0)) for c in registry.CHECKS)


@pytest.fixture
def relu_six_and_six(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = _moved("relu_backward", "relu_forward")
    monkeypatch.setattr(registry, "CHECKS", checks)
    monkeypatch.setattr(registry, "BY_NAME", {c.name: c for c in checks})


def _relu_cells(separator: str = ", ") -> str:
    """The ``ReLU`` row's cells and total as the registry has them now: "forward 5, backward 7 | 12 |"."""
    checks = [c for c in registry.CHECKS if c.part == "relu"]
    return separator.join(f"{c.short} {c.points}" for c in checks) + f" | {sum(c.points for c in checks)} |"


def test_every_stated_points_table_and_hidden_cell_comment_is_the_registrys() -> None:
    assert points_table.outdated(REPO) == [], f"the points stated there are not the registry's: {COMMAND}"


def test_each_part_is_a_row_of_its_cells_and_their_points_and_the_total_is_the_registrys() -> None:
    lines = points_table.table("en").splitlines()
    assert lines[0] == "| part | hidden test cells (points) | points |" and len(lines) == 3 + len(registry.parts())
    linear = [c for c in registry.CHECKS if c.part == "linear"]
    assert lines[2] == (
        "| `Linear` | " + ", ".join(f"{c.short} {c.points}" for c in linear) + f" | {sum(c.points for c in linear)} |"
    )
    gate = registry.check("mnist_accuracy")
    assert f"| MNIST | {gate.short} | {gate.points} |" in lines
    assert lines[-1] == f"| **total** | | **{sum(c.points for c in registry.CHECKS)}** |"


@pytest.mark.usefixtures("relu_six_and_six")
def test_the_tables_follow_a_move_of_points_in_every_language() -> None:
    assert f"| `ReLU` | {_relu_cells()}" in points_table.table("en").splitlines()
    assert f"| `ReLU` | {_relu_cells('、')}" in points_table.table("zh").splitlines()
    assert (
        f"| MNIST | 准确率 ≥ 97% | {registry.check('mnist_accuracy').points} |" in points_table.table("zh").splitlines()
    )


def test_a_language_without_the_tables_wording_shows_it_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's words are messages (``points.*``): a language of the table with none of them gets the English
    words, joined by its own list separator."""
    table = wordings.languages().LANGUAGES
    code = "qx"  # a code no language of the kit has (a real French edition may word the table)
    assert code not in table
    unworded = dataclasses.replace(table["en"], code=code, name="Unworded", list_separator=" ; ")
    monkeypatch.setitem(table, code, unworded)
    assert points_table.table(code) == points_table.table("en").replace(", ", " ; ")


def test_a_check_s_translated_name_translates_the_registry_s() -> None:
    """A check named in its row by a message (``points.short.<check>``): the message's English is the registry's
    ``short``, so a change of it there marks the translations stale."""
    shorts = {d.id: d.en for d in wordings.declared() if d.id.startswith("points.short.")}
    assert shorts and all(registry.check(id.split(".")[-1]).short == en for id, en in shorts.items())


def _copy(tmp_path: Path) -> Path:
    for name in ("README.md", "i18n/mlp.zh.md", "source/mlp/mlp.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


@pytest.mark.usefixtures("relu_six_and_six")
def test_write_states_a_move_everywhere_and_keeps_the_translation_current(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    row = _relu_cells()
    changed = points_table.write(root)
    assert sorted(p.name for p in changed) == ["README.md", "mlp.ipynb", "mlp.zh.md"]
    assert points_table.outdated(root) == [] and points_table.write(root) == []
    assert f"| `ReLU` | {row}" in (root / "README.md").read_text()
    intro = nbformat.read(root / "source" / "mlp" / "mlp.ipynb", as_version=4).cells[0].source
    assert f"| `ReLU` | {row}" in intro
    translation = (root / "i18n" / "mlp.zh.md").read_text()
    assert f"| `ReLU` | {_relu_cells('、')}" in translation
    for name in ("relu_forward", "relu_backward"):
        check = registry.check(name)
        english = registry.hidden_cell_comment(check)
        assert f"en: {english}\nzh: {check.title} 的隐藏测试（{check.points} 分）在评分时于此运行。" in translation
        # the section was current before the move, so it is stamped current after it
        cell_id = next(i for i, c in points_table.hidden_cells(REPO).items() if c.name == name)
        assert f"<!-- code {cell_id} sha {edition.code_sha(registry.hidden_cell_source(check))} -->" in translation
    assert (tmp_path / "i18n" / "mlp.zh.md").read_text().count(points_table.CELL_BEGIN) == len(registry.CHECKS)


@pytest.mark.usefixtures("relu_six_and_six")
def test_the_hidden_cells_pairs_are_rewritten_in_any_language() -> None:
    """A translation's pairs are ``en:`` and its own language's line (``fr:`` in a French one)."""
    chinese = (REPO / "i18n" / "mlp.zh.md").read_text()
    cells = points_table.hidden_cells(REPO)
    french = points_table.translated_hidden_cells(chinese.replace("\nzh: ", "\nfr: "), cells, "mlp.fr.md", "fr")
    assert french == points_table.translated_hidden_cells(chinese, cells, "mlp.zh.md", "zh").replace("\nzh: ", "\nfr: ")
    assert french != chinese.replace("\nzh: ", "\nfr: ")  # the move of points is written


def test_a_markdown_cells_stamp_does_not_cover_its_points_table() -> None:
    intro = nbformat.read(REPO / "source" / "mlp" / "mlp.ipynb", as_version=4).cells[0].source
    forward, backward = registry.check("relu_forward").points, registry.check("relu_backward").points
    moved = intro.replace(f"forward {forward}, backward {backward}", f"forward {forward + 1}, backward {backward - 1}")
    assert moved != intro and edition.markdown_sha(moved) == edition.markdown_sha(intro)
    assert edition.markdown_sha(intro.replace("How to work", "How to start")) != edition.markdown_sha(intro)


def test_a_file_without_its_markers_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    readme = root / "README.md"
    readme.write_text(readme.read_text().replace(points_table.END, ""))
    with pytest.raises(points_table.PointsError, match="README.md"):
        points_table.write(root)


@pytest.mark.usefixtures("relu_six_and_six")
def test_a_hidden_cells_translation_without_its_points_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / "i18n" / "mlp.zh.md"
    stated = registry.check("relu_forward").points - 1  # what the file says: the fixture moved one point
    path.write_text(path.read_text().replace(f"ReLU.forward 的隐藏测试（{stated} 分）", "ReLU.forward 的隐藏测试"))
    with pytest.raises(points_table.PointsError, match="test_relu_forward.*translate .* by hand"):
        points_table.write(root)


def _tree_copy(tmp_path: Path) -> Path:
    """A copy of the repository's files (tracked and not ignored) as a fresh git repository with one commit."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split("\0")
    root = tmp_path / "kit"
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "t"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def _regenerate(root: Path) -> subprocess.CompletedProcess:
    """``python -m autograder regenerate`` run in ``root``: ``-m`` imports the copy's own ``autograder``."""
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "autograder", "regenerate"], cwd=root, env=env, capture_output=True, text=True
    )


@pytest.mark.slow
def test_regenerate_changes_nothing_on_an_up_to_date_tree_and_stops_on_a_stale_translation(tmp_path: Path) -> None:
    root = _tree_copy(tmp_path)
    where = subprocess.run(
        [sys.executable, "-c", "import autograder; print(autograder.__file__)"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(root), where.stdout
    done = _regenerate(root)
    assert done.returncode == 0, done.stderr
    assert "nothing changed" in done.stdout, done.stdout
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True)
    assert status.stdout == "", f"regenerate changed an up-to-date tree:\n{status.stdout}"
    master = root / "source" / "mlp" / "mlp.ipynb"
    master.write_text(master.read_text().replace("**How to work.**", "**How to start.**", 1))
    stopped = _regenerate(root)
    assert stopped.returncode == 1 and "Traceback" not in stopped.stderr, stopped.stderr
    # the first edition present stops it (zh in the kit; any other a maintainer adds stops it just as well)
    assert re.match(r"The \w+ edition cannot be generated:\nmarkdown cell 0 \(id ", stopped.stderr), stopped.stderr
