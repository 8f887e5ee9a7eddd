"""Hidden checks of the ``mlp`` assignment. Installed only where grading happens, never released.

Each hidden test cell calls one ``check_*`` function with the student's class.
While grading, the notebook's kernel has only a stand-in of this package
(``autograder.kernel``): every check is decided outside the kernel
(``autograder.verify``), a probe (``autograder.probe``) run in a sandboxed
worker and a judge (``autograder.checks``) run by the grader. Called in a
process of your own, ``check_*`` probes and judges there, returning None on
success and raising ``CheckFailed`` (with the student's message) on failure.
Hidden inputs come from ``autograder.secret``.

The checks import the assignment's helper modules (``nn_core``, ``nn_checks``,
``nn_diagnosis``, ``mnist_data``), which nbgrader places next to the notebook,
so they are loaded on first use: the tooling in this package (``classroom``,
``mistakes``, ``demo``, ``grade``) works without them.
"""
import importlib
from typing import Any, Callable

CHECK_NAMES = ("linear_forward", "linear_backward_dx", "linear_backward_dw", "linear_backward_db", "relu_forward", "relu_backward",
               "cross_entropy_forward", "cross_entropy_backward", "sgd_step", "mlp_forward", "mlp_backward", "mnist_accuracy")
__all__ = [f"check_{name}" for name in CHECK_NAMES]


def __getattr__(name: str) -> Any:
    if name.startswith("check_") and name[len("check_"):] in CHECK_NAMES:
        return _in_kernel(name[len("check_"):])
    raise AttributeError(f"module 'autograder' has no attribute {name!r}")


class CheckFailed(AssertionError):
    """A hidden check failed; the message says what was expected, what came, the likely cause and the formula."""


def _in_kernel(check: str) -> Callable[[type], None]:
    """The hidden test cell's function: run the check here; a failure is re-raised as ``CheckFailed`` (message only)."""

    def run(student_class: type) -> None:
        try:
            note = importlib.import_module("autograder.checks").run_in_kernel(check, student_class)
        except AssertionError as failure:
            message = str(failure)
        else:
            if note:
                print(note)
            return
        raise CheckFailed(message) from None

    run.__name__ = f"check_{check}"
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
