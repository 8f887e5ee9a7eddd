"""The wordings of the kit's messages in each language: ``i18n/messages.<language>.toml``, by message id.

English is the source: every message is declared once by id (``message(id)``, ``text``, ``cause``, ``formula``) in the
helpers (``source/mlp/*.py``) or in the grader (``DECLARING``), and its English is in ``i18n/messages.en.toml``
(``"id" = "..."``; ``declared`` fails on an id without English, declared twice, or English declared by no code).
Another language's file gives, per id, the English its wording translates and the wording (``"id".en = "..."``,
``"id".<language> = "..."``; an ``"id".en`` alone keeps the message in English on purpose, a plain
``"id" = "wording"`` is a wording not stamped yet).
A file may declare its language: a ``language`` table of ``nn_languages.Language``'s fields (``name``,
``list_separator``, ``and_word``, ...; ``kit_languages`` adds it to the languages of ``nn_languages.py``), which
reaches the helpers as ``nn_wordings.LANGUAGES``: a new language is that one file. A message the file leaves out is
shown in English (``missing`` lists them); a wording whose English changed since it was stamped still renders, and
``stale_wordings`` lists it with the old and the new English until
``python -m autograder edition <language> --stamp`` records the new English (``stamp``, after the wording is updated).
The wordings reach the code as data, two generated JSON files, each holding only its own side's messages: the
helpers' in ``source/mlp/nn_wordings.json`` (students get it with the helpers, so it holds none of the grader's words;
``nn_languages`` reads it) and the grader's in ``autograder/wordings.json`` (which ``autograder.messages`` adds).
``python -m autograder edition`` rewrites both (``write``); ``tests/test_wordings.py`` fails while either is stale.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import string
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
MASTER = REPO / "source" / "mlp"
I18N = REPO / "i18n"
DECLARING = (REPO / "autograder" / "probe" / "messages.py", REPO / "autograder" / "messages.py")
"""The grader's catalogue modules (the helpers' are every module of ``MASTER``)."""
DECLARERS = {"message": "", "text": "", "cause": "cause.", "formula": "formula."}
"""The functions that declare a message (``nn_messages``), and the prefix each puts before the id it is given."""
LANGUAGE_KEY = "language"
"""The key of a wordings file's table declaring its language (no message has that id)."""
ENGLISH = "en"
ENGLISH_FILE = I18N / "messages.en.toml"
"""The source language and its file: every message's English, which the other languages translate."""
HELPERS_FILE = MASTER / "nn_wordings.json"
GRADER_FILE = REPO / "autograder" / "wordings.json"


class WordingsError(Exception):
    """A language's wordings file cannot be read, or words messages that do not exist or with other fields."""


@dataclass(frozen=True)
class Declared:
    """A message as its declaration writes it: id, English template, and the side (``helpers`` or ``grader``)."""

    id: str
    en: str
    side: str


@dataclass(frozen=True)
class Entry:
    """What a language's file says of one message: the English its wording was stamped against, and the wording."""

    stamped: str | None
    """The English the wording translates (``"id".en``); None if never stamped."""
    wording: str | None
    """The wording (``"id".<language>``, or a plain ``"id" = "..."``); None: kept in English on purpose."""


@dataclass(frozen=True)
class StaleWording:
    """A wording translating another English than its message's declaration says now: still shown, as it is."""

    id: str
    stamped: str | None  # the English it was translated from; None if never stamped
    english: str  # the declaration's English now
    wording: str


def _load(name: str) -> ModuleType:
    """The master's module ``name``, loaded from its file (once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, MASTER / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def languages() -> ModuleType:
    """The master's module of languages (``source/mlp/nn_languages.py``), loaded from its file (it imports nothing
    of the kit's; it reads the generated ``nn_wordings.json`` beside it). Its ``LANGUAGES`` holds the file-declared
    languages as last generated: ``kit_languages`` reads them from their files."""
    return _load("nn_languages")


def declared_languages() -> dict[str, dict[str, object]]:
    """Language code -> the ``Language`` fields its wordings file's ``language`` table declares (code aside)."""
    fields = set(languages().Language.__dataclass_fields__) - {"code"}
    found = {}
    for path in sorted(I18N.glob("messages.*.toml")):
        try:
            settings = tomllib.loads(path.read_text()).get(LANGUAGE_KEY)
        except tomllib.TOMLDecodeError as error:
            raise WordingsError(f"{shown(path)} is not valid TOML: {error}") from None
        if settings is None:
            continue
        if (
            not isinstance(settings, dict)
            or not set(settings) <= fields
            or not {"name", "list_separator"} <= set(settings)
        ):
            raise WordingsError(
                f"{shown(path)}: its `{LANGUAGE_KEY}` table holds `name`, `list_separator`, `and_word` and any of "
                f"{sorted(fields - {'name', 'list_separator', 'and_word'})}, not {settings!r}"
            )
        found[path.name.split(".")[1]] = settings
    return found


