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


class CheckFailed(AssertionError):
    """A hidden check failed; the message says what was expected, what came, the likely cause and the formula."""


def _short_failures(check: Callable[[type], None]) -> Callable[[type], None]:
    """Re-raise a failed check as ``CheckFailed``, which the kernel shows as its message alone (no traceback)."""

    @functools.wraps(check)
    def run(student_class: type) -> None:
        try:
            check(student_class)
        except AssertionError as failure:
            message = str(failure)
        else:
            return
        raise CheckFailed(message) from None

    return run


def _message_only(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> list[str]:
    """IPython handler for ``CheckFailed``: an error output holding the message, without the grader's frames.

    The error output is what makes nbgrader give the cell 0 points, so it must be shown.
    """
    stb = [f"\x1b[0;31m{etype.__name__}\x1b[0m: {value}"]
    shell._showtraceback(etype, value, stb)
    return stb


def _show_failures_as_messages() -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - the grading kernel always has IPython
        return
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((CheckFailed,), _message_only)


_show_failures_as_messages()
