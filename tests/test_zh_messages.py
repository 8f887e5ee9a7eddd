"""The Chinese edition's messages read as Chinese a teacher would write, and wrap without breaking what they quote
(fast tier).

Rendered in Chinese: every declared message (its fields Latin, then Chinese), and the failures of every mistake of the
catalogue and every submission of the corpus. None has a space between two Chinese characters, an ASCII ", " beside a
Chinese character, the translated frame 期望…实际得到 (the convention is 应为…，实际为…) or a retired term. Wrapped to
many widths, no line breaks inside a code span, a number or a tuple.
"""

from __future__ import annotations

import json
import random
import re
import string
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import nn_messages as say  # noqa: E402
from nn_messages import CATALOGUE, WORDINGS, Text, render  # noqa: E402

import autograder.messages  # noqa: E402, F401 - declares the grader's and the probe's messages
import grading  # noqa: E402
import nn_public  # noqa: E402, F401
from autograder.judge.common import bounded_text  # noqa: E402
from catalogue.mistakes import MISTAKES  # noqa: E402
from nn_checks import display_width, render_message, wrap  # noqa: E402
from nn_diagnosis import explain_error  # noqa: E402

WIDE = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
"""A Chinese character or full-width punctuation (，。：；（）、)."""
RETIRED = ("小批量", "批量", "目标", "猜测", "拐点", "期望", "实际得到")
"""Terms the chapter does not use (batch, 标签/真实标签, 预测, 不可导点) and the translated frame 期望…实际得到."""


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


def _declared_renderings() -> list[tuple[str, str]]:
    """Every declared message in Chinese, its fields once Latin (code, a number) and once a Chinese text."""
    chinese = say.OTHER_ARRAYS()
    rendered = []
    for message_id, declared in sorted(CATALOGUE.items()):  # every message declared when this module is loaded
        names = _fields(declared.en)
        for value in ("x1", chinese):
            rendered.append((message_id, render(Text(message_id, {name: value for name in names}), "zh")))
    return rendered


def _graded_failures() -> list[tuple[str, str]]:
    """The Chinese failures the grader writes for every mistake of the catalogue and every corpus submission."""
    found: dict[str, str] = {}
    sources = {m.name: grading.catalogue_code(m.edits) for m in MISTAKES} | grading.corpus()
    for name, code in sources.items():
        for check, failure in grading.failures_of(code, name, grading.SECRETS[0]).items():  # as test_edition's
            found.setdefault(failure.render("zh"), f"{name}/{check}")
    return [(where, text) for text, where in found.items()]


IDS = sorted(CATALOGUE)
"""Every message the helpers, the grader and the probe declare (other test modules may declare more later)."""
DECLARED = _declared_renderings()
GRADED = _graded_failures()
RENDERED = DECLARED + GRADED


def test_the_renderings_cover_the_catalogue_and_real_failures() -> None:
    assert len(DECLARED) == 2 * len(IDS) and len(IDS) > 250 and len(GRADED) > 40, (len(DECLARED), len(GRADED))


@pytest.mark.parametrize("message_id", IDS)
def test_every_declared_message_has_a_chinese_wording(message_id: str) -> None:
    assert WORDINGS["zh"].get(message_id, "").strip(), message_id  # its own, not the English it falls back to


def test_no_space_between_two_chinese_characters() -> None:
    found = [(where, text) for where, text in RENDERED if re.search(f"{WIDE} +{WIDE}", text)]
    assert not found, found[:5]


def test_no_ascii_comma_beside_a_chinese_character() -> None:
    found = [(where, text) for where, text in RENDERED if re.search(f"{WIDE} *, |, *{WIDE}", text)]
    assert not found, found[:5]


@pytest.mark.parametrize("term", RETIRED)
def test_no_retired_term_or_translated_frame(term: str) -> None:
    found = [(where, text) for where, text in RENDERED if term in text]
    assert not found, found[:5]


def test_expected_and_got_read_as_one_chinese_sentence() -> None:
    failure = say.EXPECTED_GOT(what="Linear.forward", expected=say.SHAPE(shape=(3, 2)), got=say.SHAPE(shape=(2, 3)))
    whole = WORDINGS["zh"]["expected_got.shape.shape"]  # a whole sentence for this case (issue 44)
    assert failure.render("zh") == whole.format(what="Linear.forward", shape=(3, 2), got_shape=(2, 3))
    number = say.EXPECTED_GOT(what="x", expected="0.5", got=say.OTHER_ARRAYS())
    assert number.render("zh") == "x：应为 0.5，实际为其他数组。"  # a space beside a number, none between 为 and 其
    assert number.render("en") == "x: expected 0.5, got other arrays."


