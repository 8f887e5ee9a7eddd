"""Trusted side: the kit's settings, configured the nbgrader way (``c.KitGrading.<trait>`` in ``nbgrader_config.py``).

A course's ``nbgrader_config.py`` loads the kit with ``autograder.settings.apply(c)`` (preprocessors, sandboxed
kernel) and may then change any trait of ``KitGrading``: where the data and the secret are, the sandbox, and every
limit the kit sets. Every folder of the course is nbgrader's ``CourseDirectory`` (``CoursePaths`` reads it).
Paths that are not absolute are relative to the course directory (``CourseDirectory.root``), never to whatever
folder a sandbox runs in. Print every trait with its help:
``python -c "from autograder.settings import KitGrading; print(KitGrading.class_get_help())"``.

May import: nbgrader (and its SQLAlchemy, nbconvert), traitlets, ``autograder.sandbox`` (its ``Limits``) and
``autograder.verdict`` (its media type), nothing else of the kit.
"""

from __future__ import annotations

import glob
import hashlib
import re
import warnings
from pathlib import Path

import nbgrader
from nbgrader.coursedir import CourseDirectory
from traitlets import Bool, Integer, Unicode
from traitlets.config import Config, LoggingConfigurable

from autograder.sandbox import Limits
from autograder.verdict import MIME

MiB = 1 << 20
TEMPLATES = Path(__file__).parent / "exporters" / "templates"
"""The kit's nbconvert templates: nbconvert's MathJax macro, loading MathJax from the Jupyter server."""
NBGRADER_TEMPLATES = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates"
"""nbgrader's templates of formgrader's page and of its feedback (``formgrade``, ``feedback``)."""


