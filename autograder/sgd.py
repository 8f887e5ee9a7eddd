"""Hidden checks of ``SGD.step``: θ ← θ − η ∂L/∂θ, in place, skipping parameters without a gradient."""
import numpy as np
from nn_checks import check_dtype, check_unchanged, fail
from nn_core import Parameter
from nn_diagnosis import SGD_UPDATE, explain

from autograder.common import run_student
from autograder.limits import time_limit
from autograder.secret import rng_for

SKIP_NONE = "a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)"
NONE_GRAD = ((TypeError, "NoneType", SKIP_NONE),)


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
        optimizer = run_student(f"SGD(params, lr={lr:.3f})", SGD, params, lr)
        for steps in (1, 2):
            run_student(f"SGD(params, lr={lr:.3f}).step()", optimizer.step, causes=NONE_GRAD, formula=SGD_UPDATE.formula)
            for i, p in enumerate(params):
                what = f"SGD(params, lr={lr:.3f}) after {steps} step(s): parameter {i} of shape {p.shape}"
                if optimizer.params[i] is not p:
                    fail(what, "optimizer.params to hold the same Parameter objects", f"{type(optimizer.params[i]).__name__} at position {i}",
                         "step replaced the list's entries; update each array in place instead")
                if i == skipped:
                    if not np.array_equal(views[i], start[i]):
                        raise AssertionError(explain(f"{what} whose .grad is None: expected it unchanged, got it changed", SKIP_NONE))
                    continue
                expected = start[i].astype(np.float64) - steps * lr * grads[i].astype(np.float64)
                SGD_UPDATE.check(what, views[i], expected, 1e-5, start=start[i], grad=grads[i], lr=lr, steps=steps)
                check_dtype(what, p, np.float32, "the update must keep the parameter float32 (update in place)")
                check_unchanged(f"{what}: its .grad", p.grad, grads[i])
        if not all(isinstance(p, Parameter) for p in optimizer.params):
            fail("SGD.step", "optimizer.params to remain Parameters", str([type(p).__name__ for p in optimizer.params]),
                 "step replaced the list's entries; update each array in place instead")
