"""Hidden checks of ``ReLU``: H ↦ max(H, 0), backward G ⊙ 1(H > 0)."""
import numpy as np
from nn_checks import check_close, check_dtype, check_gradient, numerical_gradient

from autograder import reference
from autograder.cases import away_from_zero, relu_inputs
from autograder.common import VALUE_TOLERANCE, check_unchanged
from autograder.limits import time_limit
from autograder.secret import rng_for

KEEP_DTYPE = "a cast changed the precision; keep the dtype of the input"


def check_relu_forward(ReLU: type) -> None:
    """max(H, 0) elementwise, same shape and dtype, input not modified."""
    with time_limit("ReLU.forward"):
        for h in relu_inputs("relu_forward"):
            what = f"ReLU().forward(x) for x of shape {h.shape}"
            x = h.copy()
            y = ReLU()(x)
            check_close(what, y, reference.relu_forward(h), VALUE_TOLERANCE, "ReLU(H) = max(H, 0), elementwise (np.maximum, not np.max)")
            check_dtype(what, y, np.float64, KEEP_DTYPE)
            check_unchanged(what, x, h)


def check_relu_backward(ReLU: type) -> None:
    """G ⊙ 1(H > 0) with H the latest input (0 where H == 0), input G unmodified, finite differences away from the kink."""
    rng = rng_for("relu_backward")
    with time_limit("ReLU.backward"):
        for h in relu_inputs("relu_backward"):
            what = f"ReLU().backward(grad) for x of shape {h.shape}"
            hint = "dX = G ⊙ 1(H > 0): the mask comes from the input H of the latest forward and is 0 where H ≤ 0, including H = 0 exactly"
            g = rng.standard_normal(h.shape)
            relu = ReLU()
            relu(rng.standard_normal(h.shape))
            relu(h.copy())
            g_given = g.copy()
            dx = relu.backward(g_given)
            check_close(what, dx, reference.relu_backward(h, g), VALUE_TOLERANCE, hint)
            check_dtype(what, dx, np.float64, KEEP_DTYPE)
            check_unchanged(what, g_given, g)
            smooth = away_from_zero(rng, h.shape)
            relu(smooth.copy())
            dx = relu.backward(g.copy())
            numeric = numerical_gradient(lambda: np.sum(reference.relu_forward(smooth) * g), smooth)
            check_gradient(what, dx, numeric, hint)
