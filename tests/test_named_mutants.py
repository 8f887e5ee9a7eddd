"""The hand-written weakenings of ``benchmarks/named_mutants.py`` still apply to the source: each one's old text is
in its file exactly once, so ``benchmarks/mutation.py --named`` weakens what it says (fast tier)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from named_mutants import MUTANTS, NamedMutant  # noqa: E402


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_named_weakening_applies_once_to_its_file(mutant: NamedMutant) -> None:
    text = (REPO / mutant.path).read_text()
    assert text.count(mutant.old) == 1, f"{mutant.name}: {mutant.old!r} is in {mutant.path} {text.count(mutant.old)}x"
    assert mutant.new != mutant.old
    for test in mutant.tests:
        assert (REPO / test.split("::")[0]).is_file(), test


def test_the_named_weakenings_have_distinct_names() -> None:
    names = [m.name for m in MUTANTS]
    assert len(names) == len(set(names))
