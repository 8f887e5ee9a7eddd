"""A worker sees no grader, however the kit is installed: editable (a link to the clone) or in site-packages (what
``pip install .`` and a wheel leave, on an instructor's machine or a Dask worker).

A submission whose answer cell, in the worker, finds any module of the grader (its reference implementation, say)
ends the worker; one that finds none grades normally. Each install form grades it in the real sandbox.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts sandboxed workers

REPO = Path(__file__).resolve().parents[1]
PROBE = """
def _find_grader():
    import importlib.util, os
    for name in ("autograder.registry", "autograder.judge.reference", "autograder.judge.secret"):
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is not None and found.origin is not None and os.path.exists(found.origin):
            os._exit(42)  # the grader is reachable: the worker ends, and every check of the part fails
_found = _find_grader()
"""
RUN = """
import json, os, sys
from pathlib import Path
os.environ["MLP_GRADER_SECRET"] = "install-forms"
sys.path.insert(0, str(Path(sys.argv[1]) / "release" / "mlp"))  # the judges read the course's helpers, as graded
import autograder, nbformat
from autograder.cli.classroom import Edit, apply_edits
from autograder.plugins import verify, workers
from autograder import registry
text = apply_edits((Path(sys.argv[1]) / "solutions/mlp/mlp.ipynb").read_text(),
                   (Edit("relu", "class ReLU(Module):", sys.argv[3] + "\\nclass ReLU(Module):"),))
cells = verify.answer_cells(nbformat.reads(text, as_version=4))
grading = workers.Grading(helpers=Path(sys.argv[1]) / "release" / "mlp", mnist=None)
outcomes = workers.run_part(registry.worker_groups()[0], cells, grading, Path(sys.argv[2]))
print(json.dumps({"grader": autograder.__file__,
                  "passed": {c: verify._judge(c, o).passed for c, o in outcomes.items()}}))
"""


def _site_packages_python(folder: Path) -> str:
    """A fresh environment whose site-packages holds a copy of the kit (as ``pip install .`` lays it out) and sees
    this environment's other packages through a .pth line (which does not load this environment's editable kit)."""
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
    shutil.copytree(REPO / "autograder", site / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
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
