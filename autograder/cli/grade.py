"""Grade a whole class in parallel: ``python -m autograder grade [ASSIGNMENT] [--jobs N | --scheduler ADDRESS]
[--force] [--student ID ...]``.

Run it in the course folder, as any user. What it does, in order, is ``autograder.grading.class_run``: every
submission autograded by stock nbgrader in its own process (or as a task on a Dask cluster), a failure of grading
itself retried and otherwise left ungraded with the reason, exit status 1 if any submission was left ungraded and 2
if nobody could be graded. While it runs it shows which submission is at which stage (the kernel, the hidden checks,
the MNIST gate's training) and for how long; each graded submission's feedback is written right after its grade. It
ends by writing the class report (``python -m autograder report``), every graded student linked to that feedback, and
saying what the class's grading came to: scores, the checks lost and the causes named most often, where the report
and feedback are. It refuses to grade, with the ``chmod`` that fixes it, while other users can read the course's
gradebook, submissions, graded notebooks, feedback, logs or reports (``autograder.grading.privacy``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading.class_run import grade_class
from autograder.grading.privacy import CourseExposed, Exposed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", default="mlp")
    parser.add_argument("--notebook", default=None, help="notebook file name (default: ASSIGNMENT.ipynb)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="submissions graded at once (default: the number of cores)",
    )
    parser.add_argument("--force", action="store_true", help="regrade submissions that are graded already")
    parser.add_argument("--student", action="append", help="grade only this student (repeatable)")
    parser.add_argument(
        "--scheduler",
        default=None,
        help="a Dask scheduler's address (tcp://HOST:8786): grade on its "
        "workers, one task per submission (default: c.KitGrading.scheduler, else this machine)",
    )
    args = parser.parse_args(argv)
    try:
        results = grade_class(
            Path.cwd(),
            args.assignment,
            args.notebook or f"{args.assignment}.ipynb",
            max(1, args.jobs),
            args.force,
            args.student,
            scheduler=args.scheduler,
        )
    except (sandbox.SandboxError, GraderFault) as error:
        print(f"Cannot grade, nobody was graded: {error}", file=sys.stderr)
        return 2
    except CourseExposed as refused:
        print(refusal(refused.exposed), file=sys.stderr)
        return 2
    return 0 if all(results.values()) else 1


def refusal(exposed: Exposed) -> str:
    """Why grading is refused while other users can read the course's private state, and the command to run."""
    listed = "".join(f"\n  {path}" for path in exposed.paths)
    return (
        f"Cannot grade, nobody was graded: other users can read the course's private state (students' work, "
        f"grades, feedback):{listed}\nMake it private, then run the same command again:\n  {shlex.join(exposed.fix)}"
    )
