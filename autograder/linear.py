"""Hidden checks of ``Linear``: Y = X W + b, dX = G Wᵀ, dW = Xᵀ G, db = Σ_i G_i."""
import numpy as np
from nn_checks import check_array, check_close, check_dtype, check_gradient, check_shape, numerical_gradient
from nn_core import Parameter

from autograder import reference
from autograder.cases import LinearCase, linear_cases
from autograder.common import VALUE_TOLERANCE, check_unchanged
from autograder.limits import time_limit

KEEP_DTYPE = "a cast (astype, np.float32, ...) changed the precision; keep the dtype of x and of the parameters"


def _layer(Linear: type, case: LinearCase, dtype=np.float64):
    """A student ``Linear`` whose parameters hold the case's values."""
    d_in, d_out = case.W.shape
    layer = Linear(d_in, d_out)
    given = "Linear.__init__ is given code: keep W of shape (in_features, out_features) and b of shape (out_features,)"
    check_shape(f"Linear({d_in}, {d_out}).W", layer.W, (d_in, d_out), given)
    check_shape(f"Linear({d_in}, {d_out}).b", layer.b, (d_out,), given)
    layer.W = Parameter(case.W, dtype=dtype)
    layer.b = Parameter(case.b, dtype=dtype)
    return layer


def _name(case: LinearCase) -> str:
    return f"Linear({case.W.shape[0]}, {case.W.shape[1]}) with x of shape {case.x.shape}"


def _backward(Linear: type, case: LinearCase):
    """forward(stale x), forward(x), backward(G): backward must use the latest input and leave G alone."""
    layer = _layer(Linear, case)
    layer(case.x_stale.copy())
    layer(case.x.copy())
    g = case.g.copy()
    dx = layer.backward(g)
    check_unchanged(f"{_name(case)}: backward(grad)", g, case.g)
    return layer, dx


def _numeric(case: LinearCase, wrt: str) -> np.ndarray:
    """Finite differences of sum(Y * G) for the reference Y = X W + b, w.r.t. ``wrt`` in {"x", "W", "b"}."""
    arrays = {"x": case.x.copy(), "W": case.W.copy(), "b": case.b.copy()}
    return numerical_gradient(lambda: np.sum(reference.linear_forward(arrays["x"], arrays["W"], arrays["b"]) * case.g), arrays[wrt])


def check_linear_forward(Linear: type) -> None:
    """Values, shape and dtype of Y = X W + b; x is not modified; float32 layers work too."""
    with time_limit("Linear.forward"):
        for case in linear_cases("linear_forward"):
            layer = _layer(Linear, case)
            x = case.x.copy()
            what = f"{_name(case)}: forward(x)"
            y = layer(x)
            check_close(what, y, reference.linear_forward(case.x, case.W, case.b), VALUE_TOLERANCE,
                        "Y = X W + b: X (B, D_in) @ W (D_in, D_out), then b added to every row")
            check_dtype(f"{what} for float64 x, W, b", y, np.float64, KEEP_DTYPE)
            check_unchanged(what, x, case.x)
            fresh = Linear(*case.W.shape)
            y32 = fresh(case.x.astype(np.float32))
            check_array(f"{what} for a new float32 layer", y32)
            check_shape(f"{what} for a new float32 layer", y32, (case.x.shape[0], case.W.shape[1]))


_BACKWARD = {  # gradient w.r.t. -> (position in reference.linear_backward, what the student must produce, hint)
    "x": (0, "dX returned by backward(grad)", "dX = G Wᵀ, of shape (B, D_in); backward must `return` it"),
    "W": (1, "W.grad after backward(grad)",
          "dW = Xᵀ G, of the shape of W (D_in, D_out), with X the input of the latest forward; store it in self.W.grad"),
    "b": (2, "b.grad after backward(grad)",
          "db = Σ_i G_i: sum G over the batch axis (axis=0) so that db has the shape of b, (D_out,); store it in self.b.grad"),
}


def _check_gradient_wrt(Linear: type, wrt: str) -> None:
    """One backward result against the reference and finite differences, on every hidden case."""
    position, produced, hint = _BACKWARD[wrt]
    with time_limit("Linear.backward"):
        for case in linear_cases(f"linear_backward_{wrt.lower()}"):
            layer, dx = _backward(Linear, case)
            result = {"x": dx, "W": layer.W.grad, "b": layer.b.grad}[wrt]
            what = f"{_name(case)}: {produced}"
            check_close(what, result, reference.linear_backward(case.x, case.W, case.g)[position], VALUE_TOLERANCE, hint)
            check_dtype(what, result, np.float64, KEEP_DTYPE)
            check_gradient(what, result, _numeric(case, wrt), hint)


def check_linear_backward_dx(Linear: type) -> None:
    """backward(G) returns dX = G Wᵀ (shape of x), checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "x")


def check_linear_backward_dw(Linear: type) -> None:
    """backward(G) sets W.grad = Xᵀ G for the latest input x, checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "W")


def check_linear_backward_db(Linear: type) -> None:
    """backward(G) sets b.grad = Σ_i G_i (shape (D_out,)), checked against the reference and finite differences."""
    _check_gradient_wrt(Linear, "b")
