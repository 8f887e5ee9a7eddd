"""Each language's wordings of the messages (``i18n/messages.<language>.toml``) reach the code, whole and current
(fast tier).

The two generated modules are current and split along the trust line (the helpers' module, which students get, holds
none of the grader's words); every language present words every message, or keeps it in English on purpose in its
file; every wording translates its message's English as it is now (stamped), and one whose English changed is named
with the old and the new English, still shown as it is; a message without a wording is shown in English, never
empty; a wording of no message, or with other fields than its English, is named.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the judges see them

import nn_messages  # noqa: E402
from nn_languages import GENERATED, LANGUAGES  # noqa: E402
from nn_messages import CATALOGUE, EXPECTED_GOT, Text, render  # noqa: E402

import autograder.messages  # noqa: E402, F401 - declares the grader's messages and adds their wordings
import autograder.probe.messages  # noqa: E402, F401
import nn_diagnosis  # noqa: E402, F401
import nn_public  # noqa: E402, F401
from autograder.cli import regenerate, wordings  # noqa: E402

PRESENT = sorted(code for code in LANGUAGES if code != "en" and wordings.wordings_file(code).exists())
"""The languages with a wordings file: the editions the kit has."""


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


def test_the_helpers_file_holds_only_the_helpers_words() -> None:
    helpers = {d.id for d in wordings.declared() if d.side == "helpers"}
    assert PRESENT and all(set(GENERATED["wordings"][code]) <= helpers for code in PRESENT)
    assert any(d.side == "grader" and d.id in nn_messages.WORDINGS["zh"] for d in wordings.declared())


@pytest.mark.parametrize("language", PRESENT)
def test_every_language_present_words_every_message(language: str) -> None:
    assert wordings.problems(language) == []
    missing = [d.id for d in wordings.missing(language)]
    assert not missing, (
        f"{len(missing)} message(s) left out of {wordings.shown(wordings.wordings_file(language))} (shown in English): "
        f"{missing[:20]}; `python -m autograder edition {language}` lists them with the lines to add there"
    )


@pytest.mark.parametrize("language", PRESENT)
def test_every_wording_translates_its_message_s_english_now(language: str) -> None:
    assert not wordings.stale_wordings(language), wordings.stale_report(language)


def _scratch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, toml: str) -> Path:
    """``tmp_path`` as the folder of the wordings files, holding ``messages.fr.toml`` with ``toml``."""
    (tmp_path / "messages.fr.toml").write_text(toml)
    monkeypatch.setattr(wordings, "I18N", tmp_path)
    monkeypatch.setattr(wordings, "REPO", tmp_path)
    return tmp_path / "messages.fr.toml"


def _declared_with(monkeypatch: pytest.MonkeyPatch, id: str, english: str) -> None:
    """The declarations as they are, but ``id``'s English is ``english``."""
    found = wordings.declared()
    monkeypatch.setattr(
        wordings, "declared", lambda: [dataclasses.replace(d, en=english) if d.id == id else d for d in found]
    )


def test_a_changed_english_is_named_with_the_old_and_the_new_still_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Chinese file as it is, the English of ``expected_got`` changed in its declaration: its wording is stale,
    named with both Englishes and the command, and the generated files still hold it."""
    before, now = EXPECTED_GOT.en, EXPECTED_GOT.en.replace("{expected}", "{expected} (changed)")
    _declared_with(monkeypatch, EXPECTED_GOT.id, now)
    stale = wordings.stale_wordings("zh")
    assert [(s.id, s.stamped, s.english) for s in stale] == [(EXPECTED_GOT.id, before, now)]
    report = wordings.stale_report("zh")
    assert f"was {before!r}, now {now!r}" in report and "`python -m autograder edition zh --stamp`" in report
    assert stale[0].wording in next(text for path, text in wordings.modules().items() if path == wordings.HELPERS_FILE)
    assert report in regenerate.translation_notes()  # `regenerate` lists it too, and goes on


def test_stamp_records_the_english_now_keeping_the_file_s_order_and_comments(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    passed, expected_got, likely_cause = (
        nn_messages.CATALOGUE[id].en for id in ("passed", "expected_got", "likely_cause")
    )
    french = {
        "passed": "{part} : vérifications publiques réussies.",
        "expected_got": "{what} : attendu {expected}, obtenu {got}.",
    }
    lines = [
        "# French.",
        "",
        "# a group",
        f'"passed" = "{french["passed"]}"',  # a wording never stamped
        '"expected_got".en = "{what}: expected {expected}."',  # stamped against an older English
        f'"expected_got".fr = "{french["expected_got"]}"',
        '"likely_cause".en = "an older English"',  # kept in English on purpose
    ]
    path = _scratch(monkeypatch, tmp_path, "\n".join(lines) + "\n")
    stale = {s.id: s.stamped for s in wordings.stale_wordings("fr")}
    assert stale == {"passed": None, "expected_got": "{what}: expected {expected}."}
    assert "passed: never stamped" in wordings.stale_report("fr")
    assert sorted(wordings.stamp("fr")) == ["expected_got", "likely_cause", "passed"]
    assert wordings.stale_wordings("fr") == [] and wordings.stamp("fr") == []
    lines[3:] = [
        f'"passed".en = "{passed}"',
        f'"passed".fr = "{french["passed"]}"',
        f'"expected_got".en = "{expected_got}"',
        f'"expected_got".fr = "{french["expected_got"]}"',
        f'"likely_cause".en = "{likely_cause}"',
    ]
    assert path.read_text() == "\n".join(lines) + "\n"
    assert wordings.read_wordings("fr") == french
    assert "likely_cause" in {d.id for d in wordings.in_english("fr")} - {d.id for d in wordings.missing("fr")}


def test_a_message_without_a_wording_is_shown_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(nn_messages.WORDINGS, "zh", {**nn_messages.WORDINGS["zh"]})
    del nn_messages.WORDINGS["zh"][EXPECTED_GOT.id]
    failure = EXPECTED_GOT(what="x", expected="0.5", got="1.0")
    assert render(failure, "zh") == render(failure, "en") == "x: expected 0.5, got 1.0."
    assert render(Text("passed", {"part": "SGD"}), "xx") == "SGD: public checks passed."  # a code of no language


def test_a_wrong_wording_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _scratch(monkeypatch, tmp_path, '"expected_got" = "{what} : attendu {expected}."\n"gone" = "parti"\n')
    found = "\n".join(wordings.problems("fr"))
    assert "'expected_got' has the fields ['expected', 'what']" in found and "'gone' is the id of no message" in found
    assert "expected_got" not in {d.id for d in wordings.missing("fr")} and len(wordings.missing("fr")) > 300
    (tmp_path / "messages.fr.toml").write_text("expected_got.x = 'nested'\n")
    with pytest.raises(wordings.WordingsError, match="quote every id"):
        wordings.read_wordings("fr")
    with pytest.raises(wordings.WordingsError, match="expected_got"):
        wordings.stamp("fr")
    (tmp_path / "messages.fr.toml").write_text('"passed".en = "{part}"\n"passed".zh = "{part}"\n')
    with pytest.raises(wordings.WordingsError, match="passed"):
        wordings.read_wordings("fr")
