"""nbgrader configuration of the course. Run every nbgrader command from this directory."""

c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = "dl-notes-mlp"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.solution_directory = "solutions"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# Per-cell execution limit of the kernel, in seconds. Every hidden check
# limits itself to 10 s and the MNIST gate trains outside the kernel, so only a
# cell that hangs reaches it (it is then interrupted and scores 0).
c.Execute.timeout = 120
c.SandboxedExecute.timeout = 120

# Students submitted without being registered first are added to the gradebook.
c.Autograde.create_student = True

# Test cells a student deleted are put back (and graded) before autograding;
# a cell whose grade_id the student changed is first turned into a plain cell.
c.OverwriteCells.add_missing_cells = True
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "autograder.sanitize.ForgetUnknownCells",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# Grades you can trust (autograder/kernel.py, autograder/verify.py): the kernel
# runs sandboxed, and every hidden check is re-run outside it, in a sandboxed
# worker that loads only the answer cells; that verdict replaces the kernel's
# before SaveAutoGrades turns outputs into points. Needs root (see README).
c.Autograde.autograde_preprocessors = [
    "autograder.kernel.SandboxedExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "autograder.sanitize.LimitOutputSize",
    "autograder.verify.VerifyOutsideKernel",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# solutions/ is committed and must be reproducible, so it is generated without
# executing the notebook (outputs would hold timings and machine paths). The
# kit's tests prove the solutions right by autograding them instead.
from nbgrader.preprocessors import ClearMarkScheme, ClearOutput, IncludeHeaderFooter, LockCells  # noqa: E402

c.GenerateSolution.preprocessors = [IncludeHeaderFooter, LockCells, ClearOutput, ClearMarkScheme]
