"""The Chinese edition (``source/mlp_zh``) is generated from the English master and translates every message.

Same code cells (comments, docstrings and plot labels aside), cell ids, grade ids and points; every markdown cell,
comment and docstring translated and current; no line break between two Chinese characters in a paragraph (it shows
as a space); the helpers identical but for ``nn_i18n.LANGUAGE`` and the comments and docstrings of ``nn_core``
(which students read); every message the checks produce (public and hidden,
on every catalogued mistake, every corpus submission and the stub) and every cause and formula they can name comes
out in Chinese.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from functools import cache
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "tests" / "corpus"))
from nn_languages import CJK_FONTS  # noqa: E402
from nn_messages import CATALOGUE, CheckFailed, Failure, Text, render  # noqa: E402

import autograder.messages  # noqa: E402, F401 - declares the grader's messages
import autograder.probe.messages  # noqa: E402, F401 - declares the probe's messages
import grading  # noqa: E402
import nn_public  # noqa: E402
from autograder.cell_ids import grade_id  # noqa: E402
from autograder.cli import edition
from catalogue.mistakes import MISTAKES  # noqa: E402

PUBLIC = {
    "Linear": nn_public.check_linear,
    "ReLU": nn_public.check_relu,
    "CrossEntropyLoss": nn_public.check_cross_entropy,
    "SGD": nn_public.check_sgd,
    "MLP": nn_public.check_mlp,
}


def untranslated(text: str) -> list[str]:
    """Runs of three English words left in a translation (code in backticks and Python's or NumPy's own error text
    aside)."""
    prose = re.sub(r"`[^`]*`", " ", re.sub(r"抛出了 \w+：.*|原文：.*", "", text))
    return re.findall(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b", prose)


EDITIONS = sorted(path.name.split(".")[1] for path in (REPO / "i18n").glob("mlp.*.md"))
"""Every edition the kit has: a language with its notebook's translation, ``i18n/mlp.<language>.md``."""


def _cells(assignment: str) -> list[dict]:
    return json.loads((REPO / "source" / assignment / f"{assignment}.ipynb").read_text())["cells"]


def test_the_editions_are_the_table_s_languages() -> None:
    assert "zh" in EDITIONS and set(EDITIONS) <= set(edition.wordings.languages().LANGUAGES) - {"en"}


@pytest.mark.parametrize("language", EDITIONS)
def test_each_edition_is_current(language: str) -> None:
    """Regenerating gives the committed files; a cell without a current translation is named."""
    assert edition.problems(language) == [], "\n".join(edition.problems(language))
    files = edition.edition(language)
    target = REPO / "source" / f"mlp_{language}"
    assert sorted(p.name for p in target.iterdir() if p.is_file()) == sorted(files)
    for name, data in files.items():
        assert (target / name).read_bytes() == data, f"{target / name} is stale: run `python -m autograder regenerate`"


CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
"""Chinese characters and Chinese (full-width) punctuation."""
SOFT_BREAK = re.compile(rf"[{CJK}]\n[ \t]*(?![*+-] |\d+[.)] |#|\||>|\$\$)[{CJK}]")
"""A line break between two Chinese characters that does not start a list item, heading, table row or display math:
Markdown renders it as a space ("尺 寸"). A blank line (a new paragraph) is not matched."""


def soft_breaks(text: str) -> list[str]:
    return [text[max(m.start() - 8, 0) : m.end() + 8] for m in SOFT_BREAK.finditer(text)]


LABELS = {"title", "set_title", "suptitle", "xlabel", "set_xlabel", "ylabel", "set_ylabel", "legend", "text"}


