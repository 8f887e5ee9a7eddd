"""Grade a whole class in parallel: ``python -m autograder.grade [ASSIGNMENT] [--jobs N] [--force] [--student ID ...]``.

Run it in the course folder, as root (the sandbox needs it). Each submission is
autograded by its own ``nbgrader autograde --student`` process, N at a time,
each in its own grading slot (sandbox user), all writing the one gradebook.
A submission that cannot be read (invalid notebook JSON, a renamed or missing
notebook) is set aside and replaced by a note plus the released notebook, so
it is graded (0 where it is broken) with the reason in its feedback. A
submission counts as graded once its autograde finished; running the command
again grades only the rest (``--force`` regrades everyone), so an interrupted
run is simply started again.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from autograder import sandbox

STATE = Path(".kit-graded")


def _nbformat():
    import nbformat

    return nbformat


def repair(course: Path, assignment: str, student: str, notebook: str) -> str | None:
    """Make the student's submission gradable; return what was done (for the feedback), or None if nothing was needed."""
    folder = course / "submitted" / student / assignment
    target = folder / notebook
    others = sorted(p for p in folder.glob("*.ipynb") if p.name != notebook)
    if not target.exists() and len(others) == 1:
        others[0].rename(target)
        note = f"Your notebook was named {others[0].name!r}; it was graded as {notebook!r}."
    elif not target.exists():
        note = f"No notebook {notebook!r} was found in your submission; the unmodified release was graded instead (0 points)."
        return _replace_with_release(course, assignment, target, note)
    else:
        note = None
    nbformat = _nbformat()
    try:
        nb = nbformat.read(target, as_version=4)
        nbformat.validate(nb)
    except Exception as error:  # noqa: BLE001 - any unreadable notebook is set aside, whatever the reason
        target.rename(target.with_name(target.name + ".unreadable"))
        reason = f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}"
        return _replace_with_release(course, assignment, target, f"Your notebook could not be read ({reason}); it is kept as "
                                     f"{target.name}.unreadable and the unmodified release was graded instead (0 points).")
    if note:
        _add_note(target, note)
    return note


def _replace_with_release(course: Path, assignment: str, target: Path, note: str) -> str:
    release = course / "release" / assignment / target.name
    target.write_text(release.read_text())
    _add_note(target, note)
    return note


def _add_note(path: Path, note: str) -> None:
    nbformat = _nbformat()
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(f"**Note from the grader.** {note}"))
    nbformat.write(nb, path)


def _fingerprint(course: Path, assignment: str, student: str) -> str:
    digest = hashlib.sha256()
    for path in sorted((course / "submitted" / student / assignment).rglob("*")):
        if path.is_file():
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def _marker(course: Path, assignment: str, student: str) -> Path:
    return course / STATE / assignment / student


def is_graded(course: Path, assignment: str, student: str, notebook: str) -> bool:
    """Graded by an earlier run, and not resubmitted since."""
    marker = _marker(course, assignment, student)
    return (marker.exists() and (course / "autograded" / student / assignment / notebook).exists()
            and marker.read_text() == _fingerprint(course, assignment, student))


class Slots:
    """Grading slots 0..N-1: a job takes one, so concurrent sandboxes run as different users."""

    def __init__(self, count: int) -> None:
        self._free = list(range(count))
        self._lock = threading.Condition()

    def take(self) -> int:
        with self._lock:
            while not self._free:
                self._lock.wait()
            return self._free.pop(0)

    def give(self, slot: int) -> None:
        with self._lock:
            self._free.append(slot)
            self._lock.notify()


def autograde_one(course: Path, assignment: str, student: str, slot: int, force: bool) -> tuple[bool, float, str]:
    """``nbgrader autograde`` of one student in one slot; return (succeeded, seconds, log file)."""
    log = course / STATE / "logs" / f"{student}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "KIT_SANDBOX_SLOT": str(slot), "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    redo = force or (course / "autograded" / student / assignment).exists()  # an interrupted run left a partial result
    start = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", assignment, "--student", student, *(["--force"] if redo else [])],
                              cwd=course, env=env, stdout=out, stderr=subprocess.STDOUT, check=False)
    seconds = time.perf_counter() - start
    ok = done.returncode == 0 and (course / "autograded" / student / assignment).exists()
    if ok:
        marker = _marker(course, assignment, student)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(_fingerprint(course, assignment, student))
    return ok, seconds, str(log)


def grade_class(course: Path, assignment: str, notebook: str, jobs: int, force: bool = False, students: list[str] | None = None,
                out=sys.stdout) -> dict[str, bool]:
    """Autograde every (or every listed) submitted student, ``jobs`` at a time; return student -> graded."""
    sandbox.check_available()
    for slot in range(jobs):
        sandbox.ensure_user(sandbox.slot_user(slot))
    everyone = sorted(p.name for p in (course / "submitted").iterdir() if p.is_dir() and (p / assignment).is_dir())
    chosen = [s for s in everyone if not students or s in students]
    for student in chosen:
        note = repair(course, assignment, student, notebook)
        if note:
            print(f"{student}: {note}", file=out, flush=True)
    todo = [s for s in chosen if force or not is_graded(course, assignment, student=s, notebook=notebook)]
    print(f"Grading {len(todo)} of {len(chosen)} submissions with {jobs} job(s); {len(chosen) - len(todo)} already graded.", file=out, flush=True)
    results: dict[str, bool] = {}
    lock, slots, started = threading.Lock(), Slots(jobs), time.perf_counter()

    def run(student: str) -> None:
        slot = slots.take()
        try:
            ok, seconds, log = autograde_one(course, assignment, student, slot, force)
        finally:
            slots.give(slot)
        with lock:
            results[student] = ok
            status = "graded" if ok else f"FAILED, see {log}"
            print(f"[{len(results)}/{len(todo)}] {student}: {status} ({seconds:.1f} s, {time.perf_counter() - started:.0f} s in all)",
                  file=out, flush=True)

    if todo and not (course / "gradebook.db").exists():
        run(todo.pop(0))  # the first run creates the gradebook; the others then only add to it
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, todo))
    failed = sorted(s for s, ok in results.items() if not ok)
    print(f"Done in {time.perf_counter() - started:.0f} s: {len(results) - len(failed)} graded, {len(failed)} failed"
          + (f" ({', '.join(failed)})" if failed else "") + ".", file=out, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", nargs="?", default="mlp")
    parser.add_argument("--notebook", default=None, help="notebook file name (default: ASSIGNMENT.ipynb)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: the number of cores)")
    parser.add_argument("--force", action="store_true", help="regrade submissions that are graded already")
    parser.add_argument("--student", action="append", help="grade only this student (repeatable)")
    args = parser.parse_args(argv)
    try:
        results = grade_class(Path.cwd(), args.assignment, args.notebook or f"{args.assignment}.ipynb", max(1, args.jobs), args.force, args.student)
    except sandbox.SandboxError as error:
        print(f"Cannot grade: {error}", file=sys.stderr)
        return 2
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
