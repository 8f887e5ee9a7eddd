"""The grading kernel's sandbox is one process, bounded by the kernel's own limits, as autograding runs it (a real
sandboxed kernel through the kit's Execute): a cell past the memory limit gets a MemoryError, a cell that starts a
process is told why it cannot, threads are bounded, and in each case the later cells run; the reference solution's
notebook runs under the default limits.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat import NotebookNode
from traitlets.config import Config

from autograder.cell_ids import grade_id

REPO = Path(__file__).resolve().parents[1]
LINUX = pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")
pytestmark = pytest.mark.slow
TOO_MUCH = """
try:
    block = bytearray(1536 << 20)
    print("allocated")
except MemoryError:
    print("MemoryError")
"""
PROCESSES = """
import ctypes, multiprocessing, os, subprocess
for start in (os.fork, lambda: subprocess.run(["true"]), lambda: os.system("true"),
              lambda: multiprocessing.Process(target=print).start()):
    try:
        start()
        print("started")
    except PermissionError as error:
        print(type(error).__name__, error)
print("shmget", ctypes.CDLL(None).shmget(0, 1 << 30, 0o1600))
"""


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


def _notebook(*sources: str) -> NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, code in enumerate(sources):
        cell = nbformat.v4.new_code_cell(textwrap.dedent(code).strip())
        cell.metadata["nbgrader"] = {"grade_id": f"cell{index}", "solution": True, "grade": False, "locked": False}
        nb.cells.append(cell)
    return nb


@LINUX
def test_a_cell_past_the_memory_limit_gets_a_memory_error_and_the_next_cells_run(tmp_path: Path) -> None:
    """The kernel's sandbox is one process: its address-space limit bounds all it holds, besides its sized tmpfs."""
    (tmp_path / "submission").mkdir()
    nb, _ = _execute(
        tmp_path / "submission", _notebook("print('before')", TOO_MUCH, "print('after')"), kernel_memory_mib=1024
    )
    assert [_text(cell) for cell in nb.cells] == ["before\n", "MemoryError\n", "after\n"]
    assert not _kit_processes(str(tmp_path)), "processes of the kernel's sandbox outlived it"
    nbformat.validate(nb)


@LINUX
def test_a_cell_that_starts_a_process_is_told_why_it_cannot_and_the_next_cells_run(tmp_path: Path) -> None:
    (tmp_path / "submission").mkdir()
    nb, _ = _execute(tmp_path / "submission", _notebook(PROCESSES, "print('after')"))
    said = _text(nb.cells[0]).splitlines()
    assert len(said) == 5 and "started" not in said, said
    assert all(line.startswith("NotWhileGrading ") and "not allowed while grading" in line for line in said[:4]), said
    assert "works in your own notebook" in said[0] and said[4] == "shmget -1", said
    assert "EVENTS" not in "".join(str(o) for o in nb.cells[0].outputs)  # the hook's own frame is not shown
    assert _text(nb.cells[1]) == "after\n"


@LINUX
def test_the_reference_notebook_runs_in_the_kernel_far_under_the_default_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # as nbgrader sets it: the training cell is skipped
    shutil.copytree(REPO / "solutions" / "mlp", tmp_path / "submission")
    nb = nbformat.read(tmp_path / "submission" / "mlp.ipynb", as_version=4)
    nb, execute = _execute(tmp_path / "submission", nb, kernel_memory_mib=2048)
    errors = [
        (grade_id(cell), _text(cell)[-300:])
        for cell in nb.cells
        if any(output.output_type == "error" for output in cell.get("outputs", []))
    ]
    assert not errors, errors


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
