"""Grading on a Dask cluster: one task per submission, graded by stock nbgrader in its own sandboxes on a worker.

Why Dask (``distributed`` from PyPI): universities already run it on their clusters (SLURM through
dask-jobqueue, Kubernetes, plain SSH), it re-runs the task of a worker that dies, and it has a dashboard; the
kit needs no scheduler of its own.

What travels, so that workers need no shared file system: the task carries the course's ``nbgrader_config.py``,
its ``source/`` and ``release/`` folders of the assignment (small: notebooks and helper modules), the student's
submitted files, the grading secret and the database URL. The worker writes them into a private temporary course,
runs ``nbgrader autograde --student`` there exactly as on one machine (the sandboxed kernel and workers, the kit's
preprocessors), and sends back the exit status, the log and the autograded files, which the command stores in the
course folder (for ``nbgrader generate_feedback``).

The grades are written by the worker's nbgrader into the course's gradebook (``CourseDirectory.db_url``, PostgreSQL
for a cluster): nbgrader's own autograde already writes them, keyed by (assignment, student) and updated in place,
so a submission re-run after a worker died is written again over the same rows, never twice. Copying grades back
through the client would re-implement that write. The nbgrader process dies with the worker (``PR_SET_PDEATHSIG``),
so a dead worker leaves no grading behind that could race with the re-run. It is killed, with its process group, after
``KitGrading.autograde_seconds``, as on one machine (``autograde.run_limited``).

The secret: the client sends the value it resolved (``$MLP_GRADER_SECRET`` or the course's secret file) with each
task, and the worker hands it to its nbgrader process in ``$MLP_GRADER_SECRET``, which no sandbox inherits (they
start with an empty environment). Use ``tls://`` addresses when the cluster's network is not trusted. MNIST: each
worker resolves its own copy, once per worker process, and validates it: its ``$MNIST_DIR`` if set, else the folder
the client uses if the worker has the same path, else the kit's download cache (downloading it if needed).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder.faults import FAULT_RECORD_ENV, Fault, GraderFault
from autograder.grading import nbgrader_process
from autograder.settings import CoursePaths

if TYPE_CHECKING:
    from autograder.grading.autograde import Attempt

LOG_TAIL = 200_000  # characters of the worker's nbgrader log sent back
WORKER_MNIST_ENV = "MNIST_DIR"


@dataclass(frozen=True)
class Task:
    """Everything one submission's grading needs on a worker that shares no file with the course."""

    assignment: str
    student: str
    config: str  # the course's nbgrader_config.py
    course_files: dict[str, bytes]  # source/<assignment>/..., release/<assignment>/... (paths relative to the course)
    submission: dict[str, bytes]  # the files in submitted/<student>/<assignment>/, relative to it
    db_url: str
    course_id: str
    secret: str = field(repr=False)
    mnist_hint: str = ""  # the folder the client uses; used if the worker has it too
    sandbox: bool = True
    autograde_seconds: float = 900.0  # KitGrading.autograde_seconds: nbgrader's process group is killed after it


@dataclass(frozen=True)
class Result:
    fault: Fault | None  # None: graded
    seconds: float
    log: str
    autograded: dict[str, bytes]  # autograded/<student>/<assignment>/..., relative to it
    worker: str = ""


# ---------------------------------------------------------------- on the worker

_worker_lock = threading.Lock()
_worker_mnist: dict[str, str] = {}  # hint -> the validated folder on this worker


def _worker_mnist_dir(task: Task) -> str:
    """This worker's MNIST folder, validated once per worker process by the grader's own loader (raises
    ``GraderFault`` if unusable)."""
    from autograder.course import mnist_data

    with _worker_lock:
        if task.mnist_hint in _worker_mnist:
            return _worker_mnist[task.mnist_hint]
        try:
            if os.environ.get(WORKER_MNIST_ENV):
                data = mnist_data.load_mnist(Path(os.environ[WORKER_MNIST_ENV]).expanduser().resolve())
            elif task.mnist_hint and Path(task.mnist_hint).is_dir():
                data = mnist_data.load_mnist(Path(task.mnist_hint))
            else:
                data = mnist_data.load_mnist(download=True)
        except Exception as error:  # noqa: BLE001 - missing or corrupt data: the grader's fault
            raise GraderFault(f"MNIST cannot be used on worker {os.uname().nodename}: {error}") from None
        _worker_mnist[task.mnist_hint] = str(Path(data.source).resolve())
        return _worker_mnist[task.mnist_hint]


def _write_course(root: Path, task: Task, mnist: str) -> None:
    for relative, data in task.course_files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(data)
    folder = root / "submitted" / task.student / task.assignment
    for relative, data in task.submission.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_bytes(data)
    # The course's own settings, then where things are in this temporary copy of the course.
    (root / "nbgrader_config.py").write_text(
        task.config
        + f"""

# ---- added by autograder.grading.cluster for grading on a Dask worker
c.CourseDirectory.root = {str(root)!r}
c.CourseDirectory.course_id = {task.course_id!r}
c.CourseDirectory.db_url = {task.db_url!r}
c.CourseDirectory.directory_structure = "{{nbgrader_step}}/{{student_id}}/{{assignment_id}}"
for _folder in ("source", "release", "submitted", "autograded"):
    setattr(c.CourseDirectory, _folder + "_directory", _folder)
c.KitGrading.mnist_dir = {mnist!r}
c.KitGrading.secret_file = ""
c.KitGrading.work_dir = ""
c.KitGrading.scheduler = ""
c.KitGrading.sandbox = {task.sandbox!r}
"""
    )


