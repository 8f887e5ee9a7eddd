"""Every message the grader's judges build, declared once by id in English (``nn_messages.message``).

Their wordings in other languages (and the probe's) are in ``i18n/messages.<language>.toml``, reaching the grader as
``autograder/wordings.json`` (generated; ``autograder/cli/wordings.py``), added to the helpers' below.

Trusted side, loaded by the judges (``autograder.judge``) only: like them it imports the course's helper modules,
which the grading process finds next to the released notebook. A judge calls a message with its fields and raises
``nn_messages.CheckFailed(Failure(message, cause, formula))``; the message, its cause and its formula stay data until
someone reads them in a language (``Failure.render``). Fields are raw values (code, shapes, numbers already
formatted, e.g. ``f"{accuracy:.2%}"``), shown as they are in every language, or other texts.

The probe's own messages (time limits, what a probe was running) are in ``autograder/probe/messages.py``: the
sandboxed worker has the probe package and the helpers, not this module. The notebook's helpers declare theirs in
``nn_messages`` and ``nn_diagnosis``; a message only the grader shows is declared here, so students get only what
their checks show.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from autograder.course import nn_messages
from autograder.course.nn_messages import cause, message, text


def add_wordings(wordings: Mapping[str, Mapping[str, str]]) -> None:
    """Add the wordings (language -> message id -> wording) of the grader's messages to the helpers' (``nn_messages``
    renders every message, the grader's too, with its ``WORDINGS``)."""
    for language, words in wordings.items():
        nn_messages.WORDINGS.setdefault(language, {}).update(words)


# the wordings of these messages and the probe's in every language but English
add_wordings(json.loads(Path(__file__).with_name("wordings.json").read_text(encoding="utf-8"))["wordings"])

# --------------------------------------------------------------------------------------------- every judge

STOPPED = message(
    "judge.stopped",
    en="{what}: the check stopped before this step.",
)
"""A step whose result a probe did not record (the case stopped earlier without saying why)."""
WITH_X_SHAPE = message("judge.with_x_shape", en="{call} with x of shape {shape}")
"""A layer or model and its input: ``Linear(3, 2) with x of shape (4, 3)``."""
RETURNED_DX = text("judge.returned_dx", en="dX returned by backward(grad)")
GRAD_AFTER_BACKWARD = message("judge.grad_after_backward", en="{name}.grad after backward(grad)")

# --------------------------------------------------------------------------------------------- checks.judge

MISSING_CLASS = message(
    "checks.missing_class",
    en="{name}: expected the class from its answer cell, but it is not defined.",
)
CELL_RAISED = message(
    "checks.cell_raised",
    en="{cell} raised {exception}: {message}",
)
AND_THEN = message("checks.and_then", en="{first}; {rest}")
"""Two causes in a row (the cells that raised)."""
CELL_DELETED = text(
    "checks.cell_deleted",
    en="the answer cell was deleted, renamed or its class renamed",
)

# --------------------------------------------------------------------------------------------- Linear

LINEAR_FLOAT64 = message("linear.float64", en="{what} for float64 x, W, b")
LINEAR_FLOAT32_LAYER = message("linear.float32_layer", en="{what} for a new float32 layer")
LINEAR_KEEP_DTYPE = text(
    "linear.keep_dtype",
    en="a cast (astype, np.float32, ...) changed the precision; keep the dtype of x and of the parameters",
)

# --------------------------------------------------------------------------------------------- ReLU

RELU_KEEP_DTYPE = text(
    "relu.keep_dtype",
    en="a cast changed the precision; keep the dtype of the input",
)

# --------------------------------------------------------------------------------------------- CrossEntropyLoss

LOSS_CALL = message(
    "loss.call",
    en="CrossEntropyLoss().{call} for logits of shape {shape} (largest |logit| {largest})",
)
LOSS_KEEP_DTYPE = text(
    "loss.keep_dtype",
    en="a cast changed the precision; compute dZ in the dtype of the logits",
)
MLP_KEEP_DTYPE = cause(
    "mlp.keep_dtype",
    en="a cast changed the precision; keep the dtype of x and of the layers' outputs",
)
LOSS_TARGET_AXIS = text(
    "loss.target_axis",
    en="the targets index the wrong axis: y holds one class index per row, so pick entries with [np.arange(B), y]",
)

# --------------------------------------------------------------------------------------------- SGD

SGD_STEP = message(
    "sgd.step",
    en="{call} with the .grad of parameter {index} None",
)

# --------------------------------------------------------------------------------------------- MLP

MLP_NO_RELU = nn_messages.MLP_NO_RELU  # the course's: the public MLP check names them too
MLP_RELU_ON_LOGITS = nn_messages.MLP_RELU_ON_LOGITS
MLP_FORWARD_FORMULA = nn_messages.MLP_FORWARD_FORMULA

# --------------------------------------------------------------------------------------------- the MNIST gate

GATE_SPEED = text("gate.speed", en="MNIST training speed")
GATE_TRAINING = text(
    "gate.training",
    en="MNIST training (784-256-10, batch 32)",
)
GATE_FORWARD = text(
    "gate.forward",
    en="MLP(784, 256, 10).forward on 32 MNIST images",
)
GATE_AFTER_CHECKS = text(
    "gate.after_checks",
    en="the gate trains your MLP, Linear and ReLU: make their checks above pass first",
)
GATE_SHAPES_EXPECTED = message("gate.shapes_expected", en="W1, b1, W2, b2 of shapes {shapes}")
GATE_SHAPES = message("gate.shapes", en="shapes {shapes}")
GATE_LOOP_GOT_WHERE = message(
    "gate.loop_got_where",
    en="a Python loop over samples or entries in {where} (a step ran {small} lines of Python for {small_rows} rows "
    "and {big} for {big_rows}); use matrix products (x @ W) on the whole batch",
)
GATE_AT_LEAST = message("gate.at_least", en="at least {count}")
GATE_CPU_EXPECTED = message(
    "gate.cpu_expected",
    en="the training to use at most {limit} times the CPU time of the grader's own NumPy training of the same steps, "
    "both measured from outside at the same time",
)
GATE_CPU_GOT = message(
    "gate.cpu_got",
    en="{times} times: your MLP's training used {student} s of CPU time for {steps} steps, the grader's {reference} s",
)
GATE_CPU_GOT_STOPPED = message(
    "gate.cpu_got_stopped",
    en="{times} times: your MLP's training had used {student} s of CPU time when it said it was at step {step} of "
    "{steps} (the grader's training of those steps, start-up included: {reference} s), and it was stopped there",
)
GATE_CPU_GOT_RATE = message(
    "gate.cpu_got_rate",
    en="{times} times: from step {first} to step {step} (of {steps}) your MLP's training used {student} s of CPU "
    "time, the grader's training of those steps {reference} s, and it was stopped there",
)
GATE_CPU_GOT_STOPPED_BARE = message(
    "gate.cpu_got_stopped_bare",
    en="more than {limit} times, and it was stopped before the end",
)
GATE_SLOW_BEFORE_TRAINING = text(
    "gate.slow_before_training",
    en="the time went before the first training step: in the top-level code of your answer cells, your classes' "
    "__init__, or your first forward and backward",
)
GATE_SLOW = text(
    "gate.slow",
    en="a Python loop over samples or entries in forward/backward, or very large temporary arrays; "
    "use matrix products (x @ W) on the whole batch",
)
GATE_EVERY_GRAD = text(
    "gate.every_grad",
    en="every parameter to have a .grad after MLP.backward",
)
GATE_WITHOUT_GRAD = message("gate.without_grad", en="parameters {names} without one")
GATE_BACKWARD_CALLS = text(
    "gate.backward_calls",
    en="each layer's backward must store the gradients of its parameters in their .grad, and MLP.backward must call "
    "every layer's backward",
)
GATE_BACKWARD_NOT_CALLED = message(
    "gate.backward_not_called",
    en="MLP.backward never called {methods}, which should have set {names}",
)
GATE_GRAD_NOT_SET = message(
    "gate.grad_not_set",
    en="{methods} ran but never set {names}: {method} must store the gradient of each of its parameters in its .grad "
    "(`self.b.grad = ...`)",
)
GATE_GRAD_FOR_UPDATE = message(
    "gate.grad_for_update",
    en="{name}.grad to be an array of the shape of {name}, {shape}, for the grader's update `p -= lr * p.grad`",
)
GATE_A_KIND = message("gate.a_kind", en="a {kind}")
GATE_GRAD_BREAKS_UPDATE = message(
    "gate.grad_breaks_update",
    en="{method} stores in {name}.grad something the grader's SGD update cannot apply to {name}: a gradient must be "
    "a float array of its parameter's shape",
)
GATE_FORWARD_AT_STEP = message(
    "gate.forward_at_step",
    en="MLP(784, 256, 10).forward at training step {step}",
)
GATE_FLOAT_LOGITS = message("gate.float_logits", en="float logits of shape {shape}")
GATE_LOGITS_BREAK_LOSS = text(
    "gate.logits_break_loss",
    en="the grader's loss gradient cannot use what forward returned at this step: it must return float logits of "
    "shape (batch, 10) at every step",
)
GATE_FINITE = text("gate.finite_logits", en="finite logits")
GATE_FINITE_PARAMETERS = text(
    "gate.finite_parameters",
    en="the trained W1, b1, W2, b2 to hold only finite numbers",
)
GATE_NOT_FINITE = message("gate.not_finite", en="{names} holding NaN or infinity after training")
GATE_DIVERGED_AT = message("gate.diverged_at", en="NaN or inf after {steps} SGD steps")
GATE_DIVERGED = text(
    "gate.diverged",
    en="training diverged; a gradient is wrong (check the gradient tests above)",
)
GATE_FLOAT_ARRAYS = text(
    "gate.float_arrays",
    en="the trained W1, b1, W2, b2 as float arrays",
)
GATE_SOMETHING_ELSE = text("gate.something_else", en="something else")
GATE_FORGED = text(
    "gate.forged",
    en="something other than the grader's training changed the parameters",
)
GATE_ACCURACY = message(
    "gate.accuracy",
    en="MNIST test accuracy after the grader's training ({epochs} epochs, {seconds} s of CPU time): expected at least "
    "{required} (a correct MLP reaches about 98%), got {accuracy}.",
)
GATE_NOT_LEARNING = text(
    "gate.not_learning",
    en="training learns, but not enough: a gradient is slightly wrong (check the gradient tests above)",
)
GATE_LEARNS_LITTLE = text(
    "gate.learns_little",
    en="training learns far too little: a forward or a gradient of your MLP, Linear or ReLU is wrong (check their "
    "tests above)",
)
GATE_NO_LEARNING = text(
    "gate.no_learning",
    en="training does not learn (the accuracy is near chance, 10%): a forward or a gradient of your MLP, Linear or "
    "ReLU is wrong (check their tests above)",
)
GATE_NEAR_REFERENCE = message(
    "gate.near_reference",
    en="the trained W1 and W2 within {limit} (relative L2) of where the grader's own training of a correct MLP from "
    "the same start on the same data ends (a correct MLP, in float32, float64 or with einsum, ends 2-9 % away; "
    "training moves W1 about 50 % and W2 about 75 %)",
)
GATE_TOO_FAR = message(
    "gate.too_far",
    en="W1 {w1} and W2 {w2} away (test accuracy {accuracy})",
)
GATE_FAR = text(
    "gate.far",
    en="a gradient of your MLP, Linear or ReLU differs from the chapter's (see the backward checks above), or "
    "something other than the grader's update changed the parameters during training",
)
GATE_PASSED = message(
    "gate.passed",
    en="MNIST: {accuracy} test accuracy after {seconds} s of CPU time, {times} times the grader's own NumPy training "
    "(required {required}).",
)


# --------------------------------------------------------------------------------------------- the workers
# What the grading code says when a sandboxed worker ended, or was stopped, before a check had its record.


# the gate's failures as whole sentences (``nn_messages.case``), for a language in which the frame cannot take them
message(
    "expected_got.gate.cpu_expected",
    en="{what}: expected the training to use at most {limit} times the CPU time of the grader's own NumPy training of "
    "the same steps, both measured from outside at the same time, got {got}.",
)
message(
    "expected_got.gate.finite_parameters.gate.not_finite",
    en="{what}: expected the trained W1, b1, W2, b2 to hold only finite numbers, got {got_names} holding NaN or "
    "infinity after training.",
)
message(
    "expected_got.gate.shapes_expected.gate.shapes",
    en="{what}: expected W1, b1, W2, b2 of shapes {shapes}, got shapes {got_shapes}.",
)
message(
    "expected_got.gate.every_grad.gate.without_grad",
    en="{what}: expected every parameter to have a .grad after MLP.backward, got parameters {got_names} without one.",
)
message(
    "expected_got.gate.finite_logits.gate.diverged_at",
    en="{what}: expected finite logits, got NaN or inf after {got_steps} SGD steps.",
)
message(
    "expected_got.gate.float_arrays.gate.something_else",
    en="{what}: expected the trained W1, b1, W2, b2 as float arrays, got something else.",
)
message(
    "expected_got.gate.near_reference.gate.too_far",
    en="{what}: expected the trained W1 and W2 within {limit} (relative L2) of where the grader's own training of a "
    "correct MLP from the same start on the same data ends (a correct MLP, in float32, float64 or with einsum, ends "
    "2-9 % away; training moves W1 about 50 % and W2 about 75 %), got W1 {got_w1} and W2 {got_w2} away (test "
    "accuracy {got_accuracy}).",
)
message(
    "expected_got.gate.grad_for_update",
    en="{what}: expected {name}.grad to be an array of the shape of {name}, {shape}, for the grader's update "
    "`p -= lr * p.grad`, got {got}.",
)
message("expected_got.gate.float_logits", en="{what}: expected float logits of shape {shape}, got {got}.")

WORKER_EXIT = message("worker.exit", en="ended with exit status {status}")
WORKER_STALLED = message(
    "worker.stalled",
    en="used almost no CPU for {seconds} s (it waited for something that never came)",
)
WORKER_CPU = message("worker.cpu", en="used its {seconds} s of CPU time")
WORKER_IDLE = message(
    "worker.idle",
    en="was still running after {seconds} s, most of them spent waiting rather than computing",
)
WORKER_SPOILED = message("worker.spoiled", en="wrote something other than its report ({problem})")
WHILE_CHECK = message("worker.while_check", en="{reason} while running this check")
WHILE_CELLS = message("worker.while_cells", en="{reason} while running your answer cells")
WHILE_CELL = message(
    "worker.while_cell",
    en="{reason} while running answer cell {cell}",
)
NOT_FINISHED = message(
    "worker.not_finished",
    en="This check could not finish: the worker process running your code {reason}.",
)
NOT_FINISHED_TWICE = message(
    "worker.not_finished_twice",
    en="This check could not finish: the worker process running your code {reason}, twice.",
)
NOT_FINISHED_TIMES = message(
    "worker.not_finished_times",
    en="This check could not finish: the worker process running your code {reason}, {count} times in a row.",
)
WORKER_ENDED_CAUSE = text(
    "cause.worker.ended",
    en="your code ended the process, ran too long or used too much memory",
)
WORKER_STALLED_CAUSE = text(
    "cause.worker.stalled",
    en="your code waits for something that never comes: a sleep, or input()",
)
WORKER_CPU_CAUSE = text(
    "cause.worker.cpu",
    en="an endless loop, perhaps one that catches the grader's time limit (a bare `except`)",
)
WORKER_IDLE_CAUSE = text(
    "cause.worker.idle",
    en="your code keeps waiting (it sleeps, or waits for input) and computes only now and then",
)
WORKER_SPOILED_CAUSE = text(
    "cause.worker.spoiled",
    en="your code wrote to the grader's report (the worker's standard output descriptor)",
)
RECORD_REFUSED = message(
    "worker.record_refused",
    en="This check's record could not be read ({problem}).",
)
RECORD_CHANGED_CAUSE = text(
    "cause.worker.record_changed",
    en="your code changed or replaced what the grader's worker reports",
)
RECORD_UNJUDGEABLE = message(
    "worker.record_unjudgeable",
    en="This check's record could not be judged ({problem}); your code changed or broke the worker's files.",
)


# --------------------------------------------------------------------------------------------- notes to the student
# What the grader says at the top of a graded notebook when it graded something other than what was handed in.

NOTE = message("note.from_grader", en="**Note from the grader.** {note}")
NOTE_RENAMED = message(
    "note.renamed",
    en="Your notebook was named {found}; it was graded as {expected}.",
)
NOTE_MISSING = message(
    "note.missing",
    en="No notebook {name} was found in your submission; the unmodified release was graded instead (0 points).",
)
NOTE_UNREADABLE = message(
    "note.unreadable",
    en="Your notebook could not be read ({reason}); it is kept as {kept} and the unmodified release was graded "
    "instead (0 points).",
)
NOTE_FOLDER_LINK = text(
    "note.folder_link",
    en="Your submission folder was a symbolic link, not a folder: nothing in it was graded.",
)
NOTE_REFUSED = message(
    "note.refused",
    en="These entries of your submission were not graded, since they are not plain files: {entries}. "
    "Submit plain files only (no links, pipes or devices).",
)
NOTE_SET_ASIDE = message(
    "note.set_aside",
    en="These entries of your submission were not graded, and were set aside: {entries}. A submission may nest "
    "folders at most {depth} levels deep and hold at most {count} files and folders.",
)
NOTE_ENTRY = message("note.entry", en="`{path}` ({kind})")
NOTE_MORE = message("note.more", en="{count} more")
NOTE_UNSANDBOXED = text(
    "note.unsandboxed",
    en="This notebook was graded without a sandbox (`KitGrading.sandbox = False` in the course's configuration).",
)
KIND_SYMLINK = text("note.kind.symlink", en="a symbolic link")
KIND_HARD_LINK = text("note.kind.hard_link", en="a hard link")
KIND_FIFO = text("note.kind.fifo", en="a FIFO (named pipe)")
KIND_SOCKET = text("note.kind.socket", en="a socket")
KIND_DEVICE = text("note.kind.device", en="a device file")
KIND_OTHER = text("note.kind.other", en="not a regular file")
KIND_DEEP = text("note.kind.deep", en="nested too deep, or its path too long")
KIND_MANY = text("note.kind.many", en="beyond the first entries")


# --------------------------------------------------------------------------------------------- the class report
# The class report's own headings and sentences (``autograder.report.render_html``); the causes and messages it counts
# are the catalogue's. A number is a field, formatted by the report.

REPORT_TITLE = text("report.title", en="Class report")
REPORT_SCORES = text("report.scores", en="Scores")
REPORT_CHECKS = text("report.checks", en="Checks")
REPORT_CAUSES = text("report.causes", en="Named causes")
REPORT_UNEXPLAINED = text("report.unexplained", en="Failures with no named cause")
REPORT_NOT_WRITTEN = text("report.not_written", en="Methods not written yet")
REPORT_GATE = text("report.gate", en="The MNIST gate")
REPORT_SIMILAR = text("report.similar", en="Similar submissions (leads)")
REPORT_UNGRADED = text("report.ungraded", en="Ungraded submissions")
REPORT_STUDENTS = text("report.students", en="Students")
REPORT_STUDENT = text("report.student", en="student")
REPORT_STUDENTS_N = text("report.students_n", en="students")
REPORT_NAME = text("report.name", en="name")
REPORT_SCORE = text("report.score", en="score")
REPORT_CHECK = text("report.check", en="check")
REPORT_POINTS = text("report.points", en="points")
REPORT_PASS_RATE = text("report.pass_rate", en="pass rate")
REPORT_PASSED = text("report.passed", en="passed")
REPORT_FAILED = text("report.failed", en="failed")
REPORT_EXPLAINED = text("report.explained", en="with a named cause")
REPORT_UNWRITTEN = text("report.unwritten", en="not written yet")
REPORT_METHODS = text("report.methods", en="methods")
REPORT_NO_VERDICT = text("report.no_verdict", en="no verdict")
REPORT_CAUSE = text("report.cause", en="cause")
REPORT_COUNT = text("report.count", en="count")
REPORT_MESSAGE = text("report.message", en="message")
REPORT_GOT = text("report.got", en="what came")
REPORT_FAILED_CHECKS = text("report.failed_checks", en="failed checks")
REPORT_WHY = text("report.why", en="why")
REPORT_PAIR = text("report.pair", en="pair")
REPORT_ALIKE = text("report.alike", en="alike")
REPORT_SHARED = text("report.shared", en="rare mistakes both made")
REPORT_ACCURACY = text("report.accuracy", en="test accuracy (%)")
REPORT_SPEED = text("report.speed", en="step time / grader's NumPy step")
REPORT_NONE = text("report.none", en="None.")
REPORT_SUBMISSIONS = text("report.submissions", en="submissions")
REPORT_GRADED = text("report.graded", en="graded")
REPORT_NOT_GRADED = text("report.not_graded", en="not graded")
REPORT_GENERATED = text("report.generated", en="generated")
REPORT_MEDIAN = text("report.median", en="median")
REPORT_MEAN = text("report.mean", en="mean")
REPORT_LOWEST = text("report.lowest", en="lowest")
REPORT_HIGHEST = text("report.highest", en="highest")
REPORT_EARLIER_GRADE = text(
    "report.earlier_grade",
    en="an earlier grade stands; the last regrade failed",
)
REPORT_LEAD = message(
    "report.lead",
    en="Pairs whose answer cells are near-identical once the release's given code, and code more than {common} "
    "students wrote alike, are set aside. This is a lead for a person to look at, not a finding of copying: similar "
    "code has innocent causes (a study group, the same tutorial, an answer with one natural form). Rare mistakes both "
    "made are listed as further evidence.",
)
REPORT_MORE_PAIRS = message(
    "report.more_pairs",
    en="{shown} of {total} pairs shown; every pair is in similar.csv.",
)
REPORT_RESIDUE = text(
    "report.residue",
    en="Failed checks the catalogue names no cause for, grouped by what came: what the catalogue does not explain yet.",
)
REPORT_NOT_WRITTEN_NOTE = text(
    "report.not_written_note",
    en="Failed checks whose method still raises NotImplementedError: not written yet, not a mistake for the catalogue "
    "to explain.",
)
REPORT_RATE_AXIS = text("report.rate_axis", en="students passing (%)")
REPORT_NOT_SEARCHED = text("report.not_searched", en="Not looked for (--no-similar).")
REPORT_NOTES = text("report.notes", en="set by hand, late")
REPORT_BY_HAND = message("report.by_hand", en="{cell}: {score} of {points} set by hand (automatic {automatic})")
"""A test cell's score a person set in formgrader, which nbgrader counts instead of the automatic one."""
REPORT_LATE = message("report.late", en="{hours} h late, {penalty} points off")

# --------------------------------------------------------------------------------------------- the grading kernel
# What the grading kernel writes into a cell it stopped, cut or did not run (``autograder.grading.cell_limits``,
# ``autograder.preprocessors.kernel``), in the edition's language.

KERNEL_NOTES = ("TimeBudgetUsedUp", "CellTimeoutError", "KernelDied", "MalformedKernelMessage")
"""The names of the errors the kernel writes its notes as (``cell_limits.error_output``): the feedback shows each as
its traceback does, its words alone in another language than English."""
KERNEL_CELL_NUMBER = message("kernel.cell_number", en="cell number {number}")
"""A cell without an nbgrader id, by its place: ``cell number 5`` (第 5 个单元格)."""
KERNEL_CELL_ANSWER = message("kernel.cell_answer", en="the cell defining {name}")
"""An answer cell, by the class the student writes in it (``autograder.cell_names``), never by its nbgrader id."""
KERNEL_CELL_PUBLIC = message("kernel.cell_public", en="the public checks of {name}")
KERNEL_CELL_HIDDEN = message("kernel.cell_hidden", en="the hidden test of {name}")
KERNEL_CELL_SETUP = text("kernel.cell_setup", en="the setup cell (the imports)")
KERNEL_CELL_TRAINING = text("kernel.cell_training", en="the training cell")
KERNEL_SPENT = message("kernel.spent", en="{cell} ({seconds} s)")
KERNEL_BUDGET_USED = message(
    "kernel.budget_used", en="the grading kernel's time budget for the whole notebook ({seconds} s) was used up"
)
KERNEL_BUDGET_USED_BY = message(
    "kernel.budget_used_by",
    en="the grading kernel's time budget for the whole notebook ({seconds} s) was used up, mostly by {cells}",
)
KERNEL_NOT_RUN = message("kernel.not_run", en="This cell was not run: {why}.")
KERNEL_CELL_LIMIT = message("kernel.cell_limit", en="a cell may run for at most {seconds} s")
KERNEL_STOPPED_AFTER = message("kernel.stopped_after", en="This cell was stopped after {seconds} s: {why}.")
KERNEL_OUTPUT_CUT = message(
    "kernel.output_cut",
    en="... output cut after {kept} characters: the grading kernel keeps at most {cell} characters of output from "
    "one cell and {notebook} from the whole notebook ...",
)
KERNEL_DIED_HERE = message("kernel.died_here", en="the kernel stopped while this cell ran ({reason}).")
KERNEL_DIED_BEFORE = message("kernel.died_before", en="this cell was not run: the kernel stopped in {cell} ({reason}).")
KERNEL_NOT_TAKEN = message("kernel.not_taken", en="the grader could not take what this cell sent ({reason}).")
OUTPUT_CUT = message("kernel.output_cut_all", en="... output cut: {chars} characters in all ...")
"""An output longer than the graded notebook keeps (``KitGrading.max_output_chars``)."""
KERNEL_DROPPED = message(
    "kernel.dropped",
    en="{count} message(s) this cell's code sent to the grader were malformed and dropped: {problems}.",
)

# --------------------------------------------------------------------------------------------- the feedback's top box
# What the top of a student's feedback says (``autograder.exporters.summary``): the failed checks, the points lost, the
# list of hidden tests. A number of points is a field, formatted as the feedback shows it (``f"{points:g}"``).

FEEDBACK_FAILED = text("feedback.failed", en="Checks that failed")
FEEDBACK_LOST = message("feedback.lost", en="{lost} of {total} points lost")
FEEDBACK_NONE = text("feedback.none", en="Every check passed.")
FEEDBACK_HIDDEN_PASSED = message(
    "feedback.hidden_passed",
    en="Every hidden test passed ({total} of {total} points).",
)
FEEDBACK_POINTS = text("feedback.points", en="points")
FEEDBACK_CAUSE = text("feedback.cause", en="Likely cause")
FEEDBACK_FORMULA = text("feedback.formula", en="The formula")
FEEDBACK_HINT = text("feedback.hint", en="Hint")
FEEDBACK_LABEL = message("feedback.label", en="{label}:")
"""A label of the summary box before what it labels (a likely cause, a formula, a hint)."""
FEEDBACK_FAILED_COUNT = message("feedback.failed_count", en="{failed} ({count}): {lost}")
FEEDBACK_CELL_POINTS = message("feedback.cell_points", en="({score} / {points} {unit})")
FEEDBACK_TOC_POINTS = message("feedback.toc_points", en="({score} / {points})")
FEEDBACK_PUBLIC = text(
    "feedback.public",
    en="Public checks that failed (0 points: they help you find the mistake)",
)
FEEDBACK_UNREADABLE = text(
    "feedback.unreadable",
    en="The grader could not read its own verdict for this test cell: the grader's fault, not yours. "
    "Tell your instructor.",
)
"""A hidden test cell whose verdict is malformed (``autograder.verdict.Unreadable``)."""
FEEDBACK_CONTENTS = text("feedback.contents", en="Hidden tests")
FEEDBACK_PUBLIC_COUNT = message(
    "feedback.public_count",
    en="Public checks (0 points): {failed} of {total} failed",
)
FEEDBACK_BY_HAND = text("feedback.by_hand", en="Scores your instructor set, which count instead of the automatic ones")
FEEDBACK_AUTOMATIC = message("feedback.automatic", en="the automatic check gave {automatic} of {points} points")
FEEDBACK_NOT_AUTOGRADED = text("feedback.not_autograded", en="no automatic score")
FEEDBACK_LATE = message("feedback.late", en="Submitted {hours} h after the due date: {penalty} points off.")
# nbgrader's own framing of the page, in the edition's language and with names where nbgrader shows grade ids
FEEDBACK_NOTEBOOK_SCORE = message("feedback.notebook_score", en="{notebook} (score: {score} / {points})")
FEEDBACK_SCORE = message("feedback.score", en="Score: {score} / {points}")
FEEDBACK_TOP = text("feedback.top", en="(Top)")
FEEDBACK_ANSWER = text("feedback.answer", en="Your answer")
FEEDBACK_HIDDEN_HEADING = message("feedback.hidden_heading", en="Hidden tests of {name}")
FEEDBACK_PUBLIC_HEADING = message("feedback.public_heading", en="Public checks of {name}")
FEEDBACK_COMMENTS = text("feedback.comments", en="Comments:")
# Feedback released before the due date by ``python -m autograder watch`` (``Watch.before_due``, the exporter's
# ``visibility``), and the watcher's notes to a student
FEEDBACK_HELD_PUBLIC = text(
    "feedback.held_public",
    en="Graded. Until the due date this feedback shows your public checks only; the hidden tests' results and your "
    "score come after it.",
)
FEEDBACK_HELD_PASSFAIL = text(
    "feedback.held_passfail",
    en="Graded. Until the due date this feedback shows whether each hidden test passed, without its points or its "
    "message; the rest, and your score, come after it.",
)
FEEDBACK_HIDDEN_PASS = text("feedback.hidden_pass", en="passed")
FEEDBACK_HIDDEN_FAIL = text("feedback.hidden_fail", en="failed")
WATCH_HELD = message(
    "watch.held",
    en="Your submission of {submitted} is received. At most {limit} submissions are graded per hour for each "
    "student; this one will be graded at about {when}, and its feedback released then.",
)
WATCH_NOT_GRADED = message(
    "watch.not_graded",
    en="Your submission of {submitted} could not be graded automatically: the grader's fault, not yours. Your "
    "instructor has been told; you need not submit again.",
)
WATCH_NOT_COLLECTED = message(
    "watch.not_collected",
    en="Your submission of {submitted} could not be copied whole out of the exchange, so it was not graded: not your "
    "fault. Your instructor has been told; you need not submit again.",
)
WATCH_NOT_ON_ROSTER = message(
    "watch.not_on_roster",
    en="Your submission of {submitted} was not graded: {student} is not on this course's roster. If that is you, ask "
    "your instructor to add you, then submit again.",
)
WATCH_OTHER_ASSIGNMENT = message(
    "watch.other_assignment",
    en="Your submission of {submitted} is of an assignment named {assignment}, which this course does not have, so it "
    "was not graded. The assignment graded now is {expected}: fetch it with nbgrader fetch_assignment {expected} and "
    "submit it under that name.",
)


# --------------------------------------------------------------------------------------------- the points tables
# The words of the points tables (``autograder.cli.points_table``, which reads them from the wordings files, English
# where a language has none). ``points.short.<check>`` is a check's name in its part's row where it is no code word;
# its English is the registry's ``short`` (``tests/test_points_table.py``).

POINTS_PART = text("points.part", en="part")
POINTS_CELLS = text("points.cells", en="hidden test cells (points)")
POINTS_POINTS = text("points.points", en="points")
POINTS_TOTAL = text("points.total", en="total")
POINTS_ACCURACY = text("points.short.mnist_accuracy", en="accuracy ≥ 97 %")


# The probe declares its own messages (it runs in a worker without this module); a verdict may name them, so loading
# the grader's catalogue loads theirs too.
from autograder.probe import messages as _probe_messages  # noqa: E402, F401
