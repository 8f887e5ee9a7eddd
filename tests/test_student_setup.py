"""The student guide's set-up leaves formgrader out of reach: its steps that disable the instructor's tools, run as
written in a student's `.venv`, and then the student's JupyterLab answers 404 for formgrader's pages and API. Before
those steps the same server serves them (the control). Slow tier: it starts JupyterLab twice."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOKEN = "kit-student-setup-test"
FORMGRADER = ("/formgrader", "/formgrader/manage_assignments", "/formgrader/api/assignments")

pytestmark = pytest.mark.slow


def disable_steps() -> str:
    """The guide's set-up command after the venv and pip: the steps that disable the instructor's tools."""
    guide = (REPO / "docs" / "student-guide.md").read_text()
    line = next(text for text in guide.splitlines() if "labextension disable" in text)
    return " && ".join(step for step in line.split(" && ") if " disable " in step)


def _student_folder(root: Path) -> Path:
    """A folder with a `.venv` as the guide's venv and pip leave it: its own prefix (where `--sys-prefix` writes),
    the kit's installed packages standing in for pip's download of the same Jupyter and nbgrader."""
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (purelib / "kit.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    shutil.copytree(Path(sys.prefix) / "etc" / "jupyter", venv / "etc" / "jupyter")  # what pip installs there
    (venv / "share").mkdir()
    (venv / "share" / "jupyter").symlink_to(Path(sys.prefix) / "share" / "jupyter")
    for script in ("jupyter", "jupyter-server", "jupyter-lab", "jupyter-labextension"):
        text = (Path(sys.executable).parent / script).read_text().split("\n", 1)[1]
        (venv / "bin" / script).write_text(f"#!{venv / 'bin' / 'python'}\n{text}")
        (venv / "bin" / script).chmod(0o755)
    return root


def _statuses(folder: Path, env: dict[str, str]) -> tuple[dict[str, int], str]:
    """Formgrader's paths as the student's `jupyter lab` answers them, and its log."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = folder / f"lab-{port}.log"
    command = [".venv/bin/jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1"]
    command += [f"--IdentityProvider.token={TOKEN}", *(["--allow-root"] if os.geteuid() == 0 else [])]
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=folder, env=env, stdout=out, stderr=out)
    try:
        statuses: dict[str, int] = {}
        deadline = time.time() + 90
        while not statuses:
            assert server.poll() is None and time.time() < deadline, log.read_text()[-3000:]
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={TOKEN}", timeout=2).close()
            except OSError:
                time.sleep(0.5)
                continue
            for path in FORMGRADER:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}?token={TOKEN}") as response:
                        statuses[path] = response.status
                except urllib.error.HTTPError as error:
                    statuses[path] = error.code
        return statuses, log.read_text()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_student_setup_leaves_formgrader_unreachable(tmp_path: Path) -> None:
    folder = _student_folder(tmp_path / "student")
    home = tmp_path / "home"
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    before, _ = _statuses(folder, env)
    assert set(before.values()) <= {200, 302} and before["/formgrader/api/assignments"] == 200, before  # the control
    subprocess.run(disable_steps(), shell=True, check=True, cwd=folder, env=env, capture_output=True)
    after, log = _statuses(folder, env)
    assert set(after.values()) == {404}, after
    assert "nbgrader.server_extensions.assignment_list | extension was successfully loaded" in log  # the students'
