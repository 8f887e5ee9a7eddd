"""The notebook's kernel, sandboxed and without the grader: nbgrader's ``Execute`` with a kernel in bubblewrap.

``SandboxKernelManager`` starts the kernel through ``autograder.sandbox``: no
network (it talks to nbgrader over Unix sockets in a folder of its own), a
working directory holding a copy of the student's files and the helpers, and
resource limits; the course folder, the repository, the gradebook and the
grader's package are not there. Nothing it writes reaches the host's disk:
its working directory, its sockets' folder, /tmp and /dev/shm are tmpfs of
fixed sizes inside the sandbox. The hidden test cells' ``import autograder``
finds a stand-in whose checks do nothing: every hidden check is decided
outside the kernel (``autograder.preprocessors.verify``), whose verdict replaces the cell's
output, so nothing of the grader (source, reference, secret) can be printed
from the kernel.

``SandboxedExecute`` is nbgrader's ``Execute`` with that kernel. It keeps at
most ``KitGrading.kernel_cell_output_chars`` of each cell's output and
``KitGrading.kernel_output_chars`` of the notebook's as they arrive (a note
says where output was cut), and takes no message larger than
``MESSAGE_BYTES``, so a notebook that prints gigabytes costs nbgrader little
memory. The whole notebook has ``KitGrading.kernel_total_seconds``: each
cell runs for at most its own timeout and what is left of that budget; a cell
past its time is interrupted (by a message to the kernel: a signal would stop
at bubblewrap) and the next cell runs; once the budget is spent the remaining
code cells are not run, and say which cells took the time. ``input()`` fails at
once and standard input is empty. If the kernel
dies or stops answering while running the student's cells, the cells it did
not finish get an error output and grading goes on; if it cannot start at all,
that is the grader's fault (``GraderFault``): the submission is not graded.
"""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import stat
import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import zmq
from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Bool

from autograder import sandbox
from autograder.faults import GraderFault, recording_faults
from autograder.settings import KitGrading

GRADER_PACKAGE = Path(__file__).resolve().parents[1]
SOCKETS = Path("/run/kit/io")  # inside the sandbox: the kernel binds its sockets there
START_SECONDS = 60.0  # for the kernel to bind its sockets (nbclient's own startup timeout)
MESSAGE_BYTES = 16 << 20  # zmq drops the connection to a kernel that sends a larger message part (then reconnects)
QUEUED_MESSAGES = 32  # waiting in nbgrader's process: the kernel drops what it publishes beyond them
SMALL_MESSAGES = ("status", "execute_input", "clear_output")
STAND_IN = '''"""Stand-in for the grader in the notebook's kernel: hidden checks are decided outside this kernel."""


def __getattr__(name):
    if name.startswith("check_"):
        return lambda *args, **kwargs: None
    raise AttributeError(name)
'''
# Run as the kernel starts, before any cell: printed text leaves in parts of at most 1 MiB (ipykernel sends all that
# was printed in 0.2 s as one message, and nbgrader drops a connection that brings a larger one than MESSAGE_BYTES).
OUTPUT_IN_PARTS = """from ipykernel.iostream import OutStream

_whole = OutStream._flush_buffers


def _in_parts(self):
    for parent, data in _whole(self):
        for start in range(0, len(data), 1 << 20):
            yield parent, data[start : start + (1 << 20)]


OutStream._flush_buffers = _in_parts
"""


