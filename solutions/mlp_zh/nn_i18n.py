"""本版本显示消息所用的语言（``LANGUAGE``）：英文版中是英文，中文版中是中文。

每条消息都按 id 声明一次（``nn_messages``），并在 ``nn_languages`` 的每种语言中各有措辞
（``nn_wordings``；某种语言没有措辞时用英文）；学生在哪里读到它，就用 ``LANGUAGE`` 显示：
笔记本中的 ``CheckFailed``、公开检查通过时的那一行、训练单元格打印和绘制的内容（``say``），
以及 MNIST 加载器的错误信息。其他版本中的这个文件与本文件只有 ``LANGUAGE`` 不同（由工具包生成）。
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from typing import Any

from nn_languages import PLOT_FONT, Language, language
from nn_messages import NO_CHINESE_FONT, Message, Text, render

LANGUAGE = "zh"
"""The language messages are shown in: a code of ``nn_languages.LANGUAGES`` ("en", "zh")."""
# what the notebook uses, and all that help(nn_i18n) lists (the functions' docstrings are the edition's language)
__all__ = ["LANGUAGE", "say", "number", "use_plot_fonts"]


def shown_in() -> Language:
    """This edition's language (``LANGUAGE``): how its messages are worded, listed, wrapped and plotted."""
    return language(LANGUAGE)


def say(words: Message | Text, **fields: Any) -> str:
    """用本版本的语言写出一条消息（连同它的字段）或一个 ``Text``：笔记本单元格输出或画在图上的文字。"""
    return render(words(**fields) if isinstance(words, Message) else words, LANGUAGE)


def number(count: int) -> str:
    """按本版本语言的写法写出一个数：英文每三位数字加一个逗号，中文不加（60000）。"""
    return f"{count:,}".replace(",", shown_in().digit_group)


def use_plot_fonts(plt: Any) -> None:
    """让 matplotlib（``plt``，即它的 pyplot：这些辅助模块只导入 NumPy）画出本版本的图中文字：
    中文版中，拉丁字母用 matplotlib 自带的字体，中文用已安装的第一种中文字体，
    没有时用这些辅助模块旁边的字体（``PLOT_FONT``；也没有时，输出一条说明如何安装字体的提示）。
    英文版不做任何改动。"""
    fonts = shown_in().plot_fonts
    if not fonts:
        return
    manager = plt.matplotlib.font_manager
    installed = {font.name for font in manager.fontManager.ttflist}
    found = [name for name in fonts if name in installed]
    shipped = Path(__file__).with_name(PLOT_FONT)
    if not found and shipped.is_file():
        manager.fontManager.addfont(shipped)
        found = [manager.FontProperties(fname=shipped).get_name()]
    if found:
        plt.rcParams["font.family"] = ["DejaVu Sans", *found]
        # some Chinese fonts have no "normal" weight (WenQuanYi's is 500): matplotlib uses theirs and says so, at length
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    else:
        print(NO_CHINESE_FONT().render(LANGUAGE))
        # said once, in the edition's language: not again per missing glyph, in English, by matplotlib
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
