"""The notebook's kernel, sandboxed and without the grader: nbgrader's ``Execute`` with a kernel in bubblewrap.

``SandboxedExecute`` runs the notebook in ``autograder.grading.kernel.SandboxKernelManager``'s kernel (in the
sandbox, with a stand-in ``autograder`` whose checks do nothing). It keeps at most
``KitGrading.kernel_cell_output_chars`` of each cell's output and ``KitGrading.kernel_output_chars`` of the
notebook's, and gives the whole notebook ``KitGrading.kernel_total_seconds`` (``autograder.grading.cell_limits``): a
cell past its time is interrupted and the next cell runs; once the budget is spent the remaining code cells are not
run. Whose fault a failure is depends on where it happened: until the first code cell is sent to the kernel, nothing
of the student's has run (the kernel starts from a trusted place: ``autograder.grading.kernel``), so a kernel that
cannot start is the grader's fault (``GraderFault``): the submission is not graded. From then on, a kernel that dies
or stops answering costs the cell it was running (an error output naming what happened) and the cells it did not run,
and grading
goes on; a message from the kernel that nbclient could not take is dropped and named in the output of the cell that
was running; any other error while a cell runs is that cell's, and the next cell runs. Only the grader's own faults
(``GraderFault``, the sandbox, the machine's memory or files) stop the notebook ungraded.
"""

from __future__ import annotations

from typing import Any

from nbclient.exceptions import CellControlSignal, CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Bool

from autograder import messages as say
from autograder.faults import GraderFault, recording_faults
from autograder.grading import stage
from autograder.grading.cell_limits import OutputCap, TimeBudget, cell_name, error_output
from autograder.grading.kernel import MALFORMED, SandboxKernelManager
from autograder.helpers import graded_language
from autograder.sandbox import SandboxError
from autograder.settings import KitGrading

GRADERS = (GraderFault, SandboxError, MemoryError, OSError)
"""Errors that are the grader's whenever they happen: this process's memory or files, the sandbox."""
KERNEL_STOPPED = (DeadKernelError, CellTimeoutError)


class SandboxedExecute(Execute):
    """nbgrader's Execute with a sandboxed kernel; a dead or hung kernel costs only the cells it did not finish."""

    raise_on_iopub_timeout = Bool(
        False,
        help="Stop the notebook when a cell's output has not all come 4 s after the cell ended. False (the kit's "
        "choice): go on with the next cell; output beyond the kit's limits is dropped on the way, and may take "
        "with it the message that ends a cell's output.",
    ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxKernelManager)
        super().__init__(**kwargs)
        kit = KitGrading(config=self.config)
        self._output = OutputCap(kit.kernel_cell_output_chars, kit.kernel_output_chars)
        self._budget = TimeBudget(kit.kernel_total_seconds)
        self._running = -1
        self._cells = 0
        self._language = "en"  # the edition's, which the notes in the cells are written in
        self._unhandled: list[str] = []  # messages nbclient failed on, in the cell running
        self._kernel: Any = None  # the notebook's kernel manager: nbclient forgets it when it cleans the kernel up

    @recording_faults
    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        self._running = -1
        self._cells = len(nb.cells)
        self._kernel = km
        self._language = graded_language(self.config, resources)
        self._output.start_notebook(self._language)
        self._budget.start_notebook(self._language)
        try:
            return super().preprocess(nb, resources, km)
        except GRADERS:
            raise
        except Exception as error:
            reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else 'no reply'}"
            if self._running < 0:  # no code cell was sent to the kernel: nothing of the student's ran
                raise GraderFault(f"the grading kernel could not start ({reason})") from error
            stopped = cell_name(nb.cells[self._running], self._running, self._language)
            for index, cell in enumerate(nb.cells[self._running :], self._running):
                if cell.cell_type == "code":
                    said = (
                        say.KERNEL_DIED_HERE(reason=reason)
                        if index == self._running
                        else say.KERNEL_DIED_BEFORE(cell=stopped, reason=reason)
                    )
                    cell.outputs = [
                        *cell.get("outputs", []),
                        error_output("KernelDied", said.render(self._language), self._language),
                    ]
            self.log.warning("The kernel stopped at cell %d (%s); grading goes on", self._running, reason)
            return nb, resources

    def create_kernel_manager(self) -> Any:
        self._kernel = super().create_kernel_manager()
        return self._kernel

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        self._output.start_cell()
        if cell.cell_type != "code" or not cell.source.strip():
            return super().preprocess_cell(cell, resources, index)
        if self._budget.left() < 0.5:
            cell.outputs = [self._budget.not_run()]
            return cell, resources
        self._running = index  # from here on, what happens in the kernel is this cell's
        stage.report(stage.Stage("kernel", index + 1, self._cells))
        try:
            with self._budget.timing(cell_name(cell, index, self._language)):
                return super().preprocess_cell(cell, resources, index)
        except (*GRADERS, *KERNEL_STOPPED):
            raise
        except Exception as error:  # noqa: BLE001 - the kernel answered this cell with something nbclient could not take
            self.log.warning("Cell %d failed in nbclient (%r); the next cell runs", index, error)
            said = say.KERNEL_NOT_TAKEN(reason=f"{type(error).__name__}: {str(error)[:200]}").render(self._language)
            cell.outputs = [*cell.get("outputs", []), error_output(MALFORMED, said, self._language)]
            return cell, resources
        finally:
            self._note_dropped(cell)

    def _note_dropped(self, cell: NotebookNode) -> None:
        """Name in the cell's output the messages from the kernel that were dropped while it ran."""
        take = getattr(self.kc, "take_problems", None)
        count, problems = take() if take else (0, [])
        count, problems = count + len(self._unhandled), [*problems, *self._unhandled][:3]
        self._unhandled = []
        if count:
            said = say.KERNEL_DROPPED(count=count, problems="; ".join(problems)).render(self._language)
            cell.outputs = [*cell.get("outputs", []), error_output(MALFORMED, said, self._language)]

    def _get_timeout(self, cell: NotebookNode | None) -> int | None:
        return self._budget.timeout(super()._get_timeout(cell))

    async def _async_handle_timeout(self, timeout: int, cell: NotebookNode | None = None) -> dict[str, Any] | None:
        own = super()._get_timeout(cell)
        self.error_on_timeout = self._budget.stopped(timeout, own, cell_name(cell, self._running, self._language))
        return await super()._async_handle_timeout(timeout, cell)

    def process_message(self, msg: dict[str, Any], cell: NotebookNode, cell_index: int) -> NotebookNode | None:
        """nbclient's handling of one message from the kernel, for output only while the cell's and the notebook's
        limits leave room (``OutputCap``); a message it cannot take costs only a note in this cell."""
        handle = super().process_message

        def handled(kept: dict[str, Any]) -> NotebookNode | None:
            try:
                return handle(kept, cell, cell_index)
            except (*GRADERS, CellControlSignal):
                raise
            except Exception as error:  # noqa: BLE001 - checked by the client already: a backstop, named in the cell
                self._unhandled.append(f"a {kept.get('msg_type')!r} message ({type(error).__name__})")
                return None

        display_id = (msg["content"].get("transient") or {}).get("display_id")
        earlier = self._display_id_map.get(display_id, {}) if display_id else {}
        return self._output.process(msg, cell, handled, copies=1 + sum(map(len, earlier.values())))
