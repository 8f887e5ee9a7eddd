"""Benchmark: class throughput on one machine (``--jobs``) and on a local Dask cluster of 1 and 2 workers.

Usage (MNIST_DIR must point at the four MNIST .gz files; run as root or where the sandbox works)::

    .venv/bin/python benchmarks/cluster.py [--students 12] [--workers 1 2] [--class-size 100] [--jobs 2]

Every submission is a copy of the reference solution. The class row grades ``--class-size`` copies with
``python -m autograder grade mlp --jobs J --force``. Each cluster row starts a ``distributed.LocalCluster`` of W
worker processes (one thread each) on this machine and grades ``--students`` copies with ``--scheduler`` (the
gradebook is the course's SQLite file, which local workers reach). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from autograder import classroom  # noqa: E402


def course_of(folder: Path, students: int) -> Path:
    course = classroom.new_course(folder)
    solution = (course / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    for k in range(students):
        classroom.submit(course, f"student{k + 1:03d}", solution)
    return course


def grade(course: Path, *args: str) -> float:
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", classroom.ASSIGNMENT, "--force", *args],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stdout[-3000:] + done.stderr[-3000:])
    return seconds


def full_marks(course: Path, n: int) -> str:
    totals = [sum(g.score for g in cells.values()) for cells in classroom.cell_grades(course).values()]
    return "100/100 each" if len(totals) == n and all(t == 100 for t in totals) else f"WARNING: {totals}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=12, help="submissions in each cluster row")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--class-size", type=int, default=100, help="submissions in the --jobs row (0: skip it)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from distributed import LocalCluster

    rows = []
    with tempfile.TemporaryDirectory(prefix="kit-cluster-bench-") as tmp:
        for workers in args.workers:
            course = course_of(Path(tmp) / f"cluster{workers}", args.students)
            with LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
            ) as cluster:
                seconds = grade(course, "--scheduler", cluster.scheduler_address)
            rows.append(
                (
                    f"Dask LocalCluster, {workers} worker(s) x 1 thread, {args.students} submissions",
                    seconds,
                    f"{args.students / seconds * 60:.1f} submissions/minute; {full_marks(course, args.students)}",
                )
            )
            print(rows[-1], file=sys.stderr, flush=True)
        if args.class_size:
            course = course_of(Path(tmp) / "class", args.class_size)
            seconds = grade(course, "--jobs", str(args.jobs))
            rows.append(
                (
                    f"one machine, --jobs {args.jobs}, {args.class_size} submissions",
                    seconds,
                    f"{args.class_size / seconds * 60:.1f} submissions/minute; {full_marks(course, args.class_size)}",
                )
            )
            print(rows[-1], file=sys.stderr, flush=True)
    print(f"\n{os.cpu_count()} cores, load average at the end: {os.getloadavg()}\n")
    print("| measurement | wall time | notes |\n| --- | ---: | --- |")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.0f} s | {note} |")


if __name__ == "__main__":
    main()
