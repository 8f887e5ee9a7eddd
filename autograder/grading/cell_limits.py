"""What the notebook's cells may print and how long they may run in the grading kernel, for ``SandboxedExecute``.

``OutputCap`` keeps at most ``KitGrading.kernel_cell_output_chars`` of each
cell's output and ``KitGrading.kernel_output_chars`` of the notebook's as they
arrive (a note says where output was cut), so a notebook that prints gigabytes
costs nbgrader little memory. Every output counts what its strings hold and
``OUTPUT_CHARS`` more (the JSON a notebook spends on one output), so a flood of
empty outputs is cut like a flood of text. ``TimeBudget`` is the whole notebook's
``KitGrading.kernel_total_seconds``: each cell runs for at most its own timeout
and what is left of that budget; a cell past its time is stopped and the next
cell runs; once the budget is spent the remaining code cells are not run, and
say which cells took the time. Every note is a message of ``autograder.messages`` (``kernel.*``), written in the
edition's language (``start_notebook``).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from nbformat import NotebookNode

from autograder.cell_ids import grade_id

SMALL_MESSAGES = ("status", "execute_input", "clear_output")
OUTPUT_CHARS = 64  # what one output costs beyond its strings: about the JSON of an empty one in the notebook file
ERRORS_AFTER_CUT = 1  # errors of a cell still kept (shortened) once its output is cut: its own exception, not a flood


def grouped(count: int, language: str) -> str:
    """A count as ``language`` writes it: 1,000 in English, 1000 in Chinese (``Language.digit_group``)."""
    from autograder.course.nn_languages import language as language_of

    return f"{count:,}".replace(",", language_of(language).digit_group)


def cell_name(cell: NotebookNode | None, index: int, language: str = "en") -> str:
    """A cell as the student knows it (``cell_names``: the cell defining ``Linear``), else by its place."""
    from autograder.cell_names import cell_called

    return cell_called(grade_id(cell) or None, index + 1, language).render(language)


def error_output(name: str, text: str, language: str = "en") -> NotebookNode:
    """A note of the grading kernel as a cell's error ``name``: shown after its name in English, alone in another
    language (the name is English)."""
    return NotebookNode(output_type="error", ename=name, evalue=text, traceback=[shown_error(name, text, language)])


def shown_error(name: str, text: str, language: str) -> str:
    """The one line of a note's traceback: ``CellTimeoutError: ...`` in English, the words alone in another language."""
    return f"\x1b[0;31m{name}\x1b[0m: {text}" if language == "en" else text


def short_error(content: dict[str, Any]) -> dict[str, Any]:
    """An error's content shortened: its name, its value and the last lines of its traceback, each cut."""
    traceback = content.get("traceback")
    return {
        "ename": str(content.get("ename"))[:200],
        "evalue": str(content.get("evalue"))[:2000],
        "traceback": [str(line)[:2000] for line in (traceback if isinstance(traceback, list) else [])[-20:]],
    }


def _chars(content: Any) -> int:
    """Characters in a message's content: its strings' lengths, and a little for anything else."""
    total, pending = 0, [content]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        else:
            total += 8
    return total


