"""The notebook's kernel, sandboxed and without the grader: nbgrader's ``Execute`` with a kernel in bubblewrap.

``SandboxedExecute`` runs the notebook in ``autograder.grading.kernel.SandboxKernelManager``'s kernel (in the
sandbox, with a stand-in ``autograder`` whose checks do nothing). It keeps at most
``KitGrading.kernel_cell_output_chars`` of each cell's output and ``KitGrading.kernel_output_chars`` of the
notebook's, and gives the whole notebook ``KitGrading.kernel_total_seconds`` (``autograder.grading.cell_limits``): a
cell past its time is interrupted and the next cell runs; once the budget is spent the remaining code cells are not
run. If the kernel dies or stops answering while running the student's cells, the cells it did not finish get an
error output and grading goes on; if it cannot start at all, that is the grader's fault (``GraderFault``): the
submission is not graded.
"""

from __future__ import annotations

from typing import Any

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Bool

from autograder.faults import GraderFault, recording_faults
from autograder.grading.cell_limits import OutputCap, TimeBudget, cell_name
from autograder.grading.kernel import SandboxKernelManager
from autograder.settings import KitGrading


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

    @recording_faults
    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        self._running = -1
        self._output.start_notebook()
        self._budget.start_notebook()
        try:
            return super().preprocess(nb, resources, km)
        except (DeadKernelError, CellTimeoutError, RuntimeError) as error:
            reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else 'no reply'}"
            if self._running < 0:  # no cell of the student's ran: the kernel could not start
                raise GraderFault(f"the grading kernel could not start ({reason})") from error
            for cell in nb.cells[self._running :]:
                if cell.cell_type == "code":
                    cell.outputs = [
                        *cell.get("outputs", []),
                        NotebookNode(
                            output_type="error",
                            ename="KernelDied",
                            evalue=reason,
                            traceback=[
                                f"\x1b[0;31mKernelDied\x1b[0m: the kernel stopped before this cell finished ({reason})."
                            ],
                        ),
                    ]
            self.log.warning("The kernel stopped at cell %d (%s); grading goes on", self._running, reason)
            return nb, resources

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        self._running = index
        self._output.start_cell()
        if cell.cell_type == "code" and cell.source.strip() and self._budget.left() < 0.5:
            cell.outputs = [self._budget.not_run()]
            return cell, resources
        with self._budget.timing(cell_name(cell, index)):
            return super().preprocess_cell(cell, resources, index)

    def _get_timeout(self, cell: NotebookNode | None) -> int | None:
        return self._budget.timeout(super()._get_timeout(cell))

    async def _async_handle_timeout(self, timeout: int, cell: NotebookNode | None = None) -> dict[str, Any] | None:
        own = super()._get_timeout(cell)
        self.error_on_timeout = self._budget.stopped(timeout, own, cell_name(cell, self._running))
        return await super()._async_handle_timeout(timeout, cell)

    def process_message(self, msg: dict[str, Any], cell: NotebookNode, cell_index: int) -> NotebookNode | None:
        """nbclient's handling of one message from the kernel, for output only while the cell's and the notebook's
        limits leave room (``OutputCap``)."""
        handle = super().process_message
        return self._output.process(msg, cell, lambda kept: handle(kept, cell, cell_index))
