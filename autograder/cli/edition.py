"""Another language's edition of the assignment, generated from the English master (``source/mlp``).

``python -m autograder edition zh`` writes ``source/mlp_zh/``: the master notebook (as ``mlp_zh.ipynb``) with each
markdown cell replaced by its translation in ``i18n/mlp.zh.md`` (code cells, their ids, grade ids and points
unchanged), and the master's helper modules, of which only ``nn_i18n.LANGUAGE`` differs (so the checks' messages come
out in that language).
Build its release and solution as for ``mlp``: ``nbgrader generate_assignment mlp_zh --force``, then
``nbgrader generate_solution mlp_zh --force``; grade it with ``python -m autograder grade mlp_zh``.

A markdown cell with no translation, or whose English text changed since it was translated, stops the generator,
which names it. ``--check`` only compares (exit 1 if ``source/mlp_zh`` is out of date); ``--stamp`` records the
current English text of every translated cell as translated (after updating the translations).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MASTER = REPO / "source" / "mlp"
NOTEBOOK = "mlp.ipynb"
LANGUAGE_LINE = 'LANGUAGE = "en"'
SECTION = re.compile(r"^<!-- cell (?P<id>[\w-]+)(?: sha (?P<sha>[0-9a-f]+))? -->\n", re.M)


class EditionError(Exception):
    """The translation does not cover the master: what is missing or stale, cell by cell."""


def english_sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def translations_file(language: str) -> Path:
    return REPO / "i18n" / f"mlp.{language}.md"


def read_translations(language: str) -> dict[str, tuple[str | None, str]]:
    """Cell id -> (the SHA of the English text it translates, the translation)."""
    text = translations_file(language).read_text()
    found = list(SECTION.finditer(text))
    return {
        m["id"]: (m["sha"], text[m.end() : found[i + 1].start() if i + 1 < len(found) else len(text)].strip("\n"))
        for i, m in enumerate(found)
    }


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def problems(language: str) -> list[str]:
    """Every markdown cell of the master that lacks a current translation, and translations of no cell."""
    cells = json.loads((MASTER / NOTEBOOK).read_text())["cells"]
    table = read_translations(language)
    found = []
    for number, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        first = _source(cell).splitlines()[0] if _source(cell) else ""
        where = f"markdown cell {number} (id {cell['id']}, {first[:60]!r})"
        if cell["id"] not in table:
            found.append(f"{where} has no translation in {translations_file(language).name}")
        elif table[cell["id"]][0] != english_sha(_source(cell)):
            found.append(
                f"{where} changed since it was translated (or was never stamped): update its translation, "
                f"then run `python -m autograder edition {language} --stamp`"
            )
    ids = {c["id"] for c in cells if c["cell_type"] == "markdown"}
    found += [f"the translation of cell {i} matches no markdown cell of the master" for i in table if i not in ids]
    return found


def edition(language: str) -> dict[str, bytes]:
    """The files of ``source/mlp_<language>``: file name -> content. Raises ``EditionError`` naming every problem."""
    trouble = problems(language)
    if trouble:
        raise EditionError("\n".join(trouble))
    table = read_translations(language)
    notebook = json.loads((MASTER / NOTEBOOK).read_text())
    translated = copy.deepcopy(notebook)
    for cell in translated["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = table[cell["id"]][1]
    # named after the assignment, as `python -m autograder grade mlp_<language>` expects by default
    files = {f"mlp_{language}.ipynb": (json.dumps(translated, indent=1, ensure_ascii=False) + "\n").encode()}
    for helper in sorted(MASTER.glob("*.py")):
        text = helper.read_text()
        if helper.name == "nn_i18n.py":
            if text.count(LANGUAGE_LINE) != 1:
                raise EditionError(f"{helper} must hold the line {LANGUAGE_LINE!r} exactly once")
            text = text.replace(LANGUAGE_LINE, f'LANGUAGE = "{language}"')
        files[helper.name] = text.encode()
    return files


def stamp(language: str) -> None:
    """Record the master's current English text of every translated cell as translated."""
    cells = {
        c["id"]: _source(c)
        for c in json.loads((MASTER / NOTEBOOK).read_text())["cells"]
        if c["cell_type"] == "markdown"
    }
    path = translations_file(language)
    text = path.read_text()
    path.write_text(
        SECTION.sub(
            lambda m: (
                f"<!-- cell {m['id']} sha {english_sha(cells[m['id']])} -->\n" if m["id"] in cells else m.group(0)
            ),
            text,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", help="the edition's language, e.g. zh (translations in i18n/mlp.<language>.md)")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 if source/mlp_<language> is stale")
    parser.add_argument("--stamp", action="store_true", help="mark every translated cell's English text as translated")
    args = parser.parse_args(argv)
    if args.stamp:
        stamp(args.language)
    try:
        files = edition(args.language)
    except EditionError as error:
        print(f"The {args.language} edition cannot be generated:\n{error}", file=sys.stderr)
        return 1
    target = MASTER.parent / f"mlp_{args.language}"
    stale = sorted(n for n, data in files.items() if not (target / n).exists() or (target / n).read_bytes() != data)
    extra = sorted(p.name for p in target.glob("*") if p.is_file() and p.name not in files) if target.exists() else []
    if args.check:
        for name in stale + extra:
            print(
                f"{target / name} is out of date: run `python -m autograder edition {args.language}`", file=sys.stderr
            )
        return 1 if stale or extra else 0
    target.mkdir(exist_ok=True)
    for name in stale:
        (target / name).write_bytes(files[name])
    for name in extra:
        (target / name).unlink()
    print(
        f"{target}: {len(stale)} file(s) written, {len(extra)} removed. Then: nbgrader generate_assignment "
        f"mlp_{args.language} --force && nbgrader generate_solution mlp_{args.language} --force"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
