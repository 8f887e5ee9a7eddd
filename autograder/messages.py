"""Every message the grader's judges build, declared once by id (``nn_messages.message``).

Their words in each language, English first (and the probe's), are in ``i18n/messages.<language>.toml``, reaching the
grader as ``autograder/wordings.json`` (generated; ``autograder/cli/wordings.py``), added to the helpers' below.

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

STOPPED = message("judge.stopped")
"""A step whose result a probe did not record (the case stopped earlier without saying why)."""
WITH_X_SHAPE = message("judge.with_x_shape")
"""A layer or model and its input: ``Linear(3, 2) with x of shape (4, 3)``."""
RETURNED_DX = text("judge.returned_dx")
GRAD_AFTER_BACKWARD = message("judge.grad_after_backward")

# --------------------------------------------------------------------------------------------- checks.judge

MISSING_CLASS = message("checks.missing_class")
CELL_RAISED = message("checks.cell_raised")
AND_THEN = message("checks.and_then")
"""Two causes in a row (the cells that raised)."""
CELL_DELETED = text("checks.cell_deleted")

# --------------------------------------------------------------------------------------------- Linear

LINEAR_FLOAT64 = message("linear.float64")
LINEAR_FLOAT32_LAYER = message("linear.float32_layer")
LINEAR_KEEP_DTYPE = text("linear.keep_dtype")

# --------------------------------------------------------------------------------------------- ReLU

RELU_KEEP_DTYPE = text("relu.keep_dtype")

# --------------------------------------------------------------------------------------------- CrossEntropyLoss

LOSS_CALL = message("loss.call")
LOSS_KEEP_DTYPE = text("loss.keep_dtype")
MLP_KEEP_DTYPE = cause("mlp.keep_dtype")
LOSS_TARGET_AXIS = text("loss.target_axis")

# --------------------------------------------------------------------------------------------- SGD

SGD_STEP = message("sgd.step")

# --------------------------------------------------------------------------------------------- the MNIST gate

GATE_SPEED = text("gate.speed")
GATE_TRAINING = text("gate.training")
GATE_FORWARD = text("gate.forward")
GATE_AFTER_CHECKS = text("gate.after_checks")
GATE_SHAPES_EXPECTED = message("gate.shapes_expected")
GATE_SHAPES = message("gate.shapes")
GATE_LOOP_GOT_WHERE = message("gate.loop_got_where")
GATE_AT_LEAST = message("gate.at_least")
GATE_CPU_EXPECTED = message("gate.cpu_expected")
GATE_CPU_GOT = message("gate.cpu_got")
GATE_CPU_GOT_STOPPED = message("gate.cpu_got_stopped")
GATE_CPU_GOT_RATE = message("gate.cpu_got_rate")
GATE_CPU_GOT_STOPPED_BARE = message("gate.cpu_got_stopped_bare")
GATE_SLOW_BEFORE_TRAINING = text("gate.slow_before_training")
GATE_SLOW = text("gate.slow")
GATE_EVERY_GRAD = text("gate.every_grad")
GATE_WITHOUT_GRAD = message("gate.without_grad")
GATE_BACKWARD_CALLS = text("gate.backward_calls")
GATE_BACKWARD_NOT_CALLED = message("gate.backward_not_called")
GATE_GRAD_NOT_SET = message("gate.grad_not_set")
GATE_GRAD_FOR_UPDATE = message("gate.grad_for_update")
GATE_A_KIND = message("gate.a_kind")
GATE_GRAD_BREAKS_UPDATE = message("gate.grad_breaks_update")
GATE_FORWARD_AT_STEP = message("gate.forward_at_step")
GATE_FLOAT_LOGITS = message("gate.float_logits")
GATE_LOGITS_BREAK_LOSS = text("gate.logits_break_loss")
GATE_FINITE = text("gate.finite_logits")
GATE_FINITE_PARAMETERS = text("gate.finite_parameters")
GATE_NOT_FINITE = message("gate.not_finite")
GATE_DIVERGED_AT = message("gate.diverged_at")
GATE_DIVERGED = text("gate.diverged")
GATE_FLOAT_ARRAYS = text("gate.float_arrays")
GATE_SOMETHING_ELSE = text("gate.something_else")
GATE_FORGED = text("gate.forged")
GATE_ACCURACY = message("gate.accuracy")
GATE_NOT_LEARNING = text("gate.not_learning")
GATE_LEARNS_LITTLE = text("gate.learns_little")
GATE_NO_LEARNING = text("gate.no_learning")
GATE_NEAR_REFERENCE = message("gate.near_reference")
GATE_TOO_FAR = message("gate.too_far")
GATE_FAR = text("gate.far")
GATE_PASSED = message("gate.passed")


# --------------------------------------------------------------------------------------------- the workers
# What the grading code says when a sandboxed worker ended, or was stopped, before a check had its record.


# the gate's failures as whole sentences (``nn_messages.case``), for a language in which the frame cannot take them
message("expected_got.gate.cpu_expected")
message("expected_got.gate.finite_parameters.gate.not_finite")
message("expected_got.gate.shapes_expected.gate.shapes")
message("expected_got.gate.every_grad.gate.without_grad")
message("expected_got.gate.finite_logits.gate.diverged_at")
message("expected_got.gate.float_arrays.gate.something_else")
message("expected_got.gate.near_reference.gate.too_far")
message("expected_got.gate.grad_for_update")
message("expected_got.gate.float_logits")

WORKER_EXIT = message("worker.exit")
WORKER_STALLED = message("worker.stalled")
WORKER_CPU = message("worker.cpu")
WORKER_IDLE = message("worker.idle")
WORKER_SPOILED = message("worker.spoiled")
WHILE_CHECK = message("worker.while_check")
WHILE_CELLS = message("worker.while_cells")
WHILE_CELL = message("worker.while_cell")
NOT_FINISHED = message("worker.not_finished")
NOT_FINISHED_TWICE = message("worker.not_finished_twice")
NOT_FINISHED_TIMES = message("worker.not_finished_times")
WORKER_ENDED_CAUSE = text("cause.worker.ended")
WORKER_STALLED_CAUSE = text("cause.worker.stalled")
WORKER_CPU_CAUSE = text("cause.worker.cpu")
WORKER_IDLE_CAUSE = text("cause.worker.idle")
WORKER_SPOILED_CAUSE = text("cause.worker.spoiled")
RECORD_REFUSED = message("worker.record_refused")
RECORD_CHANGED_CAUSE = text("cause.worker.record_changed")
RECORD_UNJUDGEABLE = message("worker.record_unjudgeable")


# --------------------------------------------------------------------------------------------- notes to the student
# What the grader says at the top of a graded notebook when it graded something other than what was handed in.

NOTE = message("note.from_grader")
NOTE_RENAMED = message("note.renamed")
NOTE_MISSING = message("note.missing")
NOTE_UNREADABLE = message("note.unreadable")
NOTE_FOLDER_LINK = text("note.folder_link")
NOTE_REFUSED = message("note.refused")
NOTE_SET_ASIDE = message("note.set_aside")
NOTE_ENTRY = message("note.entry")
NOTE_MORE = message("note.more")
NOTE_UNSANDBOXED = text("note.unsandboxed")
KIND_SYMLINK = text("note.kind.symlink")
KIND_HARD_LINK = text("note.kind.hard_link")
KIND_FIFO = text("note.kind.fifo")
KIND_SOCKET = text("note.kind.socket")
KIND_DEVICE = text("note.kind.device")
KIND_OTHER = text("note.kind.other")
KIND_DEEP = text("note.kind.deep")
KIND_MANY = text("note.kind.many")


# --------------------------------------------------------------------------------------------- the class report
# The class report's own headings and sentences (``autograder.report.render_html``); the causes and messages it counts
# are the catalogue's. A number is a field, formatted by the report.

REPORT_TITLE = text("report.title")
REPORT_SCORES = text("report.scores")
REPORT_CHECKS = text("report.checks")
REPORT_CAUSES = text("report.causes")
REPORT_UNEXPLAINED = text("report.unexplained")
REPORT_NOT_WRITTEN = text("report.not_written")
REPORT_GATE = text("report.gate")
REPORT_SIMILAR = text("report.similar")
REPORT_UNGRADED = text("report.ungraded")
REPORT_STUDENTS = text("report.students")
REPORT_STUDENT = text("report.student")
REPORT_STUDENTS_N = text("report.students_n")
REPORT_NAME = text("report.name")
REPORT_SCORE = text("report.score")
REPORT_CHECK = text("report.check")
REPORT_POINTS = text("report.points")
REPORT_PASS_RATE = text("report.pass_rate")
REPORT_PASSED = text("report.passed")
REPORT_FAILED = text("report.failed")
REPORT_EXPLAINED = text("report.explained")
REPORT_UNWRITTEN = text("report.unwritten")
REPORT_METHODS = text("report.methods")
REPORT_NO_VERDICT = text("report.no_verdict")
REPORT_CAUSE = text("report.cause")
REPORT_COUNT = text("report.count")
REPORT_MESSAGE = text("report.message")
REPORT_GOT = text("report.got")
REPORT_FAILED_CHECKS = text("report.failed_checks")
REPORT_WHY = text("report.why")
REPORT_PAIR = text("report.pair")
REPORT_ALIKE = text("report.alike")
REPORT_SHARED = text("report.shared")
REPORT_ACCURACY = text("report.accuracy")
REPORT_SPEED = text("report.speed")
REPORT_NONE = text("report.none")
REPORT_SUBMISSIONS = text("report.submissions")
REPORT_GRADED = text("report.graded")
REPORT_NOT_GRADED = text("report.not_graded")
REPORT_GENERATED = text("report.generated")
REPORT_MEDIAN = text("report.median")
REPORT_MEAN = text("report.mean")
REPORT_LOWEST = text("report.lowest")
REPORT_HIGHEST = text("report.highest")
REPORT_EARLIER_GRADE = text("report.earlier_grade")
REPORT_LEAD = message("report.lead")
REPORT_MORE_PAIRS = message("report.more_pairs")
REPORT_RESIDUE = text("report.residue")
REPORT_NOT_WRITTEN_NOTE = text("report.not_written_note")
REPORT_RATE_AXIS = text("report.rate_axis")
REPORT_NOT_SEARCHED = text("report.not_searched")
REPORT_NOTES = text("report.notes")
REPORT_BY_HAND = message("report.by_hand")
"""A test cell's score a person set in formgrader, which nbgrader counts instead of the automatic one."""
REPORT_LATE = message("report.late")

