"""The Chinese edition (``source/mlp_zh``) is generated from the English master and translates every message.

Same code cells, cell ids, grade ids and points; every markdown cell translated and current; the helpers identical
but for ``nn_i18n.LANGUAGE``; every message the checks produce (public and hidden, on every catalogued mistake,
every corpus submission and the stub) and every cause and formula they can name comes out in Chinese.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "tests" / "corpus"))
import grading  # noqa: E402
import nn_diagnosis  # noqa: E402
import nn_public  # noqa: E402
from autograder.cli import edition
from autograder.judge import linear, loss, mlp, mnist_gate, relu, sgd  # noqa: E402
from catalogue.mistakes import MISTAKES  # noqa: E402
from nn_checks import CheckFailed  # noqa: E402
from nn_i18n import ZH, translate  # noqa: E402

PUBLIC = {
    "Linear": nn_public.check_linear,
    "ReLU": nn_public.check_relu,
    "CrossEntropyLoss": nn_public.check_cross_entropy,
    "SGD": nn_public.check_sgd,
    "MLP": nn_public.check_mlp,
}


def untranslated(text: str) -> list[str]:
    """Runs of three English words left in a translation (code in backticks and Python's own error text aside)."""
    prose = re.sub(r"`[^`]*`", " ", re.sub(r"抛出了 \w+：.*", "", text))
    return re.findall(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b", prose)


def _cells(assignment: str) -> list[dict]:
    return json.loads((REPO / "source" / assignment / f"{assignment}.ipynb").read_text())["cells"]


def test_the_chinese_edition_is_current() -> None:
    """Regenerating gives the committed files; a cell without a current translation is named."""
    assert edition.problems("zh") == [], "\n".join(edition.problems("zh"))
    files = edition.edition("zh")
    target = REPO / "source" / "mlp_zh"
    assert sorted(p.name for p in target.iterdir() if p.is_file()) == sorted(files)
    for name, data in files.items():
        assert (target / name).read_bytes() == data, f"{target / name} is stale: run `python -m autograder edition zh`"


def test_both_editions_have_the_same_code_grade_ids_and_points() -> None:
    english, chinese = _cells("mlp"), _cells("mlp_zh")
    assert [c["cell_type"] for c in english] == [c["cell_type"] for c in chinese]
    for en, zh in zip(english, chinese, strict=True):
        assert en["id"] == zh["id"] and en["metadata"] == zh["metadata"], en["id"]
        if en["cell_type"] == "code":
            assert "".join(en["source"]) == "".join(zh["source"]), f"code cell {en['id']} differs"
        else:
            assert "".join(en["source"]) != "".join(zh["source"]) and re.search(
                r"[\u4e00-\u9fff]", "".join(zh["source"])
            )
    for name in ("nn_core.py", "nn_checks.py", "nn_diagnosis.py", "nn_public.py", "mnist_data.py"):
        assert (REPO / "source" / "mlp" / name).read_bytes() == (REPO / "source" / "mlp_zh" / name).read_bytes(), name
    i18n = (REPO / "source" / "mlp_zh" / "nn_i18n.py").read_text()
    assert i18n == (REPO / "source" / "mlp" / "nn_i18n.py").read_text().replace('LANGUAGE = "en"', 'LANGUAGE = "zh"')


def test_a_changed_english_cell_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    master = tmp_path / "mlp"
    master.mkdir()
    notebook = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "markdown" and c["id"] == "0068fd57")
    cell["source"] = "".join(cell["source"]) + "\nA new sentence."
    notebook["cells"].append({"cell_type": "markdown", "id": "new-cell", "metadata": {}, "source": "## New"})
    (master / "mlp.ipynb").write_text(json.dumps(notebook))
    monkeypatch.setattr(edition, "MASTER", master)
    found = "\n".join(edition.problems("zh"))
    assert "id 0068fd57" in found and "changed since it was translated" in found
    assert "id new-cell" in found and "has no translation" in found
    with pytest.raises(edition.EditionError):
        edition.edition("zh")


def test_the_table_is_well_formed() -> None:
    english = [e for e, _ in ZH]
    assert len(english) == len(set(english)), "an English entry appears twice"
    for en, zh in ZH:
        assert sorted(re.findall(r"\{\w+\}", en)) == sorted(re.findall(r"\{\w+\}", zh)), en
        assert re.search(r"[\u4e00-\u9fff]", zh) or en == "{first}: {second}", en


def _static_texts() -> list[str]:
    """Every cause and formula a message can name: the diagnosis catalogue, the helpers' and the judges' constants."""
    texts = []
    for value in vars(nn_diagnosis).values():
        if isinstance(value, nn_diagnosis.Quantity):
            texts += [f"  The formula: {value.formula}", *(f"  Likely cause: {s.cause}." for s in value.suspects)]
    texts += [f"  Likely cause: {cause}." for _, _, cause in nn_diagnosis.ERROR_CAUSES]
    for module in (nn_diagnosis, linear, relu, loss, sgd, mlp, mnist_gate):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str) and " " in value:
                texts.append(f"  Likely cause: {value}")
            if name.isupper() and isinstance(value, tuple) and value and isinstance(value[0], tuple):
                texts += [f"  Likely cause: {t[-1]}" for t in value if isinstance(t[-1], str)]
    return texts  # the catalogue's causes (parts of these) are covered by the messages of its mistakes, below


@pytest.mark.parametrize("text", _static_texts())
def test_every_cause_and_formula_has_a_translation(text: str) -> None:
    translated = translate(text, "zh")
    assert translated != text and not untranslated(translated), translated


@cache
def _messages() -> tuple[str, ...]:
    """Every message of the public and hidden checks on the stub, each catalogued mistake and each corpus file."""
    codes = {m.name: grading.catalogue_code(m.edits) for m in MISTAKES} | grading.corpus()
    release = json.loads((REPO / "release" / "mlp" / "mlp.ipynb").read_text())["cells"]
    codes["stub"] = "\n\n".join(
        "".join(c["source"])
        for c in release
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in grading.ANSWER_CELLS
    )
    messages = set()
    with grading.secret(grading.SECRETS[0]):
        for name, code in codes.items():
            names = grading.namespace(code, name)
            messages.update(grading.grade(names).values())
            for part, check in PUBLIC.items():
                try:
                    check(names[part])
                except CheckFailed as failure:
                    messages.add(str(failure))
                messages.add(f"{part}: public checks passed.")
    return tuple(sorted(messages))


def test_every_message_of_the_checks_comes_out_in_chinese() -> None:
    messages = _messages()
    assert len(messages) > 100
    missing = {m: translate(m, "zh") for m in messages if untranslated(translate(m, "zh"))}
    assert not missing, "messages without a full translation (add their pieces to nn_i18n.ZH):\n" + "\n\n".join(
        f"{m}\n-> {t}" for m, t in list(missing.items())[:5]
    )


def test_english_stays_the_default_and_untouched() -> None:
    for message in _messages()[:20]:
        assert translate(message) == message and translate(message, "en") == message
