"""The grading kernel's sandbox as a whole has a memory bound, watched from outside (``grading.kernel.SandboxWatch``).

The fast tests watch a plain process tree; the slow ones run a real sandboxed kernel through the kit's Execute, as
autograding does: forked children that together hold more than the bound stop the kernel, that cell says why and
the later cells are not run; the reference solution's notebook runs under the default bound.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat import NotebookNode
from traitlets.config import Config

from autograder.cell_ids import grade_id
from autograder.grading import kernel
from autograder.settings import KitGrading

REPO = Path(__file__).resolve().parents[1]
LINUX = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; the sandbox uses Linux namespaces")
FORKED = """
import os, time
for _ in range(4):
    if os.fork() == 0:
        block = b"x" * ({mib} << 20)  # written: every page is the host's memory
        time.sleep(600)
        os._exit(0)
time.sleep(600)
"""


def _start(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], start_new_session=True)


def _gone(process: subprocess.Popen, seconds: float) -> bool:
    try:
        process.wait(seconds)
        return True
    except subprocess.TimeoutExpired:
        return False


@LINUX
def test_the_watch_kills_a_tree_whose_forked_children_together_pass_the_bound() -> None:
    process = _start(FORKED.format(mib=100))
    watch = kernel.SandboxWatch(process, 256 << 20)
    try:
        assert _gone(process, 20), "the watch did not stop a tree of 400 MiB under a bound of 256 MiB"
        assert watch.reason == "it held more than 256 MiB of memory, all its processes and files together"
        assert watch.peak > 256 << 20
        time.sleep(0.5)
        assert not _live_in_session(process.pid), "the children outlived the watch's kill"
    finally:
        kernel.kill_sandbox(process)
        process.wait()
        watch.stop()


def _live_in_session(session: int) -> list[int]:
    """The processes of ``session`` that are still running (not zombies waiting to be reaped)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != b"Z":
            found.append(int(pid))
    return found


@LINUX
def test_a_tree_under_the_bound_runs_on_and_a_stopped_watch_kills_nothing() -> None:
    process = _start(FORKED.format(mib=20))
    watch = kernel.SandboxWatch(process, 256 << 20)
    try:
        assert not _gone(process, 3) and watch.reason == ""
        watch.stop()
        assert watch.peak > 4 * 15 << 20  # it did read the children's memory
        assert process.poll() is None
    finally:
        kernel.kill_sandbox(process)
        process.wait()
        watch.stop()


def test_the_bound_is_a_setting_with_a_default_far_above_the_reference_and_below_the_machine() -> None:
    assert KitGrading().kernel_sandbox_memory_mib == 2048
    config = Config()
    config.KitGrading.kernel_sandbox_memory_mib = 512
    assert KitGrading(config=config).kernel_sandbox_memory_mib == 512


# ------------------------------------------------------------------------- a real sandboxed kernel, as autograding


def _execute(folder: Path, nb: NotebookNode, **kit: Any) -> tuple[NotebookNode, Any]:
    """Run ``nb`` beside the files of ``folder`` in the sandboxed kernel, as autograding does; also return its
    preprocessor (which keeps its kernel manager)."""
    from autograder.preprocessors.kernel import SandboxedExecute

    config = Config()
    config.KitGrading.work_dir = str(folder.parent)
    config.SandboxedExecute.timeout = 120
    for name, value in kit.items():
        setattr(config.KitGrading, name, value)
    execute = SandboxedExecute(config=config)
    nb, _ = execute.preprocess(nb, {"metadata": {"path": str(folder)}})
    return nb, execute


def _text(cell: NotebookNode) -> str:
    return "".join(o.get("text", "") + o.get("evalue", "") + "".join(o.get("traceback", [])) for o in cell.outputs)


def _kit_processes(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if marker.encode() in cmdline.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


@pytest.mark.slow
@LINUX
def test_forked_children_past_the_bound_stop_the_kernel_and_the_cell_says_why(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, code in enumerate(["print('before')", FORKED.format(mib=600), "print('after')"]):
        cell = nbformat.v4.new_code_cell(textwrap.dedent(code).strip())
        cell.metadata["nbgrader"] = {"grade_id": f"cell{index}", "solution": True, "grade": False, "locked": False}
        nb.cells.append(cell)
    (tmp_path / "submission").mkdir()
    start = time.monotonic()
    nb, _ = _execute(tmp_path / "submission", nb, kernel_sandbox_memory_mib=1024)
    seconds = time.monotonic() - start
    bound = "it held more than 1024 MiB of memory, all its processes and files together"
    assert _text(nb.cells[0]) == "before\n"
    assert f"the kernel stopped while this cell ran ({bound})." in _text(nb.cells[1]), _text(nb.cells[1])
    assert f"this cell was not run: the kernel stopped in cell 'cell1' ({bound})." in _text(nb.cells[2])
    assert seconds < 60, seconds  # stopped at the bound, not by the cell's 120 s
    assert not _kit_processes(str(tmp_path)), "processes of the kernel's sandbox outlived it"
    nbformat.validate(nb)


@pytest.mark.slow
@LINUX
def test_the_reference_notebook_runs_in_the_kernel_far_under_the_default_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # as nbgrader sets it: the training cell is skipped
    shutil.copytree(REPO / "solutions" / "mlp", tmp_path / "submission")
    nb = nbformat.read(tmp_path / "submission" / "mlp.ipynb", as_version=4)
    nb, execute = _execute(tmp_path / "submission", nb)
    errors = [
        (grade_id(cell), _text(cell)[-300:])
        for cell in nb.cells
        if any(output.output_type == "error" for output in cell.get("outputs", []))
    ]
    assert not errors, errors
    watch = execute._kernel._watch
    assert watch.reason == ""
    assert 0 < watch.peak < (KitGrading().kernel_sandbox_memory_mib << 20) // 8, watch.peak >> 20


THREADS = """
import threading, time
started = 0
try:
    for _ in range(300):
        threading.Thread(target=time.sleep, args=(3,), daemon=True).start()
        started += 1
except RuntimeError as error:
    print("stopped at", started, type(error).__name__)
"""


@pytest.mark.slow
@LINUX
def test_the_kernels_sandbox_holds_at_most_its_processes_threads_included(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(THREADS), nbformat.v4.new_code_cell("time.sleep(4); print('after')")]
    (tmp_path / "submission").mkdir()
    nb, _ = _execute(tmp_path / "submission", nb)
    said = _text(nb.cells[0])
    assert said.startswith("stopped at ") and "RuntimeError" in said, said
    assert 32 < int(said.split()[2]) < 64, said  # the default bound; the kernel's own threads count too
    assert _text(nb.cells[1]) == "after\n"