class KitGrading(LoggingConfigurable):
    """Where the data and the secret are, the sandbox, and the limits of everything that runs student code."""

    mnist_dir = Unicode(
        "",
        help="Folder holding the four MNIST .gz files, absolute or relative to the course "
        "directory. Empty: $MNIST_DIR if set (relative to the folder the command runs in), "
        "else the download cache ($MNIST_CACHE_DIR or ~/.cache/dl-notes/mnist).",
    ).tag(config=True)
    download_mnist = Bool(
        True, help="Download MNIST into the cache (SHA-256 checked) when no folder is set and the cache is empty."
    ).tag(config=True)
    secret_file = Unicode(
        "",
        help="File holding the grading secret that seeds every hidden input. Empty: "
        "~/.local/share/dl-notes-kit/secrets/<course id>, created (mode 600) at the first "
        "grading. $MLP_GRADER_SECRET, if set, is used instead.",
    ).tag(config=True)
    sandbox = Bool(
        True,
        help="Run student code in bubblewrap. False grades without a sandbox (student code then "
        "runs as you, with your files in reach): only where no sandbox can start and you trust "
        "the submissions; every graded notebook then says so.",
    ).tag(config=True)
    work_dir = Unicode(
        "", help="Folder for the kernels' and workers' scratch files (empty: the system's temporary folder)."
    ).tag(config=True)
    scheduler = Unicode(
        "",
        help="Address of a Dask scheduler (tcp://HOST:8786) that `python -m autograder grade` "
        "sends every submission to, one task each; `--scheduler` overrides it. Empty: grade "
        "on this machine. The workers need the kit installed and must reach "
        "CourseDirectory.db_url (PostgreSQL for workers on other machines).",
    ).tag(config=True)
    graded_dir = Unicode(
        ".kit-graded",
        help="Folder, relative to the course directory, where `python -m autograder "
        "grade` records which submissions it graded (so a rerun grades only "
        "the rest) and keeps each one's log.",
    ).tag(config=True)

    # Limits. A sandbox's limits stop runaway student code; none is reached by a correct submission.
    kernel_cpu_seconds = Integer(
        1800,
        help="CPU seconds the notebook's grading kernel may use in all (its own "
        "cells; the hidden checks run in workers).",
    ).tag(config=True)
    kernel_memory_mib = Integer(
        2048,
        help="Memory (address space, MiB) of the grading kernel, one process: all it holds but its sized tmpfs "
        "folders. A cell that asks for more gets a MemoryError; the reference's notebook needs under 1024.",
    ).tag(config=True)
    kernel_processes = Integer(
        64,
        help="Threads the grading kernel's sandbox may hold at once (it is one process: starting another is "
        "refused); the reference solution's kernel holds 13 (measured).",
    ).tag(config=True)
    kernel_file_mib = Integer(256, help="Largest file (MiB) the grading kernel may write.").tag(config=True)
    kernel_disk_mib = Integer(
        512,
        help="MiB the grading kernel may write in all to its working folder (a copy of the submission's "
        "folder), held in memory inside its sandbox: nothing it writes reaches the disk. Its /tmp and "
        "/dev/shm hold 512 MiB each more.",
    ).tag(config=True)
    kernel_cell_output_chars = Integer(
        100_000,
        help="Characters of output kept from one cell while the grading kernel runs it (all its outputs "
        "together): the rest is dropped as it arrives, after a note, so a cell that prints gigabytes costs "
        "the grader no memory. max_output_chars then cuts each output kept.",
    ).tag(config=True)
    kernel_output_chars = Integer(
        1_000_000,
        help="Characters of output kept from the whole notebook while the grading kernel runs it; later "
        "output is dropped as it arrives, after a note.",
    ).tag(config=True)
    kernel_total_seconds = Integer(
        150,
        help="Wall-clock seconds the grading kernel may spend on the whole notebook. Each cell runs for at "
        "most Execute.timeout seconds and at most what is left of this; a cell past its time is "
        "interrupted. Once it is spent, the remaining code cells are not run, and their output says "
        "which cells used the time.",
    ).tag(config=True)
    worker_checks_cpu_seconds = Integer(
        120,
        help="CPU seconds the worker of a group of small checks may use, its threads together (a correct "
        "solution needs about 3); measured from outside the sandbox, so student code cannot dodge it. "
        "Reaching it costs the check that was running.",
    ).tag(config=True)
    worker_gate_cpu_seconds = Integer(
        1800,
        help="Backstop: CPU seconds the MNIST gate's worker may use, its threads together. Its speed rule "
        "stops a too-slow worker first (its limit times the CPU of the grader's own training of the same "
        "steps, measured beside it: about 350 s on a 2026 server core; the reference solution needs about 6, "
        "float64 with einsum about 80); a worker that reaches this within the rule is left ungraded (the "
        "grader's fault), never charged to the student.",
    ).tag(config=True)
    worker_stall_seconds = Integer(
        20,
        help="A worker that uses less than half a CPU second in this many seconds is waiting for something "
        "that never comes (a sleep, input): it is stopped, whatever the machine's load, and the check it was "
        "running costs the student once the course's own solution passed it in the same setting.",
    ).tag(config=True)
    worker_wall_seconds = Integer(
        900,
        help="Backstop: a worker still computing after this many seconds, not counting the time the machine kept "
        "work waiting for a CPU (the kernel's pressure figures), means the grader cannot keep up; the submission "
        "is left ungraded (the grader's fault), never charged to the student.",
    ).tag(config=True)
    worker_idle_seconds = Integer(
        120,
        help="A worker still running after this many seconds that spent less than three quarters of them "
        "computing (it sleeps, computing a little now and then) is stopped, and the check it was running "
        "costs the student once the course's own solution passed that check in the same setting. The time the "
        "machine kept work waiting for a CPU (the kernel's pressure figures, which the worker can raise only by "
        "spending its own CPU) counts as computing. A correct solution's workers compute all the time and finish "
        "in seconds.",
    ).tag(config=True)
    worker_disk_mib = Integer(
        256,
        help="Size (MiB) of a worker's working folder, a tmpfs inside its sandbox (in memory): nothing a "
        "worker writes reaches the host's disk.",
    ).tag(config=True)
    worker_memory_mib = Integer(
        2048,
        help="Memory (address space, MiB) of one sandboxed worker, one process: all it holds but its sized tmpfs "
        "folders. Code that asks for more loses its check (MemoryError); the reference's gate needs under 1024.",
    ).tag(config=True)
    worker_processes = Integer(
        16,
        help="Threads one sandboxed worker may hold at once (it is one process: starting another is refused); a "
        "correct solution's worker holds 2 inside its sandbox (measured).",
    ).tag(config=True)
    worker_file_mib = Integer(64, help="Largest file (MiB) a sandboxed worker may write.").tag(config=True)
    worker_attempts = Integer(
        2,
        help="A worker that ends while running a check costs the student that check "
        "only if it happens this many times, each in a fresh worker.",
    ).tag(config=True)
    worker_start_attempts = Integer(
        3,
        help="Tries to start a sandboxed worker before grading stops as the "
        "grader's fault (the submission gets no grade).",
    ).tag(config=True)
    grade_attempts = Integer(
        2,
        help="Tries of one submission's `nbgrader autograde` by `python -m autograder "
        "grade` before it is left ungraded (no grade written) and reported.",
    ).tag(config=True)
    autograde_seconds = Integer(
        900,
        help="Wall seconds one submission's `nbgrader autograde` may take under `python -m autograder grade` "
        "(on a cluster too) before its whole process group is killed. A backstop: the kernel's time, each "
        "worker's CPU budget, stall and idle rules and the gate's speed rule stop student code first (a correct "
        "solution takes seconds), so a hung grader or an overloaded machine reaches it, or code that runs every "
        "check to its worker's budget; that submission is left ungraded, for a person to look at, not retried.",
    ).tag(config=True)
    max_output_chars = Integer(
        20_000,
        help="Longest text kept from one output of a graded notebook (nbgrader's "
        "LimitOutput counts lines, and one line can be 20 MB).",
    ).tag(config=True)

    def course_root(self) -> Path:
        return Path(CourseDirectory(config=self.config).root).resolve()

    def course_id(self) -> str:
        """The course's id, or a name made from its folder when none is set."""
        coursedir = CourseDirectory(config=self.config)
        if coursedir.course_id:
            return coursedir.course_id
        root = self.course_root()
        return f"{root.name}-{hashlib.sha256(str(root).encode()).hexdigest()[:8]}"

    def secret_path(self) -> Path:
        if self.secret_file:
            return (self.course_root() / Path(self.secret_file).expanduser()).resolve()
        return Path("~/.local/share/dl-notes-kit/secrets").expanduser() / self.course_id()

    def scratch(self) -> str | None:
        return str((self.course_root() / self.work_dir).resolve()) if self.work_dir else None

    def kernel_limits(self) -> Limits:
        return Limits(
            cpu_seconds=self.kernel_cpu_seconds,
            memory_bytes=self.kernel_memory_mib * MiB,
            processes=self.kernel_processes,
            file_bytes=self.kernel_file_mib * MiB,
        )

    def worker_limits(self) -> Limits:
        # RLIMIT_CPU is the kernel's backstop behind the workers' watch, which says whose fault a stop is: kept above
        # both budgets the watch enforces, so that it never ends a worker the watch would have let finish.
        return Limits(
            cpu_seconds=2 * max(self.worker_checks_cpu_seconds, self.worker_gate_cpu_seconds),
            memory_bytes=self.worker_memory_mib * MiB,
            processes=self.worker_processes,
            file_bytes=self.worker_file_mib * MiB,
        )


