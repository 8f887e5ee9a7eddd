"""What the kit tells a student, pinned: every hidden check's and every public check's verdict and words, in every
language, on every catalogued mistake, correct variant, corpus submission and raising method (issues 27 and 28).

``python tests/pinned_outputs.py --write`` records them in ``tests/pinned/outputs.json``;
``tests/test_pinned_outputs.py`` computes them again and fails on any difference, naming the submission, the check
and the language. The file changes only when a message is meant to change: rewrite it then, and read its diff (the
diff is the review of the new wording). Everything runs in this process under one fixed secret (no nbgrader, no
sandbox, no MNIST): the same probes, judges and public checks the notebook runs, on the same inputs.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "source" / "mlp"))
from nn_languages import LANGUAGES  # noqa: E402
from nn_messages import CheckFailed, Failure  # noqa: E402

import grading  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.classroom import Edit  # noqa: E402
from catalogue.mistakes import MISTAKES, VARIANTS  # noqa: E402

PINNED = Path(__file__).resolve().parent / "pinned" / "outputs.json"
SECRET = grading.SECRETS[0]
BOOM = 'raise ValueError("boom")\n        '

# A method that raises before its first line, for every method a check calls: the failure then explains the
# student's error (its formula, its hint) instead of comparing values, a path no mistake reaches.
RAISING: dict[str, tuple[Edit, ...]] = {
    "linear_init": (Edit("linear", "self.W = Parameter(", BOOM + "self.W = Parameter("),),
    "linear_forward": (Edit("linear", 'self.ctx["x"] = x\n', BOOM + 'self.ctx["x"] = x\n'),),
    "linear_backward": (Edit("linear", 'x = self.ctx["x"]\n', BOOM + 'x = self.ctx["x"]\n'),),
    "relu_forward": (Edit("relu", 'self.ctx["mask"] = x > 0\n', BOOM + 'self.ctx["mask"] = x > 0\n'),),
    "relu_backward": (Edit("relu", 'return grad * self.ctx["mask"]', BOOM + 'return grad * self.ctx["mask"]'),),
    "mlp_forward": (
        Edit("mlp", "return self.fc2(self.relu(self.fc1(x)))", BOOM + "return self.fc2(self.relu(self.fc1(x)))"),
    ),
    "mlp_backward": (Edit("mlp", "return self.fc1.backward(grad)", BOOM + "return self.fc1.backward(grad)"),),
    "sgd_step": (Edit("sgd", "p -= self.lr * p.grad", BOOM + "p -= self.lr * p.grad"),),
}
# Paths only a property check reaches: an input changed in place, a float32 input refused.
PROPERTIES: dict[str, tuple[Edit, ...]] = {
    "linear_forward_changes_x": (
        Edit("linear", "return x @ self.W + self.b", "y = x @ self.W + self.b\n        x *= 0.5\n        return y"),
    ),
    "linear_forward_refuses_float32": (
        Edit(
            "linear",
            "return x @ self.W + self.b",
            'if x.dtype == np.float32:\n            raise TypeError("float64 only")\n'
            "        return x @ self.W + self.b",
        ),
    ),
    "mlp_backward_changes_grad": (
        Edit("mlp", "grad = self.fc2.backward(grad)", "grad *= 1.5\n        grad = self.fc2.backward(grad)"),
    ),
}
# Given code changed: the hidden and the public checks name the given __init__.
GIVEN_CHANGED: dict[str, tuple[Edit, ...]] = {
    "linear_b_2d": (
        Edit("linear", "self.b = Parameter(np.zeros(out_features))", "self.b = Parameter(np.zeros((1, out_features)))"),
    ),
}


def submissions() -> dict[str, str]:
    """Every pinned submission's answer code, by a name that says where it comes from."""
    found = {f"mistake:{m.name}": grading.catalogue_code(m.edits) for m in MISTAKES}
    found |= {f"variant:{v.name}": grading.catalogue_code(v.edits) for v in VARIANTS}
    found |= {f"corpus:{name}": code for name, code in grading.corpus().items()}
    found |= {f"raising:{name}": grading.catalogue_code(edits) for name, edits in RAISING.items()}
    found |= {f"given:{name}": grading.catalogue_code(edits) for name, edits in GIVEN_CHANGED.items()}
    found |= {f"property:{name}": grading.catalogue_code(edits) for name, edits in PROPERTIES.items()}
    found["reference"] = grading.catalogue_code(())
    return found


def _words(failure: Failure) -> dict[str, Any]:
    """A failure as pinned: its message and cause ids, and its words in every language."""
    return {
        "message": failure.message.id,
        "cause": failure.cause.id if failure.cause is not None else None,
        **{language: failure.render(language) for language in LANGUAGES},
    }


def _public_checks() -> dict[str, tuple[str, Callable[[type], None]]]:
    import nn_public

    return {
        "linear": ("Linear", nn_public.check_linear),
        "relu": ("ReLU", nn_public.check_relu),
        "cross_entropy": ("CrossEntropyLoss", nn_public.check_cross_entropy),
        "sgd": ("SGD", nn_public.check_sgd),
        "mlp": ("MLP", nn_public.check_mlp),
    }


def _public(names: dict[str, Any]) -> dict[str, Any]:
    """Each public check's outcome: what it printed when it passed, its failure when not."""
    outcomes: dict[str, Any] = {}
    for part, (cls, check) in _public_checks().items():
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                check(names[cls])
        except CheckFailed as failed:
            outcomes[part] = _words(failed.failure)
        else:
            outcomes[part] = {"printed": printed.getvalue()}
    return outcomes


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def outputs_of(code: str, name: str) -> dict[str, Any]:
    """What the hidden checks and the public checks say of one submission."""
    with _quiet():
        lost = grading.failures_of(code, f"<{name}>", SECRET)  # shared with tests/test_feedback_carries_the_notebook
        hidden = {check: _words(failure) for check, failure in lost.items()}
        with grading.secret(SECRET):
            names = grading.namespace(code, f"<{name}>")  # the public checks' own, as the notebook's kernel is
    return {"hidden": hidden, "public": _public(names)}


def outputs() -> dict[str, Any]:
    """Every pinned submission's outputs, with the checks they were computed for."""
    return {
        "checks": sorted(check.name for check in registry.fast_checks()),
        "submissions": {name: outputs_of(code, name) for name, code in sorted(submissions().items())},
    }


def write() -> None:
    PINNED.parent.mkdir(exist_ok=True)
    PINNED.write_text(json.dumps(outputs(), indent=1, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {Path(__file__).name} --write   (records {PINNED})")
    write()
    print(f"wrote {PINNED}")
