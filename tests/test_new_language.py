"""A new language is one file, with English for every message it does not word (the maintainer guide's "Adding a
language"): a copy of the kit's generator gets ``i18n/messages.ja.toml`` with its ``language`` table and three
wordings, and nothing else; ``python -m autograder edition ja --stamp`` then writes ``source/mlp_ja``, whose notebook is
the English master's and whose helpers say those three messages in Japanese and every other in English.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from autograder.cli import wordings

REPO = Path(__file__).resolve().parents[1]
JAPANESE = """# The Japanese wordings of the kit's messages, keyed by message id.
language = { name = "Japanese", list_separator = "、", and_word = "と", space_beside_wide = "", digit_group = "" }

"passed" = "{part}：公開チェックはすべて合格です。"
"expected_got" = "{what}：期待値 {expected}、実際は {got}。"
"likely_cause" = "  考えられる原因：{cause}。"
"""
SAY = """
import json, nn_i18n, nn_languages
from nn_messages import EXPECTED_GOT, LIKELY_CAUSE, PASSED, THE_FORMULA
ja = nn_languages.language(nn_i18n.LANGUAGE)
print(json.dumps({
    "language": [nn_i18n.LANGUAGE, ja.name, ja.list_separator],
    "passed": nn_i18n.say(PASSED, part="ReLU"),
    "expected_got": nn_i18n.say(EXPECTED_GOT, what="y", expected="(3, 2)", got="(2, 3)"),
    "likely_cause": nn_i18n.say(LIKELY_CAUSE, cause="dW = G X"),
    "the_formula": nn_i18n.say(THE_FORMULA, formula="Y = XW + b"),
}, ensure_ascii=False))
"""


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
    kit = _kit_copy(tmp_path / "kit")
    (kit / "i18n" / "messages.ja.toml").write_text(JAPANESE)
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

    said = json.loads(
        subprocess.run(
            [sys.executable, "-c", SAY], cwd=edition, capture_output=True, text=True, check=True, env=os.environ
        ).stdout
    )
    assert said["language"] == ["ja", "Japanese", "、"]
    assert said["passed"] == "ReLU：公開チェックはすべて合格です。"
    assert said["expected_got"] == "y：期待値 (3, 2)、実際は (2, 3)。"
    assert said["likely_cause"] == "  考えられる原因：dW = G X。"
    assert said["the_formula"] == "  The formula: Y = XW + b"  # no Japanese wording: its English

    stamped = tomllib.loads((kit / "i18n" / "messages.ja.toml").read_text())
    assert stamped["passed"] == {"en": "{part}: public checks passed.", "ja": "{part}：公開チェックはすべて合格です。"}
    assert stamped["language"]["name"] == "Japanese"
    changed = subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout
    assert "mlp_ja" not in changed and "messages.ja" not in changed  # the kit itself untouched


def test_a_language_table_with_a_field_of_no_language_or_declared_twice_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(wordings, "I18N", tmp_path)
    (tmp_path / "messages.ja.toml").write_text(JAPANESE)
    assert wordings.kit_languages()["ja"].list_separator == "、" and "ja" in wordings.declared_languages()
    (tmp_path / "messages.ja.toml").write_text(JAPANESE.replace("digit_group", "digits"))
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
