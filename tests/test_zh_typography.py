"""The Chinese edition reads as a Chinese teacher writes (fast tier; one slow test runs the notebook as a student).

What a student of ``mlp_zh`` reads, the notebook's markdown, the comments and docstrings of its code cells and of
``nn_core``, and every output of its cells (the training cell's lines, its progress bars and plots, the MNIST loader's
errors), is Chinese, uses the chapter's terms (the glossary at the top of ``i18n/mlp.zh.md``: none of the terms it
retires) and Chinese typography: emphasis in bold or 「」 (italics slant Chinese synthetically), 、 between list items,
no ASCII comma next to Chinese, ``97%`` without a space, no thousands separators, ``1e-6`` only as code; and
AutoCorrect's copy-editing lint (``.autocorrectrc``) finds nothing in the Chinese markdown and wordings.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "tests"))
import nn_messages  # noqa: E402
from nn_languages import CJK_FONTS  # noqa: E402

import mnist_data  # noqa: E402
import nn_i18n  # noqa: E402
import tiny_mnist  # noqa: E402
from autograder.cell_ids import grade_id  # noqa: E402
from autograder.cli import edition, plot_font, wordings  # noqa: E402

CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
RETIRED = {
    "小批量": "batch (the chapter: 一个 batch 中有 B 个样本)",
    "批量": "batch, batch 维度, batch 大小",
    "目标": "标签 / 真实标签",
    "猜": "预测",
    "拐点": "不可导点 (an inflection point is not a kink)",
    "期望": "应为 (expected, as the messages say it)",
    "实际得到": "实际为",
    "1(H >": "𝕀(H > 0), the notebook's indicator",
    "1(H ≥": "𝕀(H ≥ 0), the notebook's indicator",
    "1(x >": "𝕀(x > 0), the notebook's indicator",
    "无限循环": "死循环",
    "Deep Learning Notes": "讲义中的「多层感知机」一章",
}
"""Terms the glossary retires, and what the chapter says instead."""
NOTEBOOKS = ("source/mlp_zh/mlp_zh.ipynb", "release/mlp_zh/mlp_zh.ipynb", "solutions/mlp_zh/mlp_zh.ipynb")


def prose(text: str) -> str:
    """``text`` without its code (fenced, ``double`` and `single` backticks), math ($$…$$, $…$) and links' targets."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"``.*?``|`[^`\n]*`", " ", text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "]", text)


def typography(text: str, markdown: bool = True) -> list[str]:
    """What in the Chinese ``text`` breaks Chinese typography (each finding with a few characters around it)."""
    words = prose(text) if markdown else text
    found = []
    rules = {
        "italics around Chinese (use bold or 「」)": rf"(?<![*\w])\*(?!\*)[^*\n]*[{CJK}][^*\n]*(?<!\*)\*(?![*\w])"
        rf"|(?<![_\w])_(?!_)[^_\n]*[{CJK}][^_\n]*(?<!_)_(?![_\w])".replace(r"\w", "A-Za-z0-9"),
        "an ASCII comma next to Chinese (use ，or 、)": rf"[{CJK}] *,|, *[{CJK}]",
        "a space before % (97%)": r"\d[ \u00a0\u202f]+%",
        "a thousands separator (60000)": r"\d,\d{3}(?!\d)",
        "1e-6 in prose (write $10^{-6}$, or `1e-6` as code)": r"(?<![\w.])\d+(?:\.\d+)?e-\d+\b",
    }
    for rule, pattern in rules.items():
        hay = re.sub(r"\*\*[^*\n]+\*\*", lambda m: "Ｂ" * len(m.group(0)), words) if "italics" in rule else words
        found += [f"{rule}: {words[max(m.start() - 6, 0) : m.end() + 6]!r}" for m in re.finditer(pattern, hay)]
    if markdown and re.search(rf"[{CJK}]", words):  # a list in Chinese text (a table row too) separates with 、
        for line in words.splitlines():
            outside = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", " ", line)  # shapes (B, D_in) and intervals aside
            found += [f"an ASCII list comma in {line.strip()[:50]!r}" for _ in re.finditer(r", ", outside)]
    found += [f"the retired term {term!r} (write {instead})" for term, instead in RETIRED.items() if term in text]
    return sorted(set(found))


