"""The sandbox: its own user and processes, no network, a private file system, limits, nothing left running."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from autograder import sandbox

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")]
REPO = Path(__file__).resolve().parents[1]
GRADER = REPO / "autograder"


def _run(
    tmp_path: Path,
    code: str,
    limits: sandbox.Limits = sandbox.Limits(),
    name: str = "work",
    hidden: tuple[Path, ...] = (),
) -> subprocess.CompletedProcess:
    box = sandbox.Sandbox(
        workdir=tmp_path / name, readable=(*sandbox.python_paths(), REPO), hidden=hidden, limits=limits
    )
    box.prepare()
    return subprocess.run(
        box.wrap([sys.executable, "-c", textwrap.dedent(code)]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_code_runs_as_nobody_without_capabilities_in_its_working_directory(tmp_path: Path) -> None:
    result = _run(
        tmp_path,
        """
        import os
        print(os.getuid(), os.getcwd(), [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0])
    """,
    )
    assert result.stdout.split() == [str(sandbox.SANDBOX_UID), str(tmp_path / "work"), "0000000000000000"], (
        result.stderr
    )


def test_files_outside_the_sandbox_cannot_be_read_or_written(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("solutions")
    # /home is there only as the way to Python, when the kit's interpreter or packages are in someone's home
    home = "/nonexistent" if any(str(p).startswith("/home/") for p in sandbox.python_paths()) else "/home"
    result = _run(
        tmp_path,
        f"""
        import os
        print([os.path.exists(p) for p in ({str(tmp_path / "secret.txt")!r}, "/root/.ssh", {home!r})])
        for path in ("/etc/kit-test", "/usr/kit-test", {str(REPO / "written")!r}):
            try:
                open(path, "w")
                print("wrote", path)
            except OSError:
                pass
        os.makedirs({str(tmp_path)!r}, exist_ok=True)
        open({str(tmp_path / "written")!r}, "w")  # the sandbox's private /tmp: never the host's
        open("mine.txt", "w").write("ok")
    """,
    )
    assert result.stdout.strip() == "[False, False, False]", result.stdout + result.stderr
    assert (tmp_path / "work" / "mine.txt").read_text() == "ok" and not (tmp_path / "written").exists()
    assert not (REPO / "written").exists()


def test_the_sandboxs_root_is_read_only_and_only_its_sized_folders_take_files(tmp_path: Path) -> None:
    """bubblewrap's root is a tmpfs of no set size: writable, the sandbox's user could fill the host's memory."""
    result = _run(
        tmp_path,
        """
        import os
        for path in ("/big", "/run/big", "/tmp/ok", "/dev/shm/ok", "ok"):
            try:
                open(path, "w").write("x")
                print("wrote", path)
            except OSError as error:
                print("refused", path, error.strerror)
    """,
    )
    said = result.stdout.splitlines()
    assert said[:2] == ["refused /big Read-only file system", "refused /run/big Read-only file system"], said
    assert said[2:] == ["wrote /tmp/ok", "wrote /dev/shm/ok", "wrote ok"], result.stdout + result.stderr


def test_hidden_paths_are_empty_even_inside_a_readable_folder(tmp_path: Path) -> None:
    result = _run(
        tmp_path,
        f"import os; print(os.listdir({str(GRADER)!r}), os.path.exists({str(REPO / 'README.md')!r}))",
        hidden=(GRADER,),
    )
    assert result.stdout.split() == ["[]", "True"], result.stdout + result.stderr


def test_there_is_no_network(tmp_path: Path) -> None:
    result = _run(
        tmp_path,
        """
        import socket
        for address in (("1.1.1.1", 53), ("127.0.0.1", 22)):
            try:
                socket.create_connection(address, timeout=2)
                print("connected", address)
            except OSError:
                pass
    """,
    )
    assert "connected" not in result.stdout and result.returncode == 0, result.stderr


THREADS_AND_ALLOCATE = """
    import threading, time
    try:
        blocks = [bytearray(1 << 28) for _ in range(8)]
        print("allocated 2 GiB")
    except MemoryError:
        print("MemoryError")
    threads = 0
    try:
        for _ in range(100):
            threading.Thread(target=time.sleep, args=(8,), daemon=True).start()
            threads += 1
    except RuntimeError:
        pass
    print("threads", threads)
"""


def test_memory_and_thread_limits_hold(tmp_path: Path) -> None:
    result = _run(tmp_path, THREADS_AND_ALLOCATE, limits=sandbox.Limits(memory_bytes=1 << 30, processes=20))
    assert "MemoryError" in result.stdout and "threads" in result.stdout, result.stdout + result.stderr
    assert int(result.stdout.split("threads")[1]) < 20


def test_each_sandbox_has_its_own_thread_limit(tmp_path: Path) -> None:
    """Two sandboxes at once, of the same user: each may start its own 15 threads (the limit is per sandbox)."""
    results: dict[str, subprocess.CompletedProcess] = {}
    code = THREADS_AND_ALLOCATE.replace("range(100)", "range(15)")
    threads = [
        threading.Thread(
            target=lambda n=n: results.__setitem__(n, _run(tmp_path, code, sandbox.Limits(processes=20), name=n))
        )
        for n in ("a", "b")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [int(results[n].stdout.split("threads")[1]) for n in ("a", "b")] == [15, 15], results


def test_a_machine_that_cannot_sandbox_is_told_how_to_fix_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "bin"  # readable by all: under root, bubblewrap is run as nobody
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    broken = folder / "bwrap"
    broken.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setattr(sandbox, "bwrap_binary", lambda: broken)
    with pytest.raises(
        sandbox.SandboxError,
        match="No permissions to create new namespace.*unprivileged user namespaces.*KitGrading.sandbox = False",
    ):
        sandbox.check_available()


def test_a_sandbox_that_cannot_run_the_interpreter_is_not_blamed_on_namespaces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "bin"  # readable by all: under root, bubblewrap is run as nobody
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    broken = folder / "bwrap"
    broken.write_text("#!/bin/sh\necho 'bwrap: execvp /gone/python: No such file or directory' >&2\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setattr(sandbox, "bwrap_binary", lambda: broken)
    with pytest.raises(sandbox.SandboxError) as raised:
        sandbox.check_available()
    assert f"could not run {sandbox.PYTHON}" in str(raised.value) and "/gone/python" in str(raised.value)
    assert "unprivileged user namespaces" not in str(raised.value)


def test_no_user_namespace_can_be_made_inside(tmp_path: Path) -> None:
    result = _run(
        tmp_path,
        """
        import ctypes
        print(ctypes.CDLL(None, use_errno=True).unshare(0x10000000))  # CLONE_NEWUSER
    """,
    )
    assert result.returncode == 0 and result.stdout.split() == ["-1"], result.stdout + result.stderr