def grade_task(task: Task) -> Result:
    """Run on a Dask worker: grade one submission in a temporary course; the grades go to ``task.db_url``."""
    from autograder.grading.autograde import die_with_parent, outcome, run_limited

    start = time.perf_counter()
    try:
        mnist = _worker_mnist_dir(task)
    except GraderFault as error:
        return Result(Fault("grader", str(error)), time.perf_counter() - start, f"{error}\n", {}, os.uname().nodename)
    with tempfile.TemporaryDirectory(prefix="kit-task-") as folder:
        root = Path(folder) / "course"
        _write_course(root, task, mnist)
        env = {k: v for k, v in os.environ.items() if k != "MLP_GRADER_SECRET"}
        env.update(
            {
                "MLP_GRADER_SECRET": task.secret,
                "MNIST_DIR": mnist,
                "PATH": os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
            }
        )
        log, record = root / "autograde.log", root / "fault.json"
        env[FAULT_RECORD_ENV] = str(record)
        returncode = run_limited(
            [*nbgrader_process.COMMAND, "autograde", task.assignment, "--student", task.student, "--force"],
            root,
            env,
            log,
            task.autograde_seconds,
            preexec_fn=die_with_parent,  # killed when the worker's thread that started it ends
        )
        graded = root / "autograded" / task.student / task.assignment
        files = {str(p.relative_to(graded)): p.read_bytes() for p in sorted(graded.rglob("*")) if p.is_file()}
        text = log.read_text(errors="replace")
        fault = outcome(returncode, record, log, task.autograde_seconds)
    if fault is None and not files:
        fault = Fault("nbgrader", "nbgrader autograde ended without writing the autograded notebook")
    return Result(fault, time.perf_counter() - start, text[-LOG_TAIL:], files, os.uname().nodename)


# ---------------------------------------------------------------- on the instructor's machine


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts
    }


class Dispatcher:
    """Send submissions to a Dask cluster, one task each; store what comes back in the course folder."""

    def __init__(self, address: str, paths: CoursePaths, config: Any, grading: Any, assignment: str) -> None:
        from distributed import Client

        from autograder.judge import secret

        # class_run.require_assignment has made sure the gradebook (its tables made once, here) knows the assignment
        self.paths, self.assignment = paths, assignment
        self.db_url = paths.db_url()
        kit = paths.kit
        course_files: dict[str, bytes] = {}
        for kind, folder in (("source", paths.source(assignment)), ("release", paths.release(assignment))):
            course_files.update({f"{kind}/{assignment}/{name}": data for name, data in _files(folder).items()})
        config_file = paths.root / "nbgrader_config.py"
        self._template = dict(
            assignment=assignment,
            config=config_file.read_text() if config_file.exists() else "c = get_config()\n",
            course_files=course_files,
            db_url=self.db_url,
            course_id=kit.course_id(),
            secret=secret.current(),
            mnist_hint=str(grading.mnist or ""),
            sandbox=grading.isolated,
            autograde_seconds=kit.autograde_seconds,
        )
        self.client = Client(address, timeout="30s")
        self.sqlite = self.db_url.startswith("sqlite")

    def describe(self) -> str:
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        threads = sum(w.get("nthreads", 0) for w in workers.values())
        text = f"{len(workers)} worker(s), {threads} thread(s); dashboard: {self.client.dashboard_link}"
        if self.sqlite:
            text += (
                "\nThe gradebook is SQLite: every worker must reach this file (same machine or shared file "
                "system); for workers on other machines use PostgreSQL (c.CourseDirectory.db_url)"
            )
        return text

    def running(self) -> int:
        """Tasks the workers hold now (running or queued on a worker)."""
        try:
            return sum(len(keys) for keys in self.client.processing().values())
        except Exception:  # noqa: BLE001 - only for the progress line
            return -1

    def autograde(self, student: str) -> Attempt:
        """Grade one submission on the cluster, as ``autograde.autograde_one`` does here."""
        from distributed import KilledWorker

        from autograder.grading.autograde import Attempt, log_path
        from autograder.grading.submissions import mark_graded

        folder = self.paths.submitted(student, self.assignment)
        task = Task(student=student, submission=_files(folder), **self._template)
        log = log_path(self.paths, student)
        start = time.perf_counter()
        future = self.client.submit(grade_task, task, key=f"autograde-{student}-{uuid.uuid4().hex[:8]}", pure=False)
        try:
            result: Result = future.result()
        except KilledWorker as error:
            fault = Fault("cluster", f"the workers running this submission died ({error})")
        except Exception as error:  # noqa: BLE001 - the task itself failed on the worker: the grader's fault
            fault = Fault("cluster", f"the Dask task failed ({type(error).__name__}: {error})")
        else:
            fault = None
        finally:
            future.release()
        if fault is not None:
            log.write_text(f"{fault.detail}\n")  # for the person reading the log
            return Attempt(fault, time.perf_counter() - start, str(log))
        log.write_text(f"(graded on worker {result.worker})\n{result.log}")
        target = self.paths.autograded(student, self.assignment)
        if result.fault is None:
            shutil.rmtree(target, ignore_errors=True)
            for relative, data in result.autograded.items():
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / relative).write_bytes(data)
            mark_graded(self.paths, self.assignment, student)
        return Attempt(result.fault, result.seconds, str(log))

    def close(self) -> None:
        self.client.close()
