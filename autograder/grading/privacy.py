"""A course's private state kept from other users: what of it they can read, and the ``chmod`` that stops it.

Private state: the gradebook (a SQLite file), ``submitted/``, ``autograded/``, ``feedback/``, the kit's records and
logs (``KitGrading.graded_dir``) and ``reports/``. Other users (neither the owner nor the file's group: a staff group
may share the course with TAs) can read a path when every folder above it, up to ``/``, lets them through (o+x) and
the path lets them read it (o+r; a folder also o+x, since names inside it, students' login names, can be guessed).
So a 644 gradebook in a 700 course, or in a 755 course inside a 700 home, is private, and so is everything grading
writes there: no umask is needed (one of 077 would also hide the grader's own files from the sandbox, which runs as
another user under root).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from autograder.settings import CoursePaths


@dataclass(frozen=True)
class Exposed:
    """The course's private state other users can read, and the command (argv) that makes it private."""

    paths: tuple[Path, ...]
    fix: tuple[str, ...]


class CourseExposed(Exception):
    """Grading refused: other users can read the course's private state (``exposed``)."""

    def __init__(self, exposed: Exposed) -> None:
        super().__init__(exposed)
        self.exposed = exposed


def private_state(paths: CoursePaths) -> list[Path]:
    """Every path of the course's private state, whether it exists or not."""
    coursedir = paths.coursedir
    steps = (coursedir.submitted_directory, coursedir.autograded_directory, coursedir.feedback_directory)
    found = [_above_students(coursedir.format_path(step, "\0", "\0")) for step in steps]
    found += [paths.graded_dir(), paths.root / "reports"]  # reports: autograder.report.build's default
    url = paths.db_url()
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        found.append(Path(url[len("sqlite:///") :]))
    return found


def _above_students(path: str) -> Path:
    """The folder of a step's tree above the first part naming a student or an assignment (``\\0`` marks them)."""
    return Path(os.path.dirname(path.split("\0")[0])) if "\0" in path else Path(path)


def readable_by_others(path: Path) -> bool:
    """Whether users other than the owner and group can read ``path``: every folder above lets them through, and
    it lets them read (a folder: read or pass through). A missing path is not readable."""
    try:
        real = path.resolve()
        mode = real.stat().st_mode
        if not mode & (stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)):
            return False
        return all(parent.stat().st_mode & stat.S_IXOTH for parent in real.parents)
    except OSError:
        return False


def exposed(paths: CoursePaths) -> Exposed | None:
    """The course's private state other users can read and its fix, or None when it is private.

    The fix closes the course folder to others (``chmod o-rwx ROOT``) for what lies inside it, and each other path
    itself (a gradebook or folder configured outside the course)."""
    found = tuple(sorted({p.resolve() for p in private_state(paths) if readable_by_others(p)}))
    if not found:
        return None
    targets = sorted({paths.root if p.is_relative_to(paths.root) else p for p in found})
    return Exposed(found, ("chmod", "o-rwx", *map(str, targets)))
