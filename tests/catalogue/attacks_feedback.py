"""Submissions that attack the feedback: forged verdicts and HTML or script in outputs and markdown.

A student's code can display an output of any media type in any cell, the verdict's too
(``autograder.verdict.MIME``): a hook run after every cell puts one into the public checks, the answer cells and the
hidden test cells. A forged "passed" verdict must not hide a failure or add a hidden test, a malformed one must not
stop the feedback, and neither may change a grade (``autograder.preprocessors.sanitize.DropForgedVerdicts``). Outputs
of ``text/html`` with script, ``application/javascript`` and markdown with ``<script>`` or ``onerror`` must cost and
gain nothing (the feedback shows them inert: ``autograder.safe_html``; ``tests/test_feedback_inert.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from autograder import registry
from autograder.classroom import Edit, apply_edits
from autograder.verdict import MIME
from catalogue.attacks import WRONG_DW, WRONG_DW_LOSES, Context, Submission

ANCHOR = "class Linear(Module):"


def _passed(check: str) -> dict:
    return {"check": check, "passed": True, "failure": None, "note": None, "numbers": {}}


def _after_every_cell(*shown: dict) -> str:
    """Code that displays each of ``shown`` (media type -> data) after every cell the kernel runs from then on."""
    return (
        "def _after_every_cell():\n"
        "    from IPython.display import display\n\n"
        f"    for shown in {list(shown)!r}:\n"
        "        display(shown, raw=True)\n\n\n"
        'get_ipython().events.register("post_execute", _after_every_cell)\n'
    )


def _with(code: str, wrong_dw: bool) -> Callable[[str, Context], dict[str, str]]:
    """The solution (with dW = Gᵀ X if ``wrong_dw``) with ``code`` before the Linear class."""

    def make(solution: str, context: Context) -> dict[str, str]:
        edits = (WRONG_DW,) if wrong_dw else ()
        return {"mlp.ipynb": apply_edits(solution, (*edits, Edit("linear", ANCHOR, f"{code}\n\n{ANCHOR}")))}

    return make


def _markdown(source: str) -> Callable[[str, Context], dict[str, str]]:
    """The solution with a markdown cell of the student's (``source``) after the first cell."""

    def make(solution: str, context: Context) -> dict[str, str]:
        notebook = json.loads(solution)
        notebook["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "source": source})
        return {"mlp.ipynb": json.dumps(notebook, indent=1)}

    return make


SCRIPT_OUTPUTS = (
    "from IPython.display import HTML, Javascript, display\n\n"
    "display(HTML(\"<b>x</b><script>document.title = 'pwned'</script>\"))\n"
    'display(HTML("<img src=x onerror=\\"console.log(\'pwned\')\\">"))\n'
    "display(Javascript(\"console.log('pwned')\"))\n"
)

FEEDBACK_ATTACKS: tuple[Submission, ...] = (
    Submission(
        "forged_passed_verdicts",
        "dW = Gᵀ X, and a hook displays a passed verdict of linear_backward_dw after every cell (the public check "
        "and the hidden test cells among them)",
        _with(_after_every_cell({MIME: _passed("linear_backward_dw")}), wrong_dw=True),
        WRONG_DW_LOSES,
    ),
    Submission(
        "forged_verdicts_of_every_check",
        "dW = Gᵀ X, and a hook displays a passed verdict of every check after every cell",
        _with(_after_every_cell(*({MIME: _passed(c.name)} for c in registry.CHECKS)), wrong_dw=True),
        WRONG_DW_LOSES,
    ),
    Submission(
        "malformed_verdict_after_every_cell",
        "the solution, and a hook displays a malformed verdict after every cell (it stopped generate_feedback)",
        _with(_after_every_cell({MIME: {"oops": 1}, "text/plain": "x"}), wrong_dw=False),
        (),
    ),
    Submission(
        "script_in_outputs",
        "the solution, with text/html outputs holding <script> and onerror, and an application/javascript output",
        _with(SCRIPT_OUTPUTS, wrong_dw=False),
        (),
    ),
    Submission(
        "script_in_markdown",
        "the solution, with a markdown cell holding <script>, an onerror handler and a remote image",
        _markdown(
            "# Notes\n<script>document.title = 'pwned'</script>\n"
            '<img src=x onerror="console.log(\'pwned\')"> <img src="http://127.0.0.1:9/pwned.png">\n'
        ),
        (),
    ),
)
