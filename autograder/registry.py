"""Every hidden check of the assignment, declared once: everything that needs the list of checks reads it here.

Trusted side. The hidden test cells (``cli/hidden_cells.py`` writes them), the worker's manifest, the verification
(``grading/verify.py``), the in-process run of ``autograder.check_<name>``, the kit's catalogues and the benchmark all
read ``CHECKS``. Probes, judges and input builders are named, not imported, so importing this module imports none of
them (the judges need the course's helper modules); ``probe_of``, ``judge_of`` and ``inputs_of`` load them on use.
The probes themselves never import this module: a sandboxed worker gets ``manifest()`` as plain JSON.

Adding a check is one ``Check`` below, its probe, its judge and its inputs; moving points is its ``points``; then
``python -m autograder regenerate`` writes everything generated from this table (hidden test cells, points tables,
editions, release, solutions).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autograder.cell_ids import hidden_cell_id

SETUP_CELL = "setup"
"""The locked cell every answer cell runs after (imports, the course's base classes)."""


@dataclass(frozen=True)
class Check:
    """One hidden check: the cell ``test_<name>`` calls ``autograder.check_<name>(<cls>)``."""

    name: str
    title: str  # what the hidden cell says it tests
    part: str  # the notebook's part it counts in: the answer cell's grade_id, or a section of its own
    cls: str  # the student's class the probe exercises
    probe: str  # "<module>.<function>" in autograder.probe: calls the class on the inputs, records what came
    judge: str  # "<module>.<function>" in autograder.judge: decides on the records
    inputs: str  # function in autograder.judge.inputs: the hidden inputs, drawn from the grading secret
    points: int
    short: str  # its name in the points tables, within its part's row: "forward" in "forward 8, dX 6"
    answer: str = ""  # grade_id of the answer cell defining ``cls``, if not ``part``
    also_costs: tuple[str, ...] = ()  # other answer cells whose mistakes may cost this check
    slow: bool = False  # trains on MNIST: a sandboxed worker of its own, and not in the fast test tier

    @property
    def cell(self) -> str:
        """grade_id of the hidden test cell."""
        return hidden_cell_id(self.name)

    @property
    def answer_cell(self) -> str:
        return self.answer or self.part


# Two lines a check, by keyword: the registry reads as a table (kept so by `fmt: off`).
# fmt: off
CHECKS: tuple[Check, ...] = (
    Check("linear_forward", "Linear.forward", part="linear", cls="Linear", points=8, short="forward",
          probe="linear.linear_forward", judge="linear.judge_forward", inputs="linear_cases"),
    Check("linear_backward_dx", "Linear.backward, dX", part="linear", cls="Linear", points=6, short="dX",
          probe="linear.linear_backward", judge="linear.judge_backward_dx", inputs="linear_cases"),
    Check("linear_backward_dw", "Linear.backward, W.grad", part="linear", cls="Linear", points=6, short="dW",
          probe="linear.linear_backward", judge="linear.judge_backward_dw", inputs="linear_cases"),
    Check("linear_backward_db", "Linear.backward, b.grad", part="linear", cls="Linear", points=5, short="db",
          probe="linear.linear_backward", judge="linear.judge_backward_db", inputs="linear_cases"),
    Check("relu_forward", "ReLU.forward", part="relu", cls="ReLU", points=5, short="forward",
          probe="relu.relu_forward", judge="relu.judge_forward", inputs="relu_forward_cases"),
    Check("relu_backward", "ReLU.backward", part="relu", cls="ReLU", points=7, short="backward",
          probe="relu.relu_backward", judge="relu.judge_backward", inputs="relu_backward_cases"),
    Check("cross_entropy_forward", "CrossEntropyLoss.forward", part="cross_entropy", cls="CrossEntropyLoss",
          points=8, short="forward",
          probe="loss.cross_entropy_forward", judge="loss.judge_forward", inputs="classification_cases"),
    Check("cross_entropy_backward", "CrossEntropyLoss.backward", part="cross_entropy", cls="CrossEntropyLoss",
          points=8, short="backward",
          probe="loss.cross_entropy_backward", judge="loss.judge_backward", inputs="classification_cases"),
    Check("sgd_step", "SGD.step", part="sgd", cls="SGD", points=10, short="step",
          probe="sgd.sgd_step", judge="sgd.judge_step", inputs="sgd_cases"),
    Check("mlp_forward", "MLP.forward", part="mlp", cls="MLP", points=6, short="forward",
          probe="mlp.mlp_forward", judge="mlp.judge_forward", inputs="mlp_forward_cases"),
    Check("mlp_backward", "MLP.backward", part="mlp", cls="MLP", points=11, short="backward",
          probe="mlp.mlp_backward", judge="mlp.judge_backward", inputs="mlp_backward_cases"),
    # The gate trains the student's MLP, built from the student's Linear and ReLU: their mistakes may cost it too.
    Check("mnist_accuracy", "MNIST accuracy (the grader trains your MLP)", part="mnist", cls="MLP",
          points=20, short="accuracy ≥ 97 %",
          probe="gate.mnist_accuracy", judge="gate.judge_accuracy", inputs="gate_recipe",
          answer="mlp", also_costs=("linear", "relu"), slow=True),
)
# fmt: on
BY_NAME: dict[str, Check] = {check.name: check for check in CHECKS}


def check(name: str) -> Check:
    """The check called ``name`` (e.g. "linear_backward_dw")."""
    return BY_NAME[name]


SECTIONS = {"mnist": "MNIST"}
"""The parts that are a section of the notebook of their own, not an answer cell, and their name in the points
tables (an answer cell's part is named by its class)."""


def part_label(part: str) -> str:
    """A part's name in the points tables: its class as code (`` `Linear` ``), or its section's name."""
    return SECTIONS.get(part) or f"`{answers()[part]}`"


def parts() -> tuple[str, ...]:
    """The notebook's graded parts, in order (the rows of its points table)."""
    return tuple(dict.fromkeys(c.part for c in CHECKS))


def answers() -> dict[str, str]:
    """The answer cells the student writes, in notebook order, and the class each defines."""
    return {c.answer_cell: c.cls for c in CHECKS}


def answer_cells() -> tuple[str, ...]:
    """Every cell the student's classes are made from: the setup cell, then the answer cells."""
    return (SETUP_CELL, *answers())


def cells_of_part(part: str) -> tuple[str, ...]:
    """The hidden test cells counting in ``part``."""
    return tuple(c.cell for c in CHECKS if c.part == part)


def cells_a_part_may_cost(answer: str) -> set[str]:
    """The hidden test cells a mistake in the answer cell ``answer`` may lose points on."""
    return {c.cell for c in CHECKS if c.answer_cell == answer or answer in c.also_costs}


def fast_checks() -> tuple[Check, ...]:
    return tuple(c for c in CHECKS if not c.slow)


LAYER_PROBES = frozenset({"linear", "relu", "loss", "sgd"})
"""The probe modules of the layers (one a part, paired with the judge of the same name): their fast checks share one
worker (``worker_groups``)."""


def worker_groups() -> tuple[tuple[str, ...], ...]:
    """Checks run together in one sandboxed worker: the fast checks of the layers' probe modules together, those of
    each other probe module together, each slow check alone.

    A worker's start-up costs about as much as all fast probes together; a crash still costs only the check that
    was running (``grading.workers.run_group``). The MLP probes hold correct stand-in layers, so they never share a
    process with the checks of the layers themselves: a worker holds nothing a student could call for a right answer.
    """
    workers: dict[str, list[str]] = {}
    for c in fast_checks():
        module = c.probe.split(".")[0]
        workers.setdefault("layers" if module in LAYER_PROBES else module, []).append(c.name)
    return (*(tuple(names) for names in workers.values()), *((c.name,) for c in CHECKS if c.slow))


def manifest(names: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """What a sandboxed worker needs to run ``names``: each check's probe module, function and class (plain JSON)."""
    entries = {}
    for name in names:
        module, function = BY_NAME[name].probe.split(".")
        entries[name] = {"module": module, "function": function, "class": BY_NAME[name].cls}
    return entries


def _load(package: str, dotted: str) -> Callable[..., Any]:
    module, function = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(f"autograder.{package}.{module}"), function)


def probe_of(name: str) -> Callable[[type, dict[str, Any]], list[dict[str, Any]]]:
    """The probe of ``name``, loaded in this process (the grader itself only runs probes in a sandboxed worker)."""
    return _load("probe", BY_NAME[name].probe)


def judge_of(name: str) -> Callable[[dict[str, Any], list[dict[str, Any]]], str | None]:
    return _load("judge", BY_NAME[name].judge)


def inputs_of(name: str) -> Callable[..., dict[str, Any]]:
    return _load("judge", f"inputs.{BY_NAME[name].inputs}")


def hidden_cell_comment(check: Check) -> str:
    """What ``check``'s hidden test cell says (its comment line, which the release keeps): its title and points."""
    return f"Hidden tests of {check.title} ({check.points} points) run here when your work is graded."


def hidden_cell_source(check: Check) -> str:
    """The source of ``check``'s hidden test cell: one quiet call, hidden from students by nbgrader."""
    return (
        f"# {hidden_cell_comment(check)}\n"
        f"### BEGIN HIDDEN TESTS\nimport autograder; autograder.check_{check.name}({check.cls});\n"
        "### END HIDDEN TESTS"
    )
