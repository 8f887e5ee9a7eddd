"""Hidden checks of ``SGD.step``: θ ← θ − η ∂L/∂θ, in place, skipping parameters without a gradient."""
import numpy as np
from nn_checks import check_close, check_dtype, fail
from nn_core import Parameter

from autograder.common import check_unchanged
from autograder.limits import time_limit
from autograder.secret import rng_for

HINT = "θ ← θ − η ∂L/∂θ for every parameter with a gradient, changing the array itself (`-=` or `p[...] = ...`); a plain `p = p - ...` only rebinds a local name"


def check_sgd_step(SGD: type) -> None:
    """Two steps with a secret lr over float32 parameters; one parameter has no gradient and must not move."""
    rng = rng_for("sgd_step")
    shapes = [(4, 3), (3,), (2, 5), (1,), (5, 1)]
    params = [Parameter(rng.standard_normal(shape)) for shape in shapes]
    grads = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    skipped = int(rng.integers(len(shapes)))
    for i, p in enumerate(params):
        p.grad = None if i == skipped else grads[i].copy()
    start = [np.array(p) for p in params]
    views = [p.view(np.ndarray) for p in params]  # see every in-place update of the original arrays
    lr = float(rng.uniform(0.05, 0.5))
    with time_limit("SGD.step"):
        optimizer = SGD(params, lr=lr)
        for steps in (1, 2):
            optimizer.step()
            for i, p in enumerate(params):
                what = f"SGD(params, lr={lr:.3f}) after {steps} step(s): parameter {i} of shape {p.shape}"
                if optimizer.params[i] is not p:
                    fail(what, "optimizer.params to hold the same Parameter objects", f"{type(optimizer.params[i]).__name__} at position {i}", HINT)
                if i == skipped:
                    check_close(f"{what} whose .grad is None", views[i], start[i], 0.0, "skip parameters whose .grad is None (`if p.grad is None: continue`)")
                    continue
                expected = start[i].astype(np.float64) - steps * lr * grads[i].astype(np.float64)
                check_close(what, views[i], expected, 1e-5, HINT)
                check_dtype(what, p, np.float32, "the update must keep the parameter float32 (update in place)")
                check_unchanged(f"{what}: its .grad", p.grad, grads[i])
        if not all(isinstance(p, Parameter) for p in optimizer.params):
            fail("SGD.step", "optimizer.params to remain Parameters", str([type(p).__name__ for p in optimizer.params]), HINT)
