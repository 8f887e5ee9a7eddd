"""nbgrader configuration of the course. Run every nbgrader command from this directory.

A course in another folder needs only the lines up to ``apply(c)`` (with its own
``course_id``) and the kit installed (``pip install`` this repository).
"""

from autograder.settings import apply

c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)
apply(c)  # the kit's preprocessors: sandboxed kernel, every hidden check decided outside it (autograder/settings.py)

c.CourseDirectory.course_id = "dl-notes-mlp"  # students need it too: docs/student_nbgrader_config.py
# nbgrader's exchange (release, collect, feedback), made once by an administrator, world-writable with the sticky bit:
# sudo install -d -m 1777 /srv/nbgrader/exchange (docs/instructor-guide.md, "Running the course over the exchange")
c.Exchange.root = "/srv/nbgrader/exchange"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.solution_directory = "solutions"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"
# Late work (the due date: nbgrader db assignment add mlp --duedate="2027-01-15 17:00:00 UTC"): no penalty by default;
# one line sets points off per started day or hour after it (docs/instructor-guide.md, "Deadlines and late work")
# c.LatePenalty.points_per_day = 10
# c.LatePenalty.points_per_hour = 1
# python -m autograder watch (docs/instructor-guide.md, "Feedback while the class submits"), with its defaults:
# c.Watch.before_due = "public"   # before the due date: "public" checks only, "passfail" of each hidden test, "full"
# c.Watch.graded_per_hour = 6     # submissions of one student graded in any hour (0: no limit)
# c.Watch.poll_seconds = 5.0      # between two looks at the exchange's inbound
# c.Watch.report_minutes = 5.0    # between two writings of the class report

# What an instructor may change, with the kit's defaults. Every trait's help:
# python -c "from autograder.settings import KitGrading; print(KitGrading.class_get_help())"
# Where things are
# c.KitGrading.mnist_dir = "data/mnist"       # MNIST folder, absolute or relative to this directory
# c.KitGrading.download_mnist = True          # else only $MNIST_DIR or the cache
# c.KitGrading.secret_file = ""               # default ~/.local/share/dl-notes-kit/secrets/<course_id>
# c.KitGrading.work_dir = ""                  # scratch folder of kernels and workers (default: the system's)
# c.KitGrading.graded_dir = ".kit-graded"     # what `python -m autograder grade` graded, and its logs
# How and where student code runs
# c.KitGrading.sandbox = True                 # False: grade without a sandbox (every graded notebook says so)
# c.KitGrading.scheduler = ""                 # a Dask scheduler, tcp://HOST:8786 (default: this machine)
# Limits (a correct submission reaches none of them)
# c.Execute.timeout = 120                     # seconds per notebook cell in the grading kernel (nbgrader's own)
# c.KitGrading.kernel_total_seconds = 150     # wall seconds for the whole notebook in the grading kernel
# c.KitGrading.kernel_cpu_seconds = 1800      # the grading kernel's sandbox, one process: CPU, memory, threads, files
# c.KitGrading.kernel_memory_mib = 2048
# c.KitGrading.kernel_processes = 64
# c.KitGrading.kernel_file_mib = 256
# c.KitGrading.kernel_disk_mib = 512          # all it writes, held in memory (never the disk)
# c.KitGrading.kernel_cell_output_chars = 100000  # output kept from one cell as it runs (the rest dropped)
# c.KitGrading.kernel_output_chars = 1000000  # output kept from the whole notebook as it runs
# c.KitGrading.worker_checks_cpu_seconds = 120  # CPU of a worker of small checks, all its processes (seen from outside)
# c.KitGrading.worker_gate_cpu_seconds = 1800  # backstop CPU of the MNIST gate's worker (its speed rule first)
# c.KitGrading.worker_stall_seconds = 20      # a worker using almost no CPU this long is stuck: the running check costs
# c.KitGrading.worker_wall_seconds = 900      # backstop: still computing this long is the machine's fault (ungraded)
# c.KitGrading.worker_idle_seconds = 120      # still running this long, mostly waiting: the running check costs
# c.KitGrading.worker_disk_mib = 256         # a worker's working folder: a tmpfs inside its sandbox
# c.KitGrading.worker_memory_mib = 2048
# c.KitGrading.worker_processes = 16
# c.KitGrading.worker_file_mib = 64
# c.KitGrading.worker_attempts = 2            # a crash costs a check only if it happens again in a fresh worker
# c.KitGrading.worker_start_attempts = 3      # a worker that never starts: the grader's fault after this many
# c.KitGrading.grade_attempts = 2             # tries of one submission before it is left ungraded (no grade)
# c.KitGrading.autograde_seconds = 900        # backstop: one submission's whole autograde (its process group killed)
# c.KitGrading.max_output_chars = 20000       # longest text kept from one output in a graded notebook
# The grading log (autograder/preprocessors/locked_cells.py)
# c.OverwriteLockedCells.quiet_when_as_released = True  # False: nbgrader's checksum warning for every test cell
