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
        ("self.inputs = x.copy()\nself.y = x @ x.T\nreturn self.y", {"inputs"}, {"y"}),
        ("self.inputs = np.asarray(x)\nreturn x", {"inputs"}, set()),
        ("self.mask = x.astype(bool)\nself.y = np.array(x, dtype=int)\nreturn x", set(), set()),
        ("self.d = x.copy()\nself.d[x <= 0] = 0\nreturn self.d", set(), {"d"}),  # nnfs's ReLU.backward
        ("self.d = x\nself.d /= 2\nreturn self.d", set(), {"d"}),
        ("out = x * 2\nself.out = out\nreturn out", set(), {"out"}),
        ("self.h: np.ndarray = x\nreturn x + 1", {"h"}, set()),
        # what the code does not say: set but not returned, returned but also the argument, set from anything else
        ("self.inp = x * 1\nreturn np.maximum(x, 0)", set(), set()),
        ("self.y = x\nreturn self.y", set(), set()),
        ("self.a, self.b = x, x\nreturn x", set(), set()),
        ("self.m = x\nself.m = x + 1\nreturn self.m + 0", set(), set()),
        ("tmp = x + 1\nself.t = tmp\nreturn x", set(), set()),
        ("self.ctx['x'] = x\nother.y = x\ny = x\nreturn y", set(), set()),  # not an attribute of self
    ],
)
def test_what_a_method_stores(body: str, given: set[str], computed: set[str]) -> None:
    assert stores(_method(body)) == (given, computed)


def test_a_method_without_source_shows_nothing() -> None:
    names: dict[str, object] = {}
    exec(compile("class Layer:\n    def forward(self, x):\n        self.y = x + 1\n", "<no source>", "exec"), names)
    assert stores(names["Layer"].forward) == (set(), set())  # type: ignore[attr-defined]
    assert stores(len) == (set(), set())