def code_aside(source: str) -> str:
    """``source`` with every comment emptied (``#``) and every docstring and plot label string (a string argument of
    ``LABELS``, or of a title=/xlabel=/ylabel=/label= keyword) replaced by ``"…"`` (an f-string keeps its
    expressions): what must be identical in both editions. Independent of the generator's own parsing."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(row: int, col_bytes: int) -> int:
        return starts[row - 1] + len(lines[row - 1].encode()[:col_bytes].decode())

    spans = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            spans.append((starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1], "#"))
    strings = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and body and isinstance(body[0], ast.Expr):
            strings.append(body[0].value)
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            strings += node.args if name in LABELS else []
            strings += [k.value for k in node.keywords if k.arg in {"title", "xlabel", "ylabel", "label"}]
    for node in strings:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
            kept = [ast.unparse(v) for v in getattr(node, "values", []) if isinstance(v, ast.FormattedValue)]
            start, end = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
            spans.append((start, end, repr(("…", *kept))))
    for start, end, replacement in sorted(spans, reverse=True):
        source = source[:start] + replacement + source[end:]
    return source


def test_code_aside_sets_only_comments_docstrings_and_labels_aside() -> None:
    code = 'def f(x):\n    """Doc."""\n    return x + 1  # one\nax.set(title="Loss", xlabel=f"step {n}")\nprint("hi")\n'
    same = code.replace("Doc.", "文档。").replace("one", "一").replace("Loss", "损失").replace("step", "步")
    assert code_aside(same) == code_aside(code)
    for changed in (code.replace("x + 1", "x + 2"), code.replace('"hi"', '"嗨"'), code.replace("{n}", "{m}")):
        assert code_aside(changed) != code_aside(code), changed


@pytest.mark.parametrize("language", EDITIONS)
def test_each_edition_has_the_master_s_code_grade_ids_and_points(language: str) -> None:
    english, chinese = _cells("mlp"), _cells(f"mlp_{language}")
    assert [c["cell_type"] for c in english] == [c["cell_type"] for c in chinese]
    for en, zh in zip(english, chinese, strict=True):
        assert en["id"] == zh["id"] and en["metadata"] == zh["metadata"], en["id"]
        if en["cell_type"] == "code":
            assert code_aside("".join(en["source"])) == code_aside("".join(zh["source"])), (
                f"code cell {en['id']} differs"
            )
            hidden = re.findall(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "".join(en["source"]), re.S)
            assert hidden == re.findall(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "".join(zh["source"]), re.S)
        elif language == "zh":  # the kit's edition translates every cell (a new language's may leave some in English)
            assert "".join(en["source"]) != "".join(zh["source"]) and re.search(
                r"[\u4e00-\u9fff]", "".join(zh["source"])
            ), f"markdown cell {en['id']} is not translated"
    folder = REPO / "source" / f"mlp_{language}"
    for name in ("nn_checks.py", "nn_diagnosis.py", "nn_languages.py", "nn_messages.py"):
        assert (REPO / "source" / "mlp" / name).read_bytes() == (folder / name).read_bytes(), name
    for name in ("nn_wordings.json", "nn_public_data.py", "nn_public_data.json"):
        assert (REPO / "source" / "mlp" / name).read_bytes() == (folder / name).read_bytes(), name
    for name, functions in edition.CALLED.items():  # the module's docstring and its functions' the notebook calls only
        master, translated = ((REPO / "source" / f / f"{name}.py").read_text() for f in ("mlp", f"mlp_{language}"))
        master = master.replace('LANGUAGE = "en"', f'LANGUAGE = "{language}"')  # nn_i18n's language
        assert code_aside(master) == code_aside(translated), f"{name}.py: only its docstrings are translated"
        texts = [t.english for t in edition.called_texts(translated, functions)]
        assert len(texts) == 1 + len(functions) and (language != "zh" or all(re.search(rf"[{CJK}]", t) for t in texts))
    core, core_zh = ((REPO / "source" / f / "nn_core.py").read_text() for f in ("mlp", f"mlp_{language}"))
    assert code_aside(core) == code_aside(core_zh), "nn_core.py: only its texts are translated"
    assert core != core_zh or language != "zh", "nn_core.py: its texts are translated"
    i18n = (folder / "nn_i18n.py").read_text()
    master = (REPO / "source" / "mlp" / "nn_i18n.py").read_text()
    assert code_aside(i18n) == code_aside(master.replace('LANGUAGE = "en"', f'LANGUAGE = "{language}"'))
    assert f'\nLANGUAGE = "{language}"\n' in i18n


def test_comments_and_docstrings_of_the_chinese_edition_are_chinese() -> None:
    """Every comment (nbgrader's ### markers and hidden tests aside) and docstring of a code cell, and of the helper
    modules students read (``nn_core``), is translated."""
    sources = {cell["id"]: "".join(cell["source"]) for cell in _cells("mlp_zh") if cell["cell_type"] == "code"}
    sources |= {f"{name}.py": (REPO / "source" / "mlp_zh" / f"{name}.py").read_text() for name in edition.MODULES}
    assert "nn_core.py" in sources
    for where, source in sources.items():
        for text in edition.code_texts(source):
            if text.required:
                assert re.search(rf"[{CJK}]", text.english), f"{where}: {text.english!r}"


@pytest.mark.parametrize(
    "path", ["source/mlp_zh/mlp_zh.ipynb", "release/mlp_zh/mlp_zh.ipynb", "solutions/mlp_zh/mlp_zh.ipynb"]
)
def test_no_line_break_between_chinese_characters_in_a_paragraph(path: str) -> None:
    """A line break inside a paragraph renders as a space: "尺 寸", "小例子 和"."""
    cells = json.loads((REPO / path).read_text())["cells"]
    found = {c["id"]: soft_breaks("".join(c["source"])) for c in cells if c["cell_type"] == "markdown"}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"{path}: line breaks between Chinese characters (write each paragraph on one line): {found}"


def test_soft_breaks_are_found() -> None:
    assert soft_breaks("尺\n寸") and soft_breaks("小例子\n  和") and not soft_breaks("段落。\n\n段落")
    assert not soft_breaks("表：\n| 部分 |") and not soft_breaks("列表：\n* 项") and not soft_breaks("`x`\n和")


def _master(tmp_path: Path) -> Path:
    """A copy of the master's helper modules students read, for a master notebook written by the test."""
    master = tmp_path / "mlp"
    master.mkdir()
    for name in (*edition.MODULES, *edition.CALLED):
        (master / f"{name}.py").write_bytes((REPO / "source" / "mlp" / f"{name}.py").read_bytes())
    return master


@pytest.mark.parametrize("language", EDITIONS)
def test_a_changed_english_comment_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str) -> None:
    master = _master(tmp_path)
    notebook = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    cell = next(c for c in notebook["cells"] if c["id"] == "22527ba2")
    cell["source"] = "".join(cell["source"]).replace("a few misclassified", "some misclassified")
    (master / "mlp.ipynb").write_text(json.dumps(notebook))
    monkeypatch.setattr(edition, "MASTER", master)
    found = "\n".join(edition.problems(language))
    assert "id 22527ba2" in found and "no translation of: 'some misclassified" in found
    assert "'a few misclassified test digits, then correct ones' is no longer in the cell" in found
    assert "changed since they were translated" in found