def test_the_rules_find_what_they_look_for() -> None:
    """Each rule finds its mistake and passes the way the edition writes it (the rules cannot pass vacuously)."""
    bad = [
        "每个类之后都有一个*公开检查*单元格",
        "它所在小节的_评分要求_段落",
        "线性层, 激活函数",
        "| 部分 | 分数 |\n| `Linear` | forward 8, dX 6 | 25 |",
        "准确率达到 97 %。",
        "在 60,000 张图像上",
        "相对误差不超过 1e-6。",
        "一个小批量",
        "模型的猜测",
        "远离拐点处",
        "logits 相对整数目标",
    ]
    for text in bad:
        assert typography(text), text
    good = (
        "每个类之后都有一个**公开检查**单元格，它所在小节的「评分要求」段落；线性层、激活函数；"
        "| `Linear` | forward 8、dX 6 | 25 |；准确率达到 97%；在 60000 张图像上；相对误差不超过 $10^{-6}$，"
        "`np.clip(p, 1e-7, 1 - 1e-7)`；形状 (B, D_in)；一个 batch 中有 $B$ 个样本；$W_1, b_1$；模型的预测。"
    )
    assert typography(good) == []


def test_the_chinese_texts_pass_autocorrect() -> None:
    """AutoCorrect, the copy-editing lint Chinese documentation projects run (its rules as ``.autocorrectrc`` sets
    them: a space between Chinese and Latin letters or digits, full-width punctuation beside Chinese), finds nothing
    in the Chinese texts maintainers write: the Chinese markdown and each message's Chinese wording."""
    import autocorrect_py

    autocorrect_py.load_config((REPO / ".autocorrectrc").read_text())
    assert autocorrect_py.format("用SGD训练4轮,") == "用 SGD 训练 4 轮，"  # the rules are on
    found = []
    for path in sorted([*REPO.glob("i18n/*.zh.md"), *REPO.glob("docs/**/*.zh.md")]):
        lines = autocorrect_py.lint_for(path.read_text(), path.name).lines
        found += [f"{path.relative_to(REPO)}:{line.line}: {line.old!r} -> {line.new!r}" for line in lines]
    for id, wording in wordings.read_wordings("zh").items():  # AutoCorrect reads no TOML: each wording as text
        found += [f"{id!r}.zh: {line.old!r} -> {line.new!r}" for line in autocorrect_py.lint_for(wording, "text").lines]
    assert not found, "AutoCorrect would change (fix each as its right side says):\n" + "\n".join(found)


def test_every_chinese_wording_uses_the_chapters_terms_and_chinese_punctuation() -> None:
    """Every message's Chinese wording, not only those the notebook's cells show: the feedback's, the kernel's notes,
    the gate's, the class report's (numbers such as 1e-07 in a message are code, not prose math)."""
    found = {}
    for id, wording in wordings.read_wordings("zh").items():
        problems = [p for p in typography(wording, markdown=False) if not p.startswith("1e-6 in prose")]
        if problems:
            found[id] = problems
    assert not found, found


def _markdown(path: str) -> dict[str, str]:
    cells = json.loads((REPO / path).read_text())["cells"]
    return {c["id"]: "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"}


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_the_chinese_notebook_follows_chinese_typography_and_the_chapters_terms(path: str) -> None:
    found = {cell: typography(text) for cell, text in _markdown(path).items()}
    found = {cell: problems for cell, problems in found.items() if problems}
    assert not found, f"{path}: {found}"


def test_comments_and_docstrings_of_the_chinese_edition_use_the_chapters_terms() -> None:
    cells = json.loads((REPO / NOTEBOOKS[0]).read_text())["cells"]
    sources = {c["id"]: "".join(c["source"]) for c in cells if c["cell_type"] == "code"}
    sources |= {name: (REPO / "source" / "mlp_zh" / f"{name}.py").read_text() for name in edition.MODULES}
    found = {
        (where, text.english): problems
        for where, source in sources.items()
        for text in edition.code_texts(source)
        if (problems := typography(text.english, markdown=False))
    }
    for name, functions in edition.CALLED.items():  # the docstrings help() and Shift-Tab show of what cells call
        source = (REPO / "source" / "mlp_zh" / f"{name}.py").read_text()
        texts = edition.called_texts(source, functions)
        found |= {(name, t.english): p for t in texts if (p := typography(t.english, markdown=False))}
    assert not found, found


