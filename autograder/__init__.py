"""Hidden checks of the ``mlp`` assignment. Installed only where grading happens, never released.

Each hidden test cell calls one ``check_*`` function with the student's class;
it returns None on success and raises AssertionError (with a message for the
student) on failure. Hidden inputs come from ``autograder.secret``.

The checks import the assignment's helper modules (``nn_core``, ``nn_checks``,
``mnist_data``), which nbgrader places next to the notebook, so they are loaded
on first use: the tooling in this package (``classroom``, ``mistakes``,
``demo``) works without them.
"""
import functools
import importlib
from typing import Any, Callable

_CHECKS = {
    "check_linear_forward": "linear",
    "check_linear_backward_dx": "linear",
    "check_linear_backward_dw": "linear",
    "check_linear_backward_db": "linear",
    "check_relu_forward": "relu",
    "check_relu_backward": "relu",
    "check_cross_entropy_forward": "loss",
    "check_cross_entropy_backward": "loss",
    "check_sgd_step": "sgd",
    "check_mlp_forward": "mlp",
    "check_mlp_backward": "mlp",
    "check_mnist_accuracy": "mnist_gate",
}
__all__ = list(_CHECKS)


def __getattr__(name: str) -> Any:
    if name in _CHECKS:
        return _short_failures(getattr(importlib.import_module(f"autograder.{_CHECKS[name]}"), name))
    raise AttributeError(f"module 'autograder' has no attribute {name!r}")


def _short_failures(check: Callable[[type], None]) -> Callable[[type], None]:
    """Re-raise a failed check's AssertionError without the grader's frames: feedback shows the message, not our code.

    Errors raised by the student's own code keep their traceback, which points into the student's cell.
    """

    @functools.wraps(check)
    def run(student_class: type) -> None:
        try:
            check(student_class)
        except AssertionError as failure:
            message = str(failure)
        else:
            return
        raise AssertionError(message) from None

    return run
