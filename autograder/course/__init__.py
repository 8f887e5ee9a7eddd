"""Both sides: the course's helper modules, as the grader's own package: the messages (``nn_messages``, worded in
``nn_wordings`` for each language of ``nn_languages``), the comparisons (``nn_checks``), the mistake catalogue
(``nn_diagnosis``) and the MNIST loader (``mnist_data``).

Generated: each module is the master's (``source/mlp/``) with its imports of the others made relative
(``autograder.cli.course_package``, run by ``python -m autograder regenerate``). Students get the master's copies next
to their notebook; the grader imports these, never a release's or a submission's. Both sides use them: the judges,
and the probes in the sandboxed worker (which gets this folder as it gets the probes). ``nn_i18n.LANGUAGE`` here is
English: the trusted side renders every message in the language it is given (the edition's, read from its release by
``autograder.helpers.edition_language``).

May import: the standard library, NumPy and one another (relative imports); never the rest of ``autograder``, nor
``nn_core`` or the public checks (the student's).
"""
