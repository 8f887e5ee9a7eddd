"""Another language's edition of the assignment, generated from the English master (``source/mlp``).

``python -m autograder edition LANG`` (a language of ``source/mlp/nn_languages.py``, e.g. ``zh``, or one that
``i18n/messages.LANG.toml`` declares in its ``language`` table: then a translation is optional) first rewrites the
messages' wordings the code reads (``autograder/cli/wordings.py``: from ``i18n/messages.*.toml``) and lists the messages
with no wording in LANG (shown in English there), then writes ``source/mlp_LANG/``: the master notebook (as
``mlp_LANG.ipynb``) with each markdown cell replaced by its translation in ``i18n/mlp.LANG.md`` (if the file exists;
without it the notebook is the English master's), and in each code cell
its comments and docstrings
(and any plot label the file translates) replaced by theirs, the code itself, cell ids, grade ids and points unchanged;
and the master's helper modules, of which only ``nn_i18n.LANGUAGE`` differs (so the checks' messages come out in that
language) and, in the modules students are sent to read (``MODULES``), the comments and docstrings, from the file's
``module`` sections; and in the modules whose functions the notebook calls (``CALLED``), those functions' docstrings,
from the file's ``helper`` sections.
Build its release and solution as for ``mlp``: ``nbgrader generate_assignment mlp_LANG --force``, then
``nbgrader generate_solution mlp_LANG --force``; grade it with ``python -m autograder grade mlp_LANG``.

A markdown cell with no translation, or whose English text changed since it was translated, stops the generator,
which names it; so does a comment or docstring of a code cell without a translation, a code translation whose English
text is no longer in its cell, and a code cell whose comments, docstrings or labels changed since they were translated.
Comments inside hidden test regions and nbgrader's ``###`` markers are not translated. ``--check`` only compares
(exit 1 if ``source/mlp_LANG`` or the wordings modules are out of date); ``--stamp`` records the current English text
of every translated cell (and the comments, docstrings and labels of every translated code cell), and the English of
every message ``i18n/messages.LANG.toml`` words (``wordings.stamp``), as translated (after updating the translations).
``--start`` writes a new language's ``i18n/mlp.LANG.md`` with every section to translate, the English in place and
nothing stamped. A message with no wording in LANG does not stop the generator: it is listed, and shown in English; nor
does a wording whose English changed since it was stamped: it is listed with the old and the new English, and shown as
it is.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import io
import json
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

from autograder.cell_ids import nbgrader
from autograder.cli import points_table, wordings

REPO = Path(__file__).resolve().parents[2]
MASTER = REPO / "source" / "mlp"
NOTEBOOK = "mlp.ipynb"
DATA = ("nn_wordings.json", "nn_public_data.json", "nn_plot_font.otf", "nn_plot_font.OFL.txt")
"""The master's data files the helpers read (and the font's license): every edition holds them as they are."""
LANGUAGE_LINE = 'LANGUAGE = "en"'
SECTION = re.compile(r"^<!-- (?P<kind>cell|code|module|helper) (?P<id>[\w-]+)(?: sha (?P<sha>[0-9a-f]+))? -->\n", re.M)
LABEL_CALLS = {"title", "set_title", "suptitle", "xlabel", "set_xlabel", "ylabel", "set_ylabel", "legend", "text"}
"""Calls whose string arguments are plot labels (translated when the file has them; not required)."""
LABEL_KEYWORDS = {"title", "xlabel", "ylabel", "label"}
"""Keyword arguments (of any call, e.g. ``ax.set(xlabel=...)``) whose strings are plot labels."""
HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
MODULES = ("nn_core",)
"""Helper modules the notebook sends students to read: their comments and docstrings are translated (``module``
sections, keyed by the module's name), their code is the master's."""
CALLED = {
    "nn_public": ("check_linear", "check_relu", "check_cross_entropy", "check_sgd", "check_mlp", "ready_to_train"),
    "mnist_data": ("load_mnist", "to_vectors", "Mnist", "MnistDataError"),  # and what it returns and raises
    "nn_i18n": ("say", "number", "use_plot_fonts"),
}
"""The helpers' functions the notebook's cells call (and the classes they return or raise), by module: their
docstrings and the module's own, which ``help()`` and Shift-Tab show a student, are translated (``helper`` sections,
keyed by the module's name; the rest of the module is the master's)."""


class EditionError(Exception):
    """The translation does not cover the master: what is missing or stale, cell by cell."""


def entry(language: str) -> re.Pattern[str]:
    """One translation of a code section: a line ``en: <English text>``, then ``<language>: <its translation>``."""
    return re.compile(rf"^en: (?P<en>.*)\n{re.escape(language)}: (?P<translation>.*)$", re.M)


def check_language(language: str) -> None:
    """Raise ``EditionError`` unless ``language`` is a language of the kit (English aside): declared in
    ``source/mlp/nn_languages.py`` or by the ``language`` table of its wordings file."""
    try:
        table = wordings.kit_languages()
    except wordings.WordingsError as error:
        raise EditionError(str(error)) from None
    if language == "en":
        raise EditionError("en is the master's own language: its edition is source/mlp itself")
    if language not in table:
        raise EditionError(
            f"{language!r} is not a language of the kit: source/mlp/nn_languages.py's LANGUAGES and the wordings "
            f"files hold {', '.join(table)}; declare it in {wordings.shown(wordings.wordings_file(language))}, a "
            f'`{wordings.LANGUAGE_KEY}` table with its name and list separator (docs/maintainer-guide.md, "Adding a '
            f'language")'
        )


def english_sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def markdown_sha(text: str) -> str:
    """The SHA of a markdown cell's English text, without what its generated regions hold (the points tables, which
    ``python -m autograder regenerate`` writes in every language)."""
    return english_sha(points_table.without_generated(text))


def translations_file(language: str) -> Path:
    return REPO / "i18n" / f"mlp.{language}.md"


def _sections(language: str, kind: str) -> dict[str, tuple[str | None, str]]:
    """The translation file's sections of ``kind``: none without a file (the edition's notebook is the English)."""
    path = translations_file(language)
    if not path.exists():
        return {}
    text = path.read_text()
    found = list(SECTION.finditer(text))
    return {
        m["id"]: (m["sha"], text[m.end() : found[i + 1].start() if i + 1 < len(found) else len(text)].strip("\n"))
        for i, m in enumerate(found)
        if m["kind"] == kind
    }


def read_translations(language: str) -> dict[str, tuple[str | None, str]]:
    """Markdown cell id -> (the SHA of the English text it translates, the translation)."""
    return _sections(language, "cell")


def read_code_translations(language: str, kind: str = "code") -> dict[str, tuple[str | None, dict[str, str]]]:
    """Code cell id (or, for ``kind="module"``, module name) -> (the SHA of its English texts when translated,
    English text -> translation)."""
    table = {}
    for cell_id, (sha, body) in _sections(language, kind).items():
        entries = {m["en"]: m["translation"] for m in entry(language).finditer(body)}
        if kind in ("module", "helper"):  # a module's docstrings span lines: an entry writes each line break as \n
            entries = {en.replace("\\n", "\n"): tr.replace("\\n", "\n") for en, tr in entries.items()}
        markers = (points_table.CELL_BEGIN, points_table.CELL_END)
        stray = [line for line in entry(language).sub("", body).splitlines() if line.strip() and line not in markers]
        if stray:
            raise EditionError(
                f"{kind} {cell_id} in {translations_file(language).name}: not `en:`/`{language}:` lines: {stray}"
            )
        table[cell_id] = (sha, entries)
    return table


@dataclass(frozen=True)
class Text:
    """A translatable piece of a code cell: ``source[start:end]`` is its English text (a comment without its ``#``,
    the inside of a string literal)."""

    kind: str  # "comment", "docstring" or "label"
    start: int
    end: int
    english: str

    @property
    def required(self) -> bool:
        return self.kind != "label"


def _offsets(source: str) -> list[int]:
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _literal(source: str, starts: list[int], node: ast.expr, kind: str) -> Text | None:
    """The inside of the string literal ``node`` (quotes and prefix aside); None for implicit concatenations."""
    line = source[starts[node.lineno - 1] : starts[node.lineno]]
    start = starts[node.lineno - 1] + len(line.encode()[: node.col_offset].decode())
    end_line = source[starts[node.end_lineno - 1] : starts[node.end_lineno]]
    end = starts[node.end_lineno - 1] + len(end_line.encode()[: node.end_col_offset].decode())
    literal = source[start:end]
    prefix = len(literal) - len(literal.lstrip("rRbBuUfF"))
    quote = 3 if literal[prefix : prefix + 3] in ('"""', "'''") else 1
    inner = literal[prefix + quote : len(literal) - quote]
    if literal[prefix : prefix + quote] != literal[len(literal) - quote :] or literal[prefix : prefix + quote] in inner:
        return None
    return Text(kind, start + prefix + quote, end - quote, inner)


