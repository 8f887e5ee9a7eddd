"""Preparing a grading: what every nbgrader process of a course needs, resolved and validated once, then passed on.

``prepare_grading`` resolves, once per process, the released helper modules, the grading secret, MNIST and the
sandbox, and stops with the reason before any student is graded. ``python -m autograder grade`` prepares first and
passes what it validated to the nbgrader processes it starts (``prepared_env``), so each of them does not validate
MNIST and start a test sandbox again (``_prepared_by_parent``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading.course_data import resolve_mnist
from autograder.grading.workers import Grading, WorkerBudget
from autograder.helpers import edition_language
from autograder.judge import secret
from autograder.settings import CoursePaths, MiB

PREPARED_ENV = "KIT_GRADING_PREPARED"
"""Set by ``autograder.grading.class_run`` for the nbgrader processes it starts: what it already resolved and validated
(JSON: course root, assignment, MNIST folder, sandbox), so each process does not validate MNIST and start a test
sandbox again."""

_resolved: dict[tuple[str, str], Grading] = {}


def prepare_grading(config: Any, assignment: str, log: Any = None) -> Grading:
    """Resolve, once per process: the helpers, the secret, MNIST, the sandbox. Raises ``GraderFault`` or
    ``sandbox.SandboxError`` with the reason before any student is graded."""
    paths = CoursePaths(config)
    kit = paths.kit
    key = (str(paths.root), assignment)
    if key in _resolved:
        return _resolved[key]
    helpers = paths.release(assignment).resolve()
    if not helpers.is_dir():
        raise GraderFault(f"the release {helpers} is missing: run `nbgrader generate_assignment {assignment}` first")
    where, created = secret.use_course_secret(kit.secret_path())
    if log is not None:
        log.info("Hidden inputs drawn from the grading secret in %s%s", where, " (created now)" if created else "")
    prepared = _prepared_by_parent(str(paths.root), assignment)
    mnist = Path(prepared["mnist"]) if prepared else resolve_mnist(kit)
    os.environ["MNIST_DIR"] = str(mnist)  # the judge's accuracy measurement reads the same validated copy
    # a test sandbox, unless the parent or this process's grading kernel (which runs first) has started one here
    if kit.sandbox and not (prepared and prepared.get("sandbox")) and not sandbox.proven():
        sandbox.check_available()
    _resolved[key] = Grading(
        helpers,
        mnist,
        kit.sandbox,
        kit.scratch(),
        where + (" (created now)" if created else ""),
        kit.worker_limits(),
        kit.worker_attempts,
        kit.worker_start_attempts,
        WorkerBudget(
            kit.worker_checks_cpu_seconds,
            kit.worker_gate_cpu_seconds,
            kit.worker_stall_seconds,
            kit.worker_wall_seconds,
            kit.worker_idle_seconds,
        ),
        kit.worker_disk_mib * MiB,
        edition_language(helpers),
    )
    return _resolved[key]


def prepared_env(root: Path, grading: Grading, assignment: str) -> dict[str, str]:
    """The environment entry telling nbgrader processes started for this course what is validated already."""
    return {
        PREPARED_ENV: json.dumps(
            {
                "root": str(root.resolve()),
                "assignment": assignment,
                "mnist": str(grading.mnist),
                "sandbox": grading.isolated,
            }
        )
    }


def _prepared_by_parent(root: str, assignment: str) -> dict[str, Any] | None:
    """What ``autograder.grading.class_run`` validated for this course and assignment, if it started this process."""
    try:
        prepared = json.loads(os.environ.get(PREPARED_ENV, ""))
    except ValueError:
        return None
    if prepared.get("root") != root or prepared.get("assignment") != assignment or not prepared.get("mnist"):
        return None
    return prepared
