"""The wordings of the kit's messages in each language but English: ``i18n/messages.<language>.toml``, by message id.

English is the source: every message is declared once with its English wording (``message(id, en=...)``, ``text``,
``cause``, ``formula``) in the helpers (``source/mlp/*.py``) or in the grader (``DECLARING``). A language's file gives
a wording per id (TOML: ``"id" = "wording"``); one it lacks is shown in English (``missing`` lists them). The
wordings reach the code as two generated modules, each holding only its own side's messages: the helpers' in
``source/mlp/nn_wordings.py`` (students get it with the helpers, so it holds none of the grader's words) and the
grader's in ``autograder/wordings.py`` (which ``autograder.messages`` adds). ``python -m autograder edition``
rewrites both (``write``); ``tests/test_wordings.py`` fails while either is stale.
"""

from __future__ import annotations

import ast
import importlib.util
import json
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
HELPERS_MODULE = MASTER / "nn_wordings.py"
GRADER_MODULE = REPO / "autograder" / "wordings.py"


class WordingsError(Exception):
    """A language's wordings file cannot be read, or words messages that do not exist or with other fields."""


@dataclass(frozen=True)
class Declared:
    """A message as its declaration writes it: id, English template, and the side (``helpers`` or ``grader``)."""

    id: str
    en: str
    side: str


def languages() -> ModuleType:
    """The master's table of languages (``source/mlp/nn_languages.py``), loaded from its file (it imports nothing of
    the kit's)."""
    if "nn_languages" in sys.modules:
        return sys.modules["nn_languages"]
    spec = importlib.util.spec_from_file_location("nn_languages", MASTER / "nn_languages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["nn_languages"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def declared() -> list[Declared]:
    """Every message declared in the helpers and the grader, in the order of their files."""
    found = []
    for side, paths in (("helpers", sorted(MASTER.glob("*.py"))), ("grader", DECLARING)):
        for path in paths:
            in_file = []
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in DECLARERS and node.args):
                    continue
                first = node.args[0]
                en = next((k.value for k in node.keywords if k.arg == "en"), None)
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and en is not None:
                    message = Declared(DECLARERS[node.func.id] + first.value, ast.literal_eval(en), side)
                    in_file.append((node.lineno, message))
            found += [message for _, message in sorted(in_file, key=lambda pair: pair[0])]
    return found


def shown(path: Path) -> Path:
    """``path`` as a message names it: from the repository's root if it is in the repository."""
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def wordings_file(language: str) -> Path:
    return I18N / f"messages.{language}.toml"


def read_wordings(language: str) -> dict[str, str]:
    """Message id -> wording in ``language`` (empty if the language has no file yet)."""
    path = wordings_file(language)
    if not path.exists():
        return {}
    try:
        table = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise WordingsError(f"{shown(path)} is not valid TOML: {error}") from None
    wrong = sorted(key for key, value in table.items() if not isinstance(value, str))
    if wrong:
        raise WordingsError(f'{shown(path)}: not a `"id" = "wording"` line (quote dotted ids): {wrong}')
    return table


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def problems(language: str) -> list[str]:
    """The wordings of ``language`` that word no declared message, or use other fields than its English."""
    messages = {d.id: d for d in declared()}
    name = shown(wordings_file(language))
    found = []
    for id, wording in read_wordings(language).items():
        if id not in messages:
            found.append(f"{name}: {id!r} is the id of no message (renamed or removed?)")
        elif _fields(wording) != _fields(messages[id].en):
            found.append(f"{name}: {id!r} has the fields {sorted(_fields(wording))}, its English {messages[id].en!r}")
    return found


def missing(language: str) -> list[Declared]:
    """The messages with no wording in ``language``: shown in English there."""
    words = read_wordings(language)
    return [d for d in declared() if d.id not in words]


def _module(docstring: str, wordings: dict[str, dict[str, str]]) -> str:
    lines = [f'"""{docstring}"""', "", "WORDINGS: dict[str, dict[str, str]] = {"]
    for language, words in wordings.items():
        lines.append(f"    {json.dumps(language)}: {{")
        lines += [
            f"        {json.dumps(id)}: {json.dumps(wording, ensure_ascii=False)}," for id, wording in words.items()
        ]
        lines.append("    },")
    return "\n".join([*lines, "}", ""])


GENERATED = "generated from ``i18n/messages.<language>.toml`` by the kit's ``edition`` command: do not edit"
"""How a generated module says where it comes from (never naming the grader's package: students get one of them)."""


def modules() -> dict[Path, str]:
    """The two generated modules' paths and contents, from every language of the table that has a wordings file."""
    messages = declared()
    sides: dict[str, dict[str, dict[str, str]]] = {"helpers": {}, "grader": {}}
    for code in languages().LANGUAGES:
        if code == "en" or not wordings_file(code).exists():
            continue
        trouble = problems(code)
        if trouble:
            raise WordingsError("\n".join(trouble))
        words = read_wordings(code)
        for side, table in sides.items():
            table[code] = {d.id: words[d.id] for d in messages if d.side == side and d.id in words}
    return {
        HELPERS_MODULE: _module(
            f"The wordings of the helpers' messages in each language but English, by message id:\n{GENERATED}.\n\n"
            "English is in the declarations (``nn_messages``); a message without a wording here is shown in English.\n",
            sides["helpers"],
        ),
        GRADER_MODULE: _module(
            f"The wordings of the grader's messages in each language but English, by message id:\n{GENERATED}.\n\n"
            "Trusted side: ``autograder.messages`` adds them to the helpers' (``nn_messages.add_wordings``).\n",
            sides["grader"],
        ),
    }


def stale() -> list[Path]:
    """The generated modules that differ from what the wordings files give."""
    return [path for path, text in modules().items() if not path.exists() or path.read_text() != text]


def write() -> list[Path]:
    """Rewrite the generated modules that are stale; the ones written."""
    written = stale()
    for path, text in modules().items():
        if path in written:
            path.write_text(text)
    return written
