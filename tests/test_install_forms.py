"""The kit installs in every form an instructor uses, and a worker sees no grader in any of them.

Forms: editable (a link to one's own clone, ``pip install -e .``) or in site-packages (``pip install <clone>``, a git
URL or a wheel, on an instructor's machine or a Dask worker), also by an ordinary user from a clone another user owns
(a shared clone on a JupyterHub server): the build writes nothing into the clone.

A submission whose answer cell, in the worker, finds any module of the grader (its reference implementation, say)
ends the worker; one that finds none grades normally. Each install form grades it in the real sandbox.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts sandboxed workers

REPO = Path(__file__).resolve().parents[1]
INSTRUCTOR = "kit-instructor"  # the ordinary user of tests/test_grading_anywhere.py
PROBE = """
def _find_grader():
    import importlib.util, os
    for name in ("autograder.registry", "autograder.judge.reference", "autograder.judge.secret"):
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is not None and found.origin is not None and os.path.exists(found.origin):
            os._exit(42)  # the grader is reachable: the worker ends, and every check of the group fails
_found = _find_grader()
"""
RUN = """
import json, os, sys
from pathlib import Path
os.environ["MLP_GRADER_SECRET"] = "install-forms"
sys.path.insert(0, str(Path(sys.argv[1]) / "release" / "mlp"))  # the judges read the course's helpers, as graded
import autograder, nbformat
from autograder.classroom import Edit, apply_edits
from autograder.grading import verify, workers
from autograder import registry
text = apply_edits((Path(sys.argv[1]) / "solutions/mlp/mlp.ipynb").read_text(),
                   (Edit("relu", "class ReLU(Module):", sys.argv[3] + "\\nclass ReLU(Module):"),))
cells = verify.answer_cells(nbformat.reads(text, as_version=4))
grading = workers.Grading(helpers=Path(sys.argv[1]) / "release" / "mlp", mnist=None)
outcomes = workers.run_group(registry.worker_groups()[0], cells, grading, Path(sys.argv[2]))
print(json.dumps({"grader": autograder.__file__,
                  "passed": {c: verify._judge(c, o).passed for c, o in outcomes.items()}}))
