"""The secret that seeds every hidden input. It is in no repository and never copied into ``release/``.

``MLP_GRADER_SECRET`` wins when set. Otherwise the course's secret file is used
(``KitGrading.secret_file``; default ``~/.local/share/dl-notes-kit/secrets/<course id>``):
created with a random secret at the first grading, readable by the instructor
only, outside the course folder. The same secret regrades a submission with
exactly the same inputs. Each student's inputs are drawn from the secret and the student's id (``rng_for``), so
what one student learns of them (an exception's message can carry them out) is no other student's.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from pathlib import Path

import numpy as np

SECRET_ENV = "MLP_GRADER_SECRET"
_course_secret: str | None = None


class NoSecret(RuntimeError):
    """Hidden inputs were asked for before a grading secret was chosen."""


def use_course_secret(path: Path) -> tuple[str, bool]:
    """Read the secret in ``path``, creating it (mode 600) if missing; return (where it is, created now)."""
    global _course_secret
    if os.environ.get(SECRET_ENV):
        return f"${SECRET_ENV}", False
    created = False
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another grading of the same course created it first
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(16) + "\n")
            created = True
    _course_secret = path.read_text().strip()
    if not _course_secret:
        raise NoSecret(f"the grading secret file {path} is empty; delete it to have a new one made")
    return str(path), created


def current() -> str:
    """The secret in use: ``MLP_GRADER_SECRET`` if set, else the course's (``use_course_secret``)."""
    chosen = os.environ.get(SECRET_ENV) or _course_secret
    if not chosen:
        raise NoSecret(
            f"no grading secret: set {SECRET_ENV}, or grade through nbgrader with the kit's settings "
            "(the course's secret file is created at the first grading)"
        )
    return chosen


def rng_for(check: str, student: str = "") -> np.random.Generator:
    """A generator seeded by the secret, the check's name and the student's id (stable across runs).

    No student (``""``) seeds as the kit always did, with the secret and the check alone (the course's inputs)."""
    key = f"{current()}:{check}" if not student else json.dumps([current(), check, student])
    digest = hashlib.sha256(key.encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))
