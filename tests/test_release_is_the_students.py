"""Students get only what is theirs: every top-level name of a released helper is used by something they get.

What a student gets is the released notebook (``release/mlp/mlp.ipynb``, its test cells as released) and the helper
modules next to it. A name is the student's when a notebook cell uses it, or a name of the student's uses it (in its
definition, in the same or another helper module), or a helper's module-level code runs it on import. A name nothing
of that uses is the grader's alone (its judges, probes, messages or tests use it): it belongs in ``autograder/``.
Computed by reading the files (``ast``), not by importing them.
"""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

RELEASE = Path(__file__).resolve().parents[1] / "release" / "mlp"
EDITIONS = sorted(folder for folder in RELEASE.parent.iterdir() if any(folder.glob("*.ipynb")))
"""Every edition's release folder (``mlp``, ``mlp_zh``): the same helpers, with the edition's language."""

Name = tuple[str, str]
"""A top-level name: (its module, the name)."""


@functools.cache
def helper_trees(release: Path = RELEASE) -> dict[str, ast.Module]:
    """Every helper module of the release (its ``*.py`` files), parsed, by module name."""
    return {path.stem: ast.parse(path.read_text(), str(path)) for path in sorted(release.glob("*.py"))}


def notebook_tree(release: Path = RELEASE) -> ast.Module:
    """The released notebook's code cells, as one module (a cell's magics and shell lines left out)."""
    (path,) = release.glob("*.ipynb")
    notebook = json.loads(path.read_text())
    cells = ("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    lines = (line for cell in cells for line in cell.splitlines() if not line.lstrip().startswith(("%", "!")))
    return ast.parse("\n".join(lines), path.name)


def defined_names(tree: ast.Module) -> dict[str, ast.stmt]:
    """The names a module defines at top level (functions, classes, assignments, imports), each with its statement."""
    names: dict[str, ast.stmt] = {}
    for node in tree.body:
        for name in _bound_by(node):
            names[name] = node
    return names


def _bound_by(node: ast.stmt) -> Iterator[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            if alias.name != "*" and getattr(node, "module", None) != "__future__":
                yield alias.asname or alias.name.split(".")[0]


def _is_definition(node: ast.stmt) -> bool:
    """A statement that only binds names: its code runs for the names it binds, not on import by itself."""
    return isinstance(
        node,
        (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom),
    ) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))  # a docstring


def uses(node: ast.AST, module: str, release: Path) -> set[Name]:
    """The helpers' top-level names ``node`` (code of ``module``, or of the notebook: "") uses: its own module's names
    it reads, names it imports from a helper (anywhere in it, also inside a function) and attributes of a helper
    module it imports (``say.PASSED`` after ``import nn_messages as say``)."""
    helpers = helper_trees(release)
    local, aliases = _scope(release, module) if module else ({}, _module_aliases(node, release))
    used = {(module, name) for name in _names_read(node, frozenset()) if name in local}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in aliases:
            used.add((aliases[sub.value.id], sub.attr))
        elif isinstance(sub, ast.ImportFrom) and sub.module in helpers:
            used.update((sub.module, alias.name) for alias in sub.names)
    return used


@functools.cache
def _scope(release: Path, module: str) -> tuple[dict[str, ast.stmt], dict[str, str]]:
    """``module``'s top-level names and the helper modules it imports, by the name it gives each."""
    tree = helper_trees(release)[module]
    return defined_names(tree), _module_aliases(tree, release)


def _names_read(node: ast.AST, shadowed: frozenset[str]) -> Iterator[str]:
    """The names ``node`` reads that are not a function's own (its parameters and what it assigns)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            yield from _names_read(default, shadowed)
        if not isinstance(node, ast.Lambda):
            for outer in (*node.decorator_list, *_annotations(node)):
                yield from _names_read(outer, shadowed)
        body = node.body if isinstance(node.body, list) else [node.body]
        shadowed = shadowed | _own_names(node)
        for statement in body:
            yield from _names_read(statement, shadowed)
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in shadowed:
        yield node.id
    for child in ast.iter_child_nodes(node):
        yield from _names_read(child, shadowed)


def _annotations(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    arguments = (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg)
    yield from (a.annotation for a in arguments if a is not None and a.annotation is not None)
    if node.returns is not None:
        yield node.returns


def _own_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """A function's local names: its parameters and the names its body binds (not those it declares global)."""
    arguments = (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg)
    names = {a.arg for a in arguments if a is not None}
    body = node.body if isinstance(node.body, list) else [node.body]
    declared: set[str] = set()
    for statement in body:
        for sub in _without_nested_scopes(statement):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                names.add(sub.id)
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(sub.name)
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in sub.names)
            elif isinstance(sub, (ast.Global, ast.Nonlocal)):
                declared.update(sub.names)
    return frozenset(names - declared)