# --------------------------------------------------------------------------------------------- the grading kernel
# What the grading kernel writes into a cell it stopped, cut or did not run (``autograder.grading.cell_limits``,
# ``autograder.preprocessors.kernel``), in the edition's language.

KERNEL_NOTES = ("TimeBudgetUsedUp", "CellTimeoutError", "KernelDied", "MalformedKernelMessage")
"""The names of the errors the kernel writes its notes as (``cell_limits.error_output``): the feedback shows each as
its traceback does, its words alone in another language than English."""
KERNEL_CELL_NUMBER = message("kernel.cell_number")
"""A cell without an nbgrader id, by its place: ``cell number 5`` (第 5 个单元格)."""
KERNEL_CELL_ANSWER = message("kernel.cell_answer")
"""An answer cell, by the class the student writes in it (``autograder.cell_names``), never by its nbgrader id."""
KERNEL_CELL_PUBLIC = message("kernel.cell_public")
KERNEL_CELL_HIDDEN = message("kernel.cell_hidden")
KERNEL_CELL_SETUP = text("kernel.cell_setup")
KERNEL_CELL_TRAINING = text("kernel.cell_training")
KERNEL_SPENT = message("kernel.spent")
KERNEL_BUDGET_USED = message("kernel.budget_used")
KERNEL_BUDGET_USED_BY = message("kernel.budget_used_by")
KERNEL_NOT_RUN = message("kernel.not_run")
KERNEL_CELL_LIMIT = message("kernel.cell_limit")
KERNEL_STOPPED_AFTER = message("kernel.stopped_after")
KERNEL_OUTPUT_CUT = message("kernel.output_cut")
KERNEL_DIED_HERE = message("kernel.died_here")
KERNEL_DIED_BEFORE = message("kernel.died_before")
KERNEL_NOT_TAKEN = message("kernel.not_taken")
OUTPUT_CUT = message("kernel.output_cut_all")
"""An output longer than the graded notebook keeps (``KitGrading.max_output_chars``)."""
KERNEL_DROPPED = message("kernel.dropped")

