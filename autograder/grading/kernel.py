"""The notebook's kernel, sandboxed and without the grader: the kernel manager ``SandboxedExecute`` starts.

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
from the kernel. Its clients take no message larger than ``MESSAGE_BYTES``
(printed text leaves the kernel in parts), and ``input()`` fails at once:
standard input is empty. A cell past its time is interrupted by a message to
the kernel: a signal would stop at bubblewrap.

nbgrader's preprocessor of this kernel is ``autograder.preprocessors.kernel.SandboxedExecute``; what it keeps of
the kernel's output and how long the cells may run are in ``autograder.grading.cell_limits``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import zmq
from jupyter_client.manager import AsyncKernelManager

from autograder import sandbox
from autograder.settings import KitGrading

GRADER_PACKAGE = Path(__file__).resolve().parents[1]
SOCKETS = Path("/run/kit/io")  # inside the sandbox: the kernel binds its sockets there
START_SECONDS = 60.0  # for the kernel to bind its sockets (nbclient's own startup timeout)
MESSAGE_BYTES = 16 << 20  # zmq drops the connection to a kernel that sends a larger message part (then reconnects)
QUEUED_MESSAGES = 32  # waiting in nbgrader's process: the kernel drops what it publishes beyond them
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


def _is_socket(path: Path) -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return False
