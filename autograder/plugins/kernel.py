"""The notebook's kernel, sandboxed and without the grader: nbgrader's ``Execute`` with a kernel in bubblewrap.

``SandboxKernelManager`` starts the kernel through ``autograder.sandbox``: no
network (it talks to nbgrader over Unix sockets in a private folder), a
working directory holding a copy of the student's files and the helpers, and
resource limits; the course folder, the repository, the gradebook and the
grader's package are not there. The hidden test cells' ``import autograder``
finds a stand-in whose checks do nothing: every hidden check is decided
outside the kernel (``autograder.plugins.verify``), whose verdict replaces the cell's
output, so nothing of the grader (source, reference, secret) can be printed
from the kernel.

``SandboxedExecute`` is nbgrader's ``Execute`` with that kernel. If the kernel
dies or stops answering while running the student's cells, the cells it did
not finish get an error output and grading goes on; if it cannot start at all,
that is the grader's fault (``GraderFault``): the submission is not graded.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.settings import KitGrading

GRADER_PACKAGE = Path(__file__).resolve().parents[1]
STAND_IN = '''"""Stand-in for the grader in the notebook's kernel: hidden checks are decided outside this kernel."""


class CheckFailed(AssertionError):
    pass


def __getattr__(name):
    if name.startswith("check_"):
        return lambda *args, **kwargs: None
    raise AttributeError(name)
'''


class SandboxKernelManager(AsyncKernelManager):
    """A kernel in ``autograder.sandbox``, talking over Unix sockets in a private folder."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        kit = KitGrading(config=self.config)
        self._isolated = kit.sandbox
        self._limits = kit.kernel_limits()
        # io/ (connection file, sockets), work/, stand-in/, and the sandbox's staging folder
        self._home = Path(tempfile.mkdtemp(prefix="kit-kernel-", dir=kit.scratch()))
        self._box = self._home / "io"
        self._box.mkdir()
        self.transport = "ipc"
        self.connection_file = str(self._box / "kernel.json")
        self.ip = str(self._box / "kernel-ipc")

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        workdir = self._home / "work"
        source = Path(kw.get("cwd") or os.getcwd())
        shutil.copytree(source, workdir, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        stand_in = self._home / "stand-in"
        (stand_in / "autograder").mkdir(parents=True)
        (stand_in / "autograder" / "__init__.py").write_text(STAND_IN)
        env = {k: v for k, v in os.environ.items() if k.startswith("NBGRADER_")}
        env.update(
            {
                "OPENBLAS_NUM_THREADS": "1",
                "MPLBACKEND": "agg",
                "IPYTHONDIR": str(workdir / ".ipython"),
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONPATH": str(stand_in),
            }
        )
        box = sandbox.Sandbox(
            workdir=workdir,
            readable=(*sandbox.python_paths(), stand_in),
            writable=(self._box,),
            hidden=(GRADER_PACKAGE,),
            limits=self._limits,
            env=env,
            isolated=self._isolated,
        )
        box.prepare()
        await super()._async_launch_kernel(box.wrap(kernel_cmd), **{**kw, "cwd": str(self._home), "env": None})

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            shutil.rmtree(self._home, ignore_errors=True)

    cleanup_resources = _async_cleanup_resources


class SandboxedExecute(Execute):
    """nbgrader's Execute with a sandboxed kernel; a dead or hung kernel costs only the cells it did not finish."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", SandboxKernelManager)
        super().__init__(**kwargs)
        self._running = -1

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        self._running = -1
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
        return super().preprocess_cell(cell, resources, index)
