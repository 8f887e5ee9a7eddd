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

The kernel starts from a trusted place: its interpreter runs isolated (``sandbox.ISOLATED``: neither the working
directory nor the user's site-packages or ``PYTHON*`` variables count) from a launcher in the stand-in's folder,
and its IPython and Jupyter folders are an empty folder that exists only inside the sandbox, so nothing of the
submission (``ipykernel_launcher.py``, ``sitecustomize.py``, ``.ipython/profile_default/startup/``, a ``numpy/``
folder, ...) runs before its first cell. IPython itself puts the notebook's folder on ``sys.path``, before
site-packages, as in any kernel (``InteractiveShellApp.init_path``, the student's lab does the same): once the kernel's
own packages are imported, so a student's own helper module imports as always and none of theirs stands in for the
kernel's.
What the kernel process itself writes on its standard output and error goes to the grading log through a pipe, at
most ``KitGrading.kernel_cell_output_chars`` bytes of it (then a note; the rest is read and dropped). Every message
from the kernel is checked before nbclient sees it (``KitKernelClient``): one it could not take (no ``text`` in a
``stream``, ``data`` that is not a MIME bundle, a header that is not a dict, ...) is dropped, and said in the output
of the cell that was running, for the student; a malformed reply to a cell is replaced by an error.

The kernel's sandbox is one process (``autograder.sandbox``'s filter): its address-space limit
(``KitGrading.kernel_memory_mib``) and its tmpfs folders of fixed sizes bound all the memory it can hold, so a cell
that asks for more gets a ``MemoryError`` and the cells after it run; nothing watches it from outside.

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
import threading
import time
from pathlib import Path
from typing import Any

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import AsyncKernelManager
from nbformat.v4 import output_from_msg
from traitlets import Type

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading.cell_limits import short_error
from autograder.settings import KitGrading

GRADER_PACKAGE = Path(__file__).resolve().parents[1]
SOCKETS = Path("/run/kit/io")  # inside the sandbox: the kernel binds its sockets there
KERNEL_HOME = Path("/run/kit/ipython")  # inside the sandbox: the kernel's IPython and Jupyter folders, empty at start
START_SECONDS = 60.0  # for the kernel to bind its sockets (nbclient's own startup timeout)
MESSAGE_BYTES = 16 << 20  # zmq drops the connection to a kernel that sends a larger message part (then reconnects)
LOG_SECONDS = 5.0  # for the last of the kernel's own output to reach the log once it has ended
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
# The kernel's entry point, run isolated (``sandbox.ISOLATED``): as it starts, no folder of the submission is on
# sys.path, only the stand-in's, this script's own; IPython adds the notebook's ('') once ipykernel is imported.
KERNEL_LAUNCHER = """import kit_no_processes
from ipykernel import kernelapp

kit_no_processes.install()
kernelapp.launch_new_instance()
"""
STAND_IN_FILES = {
    "kit_no_processes.py": (GRADER_PACKAGE / "probe" / "no_processes.py").read_text(),
    "kit_output_in_parts.py": OUTPUT_IN_PARTS,
    "kit_kernel.py": KERNEL_LAUNCHER,
}
EXEC_LINES = ("import kit_output_in_parts; del kit_output_in_parts",)


class SandboxKernelManager(AsyncKernelManager):
    """A kernel in ``autograder.sandbox``, talking over Unix sockets in a private folder."""

    client_factory = Type(  # type: ignore[assignment]
        default_value="autograder.grading.kernel.KitKernelClient", klass="jupyter_client.asynchronous.AsyncKernelClient"
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        kit = KitGrading(config=self.config)
        self._isolated = kit.sandbox
        self._limits = kit.kernel_limits()
        self._disk_bytes = kit.kernel_disk_mib << 20
        self._log_bytes = kit.kernel_cell_output_chars
        self._log_drain: threading.Thread | None = None
        # io/ (connection file; links to the sockets), work/, stand-in/
        self._home = Path(tempfile.mkdtemp(prefix="kit-kernel-", dir=kit.scratch()))
        self._box = self._home / "io"
        self._box.mkdir()
        self._socket_fds: list[int] = []
        self.transport = "ipc"
        self.connection_file = str(self._box / "kernel.json")
        # Where the kernel binds: unsandboxed, it starts in work/, beside io/ (relative, as the scratch may be deep)
        self._kernel_ip = str(SOCKETS / "kernel-ipc") if self._isolated else "../io/kernel-ipc"
        self.ip = self._kernel_ip

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        workdir = self._home / "work"
        source = Path(kw.get("cwd") or os.getcwd())
        shutil.copytree(source, workdir, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        stand_in = self._home / "stand-in"
        (stand_in / "autograder").mkdir(parents=True)
        (stand_in / "autograder" / "__init__.py").write_text(STAND_IN)
        for name, text in STAND_IN_FILES.items():
            (stand_in / name).write_text(text)
        kernel_home = KERNEL_HOME if self._isolated else self._home / "ipython"
        if not self._isolated:
            kernel_home.mkdir()
        env = {k: v for k, v in os.environ.items() if k.startswith("NBGRADER_")}
        env.update(
            {
                "OPENBLAS_NUM_THREADS": "1",
                "MPLBACKEND": "agg",
                "IPYTHONDIR": str(kernel_home),
                "JUPYTER_CONFIG_DIR": str(kernel_home / "jupyter"),
                "JUPYTER_DATA_DIR": str(kernel_home / "jupyter"),
                "JUPYTER_RUNTIME_DIR": str(kernel_home / "jupyter"),
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONPATH": str(stand_in),  # for the processes a cell starts; the kernel itself ignores it (-I)
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
            private=(SOCKETS, KERNEL_HOME),
        )
        box.prepare()
        if self._isolated and os.geteuid() == 0:  # started by root, the sandbox runs as nobody: it must read this
            os.chown(self.connection_file, sandbox.SANDBOX_UID, sandbox.SANDBOX_UID)
        log_pipe, kernel_output = os.pipe()
        # Sandboxed, bubblewrap changes to the working folder; without a sandbox the kernel must start there
        launch = {**kw, "cwd": str(self._home if self._isolated else workdir), "stdin": subprocess.DEVNULL}
        launch |= {"stdout": kernel_output, "stderr": kernel_output}
        try:
            await super()._async_launch_kernel(box.wrap(trusted_command(kernel_cmd, stand_in)), **launch)
        except BaseException:
            os.close(log_pipe)
            raise
        finally:
            os.close(kernel_output)
        self._log_drain = threading.Thread(
            target=drain_to_log, args=(log_pipe, self._log_bytes), name="kit-kernel-log", daemon=True
        )
        self._log_drain.start()
        if self._isolated:
            await self._reach_sockets()
        else:
            self.ip = self._short_address()

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
        sandbox.started()  # the kernel bound its sockets inside: the preparation needs no test sandbox of its own
        for name in names:
            try:
                fd = os.open(folder / name, os.O_PATH | os.O_NOFOLLOW)
            except OSError:
                return
            self._socket_fds.append(fd)
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                return
            (self._box / name).symlink_to(f"/proc/{os.getpid()}/fd/{fd}")
        self.ip = self._short_address()

    def _short_address(self) -> str:
        """``io/kernel-ipc``, named through this process's descriptor on ``io/``: a Unix socket's address holds at
        most 107 bytes, and the scratch folder (``KitGrading.work_dir``, ``$TMPDIR``) may be deep."""
        fd = os.open(self._box, os.O_PATH | os.O_DIRECTORY)
        self._socket_fds.append(fd)
        return f"/proc/{os.getpid()}/fd/{fd}/kernel-ipc"

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
        if self._log_drain is not None:  # the kernel has ended: what it wrote last reaches the log first
            self._log_drain.join(LOG_SECONDS)
        if not restart:
            shutil.rmtree(self._home, ignore_errors=True)

    cleanup_resources = _async_cleanup_resources


def _is_socket(path: Path) -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return False


def trusted_command(kernel_cmd: list[str], stand_in: Path) -> list[str]:
    """The kernel spec's ``python -m ipykernel_launcher ARGS`` as ``python -E -s -B <stand-in>/kit_kernel.py ARGS``
    with the kit's own options: started isolated, the working directory (the submission) is not on its path."""
    if kernel_cmd[1:3] != ["-m", "ipykernel_launcher"]:
        raise GraderFault(f"the grading kernel is not a Python kernel the kit knows how to start ({kernel_cmd[:3]})")
    return [
        kernel_cmd[0],
        *sandbox.ISOLATED,
        "-B",
        str(stand_in / "kit_kernel.py"),
        *kernel_cmd[3:],  # nbclient's own options among them: --HistoryManager.hist_file=:memory:
        *(f"--IPKernelApp.exec_lines={line}" for line in EXEC_LINES),
    ]


def drain_to_log(pipe: int, limit: int) -> None:
    """Copy what the kernel process writes on ``pipe`` to this process's standard error (the grading log), at most
    ``limit`` bytes and a note; read and drop the rest until the kernel ends, so it never waits on a full pipe."""
    kept = 0
    try:
        while chunk := os.read(pipe, 1 << 16):
            if kept >= limit:
                continue
            part = chunk[: limit - kept]
            kept += len(part)
            _to_log(part)
            if kept >= limit:
                _to_log(
                    f"\n[the grading kernel's own output was cut after {limit:,} bytes "
                    "(c.KitGrading.kernel_cell_output_chars); the rest is dropped]\n".encode()
                )
    except OSError:
        pass
    finally:
        os.close(pipe)


def _to_log(data: bytes) -> None:
    try:
        while data:
            data = data[os.write(2, data) :]
    except OSError:  # the log is the grader's: a full disk there is not the kernel's to report
        pass


# ---------------------------------------------------------------- what the kernel sends, checked before nbclient


DROPPED = "kit_dropped"  # the type of a message put in place of one nbclient could not take: nothing waits for it
OUTPUTS = ("stream", "display_data", "execute_result", "error")
IOPUB = (*OUTPUTS, "update_display_data", "status", "execute_input", "clear_output")
"""What nbclient takes from the kernel's IOPub; anything else (comms, debug events, ...) is dropped unread: the
grading kernel keeps no widget state."""


def dropped() -> dict[str, Any]:
    header = {"msg_id": "", "msg_type": DROPPED}
    return {"header": header, "msg_id": "", "msg_type": DROPPED, "parent_header": {}, "metadata": {}, "content": {}}


def envelope_problem(msg: Any) -> str | None:
    """What in a message's envelope nbclient could not take, or None."""
    if not isinstance(msg, dict):
        return "a message that is not a dict"
    for part in ("header", "parent_header", "metadata", "content"):
        if not isinstance(msg.get(part), dict):
            return f"a message whose {part} is not a dict"
    if not isinstance(msg.get("msg_type"), str) or msg["header"].get("msg_type") != msg["msg_type"]:
        return "a message without a type"
    if not isinstance(msg.get("buffers", []), list):
        return "a message whose buffers are not a list"
    return None


def iopub_problem(msg: dict[str, Any]) -> str | None:
    """What in an IOPub message nbclient (and nbformat) could not take, or None."""
    kind, content = msg["msg_type"], msg["content"]
    count = content.get("execution_count")
    if "execution_count" in content and not (count is None or (isinstance(count, int) and not isinstance(count, bool))):
        return f"a {kind!r} message whose execution_count is not a number"
    transient = content.get("transient")
    if transient is not None and not (isinstance(transient, dict) and isinstance(transient.get("display_id", ""), str)):
        return f"a {kind!r} message whose transient display_id is not text"
    if kind == "status" and not isinstance(content.get("execution_state"), str):
        return "a 'status' message without an execution_state"
    if kind in OUTPUTS or kind == "update_display_data":
        as_output = "display_data" if kind == "update_display_data" else kind
        try:
            output_from_msg({**msg, "header": {**msg["header"], "msg_type": as_output}})
        except Exception as error:  # noqa: BLE001 - KeyError, TypeError, a schema's ValidationError: all the same
            return f"a {kind!r} message that is not a valid output ({type(error).__name__}: {_first_line(error)})"
    return None


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [""])[0][:200]


def repaired_reply(msg: dict[str, Any]) -> dict[str, Any]:
    """An ``execute_reply`` nbclient and nbgrader can read: a malformed one becomes an error, an error is shortened."""
    content = msg["content"]
    status = content.get("status")
    if status != "error" and isinstance(status, str):
        return msg
    if status == "error":
        short = short_error(content)
    else:
        why = "the reply to this cell had no status"
        short = {"ename": MALFORMED, "evalue": why, "traceback": [f"\x1b[0;31m{MALFORMED}\x1b[0m: {why}"]}
    return {**msg, "content": {**content, **short, "status": "error"}}


MALFORMED = "MalformedKernelMessage"


class KitChannel(AsyncZMQSocketChannel):
    """A channel from the kernel that hands on only messages nbclient can take; it names what it drops in
    ``problems`` (the client gives them to the cell running: ``KitKernelClient.take_problems``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []
        self.dropped = 0

    async def _recv(self, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        assert self.socket is not None
        frames = await self.socket.recv_multipart(**kwargs)  # a closed socket raises here, as in jupyter_client
        try:
            _, parts = self.session.feed_identities(frames)
            msg = self.session.deserialize(parts)
        except Exception as error:  # noqa: BLE001 - bad JSON, signature, header: anything the kernel sent
            return self._drop(f"a message that could not be read ({type(error).__name__}: {_first_line(error)})")
        problem = envelope_problem(msg)
        if problem is not None:
            return self._drop(problem)
        return self.checked(msg)

    def checked(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The message as nbclient may take it (its envelope is sound)."""
        return msg

    def _drop(self, problem: str) -> dict[str, Any]:
        self.dropped += 1
        if len(self.problems) < PROBLEMS_NAMED:
            self.problems.append(problem)
        return dropped()


class KitShellChannel(KitChannel):
    def checked(self, msg: dict[str, Any]) -> dict[str, Any]:
        return repaired_reply(msg) if msg["msg_type"] == "execute_reply" else msg


class KitIOPubChannel(KitChannel):
    def checked(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg["msg_type"] not in IOPUB:
            return dropped()
        problem = iopub_problem(msg)
        return msg if problem is None else self._drop(problem)


class KitKernelClient(AsyncKernelClient):
    """The kernel's client in nbgrader's process: its shell and IOPub channels check every message."""

    shell_channel_class = Type(KitShellChannel)  # type: ignore[assignment]
    iopub_channel_class = Type(KitIOPubChannel)  # type: ignore[assignment]

    def take_problems(self) -> tuple[int, list[str]]:
        """How many messages were dropped since the last call, and what was wrong with the first of them."""
        count, problems = 0, []
        for channel in (self._shell_channel, self._iopub_channel):
            if isinstance(channel, KitChannel):
                count, problems = count + channel.dropped, problems + channel.problems
                channel.dropped, channel.problems = 0, []
        return count, problems[:PROBLEMS_NAMED]


PROBLEMS_NAMED = 3  # of one cell's malformed messages, the first are named; the rest are counted
