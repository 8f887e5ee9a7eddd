"""``python -m autograder plot-font``: the plot labels' font beside the helpers, ``source/mlp/nn_plot_font.otf``.

A student's machine often has no Chinese font, and matplotlib draws a Chinese label in boxes. The helpers ship this
one (``nn_i18n.use_plot_fonts`` registers it when no font of ``nn_languages.CJK_FONTS`` is installed): Noto Sans CJK
SC, cut down with fontTools to exactly the characters the training cell's plot labels use in every language that
draws them in a CJK font (their wordings, and the digits of their fields), about 10 KB. The source is Debian's
``fonts-noto-cjk`` (``apt-get install fonts-noto-cjk``), under the SIL Open Font License 1.1: the subset, a modified
version, is renamed (the license reserves the original's names; Noto is Google's trademark) and ships with the
license beside it, ``nn_plot_font.OFL.txt``. ``python -m autograder regenerate`` runs it first; it rewrites the font
only when the characters the labels use changed, and only then needs the Debian package.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import string
import sys
from pathlib import Path

from autograder.cell_ids import grade_id
from autograder.cli import wordings
from autograder.course import nn_messages

MASTER = Path(__file__).resolve().parents[2] / "source" / "mlp"
TARGET = MASTER / wordings.languages().PLOT_FONT
LICENSE = TARGET.with_suffix(".OFL.txt")
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_FACE = "Noto Sans CJK SC"
SOURCE_LICENSE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
"""Debian's copyright file of ``fonts-noto-cjk``: its ``License: SIL-1.1`` paragraph is the license shipped."""
FAMILY = "MLP Kit Plot Labels"
"""The subset's name: not the original's (OFL: a modified version does not use the reserved names)."""


class PlotFontError(Exception):
    """The font cannot be written: its source is not installed."""


def plot_labels() -> list[str]:
    """The ids of the messages the training cell draws in its figure: those it names after ``use_plot_fonts(plt)``."""
    cells = json.loads((MASTER / "mlp.ipynb").read_text())["cells"]
    cell = "".join(next(c for c in cells if grade_id(c) == "train_mnist")["source"])
    drawn = cell.split("use_plot_fonts(")[1]
    return [getattr(nn_messages, name).id for name in re.findall(r"\bwords\.([A-Z_]+)", drawn)]


def characters() -> set[str]:
    """Every character the plot labels use in the languages drawing them in a CJK font (as ``i18n/`` words them
    now): their wordings' own characters (fields aside) and the digits their fields hold."""
    found = set(string.digits)
    for code in (code for code, language in wordings.kit_languages().items() if language.plot_fonts):
        templates = wordings.words(code)
        for label in plot_labels():
            found |= {c for literal, *_ in string.Formatter().parse(templates[label]) for c in literal}
    return found


def covered(path: Path = TARGET) -> set[str]:
    """The characters the font at ``path`` has a glyph for (none if it does not exist)."""
    from fontTools.ttLib import TTFont

    return {chr(code) for code in TTFont(path).getBestCmap()} if path.exists() else set()


def subset(source: Path, text: str) -> bytes:
    """The face ``SOURCE_FACE`` of the font collection ``source``, with the glyphs of ``text`` only, renamed."""
    from fontTools import subset as cut
    from fontTools.ttLib import TTCollection

    faces = TTCollection(source, recalcTimestamp=False).fonts
    font = next(face for face in faces if face["name"].getDebugName(1) == SOURCE_FACE)
    names = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, version, license
    options = cut.Options(layout_features=[], hinting=False, desubroutinize=True, name_IDs=names)
    subsetter = cut.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    postscript = FAMILY.replace(" ", "") + "-Regular"
    for record in font["name"].names:
        if record.nameID in (1, 4):
            record.string = FAMILY
        elif record.nameID in (3, 6):
            record.string = postscript
    font["CFF "].cff.fontNames = [postscript]
    font["CFF "].cff[0].FamilyName = font["CFF "].cff[0].FullName = FAMILY
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def license_text(copyright_file: Path, source: Path) -> str:
    """The OFL as Debian ships it with the source font, under a header saying what the subset is."""
    from fontTools.ttLib import TTCollection

    face = next(f for f in TTCollection(source).fonts if f["name"].getDebugName(1) == SOURCE_FACE)
    paragraph = copyright_file.read_text().split("License: SIL-1.1\n", 2)[2].split("\n\n")[0]
    ofl = "\n".join("" if line == " ." else line.removeprefix(" ") for line in paragraph.splitlines())
    name = face["name"].getDebugName
    return (
        f"{TARGET.name} ({FAMILY}) is a subset of {SOURCE_FACE}, {name(5)}.\n{name(0)} Noto is a trademark of "
        "Google Inc.\nRenamed and cut down to the characters of the notebook's plot labels by the kit's `plot-font` "
        f"command.\nLicensed under the SIL Open Font License, Version 1.1:\n\n{ofl}\n"
    )


def write(source: Path = SOURCE, copyright_file: Path = SOURCE_LICENSE) -> bool:
    """Write the font and its license when the characters the labels use changed; whether it wrote them."""
    needed = characters()
    if covered() == needed and LICENSE.exists():
        return False
    if not source.exists() or not copyright_file.exists():
        raise PlotFontError(
            f"{TARGET} and its license must be written for the plot labels' characters {''.join(sorted(needed))!r}, "
            f"from {source} and {copyright_file}: install Debian's fonts-noto-cjk (`apt-get install "
            "fonts-noto-cjk`), or name them with `python -m autograder plot-font --font ... --license ...`"
        )
    TARGET.write_bytes(subset(source, "".join(sorted(needed))))
    LICENSE.write_text(license_text(copyright_file, source))
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder plot-font", description=__doc__)
    parser.add_argument("--font", type=Path, default=SOURCE, help=f"the Noto Sans CJK collection (default {SOURCE})")
    parser.add_argument("--license", type=Path, default=SOURCE_LICENSE, help="Debian's copyright file of the font")
    args = parser.parse_args(argv)
    try:
        changed = write(args.font, args.license)
    except PlotFontError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"{TARGET}: {'written' if changed else 'unchanged'}; now run `python -m autograder regenerate`")
    return 0