@pytest.mark.parametrize("language", EDITIONS)
def test_a_changed_english_cell_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str) -> None:
    master = _master(tmp_path)
    notebook = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "markdown" and c["id"] == "0068fd57")
    cell["source"] = "".join(cell["source"]) + "\nA new sentence."
    notebook["cells"].append({"cell_type": "markdown", "id": "new-cell", "metadata": {}, "source": "## New"})
    (master / "mlp.ipynb").write_text(json.dumps(notebook))
    monkeypatch.setattr(edition, "MASTER", master)
    found = "\n".join(edition.problems(language))
    assert "id 0068fd57" in found and "changed since it was translated" in found
    assert "id new-cell" in found and "has no translation" in found
    with pytest.raises(edition.EditionError):
        edition.edition(language)


@pytest.mark.parametrize("language", EDITIONS)
def test_a_new_code_cell_is_named_with_its_section_to_paste(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str
) -> None:
    """A new check's hidden cell has no section in the translation yet: the problem is the section, to paste."""
    master = _master(tmp_path)
    notebook = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    comment = "Hidden tests of ReLU.backward, every input negative (2 points) run here when your work is graded."
    cell = {"cell_type": "code", "id": "new-code", "metadata": {}, "source": f"# {comment}\npass"}
    notebook["cells"].append({**cell, "outputs": [], "execution_count": None})
    (master / "mlp.ipynb").write_text(json.dumps(notebook))
    monkeypatch.setattr(edition, "MASTER", master)
    found = "\n".join(edition.problems(language))
    assert f"id new-code, grade id None) has no translation: add this section to i18n/mlp.{language}.md" in found
    assert f"<!-- code new-code -->\nen: {comment}\n{language}: {comment}\n" in found