def _shown_messages() -> list[nn_messages.Message]:
    """The messages the notebook's cells show besides the checks: those the training cell and the loader name."""
    cell = next(c for c in json.loads((REPO / NOTEBOOKS[0]).read_text())["cells"] if c["id"] == "22527ba2")
    names = set(re.findall(r"\bwords\.([A-Z_]+)", "".join(cell["source"])))
    names |= set(re.findall(r"\bsay\.([A-Z_]+)", (REPO / "source" / "mlp" / "mnist_data.py").read_text()))
    found = [getattr(nn_messages, name) for name in sorted(names)]
    return [m if isinstance(m, nn_messages.Message) else nn_messages.CATALOGUE[m.id] for m in found]


def test_the_messages_the_notebook_shows_use_chinese_typography_and_the_chapters_terms() -> None:
    shown = _shown_messages()
    assert len(shown) > 30 and {"training_on", "wrong_digit", "mnist_lacks"} <= {m.id for m in shown}
    found = {m.id: problems for m in shown if (problems := typography(m.template("zh"), markdown=False))}
    assert not found, found


ENGLISH = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {"MLP", "SGD", "MNIST", "BLAS", "ReLU", "Linear", "CrossEntropyLoss", "MnistDataError"}
"""Words a Chinese output may hold: the code's names (classes, the data set) and the error's type."""


def english_words(text: str) -> list[str]:
    """The English words of an output (the font names of the note on a missing Chinese font aside)."""
    text = re.sub("|".join(CJK_FONTS) + r"|\x1b\[[0-9;]*m", " ", text)  # and a traceback's colours
    return [w for w in ENGLISH.findall(text) if w not in ALLOWED]


def _training_cell() -> str:
    cells = json.loads((REPO / NOTEBOOKS[0]).read_text())["cells"]
    return "".join(next(c for c in cells if c["id"] == "22527ba2")["source"])


def _solved_classes() -> dict:
    """The namespace of the solved notebook's set-up and answer cells (the reference ``MLP`` and its parts)."""
    cells = json.loads((REPO / NOTEBOOKS[0]).read_text())["cells"]
    answers = {"setup", "linear", "relu", "cross_entropy", "sgd", "mlp"}
    namespace: dict = {}
    for cell in cells:
        if grade_id(cell) in answers:
            exec(compile("".join(cell["source"]), cell["id"], "exec"), namespace)  # noqa: S102 - the reference
    return namespace


@pytest.fixture
def chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nn_i18n, "LANGUAGE", "zh")


