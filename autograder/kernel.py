"""The notebook's kernel, sandboxed: nbgrader's ``Execute`` with a kernel that runs as an unprivileged user.

``SandboxKernelManager`` starts the kernel through ``autograder.sandbox``: no
network (it talks to nbgrader over Unix sockets in a private folder), a
working directory holding a copy of the student's files and the helpers, the
grader's package readable (the hidden cells import it) but not the course
folder, the repository or the gradebook, and resource limits. It gets a secret
derived from the grader's, so its inputs differ from those that count.

``SandboxedExecute`` is nbgrader's ``Execute`` with that kernel; if the kernel
dies or stops answering, the cells it did not finish get an error output and
grading goes on (the out-of-kernel verdicts then decide each test cell).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute

from autograder import GATE_OUTSIDE_KERNEL, sandbox, secret

GRADER_PACKAGE = Path(__file__).resolve().parent
KERNEL_LIMITS = sandbox.Limits(cpu_seconds=1800, memory_bytes=6 << 30, processes=256, file_bytes=256 << 20)


def kernel_secret() -> str:
    """A secret for the kernel's own run of the checks: fixed for a course, but not the one whose inputs count."""
    return hashlib.sha256(f"{secret.current()}:kernel".encode()).hexdigest()[:32]


class SandboxKernelManager(AsyncKernelManager):
    """A kernel in ``autograder.sandbox``, talking over Unix sockets in a private folder."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._home = Path(tempfile.mkdtemp(prefix="kit-kernel-"))  # io/ (connection file, sockets), work/, the sandbox root
        self._box = self._home / "io"
        self._box.mkdir()
        self.transport = "ipc"
        self.connection_file = str(self._box / "kernel.json")
        self.ip = str(self._box / "kernel-ipc")

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        workdir = self._home / "work"
        source = Path(kw.get("cwd") or os.getcwd())
        shutil.copytree(source, workdir, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        env = {k: v for k, v in os.environ.items() if k.startswith("NBGRADER_")}
        env.update({"MLP_GRADER_SECRET": kernel_secret(), GATE_OUTSIDE_KERNEL: "1", "OPENBLAS_NUM_THREADS": "1",
                    "MPLBACKEND": "agg", "IPYTHONDIR": str(workdir / ".ipython"), "PYTHONDONTWRITEBYTECODE": "1"})
        box = sandbox.Sandbox(user=sandbox.slot_user(int(os.environ.get("KIT_SANDBOX_SLOT", "0"))), workdir=workdir,
                              readable=(*sandbox.python_paths(), GRADER_PACKAGE), writable=(self._box,), limits=KERNEL_LIMITS, env=env)
        box.prepare()
        await super()._async_launch_kernel(box.wrap(kernel_cmd), **{**kw, "cwd": str(self._home)})

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
        self._running = 0

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        self._running = 0
        try:
            return super().preprocess(nb, resources, km)
        except (DeadKernelError, CellTimeoutError, RuntimeError) as error:
            reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else 'no reply'}"
            for cell in nb.cells[self._running:]:
                if cell.cell_type == "code":
                    cell.outputs = [*cell.get("outputs", []), NotebookNode(
                        output_type="error", ename="KernelDied", evalue=reason,
                        traceback=[f"\x1b[0;31mKernelDied\x1b[0m: the kernel stopped before this cell finished ({reason})."])]
            self.log.warning("The kernel stopped at cell %d (%s); grading goes on", self._running, reason)
            return nb, resources

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        self._running = index
        return super().preprocess_cell(cell, resources, index)
