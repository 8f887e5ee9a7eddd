"""Run untrusted code as an unprivileged user in new namespaces: no network, its own processes, a minimal file system.

``Sandbox(...).wrap(argv)`` returns a command that, started as root, enters new
network, mount, PID, IPC and UTS namespaces (util-linux ``unshare``) and runs
this file as the namespace's first process. That process builds a root file
system holding only the system directories, the paths the caller lists
(read-only, or writable) and private ``/tmp``, ``/dev`` and ``/proc``; then it
forks the command, which sets resource limits, drops to the unprivileged user
and executes ``argv``. When the command ends, the first process ends too, and
the kernel kills every process left in the namespace (a detached child too).

Only the standard library is used here: this file also runs as a script.
"""
from __future__ import annotations

import json
import os
import pwd
import resource
import shutil
import signal
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
DEVICES = ("null", "zero", "full", "random", "urandom")
USER_PREFIX = "kit-sandbox"


class SandboxError(RuntimeError):
    """The machine cannot run the sandbox (not root, no namespaces, ...): an instructor's problem."""


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 600
    memory_bytes: int = 4 << 30
    processes: int = 256  # per user: each concurrent sandbox gets its own user
    file_bytes: int = 256 << 20
    open_files: int = 1024


@dataclass(frozen=True)
class Sandbox:
    user: str
    workdir: Path  # the only writable directory besides the private /tmp
    readable: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()
    limits: Limits = field(default_factory=Limits)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        """Where the sandbox's root file system is mounted: an empty sibling of the working directory, removed with it."""
        return self.workdir.parent / f".{self.workdir.name}-root"

    def wrap(self, argv: list[str]) -> list[str]:
        """The command that runs ``argv`` inside this sandbox (start it as root, after ``prepare``)."""
        spec = {**asdict(self), "workdir": str(self.workdir), "readable": [str(p) for p in self.readable],
                "writable": [str(p) for p in self.writable], "root": str(self.root)}
        return ["unshare", "--net", "--mount", "--pid", "--ipc", "--uts", "--fork", "--kill-child", "--",
                sys.executable, "-I", str(Path(__file__).resolve()), json.dumps(spec), "--", *argv]

    def prepare(self) -> None:
        """Create the user if needed and give it the working directory."""
        ensure_user(self.user)
        entry = pwd.getpwnam(self.user)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.root.mkdir(exist_ok=True)
        for path in (self.workdir, *self.writable):
            for root, dirs, files in os.walk(path):
                for name in (root, *(os.path.join(root, n) for n in dirs + files)):
                    os.chown(name, entry.pw_uid, entry.pw_gid, follow_symlinks=False)


def python_paths() -> tuple[Path, ...]:
    """What the interpreter of this process needs to run: its installation and its environment (venv)."""
    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent}
    return tuple(sorted(paths))


def slot_user(slot: int) -> str:
    """The user of grading slot ``slot``: concurrent sandboxes get different users, so process limits stay apart."""
    return f"{USER_PREFIX}-{slot}"


def ensure_user(name: str) -> None:
    """Create a system user with no home, no shell and no groups but its own (needs root)."""
    try:
        pwd.getpwnam(name)
        return
    except KeyError:
        pass
    if os.geteuid() != 0:
        raise SandboxError(f"the sandbox user {name!r} does not exist and only root can create it; run grading as root")
    result = subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                             "--user-group", name], capture_output=True, text=True, check=False)
    if result.returncode != 0 and "already exists" not in result.stderr:
        raise SandboxError(f"could not create the sandbox user {name!r}: {result.stderr.strip()}")


def check_available() -> None:
    """Raise ``SandboxError`` with the reason if this machine cannot run sandboxes."""
    if os.geteuid() != 0:
        raise SandboxError("grading in the sandbox needs root (to create namespaces and switch to the sandbox user)")
    if shutil.which("unshare") is None:
        raise SandboxError("the `unshare` command (util-linux) is missing")
    probe = subprocess.run(["unshare", "--net", "--mount", "--pid", "--fork", "true"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        raise SandboxError(f"this machine does not allow new namespaces: {probe.stderr.strip()}")


# ---------------------------------------------------------------- inside the namespaces (run as a script)

def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _bind(source: str, root: Path, writable: bool) -> None:
    target = root / source.lstrip("/")
    if os.path.isdir(source):
        target.mkdir(parents=True, exist_ok=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    _mount("--rbind", source, str(target))
    if not writable:
        _mount("-o", "remount,bind,ro", str(target))


def _build_root(spec: dict) -> Path:
    """A root file system on a tmpfs: system directories, the listed paths, private /tmp, /dev and /proc."""
    _mount("--make-rprivate", "/")
    root = Path(spec["root"])
    _mount("-t", "tmpfs", "-o", "size=16m,mode=0755", "tmpfs", str(root))
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            os.symlink(os.readlink(directory), root / directory.lstrip("/"))
        elif os.path.isdir(directory):
            _bind(directory, root, writable=False)
    for private in ("tmp", "dev/shm"):  # first: the listed paths may lie under /tmp
        (root / private).mkdir(parents=True, exist_ok=True)
        _mount("-t", "tmpfs", "-o", "size=512m,mode=1777", "tmpfs", str(root / private))
    for path in spec["readable"]:
        if os.path.exists(path):
            _bind(path, root, writable=False)
    for path in [spec["workdir"], *spec["writable"]]:
        _bind(path, root, writable=True)
    for device in DEVICES:
        _bind(f"/dev/{device}", root, writable=True)
    (root / "proc").mkdir(exist_ok=True)
    _mount("-t", "proc", "proc", str(root / "proc"))
    return root


def _become_user(spec: dict) -> None:
    limits = spec["limits"]
    for limit, value in ((resource.RLIMIT_CPU, limits["cpu_seconds"]), (resource.RLIMIT_AS, limits["memory_bytes"]),
                         (resource.RLIMIT_NPROC, limits["processes"]), (resource.RLIMIT_FSIZE, limits["file_bytes"]),
                         (resource.RLIMIT_NOFILE, limits["open_files"]), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))
    entry = pwd.getpwnam(spec["user"])
    os.setgroups([])
    os.setgid(entry.pw_gid)
    os.setuid(entry.pw_uid)


def _enter(spec: dict, argv: list[str]) -> int:
    """Namespace init: build the root, run ``argv`` as the user, reap orphans, return its exit status."""
    entry = pwd.getpwnam(spec["user"])  # before the chroot hides /etc/passwd changes
    root = _build_root(spec)
    os.chroot(root)
    os.chdir(spec["workdir"])
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": spec["workdir"], "LANG": "C.UTF-8", "USER": entry.pw_name, **spec["env"]}
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command gets interrupts itself (same process group)
    child = os.fork()
    if child == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            _become_user(spec)
            os.execvpe(argv[0], argv, env)
        except BaseException as error:  # noqa: BLE001 - report and leave the child, whatever happened
            print(f"sandbox: cannot start {argv[0]}: {error}", file=sys.stderr)
        os._exit(127)
    signal.signal(signal.SIGTERM, lambda *_: os.kill(child, signal.SIGKILL))
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == child:
            return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":
    separator = sys.argv.index("--")
    sys.exit(_enter(json.loads(sys.argv[1]), sys.argv[separator + 1:]))