def test_a_list_in_a_chinese_sentence_is_joined_with_the_chinese_separator() -> None:
    lists = [text for where, text in GRADED if where.startswith("mlp_parameters_incomplete/")]
    assert lists and all("W1、b1、W2、b2" in text and "缺少 W2 和 b2：" in text for text in lists), lists
    assert render(say.PARAMETERS_MISS(names=["W2", "b2"]), "en").startswith("parameters() misses W2, b2:")
    both = say.ALL_OF(items=[say.SHAPE(shape=(3, 2)), say.OTHER_ARRAYS(), "W1"])
    assert render(both, "zh") == "形状 (3, 2)、其他数组和 W1" and render(both, "en") == "shape (3, 2), other arrays, W1"
    recorded = Text.from_data(
        json.loads(json.dumps(bounded_text(autograder.messages.GATE_NOT_FINITE(names=both)).to_data()))
    )
    assert render(recorded, "zh") == "训练后含有 NaN 或无穷大的形状 (3, 2)、其他数组和 W1"


def test_sgd_failure_has_one_colon_before_what_was_expected() -> None:
    sgd = [text for where, text in GRADED if where.startswith("sgd_no_lr/")]
    assert sgd and all(text.splitlines()[0].count("：") == 1 for text in sgd), sgd


@pytest.mark.parametrize(
    "operation, explained",
    [
        (lambda: np.ones((1, 4)) @ np.ones((5, 3)), "矩阵乘积 `A @ B` 中，A 的最后一个轴长 4，B 的第一个轴长 5"),
        (lambda: np.ones((4, 3)) + np.ones((2,)), "对形状为 (4, 3) 和 (2,) 的数组做逐元素运算"),
        (lambda: np.dot(np.ones((4, 3)), np.ones((2, 5))), "形状为 (4, 3) 和 (2, 5) 的两个数组做矩阵乘积"),
        (lambda: np.ones(3).__iadd__(np.ones((4, 3))), "要把形状为 (4, 3) 的结果写入形状为 (3,) 的数组"),
    ],
)
def test_a_shape_error_is_explained_in_chinese_with_numpys_words_as_a_detail(operation, explained: str) -> None:
    with pytest.raises(ValueError) as raised:
        operation()
    zh = explain_error("Linear(4, 3)，forward(x)", raised.value).render("zh")
    headline, detail = zh.splitlines()[:2]
    assert explained in headline and not re.search("[a-z]{3,} [a-z]{3,}", headline), zh
    assert detail == f"  NumPy 的原文：{str(raised.value).strip()}", zh


def _unpack() -> None:
    first, second = (1, 2, 3)  # noqa: F841 - Python's own ValueError


@pytest.mark.parametrize("raise_it", [lambda: _unpack(), lambda: (_ for _ in ()).throw(ValueError("boom"))])
def test_another_value_error_is_explained_as_a_value_error_and_keeps_its_own_words(raise_it) -> None:
    """Python's ValueError or the student's own is explained as what it is, never as NumPy's shapes."""
    with pytest.raises(ValueError) as raised:
        raise_it()
    failure = explain_error("Linear.forward", raised.value)
    zh = failure.render("zh")
    headline, words = zh.splitlines()[:2]
    assert headline.startswith("Linear.forward 抛出了 ValueError，值错误：") and "形状" not in headline, zh
    assert words == f"  原文：{raised.value}", zh
    assert failure.cause is None and str(failure).startswith(f"Linear.forward raised ValueError: {raised.value}")


# ---------------------------------------------------------------- wrapping

UNBROKEN = re.compile(
    r"`[^`\n]*`"
    r"|\((?:[^()\s]+(?:, ?[^()\s]+)*,?)?\)"
    r"|[-+−]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:/\d+(?:\.\d+)?)?(?: ?%)?"
    r"|\S"  # any other character, read past one by one (a backtick alone opens no span)
)
"""What a line must never be broken inside: a code span, a tuple or shape, a number (1e-06, 0.8/60311, 97 %)."""


def _random_lines(count: int) -> list[str]:
    rng = random.Random(30)
    words = ["形状", "应为", "实际为", "相对误差不超过", "一个", "batch", "中有", "样本", "，", "。", "：", "（", "）"]
    quoted = ["`p -= self.lr * p.grad`", "(3, 2)", "(2,)", "(D_in, D_out)", "1e-6", "0.8/60311", "97 %", "60000"]
    quoted += ["-4.55065", "`x[x < 0] = 0`", "1.5e+03", "np.maximum(x, 0)", "`"]  # a backtick alone is kept too
    lines = []
    for _ in range(count):
        parts = [rng.choice(words + quoted) for _ in range(rng.randint(5, 40))]
        lines.append("".join(p if rng.random() < 0.5 else f" {p} " for p in parts).strip())
    return lines


MESSAGE_LINES = frozenset(line for _, text in RENDERED for line in text.splitlines() if line.strip())
LINES = sorted(MESSAGE_LINES) + _random_lines(200)