# --------------------------------------------------------------------------------------------- the feedback's top box
# What the top of a student's feedback says (``autograder.exporters.summary``): the failed checks, the points lost, the
# list of hidden tests. A number of points is a field, formatted as the feedback shows it (``f"{points:g}"``).

FEEDBACK_FAILED = text("feedback.failed")
FEEDBACK_LOST = message("feedback.lost")
FEEDBACK_NONE = text("feedback.none")
FEEDBACK_HIDDEN_PASSED = message("feedback.hidden_passed")
FEEDBACK_POINTS = text("feedback.points")
FEEDBACK_CAUSE = text("feedback.cause")
FEEDBACK_FORMULA = text("feedback.formula")
FEEDBACK_HINT = text("feedback.hint")
FEEDBACK_LABEL = message("feedback.label")
"""A label of the summary box before what it labels (a likely cause, a formula, a hint)."""
FEEDBACK_FAILED_COUNT = message("feedback.failed_count")
FEEDBACK_CELL_POINTS = message("feedback.cell_points")
FEEDBACK_TOC_POINTS = message("feedback.toc_points")
FEEDBACK_PUBLIC = text("feedback.public")
FEEDBACK_UNREADABLE = text("feedback.unreadable")
"""A hidden test cell whose verdict is malformed (``autograder.verdict.Unreadable``)."""
FEEDBACK_CONTENTS = text("feedback.contents")
FEEDBACK_PUBLIC_COUNT = message("feedback.public_count")
FEEDBACK_BY_HAND = text("feedback.by_hand")
FEEDBACK_AUTOMATIC = message("feedback.automatic")
FEEDBACK_LATE = message("feedback.late")
# nbgrader's own framing of the page, in the edition's language and with names where nbgrader shows grade ids
FEEDBACK_NOTEBOOK_SCORE = message("feedback.notebook_score")
FEEDBACK_SCORE = message("feedback.score")
FEEDBACK_TOP = text("feedback.top")
FEEDBACK_ANSWER = text("feedback.answer")
FEEDBACK_HIDDEN_HEADING = message("feedback.hidden_heading")
FEEDBACK_PUBLIC_HEADING = message("feedback.public_heading")
FEEDBACK_COMMENTS = text("feedback.comments")
# Feedback released before the due date by ``python -m autograder watch`` (``Watch.before_due``, the exporter's
# ``visibility``), and the watcher's notes to a student
FEEDBACK_HELD_PUBLIC = text("feedback.held_public")
FEEDBACK_HELD_PASSFAIL = text("feedback.held_passfail")
FEEDBACK_HIDDEN_PASS = text("feedback.hidden_pass")
FEEDBACK_HIDDEN_FAIL = text("feedback.hidden_fail")
WATCH_HELD = message("watch.held")
WATCH_NOT_GRADED = message("watch.not_graded")
WATCH_NOT_COLLECTED = message("watch.not_collected")
WATCH_NOT_ON_ROSTER = message("watch.not_on_roster")
WATCH_OTHER_ASSIGNMENT = message("watch.other_assignment")


# --------------------------------------------------------------------------------------------- the points tables
# The words of the points tables (``autograder.cli.points_table``, which reads them from the wordings files, English
# where a language has none). ``points.short.<check>`` is a check's name in its part's row where it is no code word;
# its English is the registry's ``short`` (``tests/test_points_table.py``).

POINTS_PART = text("points.part")
POINTS_CELLS = text("points.cells")
POINTS_POINTS = text("points.points")
POINTS_TOTAL = text("points.total")
POINTS_ACCURACY = text("points.short.mnist_accuracy")


# The probe declares its own messages (it runs in a worker without this module); a verdict may name them, so loading
# the grader's catalogue loads theirs too.
from autograder.probe import messages as _probe_messages  # noqa: E402, F401
