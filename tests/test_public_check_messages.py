"""What the public checks and the checking helpers print when something goes wrong: the student's error explained,
no invented cause, no crash of the check itself (fast tier). Found missing by the mutation benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import grading  # noqa: E402
import nn_public  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.cli.classroom import Edit  # noqa: E402
from nn_checks import CheckFailed, fail, render_message  # noqa: E402


def _mlp(old: str, new: str) -> type:
    return grading.namespace(grading.catalogue_code((Edit("mlp", old, new),)), "<public>")["MLP"]


def test_an_mlp_forward_that_raises_is_explained_not_a_crash_of_the_check() -> None:
    """A typo in forward's ReLU line: the public check reports the NameError, with the line, not a TypeError of its
    own (``nn_diagnosis.run_recorded``)."""
    MLP = _mlp("return self.fc2(self.relu(self.fc1(x)))", "return self.fc2(self.rleu(self.fc1(x)))")
    with pytest.raises(CheckFailed) as failed:
        nn_public.check_mlp(MLP)
    message = str(failed.value)
    assert "raised AttributeError" in message and "rleu" in message, message
    assert "TypeError" not in message, message


def test_a_failure_without_a_hint_names_no_cause() -> None:
    with pytest.raises(AssertionError) as failed:
        fail("Linear.forward", "shape (2, 3)", "shape (3, 2)")
    assert "Likely cause" not in str(failed.value), str(failed.value)
    with pytest.raises(AssertionError, match="Likely cause: the hint"):
        fail("Linear.forward", "shape (2, 3)", "shape (3, 2)", "the hint")


def test_a_message_is_rendered_for_the_notebook_wrapped_with_its_first_line_in_red() -> None:
    message = "Linear.forward: " + "expected something long " * 8 + "\n  Likely cause: a short one."
    lines = render_message(message, width=40)
    assert lines[0].startswith("\x1b[1;31m") and lines[0].endswith("\x1b[0m"), lines
    assert all(len(line) <= 40 for line in lines[1:]), lines
    assert any(line.startswith("  Likely cause:") for line in lines), lines


def test_every_check_is_grouped_with_its_probe_module_and_the_gate_alone() -> None:
    """A worker holds either the layers' probes or the MLP's (whose stand-ins are correct layers), never both; the
    gate runs alone. One worker per probe module, not one per check (each worker costs a start-up)."""
    groups = registry.worker_groups()
    modules = [{registry.check(name).probe.split(".")[0] for name in group} for group in groups]
    assert all(len(found) == 1 for found in modules), modules
    assert sorted(next(iter(found)) for found in modules) == sorted({"layers", "mlp", "gate"}), modules
    assert ("mnist_accuracy",) in groups