class TimeBudget:
    """The whole notebook's wall seconds, and what each cell (by name) spent of them."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self.language = "en"
        self._spent: dict[str, float] = defaultdict(float)

    def start_notebook(self, language: str = "en") -> None:
        self._spent.clear()
        self.language = language

    @contextmanager
    def timing(self, name: str) -> Iterator[None]:
        """Charge the wall time of the ``with`` block to the cell ``name``."""
        start = time.monotonic()
        try:
            yield
        finally:
            self._spent[name] += time.monotonic() - start

    def left(self) -> float:
        return self.seconds - sum(self._spent.values())

    def timeout(self, own: int | None) -> int:
        """A cell's timeout: its own (``own``, None for none) and at most what is left, at least 1 s."""
        return max(1, math.ceil(min(own or math.inf, self.left())))

    def not_run(self) -> NotebookNode:
        """The output of a code cell not run because the budget is spent."""
        from autograder import messages as say

        said = say.KERNEL_NOT_RUN(why=self.used_up()).render(self.language)
        return error_output("TimeBudgetUsedUp", said, self.language)

    def stopped(self, timeout: int, own: int | None, running: str) -> dict[str, Any]:
        """nbclient's ``error_on_timeout`` for the cell ``running``, stopped after ``timeout`` s (``own``: its own
        timeout)."""
        from autograder import messages as say

        if own is not None and timeout >= own:
            why = say.KERNEL_CELL_LIMIT(seconds=own).render(self.language)
        else:
            why = self.used_up(running=(running, timeout))
        evalue = say.KERNEL_STOPPED_AFTER(seconds=timeout, why=why).render(self.language)
        return {
            "ename": "CellTimeoutError",
            "evalue": evalue,
            "traceback": [shown_error("CellTimeoutError", evalue, self.language)],
        }

    def used_up(self, running: tuple[str, float] | None = None) -> str:
        """Which cells used the notebook's time (``running``: the cell being stopped), in plain words for the
        student."""
        spent = defaultdict(float, self._spent)
        if running:
            spent[running[0]] += running[1]
        biggest = sorted(spent.items(), key=lambda item: -item[1])[:3]
        from autograder import messages as say
        from autograder.course.nn_messages import ALL_OF

        cells = [say.KERNEL_SPENT(cell=name, seconds=f"{seconds:.0f}") for name, seconds in biggest if seconds >= 1]
        if not cells:
            return say.KERNEL_BUDGET_USED(seconds=self.seconds).render(self.language)
        listed = ALL_OF(items=cells) if len(cells) > 1 else cells[0]
        return say.KERNEL_BUDGET_USED_BY(seconds=self.seconds, cells=listed).render(self.language)


class OutputCap:
    """The characters of output kept from the cell running and from the whole notebook, at most ``cell_limit`` and
    ``notebook_limit``."""

    def __init__(self, cell_limit: int, notebook_limit: int) -> None:
        self._cell_limit, self._notebook_limit = cell_limit, notebook_limit
        self.language = "en"
        self._cell_chars = self._notebook_chars = 0
        self._cut = False
        self._errors_after_cut = 0

    def start_notebook(self, language: str = "en") -> None:
        self._notebook_chars = 0
        self.language = language

    def start_cell(self) -> None:
        self._cell_chars, self._cut, self._errors_after_cut = 0, False, 0

    def process(
        self,
        msg: dict[str, Any],
        cell: NotebookNode,
        handle: Callable[[dict[str, Any]], NotebookNode | None],
        copies: int = 1,
    ) -> NotebookNode | None:
        """One message from the kernel, passed to ``handle`` (nbclient's handling) only while the cell's and the
        notebook's limits leave room: the first part is kept, then a note, then only the cell's first error (shortened).
        ``copies``:
        how many outputs the message writes (a display updates every earlier output of its display id)."""
        if msg["msg_type"] in SMALL_MESSAGES:
            return handle(msg)
        size = OUTPUT_CHARS + copies * (_chars(msg["content"]) + sum(len(b) for b in msg.get("buffers") or ()))
        room = min(self._cell_limit - self._cell_chars, self._notebook_limit - self._notebook_chars)
        if size <= room:
            self._cell_chars += size
            self._notebook_chars += size
            return handle(msg)
        content, out, kept = msg["content"], None, self._cell_chars
        text_room = room - OUTPUT_CHARS
        if msg["msg_type"] == "stream" and text_room > 0:
            out = handle({**msg, "content": {**content, "text": content["text"][:text_room]}})
            kept += room
        elif msg["msg_type"] == "error" and self._errors_after_cut < ERRORS_AFTER_CUT:
            self._errors_after_cut += 1
            out = handle({**msg, "content": short_error(content)})
        self._notebook_chars += max(room, 0) if msg["msg_type"] == "stream" else 0
        self._cell_chars = self._cell_limit
        if not self._cut:
            from autograder import messages as say

            self._cut = True
            counts = {"kept": kept, "cell": self._cell_limit, "notebook": self._notebook_limit}
            limits = {name: grouped(count, self.language) for name, count in counts.items()}
            note = say.KERNEL_OUTPUT_CUT(**limits).render(self.language)
            cell.outputs.append(NotebookNode(output_type="stream", name="stdout", text=f"\n{note}\n"))
        return out
