"""Fair grades on code the kit did not write (fast tier: probes and judges in this process, no sandbox, no MNIST gate).

``tests/corpus/`` holds submissions in the styles of public implementations; each loses exactly the cells its
``EXPECTED`` lists, under every secret, and every cause its messages name is its true cause. The mistake catalogue
and its correct variants are graded the same way, so cause-naming precision and recall are measured on both.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
from nn_messages import Failure  # noqa: E402

import grading  # noqa: E402
from autograder import registry  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS, Mistake  # noqa: E402

CORPUS = grading.corpus()


@cache
def _graded(kind: str, name: str, secret: str) -> dict[str, Failure]:
    if kind == "corpus":
        code = CORPUS[name]
    else:
        code = grading.catalogue_code(next(e for e in (*MISTAKES, *VARIANTS) if e.name == name).edits)
    with grading.secret(secret):
        return grading.failures(grading.namespace(code, f"<{name}>"))


def _expected_mistake(mistake: Mistake) -> dict[str, str | None]:
    return grading.catalogue_expected(mistake)


def test_the_corpus_has_at_least_eight_styles() -> None:
    assert len(CORPUS) >= 8


@pytest.mark.parametrize("secret", grading.SECRETS)
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_submission_loses_exactly_its_cells_and_names_only_true_causes(name: str, secret: str) -> None:
    expected, lost = grading.expected_of(CORPUS[name]), _graded("corpus", name, secret)
    assert set(lost) == set(expected), {c: str(f)[:300] for c, f in lost.items()}
    for check, failure in lost.items():
        cause = grading.cause_named(failure)
        assert cause is None or (expected[check] is not None and expected[check] in cause), f"{check}: {failure}"


@pytest.mark.parametrize("secret", grading.SECRETS[:2])
@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m.name)
def test_catalogued_mistake_loses_its_cells_only_and_names_its_cause(mistake: Mistake, secret: str) -> None:
    lost = _graded("mistake", mistake.name, secret)
    allowed = {c.removeprefix("test_") for c in registry.cells_a_part_may_cost(mistake.part)}
    assert set(lost) <= allowed, {c: str(f)[:300] for c, f in lost.items()}
    for check, cause in _expected_mistake(mistake).items():
        assert check in lost, f"{mistake.name} should lose {check}"
        assert cause in str(lost[check]), lost[check]
    for check, failure in lost.items():
        named = grading.cause_named(failure)
        assert named is None or mistake.cause in named, f"{check}: {failure}"


@pytest.mark.parametrize("secret", grading.SECRETS[:2])
@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_correct_variant_loses_nothing(name: str, secret: str) -> None:
    assert _graded("variant", name, secret) == {}


def _precision_recall(kind: str) -> dict:
    results = {}
    for secret in grading.SECRETS[:2]:
        if kind == "corpus":
            for name, code in CORPUS.items():
                results[(name, secret)] = (grading.expected_of(code), _graded("corpus", name, secret))
        else:
            for mistake in MISTAKES:
                results[(mistake.name, secret)] = (_expected_mistake(mistake), _graded("mistake", mistake.name, secret))
    return grading.score({f"{n}[{s}]": r for (n, s), r in results.items()})


def test_cause_naming_precision_is_100_percent_and_recall_at_least_80_percent_on_the_corpus() -> None:
    score = _precision_recall("corpus")
    print(
        f"corpus: precision {score['precision']:.0%} ({score['right']}/{score['named']}), "
        f"recall {score['recall']:.0%} ({score['right']}/{score['failures']})"
    )
    assert score["wrong"] == [] and score["precision"] == 1.0
    assert score["recall"] >= 0.8


def test_cause_naming_precision_is_100_percent_on_the_catalogue() -> None:
    score = _precision_recall("catalogue")
    print(
        f"catalogue: precision {score['precision']:.0%} ({score['right']}/{score['named']}), "
        f"recall {score['recall']:.0%} ({score['right']}/{score['failures']})"
    )
    assert score["wrong"] == [] and score["precision"] == 1.0


PARTS = {cls: answer for answer, cls in registry.answers().items()}


def _public_failures(code: str) -> set[str]:
    """The parts whose public check cell fails for this submission."""
    names, failed = grading.namespace(code), set()
    for cell, source in grading.PUBLIC_CELLS.items():
        try:
            exec(compile(source, f"<public {cell}>", "exec"), names)
        except AssertionError:
            failed.add(PARTS[cell])
    return failed


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_public_checks_find_every_part_the_hidden_checks_fail(name: str, capsys: pytest.CaptureFixture) -> None:
    expected = grading.expected_of(CORPUS[name])
    hidden = {check.split("_backward")[0].split("_forward")[0].removesuffix("_step") for check in expected}
    public = _public_failures(CORPUS[name])
    assert hidden <= public
    # the public MLP check runs the student's own layers, so a Linear or ReLU bug may show there too
    assert public - hidden <= ({"mlp"} if hidden & {"linear", "relu"} else set())


def test_public_checks_pass_for_the_solution() -> None:
    assert _public_failures(grading.catalogue_code(())) == set()