def kit_languages() -> dict[str, object]:
    """Every language of the kit, by code: those ``nn_languages.py`` declares, then those their wordings file does
    (as the file says now, even before ``nn_wordings`` is generated again)."""
    module = languages()
    declared = declared_languages()
    own = {code: lang for code, lang in module.LANGUAGES.items() if code not in module.WORDED}
    twice = sorted(set(own) & set(declared))
    if twice:
        raise WordingsError(f"declared in nn_languages.py and in its wordings file's `{LANGUAGE_KEY}` table: {twice}")
    try:
        return own | {code: module.Language(code, **settings) for code, settings in declared.items()}
    except TypeError as error:
        raise WordingsError(f"a wordings file's `{LANGUAGE_KEY}` table: {error}") from None


def declared() -> list[Declared]:
    """Every message declared in the helpers and the grader, in the order of their files, with its English
    (``i18n/messages.en.toml``)."""
    english = read_wordings(ENGLISH)
    found, where, wrong = [], {}, []
    for side, paths in (("helpers", sorted(MASTER.glob("*.py"))), ("grader", DECLARING)):
        for path in paths:
            in_file = []
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in DECLARERS and node.args):
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    id = DECLARERS[node.func.id] + first.value
                    if id in where or id not in english:
                        why = f"declared in {where[id]} too" if id in where else f"not in {shown(ENGLISH_FILE)}"
                        wrong.append(f"{shown(path)}:{node.lineno}: {id!r} is {why}")
                    where[id] = shown(path)
                    in_file.append((node.lineno, Declared(id, english.get(id, ""), side)))
            found += [message for _, message in sorted(in_file, key=lambda pair: pair[0])]
    wrong += [f"{shown(ENGLISH_FILE)}: {id!r} is declared by no code" for id in english if id not in where]
    if wrong:
        raise WordingsError("\n".join(wrong))
    return found


def shown(path: Path) -> Path:
    """``path`` as a message names it: from the repository's root if it is in the repository."""
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def wordings_file(language: str) -> Path:
    return ENGLISH_FILE if language == ENGLISH else I18N / f"messages.{language}.toml"


def read_entries(language: str) -> dict[str, Entry]:
    """Message id -> what ``language``'s file says of it (empty if the language has no file yet)."""
    path = wordings_file(language)
    if not path.exists():
        return {}
    try:
        table = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise WordingsError(f"{shown(path)} is not valid TOML: {error}") from None
    found, wrong = {}, []
    for id, value in table.items():
        if id == LANGUAGE_KEY:
            continue
        if isinstance(value, str):
            found[id] = Entry(None, value)
        elif (
            isinstance(value, dict)
            and value
            and set(value) <= {"en", language}
            and all(isinstance(v, str) for v in value.values())
        ):
            found[id] = Entry(value.get("en"), value.get(language))
        else:
            wrong.append(id)
    if wrong:
        raise WordingsError(
            f'{shown(path)}: not `"id".en = "English"` and `"id".{language} = "wording"` lines (quote every id: '
            f"most hold a dot): {sorted(wrong)}"
        )
    return found


def read_wordings(language: str) -> dict[str, str]:
    """Message id -> wording in ``language`` (the messages it keeps in English aside)."""
    return {id: e.wording for id, e in read_entries(language).items() if e.wording is not None}


def words(language: str) -> dict[str, str]:
    """Message id -> its template in ``language`` as the files say: the wording there, else its English."""
    return {d.id: d.en for d in declared()} | read_wordings(language)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def problems(language: str) -> list[str]:
    """The wordings of ``language`` that word no declared message, or use other fields than its English."""
    messages = {d.id: d for d in declared()}
    name = shown(wordings_file(language))
    found = []
    for id, entry in read_entries(language).items():
        if id not in messages:
            found.append(f"{name}: {id!r} is the id of no message (renamed or removed?)")
        elif entry.wording is not None and _fields(entry.wording) != _fields(messages[id].en):
            found.append(
                f"{name}: {id!r} has the fields {sorted(_fields(entry.wording))}, its English {messages[id].en!r}"
            )
    return found


def missing(language: str) -> list[Declared]:
    """The messages ``language``'s file leaves out: shown in English there, and not on purpose yet."""
    entries = read_entries(language)
    return [d for d in declared() if d.id not in entries]


def in_english(language: str) -> list[Declared]:
    """The messages ``language`` shows in English: left out of its file, or kept in English there on purpose."""
    words = read_wordings(language)
    return [d for d in declared() if d.id not in words]


