"""The class report: ``python -m autograder report [ASSIGNMENT] [--out FOLDER] [--no-similar]``.

Run it in the course folder, like nbgrader, after grading (``python -m autograder grade`` also writes it at its end).
It writes ``report.html`` (one self-contained file: opens offline, no script), ``students.csv``, ``checks.csv``,
``causes.csv``, ``similar.csv`` and ``report.json`` into ``reports/ASSIGNMENT/`` (``autograder.report``): the scores,
each check's pass rate, each named cause with its students, the methods not written yet, the failures no cause
explains yet, the MNIST gate's accuracy and speed, similar submissions as leads for a person, the ungraded
submissions and why, and every student.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from autograder.report.build import write_report
from autograder.report.similarity import SimilaritySettings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", default="mlp")
    parser.add_argument("--out", type=Path, default=None, help="folder to write into (default: reports/ASSIGNMENT)")
    parser.add_argument("--no-similar", action="store_true", help="do not look for similar submissions")
    parser.add_argument(
        "--similar-threshold",
        type=float,
        default=SimilaritySettings.threshold,
        help="share of each one's answer code found in the other's for a pair to be listed (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    html, summary, similarity = write_report(
        Path.cwd(),
        args.assignment,
        args.out,
        similar=not args.no_similar,
        settings=SimilaritySettings(threshold=args.similar_threshold),
    )
    data = summary.data
    print(
        f"{len(data.students)} submission(s), {len(data.graded())} graded, "
        f"{sum(len(groups) for groups in summary.causes.values())} named cause(s), "
        f"{sum(len(groups) for groups in summary.unexplained.values())} kind(s) of unexplained failure, "
        f"{sum(c.not_written for c in summary.checks)} failure(s) of methods not written yet, "
        f"{len(similarity.pairs)} similar pair(s)."
    )
    print(f"Class report: {html} (and CSV, JSON beside it; {time.perf_counter() - start:.1f} s)")
    return 0
