"""Small helpers shared by the hidden checks."""
import numpy as np
from nn_checks import fail

VALUE_TOLERANCE = 1e-6
"""Accepted relative error against the reference (float64 inputs)."""


def check_unchanged(what: str, after: np.ndarray, before: np.ndarray) -> None:
    """The caller's array must come back unmodified."""
    after = np.asarray(after)
    if after.shape == before.shape and np.array_equal(after, before):
        return
    if after.shape != before.shape:
        fail(what, f"the array it was given to keep its shape {before.shape}", f"shape {after.shape}")
    index = tuple(int(i) for i in np.argwhere(after != before)[0])
    fail(
        what,
        f"the array it was given to stay unchanged ({before[index]:.6g} at index {index})",
        f"{after[index]:.6g}",
        "an in-place operation on an argument (such as `x[x < 0] = 0` or `grad *= mask`); build a new array instead",
    )
