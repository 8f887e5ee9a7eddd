"""The sandbox: an unprivileged user, no network, a private file system, limits, and nothing left running afterwards."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from autograder import sandbox

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")


DEFAULT_LIMITS = sandbox.Limits()


def _run(tmp_path: Path, code: str, limits: sandbox.Limits = DEFAULT_LIMITS, seconds: float = 60) -> subprocess.CompletedProcess:
    box = sandbox.Sandbox(user=sandbox.slot_user(0), workdir=tmp_path / "work", readable=sandbox.python_paths(), limits=limits)
    box.prepare()
    return subprocess.run(box.wrap([sys.executable, "-c", textwrap.dedent(code)]), capture_output=True, text=True, timeout=seconds, check=False)


def test_code_runs_as_the_sandbox_user_in_its_working_directory(tmp_path: Path) -> None:
    result = _run(tmp_path, "import os, pwd; print(pwd.getpwuid(os.getuid()).pw_name, os.getcwd())")
    assert result.stdout.split() == [sandbox.slot_user(0), str(tmp_path / "work")], result.stderr


def test_files_outside_the_sandbox_cannot_be_read_or_written(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("solutions")
    repo = Path(__file__).resolve().parents[1]
    result = _run(tmp_path, f"""
        import os
        print([os.path.exists(p) for p in ({str(tmp_path / "secret.txt")!r}, {str(repo / "source")!r}, {str(repo / "solutions")!r})])
        for path in ("/etc/kit-test", "/usr/kit-test", {str(tmp_path / "written")!r}):
            try:
                open(path, "w")
                print("wrote", path)
            except OSError:
                pass
        open("mine.txt", "w").write("ok")
    """)
    assert result.stdout.strip() == "[False, False, False]", result.stdout + result.stderr
    assert (tmp_path / "work" / "mine.txt").read_text() == "ok" and not (tmp_path / "written").exists()


def test_there_is_no_network(tmp_path: Path) -> None:
    result = _run(tmp_path, """
        import socket
        for address in (("1.1.1.1", 53), ("127.0.0.1", 22)):
            try:
                socket.create_connection(address, timeout=2)
                print("connected", address)
            except OSError:
                pass
    """)
    assert "connected" not in result.stdout and result.returncode == 0, result.stderr


def test_a_detached_child_ends_with_the_sandboxed_command(tmp_path: Path) -> None:
    marker = tmp_path / "work" / "still-running"
    result = _run(tmp_path, f"""
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3); open({str(marker)!r}, 'w')"], start_new_session=True)
    """)
    assert result.returncode == 0, result.stderr
    subprocess.run(["sleep", "4"], check=True)
    assert not marker.exists()


def test_memory_and_process_limits_hold(tmp_path: Path) -> None:
    result = _run(tmp_path, """
        import os
        try:
            blocks = [bytearray(1 << 28) for _ in range(8)]
            print("allocated 2 GiB")
        except MemoryError:
            print("MemoryError")
        children = 0
        try:
            for _ in range(100):
                if os.fork() == 0:
                    import time; time.sleep(5); os._exit(0)
                children += 1
        except OSError:
            print("fork refused after", children)
    """, limits=sandbox.Limits(memory_bytes=1 << 30, processes=20))
    assert "MemoryError" in result.stdout and "fork refused after" in result.stdout, result.stdout + result.stderr
