"""One NaN must not turn a comparison off: every hidden check fails a submission whose values hold NaN or infinity.

Each class of the reference solution is wrapped so that one entry of whatever it returns, and of every ``.grad`` it
sets (and, for SGD, of every parameter it updates), becomes NaN (or infinity); everything else is the correct value.
Every fast check the class is graded by must fail (the MNIST gate's NaN is pinned in ``test_pinned_checks.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
from autograder import registry  # noqa: E402
from grading import CHECKS, catalogue_code, failures, namespace  # noqa: E402

POISONS = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}


def _poison(value: Any, poison: float | None) -> Any:
    """``value`` with its last entry replaced by ``poison`` (arrays only; anything else, or no poison, as it came)."""
    if poison is not None and isinstance(value, np.ndarray) and value.size and value.dtype.kind == "f":
        value = value.copy() if not value.flags.writeable else value
        value.flat[-1] = poison
    return value


def _poisoned(cls: type, poison: float | None) -> type:
    """``cls`` whose forward, backward and step poison what they return, set and update."""

    class Poisoned(cls):  # type: ignore[misc, valid-type]
        def forward(self, *args: Any) -> Any:
            return _poison(np.array(super().forward(*args), copy=True), poison)

        def backward(self, *args: Any) -> Any:
            out = super().backward(*args)
            for p in getattr(self, "parameters", lambda: [])():
                if getattr(p, "grad", None) is not None:
                    p.grad = _poison(np.array(p.grad, copy=True), poison)
            return None if out is None else _poison(np.array(out, copy=True), poison)

        def step(self) -> None:
            super().step()
            for p in self.params:
                _poison(p, poison)

    Poisoned.__name__ = Poisoned.__qualname__ = cls.__name__
    return Poisoned


@pytest.mark.parametrize("poison", POISONS)
@pytest.mark.parametrize("name", ["Linear", "ReLU", "CrossEntropyLoss", "SGD"])
def test_every_check_of_a_class_fails_when_one_entry_it_gives_is_not_finite(name: str, poison: str) -> None:
    names = namespace(catalogue_code(()))
    names[name] = _poisoned(names[name], POISONS[poison])
    checks = tuple(c.name for c in registry.fast_checks() if c.cls == name)
    lost = failures(names, checks)
    assert set(lost) == set(checks), f"passed with {poison}: {sorted(set(checks) - set(lost))}"


def test_the_wrapper_alone_loses_nothing() -> None:
    """The wrapper with no poison keeps every point: the failures above are the NaN's, not the wrapper's."""
    names = namespace(catalogue_code(()))
    for name in ("Linear", "ReLU", "CrossEntropyLoss", "SGD"):
        names[name] = _poisoned(names[name], None)
    assert failures(names, CHECKS) == {}