@pytest.mark.parametrize("language", EDITIONS)
def test_a_changed_docstring_of_nn_core_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str
) -> None:
    master = _master(tmp_path)
    (master / "mlp.ipynb").write_bytes((REPO / "source" / "mlp" / "mlp.ipynb").read_bytes())
    core = master / "nn_core.py"
    core.write_text(core.read_text().replace("Updates a fixed list", "Updates a list"))
    monkeypatch.setattr(edition, "MASTER", master)
    found = "\n".join(edition.problems(language))
    assert "module nn_core.py has no translation of: 'Updates a list of Parameters" in found
    assert "'Updates a fixed list of Parameters from their ``.grad``.' is no longer in the cell" in found
    assert "module nn_core.py: its comments, docstrings or labels changed" in found
    with pytest.raises(edition.EditionError):
        edition.edition(language)


def test_the_edition_translates_the_docstrings_of_nn_core_only() -> None:
    files = edition.edition("zh")
    core = files["nn_core.py"].decode()
    assert "根据各参数的 ``.grad`` 更新一个固定的 Parameter 列表。" in core and "Updates a fixed list" not in core
    assert "raise NotImplementedError" in core and code_aside(core) == code_aside(
        (REPO / "source" / "mlp" / "nn_core.py").read_text()
    )


def _dummy(template: str) -> dict[str, str]:
    return {name: "x" for name in re.findall(r"\{(\w+)\}", template)}


@pytest.mark.parametrize("message_id", sorted(CATALOGUE))
def test_every_message_has_a_chinese_wording(message_id: str) -> None:
    """Every message of the catalogue (helpers, judges, probe, workers), with placeholder fields, reads as Chinese."""
    message = CATALOGUE[message_id]
    chinese = render(Text(message_id, _dummy(message.en)), "zh")
    assert re.search(rf"[{CJK}]", chinese) or message.en == message.template("zh"), message_id
    assert not untranslated(re.sub("|".join(CJK_FONTS), "", chinese)), (message_id, chinese)
    assert not soft_breaks(message.template("zh").replace("\n  ", "\n\n")), (
        message_id
    )  # a message's next line is indented


@cache
def _failures() -> tuple[Failure, ...]:
    """Every failure of the public and hidden checks on the stub, each catalogued mistake and each corpus file."""
    codes = {m.name: grading.catalogue_code(m.edits) for m in MISTAKES} | grading.corpus()
    release = json.loads((REPO / "release" / "mlp" / "mlp.ipynb").read_text())["cells"]
    codes["stub"] = "\n\n".join("".join(c["source"]) for c in release if grade_id(c) in grading.ANSWER_CELLS)
    failures: dict[str, Failure] = {}
    with grading.secret(grading.SECRETS[0]):
        for name, code in codes.items():
            failures.update((str(f), f) for f in grading.failures_of(code, name, grading.SECRETS[0]).values())
            names = grading.namespace(code, name)  # the public checks' own, as the notebook's kernel is
            for part, check in PUBLIC.items():
                try:
                    check(names[part])
                except CheckFailed as failed:
                    failures[str(failed)] = failed.failure
    return tuple(failures[key] for key in sorted(failures))


