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

# Per-cell execution limit, in seconds. The longest cell is the MNIST gate: a
# vectorised MLP trains in about 10 s, the gate itself fails slow solutions
# with a message after a 90 s training budget, so 300 s is only ever reached
# by a cell that hangs (it is then interrupted and scores 0).
c.Execute.timeout = 300

# Students submitted without being registered first are added to the gradebook.
c.Autograde.create_student = True

# solutions/ is committed and must be reproducible, so it is generated without
# executing the notebook (outputs would hold timings and machine paths). The
# kit's tests prove the solutions right by autograding them instead.
from nbgrader.preprocessors import ClearMarkScheme, ClearOutput, IncludeHeaderFooter, LockCells  # noqa: E402

c.GenerateSolution.preprocessors = [IncludeHeaderFooter, LockCells, ClearOutput, ClearMarkScheme]
