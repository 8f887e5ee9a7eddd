"""A new language is one file, with English for every message it does not word (the maintainer guide's "Adding a
language"): a copy of the kit's generator gets the guide's own ``i18n/messages.ja.toml`` (its ``language`` table and
three wordings), and nothing else; ``python -m autograder edition ja --stamp`` then writes ``source/mlp_ja``, whose
notebook is the English master's and whose helpers say those three messages in Japanese and the others in English.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from autograder.cli import wordings

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "maintainer-guide.md"
IN_ENGLISH = ("the_formula", "raised")
"""Messages the guide's example leaves out: shown in English in its edition."""
SAY = """
import json, sys, nn_i18n, nn_languages
from nn_messages import CATALOGUE
shown = nn_languages.language(nn_i18n.LANGUAGE)
said = {id: nn_i18n.say(CATALOGUE[id], **fields) for id, fields in json.loads(sys.argv[1]).items()}
print(json.dumps({"language": [nn_i18n.LANGUAGE, shown.name, shown.list_separator], **said}, ensure_ascii=False))
"""


def guide_file() -> str:
    """The wordings file the guide's "Adding a language" writes (its TOML block)."""
    text = GUIDE.read_text()
    section = text[text.index("## Adding a language") : text.index("## The package's layout")]
    blocks = re.findall(r"```toml\n(.*?)^ *```", section, re.S | re.M)
    assert len(blocks) == 1, blocks
    return "\n".join(line.removeprefix("   ") for line in blocks[0].splitlines()) + "\n"


def _fields(template: str) -> dict[str, str]:
    """A value for each field of ``template``: its name in angle brackets (ASCII: no space is dropped beside it)."""
    return {name: f"<{name}>" for _, name, _, _ in string.Formatter().parse(template) if name}


def _kit_copy(folder: Path) -> Path:
    """The files of the kit's generator (its package, the master, the language files), as they are on disk."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "autograder", "source/mlp", "i18n"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (REPO / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, folder / name)
    return folder


def test_a_language_in_one_file_comes_out_in_its_words_and_english_elsewhere(tmp_path: Path) -> None:
    japanese = guide_file()
    table = tomllib.loads(japanese)
    worded = {id: wording for id, wording in table.items() if id != wordings.LANGUAGE_KEY}
    assert len(worded) == 3 and table[wordings.LANGUAGE_KEY]["name"] == "Japanese", table
    kit = _kit_copy(tmp_path / "kit")
    (kit / "i18n" / "messages.ja.toml").write_text(japanese)
    env = os.environ | {"PYTHONPATH": str(kit)}
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "edition", "ja", "--stamp"],
        cwd=kit,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "are shown in English in this edition" in done.stderr  # the rest listed, as lines to add
    edition = kit / "source" / "mlp_ja"
    notebook = json.loads((edition / "mlp_ja.ipynb").read_text())
    master = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    assert [c["source"] for c in notebook["cells"]] == [c["source"] for c in master["cells"]]  # English fallback

    english = {d.id: d.en for d in wordings.declared()}
    fields = {id: _fields(english[id]) for id in [*worded, *IN_ENGLISH]}
    said = json.loads(
        subprocess.run(
            [sys.executable, "-c", SAY, json.dumps(fields)], cwd=edition, capture_output=True, text=True, check=True
        ).stdout
    )
    assert said.pop("language") == ["ja", "Japanese", table[wordings.LANGUAGE_KEY]["list_separator"]]
    assert said == {id: worded.get(id, english[id]).format(**fields[id]) for id in fields}
    assert all(said[id] != english[id].format(**fields[id]) for id in worded)  # in Japanese, not English

    stamped = tomllib.loads((kit / "i18n" / "messages.ja.toml").read_text())
    assert stamped["passed"] == {"en": english["passed"], "ja": worded["passed"]}
    assert stamped[wordings.LANGUAGE_KEY] == table[wordings.LANGUAGE_KEY]
    changed = subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout
    assert "mlp_ja" not in changed and "messages.ja" not in changed  # the kit itself untouched


def test_a_language_table_with_a_field_of_no_language_or_declared_twice_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(wordings, "I18N", tmp_path)
    (tmp_path / "messages.ja.toml").write_text(guide_file())
    assert wordings.kit_languages()["ja"].list_separator == "、" and "ja" in wordings.declared_languages()
    (tmp_path / "messages.ja.toml").write_text(guide_file().replace("digit_group", "digits"))
    with pytest.raises(wordings.WordingsError, match=r"messages.ja.toml: its `language` table holds .*digit_group"):
        wordings.kit_languages()
    (tmp_path / "messages.zh.toml").write_text(
        'language = { name = "Chinese", list_separator = "、", and_word = "和" }\n'
    )
    (tmp_path / "messages.ja.toml").unlink()
    with pytest.raises(wordings.WordingsError, match=r"declared in nn_languages.py and in its wordings file.*'zh'"):
        wordings.kit_languages()
    (tmp_path / "messages.zh.toml").unlink()
    assert set(wordings.kit_languages()) == {"en", "zh"}
