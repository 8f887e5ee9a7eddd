"""The grading kernel starts from a trusted place, and what it sends cannot blame the grader or flood it (slow tier:
a real kernel in the sandbox, as autograding starts it; the same checks without a kernel: test_kernel_messages.py).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat import NotebookNode
from traitlets.config import Config

from autograder.preprocessors.kernel import SandboxedExecute

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="the sandbox uses Linux namespaces")]

RAN = "/tmp/kit-test-ran"  # the kernel's own /tmp: what a file of the submission that ran left there
MARK = f"open({RAN!r}, 'a').write({{name!r}} + ' ')\n"
VERSION = f"python{sys.version_info.major}.{sys.version_info.minor}"
SHADOWING = {
    "ipykernel_launcher.py": MARK.format(name="ipykernel_launcher.py")
    + "import runpy, sys\nsys.path.pop(0)\nrunpy.run_module('ipykernel_launcher', run_name='__main__')\n",
    "sitecustomize.py": MARK.format(name="sitecustomize.py"),
    "usercustomize.py": MARK.format(name="usercustomize.py"),
    f".local/lib/{VERSION}/site-packages/usercustomize.py": MARK.format(name="user site usercustomize.py"),
    f".local/lib/{VERSION}/site-packages/evil.pth": "import os; " + MARK.format(name="user site .pth"),
    ".ipython/profile_default/startup/00-evil.py": MARK.format(name=".ipython startup"),
    ".ipython/profile_default/ipython_config.py": MARK.format(name=".ipython ipython_config.py"),
    ".ipython/profile_default/ipython_kernel_config.py": MARK.format(name=".ipython ipython_kernel_config.py"),
    ".jupyter/jupyter_config.py": MARK.format(name=".jupyter"),
    "ipython_config.py": MARK.format(name="ipython_config.py"),
    "ipython_kernel_config.py": MARK.format(name="ipython_kernel_config.py"),
    "kit_output_in_parts.py": MARK.format(name="kit_output_in_parts.py"),
    "kit_notebook_folder.py": MARK.format(name="kit_notebook_folder.py"),
    "kit_kernel.py": MARK.format(name="kit_kernel.py"),
    "autograder/__init__.py": MARK.format(name="autograder/"),
    "ipykernel/__init__.py": MARK.format(name="ipykernel/"),
    "IPython/__init__.py": MARK.format(name="IPython/"),
    "zmq/__init__.py": MARK.format(name="zmq/"),
    "numpy/__init__.py": MARK.format(name="numpy/"),
    "mymodule.py": "HELLO = 'from the student helper'\n",
}


def execute(tmp_path: Path, cells: list[str], files: dict[str, str] | None = None, **kit: Any) -> NotebookNode:
    """Run ``cells`` (answer cells cell0, cell1, ...) in the sandboxed kernel, next to ``files``, as autograding."""
    config = Config()
    config.KitGrading.work_dir = str(tmp_path)
    for name, value in kit.items():
        setattr(config.KitGrading, name, value)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for index, code in enumerate(cells):
        cell = nbformat.v4.new_code_cell(textwrap.dedent(code).strip())
        cell.metadata["nbgrader"] = {"grade_id": f"cell{index}", "solution": True, "grade": False, "locked": False}
        nb.cells.append(cell)
    submission = tmp_path / "submission"
    for name, text in (files or {}).items():
        (submission / name).parent.mkdir(parents=True, exist_ok=True)
        (submission / name).write_text(text)
    submission.mkdir(exist_ok=True)
    nb, _ = SandboxedExecute(config=config).preprocess(nb, {"metadata": {"path": str(submission)}})
    return nb


def text(cell: NotebookNode) -> str:
    return "".join(o.get("text", "") + o.get("evalue", "") + "".join(o.get("traceback", [])) for o in cell.outputs)


def test_nothing_of_the_submission_runs_before_the_first_cell_and_its_helpers_still_import(tmp_path: Path) -> None:
    nb = execute(
        tmp_path,
        [
            f"""
            import os, sys
            print("ran:", open({RAN!r}).read() if os.path.exists({RAN!r}) else "nothing")
            first_site = min(i for i, place in enumerate(sys.path) if place.endswith("site-packages"))
            print("cwd:", os.getcwd() == os.environ["HOME"], "path:", 0 < sys.path.index("") < first_site)
            """,
            "import mymodule, autograder; print(mymodule.HELLO, autograder.__file__.startswith(os.getcwd()))",
        ],
        SHADOWING,
    )
    assert text(nb.cells[0]) == "ran: nothing\ncwd: True path: True\n", text(nb.cells[0])
    assert text(nb.cells[1]) == "from the student helper False\n", text(nb.cells[1])  # the stand-in, not theirs


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandboxed", "unsandboxed"])
def test_a_kernel_in_a_scratch_folder_deeper_than_a_socket_address_runs(tmp_path: Path, sandboxed: bool) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)  # a Unix socket's address holds 107 bytes; its folder alone is longer
    deep.mkdir(parents=True)
    nb = execute(deep, ["print(6 * 7)"], sandbox=sandboxed)
    assert text(nb.cells[0]) == "42\n", text(nb.cells[0])


CALL = "k = get_ipython().kernel\n_ = k.session.send(k.iopub_socket, {kind!r}, {content!r}, parent=k.get_parent())"
# A message signed with the kernel's key whose parent header is a list, not a dict
LIST_PARENT = """
parts = [k.session.pack(p) for p in (k.session.msg_header("stream"), [], {}, {"name": "stdout", "text": "x"})]
k.iopub_socket.send_multipart([b"<IDS|MSG>", k.session.sign(parts), *parts])
"""


def test_malformed_messages_cost_the_cell_that_sent_them_and_the_rest_is_graded(tmp_path: Path) -> None:
    nb = execute(
        tmp_path,
        [
            "print('before')",
            CALL.format(kind="stream", content={"name": "stdout"}) + "\nprint('same cell')",
            CALL.format(kind="display_data", content={"metadata": {}}),
            CALL.format(kind="display_data", content={"data": {"text/plain": 5}, "metadata": {}}),
            CALL.format(kind="error", content={"ename": "E"}),
            LIST_PARENT,
            "k.iopub_socket.send_multipart([b'<IDS|MSG>', b'', b'[', b'{}', b'{}', b'{}'])",
            "print('after')",
        ],
    )
    assert text(nb.cells[0]) == "before\n"
    assert text(nb.cells[1]).startswith("same cell\n") and "'stream' message that is not a valid output" in text(
        nb.cells[1]
    )
    for cell in nb.cells[2:7]:
        assert "MalformedKernelMessage" in json.dumps(cell.outputs) and "malformed and dropped" in text(cell), cell
    assert text(nb.cells[7]) == "after\n"
    nbformat.validate(nb)


def test_a_cell_writing_300_mb_to_the_kernels_own_stdout_leaves_a_log_within_its_cap(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    nb = execute(
        tmp_path,
        [
            "import os\nblock = b'o' * (1 << 20)\nfor _ in range(150):\n    os.write(1, block)\n    os.write(2, block)",
            "print('after')",
        ],
        kernel_cell_output_chars=50_000,
    )
    logged = capfd.readouterr()
    assert text(nb.cells[1]) == "after\n"
    assert len(logged.err) < 60_000 and "kernel's own output was cut after 50,000 bytes" in logged.err, len(logged.err)
    assert "o" * 1000 not in logged.out


def test_sixteen_thousand_empty_outputs_are_capped(tmp_path: Path) -> None:
    nb = execute(
        tmp_path,
        [
            "from IPython.display import display\nfor _ in range(16_000):\n    display({}, raw=True)",
            "print('after')",
        ],
    )
    assert len(nb.cells[0].outputs) < 2_000 and "output cut" in text(nb.cells[0]), len(nb.cells[0].outputs)
    assert len(nbformat.writes(nb)) < 250_000
    assert text(nb.cells[1]) == "after\n"
