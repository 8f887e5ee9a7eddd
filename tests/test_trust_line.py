"""The trust line in the package's shape: what runs beside student code imports nothing of the grader's trusted side.

Untrusted side: ``autograder/probe/`` (runs in the sandboxed worker, with the course helpers the grader uses,
``autograder/course/``) and the course's helper modules in ``source/mlp/`` (run in the student's kernel). The trusted
side imports the course helpers as its own package, never by their bare names (the student's copies). Fast tier:
reads source files and starts one plain interpreter.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "autograder"
HELPERS = REPO / "source" / "mlp"
COURSE_HELPERS = {path.stem for path in HELPERS.glob("*.py")}
UNTRUSTED_MAY_IMPORT = {"numpy", "threadpoolctl", *COURSE_HELPERS}
UNTRUSTED = sorted([*PACKAGE.glob("probe/*.py"), *PACKAGE.glob("course/*.py"), *HELPERS.glob("*.py")])
WORKER_GETS = ("probe", "course")
"""The parts of the package a sandboxed worker has (``grading.workers.prepare``)."""
NEVER_IMPORTS = {
    # The trusted packages import in one direction: nbgrader's pieces (preprocessors, exporters) are thin and call
    # grading; grading calls the judges; the judges decide on plain records, knowing nothing of nbgrader.
    "judge": ("nbgrader", "autograder.grading", "autograder.preprocessors", "autograder.exporters"),
    "grading": ("autograder.preprocessors", "autograder.exporters"),
    "preprocessors": ("autograder.exporters", "autograder.probe"),
    "exporters": ("autograder.judge", "autograder.grading", "autograder.preprocessors", "autograder.probe"),
}
STUDENT_COMMAND = (HELPERS / "nn_public.py", "validate", "nbgrader")
"""The student's validate command (``python mlp/nn_public.py mlp/mlp.ipynb``): the one function of a helper that may
import nbgrader, inside it, as it runs in the student's environment, never in the kernel or a worker."""


def _student_command_lines(path: Path) -> range:
    """The lines of ``path``'s student command, if it has it."""
    file, name, _ = STUDENT_COMMAND
    tree = ast.parse(path.read_text()) if path == file else ast.Module(body=[])
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return range(found[0].lineno, found[0].end_lineno + 1) if found else range(0)


def _imports(path: Path) -> list[tuple[int, str, int]]:
    """(line, module, relative level) of every import in ``path``; ``from a import b`` counts as ``a.b``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found += [
                (node.lineno, f"{node.module or ''}.{alias.name}".lstrip("."), node.level) for alias in node.names
            ]
    return found


@pytest.mark.parametrize("path", UNTRUSTED, ids=lambda p: str(p.relative_to(REPO)))
def test_untrusted_code_imports_only_the_standard_library_numpy_and_the_course_helpers(path: Path) -> None:
    command = _student_command_lines(path)
    wrong = [
        f"line {line}: {'.' * level}{module}"
        for line, module, level in _imports(path)
        if level > 1
        or (
            level == 0
            and module.split(".")[0] not in {*sys.stdlib_module_names, *UNTRUSTED_MAY_IMPORT}
            and not module.startswith("autograder.course.")
            and module != "autograder.course"
            and not (line in command and module.split(".")[0] == STUDENT_COMMAND[2])
        )
    ]
    assert not wrong, f"{path.relative_to(REPO)} is on the untrusted side but imports {wrong}"


def test_the_probes_load_in_a_folder_without_the_grader(tmp_path: Path) -> None:
    """As in the sandboxed worker: the probes and the course helpers in an ``autograder`` package of their own, the
    release's helpers beside it, and nothing else of ``autograder`` loaded."""
    (tmp_path / "autograder").mkdir()
    (tmp_path / "autograder" / "__init__.py").write_text("")
    for part in WORKER_GETS:
        shutil.copytree(PACKAGE / part, tmp_path / "autograder" / part, ignore=shutil.ignore_patterns("__pycache__"))
    for helper in [*HELPERS.glob("*.py"), *HELPERS.glob("nn_*.json")]:  # as the worker gets them
        shutil.copy(helper, tmp_path)
    modules = sorted(f"autograder.probe.{p.stem}" for p in (PACKAGE / "probe").glob("*.py") if p.stem != "__init__")
    parts = "sorted({m.split('.')[1] for m in sys.modules if m.startswith('autograder.')})"
    code = f"import sys; import {', '.join(modules)}; print({parts})"
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r}); {code}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted(WORKER_GETS))


