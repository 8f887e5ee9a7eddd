"""nbgrader configuration of the course. Run every nbgrader command from this directory.

A course in another folder needs only the lines up to ``apply(c)`` (with its own
``course_id``) and the kit installed (``pip install`` this repository).
"""
from autograder.settings import apply

c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)
apply(c)  # the kit's preprocessors: sandboxed kernel, every hidden check decided outside it (autograder/settings.py)

c.CourseDirectory.course_id = "dl-notes-mlp"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.solution_directory = "solutions"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# What an instructor may change (each trait's help: `python -c "from autograder.settings import KitGrading as K;
# print(K.class_get_help())"`):
# c.KitGrading.mnist_dir = "data/mnist"       # MNIST folder, absolute or relative to this directory
# c.KitGrading.download_mnist = True          # else only $MNIST_DIR or the cache
# c.KitGrading.secret_file = ""               # default ~/.local/share/dl-notes-kit/secrets/<course_id>
# c.KitGrading.sandbox = True                 # False: grade without a sandbox (every graded notebook says so)
# c.KitGrading.work_dir = ""                  # scratch folder of kernels and workers (default: the system's)

# solutions/ is committed and must be reproducible, so it is generated without
# executing the notebook (outputs would hold timings and machine paths). The
# kit's tests prove the solutions right by autograding them instead.
from nbgrader.preprocessors import ClearMarkScheme, ClearOutput, IncludeHeaderFooter, LockCells  # noqa: E402

c.GenerateSolution.preprocessors = [IncludeHeaderFooter, LockCells, ClearOutput, ClearMarkScheme]