def code_texts(source: str) -> list[Text]:
    """The comments, docstrings and plot labels of a code cell, in order (hidden tests and nbgrader markers aside)."""
    starts = _offsets(source)
    found = []
    hidden = False
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        hidden = hidden or token.string.startswith(HIDDEN[0])
        if not hidden and not token.string.startswith("###"):
            body = token.string.lstrip("#").lstrip()
            end = starts[token.end[0] - 1] + token.end[1]
            found.append(Text("comment", end - len(body), end, body))
        hidden = hidden and not token.string.startswith(HIDDEN[1])
    strings: list[tuple[str, ast.expr]] = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                strings.append(("docstring", first.value))
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            values = [
                *(node.args if name in LABEL_CALLS else []),
                *(k.value for k in node.keywords if k.arg in LABEL_KEYWORDS),
            ]
            strings += [
                ("label", v)
                for v in values
                if isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str))
            ]
    found += [t for kind, node in strings if (t := _literal(source, starts, node, kind)) is not None]
    return sorted(found, key=lambda t: t.start)


def called_texts(source: str, names: tuple[str, ...]) -> list[Text]:
    """The docstrings of a helper module (``CALLED``) that ``help()`` shows a student: its own, then those of its
    functions ``names``, in order."""
    tree = ast.parse(source)
    wanted = {tree.body[0].value.lineno} if ast.get_docstring(tree) is not None else set()  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names and ast.get_docstring(node):
            wanted.add(node.body[0].value.lineno)  # type: ignore[attr-defined]
    starts = _offsets(source)
    return [t for t in code_texts(source) if t.kind == "docstring" and _line(starts, t.start) in wanted]


