"""Hidden checks of ``CrossEntropyLoss``: mean −log softmax(Z)[y], dZ = (softmax(Z) − onehot(y)) / B."""
import numpy as np
from nn_checks import check_close, check_gradient, fail, numerical_gradient

from autograder import reference
from autograder.cases import classification_cases
from autograder.common import VALUE_TOLERANCE, check_unchanged
from autograder.limits import time_limit
from autograder.secret import rng_for

FORWARD_HINT = "L = −(1/B) Σ_i log softmax(Z_i)[y_i]: subtract each row's max before exp, and average over the batch"
BACKWARD_HINT = "dZ = (softmax(Z) − onehot(y)) / B, softmax over each row (axis=1), from the Z and y of the latest forward"


def _huge_logits(check: str) -> tuple[np.ndarray, np.ndarray]:
    """Logits of size up to ±1000: exp overflows unless the max is subtracted first."""
    rng = rng_for(check)
    logits = rng.uniform(-1000.0, 1000.0, size=(6, 5))
    return logits, rng.integers(0, 5, size=6)


def _scalar(what: str, loss) -> np.ndarray:
    if np.ndim(loss) != 0 or not np.issubdtype(np.asarray(loss).dtype, np.floating):
        fail(what, "one floating-point number (the mean loss)", f"{type(loss).__name__} of shape {np.shape(loss)}",
             "return the mean over the batch, e.g. `losses.mean()`, not the per-sample losses")
    return np.asarray(loss, dtype=np.float64)


def check_cross_entropy_forward(CrossEntropyLoss: type) -> None:
    """The mean loss as a scalar, against the reference, finite for logits of ±1000, inputs not modified."""
    with time_limit("CrossEntropyLoss.forward"):
        cases = classification_cases("ce_forward") + [_huge_logits("ce_forward_huge")]
        for logits, targets in cases:
            what = f"CrossEntropyLoss().forward(logits, targets) for logits of shape {logits.shape} (largest |logit| {np.abs(logits).max():.4g})"
            z, y = logits.copy(), targets.copy()
            loss = _scalar(what, CrossEntropyLoss()(z, y))
            check_close(what, loss, np.asarray(reference.cross_entropy(logits, targets)), VALUE_TOLERANCE, FORWARD_HINT)
            check_unchanged(what, z, logits)


def check_cross_entropy_backward(CrossEntropyLoss: type) -> None:
    """backward() returns dZ of shape (B, C), against the reference and finite differences, finite for ±1000."""
    rng = rng_for("ce_backward")
    with time_limit("CrossEntropyLoss.backward"):
        cases = classification_cases("ce_backward") + [_huge_logits("ce_backward_huge")]
        for k, (logits, targets) in enumerate(cases):
            what = f"CrossEntropyLoss().backward() for logits of shape {logits.shape} (largest |logit| {np.abs(logits).max():.4g})"
            loss_fn = CrossEntropyLoss()
            loss_fn(rng.standard_normal(logits.shape), rng.integers(0, logits.shape[1], size=logits.shape[0]))
            z, y = logits.copy(), targets.copy()
            loss_fn(z, y)
            dz = loss_fn.backward()
            check_close(what, dz, reference.cross_entropy_grad(logits, targets), VALUE_TOLERANCE, BACKWARD_HINT)
            if k < len(cases) - 1:  # finite differences are meaningless where softmax saturates
                z_fd = logits.copy()
                numeric = numerical_gradient(lambda: reference.cross_entropy(z_fd, targets), z_fd)
                check_gradient(what, dz, numeric, BACKWARD_HINT)
