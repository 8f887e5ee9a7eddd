"""The Chinese plot labels on a machine without a Chinese font: drawn in the font shipped beside the helpers
(``source/mlp/nn_plot_font.otf``, written by ``python -m autograder plot-font``), which has every character they use
(fast tier)."""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib
import pytest

import nn_i18n
from autograder.cli import plot_font

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from nn_languages import CJK_FONTS  # noqa: E402
from nn_messages import CATALOGUE  # noqa: E402


def test_the_shipped_font_has_exactly_the_characters_the_plot_labels_use() -> None:
    """A new or changed label wording cannot draw a box: the font is rewritten for it (by ``regenerate``)."""
    assert {"step_axis", "loss_axis", "digits_title", "wrong_digit"} <= set(plot_font.plot_labels())
    needed, shipped = plot_font.characters(), plot_font.covered()
    assert "损" in needed and shipped == needed, (
        f"{plot_font.TARGET.name} lacks {''.join(sorted(needed - shipped))!r}, has unused "
        f"{''.join(sorted(shipped - needed))!r}: run `python -m autograder plot-font` (needs Debian's fonts-noto-cjk)"
    )
    assert plot_font.TARGET.stat().st_size < 40_000 and "SIL OPEN FONT LICENSE" in plot_font.LICENSE.read_text()


def test_without_a_chinese_font_the_labels_are_drawn_in_the_shipped_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """matplotlib's font list holding its own fonts only (no Chinese one): every plot label, in Chinese, drawn with
    no missing glyph."""
    manager, own = font_manager.fontManager, Path(matplotlib.get_data_path())
    monkeypatch.setattr(manager, "ttflist", [f for f in manager.ttflist if Path(f.fname).is_relative_to(own)])
    assert not {f.name for f in manager.ttflist} & set(CJK_FONTS)
    monkeypatch.setattr(nn_i18n, "LANGUAGE", "zh")
    # the tests' nn_i18n is the grader's copy (conftest): find the font where students have it, beside the helpers
    monkeypatch.setattr(nn_i18n, "__file__", str(plot_font.MASTER / "nn_i18n.py"))
    manager._findfont_cached.cache_clear()
    labels = [CATALOGUE[label] for label in plot_font.plot_labels()]
    with matplotlib.rc_context(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn_i18n.use_plot_fonts(plt)
        assert plot_font.FAMILY in plt.rcParams["font.family"], plt.rcParams["font.family"]
        figure = plt.figure()
        for row, label in enumerate(labels):
            figure.text(0, row / len(labels), nn_i18n.say(label, prediction=7, label=1))
        figure.canvas.draw()
        plt.close(figure)
    manager._findfont_cached.cache_clear()
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing and "没有找到中文字体" not in capsys.readouterr().out, missing