def _line(starts: list[int], offset: int) -> int:
    """The line number (from 1) of ``offset`` in a source whose lines start at ``starts``."""
    return next(number for number, start in enumerate(starts[1:], 1) if offset < start)


def called_sha(source: str, names: tuple[str, ...]) -> str:
    """The SHA of the docstrings of a helper module's functions the notebook calls (``CALLED``)."""
    return english_sha("\n".join(f"{t.kind}: {t.english}" for t in called_texts(source, names)))


def code_sha(source: str) -> str:
    """The SHA of a code cell's translatable English texts: it changes when a comment, docstring or label does."""
    return english_sha("\n".join(f"{t.kind}: {t.english}" for t in code_texts(source)))


def translate_code(source: str, entries: dict[str, str]) -> str:
    """``source`` with each comment, docstring and label that ``entries`` translates replaced (from the end)."""
    for text in reversed(code_texts(source)):
        if text.english in entries:
            source = source[: text.start] + entries[text.english] + source[text.end :]
    return source


def translate_called(source: str, names: tuple[str, ...], entries: dict[str, str]) -> str:
    """``source`` with the docstrings of its functions ``names`` translated (from the end)."""
    for text in reversed(called_texts(source, names)):
        source = source[: text.start] + entries[text.english] + source[text.end :]
    return source


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def problems(language: str) -> list[str]:
    """Every markdown cell of the master that lacks a current translation, and translations of no cell (none for a
    language with no translation file: its notebook is the English master's)."""
    check_language(language)
    if not translations_file(language).exists():
        return []
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
        elif table[cell["id"]][0] != markdown_sha(_source(cell)):
            found.append(
                f"{where} changed since it was translated (or was never stamped): update its translation, "
                f"then run `python -m autograder edition {language} --stamp`"
            )
    ids = {c["id"] for c in cells if c["cell_type"] == "markdown"}
    found += [f"the translation of cell {i} matches no markdown cell of the master" for i in table if i not in ids]
    return found + code_problems(cells, language)


def code_problems(cells: list[dict], language: str) -> list[str]:
    """Every comment or docstring of a code cell without a translation, every code translation that matches nothing,
    every code cell whose texts changed since they were stamped, and every translation that would break its literal."""
    try:
        table = read_code_translations(language)
    except EditionError as error:
        return [str(error)]
    found = []
    for number, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        where = f"code cell {number} (id {cell['id']}, grade id {nbgrader(cell).get('grade_id')})"
        texts = [t.english for t in code_texts(_source(cell)) if t.required]
        if cell["id"] not in table and texts:  # a new cell (such as a new check's hidden cell): its section to paste
            found.append(
                f"{where} has no translation: add this section to {wordings.shown(translations_file(language))}, "
                f"translate its `{language}:` lines, then run `python -m autograder edition {language} --stamp`:\n"
                + code_section(cell["id"], texts, language)
            )
        else:
            found += _text_problems(where, _source(cell), table.get(cell["id"]), language)
    ids = {c["id"] for c in cells if c["cell_type"] == "code"}
    found += [f"the translation of code {i} matches no code cell of the master" for i in table if i not in ids]
    return found + module_problems(language)


