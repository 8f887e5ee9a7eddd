"""Each language's wordings of the messages (``i18n/messages.<language>.toml``) reach the code, whole (fast tier).

The two generated modules are current and split along the trust line (the helpers' module, which students get, holds
none of the grader's words); every language present words every message, or the messages it leaves in English are
accepted here by id; a message without a wording is shown in English, never empty; a wording of no message, or with
other fields than its English, is named.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the judges see them

import nn_messages  # noqa: E402
import nn_wordings  # noqa: E402
from nn_languages import LANGUAGES  # noqa: E402
from nn_messages import CATALOGUE, EXPECTED_GOT, Text, render  # noqa: E402

import autograder.messages  # noqa: E402, F401 - declares the grader's messages and adds their wordings
import autograder.probe.messages  # noqa: E402, F401
import nn_diagnosis  # noqa: E402, F401
import nn_public  # noqa: E402, F401
from autograder.cli import wordings  # noqa: E402

PRESENT = sorted(code for code in LANGUAGES if code != "en" and wordings.wordings_file(code).exists())
"""The languages with a wordings file: the editions the kit has."""
ACCEPTED_IN_ENGLISH: dict[str, set[str]] = {}
"""Language -> the ids of the messages it deliberately shows in English (none so far)."""


def test_the_generated_modules_are_current() -> None:
    assert wordings.stale() == [], "run `python -m autograder edition <language>` (it rewrites them)"


def test_the_declarations_found_in_the_files_are_the_catalogue() -> None:
    """``wordings.declared`` reads the declarations without running them: the ids the loaded catalogue modules hold
    (other tests call ``message`` too: the catalogue may hold more by now)."""
    found = [d.id for d in wordings.declared()]
    held = {
        value.id
        for module in (nn_messages, autograder.messages, autograder.probe.messages)
        for value in vars(module).values()
        if isinstance(value, nn_messages.Message | Text)
    }
    assert len(found) == len(set(found)) and set(found) <= set(CATALOGUE) and held <= set(found), held - set(found)
    assert len(held) > 300


def test_the_helpers_module_holds_only_the_helpers_words() -> None:
    helpers = {d.id for d in wordings.declared() if d.side == "helpers"}
    assert PRESENT and all(set(nn_wordings.WORDINGS[code]) <= helpers for code in PRESENT)
    assert any(d.side == "grader" and d.id in nn_messages.WORDINGS["zh"] for d in wordings.declared())


@pytest.mark.parametrize("language", PRESENT)
def test_every_language_present_words_every_message(language: str) -> None:
    assert wordings.problems(language) == []
    missing = {d.id for d in wordings.missing(language)}
    unaccepted = sorted(missing - ACCEPTED_IN_ENGLISH.get(language, set()))
    assert not unaccepted, (
        f"{len(unaccepted)} message(s) with no {language} wording (shown in English): {unaccepted[:20]}"
    )
    assert missing >= ACCEPTED_IN_ENGLISH.get(language, set()), "accepted in English but translated: drop them here"


def test_a_message_without_a_wording_is_shown_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(nn_messages.WORDINGS, "zh", {**nn_messages.WORDINGS["zh"]})
    del nn_messages.WORDINGS["zh"][EXPECTED_GOT.id]
    failure = EXPECTED_GOT(what="x", expected="0.5", got="1.0")
    assert render(failure, "zh") == render(failure, "en") == "x: expected 0.5, got 1.0."
    assert render(Text("passed", {"part": "SGD"}), "xx") == "SGD: public checks passed."  # a code of no language


def test_a_wrong_wording_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "messages.fr.toml").write_text('"expected_got" = "{what} : attendu {expected}."\n"gone" = "parti"\n')
    monkeypatch.setattr(wordings, "I18N", tmp_path)
    monkeypatch.setattr(wordings, "REPO", tmp_path)
    found = "\n".join(wordings.problems("fr"))
    assert "'expected_got' has the fields ['expected', 'what']" in found and "'gone' is the id of no message" in found
    assert "expected_got" not in {d.id for d in wordings.missing("fr")} and len(wordings.missing("fr")) > 300
    (tmp_path / "messages.fr.toml").write_text("expected_got.x = 'nested'\n")
    with pytest.raises(wordings.WordingsError, match="quote dotted ids"):
        wordings.read_wordings("fr")