def test_every_message_of_the_checks_comes_out_in_chinese() -> None:
    failures = _failures()
    assert len(failures) > 100
    missing = {str(f): f.render("zh") for f in failures if untranslated(f.render("zh"))}
    assert not missing, "messages without a full translation (see nn_messages):\n" + "\n\n".join(
        f"{m}\n-> {t}" for m, t in list(missing.items())[:5]
    )


def test_a_failure_is_data_that_renders_the_same_after_a_round_trip() -> None:
    for failure in _failures()[:40]:
        again = Failure.from_data(json.loads(json.dumps(failure.to_data())))
        assert again.render("en") == failure.render("en") and again.render("zh") == failure.render("zh")


def test_a_language_not_in_the_table_is_named_and_one_without_its_translation_is_the_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = ", ".join(edition.wordings.languages().LANGUAGES)
    with pytest.raises(edition.EditionError, match=rf"'xx' is not a language of the kit: .*nn_languages.py.* {table}"):
        edition.problems("xx")
    assert edition.main(["xx"]) == 1
    monkeypatch.setattr(edition, "translations_file", lambda language: REPO / "i18n" / f"mlp.{language}.new.md")
    assert edition.problems("zh") == []
    notebook = json.loads(edition.edition("zh")["mlp_zh.ipynb"])
    master = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
    assert [c["source"] for c in notebook["cells"]] == [c["source"] for c in master["cells"]]


def test_a_started_translation_lists_every_section_until_stamped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--start`` writes every section with the English in place and nothing stamped; once stamped, it generates."""
    started = tmp_path / "mlp.zh.md"
    monkeypatch.setattr(edition, "translations_file", lambda language: started)
    (tmp_path / "messages.zh.toml").write_bytes(edition.wordings.wordings_file("zh").read_bytes())
    monkeypatch.setattr(edition.wordings, "I18N", tmp_path)  # the stamp records the messages' English there too
    edition.start("zh")
    cells = json.loads((REPO / "source" / "mlp" / "mlp.ipynb").read_text())["cells"]
    found = edition.problems("zh")
    assert sum("never stamped" in line for line in found) == len(cells) - sum(
        not edition.code_texts("".join(c["source"])) for c in cells if c["cell_type"] == "code"
    ) + len(edition.MODULES) + len(edition.CALLED)
    with pytest.raises(edition.EditionError, match="exists already"):
        edition.start("zh")
    edition.stamp("zh")
    assert edition.problems("zh") == []
    files = edition.edition("zh")
    assert json.loads(files["mlp_zh.ipynb"])["cells"][0]["source"] == "".join(cells[0]["source"])  # English in place


def test_the_messages_without_a_wording_are_listed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert edition.missing_wordings("zh") == ""
    (tmp_path / "messages.zh.toml").write_text('"passed" = "{part}：公开检查全部通过。"\n"likely_cause".en = ""\n')
    monkeypatch.setattr(edition.wordings, "I18N", tmp_path)
    monkeypatch.setattr(edition.wordings, "REPO", tmp_path)
    listed = edition.missing_wordings("zh")
    declared = {message.id for message in edition.wordings.declared()}  # not CATALOGUE: it holds what was imported
    assert listed.startswith(f"{len(declared) - 2} message(s) have no wording in messages.zh.toml")
    assert '\n"expected_got".en = "{what}: expected {expected}, got {got}."' in listed and '\n"passed"' not in listed
    assert '"likely_cause"' not in listed and listed.endswith(
        '\n1 message(s) are kept in English on purpose in messages.zh.toml (an `"<id>".en` line without its '
        '`"<id>".zh` line)'
    )


@pytest.mark.parametrize("module", ["nn_public", "nn_i18n"])
def test_help_lists_only_the_helpers_functions_whose_docstrings_are_translated(module: str) -> None:
    """``help(nn_public)`` shows what ``__all__`` names: the functions the notebook calls (``CALLED``), translated."""
    tree = ast.parse((REPO / "source" / "mlp" / f"{module}.py").read_text())
    named = next(n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__")
    functions = [name for name in ast.literal_eval(named) if name != "LANGUAGE"]
    assert functions == list(edition.CALLED[module])