class SandboxKernelManager(AsyncKernelManager):
    """A kernel in ``autograder.sandbox``, talking over Unix sockets in a private folder."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        kit = KitGrading(config=self.config)
        self._isolated = kit.sandbox
        self._limits = kit.kernel_limits()
        self._disk_bytes = kit.kernel_disk_mib << 20
        # io/ (connection file; links to the sockets), work/, stand-in/
        self._home = Path(tempfile.mkdtemp(prefix="kit-kernel-", dir=kit.scratch()))
        self._box = self._home / "io"
        self._box.mkdir()
        self._socket_fds: list[int] = []
        self.transport = "ipc"
        self.connection_file = str(self._box / "kernel.json")
        self._kernel_ip = str((SOCKETS if self._isolated else self._box) / "kernel-ipc")  # where the kernel binds
        self.ip = self._kernel_ip

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        workdir = self._home / "work"
        source = Path(kw.get("cwd") or os.getcwd())
        shutil.copytree(source, workdir, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        stand_in = self._home / "stand-in"
        (stand_in / "autograder").mkdir(parents=True)
        (stand_in / "autograder" / "__init__.py").write_text(STAND_IN)
        (stand_in / "kit_output_in_parts.py").write_text(OUTPUT_IN_PARTS)
        kernel_cmd = [
            *kernel_cmd,
            "--IPKernelApp.exec_lines=import kit_output_in_parts",
            "--IPKernelApp.exec_lines=del kit_output_in_parts",
        ]
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
            readable=(*sandbox.python_paths(), stand_in, self._box),
            writable=() if self._isolated else (self._box,),
            hidden=(GRADER_PACKAGE,),
            limits=self._limits,
            env=env,
            isolated=self._isolated,
            disk_bytes=self._disk_bytes,
            private=(SOCKETS,),
        )
        box.prepare()
        if self._isolated and os.geteuid() == 0:  # started by root, the sandbox runs as nobody: it must read this
            os.chown(self.connection_file, sandbox.SANDBOX_UID, sandbox.SANDBOX_UID)
        launch = {**kw, "cwd": str(self._home), "stdin": subprocess.DEVNULL}
        await super()._async_launch_kernel(box.wrap(kernel_cmd), **launch)
        if self._isolated:
            await self._reach_sockets()

    async def _reach_sockets(self) -> None:
        """Link io/kernel-ipc-<port> to each socket the kernel bound in its sandbox, for nbgrader to connect to.

        Each link goes through a descriptor this process holds on the socket itself (opened without following
        links, checked to be a socket): a name inside the sandbox is the student's to change, and a symbolic link
        put there would be followed from outside, to any socket of the host.
        """
        process = self.provisioner.process  # type: ignore[union-attr]
        names = [f"kernel-ipc-{port}" for port in self.ports]
        deadline = time.monotonic() + START_SECONDS
        while True:
            folder = sandbox.inside(process.pid, SOCKETS)
            if folder is not None and all(_is_socket(folder / name) for name in names):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                return  # the kernel is not there to talk to: nbclient finds that out and says so
            await asyncio.sleep(0.02)
        for name in names:
            try:
                fd = os.open(folder / name, os.O_PATH | os.O_NOFOLLOW)
            except OSError:
                return
            self._socket_fds.append(fd)
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                return
            (self._box / name).symlink_to(f"/proc/{os.getpid()}/fd/{fd}")
        self.ip = str(self._box / "kernel-ipc")

    async def _async_interrupt_kernel(self) -> None:
        """Interrupt by a message on the control channel: the kernel then signals its own process group."""
        if self.has_kernel:
            self._connect_control_socket()
            self.session.send(self._control_socket, self.session.msg("interrupt_request", content={}))

    interrupt_kernel = _async_interrupt_kernel

    def client(self, **kwargs: Any) -> Any:
        """A client whose sockets take at most ``QUEUED_MESSAGES`` messages of at most ``MESSAGE_BYTES``."""
        client = super().client(**kwargs)
        client.context.setsockopt(zmq.MAXMSGSIZE, MESSAGE_BYTES)
        client.context.setsockopt(zmq.RCVHWM, QUEUED_MESSAGES)
        return client

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        for fd in self._socket_fds:
            os.close(fd)
        self._socket_fds.clear()
        self.ip = self._kernel_ip
        if not restart:
            shutil.rmtree(self._home, ignore_errors=True)

    cleanup_resources = _async_cleanup_resources


def _name(cell: NotebookNode | None, index: int) -> str:
    """A cell as the student knows it: its nbgrader id (the answer cell 'linear'), else its place."""
    grade_id = (cell or {}).get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return repr(grade_id) if grade_id else f"number {index + 1}"


def _error(name: str, text: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=name, evalue=text, traceback=[f"\x1b[0;31m{name}\x1b[0m: {text}"])


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


def _is_socket(path: Path) -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return False


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
        self._cell_limit, self._notebook_limit = kit.kernel_cell_output_chars, kit.kernel_output_chars
        self._budget = kit.kernel_total_seconds
        self._spent: dict[str, float] = defaultdict(float)  # wall seconds per cell, by name
        self._running = -1
        self._cell_chars = self._notebook_chars = 0
        self._cut = False

    @recording_faults
    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        self._running = -1
        self._notebook_chars = 0
        self._spent.clear()
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
        self._cell_chars, self._cut = 0, False
        if cell.cell_type == "code" and cell.source.strip() and self._left() < 0.5:
            cell.outputs = [_error("TimeBudgetUsedUp", f"This cell was not run: {self._used_up()}.")]
            return cell, resources
        start = time.monotonic()
        try:
            return super().preprocess_cell(cell, resources, index)
        finally:
            self._spent[_name(cell, index)] += time.monotonic() - start

    def _get_timeout(self, cell: NotebookNode | None) -> int | None:
        own = super()._get_timeout(cell)
        return max(1, math.ceil(min(own or math.inf, self._left())))

    async def _async_handle_timeout(self, timeout: int, cell: NotebookNode | None = None) -> dict[str, Any] | None:
        own = super()._get_timeout(cell)
        if own is not None and timeout >= own:
            why = f"a cell may run for at most {own} s"
        else:
            why = self._used_up(running=(_name(cell, self._running), timeout))
        evalue = f"This cell was stopped after {timeout} s: {why}."
        self.error_on_timeout = {
            "ename": "CellTimeoutError",
            "evalue": evalue,
            "traceback": [f"\x1b[0;31mCellTimeoutError\x1b[0m: {evalue}"],
        }
        return await super()._async_handle_timeout(timeout, cell)

    def _left(self) -> float:
        return self._budget - sum(self._spent.values())

    def _used_up(self, running: tuple[str, float] | None = None) -> str:
        """Which cells used the notebook's time (``running``: the cell being stopped), in plain words for the
        student."""
        spent = defaultdict(float, self._spent)
        if running:
            spent[running[0]] += running[1]
        biggest = sorted(spent.items(), key=lambda item: -item[1])[:3]
        cells = ", ".join(f"cell {name} ({seconds:.0f} s)" for name, seconds in biggest if seconds >= 1)
        return f"the grading kernel's time budget for the whole notebook ({self._budget} s) was used up" + (
            f", mostly by {cells}" if cells else ""
        )

    def process_message(self, msg: dict[str, Any], cell: NotebookNode, cell_index: int) -> NotebookNode | None:
        """nbclient's handling of one message from the kernel, for output only while the cell's and the notebook's
        limits leave room: the first part is kept, then a note, then only errors (shortened)."""
        if msg["msg_type"] in SMALL_MESSAGES:
            return super().process_message(msg, cell, cell_index)
        size = _chars(msg["content"]) + sum(len(b) for b in msg.get("buffers") or ())
        room = min(self._cell_limit - self._cell_chars, self._notebook_limit - self._notebook_chars)
        if size <= room:
            self._cell_chars += size
            self._notebook_chars += size
            return super().process_message(msg, cell, cell_index)
        content, out, kept = msg["content"], None, self._cell_chars
        if msg["msg_type"] == "stream" and room > 0:
            out = super().process_message(
                {**msg, "content": {**content, "text": content["text"][:room]}}, cell, cell_index
            )
            kept += room
        elif msg["msg_type"] == "error":
            short = {
                "ename": str(content.get("ename"))[:200],
                "evalue": str(content.get("evalue"))[:2000],
                "traceback": [str(line)[:2000] for line in content.get("traceback", [])[-20:]],
            }
            out = super().process_message({**msg, "content": short}, cell, cell_index)
        self._notebook_chars += max(room, 0) if msg["msg_type"] == "stream" else 0
        self._cell_chars = self._cell_limit
        if not self._cut:
            self._cut = True
            cell.outputs.append(
                NotebookNode(
                    output_type="stream",
                    name="stdout",
                    text=f"\n... output cut after {kept:,} characters: the grading kernel keeps at most "
                    f"{self._cell_limit:,} characters of output from one cell and {self._notebook_limit:,} from the "
                    "whole notebook ...\n",
                )
            )
        return out
