"""Hidden checks of ``Linear``: Y = X W + b, dX = G Wᵀ, dW = Xᵀ G, db = Σ_i G_i."""
import numpy as np
from nn_checks import FD_TOLERANCE, check_array, check_dtype, check_shape, check_unchanged, numerical_gradient
from nn_core import Parameter
from nn_diagnosis import LINEAR_DB, LINEAR_DW, LINEAR_DX, LINEAR_FORWARD, Quantity

from autograder import reference
from autograder.cases import LinearCase, linear_cases
from autograder.common import VALUE_TOLERANCE, run_student
from autograder.limits import time_limit

KEEP_DTYPE = "a cast (astype, np.float32, ...) changed the precision; keep the dtype of x and of the parameters"


def _layer(Linear: type, case: LinearCase, dtype=np.float64):
    """A student ``Linear`` whose parameters hold the case's values."""
    d_in, d_out = case.W.shape
    layer = run_student(f"Linear({d_in}, {d_out})", Linear, d_in, d_out)
    given = "Linear.__init__ is given code: keep W of shape (in_features, out_features) and b of shape (out_features,)"
    check_shape(f"Linear({d_in}, {d_out}).W", layer.W, (d_in, d_out), given)
    check_shape(f"Linear({d_in}, {d_out}).b", layer.b, (d_out,), given)
    layer.W = Parameter(case.W, dtype=dtype)
    layer.b = Parameter(case.b, dtype=dtype)
    return layer


def _name(case: LinearCase) -> str:
    return f"Linear({case.W.shape[0]}, {case.W.shape[1]}) with x of shape {case.x.shape}"


def _inputs(case: LinearCase) -> dict[str, np.ndarray]:
    """What a diagnosis may compute wrong answers from."""
    return {"x": case.x, "x_stale": case.x_stale, "W": case.W, "b": case.b, "g": case.g}


def check_linear_forward(Linear: type) -> None:
    """Values, shape and dtype of Y = X W + b; x is not modified; float32 layers work too."""
    with time_limit("Linear.forward"):
        for case in linear_cases("linear_forward"):
            layer = _layer(Linear, case)
            x = case.x.copy()
            what = f"{_name(case)}: forward(x)"
            y = run_student(what, layer, x, formula=LINEAR_FORWARD.formula)
            LINEAR_FORWARD.check(what, y, reference.linear_forward(case.x, case.W, case.b), VALUE_TOLERANCE, **_inputs(case))
            check_dtype(f"{what} for float64 x, W, b", y, np.float64, KEEP_DTYPE)
            check_unchanged(what, x, case.x)
            fresh = run_student(f"Linear{case.W.shape}", Linear, *case.W.shape)
            y32 = run_student(f"{what} for a new float32 layer", fresh, case.x.astype(np.float32))
            check_array(f"{what} for a new float32 layer", y32)
            check_shape(f"{what} for a new float32 layer", y32, (case.x.shape[0], case.W.shape[1]))


_BACKWARD: dict[str, tuple[int, str, Quantity]] = {  # gradient w.r.t. -> (position in reference.linear_backward, what the student produces, quantity)
    "x": (0, "dX returned by backward(grad)", LINEAR_DX),
    "W": (1, "W.grad after backward(grad)", LINEAR_DW),
    "b": (2, "b.grad after backward(grad)", LINEAR_DB),
}


def _backward(Linear: type, case: LinearCase, wrt: str):
    """forward(stale x), forward(x), backward(G): backward must use the latest input and leave G alone.

    One slip costs only its own cell: a forward that raised after saving its input, and (for W.grad
    and b.grad) a backward that stored the gradient and then raised, still get the gradient checked.
    """
    quantity = _BACKWARD[wrt][2]
    layer = _layer(Linear, case)
    forward_failure = None
    for x in (case.x_stale, case.x):
        try:  # forward has its own cell: a forward that saved its input and then raised still lets backward be checked
            run_student(f"{_name(case)}: forward(x)", layer, x.copy(), formula=LINEAR_FORWARD.formula)
        except AssertionError as failure:
            forward_failure = failure
    g = case.g.copy()
    try:
        dx = run_student(f"{_name(case)}: backward(grad)", layer.backward, g, formula=quantity.formula)
    except AssertionError:
        if forward_failure is not None:
            raise forward_failure from None
        if wrt == "x" or getattr(layer, wrt).grad is None:
            raise
        dx = None
    check_unchanged(f"{_name(case)}: backward(grad)", g, case.g)
    return layer, dx


def _numeric(case: LinearCase, wrt: str) -> np.ndarray:
    """Finite differences of sum(Y * G) for the reference Y = X W + b, w.r.t. ``wrt`` in {"x", "W", "b"}."""
    arrays = {"x": case.x.copy(), "W": case.W.copy(), "b": case.b.copy()}
    return numerical_gradient(lambda: np.sum(reference.linear_forward(arrays["x"], arrays["W"], arrays["b"]) * case.g), arrays[wrt])


def _check_gradient_wrt(Linear: type, wrt: str) -> None:
    """One backward result against the reference and finite differences, on every hidden case."""
    position, produced, quantity = _BACKWARD[wrt]
    with time_limit("Linear.backward"):
        for case in linear_cases(f"linear_backward_{wrt.lower()}"):
            layer, dx = _backward(Linear, case, wrt)
            result = {"x": dx, "W": layer.W.grad, "b": layer.b.grad}[wrt]
            what = f"{_name(case)}: {produced}"
            quantity.check(what, result, reference.linear_backward(case.x, case.W, case.g)[position], VALUE_TOLERANCE, **_inputs(case))
            check_dtype(what, result, np.float64, KEEP_DTYPE)
            quantity.check(f"{what} (finite-difference check)", result, _numeric(case, wrt), FD_TOLERANCE, **_inputs(case))


def check_linear_backward_dx(Linear: type) -> None:
    """backward(G) returns dX = G Wᵀ (shape of x), checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "x")


def check_linear_backward_dw(Linear: type) -> None:
    """backward(G) sets W.grad = Xᵀ G for the latest input x, checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "W")


def check_linear_backward_db(Linear: type) -> None:
    """backward(G) sets b.grad = Σ_i G_i (shape (D_out,)), checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "b")
