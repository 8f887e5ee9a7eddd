"""Trusted side: the judges, and what they need to decide on a probe's records.

Runs in the grader's process (nbgrader's, or a maintainer's), never beside student code: a judge reads the plain
data a probe reported (read with bounds by ``records.read_report``, checked once into ``outcome.WorkerOutcome``) and
compares it with the float64 reference (``reference.py``), finite differences and the diagnosis of typical mistakes
(the course's ``nn_diagnosis``); the gate's trained parameters also with the grader's own training
(``gate_reference.py``). The hidden inputs (``inputs.py``) are drawn from the grading secret (``secret.py``).
``checks.judge`` is the one entry point; which judge decides which check is declared in ``autograder.registry``. A
judge fails a check by raising ``CheckFailed(Failure(message, cause, formula))`` (``nn_messages``): every message it
names is declared once, in every language, in ``autograder.messages`` or in the helpers' ``nn_messages``.

May import: the standard library, NumPy, the course's helper modules, ``autograder.registry``,
``autograder.messages``, ``autograder.probe.core`` (the record format) and ``autograder.judge.*``. Never nbgrader or
the command line.
"""
