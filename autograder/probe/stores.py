"""Where a layer's code keeps what it is given and what it returns, read from its source (no call of it).

The MLP probes learn where the student's own layers keep their results by running them once (``mlp._learn``). A
layer that raises or hangs there shows nothing, so an MLP that reads its layers' attributes (``self.relu.dinputs``)
would lose its own checks for a layer's bug. ``stores`` reads the same facts from the method's code instead: the
worker registers the answer cells' source (``run.py``), so ``inspect`` finds it.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable

COPIES = frozenset({"array", "asarray", "asanyarray", "copy"})
"""NumPy's functions (``np.array(x)``) and, for ``copy``, the array's method (``x.copy()``) that copy an array as it
is: called with the array alone, no ``dtype`` (``x.astype(bool)`` is a mask, not the input)."""


def _passes_through(value: ast.expr, argument: str) -> bool:
    """``value`` is the argument itself or a copy of it: ``x``, ``x.copy()``, ``np.array(x)``."""
    if isinstance(value, ast.Name):
        return value.id == argument
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) or value.keywords:
        return False
    if value.func.attr == "copy" and not value.args and _passes_through(value.func.value, argument):
        return True
    return (
        value.func.attr in COPIES
        and isinstance(value.func.value, ast.Name)
        and len(value.args) == 1
        and _passes_through(value.args[0], argument)
    )


def _attribute_of(node: ast.expr, this: str) -> str | None:
    """The name of ``this.<name>`` (``self.output``), or None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == this:
        return node.attr
    return None


def stores(method: Callable[..., object]) -> tuple[set[str], set[str]]:
    """The attributes ``method`` sets on its ``self`` whose meaning its code states: (those holding its first argument
    as it came: ``self.inputs = x`` or a copy, never changed after; those holding what it returns: ``return
    self.output``, or ``self.out = out`` with ``return out``). Anything else it sets, however it is named, is in
    neither, so a stand-in never puts a value where the student's code keeps something else. Empty sets when the
    method has no source to read."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(method)))
    except Exception:  # noqa: BLE001 - a builtin, a lambda's line, code without lines: nothing to read
        return set(), set()
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or len(function.args.args) < 2:
        return set(), set()
    this, argument = function.args.args[0].arg, function.args.args[1].arg
    as_argument: set[str] = set()  # set to the argument or a copy of it
    from_local: dict[str, set[str]] = {}  # set to a local variable: which
    changed: set[str] = set()  # set otherwise, or changed in place
    returned_attributes: set[str] = set()
    returned_locals: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            name = _attribute_of(node.value, this)
            if name is not None:
                returned_attributes.add(name)
            elif isinstance(node.value, ast.Name):
                returned_locals.add(node.value.id)
            continue
        if isinstance(node, ast.AugAssign):  # self.dinputs /= n, self.dinputs[...] -= 1
            targets, value = [node.target], None
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            many = isinstance(target, ast.Tuple | ast.List)
            for element in target.elts if many else [target]:
                base = element
                while isinstance(base, ast.Subscript):  # self.dinputs[...] = 0
                    base = base.value
                name = _attribute_of(base, this)
                if name is None:
                    continue
                if value is None or base is not element or many:
                    changed.add(name)
                elif _passes_through(value, argument):
                    as_argument.add(name)
                elif isinstance(value, ast.Name):
                    from_local.setdefault(name, set()).add(value.id)
                else:
                    changed.add(name)
    returned = returned_attributes | {name for name, locals_ in from_local.items() if locals_ <= returned_locals}
    kept_as_given = as_argument - changed
    return kept_as_given - set(from_local) - returned, returned - kept_as_given
