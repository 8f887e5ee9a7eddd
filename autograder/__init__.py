"""The grader of the ``mlp`` assignment, split along its trust line. Installed only where grading happens.

Both sides:
  ``course/``         the course's helpers as the grader's package (links to ``source/mlp/``'s files): messages,
                      comparisons, the mistake catalogue, the MNIST loader. The worker gets a copy of it.
Untrusted side, runs beside student code (in a sandboxed worker, with the student's answer cells):
  ``probe/``          calls the student's classes on the hidden inputs and records what came, as plain data. It
                      imports only NumPy, ``course``, the student's ``nn_core`` (which words its errors with
                      ``nn_i18n`` and ``nn_messages``: in the worker, ``course``'s, bound to those bare names) and
                      ``probe.*``, never the rest of this package.
                      One module a part (``linear``, ``relu``, ``loss``, ``sgd``, ``mlp``, ``gate``), paired with
                      the judge of the same name.
Trusted side, never runs student code:
  ``registry``        every hidden check, declared once.
  ``judge/``          the judges: hidden inputs (from the grading secret), the float64 reference, finite
                      differences, the diagnosis of what came; they read probe records, never call student code.
  ``preprocessors/``  the preprocessors nbgrader loads: the sandboxed kernel, verification outside it, cell repair,
                      locked cells. Thin: the work is in ``grading/``.
  ``exporters/``      the nbconvert exporter of the feedback HTML.
  ``grading/``        grading itself: preparing a grading (resolved once, passed on), the notebook's sandboxed kernel
                      (``kernel``) and what its cells may print and spend (``cell_limits``), verification in
                      sandboxed workers, running a worker, a whole class (``class_run``), on a Dask cluster
                      (``cluster``).
  ``sandbox``         bubblewrap, which the kernel and the workers run in.
  ``settings``        ``KitGrading``: every path, limit and location a course may change, and ``apply(c)``.
  ``verdict``         ``Verdict``: a check's result as data, written into its test cell for every later reader.
  ``messages``        the grader's messages, by id, in every language (the helpers' are in ``nn_messages``).
  ``faults``          ``GraderFault``: a failure of grading itself, never charged to a student.
  ``classroom``       drives stock nbgrader on a course folder, for the demo and the kit's tests.
  ``cli/``            the commands people run: ``python -m autograder grade|demo|edition|hidden-cells``.
``tests/test_trust_line.py`` enforces the line: nothing under ``probe/`` imports the trusted side.

Each hidden test cell calls one ``check_<name>`` of this module with the student's class. While grading, the
notebook's kernel has only a stand-in of this package (``grading/kernel.py``) and every check is decided outside
it (``grading/verify.py``). Called in a process of your own, ``check_<name>`` probes and judges there, returning
None on success and raising ``nn_messages.CheckFailed`` (the failure, as data) on failure. The judges use the
course's helpers as the grader's package (``course``); the probes build the student's parameters with the
student's ``nn_core``, which nbgrader places next to the notebook.
"""

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.helpers import edition_language
from autograder.registry import BY_NAME, CHECKS

__all__ = [f"check_{check.name}" for check in CHECKS]


def __getattr__(name: str) -> Any:
    if name.startswith("check_") and name[len("check_") :] in BY_NAME:
        return _check_here(name[len("check_") :])
    raise AttributeError(f"module 'autograder' has no attribute {name!r}")


def _check_here(check: str) -> Callable[[type], None]:
    """The hidden test cell's function: run the check here; a failure raises ``CheckFailed``, which a notebook shows
    as its message alone, in the language of the edition whose folder the notebook runs in."""

    def run(student_class: type) -> None:
        from autograder.course.nn_checks import render_message
        from autograder.course.nn_messages import CheckFailed

        language = edition_language(Path.cwd())
        try:
            note = importlib.import_module("autograder.judge.checks").run_here(check, student_class)
        except CheckFailed as failed:  # shown in the edition's language (the grader's helpers are the English master's)
            shown = render_message(failed.failure.render(language))
            failed._render_traceback_ = lambda: shown  # type: ignore[method-assign]
            raise
        note = getattr(note, "note", note)  # a check that measured something returns it with its note
        if note is not None:
            print(note.render(language))

    run.__name__ = f"check_{check}"
    return run
