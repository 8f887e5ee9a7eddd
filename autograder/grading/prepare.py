"""Preparing a grading: what every nbgrader process of a course needs, resolved and validated once, then passed on.

``prepare_grading`` resolves, once per process, the released helper modules, the grading secret, MNIST and the
sandbox, and stops with the reason before any student is graded. ``python -m autograder grade`` prepares first, then
starts nbgrader processes with ``$MNIST_DIR`` set to the folder it validated: each reads MNIST once, for the gate's
judge and its own check alike (``judge.gate.kept_mnist``), and proves the sandbox with its grading kernel, which runs
first (``sandbox.proven``).
"""

from __future__ import annotations

import os
from typing import Any

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading.course_data import resolve_mnist
from autograder.grading.workers import Grading, WorkerBudget
from autograder.helpers import edition_language
from autograder.judge import secret
from autograder.settings import CoursePaths, MiB

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
    mnist = resolve_mnist(kit)
    os.environ["MNIST_DIR"] = str(mnist)  # the judge's accuracy measurement reads the same validated copy
    # a test sandbox, unless this process's grading kernel (which runs first) has started one here
    if kit.sandbox and not sandbox.proven():
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
