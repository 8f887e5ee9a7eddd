"""``probe.stores`` reads where a layer's method stores its argument and what it computes (fast tier).

The MLP probes use it only for a layer that raised or hung when run (``tests/test_causes_on_evidence.py``); here, what
it reads from each way of writing a store, and that it reads nothing it cannot be sure of.
"""

from __future__ import annotations

import linecache
import textwrap
from collections.abc import Callable

import numpy as np
import pytest

from autograder.probe.stores import stores


def _method(body: str) -> Callable[..., object]:
    """``forward(self, x)`` with ``body``, compiled as the worker compiles an answer cell (its source in linecache)."""
    code = "class Layer:\n    def forward(self, x):\n" + textwrap.indent(textwrap.dedent(body), " " * 8)
    name = f"<layer {abs(hash(body))}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    names: dict[str, object] = {"np": np}
    exec(compile(code, name, "exec"), names)
    return names["Layer"].forward  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("body", "given", "computed"),
    [
        ("self.inputs = x\nself.output = np.maximum(0, x)\nreturn self.output", {"inputs"}, {"output"}),
        ("self.inputs = x.copy()\nself.y = x @ x.T", {"inputs"}, {"y"}),
        ("self.inputs = np.asarray(x, dtype=float)", {"inputs"}, set()),
        ("self.d = x.copy()\nself.d[x <= 0] = 0\nreturn self.d", set(), {"d"}),
        ("self.d = x\nself.d /= 2", set(), {"d"}),
        ("self.a, self.b = x, x", set(), {"a", "b"}),
        ("self.h: np.ndarray = x", {"h"}, set()),
        ("self.m = x\nself.m = x + 1", set(), set()),  # set both ways: neither
        ("self.ctx['x'] = x\nother.y = x\ny = x", set(), set()),  # not an attribute of self
        ("def inner():\n    self.late = x * 2\ninner()", set(), {"late"}),
    ],
)
def test_what_a_method_stores(body: str, given: set[str], computed: set[str]) -> None:
    assert stores(_method(body)) == (given, computed)


def test_a_method_without_source_shows_nothing() -> None:
    names: dict[str, object] = {}
    exec(compile("class Layer:\n    def forward(self, x):\n        self.y = x + 1\n", "<no source>", "exec"), names)
    assert stores(names["Layer"].forward) == (set(), set())  # type: ignore[attr-defined]
    assert stores(len) == (set(), set())
