"""Stock ``nbgrader`` in a process of the kit's: ``python -m autograder.grading.nbgrader_process ARGS`` is
``python -m nbgrader ARGS``, with one start-up cost deferred.

jsonschema (which nbformat and nbgrader import) imports every format checker it can find when it is imported. One of
them, ``rfc3987_syntax`` (the "iri" formats, which no notebook or nbgrader schema uses), builds some 35 parsers at
import: 1.3 of the 2.4 CPU seconds nbgrader takes to start on a 2026 laptop core (jsonschema issue #1428,
jupyter_server issue #1559). Each graded submission starts two nbgrader processes (autograde, then its feedback).
``defer_iri_checker`` puts a stand-in under that module's name whose ``is_valid_syntax`` imports the real module on
its first call and hands over to it: nothing is checked differently, it is only imported later, or never.
"""

from __future__ import annotations

import importlib
import importlib.util
import runpy
import sys
import types
from typing import Any

SLOW_MODULE = "rfc3987_syntax"
COMMAND = [sys.executable, "-m", __name__]
"""How the kit starts ``nbgrader ARGS``: ``[*COMMAND, *ARGS]``."""


def defer_iri_checker() -> None:
    """Import ``rfc3987_syntax`` only when jsonschema first checks an "iri" string (a no-op once it is imported)."""
    if SLOW_MODULE in sys.modules or importlib.util.find_spec(SLOW_MODULE) is None:
        return
    stand_in = types.ModuleType(SLOW_MODULE)

    def is_valid_syntax(*args: Any, **kwargs: Any) -> Any:
        if sys.modules.get(SLOW_MODULE) is stand_in:
            del sys.modules[SLOW_MODULE]
        return importlib.import_module(SLOW_MODULE).is_valid_syntax(*args, **kwargs)

    stand_in.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    sys.modules[SLOW_MODULE] = stand_in


if __name__ == "__main__":
    defer_iri_checker()
    sys.argv = ["nbgrader", *sys.argv[1:]]
    runpy.run_module("nbgrader", run_name="__main__", alter_sys=True)
