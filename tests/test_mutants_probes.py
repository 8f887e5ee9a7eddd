"""The worker's probes and loader: what mutants of the mutation benchmark (issue 27) changed with no test failing
(fast tier, in this process)."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.probe.core import is_raised
from autograder.probe.mlp import StandInLinear, StandInReLU
from autograder.probe.run import load_answer


@pytest.mark.parametrize("kind", ["linear", "relu"])
def test_a_stand_in_mirrors_the_gradient_it_was_given_where_the_students_layer_kept_it(kind: str) -> None:
    """An MLP that reads ``self.fc2.dvalues`` (the upstream gradient its own layer kept) reads the stand-in's."""
    mirrors = {"grad_in": ["dvalues", "ctx:grad"], "grad_out": ["dinputs"]}
    layer = StandInLinear(np.ones((3, 2)), np.zeros(2), mirrors) if kind == "linear" else StandInReLU(mirrors)
    x, g = np.arange(6.0).reshape(2, 3), np.full((2, 3 if kind == "relu" else 2), 2.0)
    layer(x)
    dx = layer.backward(g)
    assert layer.dvalues is g and layer.ctx["grad"] is g
    assert layer.dinputs is dx


def test_a_cell_that_raises_is_recorded_and_the_other_cells_still_load() -> None:
    cells = [
        {"grade_id": "setup", "source": "import numpy as np\n"},
        {"grade_id": "linear", "source": "class Linear:\n    pass\nraise_here = 1 / 0\n"},
        {"grade_id": "relu", "source": "class ReLU:\n    pass\n"},
    ]
    namespace, errors = load_answer(cells)
    assert set(errors) == {"linear"} and is_raised(errors["linear"]), errors
    assert "Linear" in namespace and "ReLU" in namespace