class CoursePaths:
    """A course's folders as nbgrader lays them out: every path through ``CourseDirectory`` (root, the
    ``*_directory`` traits, ``directory_structure``), none spelled out by the kit."""

    def __init__(self, config: Config) -> None:
        self.coursedir = CourseDirectory(config=config)
        self.kit = KitGrading(config=config)
        self.root = Path(self.coursedir.root).resolve()

    def _path(self, step: str, student: str, assignment: str) -> Path:
        return Path(self.coursedir.format_path(getattr(self.coursedir, f"{step}_directory"), student, assignment))

    def source(self, assignment: str) -> Path:
        return self._path("source", ".", assignment)

    def release(self, assignment: str) -> Path:
        return self._path("release", ".", assignment)

    def submitted(self, student: str, assignment: str) -> Path:
        return self._path("submitted", student, assignment)

    def autograded(self, student: str, assignment: str) -> Path:
        return self._path("autograded", student, assignment)

    def feedback(self, student: str, assignment: str) -> Path:
        return self._path("feedback", student, assignment)

    def submitted_students(self, assignment: str) -> list[str]:
        """Every student with a submission of ``assignment``, sorted."""
        pattern = re.compile(
            self.coursedir.format_path(
                self.coursedir.submitted_directory, "(?P<student_id>[^/]+)", re.escape(assignment), escape=True
            )
            + "$"
        )
        found = {
            m.group("student_id")
            for path in glob.glob(str(self.submitted("*", assignment)))
            if Path(path).is_dir() and (m := pattern.match(path))
        }
        return sorted(found)

    def db_url(self) -> str:
        """The gradebook's URL, a SQLite path made absolute (nbgrader reads a relative one from where it runs)."""
        url, prefix = self.coursedir.db_url, "sqlite:///"
        if url.startswith(prefix) and not url[len(prefix) :].startswith("/") and url[len(prefix) :] != ":memory:":
            return prefix + str((self.root / url[len(prefix) :]).resolve())
        return url

    def graded_dir(self) -> Path:
        """Where ``python -m autograder grade`` keeps its records and logs (``KitGrading.graded_dir``)."""
        return self.root / self.kit.graded_dir