def module_problems(language: str) -> list[str]:
    """The same as ``code_problems`` for the helper modules students read (``MODULES``)."""
    try:
        table = read_code_translations(language, "module")
    except EditionError as error:
        return [str(error)]
    found = []
    for name in MODULES:
        where = f"module {name}.py"
        if name not in table:
            found.append(f"{where} has no `module {name}` section in {translations_file(language).name}")
            continue
        found += _text_problems(where, (MASTER / f"{name}.py").read_text(), table[name], language)
    found += [f"the translation of module {i} matches no module of {MODULES}" for i in table if i not in MODULES]
    return found + helper_problems(language)


def helper_problems(language: str) -> list[str]:
    """What is missing or stale in the translations of the docstrings of the helpers' functions students call."""
    try:
        table = read_code_translations(language, "helper")
    except EditionError as error:
        return [str(error)]
    found = []
    for name, functions in CALLED.items():
        where = f"the docstrings of {name}.py's {', '.join(functions)}"
        source = (MASTER / f"{name}.py").read_text()
        texts = called_texts(source, functions)
        if len(texts) != len(functions) + 1:
            found.append(f"{where}: {len(texts)} docstrings found for the module and {len(functions)} functions")
        if name not in table:
            found.append(f"{where}: no `helper {name}` section in {translations_file(language).name}")
            continue
        sha, entries = table[name]
        english = [t.english for t in texts]
        found += [f"{where}: no translation of {e!r}" for e in english if e not in entries]
        found += [
            f"{where}: the translated English text {e!r} is no docstring of theirs" for e in entries if e not in english
        ]
        if sha != called_sha(source, functions):
            found.append(
                f"{where} changed since they were translated (or were never stamped): update their translations, "
                f"then run `python -m autograder edition {language} --stamp`"
            )
        found += [
            f"{where}: the translation of {e!r} adds a quote, backslash or brace"
            for e, t in entries.items()
            if any(c in t for c in ('"', "'", "\\", "{", "}") if c not in e)
        ]
    found += [f"the translation of helper {i} matches no module of {list(CALLED)}" for i in table if i not in CALLED]
    return found


def _text_problems(
    where: str, source: str, translated: tuple[str | None, dict[str, str]] | None, language: str
) -> list[str]:
    """What is missing, stale or unsafe in the translation ``translated`` (its SHA, its entries) of ``source``."""
    texts = code_texts(source)
    sha, entries = translated if translated is not None else (None, {})
    found = []
    missing = [t.english for t in texts if t.required and t.english not in entries]
    if missing:
        found.append(f"{where} has no translation of: " + "; ".join(repr(e) for e in missing))
    english = {t.english for t in texts}
    found += [
        f"{where}: the translated English text {e!r} is no longer in the cell" for e in entries if e not in english
    ]
    if translated is not None and sha != code_sha(source):
        found.append(
            f"{where}: its comments, docstrings or labels changed since they were translated (or were never "
            f"stamped): update their translations, then run `python -m autograder edition {language} --stamp`"
        )
    for text in texts:
        translation = entries.get(text.english)
        if (
            translation is not None
            and text.kind != "comment"
            and any(c in translation for c in ('"', "'", "\\", "{", "}") if c not in text.english)
        ):
            found.append(f"{where}: the translation of {text.english!r} adds a quote, backslash or brace")
    return found