"""


def _site_packages_python(folder: Path) -> str:
    """A fresh environment where ``pip install <this clone>`` put the kit in site-packages; it sees this environment's
    other packages through a .pth line (which does not load this environment's editable kit)."""
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", str(REPO)]
    done = subprocess.run(pip, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return str(python)


@pytest.mark.parametrize("form", ["editable", "site-packages"])
def test_a_worker_finds_no_grader_module(tmp_path: Path, form: str) -> None:
    python = sys.executable if form == "editable" else _site_packages_python(tmp_path / "venv")
    results = {}
    for name, code in (("probe", PROBE), ("control", "_nothing = None")):
        done = subprocess.run(
            [python, "-c", RUN, str(REPO), str(tmp_path / name), textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        results[name] = __import__("json").loads(done.stdout.strip().splitlines()[-1])
    installed = results["probe"]["grader"]
    assert (str(REPO) in installed) == (form == "editable"), installed
    assert all(results["control"]["passed"].values()), results["control"]
    assert all(results["probe"]["passed"].values()), results["probe"]  # os._exit(42) would have failed them all


def _ordinary_user() -> pwd.struct_passwd:
    """An ordinary user (made if need be, as tests/test_grading_anywhere.py makes it), or skip."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the shared clone must belong to another user than the one installing")
    try:
        return pwd.getpwnam(INSTRUCTOR)
    except KeyError:
        made = subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", INSTRUCTOR], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"cannot make an ordinary user: {made.stderr.decode()[-300:]}")
        return pwd.getpwnam(INSTRUCTOR)


def _pip_settings() -> dict[str, str]:
    """Where this machine's pip finds packages (its index, a local registry), for the user's pip to find them too."""
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    env = {}
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        name = key.rsplit(".", 1)[-1]
        if name in ("index-url", "extra-index-url", "find-links", "constraint", "cert"):
            env["PIP_" + name.upper().replace("-", "_")] = value.strip().strip("'\"")
    return env


def _shared_clone(folder: Path) -> Path:
    """A git repository of this working tree (its files git does not ignore), owned by root, read-only to others."""
    clone = folder / "clone"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (REPO / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, clone / name)
    git = ["git", "-C", str(clone), "-c", "user.name=Kit", "-c", "user.email=kit@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the kit"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    subprocess.run(["chmod", "-R", "go-w,a+rX", str(folder)], check=True)
    return clone


def test_an_ordinary_user_installs_the_kit_from_a_clone_root_owns() -> None:
    user = _ordinary_user()
    system = Path(f"/usr/bin/python3.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"no {system} for the user (this environment's Python may not be theirs to run)")
    folder = Path(tempfile.mkdtemp(prefix="kit-shared-"))
    try:
        folder.chmod(0o755)
        clone = _shared_clone(folder)
        mine = folder / "instructor"  # the user's own folder: their environment and their git settings
        mine.mkdir()
        os.chown(mine, user.pw_uid, user.pw_gid)
        env = {
            "HOME": user.pw_dir,
            "USER": user.pw_name,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "GIT_CONFIG_GLOBAL": str(mine / "gitconfig"),  # not the user's own ~/.gitconfig
            "PIP_CACHE_DIR": str(mine / "pip-cache"),
            **_pip_settings(),
        }
        prefix = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]

        def run(*command: str) -> subprocess.CompletedProcess:
            return subprocess.run([*prefix, *command], env=env, cwd=mine, capture_output=True, text=True, timeout=900)

        venv = mine / "venv"
        assert run(str(system), "-m", "venv", str(venv)).returncode == 0
        # This environment's packages stand in for the dependencies the user's pip would download.
        site = Path(
            run(
                str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"
            ).stdout.strip()
        )
        (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
        pip = [str(venv / "bin/python"), "-m", "pip", "install"]
        assert run("touch", str(clone / "probe")).returncode != 0  # the user cannot write into the clone

        installed = run(*pip, str(clone))
        assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
        _assert_installed(run, venv, site)

        refused = run("git", "clone", "-q", str(clone), str(mine / "own"))
        assert refused.returncode != 0 and "dubious ownership" in refused.stderr, refused.stderr
        # As git's message says, and docs/instructor-guide.md: trust the shared clone once, then clone or install
        # from its URL.
        assert run("git", "config", "--global", "--add", "safe.directory", f"{clone}/.git").returncode == 0
        from_git = run(*pip, "--force-reinstall", "--no-deps", f"git+file://{clone}")
        assert from_git.returncode == 0, from_git.stdout[-3000:] + from_git.stderr[-3000:]
        _assert_installed(run, venv, site)

        status = subprocess.run(
            ["git", "-C", str(clone), "status", "--porcelain", "--ignored"], capture_output=True, text=True, check=True
        )
        assert status.stdout == "", status.stdout  # neither build wrote into the clone (no egg-info, no build/)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _assert_installed(run, venv: Path, site: Path) -> None:
    """The user's environment imports the kit from its own site-packages, with every file of the package."""
    where = run(str(venv / "bin/python"), "-c", "import autograder.settings, autograder; print(autograder.__file__)")
    assert where.returncode == 0 and where.stdout.strip() == str(site / "autograder" / "__init__.py"), where
    tracked = subprocess.run(["git", "ls-files", "autograder"], cwd=REPO, capture_output=True, text=True, check=True)
    missing = [name for name in tracked.stdout.split() if not (site / name).is_file()]
    assert missing == [], missing
    usage = run(str(venv / "bin/python"), "-m", "autograder", "--help")
    assert usage.returncode == 0 and "grade" in usage.stderr, usage
