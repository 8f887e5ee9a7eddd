"""Hidden checks of ``ReLU``: H ↦ max(H, 0), backward G ⊙ 1(H > 0)."""
import numpy as np
from nn_checks import FD_TOLERANCE, check_dtype, check_unchanged, numerical_gradient
from nn_diagnosis import RELU_BACKWARD, RELU_FORWARD

from autograder import reference
from autograder.cases import away_from_zero, relu_inputs
from autograder.common import VALUE_TOLERANCE, run_student
from autograder.limits import time_limit
from autograder.secret import rng_for

KEEP_DTYPE = "a cast changed the precision; keep the dtype of the input"


def check_relu_forward(ReLU: type) -> None:
    """max(H, 0) elementwise, same shape and dtype, input not modified."""
    with time_limit("ReLU.forward"):
        for h in relu_inputs("relu_forward"):
            what = f"ReLU().forward(x) for x of shape {h.shape}"
            x = h.copy()
            y = run_student(what, ReLU(), x, formula=RELU_FORWARD.formula)
            RELU_FORWARD.check(what, y, reference.relu_forward(h), VALUE_TOLERANCE, x=h)
            check_dtype(what, y, np.float64, KEEP_DTYPE)
            check_unchanged(what, x, h)


def check_relu_backward(ReLU: type) -> None:
    """G ⊙ 1(H > 0) with H the latest input (0 where H == 0), input G unmodified, finite differences away from the kink."""
    rng = rng_for("relu_backward")
    with time_limit("ReLU.backward"):
        for h in relu_inputs("relu_backward"):
            what = f"ReLU().backward(grad) for x of shape {h.shape}"
            g = rng.standard_normal(h.shape)
            stale = rng.standard_normal(h.shape)
            relu = ReLU()
            run_student(f"ReLU().forward(x) for x of shape {h.shape}", relu, stale)
            run_student(f"ReLU().forward(x) for x of shape {h.shape}", relu, h.copy())
            g_given = g.copy()
            dx = run_student(what, relu.backward, g_given, formula=RELU_BACKWARD.formula)
            RELU_BACKWARD.check(what, dx, reference.relu_backward(h, g), VALUE_TOLERANCE, x=h, x_stale=stale, g=g)
            check_dtype(what, dx, np.float64, KEEP_DTYPE)
            check_unchanged(what, g_given, g)
            smooth = away_from_zero(rng, h.shape)
            run_student(f"ReLU().forward(x) for x of shape {h.shape}", relu, smooth.copy())
            dx = run_student(what, relu.backward, g.copy(), formula=RELU_BACKWARD.formula)
            numeric = numerical_gradient(lambda: np.sum(reference.relu_forward(smooth) * g), smooth)
            RELU_BACKWARD.check(f"{what} (finite-difference check)", dx, numeric, FD_TOLERANCE, x=smooth, g=g)
