"""``python -m autograder regenerate``: bring everything generated up to date, from the master notebook
(``source/mlp/mlp.ipynb``), the registry of checks (``autograder/registry.py``) and the translations (``i18n/``).

In order: the master's hidden test cells (as ``hidden-cells``); the points tables of ``README.md``, of the master's
introduction and of each translation, and the translated comments of the hidden cells (``autograder.cli.points_table``);
the messages' wordings modules (``autograder.cli.wordings``, from ``i18n/messages.<language>.toml``); the public
checks' data (as
``public-data``); the plot labels' font, when the characters they use changed (as ``plot-font``); every edition
with a translation ``i18n/mlp.<language>.md`` (as ``edition <language>``); then nbgrader's ``generate_assignment``
and ``generate_solution`` of ``mlp`` and of every edition, run in the repository (the course root), and the
``gradebook.db`` they create removed. It regenerates the repository it is run from (the one holding this
``autograder`` package) and prints each file it changed; on a tree that is up to date it changes nothing. A
translation of the notebook that is missing or stale stops it with the edition's message; a message's wording that is
missing or stale does not (it is shown in English, or as it is): it is listed (``translation_notes``).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from autograder import classroom
from autograder.cli import edition, hidden_cells, plot_font, points_table, public_data, wordings

REPO = Path(__file__).resolve().parents[2]
GENERATED = ("release", "solutions")


def _digests(root: Path) -> dict[Path, str]:
    """Every file under ``root``'s generated folders, with the SHA-256 of its content."""
    return {
        p: hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in GENERATED
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def generate(assignments: tuple[str, ...], root: Path = REPO) -> list[Path]:
    """nbgrader's release and solution of each assignment, in the course ``root``; the files changed or removed."""
    before = _digests(root)
    gradebook = root / "gradebook.db"
    had_gradebook = gradebook.exists()
    try:
        for assignment in assignments:
            classroom.nbgrader(root, "generate_assignment", assignment, "--force")
            classroom.nbgrader(root, "generate_solution", assignment, "--force")
    finally:
        if not had_gradebook:
            gradebook.unlink(missing_ok=True)
    after = _digests(root)
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def regenerate() -> list[Path]:
    """Every generated file brought up to date, in order; the files changed. Raises ``edition.EditionError`` or
    ``points_table.PointsError`` where a translation or a file cannot be brought up to date."""
    changed: list[Path] = []
    if hidden_cells.write(hidden_cells.MASTER):
        changed.append(hidden_cells.MASTER)
    changed += points_table.write(REPO)
    changed += wordings.write()  # the messages' wordings modules, from i18n/messages.<language>.toml
    if public_data.write():
        changed.append(public_data.TARGET)
    if plot_font.write():  # only when the plot labels' characters changed
        changed += [plot_font.TARGET, plot_font.LICENSE]
    languages = edition.languages()
    for language in languages:
        try:
            written, removed = edition.write(language)
        except edition.EditionError as error:
            raise edition.EditionError(f"The {language} edition cannot be generated:\n{error}") from None
        changed += [edition.folder(language) / name for name in written + removed]
    changed += generate((classroom.ASSIGNMENT, *(f"{classroom.ASSIGNMENT}_{lang}" for lang in languages)), REPO)
    return list(dict.fromkeys(changed))  # the master may be written by two steps: named once


def translation_notes() -> list[str]:
    """What ``regenerate`` says of each edition's messages without failing: the wordings whose English changed since
    they were stamped (shown as they are), and how many messages are shown in English."""
    notes = []
    for language in edition.languages():
        missing, english = wordings.missing(language), wordings.in_english(language)
        if english:
            notes.append(
                f"{language}: {len(english)} message(s) shown in English, {len(missing)} of them left out of "
                f"{wordings.shown(wordings.wordings_file(language))}: `python -m autograder edition {language}` "
                "lists them"
            )
        notes += [report] if (report := wordings.stale_report(language)) else []
    return notes


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(
        prog="python -m autograder regenerate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    ).parse_args(argv)
    try:
        changed = regenerate()
    except edition.EditionError as error:
        print(error, file=sys.stderr)
        return 1
    except wordings.WordingsError as error:
        print(f"The messages' wordings cannot be written:\n{error}", file=sys.stderr)
        return 1
    except points_table.PointsError as error:
        print(f"The points cannot be written:\n{error}", file=sys.stderr)
        return 1
    except plot_font.PlotFontError as error:
        print(error, file=sys.stderr)
        return 1
    for note in translation_notes():
        print(note, file=sys.stderr)
    for path in changed:
        print(f"changed {path.relative_to(REPO)}")
    print(f"{len(changed)} file(s) changed" if changed else "everything generated is up to date: nothing changed")
    return 0
