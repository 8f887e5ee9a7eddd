"""Cheats whose text is the weapon: an exception message that carries the hidden inputs out of the sandbox, escape
sequences for the instructor's terminal, a bidi override. Each loses what its raising costs; what it said reaches the
graded notebook, the feedback and the terminal one line long, capped, without an escape byte
(``tests/test_student_text.py`` grades them alone and reads all three)."""

from __future__ import annotations

from autograder import registry
from autograder.classroom import Edit, apply_edits
from catalogue.attacks import Context, Submission
from catalogue.mistakes import GATE_CELL

HOSTILE = "\x1b[2J\x1b[H\x1b]0;graded: 100/100\x07\x1b]2;pwned\x1b\\\u202e\x9b31m"
"""Clear the screen, home the cursor, set the window title twice (BEL and ST ends), a right-to-left override, an 8-bit
CSI."""

LEAK = f'''import sys as _sys


def _every_input(self, grad):
    """The repr of every array this call was handed and every one in the frames above it (the probe's hidden
    inputs), in full, wrapped in escape sequences."""
    np.set_printoptions(threshold=_sys.maxsize)
    seen = [repr(v) for v in (self.ctx.get("x"), self.W, self.b, grad)]
    frame = _sys._getframe(1)
    while frame is not None:
        seen += [repr(v) for v in frame.f_locals.values() if isinstance(v, (dict, list, np.ndarray))]
        frame = frame.f_back
    return ValueError({HOSTILE!r} + "\\n".join(seen) + {HOSTILE!r})


class Linear(Module):'''

LINEAR_BACKWARD_CELLS = tuple(registry.check(name).cell for name in ("linear_backward_dx", "linear_backward_dw"))
RAISING_LOSES = (
    *LINEAR_BACKWARD_CELLS,
    registry.check("linear_backward_db").cell,
    GATE_CELL,  # it trains the student's MLP, made of the student's Linear (MLP.backward is judged with the grader's)
)


LEAK_EDITS = (
    Edit("linear", "class Linear(Module):", LEAK),
    Edit("linear", '        x = self.ctx["x"]\n', "        raise _every_input(self, grad)\n"),
)


def _leaking(solution: str, context: Context) -> dict[str, str]:
    return {"mlp.ipynb": apply_edits(solution, LEAK_EDITS)}


TEXT_ATTACKS: tuple[Submission, ...] = (
    Submission(
        "leak_hidden_inputs_in_an_exception",
        "Linear.backward raises an exception whose message is the repr of every hidden input it was handed, between "
        "terminal escape sequences (clear screen, window title)",
        _leaking,
        RAISING_LOSES,
        shows="raised ValueError",
    ),
)
