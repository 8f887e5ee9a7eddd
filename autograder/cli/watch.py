"""Feedback minutes after a student submits: ``python -m autograder watch [ASSIGNMENT] [--jobs N]``.

Run it in the course folder as the instructor; it runs until stopped (Ctrl-C). Each new submission in nbgrader's
exchange is collected, graded as ``python -m autograder grade ASSIGNMENT --student ID`` grades it, and its feedback
released for ``nbgrader fetch_feedback`` (``autograder.grading.watch``), one status line per event; with
``--scheduler ADDRESS`` (or ``c.KitGrading.scheduler``) on a Dask cluster, as the grade command grades. Its settings are
``c.Watch.*`` in ``nbgrader_config.py`` (what students see before the due date, how often it looks, the rate limit,
the class report's refresh); docs/instructor-guide.md, "Feedback while the class submits". It refuses to start while
another watcher watches the course, or while other users can read the course's private state.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder import sandbox
from autograder.cli.grade import refusal
from autograder.faults import GraderFault
from autograder.grading.course_lock import WatcherRunning
from autograder.grading.privacy import CourseExposed
from autograder.grading.watch import Watcher


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", default="mlp")
    parser.add_argument("--notebook", default=None, help="notebook file name (default: ASSIGNMENT.ipynb)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="submissions graded at once, here or on the cluster (default: 1)"
    )
    parser.add_argument(
        "--scheduler",
        default="",
        help="a Dask scheduler's address (tcp://HOST:8786): grade on its workers, one task per submission "
        "(default: c.KitGrading.scheduler, else this machine)",
    )
    args = parser.parse_args(argv)
    notebook = args.notebook or f"{args.assignment}.ipynb"
    try:
        Watcher(Path.cwd(), args.assignment, notebook, args.jobs, scheduler=args.scheduler).run()
    except KeyboardInterrupt:
        print("Stopped; what was not finished is graded when the watcher starts again.", file=sys.stderr)
        return 0
    except WatcherRunning as running:
        print(f"Cannot watch: {running}", file=sys.stderr)
        return 2
    except CourseExposed as refused:
        print(refusal(refused.exposed), file=sys.stderr)
        return 2
    except (sandbox.SandboxError, GraderFault) as error:
        print(f"Cannot grade, the watcher stopped: {error}. Fix it, then start it again.", file=sys.stderr)
        return 2
    return 0