def _without_nested_scopes(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and what it holds, but not the body of a function, lambda or class in it (a scope of its own)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield child  # it binds its name here
        else:
            yield from _without_nested_scopes(child)


def _module_aliases(tree: ast.AST, release: Path) -> dict[str, str]:
    """The names under which ``tree`` imports a helper module (``import nn_messages as say``: say -> nn_messages)."""
    helpers = helper_trees(release)
    return {
        alias.asname or alias.name: alias.name
        for sub in ast.walk(tree)
        if isinstance(sub, ast.Import)
        for alias in sub.names
        if alias.name in helpers
    }


@functools.cache
def the_students(release: Path = RELEASE) -> frozenset[Name]:
    """Every helper name something the student gets uses: from the notebook's cells and each helper's import-time
    code, the definitions of the names used, transitively. An imported name used is also its source's name."""
    helpers = helper_trees(release)
    todo = uses(notebook_tree(release), "", release)
    for module, tree in helpers.items():
        for node in tree.body:
            if not _is_definition(node):
                todo |= uses(node, module, release)
    seen: set[Name] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        module, attr = name
        scope = _scope(release, module)[0] if module in helpers else {}
        node = scope.get(attr)
        if node is None:
            if "__getattr__" in scope:  # a name the module makes when first read (``nn_public_data.LINEAR``)
                todo.add((module, "__getattr__"))
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            todo |= _imported_as(node, attr, helpers)
        else:
            todo |= uses(node, module, release) - seen
    return frozenset(seen)


def _imported_as(node: ast.Import | ast.ImportFrom, attr: str, helpers: dict[str, ast.Module]) -> set[Name]:
    """What ``attr``, bound by an import statement, is: a helper's name (``from nn_messages import Text``)."""
    if isinstance(node, ast.ImportFrom) and node.module in helpers:
        return {(node.module, alias.name) for alias in node.names if (alias.asname or alias.name) == attr}
    return set()


def grader_only(release: Path = RELEASE) -> list[Name]:
    """The released helpers' top-level names that nothing the student gets uses."""
    used = the_students(release)
    return sorted(
        (module, name)
        for module, tree in helper_trees(release).items()
        for name in defined_names(tree)
        if (module, name) not in used and not _is_module_import(tree, name) and not _is_dunder(name)
    )


def _is_dunder(name: str) -> bool:
    """A name Python itself reads (``__all__``: what ``from mnist_data import *`` gives)."""
    return name.startswith("__") and name.endswith("__")


def _is_module_import(tree: ast.Module, name: str) -> bool:
    """``name`` binds a module (``import numpy as np``), not a helper's name: its users say what they use of it."""
    return any(
        isinstance(node, ast.Import) and any((a.asname or a.name.split(".")[0]) == name for a in node.names)
        for node in tree.body
    )


HELPERS = [(edition, module) for edition in EDITIONS for module in helper_trees(edition)]


@pytest.mark.parametrize("edition, module", HELPERS, ids=[f"{e.name}/{m}" for e, m in HELPERS])
def test_every_name_of_a_released_helper_is_the_students(edition: Path, module: str) -> None:
    unused = [name for owner, name in grader_only(edition) if owner == module]
    assert not unused, (
        f"release/{edition.name}/{module}.py: {', '.join(unused)}: used by nothing a student gets (the notebook, the"
        " public checks or another helper they use): move it to autograder/ (a judge, the probe or"
        " autograder/messages.py), then `python -m autograder regenerate`"
    )


def test_the_students_reach_every_helper() -> None:
    """The reading itself holds: the notebook reaches the public checks, the loader and each helper module."""
    reached = {module for module, _ in the_students()}
    assert reached == set(helper_trees()), sorted(set(helper_trees()) - reached)
    assert {("nn_public", "check_linear"), ("mnist_data", "load_mnist"), ("nn_core", "Module")} <= the_students()


if __name__ == "__main__":
    for owner, name in grader_only():
        print(f"{owner}.{name}")
