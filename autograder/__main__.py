"""The kit's commands: ``python -m autograder COMMAND [ARGS]`` (``python -m autograder COMMAND --help``)."""

from __future__ import annotations

import importlib
import sys

from autograder.grading.nbgrader_process import defer_iri_checker

COMMANDS = {
    "grade": "grade a class in parallel, or on a Dask cluster (run it in the course folder)",
    "watch": "grade each submission in nbgrader's exchange as it comes and release its feedback (course folder)",
    "report": "write the class report of a graded assignment (HTML, CSV, JSON; run it in the course folder)",
    "demo": "build a demo course, grade three sample students, print their grades",
    "edition": "generate another language's edition of the assignment from the English master",
    "hidden-cells": "write the master notebook's hidden test cells from the registry of checks",
    "public-data": "write the public checks' stored data (source/mlp/nn_public_data.py) from the reference",
    "plot-font": "write the plot labels' font beside the helpers (source/mlp/nn_plot_font.otf), a subset of Noto CJK",
    "points-table": "write the points tables and the hidden cells' translated comments from the registry",
    "regenerate": "bring everything generated up to date (hidden cells, points tables, editions, release, solutions)",
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        lines = "\n".join(f"  {name:<12} {what}" for name, what in COMMANDS.items())
        print(f"usage: python -m autograder COMMAND [ARGS]\n\ncommands:\n{lines}", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    defer_iri_checker()  # the commands import nbgrader, whose start-up this halves
    command = importlib.import_module(f"autograder.cli.{argv[0].replace('-', '_')}")
    sys.argv = [f"python -m autograder {argv[0]}", *argv[1:]]
    return command.main(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