def quiet_gradebook_warnings() -> None:
    """Silence one harmless SQLAlchemy warning nbgrader's gradebook code raises three times per autograde ("Object
    of type <SubmittedAssignment> not in session, add operation along 'Assignment.submissions' will not proceed"):
    nbgrader adds those objects to the session itself just after; in a TA's log it reads like a broken gradebook.
    Only this message, and only from nbgrader, is silenced."""
    from sqlalchemy.exc import SAWarning  # nbgrader's own dependency

    warnings.filterwarnings(
        "ignore", message=r"Object of type <Submitted\w+> not in session", category=SAWarning, module=r"nbgrader\."
    )


def apply(c: Config) -> None:
    """The kit's nbgrader settings: a course's ``nbgrader_config.py`` calls this, then changes what it needs."""
    c.Execute.timeout = 120  # only a cell that hangs reaches it; hidden checks are decided outside the kernel
    c.SandboxedExecute.timeout = 120
    # The sandbox gives the kernel no JPY_PARENT_PID (a PID outside its PID namespace would be the wrong process), so
    # ipykernel took itself for `ipython kernel` and printed "Ctrl-C will not work" to the grading log. 1 says "my
    # parent is init": nothing to poll (the sandbox dies with nbgrader), and no note.
    c.SandboxedExecute.extra_arguments = ["--IPKernelApp.parent_handle=1"]
    quiet_gradebook_warnings()
    c.Autograde.create_student = True
    # Test cells a student deleted are put back; a cell whose grade_id was changed is first made a plain cell.
    c.OverwriteCells.add_missing_cells = True
    c.Autograde.sanitize_preprocessors = [
        "autograder.preprocessors.sanitize.RefuseLinks",  # before anything else reads the copy nbgrader made
        "nbgrader.preprocessors.ClearOutput",
        "nbgrader.preprocessors.DeduplicateIds",
        "nbgrader.preprocessors.OverwriteKernelspec",
        "autograder.preprocessors.sanitize.ForgetUnknownCells",
        # OverwriteCells, warning only of locked cells the student edited, not of hidden tests the release stripped
        "autograder.preprocessors.locked_cells.OverwriteLockedCells",
        "nbgrader.preprocessors.CheckCellMetadata",
    ]
    # The kernel runs sandboxed and sees no grader code; every hidden check is decided outside it, in sandboxed
    # workers, before SaveAutoGrades turns outputs into points.
    c.Autograde.autograde_preprocessors = [
        "autograder.preprocessors.kernel.SandboxedExecute",
        "autograder.preprocessors.sanitize.DropForgedVerdicts",  # before the grader writes its own verdicts
        "nbgrader.preprocessors.IgnorePattern",
        "nbconvert.preprocessors.ClearMetadataPreprocessor",
        "nbgrader.preprocessors.LimitOutput",
        "autograder.preprocessors.verify.VerifyOutsideKernel",
        "autograder.preprocessors.sanitize.LimitOutputSize",  # after the verdicts: their text is cut like any output
        "nbgrader.preprocessors.SaveAutoGrades",
        "nbgrader.preprocessors.AssignLatePenalties",
        "autograder.preprocessors.inert.MakeInert",  # after the grades: formgrader shows this notebook, unsanitized
        "nbgrader.preprocessors.CheckCellMetadata",
    ]
    # The solution notebook is the release with its answers: its hidden tests stripped as the release's are, so it
    # runs on its own, beside its helpers, where the kit is not installed; not executed (outputs would hold timings
    # and machine paths): the kit's tests prove it right by autograding it.
    c.GenerateSolution.preprocessors = [
        "nbgrader.preprocessors.IncludeHeaderFooter",
        "nbgrader.preprocessors.LockCells",
        "nbgrader.preprocessors.ClearOutput",
        "nbgrader.preprocessors.ClearHiddenTests",
        "nbgrader.preprocessors.ClearMarkScheme",
    ]
    # Feedback HTML that reads well offline: formulas as MathML (no MathJax from a CDN), failed checks first, in
    # the edition's language (autograder/exporters/feedback.py).
    c.GenerateFeedback.exporter_class = "autograder.exporters.feedback.FeedbackExporter"
    # Late work loses points per started hour or day after the due date; none until the course sets one
    # (c.LatePenalty.points_per_day = 10: autograder/plugins/late.py).
    c.AssignLatePenalties.plugin_class = "autograder.plugins.late.LatePenalty"
    # Formgrader's pages offline: MathJax 2 (formgrader's script needs it) from jupyter-server-mathjax, which the
    # instructor's Jupyter server serves, instead of a CDN: nbconvert's MathJax macro, with that as its default URL
    # (autograder/exporters/templates/base/mathjax.html.j2), found before nbconvert's; formgrader's and nbgrader's
    # feedback templates after it, as nbgrader sets them.
    c.HTMLExporter.extra_template_basedirs = [str(TEMPLATES), str(NBGRADER_TEMPLATES)]
    # The verdict is data, shown by no renderer: named to nbconvert's HTML exporter (formgrader's), it is skipped
    # quietly instead of warned of ("Your element with mimetype(s) ... is not able to be represented").
    # Read from the exporter's class, not an exporter built here: building one needs nbconvert's templates on
    # Jupyter's data path, which a course's Python may not have (every nbgrader command of that course then failed).
    from nbconvert.exporters import HTMLExporter  # nbgrader's own dependency

    shown = HTMLExporter.default_config.fget(HTMLExporter.__new__(HTMLExporter)).NbConvertBase.display_data_priority
    c.WidgetsDataTypeFilter.display_data_priority = [*shown, MIME]


def load_course_config(course: Path) -> Config:
    """The configuration ``nbgrader`` itself would read in ``course``: its ``nbgrader_config.py``."""
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    if (course / "nbgrader_config.py").exists():
        config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course.resolve())
    return config
