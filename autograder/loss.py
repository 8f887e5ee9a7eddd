"""Hidden checks of ``CrossEntropyLoss``: mean −log softmax(Z)[y], dZ = (softmax(Z) − onehot(y)) / B."""
import numpy as np
from nn_checks import FD_TOLERANCE, check_unchanged, fail, numerical_gradient
from nn_diagnosis import CROSS_ENTROPY, CROSS_ENTROPY_GRAD

from autograder import reference
from autograder.cases import classification_cases
from autograder.common import VALUE_TOLERANCE, run_student
from autograder.limits import time_limit
from autograder.secret import rng_for

TARGET_ERRORS = ((IndexError, "", "the targets index the wrong axis: y holds one class index per row, so pick entries with [np.arange(B), y]"),)


def _huge_logits(check: str) -> tuple[np.ndarray, np.ndarray]:
    """Logits of size up to ±1000: exp overflows unless the max is subtracted first."""
    rng = rng_for(check)
    logits = rng.uniform(-1000.0, 1000.0, size=(6, 5))
    return logits, rng.integers(0, 5, size=6)


def _scalar(what: str, loss) -> np.ndarray:
    if np.ndim(loss) != 0 or not np.issubdtype(np.asarray(loss).dtype, np.floating):
        fail(what, "one floating-point number (the mean loss)", f"{type(loss).__name__} of shape {np.shape(loss)}",
             "the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`")
    return np.asarray(loss, dtype=np.float64)


def _name(call: str, logits: np.ndarray) -> str:
    return f"CrossEntropyLoss().{call} for logits of shape {logits.shape} (largest |logit| {np.abs(logits).max():.4g})"


def check_cross_entropy_forward(CrossEntropyLoss: type) -> None:
    """The mean loss as a scalar, against the reference, finite for logits of ±1000, inputs not modified."""
    with time_limit("CrossEntropyLoss.forward"):
        cases = classification_cases("ce_forward") + [_huge_logits("ce_forward_huge")]
        for logits, targets in cases:
            what = _name("forward(logits, targets)", logits)
            z, y = logits.copy(), targets.copy()
            loss = _scalar(what, run_student(what, CrossEntropyLoss(), z, y, causes=TARGET_ERRORS, formula=CROSS_ENTROPY.formula))
            CROSS_ENTROPY.check(what, loss, reference.cross_entropy(logits, targets), VALUE_TOLERANCE, z=logits, y=targets)
            check_unchanged(what, z, logits)


def check_cross_entropy_backward(CrossEntropyLoss: type) -> None:
    """backward() returns dZ of shape (B, C), against the reference and finite differences, finite for ±1000."""
    rng = rng_for("ce_backward")
    with time_limit("CrossEntropyLoss.backward"):
        cases = classification_cases("ce_backward") + [_huge_logits("ce_backward_huge")]
        for k, (logits, targets) in enumerate(cases):
            what = _name("backward()", logits)
            loss_fn = CrossEntropyLoss()
            stale = rng.standard_normal(logits.shape), rng.integers(0, logits.shape[1], size=logits.shape[0])
            forward = _name("forward(logits, targets)", logits)
            for z, y in (stale, (logits.copy(), targets.copy())):
                run_student(forward, loss_fn, z, y, causes=TARGET_ERRORS, formula=CROSS_ENTROPY.formula)
            dz = run_student(what, loss_fn.backward, causes=TARGET_ERRORS, formula=CROSS_ENTROPY_GRAD.formula)
            CROSS_ENTROPY_GRAD.check(what, dz, reference.cross_entropy_grad(logits, targets), VALUE_TOLERANCE, z=logits, y=targets)
            if k < len(cases) - 1:  # finite differences are meaningless where softmax saturates
                z_fd = logits.copy()
                numeric = numerical_gradient(lambda: reference.cross_entropy(z_fd, targets), z_fd)
                CROSS_ENTROPY_GRAD.check(f"{what} (finite-difference check)", dz, numeric, FD_TOLERANCE, z=logits, y=targets)
