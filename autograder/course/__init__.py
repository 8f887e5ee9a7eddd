"""Both sides: the course's helper modules, as the grader's own package: the messages (``nn_messages``, worded in
``nn_wordings.json`` for each language of ``nn_languages``), the comparisons (``nn_checks``), the mistake catalogue
(``nn_diagnosis``) and the MNIST loader (``mnist_data``).

Not a copy: each module here is a link to the master's file (``source/mlp/<name>.py``, as is the generated
``nn_wordings.json`` they read; a wheel holds the files themselves), the one students get next to their notebook, where
the modules import one another by bare name (``from nn_messages import Failure``). Importing this package loads each as
``autograder.course.<name>`` and makes its bare name that same module, so the grader's process and the worker hold one
copy of each helper and one ``CheckFailed``. A process that had loaded any of a course's own copies first (a notebook's
kernel, where an instructor runs the hidden cells, or a script with the course folder on its path) keeps every bare name
for them. The grader imports these, never a release's or a submission's. Both sides use them: the judges, and the probes
in the sandboxed worker (which gets this folder as files, as it gets the probes). ``nn_i18n.LANGUAGE`` here is English
(the master's): the trusted side renders every message in the language it is given (the edition's, read from its release
by ``autograder.helpers.edition_language``).

May import: the standard library, NumPy and one another; never the rest of ``autograder``, nor ``nn_core`` or the
public checks (the student's).
"""

from __future__ import annotations

import importlib
import sys

MODULES = ("nn_languages", "nn_messages", "nn_i18n", "nn_checks", "nn_diagnosis", "mnist_data")
"""The helper modules the grader uses, each after those it imports when loaded. Never ``nn_core`` (the student's
classes build on the student's copy) nor the public checks (``nn_public``: the student's alone)."""


def _load() -> None:
    """Each module of ``MODULES`` under this package, its bare name bound to it before the next one imports it; a
    helper a module imports only when called is found the same way, later. If a course's own copies came first (any
    bare name taken), every bare name is given back as it was, so neither set of modules mixes with the other."""
    taken = {name: sys.modules[name] for name in MODULES if name in sys.modules}
    for name in MODULES:
        sys.modules[name] = importlib.import_module(f"{__name__}.{name}")
    if taken:
        for name in MODULES:
            if name in taken:
                sys.modules[name] = taken[name]
            else:
                del sys.modules[name]


_load()
