"""Trusted side: what nbgrader loads (``settings.apply(c)`` names each of them in the course's configuration).

- ``kernel.SandboxedExecute``: nbgrader's Execute with the notebook's kernel in the sandbox and a stand-in
  ``autograder`` in it, so no grader code runs beside student code there;
- ``verify.VerifyOutsideKernel``: every hidden check probed in sandboxed workers and judged in this process;
- ``sanitize``: cells a student renamed or outputs too large for a graded notebook;
- ``feedback.FeedbackExporter``: feedback HTML that reads well offline;
- ``course_data``: MNIST found and validated once, before the first student.

May import: nbgrader and its stack, ``autograder.settings``, ``autograder.faults``, ``autograder.sandbox``,
``autograder.registry``, ``autograder.judge`` and ``autograder.probe`` (files copied into a worker, never run here).
"""
