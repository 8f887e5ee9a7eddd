"""Submissions that try to make their own mistakes the grading kernel's fault, or to flood the grader through it.

Each is the reference solution plus one misbehaviour of the notebook's kernel. Hidden checks are decided outside
the kernel, so each must keep full marks: graded normally (never left ungraded as "the grader's fault"), with what
went wrong said only in the cell that did it.
"""

from __future__ import annotations

from collections.abc import Callable

from autograder.classroom import Edit, apply_edits
from catalogue.attacks import Context, Submission

ANCHOR = "class Linear(Module):"
EXIT = "import os\nos._exit(1)\n"
SHADOWING = (
    "ipykernel_launcher.py",
    "sitecustomize.py",
    "usercustomize.py",
    "ipython_config.py",
    "ipython_kernel_config.py",
    "kit_kernel.py",
    "kit_output_in_parts.py",
    "kit_notebook_folder.py",
    ".ipython/profile_default/startup/00-evil.py",
    ".ipython/profile_default/ipython_kernel_config.py",
    ".ipython/profile_default/ipython_config.py",
    "ipykernel/__init__.py",
    "IPython/__init__.py",
)
"""Files that ran in the kernel before its first cell (or instead of it), each ending the kernel's process: if any
ran, the kernel could not start and the submission would be left ungraded."""
FORKED_MEMORY = (
    "import os, time\n"
    "for _ in range(4):\n"
    "    if os.fork() == 0:\n"
    "        _block = b'x' * (768 << 20)\n"
    "        time.sleep(600)\n"
    "        os._exit(0)\n"
    "time.sleep(600)"
)
"""A loop and calls, which the workers do not run: only the kernel holds the memory."""
SEND = (
    "get_ipython().kernel.session.send(get_ipython().kernel.iopub_socket, {kind!r}, {content!r}, "
    "parent=get_ipython().kernel.get_parent())"
)


def _linear_cell_starts_with(
    code: str, files: dict[str, str] | None = None
) -> Callable[[str, Context], dict[str, str]]:
    """The correct solution with ``code`` (expression statements: the workers do not run them) at the top of the
    Linear answer cell, and ``files`` beside the notebook."""

    def make(solution: str, context: Context) -> dict[str, str]:
        notebook = apply_edits(solution, (Edit("linear", ANCHOR, f"{code}\n\n{ANCHOR}"),))
        return {"mlp.ipynb": notebook, **(files or {})}

    return make


KERNEL_ATTACKS: tuple[Submission, ...] = (
    Submission(
        "fault_kernel_shadowing_files",
        "files beside the notebook named like the kernel's launcher, sitecustomize, IPython's startup and config "
        "files, ipykernel/: each ends the kernel's process",
        _linear_cell_starts_with('print("the kernel started", "clean")', dict.fromkeys(SHADOWING, EXIT)),
        (),
        shows="the kernel started clean",
    ),
    Submission(
        "fault_kernel_malformed_messages",
        "an answer cell sends a stream without text and a display without data to the grader",
        _linear_cell_starts_with(
            "\n".join(
                (
                    SEND.format(kind="stream", content={"name": "stdout"}),
                    SEND.format(kind="display_data", content={"metadata": {}}),
                )
            )
        ),
        (),
        shows="malformed and dropped",
    ),
    Submission(
        "fault_kernel_floods_its_own_stdout",
        "an answer cell writes 300 MB to the kernel process's own standard output and error",
        _linear_cell_starts_with("[__import__('os').write(1 + i % 2, b'o' * (1 << 20)) for i in range(300)]"),
        (),
    ),
    Submission(
        "fault_kernel_empty_outputs",
        "an answer cell displays 16,000 empty outputs",
        _linear_cell_starts_with("[__import__('IPython').display.display({}, raw=True) for _ in range(16_000)]"),
        (),
        shows="output cut after",
    ),
    Submission(
        "fault_kernel_forked_memory",
        "an answer cell forks four children that would each write 768 MiB and sleep: 3 GiB in all, each process "
        "under its own limit (the kernel's sandbox is one process: the fork is refused, the cell says why)",
        _linear_cell_starts_with(FORKED_MEMORY),
        (),
        shows="os.fork: starting another process is not allowed while grading",
    ),
)