def test_every_output_of_the_training_cell_is_chinese(
    chinese: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The training cell on a small MNIST (50 steps an epoch, so that the progress bar shows the loss; random labels,
    so that wrong predictions are plotted): what it prints, its progress bars and every text of its figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    train, test = 1600, 30
    files = {
        tiny_mnist.TRAIN_IMAGES: tiny_mnist.images_gz(train),
        tiny_mnist.TRAIN_LABELS: tiny_mnist.labels_gz(train),
        tiny_mnist.TEST_IMAGES: tiny_mnist.images_gz(test, seed=1),
        tiny_mnist.TEST_LABELS: tiny_mnist.labels_gz(test),
    }
    monkeypatch.setenv("MNIST_DIR", str(tiny_mnist.write_files(tmp_path / "mnist", files)))
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.delenv("MLP_TRAIN_SUBSET", raising=False)
    namespace = _solved_classes()
    # The module the cell's `from mnist_data import` gets: other tests may have imported another copy under that name.
    loader = importlib.import_module("mnist_data")
    monkeypatch.setitem(loader.EXPECTED_COUNTS, "train", train)
    monkeypatch.setitem(loader.EXPECTED_COUNTS, "test", test)
    public = importlib.import_module("nn_public")
    monkeypatch.setattr(public, "CHECKED", dict.fromkeys(public.PARTS, True))  # every public check passed
    plt.close("all")
    with matplotlib.rc_context():  # the cell may choose a Chinese font: not for the tests after this one
        exec(compile(_training_cell(), "train_mnist", "exec"), namespace)  # noqa: S102
    out, err = capfd.readouterr()
    texts = [t.get_text() for t in plt.gcf().findobj(matplotlib.text.Text) if t.get_text()]
    plt.close("all")
    assert "第 4/4 轮" in err and "损失=" in err and "步/s" in err, err  # the progress bar, with the loss
    assert out.count("平均训练损失") == 4 and "在 1600 张训练图像上训练 4 轮" in out, out
    assert any("应为" in t for t in texts) and "训练损失" in texts, texts
    assert not {c for t in texts for c in t if nn_messages.is_wide(c)} - plot_font.covered()  # the shipped font
    found = {line: english_words(line) for line in [*out.splitlines(), *re.split(r"[\r\n]", err), *texts]}
    assert not {line: words for line, words in found.items() if words}


def test_the_training_cell_says_in_chinese_that_it_is_skipped_while_grading(
    chinese: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    namespace = {"os": os, "np": __import__("numpy")}
    exec(compile(_training_cell(), "train_mnist", "exec"), namespace)  # noqa: S102
    out = capsys.readouterr().out
    assert "评分时不运行这个单元格" in out and not english_words(out.replace("MLP", "")), out


def test_the_training_cell_refuses_in_chinese_while_a_public_check_fails(
    chinese: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed public check stops the training cell at its first step, with one sentence in Chinese naming it."""
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    public = importlib.import_module("nn_public")
    monkeypatch.setattr(public, "CHECKED", {**dict.fromkeys(public.PARTS, True), "ReLU": False})
    with pytest.raises(AssertionError) as refused:
        exec(compile(_training_cell(), "train_mnist", "exec"), {"os": os})  # noqa: S102
    shown = "".join(refused.value._render_traceback_())
    assert "暂不训练" in shown and "ReLU" in shown and not english_words(shown), shown


def test_the_loaders_errors_are_chinese_in_the_notebook_and_english_for_the_grader(
    chinese: None, tmp_path: Path
) -> None:
    """A notebook shows a ``MnistDataError`` in the edition's language (every line of it, nested ones too); its
    ``str()``, which the grader reports, stays English."""
    folder = tiny_mnist.write_files(tmp_path / "some", {tiny_mnist.TRAIN_IMAGES: b"not gzip"})
    (folder / tiny_mnist.TEST_IMAGES.removesuffix(".gz")).write_bytes(b"raw")
    errors = []
    for directory in (tmp_path / "missing", folder):
        with pytest.raises(mnist_data.MnistDataError) as raised:
            mnist_data.load_mnist(directory)
        errors.append(raised.value)
    tiny_mnist.write_files(folder, {tiny_mnist.TRAIN_LABELS: b"x", tiny_mnist.TEST_LABELS: b"x"})
    (folder / tiny_mnist.TEST_IMAGES).write_bytes(b"x")
    with pytest.raises(mnist_data.MnistDataError) as raised:
        mnist_data.load_mnist(folder)
    errors.append(raised.value)
    for error in errors:
        shown = "\n".join(error._render_traceback_())
        python = re.sub(r"Not a gzipped file \(b'.*?'\)", " ", shown)  # Python's own words, in its error
        paths = re.sub(r"/\S+|\b\w+-\w+-\w+-ubyte(?:\.gz)?\b|data_dir|load_mnist|gzip", " ", python)
        assert re.search(rf"[{CJK}]", shown) and not english_words(paths), shown
        assert str(error).startswith("Cannot load MNIST"), str(error)
    assert "找到了未压缩的" in "\n".join(errors[1]._render_traceback_())
    assert "似乎已损坏" in "\n".join(errors[2]._render_traceback_())


@pytest.mark.slow
def test_every_output_of_the_solved_chinese_notebook_run_as_a_student_is_chinese(tmp_path: Path) -> None:
    """The solved ``mlp_zh`` (hidden tests aside) run top to bottom in a kernel, as a student runs it, on MNIST
    (``MNIST_DIR``) with a small training subset: no output of any cell holds English (the figure's texts: above)."""
    import nbclient
    import nbformat

    if not os.environ.get("MNIST_DIR"):
        pytest.skip("needs MNIST_DIR")
    notebook = nbformat.reads((REPO / NOTEBOOKS[0]).read_text(), as_version=4)
    for cell in notebook.cells:
        cell.source = re.sub(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS\n?", "", cell.source, flags=re.S)
        cell.source = re.sub(r"^\s*### (BEGIN|END) SOLUTION\n", "", cell.source, flags=re.M)
    edition = REPO / "source" / "mlp_zh"
    for helper in [*edition.glob("*.py"), *edition.glob("*.json")]:  # the helper modules and the data they read
        (tmp_path / helper.name).write_bytes(helper.read_bytes())
    env = {"MNIST_DIR": str(Path(os.environ["MNIST_DIR"]).resolve()), "MLP_TRAIN_SUBSET": "1600"}
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        nbclient.NotebookClient(notebook, timeout=600, resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
    shown = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", (cell.id, output)
            if output["output_type"] == "stream":
                shown += [(cell.id, line) for line in re.split(r"[\r\n]", output["text"])]
            elif "image/png" not in output.get("data", {}):
                shown += [(cell.id, line) for line in output.get("data", {}).get("text/plain", "").splitlines()]
    assert any("公开检查全部通过" in line for _, line in shown) and any("测试准确率" in line for _, line in shown)
    english = [(cell, line) for cell, line in shown if english_words(line)]
    assert not english, english


def _math(path: str) -> list[tuple[str, str, bool]]:
    """Every formula of a notebook's markdown: (cell id, LaTeX, displayed)."""
    found = []
    for cell, text in _markdown(path).items():
        for m in re.finditer(r"\$\$(.+?)\$\$|\$([^$\n]+)\$", text, re.S):
            found.append((cell, m.group(1) or m.group(2), m.group(1) is not None))
    return found


NOTATION = {
    r"D_\{(in|out)\}": r"D_{\text{in}}, D_{\text{out}} (upright, as the chapter)",
    r",\s*\)": "a shape, not a Python tuple: \\in \\mathbb{R}^{D_{\\text{out}}}",
    r"_\{?n|\\sum_n": "i over samples (the chapter's indices: i samples, k a layer's inputs or the classes, j outputs)",
    r"\\sum_i X_\{ni\}|Y_\{nj\}|W_\{ij\}": "Y_{ij} = \\sum_k X_{ik} W_{kj} + b_j",
    r"dX = G \\odot": "dH = G ⊙ 𝟙(H > 0): ReLU's input is H",
    r"onehot|\\mathrm\{softmax\}\(Z\) -": "G_Z = \\frac{1}{B}(\\hat{Y} - Y)",
    r"\\mathbb\{\d\}": "\\mathbb{I}: issue 30 saw \\mathbb{1} as a plain 1",
}
"""Notation the chapter does not use, and what it writes instead."""


@pytest.mark.parametrize("path", ["source/mlp/mlp.ipynb", NOTEBOOKS[0]])
def test_the_math_of_both_editions_uses_the_chapters_notation(path: str) -> None:
    found = [
        (cell, latex[:60], instead)
        for cell, latex, _ in _math(path)
        for pattern, instead in NOTATION.items()
        if re.search(pattern, latex)
    ]
    assert not found, found
    linear = "".join(latex for cell, latex, _ in _math(path) if cell == "80d19d8d")
    assert r"Y_{ij} = \sum_k X_{ik} W_{kj} + b_j" in linear and r"\sum_i G_{ij}" in linear
    relu_and_loss = "".join(latex for cell, latex, _ in _math(path) if cell in ("0068fd57", "acf2950d"))
    assert r"dH = G \odot \mathbb{I}(H > 0)" in relu_and_loss and r"G_Z = " in relu_and_loss


@pytest.mark.parametrize("path", ["source/mlp/mlp.ipynb", NOTEBOOKS[0]])
def test_every_formula_renders_in_the_feedbacks_mathml(path: str) -> None:
    """The feedback shows math as MathML, which Chromium renders by MathML Core: a ``mathvariant`` other than normal
    is ignored there (``\\mathbf{1}`` showed as a plain 1), so no formula may need one."""
    from autograder.exporters.feedback import latex_to_mathml

    found = {
        (cell, latex[:60]): variants
        for cell, latex, display in _math(path)
        if (variants := set(re.findall(r'mathvariant="(\w+)"', latex_to_mathml(latex, display))) - {"normal"})
    }
    assert not found, found
    assert 'mathvariant="bold"' in latex_to_mathml(r"\mathbf{1}(H > 0)", False)  # what the rule looks for


def test_the_feedbacks_framing_has_no_english_word_in_chinese() -> None:
    """nbgrader's prompts and labels around the cells: ``[5]:`` as JupyterLab shows it (not ``In [5]:``), and the
    instructor's comments under 评语：, with full-width punctuation; the English page as nbgrader writes it."""
    from autograder.exporters.feedback import COMMENTS, in_language

    page = '<div class="prompt input_prompt">In\u00a0[5]:\n</div>' + COMMENTS
    assert in_language(page, "zh") == '<div class="prompt input_prompt">[5]:\n</div><b>评语：</b>'
    assert in_language(page, "en") == page
