"""Grade a submission's answer code in this process: every hidden probe and judge except the MNIST gate (fast tier).

A submission is Python source holding the answer cells' classes; ``EXPECTED`` in it (for the corpus) maps each
check it must lose to the text its true cause contains (None: no cause can be named from what came).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "source" / "mlp"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from autograder import registry  # noqa: E402
from autograder.cell_ids import check_named, grade_id  # noqa: E402
from autograder.classroom import apply_edits  # noqa: E402
from autograder.course.nn_messages import CheckFailed, Failure  # noqa: E402
from autograder.judge.checks import run_here  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS, Mistake  # noqa: E402

CHECKS = tuple(check.name for check in registry.fast_checks())
SECRETS = ("corpus-secret-0", "corpus-secret-1", "corpus-secret-2", "corpus-secret-3")
CORPUS = Path(__file__).resolve().parent
ANSWER_CELLS = tuple(registry.answers())


def _cells(notebook_text: str) -> dict[str, str]:
    cells = json.loads(notebook_text)["cells"]
    return {grade_id(c): "".join(c["source"]) for c in cells if grade_id(c)}


SOURCE_CELLS = _cells((REPO / "source" / "mlp" / "mlp.ipynb").read_text())
SOLUTION_TEXT = (REPO / "solutions" / "mlp" / "mlp.ipynb").read_text()
PUBLIC_CELLS = {
    "".join(c["source"]).split(":")[0].removeprefix("# Public checks for "): "".join(c["source"])
    for c in json.loads(SOLUTION_TEXT)["cells"]
    if "".join(c["source"]).startswith("# Public checks for ")
}


def namespace(code: str, name: str = "<submission>") -> dict[str, Any]:
    """The notebook's setup cell, then the submission's answer code, in one namespace (as the grading worker runs
    them)."""
    names: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(SOURCE_CELLS["setup"], "<cell setup>", "exec"), names)
    exec(compile(code, name, "exec"), names)
    return names


@contextmanager
def secret(value: str) -> Iterator[None]:
    old = os.environ.get("MLP_GRADER_SECRET")
    os.environ["MLP_GRADER_SECRET"] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ["MLP_GRADER_SECRET"]
        else:
            os.environ["MLP_GRADER_SECRET"] = old


def failures(names: dict[str, Any], checks: tuple[str, ...] = CHECKS) -> dict[str, Failure]:
    """Each lost check and its failure, as data."""
    lost = {}
    for check in checks:
        try:
            run_here(check, names.get(registry.check(check).cls))
        except CheckFailed as failed:
            lost[check] = failed.failure
    return lost


def failures_of(code: str, filename: str, secret_value: str) -> dict[str, Failure]:
    """``failures(namespace(code, filename))`` under the secret ``secret_value``, in a fresh dict: computed once per
    test process for the three (the hidden inputs are drawn from the secret), as several test files grade the same
    submissions alike. ``Failure`` is frozen; the submission's namespace is not kept."""
    return dict(_failures_of(code, filename, secret_value))


@cache
def _failures_of(code: str, filename: str, secret_value: str) -> tuple[tuple[str, Failure], ...]:
    with secret(secret_value):
        return tuple(failures(namespace(code, filename)).items())


def grade(names: dict[str, Any], checks: tuple[str, ...] = CHECKS) -> dict[str, str]:
    """Each lost check and the message the student sees (in English)."""
    return {check: str(failure) for check, failure in failures(names, checks).items()}


def cause_named(failure: Failure) -> str | None:
    """The likely cause the failure names, in English (None if it names none)."""
    return str(failure.cause) if failure.cause is not None else None


def corpus() -> dict[str, str]:
    """Every corpus submission's source, by name."""
    return {
        path.stem: path.read_text()
        for path in sorted(CORPUS.glob("*.py"))
        if path.stem not in ("grading", "__init__", "report")
    }


def expected_of(code: str) -> dict[str, str | None]:
    """The submission's ``EXPECTED``: each check it must lose and the text of its true cause."""
    return dict(namespace(code).get("EXPECTED", {}))


def catalogue_code(edits: tuple) -> str:
    """The answer cells of the solution notebook with ``edits`` applied, as one source."""
    cells = _cells(apply_edits(SOLUTION_TEXT, edits))
    return "\n\n".join(cells[c] for c in ANSWER_CELLS)


def catalogue_expected(mistake: Mistake) -> dict[str, str | None]:
    fast = {check.cell for check in registry.fast_checks()}
    return {check_named(cell): mistake.cause for cell in mistake.must_lose if cell in fast}


def catalogue_causes(mistake: Mistake) -> dict[str, str | None]:
    """The true cause of every fast check a catalogued mistake may lose (its part's cells): the mistake's own, on the
    cells it must lose and on any other of its part that catches it too (a check added to the part later)."""
    fast = {check.cell for check in registry.fast_checks()}
    return {check_named(c): mistake.cause for c in registry.cells_a_part_may_cost(mistake.part) if c in fast}


def score(results: dict[str, tuple[dict[str, str | None], dict[str, Failure]]]) -> dict[str, Any]:
    """Cause-naming precision and recall over ``{name: (expected, lost)}``: named causes that are right; lost cells
    named."""
    named = right = failures = 0
    wrong: list[str] = []
    for name, (expected, lost) in results.items():
        for check, failure in lost.items():
            failures += 1
            cause = cause_named(failure)
            if cause is None:
                continue
            named += 1
            truth = expected.get(check)
            if truth is not None and truth in cause:
                right += 1
            else:
                wrong.append(f"{name}/{check}: named {cause!r}, true cause {truth!r}")
    return {
        "named": named,
        "right": right,
        "failures": failures,
        "precision": right / named if named else 1.0,
        "recall": right / failures if failures else 1.0,
        "wrong": wrong,
    }


__all__ = [
    "CHECKS",
    "MISTAKES",
    "SECRETS",
    "VARIANTS",
    "catalogue_code",
    "catalogue_causes",
    "catalogue_expected",
    "cause_named",
    "corpus",
    "expected_of",
    "grade",
    "namespace",
    "score",
    "secret",
]