@pytest.mark.parametrize("width", [16, 24, 33, 40, 57, 60, 80, 100])
def test_wrapping_never_breaks_a_unit_nor_starts_a_line_with_closing_punctuation(width: int) -> None:
    for line in LINES:
        indent = " " * (len(line) - len(line.lstrip())) + "  "
        lines = wrap(line, width, indent)
        assert "".join(lines).replace(" ", "") == line.replace(" ", ""), (line, lines)  # nothing lost or added
        for unit in UNBROKEN.findall(line):
            if len(unit) > 1 and display_width(unit) <= width - len(indent):
                assert any(unit in wrapped for wrapped in lines), (unit, width, lines)
        too_wide = [w for w in lines if display_width(w.rstrip(HANGING)) > width and not _one_piece(w.strip())]
        assert not too_wide, (width, too_wide)
        if line in MESSAGE_LINES:  # the checks' own words: a closing mark never starts a line
            assert not any(w.lstrip()[:1] in "，。、：；）" for w in lines[1:]), (width, line, lines)


HANGING = "，。、：；！？）”’》」』】〕)]}.,:;!?%"
"""Punctuation that may hang past the width rather than start a line."""


def _one_piece(text: str) -> bool:
    """A line that is a single piece no break may split (wider than the width itself)."""
    return " " not in text and not re.search(WIDE, text)


def test_wrapping_counts_a_chinese_character_as_two_columns() -> None:
    line = "应为" * 15
    lines = wrap(line, 40)
    assert [display_width(w) for w in lines] == [40, 20], lines
    assert display_width("应为 (3, 2)") == 11


def test_every_wrapped_line_of_the_headline_is_red() -> None:
    message = "Linear.forward：应为" + "形状 (3, 2)，" * 12 + "\n  可能的原因：短的一句。"
    lines = render_message(message, width=40)
    headline = [line for line in lines if line.startswith("\x1b[1;31m")]
    assert len(headline) > 1 and all(line.endswith("\x1b[0m") for line in headline), lines
    assert lines[len(headline)] == "  可能的原因：短的一句。", lines


# ---------------------------------------------------------------- whole sentences per case (issue 44)


def _cases() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every whole sentence declared for a frame's case: (its id, the frame's id, the values that choose it)."""
    found = []
    for frame in say.CASES:
        for message_id in CATALOGUE:
            if message_id.startswith(frame + ".") and message_id not in say.CASES:
                chosen = message_id[len(frame) + 1 :]
                parts = [p for p in CATALOGUE if chosen.startswith(p + ".") or chosen == p]
                first = max(parts, key=len, default=chosen)  # a Text's id holds dots itself (gate.too_far)
                rest = chosen[len(first) + 1 :]
                found.append((message_id, frame, (first, rest) if rest else (first,)))
    return found


def test_every_case_is_the_frame_filled_in_english() -> None:
    """A case's English is its frame's, filled with the texts that choose it (the second's fields as ``got_*``): in
    English a case says exactly what the frame says, and the wording of a case translates that."""
    cases = _cases()
    assert len(cases) > 30 and {"expected_got.only_finite.nan_entries", "raised_at.IndexError"} <= {c[0] for c in cases}
    for message_id, frame, chosen in cases:
        keys = say.CASES[frame]
        filled = CATALOGUE[frame].en
        for number, (key, value) in enumerate(zip(keys, chosen, strict=False)):
            if value not in CATALOGUE:  # a raw value, such as an exception's name: the frame keeps its field
                continue
            en = CATALOGUE[value].en
            if number:
                en = re.sub(r"\{(\w+)\}", lambda m, key=key: "{" + f"{key}_{m[1]}" + "}", en)
            filled = filled.replace("{" + key + "}", en)
        assert CATALOGUE[message_id].en == filled, message_id


def test_a_case_is_worded_whole_in_chinese_and_filled_in_english() -> None:
    failure = say.EXPECTED_GOT(
        what="Linear.forward", expected=say.ONLY_FINITE(), got=say.NAN_ENTRIES(count=3, index=(0, 1))
    )
    assert (
        render(failure, "en")
        == "Linear.forward: expected only finite numbers, got 3 NaN/inf entries (first at index (0, 1))."
    )
    words = WORDINGS["zh"]["expected_got.only_finite.nan_entries"].replace("{got_count}", "3")
    assert render(failure, "zh") == words.replace("{what}", "Linear.forward").replace("{got_index}", "(0, 1)")


@pytest.mark.parametrize("code", ["np.ones(3)[0, 1]", "{}['x']", "None + 1", "np.ones(3).foo", "undefined_name"])
def test_pythons_common_exceptions_are_explained_in_chinese_beside_their_own_words(code: str) -> None:
    try:
        exec(code, {"np": np})  # noqa: S102 - fixed test snippets
    except Exception as error:  # noqa: BLE001 - the error is what is examined
        raised = error
    zh = explain_error("Linear.forward", raised).render("zh")
    assert f"raised.{type(raised).__name__}" in WORDINGS["zh"], type(raised).__name__
    assert str(raised).strip("'") in zh and re.search(WIDE, zh.splitlines()[0]), zh