def edition(language: str) -> dict[str, bytes]:
    """The files of ``source/mlp_<language>``: file name -> content. Raises ``EditionError`` naming every problem."""
    trouble = problems(language)
    if trouble:
        raise EditionError("\n".join(trouble))
    table, code = read_translations(language), read_code_translations(language)
    modules = read_code_translations(language, "module")
    helpers = read_code_translations(language, "helper")
    notebook = json.loads((MASTER / NOTEBOOK).read_text())
    translated = copy.deepcopy(notebook)
    for cell in translated["cells"]:
        if cell["cell_type"] == "markdown" and cell["id"] in table:
            cell["source"] = table[cell["id"]][1]
        elif cell["id"] in code:
            source = translate_code(_source(cell), code[cell["id"]][1])
            cell["source"] = source.splitlines(keepends=True) if isinstance(cell["source"], list) else source
    # named after the assignment, as `python -m autograder grade mlp_<language>` expects by default
    files = {f"mlp_{language}.ipynb": (json.dumps(translated, indent=1, ensure_ascii=False) + "\n").encode()}
    for helper in sorted(MASTER.glob("*.py")):
        text = helper.read_text()
        if helper.stem in modules:
            text = translate_code(text, modules[helper.stem][1])
        if helper.stem in CALLED and helper.stem in helpers:  # a language without a translation keeps English
            text = translate_called(text, CALLED[helper.stem], helpers[helper.stem][1])
        if helper.name == "nn_i18n.py":
            if text.count(LANGUAGE_LINE) != 1:
                raise EditionError(f"{helper} must hold the line {LANGUAGE_LINE!r} exactly once")
            text = text.replace(LANGUAGE_LINE, f'LANGUAGE = "{language}"')
        files[helper.name] = text.encode()
    files |= {name: (MASTER / name).read_bytes() for name in DATA}
    return files


def stamp(language: str) -> None:
    """Record the master's current English text of every translated cell (and code cell), and the current English of
    every message ``i18n/messages.<language>.toml`` words, as translated."""
    wordings.stamp(language)
    if not translations_file(language).exists():
        return
    cells = json.loads((MASTER / NOTEBOOK).read_text())["cells"]
    shas = {
        ("cell" if c["cell_type"] == "markdown" else "code", c["id"]): (
            markdown_sha(_source(c)) if c["cell_type"] == "markdown" else code_sha(_source(c))
        )
        for c in cells
    }
    shas |= {("module", name): code_sha((MASTER / f"{name}.py").read_text()) for name in MODULES}
    shas |= {("helper", name): called_sha((MASTER / f"{name}.py").read_text(), f) for name, f in CALLED.items()}
    path = translations_file(language)
    text = path.read_text()
    path.write_text(
        SECTION.sub(
            lambda m: (
                f"<!-- {m['kind']} {m['id']} sha {shas[m['kind'], m['id']]} -->\n"
                if (m["kind"], m["id"]) in shas
                else m.group(0)
            ),
            text,
        )
    )


START = """<!-- The {name} edition (`python -m autograder edition {code}` writes source/mlp_{code}/ from source/mlp/).
Written by `python -m autograder edition {code} --start`, with the English in place of every translation: the format is
i18n/mlp.zh.md's (its header says it). Translate each `cell` section and each `{code}:` line, then run
`python -m autograder edition {code} --stamp` (the generator lists every section not stamped yet).
-->
"""


def code_section(cell_id: str, texts: list[str], language: str) -> str:
    """A code cell's section of a translation file, with the English in place of each translation."""
    return f"<!-- code {cell_id} -->\n" + "".join(f"en: {t}\n{language}: {t}\n" for t in texts)


def start(language: str) -> Path:
    """Write ``i18n/mlp.<language>.md`` for a new language: a section per markdown cell, code cell and module students
    read, the English in place of each translation, nothing stamped (so ``problems`` lists every section)."""
    path = translations_file(language)
    if path.exists():
        raise EditionError(f"{wordings.shown(path)} exists already: `--start` writes a new language's file only")
    name = wordings.kit_languages()[language].name
    parts = [START.format(name=name, code=language)]
    for cell in json.loads((MASTER / NOTEBOOK).read_text())["cells"]:
        if cell["cell_type"] == "markdown":
            parts.append(f"<!-- cell {cell['id']} -->\n{_source(cell)}\n")
        elif texts := [t.english for t in code_texts(_source(cell)) if t.required]:
            parts.append(code_section(cell["id"], texts, language))
    for module in MODULES:
        texts = [
            t.english.replace("\n", "\\n") for t in code_texts((MASTER / f"{module}.py").read_text()) if t.required
        ]
        parts.append(f"<!-- module {module} -->\n" + "".join(f"en: {t}\n{language}: {t}\n" for t in texts))
    for module, functions in CALLED.items():
        source = (MASTER / f"{module}.py").read_text()
        texts = [t.english.replace("\n", "\\n") for t in called_texts(source, functions)]
        parts.append(f"<!-- helper {module} -->\n" + "".join(f"en: {t}\n{language}: {t}\n" for t in texts))
    path.write_text("\n".join(parts))
    return path


