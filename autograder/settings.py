"""The kit's grading settings, configured the nbgrader way: ``c.KitGrading.<trait>`` in ``nbgrader_config.py``.

A course's ``nbgrader_config.py`` loads the kit with ``autograder.settings.apply(c)``
(preprocessors, sandboxed kernel) and may then change any trait below. Paths
that are not absolute are relative to the course directory
(``CourseDirectory.root``), never to whatever folder a sandbox runs in.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from nbgrader.coursedir import CourseDirectory
from traitlets import Bool, Unicode
from traitlets.config import Config, LoggingConfigurable


class KitGrading(LoggingConfigurable):
    """Where the data and the secret are, and whether grading may run without a sandbox."""

    mnist_dir = Unicode("", help="Folder holding the four MNIST .gz files, absolute or relative to the course "
                                 "directory. Empty: $MNIST_DIR if set (relative to the folder the command runs in), "
                                 "else the download cache ($MNIST_CACHE_DIR or ~/.cache/dl-notes/mnist).").tag(config=True)
    download_mnist = Bool(True, help="Download MNIST into the cache (SHA-256 checked) when no folder is set and the "
                                     "cache is empty.").tag(config=True)
    secret_file = Unicode("", help="File holding the grading secret that seeds every hidden input. Empty: "
                                   "~/.local/share/dl-notes-kit/secrets/<course id>, created (mode 600) at the first "
                                   "grading. $MLP_GRADER_SECRET, if set, is used instead.").tag(config=True)
    sandbox = Bool(True, help="Run student code in bubblewrap. False grades without a sandbox (student code then "
                              "runs as you, with your files in reach): only where no sandbox can start and you trust "
                              "the submissions; every graded notebook then says so.").tag(config=True)
    work_dir = Unicode("", help="Folder for the kernels' and workers' scratch files (empty: the system's temporary "
                               "folder).").tag(config=True)
    scheduler = Unicode("", help="Address of a Dask scheduler (tcp://HOST:8786) that `python -m autograder grade` "
                                 "sends every submission to, one task each; `--scheduler` overrides it. Empty: grade "
                                 "on this machine. The workers need the kit installed and must reach "
                                 "CourseDirectory.db_url (PostgreSQL for workers on other machines).").tag(config=True)

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


def apply(c: Config) -> None:
    """The kit's nbgrader settings: a course's ``nbgrader_config.py`` calls this, then changes what it needs."""
    c.Execute.timeout = 120  # only a cell that hangs reaches it; hidden checks are decided outside the kernel
    c.SandboxedExecute.timeout = 120
    c.Autograde.create_student = True
    # Test cells a student deleted are put back; a cell whose grade_id was changed is first made a plain cell.
    c.OverwriteCells.add_missing_cells = True
    c.Autograde.sanitize_preprocessors = [
        "nbgrader.preprocessors.ClearOutput",
        "nbgrader.preprocessors.DeduplicateIds",
        "nbgrader.preprocessors.OverwriteKernelspec",
        "autograder.plugins.sanitize.ForgetUnknownCells",
        "nbgrader.preprocessors.OverwriteCells",
        "nbgrader.preprocessors.CheckCellMetadata",
    ]
    # The kernel runs sandboxed and sees no grader code; every hidden check is decided outside it, in sandboxed
    # workers, before SaveAutoGrades turns outputs into points.
    c.Autograde.autograde_preprocessors = [
        "autograder.plugins.kernel.SandboxedExecute",
        "nbgrader.preprocessors.IgnorePattern",
        "nbconvert.preprocessors.ClearMetadataPreprocessor",
        "nbgrader.preprocessors.LimitOutput",
        "autograder.plugins.sanitize.LimitOutputSize",
        "autograder.plugins.verify.VerifyOutsideKernel",
        "nbgrader.preprocessors.SaveAutoGrades",
        "nbgrader.preprocessors.AssignLatePenalties",
        "nbgrader.preprocessors.CheckCellMetadata",
    ]
    # Feedback HTML that reads well offline: formulas as MathML (no MathJax from a CDN), failed checks first, in
    # the edition's language (autograder/plugins/feedback.py).
    c.GenerateFeedback.exporter_class = "autograder.plugins.feedback.FeedbackExporter"


def load_course_config(course: Path) -> Config:
    """The configuration ``nbgrader`` itself would read in ``course``: its ``nbgrader_config.py``."""
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    if (course / "nbgrader_config.py").exists():
        config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course.resolve())
    return config


def settings(config: Any) -> KitGrading:
    return KitGrading(config=config)
