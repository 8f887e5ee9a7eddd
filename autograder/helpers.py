"""The course's released helper modules, as the trusted side uses them: loaded by name, and the edition's language.

The judges apply the mistake catalogue students read (``nn_diagnosis``) and every message is declared in
``nn_messages``: the grader uses the release's copies (the trusted ones the instructor generated, never a
submission). ``use`` loads exactly the helper modules the grader needs, each from its file in the release, under its
own name; the release folder is not put on ``sys.path``, so no other file there can shadow a module the grader imports.
``edition_language`` reads the edition's language.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

GRADER_USES = (
    "nn_languages",
    "nn_wordings",
    "nn_messages",
    "nn_i18n",
    "nn_core",
    "nn_checks",
    "nn_diagnosis",
    "mnist_data",
)
"""The helper modules the trusted side imports, each after the ones it imports."""


def use(release: Path) -> None:
    """Load the helper modules of ``release`` (an assignment's release folder) into this process, once: a module
    already loaded (from another release of the same course, or by the kit's tests) is kept."""
    for name in GRADER_USES:
        path = Path(release) / f"{name}.py"
        if name in sys.modules or not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        except BaseException:
            del sys.modules[name]
            raise


def edition_language(release: Path) -> str:
    """The language of the release's edition: ``nn_i18n.LANGUAGE`` there, read without importing it (two editions may
    be graded in one process)."""
    try:
        tree = ast.parse((release / "nn_i18n.py").read_text())
    except (OSError, SyntaxError):
        return "en"
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["LANGUAGE"]:
            return str(ast.literal_eval(node.value))
    return "en"