def missing_wordings(language: str) -> str:
    """What ``edition`` says of the messages shown in English in ``language``: those ``i18n/messages.<language>.toml``
    leaves out, with their ids and English as lines to add there, then how many it keeps in English on purpose (empty
    if every message has a wording)."""
    missing, name = wordings.missing(language), wordings.shown(wordings.wordings_file(language))
    kept = len(wordings.in_english(language)) - len(missing)
    notes = []
    if missing:
        lines = [f"{json.dumps(m.id)}.en = {json.dumps(m.en, ensure_ascii=False)}" for m in missing]
        notes.append(
            f"{len(missing)} message(s) have no wording in {name} and are shown in English in this edition. Add these "
            f"lines there: each alone keeps its message in English on purpose; to translate one, add its wording on "
            f'a line below it, `"<id>".{language} = "..."`:\n' + "\n".join(lines)
        )
    if kept:
        notes.append(
            f'{kept} message(s) are kept in English on purpose in {name} (an `"<id>".en` line without its '
            f'`"<id>".{language}` line)'
        )
    return "\n".join(notes)


def languages() -> tuple[str, ...]:
    """Every edition's language: one with a translation file ``i18n/mlp.<language>.md`` or a wordings file
    ``i18n/messages.<language>.toml`` (without a translation, the edition's notebook is the English master's)."""
    worded = {p.name.split(".")[1] for p in (REPO / "i18n").glob("messages.*.toml")} - {wordings.ENGLISH}
    return tuple(sorted(set(points_table.translations(REPO)) | worded))


def folder(language: str) -> Path:
    """The edition's source folder, ``source/mlp_<language>``."""
    return MASTER.parent / f"mlp_{language}"


def differences(language: str, files: dict[str, bytes]) -> tuple[list[str], list[str]]:
    """The edition's files that ``files`` would write anew, and those it would remove."""
    target = folder(language)
    stale = sorted(n for n, data in files.items() if not (target / n).exists() or (target / n).read_bytes() != data)
    extra = sorted(p.name for p in target.glob("*") if p.is_file() and p.name not in files) if target.exists() else []
    return stale, extra


def write(language: str, files: dict[str, bytes] | None = None) -> tuple[list[str], list[str]]:
    """Write ``source/mlp_<language>`` (raises ``EditionError``); the files written and those removed."""
    files = edition(language) if files is None else files
    target = folder(language)
    stale, extra = differences(language, files)
    target.mkdir(exist_ok=True)
    for name in stale:
        (target / name).write_bytes(files[name])
    for name in extra:
        (target / name).unlink()
    return stale, extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", help="the edition's language, e.g. zh (translations in i18n/mlp.<language>.md)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare only; exit 1 if source/mlp_<language> or the generated wordings modules are stale",
    )
    parser.add_argument(
        "--start", action="store_true", help="write a new language's i18n/mlp.<language>.md to translate, then stop"
    )
    parser.add_argument(
        "--stamp",
        action="store_true",
        help="mark the English of every translated cell, code cell's comments and message wording as translated",
    )
    args = parser.parse_args(argv)
    try:
        if args.start:
            if args.language not in wordings.kit_languages() or args.language == "en":
                check_language(args.language)
            print(
                f"{start(args.language)} written: translate it, then `python -m autograder edition {args.language} "
                f"--stamp`"
            )
            return 0
        check_language(args.language)
        stale_wordings = wordings.stale() if args.check else wordings.write()
        if args.stamp:
            stamp(args.language)
        files = edition(args.language)
    except (EditionError, wordings.WordingsError) as error:
        print(f"The {args.language} edition cannot be generated:\n{error}", file=sys.stderr)
        return 1
    for report in (missing_wordings(args.language), wordings.stale_report(args.language)):
        if report:
            print(report, file=sys.stderr)
    target = folder(args.language)
    stale, extra = differences(args.language, files)
    if args.check:
        for path in [*stale_wordings, *(target / name for name in stale + extra)]:
            print(f"{path} is out of date: run `python -m autograder regenerate`", file=sys.stderr)
        return 1 if stale_wordings or stale or extra else 0
    write(args.language, files)
    for path in stale_wordings:
        print(f"{wordings.shown(path)} rewritten from i18n/messages.*.toml")
    print(
        f"{target}: {len(stale)} file(s) written, {len(extra)} removed. Then: nbgrader generate_assignment "
        f"mlp_{args.language} --force && nbgrader generate_solution mlp_{args.language} --force (or run "
        "`python -m autograder regenerate`, which does all of it)"
    )
    return 0
