"""The grading kernel's limits on what a notebook may cost: disk, output, time."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat import NotebookNode
from traitlets.config import Config

from autograder.preprocessors.kernel import SandboxedExecute

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")]


def execute(tmp_path: Path, cells: list[str], **kit: Any) -> NotebookNode:
    """Run ``cells`` (answer cells named cell0, cell1, ...) in the sandboxed kernel, as autograding does."""
    config = Config()
    config.KitGrading.work_dir = str(tmp_path)
    for name, value in kit.items():
        if name == "timeout":
            config.SandboxedExecute.timeout = value
        else:
            setattr(config.KitGrading, name, value)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, code in enumerate(cells):
        cell = nbformat.v4.new_code_cell(textwrap.dedent(code).strip())
        cell.metadata["nbgrader"] = {"grade_id": f"cell{index}", "solution": True, "grade": False, "locked": False}
        nb.cells.append(cell)
    (tmp_path / "submission").mkdir()
    nb, _ = SandboxedExecute(config=config).preprocess(nb, {"metadata": {"path": str(tmp_path / "submission")}})
    return nb


def text(cell: NotebookNode) -> str:
    return "".join(o.get("text", "") + o.get("evalue", "") + "".join(o.get("traceback", [])) for o in cell.outputs)


def test_the_kernel_writes_nothing_to_the_hosts_disk_and_at_most_its_limit_in_memory(tmp_path: Path) -> None:
    nb = execute(
        tmp_path,
        [
            """
            import os
            written = 0
            for folder in (".", "/tmp", "/dev/shm", "/run/kit/io", os.path.dirname(os.getcwd()) + "/io"):
                try:
                    for i in range(100):
                        with open(f"{folder}/f{i}", "wb") as f:
                            f.write(b"x" * (16 << 20))
                        written += 16
                except OSError as error:
                    print(folder, error.strerror)
            print("MiB", written)
            """,
            'print(sorted(os.listdir(".")))',
        ],
        kernel_disk_mib=64,
    )
    out = text(nb.cells[0])
    assert "./ No space left on device" not in out and ". No space left on device" in out, out
    assert "io Read-only file system" in out, out
    written = int(out.split("MiB")[-1])
    assert written <= 64 + 512 + 512 + 1, out
    listing = text(nb.cells[1]).strip()  # only what the cell wrote: IPython's folder is not the submission's
    assert listing in ("['f0', 'f1', 'f2', 'f3']", "['f0', 'f1', 'f2', 'f3', 'f4']"), listing
    assert not list(tmp_path.glob("kit-kernel-*")), "the kernel's folder is left behind"


def test_output_is_cut_as_it_arrives_per_cell_and_per_notebook_and_the_next_cells_run(tmp_path: Path) -> None:
    flood = 'line = "x" * (1 << 20)\nfor _ in range(200):\n    print(line)'
    nb = execute(
        tmp_path,
        [flood, "print('y' * 30_000)", "print('z' * 30_000)", "print('w' * 30_000)", "print('done')"],
        kernel_cell_output_chars=50_000,
        kernel_output_chars=100_000,
    )
    first = text(nb.cells[0])  # each output also counts OUTPUT_CHARS (64), the JSON of an empty one
    assert first.startswith("x" * 49_900) and "x\n... output cut after 50,000 characters" in first, first[-300:]
    assert len(first) < 51_000
    assert text(nb.cells[1]) == "y" * 30_000 + "\n"
    third = text(nb.cells[2])  # what the notebook's 100,000 leave: 50,000 and 30,000 taken, the streams' names, 64s
    assert third.startswith("z" * 19_700) and "z\n... output cut after 19,9" in third, third[-300:]
    assert text(nb.cells[3]).startswith("\n... output cut after 0 characters"), text(nb.cells[3])
    assert "done" not in text(nb.cells[4])  # the notebook's output is spent; the cell ran, its output is dropped


def test_the_notebook_has_a_time_budget_and_the_cells_after_it_say_who_spent_it(tmp_path: Path) -> None:
    start = time.monotonic()
    nb = execute(
        tmp_path,
        ["import time; time.sleep(10**6)", "print('quick')", "time.sleep(10**6)", "print('never')"],
        timeout=4,
        kernel_total_seconds=6,
    )
    seconds = time.monotonic() - start
    assert "stopped after 4 s: a cell may run for at most 4 s" in text(nb.cells[0]), text(nb.cells[0])
    assert text(nb.cells[1]) == "quick\n"  # the kernel was interrupted: the next cell runs
    second = text(nb.cells[2])
    assert "stopped after 2 s: the grading kernel's time budget for the whole notebook (6 s) was used up" in second
    assert "mostly by cell number 1 (4 s), cell number 3 (2 s)" in second, second  # cells of no part: by place
    last = text(nb.cells[3])
    assert "This cell was not run: the grading kernel's time budget" in last and "cell number 1 (4 s)" in last, last
    assert seconds < 6 + 12, seconds  # the budget, the kernel's start and end


def test_input_a_child_or_a_flood_cannot_stretch_the_budget(tmp_path: Path) -> None:
    start = time.monotonic()
    nb = execute(
        tmp_path,
        [
            "input('your name? ')",
            "import sys; print(repr(sys.stdin.read()))",
            "import subprocess; subprocess.run(['sleep', '1000'])",
            "subprocess.Popen(['sleep', '1000'], start_new_session=True).wait()",
            "while True: print('x' * 1000)",
            "import time\nwhile True:\n    try:\n        time.sleep(1000)\n    except KeyboardInterrupt:\n        pass",
            "print('never')",
        ],
        timeout=2,
        kernel_total_seconds=8,
    )
    seconds = time.monotonic() - start
    assert "StdinNotImplementedError" in text(nb.cells[0]) or "input requests" in text(nb.cells[0]), nb.cells[0]
    assert text(nb.cells[1]) == "''\n"
    for cell in nb.cells[2:4]:  # the kernel's sandbox is one process: a child is refused at once, and said so
        assert "starting another process is not allowed while grading" in text(cell), text(cell)[-500:]
    assert "stopped after 2 s" in text(nb.cells[4]), text(nb.cells[4])[-500:]
    assert "This cell was not run: the grading kernel's time budget" in text(nb.cells[6]), text(nb.cells[6])
    assert seconds < 8 + 16, seconds