def stale_wordings(language: str) -> list[StaleWording]:
    """The wordings of ``language`` stamped against another English than their declaration's now (or never)."""
    entries = read_entries(language)
    return [
        StaleWording(d.id, entry.stamped, d.en, entry.wording)
        for d in declared()
        if (entry := entries.get(d.id)) is not None and entry.wording is not None and entry.stamped != d.en
    ]


def stale_report(language: str) -> str:
    """What the commands and the tests say of ``language``'s stale wordings (empty if none is)."""
    stale = stale_wordings(language)
    if not stale:
        return ""
    lines = [
        f"{len(stale)} wording(s) in {shown(wordings_file(language))} translate another English than their message "
        f"says now (they are shown as they are): update each, then run "
        f"`python -m autograder edition {language} --stamp`"
    ]
    for s in stale:
        was = "never stamped" if s.stamped is None else f"was {s.stamped!r}"
        lines.append(f"  {s.id}: {was}, now {s.english!r}; its wording {s.wording!r}")
    return "\n".join(lines)


ENTRY_LINE = re.compile(r'^(?P<key>"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)(?:\.(?P<part>[A-Za-z0-9_-]+))? *= ')
"""A line of a wordings file giving one message's English or wording (each on one line)."""


def entry_lines(id: str, english: str, wording: str | None, language: str) -> str:
    """A message's lines in ``language``'s file: the English stamped, then the wording (none: kept in English)."""
    key = json.dumps(id)
    lines = [f"{key}.en = {json.dumps(english, ensure_ascii=False)}\n"]
    if wording is not None:
        lines.append(f"{key}.{language} = {json.dumps(wording, ensure_ascii=False)}\n")
    return "".join(lines)


def stamp(language: str) -> list[str]:
    """Record the English each of ``language``'s wordings translates as its message's English now, each message's
    lines rewritten where they stand (comments and order kept); the ids whose stamp changed."""
    trouble = problems(language)
    if trouble:
        raise WordingsError("\n".join(trouble))
    path = wordings_file(language)
    if not path.exists():
        return []
    entries, english = read_entries(language), {d.id: d.en for d in declared()}
    out, done = [], set()
    in_table = False
    for line in path.read_text().splitlines(keepends=True):
        in_table = in_table or line.startswith("[")  # a table (the language's) ends the messages' lines
        found = None if in_table else ENTRY_LINE.match(line)
        if found is None:
            out.append(line)
            continue
        id = tomllib.loads(f"k = {found['key']}")["k"] if found["key"].startswith('"') else found["key"]
        if id == LANGUAGE_KEY:
            out.append(line)
        elif id not in done:
            done.add(id)
            out.append(entry_lines(id, english[id], entries[id].wording, language))
    text = "".join(out)
    wanted = {
        id: {"en": english[id], **({language: e.wording} if e.wording is not None else {})} for id, e in entries.items()
    }
    written = {id: value for id, value in tomllib.loads(text).items() if id != LANGUAGE_KEY}
    if done != set(entries) or written != wanted:
        raise WordingsError(f"{shown(path)}: write each message's English and wording on a line of its own")
    path.write_text(text)
    return [id for id, entry in entries.items() if entry.stamped != english[id]]


def _data(wordings: dict[str, dict[str, str]], declared: dict[str, dict] | None = None) -> str:
    """A generated file's text: JSON, one message per line (so a change shows as one line of a diff)."""
    parts = {"generated": GENERATED, **({"languages": declared} if declared is not None else {}), "wordings": wordings}
    return json.dumps(parts, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


GENERATED = "generated from i18n/messages.<language>.toml by the kit's edition command: do not edit"
"""How a generated file says where it comes from (never naming the grader's package: students get one of them)."""


def modules() -> dict[Path, str]:
    """The two generated files' paths and contents, from every language of the table that has a wordings file."""
    messages = declared()
    sides: dict[str, dict[str, dict[str, str]]] = {"helpers": {}, "grader": {}}
    for side, table in sides.items():
        table[ENGLISH] = {d.id: d.en for d in messages if d.side == side}
    for code in kit_languages():
        if code == ENGLISH or not wordings_file(code).exists():
            continue
        trouble = problems(code)
        if trouble:
            raise WordingsError("\n".join(trouble))
        words = read_wordings(code)
        for side, table in sides.items():
            table[code] = {d.id: words[d.id] for d in messages if d.side == side and d.id in words}
    return {HELPERS_FILE: _data(sides["helpers"], declared_languages()), GRADER_FILE: _data(sides["grader"])}


def stale() -> list[Path]:
    """The generated files that differ from what the wordings files give."""
    return [path for path, text in modules().items() if not path.exists() or path.read_text() != text]


def write() -> list[Path]:
    """Rewrite the generated files that are stale; the ones written."""
    written = stale()
    for path, text in modules().items():
        if path in written:
            path.write_text(text)
    return written