def test_a_process_holds_one_copy_of_each_course_helper(tmp_path: Path) -> None:
    """``autograder.course`` loads the master's files, which import one another by bare name, with no course folder
    on the path (as the grader runs): each bare name is the package's module, so one ``CheckFailed`` exists."""
    code = (
        "import sys, autograder.course as c; from autograder.course import nn_checks, nn_diagnosis, nn_messages\n"
        "assert all(sys.modules[n] is sys.modules['autograder.course.' + n] for n in c.MODULES)\n"
        "assert nn_checks.CheckFailed is nn_diagnosis.CheckFailed is nn_messages.CheckFailed\n"
        "print(sorted(n for n in sys.modules if n.startswith(('nn_', 'mnist_'))))"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    from autograder.course import MODULES

    assert done.stdout.strip() == str(sorted(MODULES))


def test_a_process_that_loaded_a_courses_copies_first_keeps_them_apart_from_the_graders(tmp_path: Path) -> None:
    """A notebook's kernel (or a script) that imported a course's ``nn_messages`` before ``autograder.course``: every
    bare name stays the course's, so a helper it imports later fails with the course's ``CheckFailed``, and the
    grader's modules keep theirs: neither set mixes with the other."""
    code = (
        f"import sys; sys.path.insert(0, {str(HELPERS)!r})\n"
        "import nn_messages, autograder.course as c, nn_checks, nn_public\n"
        "from autograder.course import nn_checks as g\n"
        "assert nn_checks.CheckFailed is nn_messages.CheckFailed is nn_public.CheckFailed\n"
        "mine = sys.modules['autograder.course.nn_messages'].CheckFailed\n"
        "assert g.CheckFailed is mine and mine is not nn_messages.CheckFailed\n"
        "print(sorted(n for n in c.MODULES if sys.modules.get(n) is sys.modules['autograder.course.' + n]))"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_trusted_side_imports_its_own_course_helpers_never_the_students() -> None:
    """A bare ``nn_messages`` (or any course helper but ``nn_core``, which the probes build the student's parameters
    with) would be the copy on ``sys.path``: the student's, not the grader's."""
    wrong = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] not in ("course", "cli")
        for line, module, level in _imports(path)
        if level == 0 and module.split(".")[0] in COURSE_HELPERS - {"nn_core"}
    ]
    assert not wrong, f"the grader imports a course helper by its bare name: {wrong}"


@pytest.mark.parametrize("package", sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py")))
def test_every_package_says_what_runs_where_and_what_it_may_import(package: str) -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text())) or ""
    assert doc.startswith(("Trusted side", "Untrusted side", "Both sides")), f"autograder/{package}: {doc[:80]!r}"
    assert "May import:" in doc, f"autograder/{package} does not say what it may import"


@pytest.mark.parametrize("package", sorted(NEVER_IMPORTS))
def test_the_trusted_packages_import_in_one_direction(package: str) -> None:
    never = NEVER_IMPORTS[package]
    wrong = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in (PACKAGE / package).glob("*.py")
        for line, module, _ in _imports(path)
        if any(module == name or module.startswith(f"{name}.") for name in never)
    ]
    assert not wrong, f"autograder/{package} imports what it must not: {wrong}"


def test_the_grader_does_not_depend_on_the_command_line() -> None:
    wrong = [
        f"{path.relative_to(REPO)}:{line}"
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts and path.name != "__main__.py"
        for line, module, _ in _imports(path)
        if module.startswith("autograder.cli")
    ]
    assert not wrong
