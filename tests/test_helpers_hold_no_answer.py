"""No released helper holds an answer (fast tier: probes and judges in this process, as ``tests/test_corpus.py``).

Every helper module students get is in the grading workers too, so a helper function that computed a graded quantity
(``autograder/registry.py``: Linear forward, dX, dW, db; ReLU forward and backward; the cross-entropy loss and its
gradient; the SGD update; the MLP forward and backward) on input the caller chooses would be an answer a student could
call. Each attack of ``catalogue.attacks_helpers`` answers one method with such a call and must lose its cells.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import grading  # noqa: E402
from autograder import cell_ids  # noqa: E402
from autograder.judge import reference  # noqa: E402
from catalogue.attacks import Context, Submission  # noqa: E402
from catalogue.attacks_helpers import GRADER_ATTACKS, HELPER_ATTACKS  # noqa: E402
from nn_checks import worst_difference  # noqa: E402

FAST_CELLS = {cell_ids.hidden_cell_id(name) for name in grading.CHECKS}


def _lost(attack: Submission) -> set[str]:
    notebook = attack.make(grading.SOLUTION_TEXT, Context(gradebook="", solution_notebooks=()))["mlp.ipynb"]
    code = "\n\n".join(grading._cells(notebook)[cell] for cell in grading.ANSWER_CELLS)
    with grading.secret(grading.SECRETS[0]):
        return {
            cell_ids.hidden_cell_id(check) for check in grading.failures(grading.namespace(code, f"<{attack.name}>"))
        }


@pytest.mark.parametrize("attack", HELPER_ATTACKS, ids=lambda a: a.name)
def test_an_answer_that_calls_a_released_helper_loses_its_cells(attack: Submission) -> None:
    lost = _lost(attack)
    kept = sorted(set(attack.must_lose) & FAST_CELLS - lost)
    assert not kept, f"{attack.name} ({attack.description}) got the points of {kept}"
    assert lost <= set(attack.must_lose) | set(attack.may_lose), f"{attack.name} also lost {sorted(lost)}"


@pytest.mark.parametrize("attack", GRADER_ATTACKS, ids=lambda a: a.name)
def test_the_graders_own_functions_are_answers_only_isolation_keeps_from_students(attack: Submission) -> None:
    """Here the grader is importable, and each call of its MLP suspects is a right answer: the slow tier's loss of
    these cells (``tests/test_trust.py``) is the kernel's and the workers' isolation, not a broken attack."""
    lost = sorted(_lost(attack) & set(attack.must_lose))
    assert not lost, f"{attack.name} ({attack.description}) lost {lost} with the grader here"


RELEASED = (
    "nn_core",
    "nn_checks",
    "nn_diagnosis",
    "nn_public",
    "nn_public_data",
    "nn_languages",
    "nn_messages",
    "nn_i18n",
    "mnist_data",
)
"""Every helper module students get (``source/mlp/`` but the notebook), as the grading workers hold them too."""
READS_FILES = ("load", "download", "read", "_sha256", "_build", "use_plot_fonts")
"""mnist_data's and nn_i18n's functions that read files or the network: they compute nothing graded."""


def _case() -> tuple[dict[str, Any], dict[str, Any]]:
    """A hidden-check-like case: the arrays a student has at hand (and simple transforms of them), and every graded
    quantity on them (``autograder/registry.py``'s checks)."""
    rng = np.random.default_rng(7)
    normal = rng.standard_normal
    x, W, b, g, W2, b2, g2 = (
        normal((5, 4)),
        normal((4, 3)),
        normal(3),
        normal((5, 3)),
        normal((3, 2)),
        normal(2),
        normal((5, 2)),
    )
    h = normal((5, 3))  # the ReLU's input, and the logits: not the Linear's output, which is graded
    z, y = 3.0 * normal((5, 3)), rng.integers(0, 3, size=5)
    probs = np.exp(reference.log_softmax(z))
    p_grad = normal((4, 3))  # the .grad of a parameter W that SGD steps
    at_hand = {
        "x": x,
        "xT": x.T,
        "W": W,
        "WT": W.T,
        "-W": -W,
        "b": b,
        "-b": -b,
        "g": g,
        "gT": g.T,
        "h": h,
        "-h": -h,
        "hT": h.T,
        "stack": np.stack([h, 0 * h]),
        "mask": h > 0,
        "z": z,
        "zT": z.T,
        "shifted": z - z.max(1, keepdims=True),
        "y": y,
        "probs": probs,
        "W2": W2,
        "b2": b2,
        "g2": g2,
        "I3": np.eye(3),
        "I4": np.eye(4),
        "lr": 0.1,
        "-lr": -0.1,
        "xW": x @ W,
        "p_grad": p_grad,
    }
    graded = {
        "Linear forward": reference.linear_forward(x, W, b),
        "Linear dX": reference.linear_backward(x, W, g)[0],
        "Linear dW": reference.linear_backward(x, W, g)[1],
        "Linear db": reference.linear_backward(x, W, g)[2],
        "ReLU forward": reference.relu_forward(h),
        "ReLU backward": reference.relu_backward(h, g),
        "cross-entropy loss": reference.cross_entropy(z, y),
        "cross-entropy gradient": reference.cross_entropy_grad(z, y),
        "SGD update": reference.sgd_steps(W, p_grad, 0.1, 1),
        "MLP forward": reference.mlp_forward(x, W, b, W2, b2),
        "MLP dX": reference.mlp_backward(x, W, b, W2, b2, g2)["x"],
    }
    assert not [k for k, v in at_hand.items() if _answers(v, graded)], "a graded quantity is at hand"
    return at_hand, graded


def _answers(result: Any, graded: dict[str, Any]) -> list[str]:
    """The graded quantities ``result`` (or an array in it) is, to the checks' tolerance."""
    found = []
    for value in result if isinstance(result, (tuple, list)) else (result,):
        try:
            value = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        for name, expected in graded.items():
            if value.shape == np.shape(expected) and np.isfinite(value).all():
                if worst_difference(value, expected)[0] <= 1e-6:
                    found.append(name)
    return found


def _callables() -> list[tuple[str, Callable[..., Any], int]]:
    """Every function of the released helpers, and every suspect's wrong-answer function, with how many arguments
    to give it."""
    found = []
    for module_name in RELEASED:
        module = importlib.import_module(module_name)
        for name, f in vars(module).items():
            if inspect.isfunction(f) and f.__module__ == module.__name__ and not name.startswith(READS_FILES):
                arity = sum(
                    p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                    for p in inspect.signature(f).parameters.values()
                )
                if arity:
                    found.append((f"{module_name}.{name}", f, arity))
    import nn_diagnosis

    for qname, quantity in vars(nn_diagnosis).items():
        if isinstance(quantity, nn_diagnosis.Quantity):
            for s in quantity.suspects:
                for f in (s.gives, s.shows):
                    if f is not None:
                        found.append((f"{qname}: {s.cause.id}", f, 1))
    return found


CALLS_EACH = 300
"""Random argument lists tried on each function (about 20,000 calls in all, a few seconds)."""


def _fresh(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


def test_no_released_function_computes_a_graded_quantity_on_arrays_a_student_chooses() -> None:
    """Every function of every released helper, called with the arrays at hand (positionally, and the suspects' with
    every keyword they name), returns no graded quantity."""
    at_hand, graded = _case()
    calls, hits = _call_every_function(at_hand, graded, np.random.default_rng(0), list(at_hand))
    assert calls > 50 * CALLS_EACH
    assert not hits, hits[:10]


def _call_every_function(
    at_hand: dict[str, Any], graded: Any, rng: np.random.Generator, keys: list[str]
) -> tuple[int, list[str]]:
    hits, calls = [], 0
    for name, f, arity in _callables():
        keywords = [p.name for p in inspect.signature(f).parameters.values() if p.kind == p.KEYWORD_ONLY]
        for _ in range(CALLS_EACH):
            args = [_fresh(at_hand[k]) for k in rng.choice(keys, size=min(arity, 4))]
            kwargs = {k: _fresh(at_hand[str(rng.choice(keys))]) for k in keywords}
            if ":" in name:  # a suspect: its lambda reads the inputs it names as keywords (x, W, g, z, ...)
                kwargs = {k: _fresh(at_hand[str(rng.choice(keys))]) for k in SUSPECT_INPUTS}
            calls += 1
            try:
                with np.errstate(all="ignore"), contextlib.redirect_stdout(io.StringIO()):
                    result = f(*args, **kwargs)
            except BaseException:  # noqa: BLE001 - arrays it was not meant for
                continue
            hits += [f"{name}{tuple(args)!r:.80}: {answer}" for answer in _answers(result, graded)]
    return calls, hits


SUSPECT_INPUTS = ("x", "W", "b", "g", "x_stale", "z", "y", "start", "grad", "lr", "steps", "W1", "b1", "W2", "b2")
"""Every input a suspect's wrong answer ever read: a suspect reads them for their shapes only."""


def test_the_old_oracles_are_gone_from_the_released_helpers() -> None:
    import nn_checks
    import nn_diagnosis

    for module, names in (
        (nn_checks, ("numerical_gradient", "check_module_gradients")),
        (nn_diagnosis, ("_unshifted_grad", "_log_p_target", "_softmax_over_batch", "_onehot", "_rows_can_overflow")),
    ):
        assert not [n for n in names if hasattr(module, n)], module.__name__
