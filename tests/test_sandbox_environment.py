"""Nothing of the grader's environment reaches a sandbox, as root and as an ordinary user, isolated or not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from test_grading_anywhere import _as_user, _python_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")]
REPO = Path(__file__).resolve().parents[1]
CANARY = "secret-value-of-the-grader"

# Run by the grader's Python (as root, or as an ordinary user): a sandbox whose code reads the environment and
# command line of every process it can see (bubblewrap's and its own: it can start no other) and prints them.
SCRIPT = """
import os, subprocess, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from autograder import sandbox

READ_ALL = '''
import os, sys
seen = []
for pid in (p for p in os.listdir("/proc") if p.isdigit()):
    for name in ("environ", "cmdline"):
        try:
            seen.append(pid + " " + name + " " + open(f"/proc/{{pid}}/{{name}}", "rb").read().decode(errors="replace"))
        except OSError:
            pass
print("\\\\n".join(seen))
print("processes seen:", len({{line.split()[0] for line in seen}}))
'''
box = sandbox.Sandbox(workdir=Path({work!r}), readable=sandbox.python_paths(), isolated={isolated!r},
                      env={{"KIT_SANDBOX_OWN": "yes"}})
box.prepare()
done = subprocess.run(box.wrap([sandbox.PYTHON, "-c", READ_ALL]), capture_output=True, text=True, check=False)
print(done.stdout, done.stderr)
"""


def _read_from_sandbox(folder: Path, isolated: bool, user: bool) -> str:
    prefix, env, _ = _as_user() if user else ([], {}, Path.home())
    python = _python_for(prefix, env, folder) if user else sys.executable
    script = folder / "read_all.py"
    script.write_text(SCRIPT.format(repo=str(REPO), work=str(folder / "work"), isolated=isolated))
    done = subprocess.run(
        [*prefix, python, str(script)],
        env={**os.environ, **env, "KIT_TEST_CANARY": CANARY},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("user", [False, True], ids=["as-root-or-this-user", "as-an-ordinary-user"])
def test_no_process_in_a_sandbox_sees_the_graders_environment(user: bool) -> None:
    if user and os.geteuid() != 0:
        pytest.skip("this user is the ordinary user: the other case covers it")
    folder = Path(tempfile.mkdtemp(prefix="kit-environ-"))
    try:
        folder.chmod(0o755)
        if user:
            subprocess.run(["chown", f"{_as_user()[1]['USER']}:", str(folder)], check=True)
        seen = _read_from_sandbox(folder, isolated=True, user=user)
        assert "KIT_SANDBOX_OWN=yes" in seen and " cmdline " in seen, seen  # it read its processes
        assert CANARY not in seen and "MLP_GRADER_SECRET" not in seen, seen
        assert "1 environ" in seen, seen  # bubblewrap's own first process, started with the sandbox's environment
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_without_isolation_the_sandboxed_command_still_starts_with_its_own_environment(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    code = textwrap.dedent(
        """
        print(open("/proc/self/environ", "rb").read().decode())
        """
    )
    from autograder import sandbox

    box = sandbox.Sandbox(workdir=tmp_path / "work", isolated=False, env={"KIT_SANDBOX_OWN": "yes"})
    box.prepare()
    done = subprocess.run(
        box.wrap([sandbox.PYTHON, "-c", code]),
        env={**os.environ, "KIT_TEST_CANARY": CANARY},
        capture_output=True,
        text=True,
        check=False,
    )
    assert "KIT_SANDBOX_OWN=yes" in done.stdout and CANARY not in done.stdout, done.stdout + done.stderr
