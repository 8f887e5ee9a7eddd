"""Trusted side: the preprocessors nbgrader loads (``settings.apply(c)`` names each of them in the course's
configuration), in nbgrader's sense of the word: each takes a notebook being graded and returns it changed.

- ``kernel.SandboxedExecute``: nbgrader's Execute with the notebook's kernel in the sandbox and a stand-in
  ``autograder`` in it, so no grader code runs beside student code there (the kernel manager:
  ``autograder.grading.kernel``; its output caps and time budget: ``autograder.grading.cell_limits``);
- ``verify.VerifyOutsideKernel``: every hidden check decided outside the kernel (``autograder.grading.verify``), its
  verdict written into the test cell;
- ``sanitize``: links and special files of a submission, cells a student renamed, outputs too large for a graded
  notebook;
- ``locked_cells.OverwriteLockedCells``: nbgrader's OverwriteCells, quiet about the release's own changes.

Each is thin: what it does beyond nbgrader's hooks lives in ``autograder.grading``.

May import: nbgrader and its stack, ``autograder.settings``, ``autograder.faults``, ``autograder.sandbox`` and
``autograder.grading``. Never ``autograder.cli``, nor the untrusted ``autograder.probe``.
"""
