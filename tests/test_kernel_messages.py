"""What the grading kernel sends cannot blame the grader or flood it (fast tier: no kernel, no sandbox).

A message nbclient could not take is dropped by the kit's client and named in the cell that was running; a failure
once a code cell has been sent to the kernel is that cell's, before it the grader's; every output counts against the
output caps, empty or not; the kernel process's own output reaches the log only up to its cap; the kernel starts
isolated, from the stand-in's folder. The same in a real sandboxed kernel: ``tests/test_kernel_start.py``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
import zmq
import zmq.asyncio
from jupyter_client.session import Session
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbconvert.preprocessors import ExecutePreprocessor
from nbformat import NotebookNode
from nbformat.v4 import output_from_msg
from traitlets.config import Config

from autograder import sandbox
from autograder.faults import GraderFault
from autograder.grading import kernel
from autograder.grading.cell_limits import OUTPUT_CHARS, OutputCap, TimeBudget
from autograder.preprocessors.kernel import SandboxedExecute

PARENT = {"msg_id": "cell-1"}
MALFORMED_IOPUB = {
    "a stream without text": ("stream", {"name": "stdout"}),
    "a stream whose text is a number": ("stream", {"name": "stdout", "text": 5}),
    "a display without data": ("display_data", {"metadata": {}}),
    "a display whose data is not a MIME bundle": ("display_data", {"data": {"text/plain": 5}, "metadata": {}}),
    "a display whose metadata is a list": ("display_data", {"data": {}, "metadata": []}),
    "a result without execution_count": ("execute_result", {"data": {}, "metadata": {}}),
    "a result whose execution_count is text": ("execute_result", {"data": {}, "metadata": {}, "execution_count": "1"}),
    "an error without traceback": ("error", {"ename": "E", "evalue": ""}),
    "an error whose traceback is text": ("error", {"ename": "E", "evalue": "", "traceback": "x"}),
    "an update whose transient is a list": ("update_display_data", {"data": {}, "metadata": {}, "transient": []}),
    "a display whose display_id is a list": (
        "display_data",
        {"data": {}, "metadata": {}, "transient": {"display_id": []}},
    ),
    "a status without state": ("status", {}),
    "an input whose execution_count is a list": ("execute_input", {"code": "", "execution_count": []}),
    # not an output, so no schema checks it; nbclient would make it the cell's execution_count (True is not a number)
    "an input whose execution_count is True": ("execute_input", {"code": "", "execution_count": True}),
}
VALID_IOPUB = {
    "a stream": ("stream", {"name": "stdout", "text": "hi"}),
    "an empty display": ("display_data", {"data": {}, "metadata": {}}),
    "a result": ("execute_result", {"data": {"text/plain": "1"}, "metadata": {}, "execution_count": 3}),
    "an error": ("error", {"ename": "E", "evalue": "v", "traceback": ["t"]}),
    "an update": ("update_display_data", {"data": {}, "metadata": {}, "transient": {"display_id": "d"}}),
    "a status": ("status", {"execution_state": "idle"}),
    "a clear": ("clear_output", {"wait": True}),
}


def message(kind: str, content: Any, parent: Any = PARENT) -> dict[str, Any]:
    header = {"msg_id": "m", "msg_type": kind}
    return {
        "header": header,
        "msg_id": "m",
        "msg_type": kind,
        "parent_header": parent,
        "metadata": {},
        "content": content,
    }


@pytest.mark.parametrize("name", MALFORMED_IOPUB)
def test_a_malformed_iopub_message_is_named(name: str) -> None:
    msg = message(*MALFORMED_IOPUB[name])
    assert kernel.envelope_problem(msg) is None
    assert kernel.iopub_problem(msg), name


@pytest.mark.parametrize("name", VALID_IOPUB)
def test_a_valid_iopub_message_passes(name: str) -> None:
    msg = message(*VALID_IOPUB[name])
    assert kernel.envelope_problem(msg) is None and kernel.iopub_problem(msg) is None, name


@pytest.mark.parametrize("part", ["header", "parent_header", "metadata", "content"])
def test_an_envelope_that_is_not_dicts_is_named(part: str) -> None:
    msg = message("stream", {"name": "stdout", "text": ""})
    msg[part] = ["not", "a", "dict"]
    assert kernel.envelope_problem(msg)


def test_a_malformed_reply_becomes_an_error_and_an_error_reply_is_shortened() -> None:
    for content in ({}, {"status": 5}):
        reply = kernel.repaired_reply(message("execute_reply", content))["content"]
        assert reply["status"] == "error" and reply["ename"] == kernel.MALFORMED and reply["traceback"]
    huge = {"status": "error", "ename": "E" * 10**6, "evalue": "v" * 10**7, "traceback": ["t" * 10**6] * 1000}
    short = kernel.repaired_reply(message("execute_reply", huge))["content"]
    assert len(short["ename"]) <= 200 and len(short["evalue"]) <= 2000 and len(short["traceback"]) <= 20
    ok = message("execute_reply", {"status": "ok", "execution_count": 1})
    assert kernel.repaired_reply(ok) is ok


def _through_channel(frames_list: list[list[bytes]], session: Session) -> tuple[list[dict[str, Any]], Any]:
    """What the kit's IOPub channel hands nbclient for each message sent as ``frames``, and the channel."""

    async def run() -> tuple[list[dict[str, Any]], Any]:
        context = zmq.asyncio.Context()
        inbound, outbound = context.socket(zmq.PAIR), context.socket(zmq.PAIR)
        inbound.bind("inproc://kit-test")
        outbound.connect("inproc://kit-test")
        channel = kernel.KitIOPubChannel(inbound, session)
        try:
            received = []
            for frames in frames_list:
                await outbound.send_multipart(frames)
                received.append(await channel.get_msg(timeout=5))
            return received, channel
        finally:
            inbound.close(0)
            outbound.close(0)
            context.term()

    return asyncio.run(run())


def test_the_client_drops_what_nbclient_could_not_take_and_says_why() -> None:
    session = Session(key=b"the kernel's key")
    good = session.msg("stream", {"name": "stdout", "text": "hi"}, parent={"header": PARENT})
    bad = session.msg("stream", {"name": "stdout"}, parent={"header": PARENT})
    comm = session.msg("comm_open", {"comm_id": "c", "data": {}}, parent={"header": PARENT})
    unsigned = Session(key=b"another key").msg("stream", {"name": "stdout", "text": "x"})
    frames = [
        session.serialize(good),
        session.serialize(bad),
        session.serialize(comm),
        [b"<IDS|MSG>", b"0" * 64, b"not json", b"{}", b"{}", b"{}"],
        Session(key=b"another key").serialize(unsigned),
    ]
    received, channel = _through_channel(frames, session)
    assert received[0]["content"]["text"] == "hi"
    assert [m["msg_type"] for m in received[1:]] == [kernel.DROPPED] * 4
    assert all(m["parent_header"] == {} for m in received[1:])  # nbclient waits for none of them
    assert channel.dropped == 3  # the comm is dropped quietly: the grading kernel keeps no widget state
    assert "'stream'" in channel.problems[0] and "KeyError" in channel.problems[0], channel.problems
    assert all("could not be read" in p for p in channel.problems[1:]), channel.problems


def test_the_client_names_the_first_problems_and_counts_the_rest() -> None:
    client = kernel.KitKernelClient()
    channel = kernel.KitIOPubChannel.__new__(kernel.KitIOPubChannel)
    channel.problems, channel.dropped = [], 0
    client._iopub_channel = channel
    for _ in range(1000):
        channel.checked(message("stream", {"name": "stdout"}))
    count, problems = client.take_problems()
    assert count == 1000 and len(problems) == kernel.PROBLEMS_NAMED
    assert client.take_problems() == (0, [])


def _handle(cell: NotebookNode) -> Any:
    def handle(msg: dict[str, Any]) -> NotebookNode:
        out = output_from_msg(msg)
        cell.outputs.append(out)
        return out

    return handle


def test_empty_outputs_count_against_the_caps() -> None:
    cap, cell = OutputCap(100_000, 1_000_000), nbformat.v4.new_code_cell()
    cap.start_notebook()
    cap.start_cell()
    for _ in range(16_000):
        cap.process(message("display_data", {"data": {}, "metadata": {}}), cell, _handle(cell))
    assert len(cell.outputs) <= 100_000 // OUTPUT_CHARS + 1, len(cell.outputs)
    assert "output cut" in cell.outputs[-1].text
    assert len(nbformat.writes(nbformat.v4.new_notebook(cells=[cell]))) < 200_000


def test_a_cell_runs_at_most_what_is_left_of_the_notebooks_time_whatever_its_own_timeout() -> None:
    budget = TimeBudget(150)
    budget.start_notebook()
    assert (budget.timeout(None), budget.timeout(600), budget.timeout(30)) == (150, 150, 30)
    with budget.timing("'linear'"):
        time.sleep(0.05)
    assert budget.timeout(600) == 150 and budget.left() < 149.96  # rounded up to whole seconds
    budget._spent["'mlp'"] += 149.0
    assert budget.timeout(600) == 1 and budget.timeout(None) == 1


def test_once_a_cell_is_cut_only_its_first_error_is_kept() -> None:
    cap, cell = OutputCap(1_000, 1_000_000), nbformat.v4.new_code_cell()
    cap.start_notebook()
    cap.start_cell()
    cap.process(message("stream", {"name": "stdout", "text": "x" * 5_000}), cell, _handle(cell))
    error = {"ename": "E", "evalue": "v" * 100_000, "traceback": ["t" * 100_000] * 100}
    for _ in range(1_000):
        cap.process(message("error", error), cell, _handle(cell))
    kinds = [o.output_type for o in cell.outputs]
    assert kinds == ["stream", "stream", "error"], kinds
    assert len(nbformat.writes(nbformat.v4.new_notebook(cells=[cell]))) < 100_000


def test_the_kernel_process_output_reaches_the_log_only_up_to_its_cap(capfd: pytest.CaptureFixture[str]) -> None:
    read, write = os.pipe()
    drain = threading.Thread(target=kernel.drain_to_log, args=(read, 10_000))
    drain.start()
    block = b"k" * (1 << 20)
    for _ in range(50):  # 50 MiB: the writer is never held up by a full pipe
        os.write(write, block)
    os.close(write)
    drain.join(30)
    assert not drain.is_alive()
    logged = capfd.readouterr().err
    assert logged.startswith("k" * 10_000) and "kernel's own output was cut after 10,000 bytes" in logged
    assert len(logged) < 10_300


def test_a_script_started_isolated_finds_its_own_folder_first_and_never_the_working_folder(tmp_path: Path) -> None:
    """``sandbox.ISOLATED``, as the kernel's launcher and the workers start: the script's folder first on sys.path,
    the working folder (the submission's, holding a module of the script's folder's name) and PYTHONPATH nowhere."""
    program, submission = tmp_path / "program", tmp_path / "submission"
    program.mkdir(), submission.mkdir()
    (program / "own.py").write_text("WHERE = 'program'\n")
    (submission / "own.py").write_text("WHERE = 'submission'\n")
    (program / "main.py").write_text(
        "import os, sys, own\n"
        "print(own.WHERE, bool({os.getcwd(), ''} & set(sys.path)), any('submission' in p for p in sys.path))"
    )
    env = {**os.environ, "PYTHONPATH": str(submission)}
    done = subprocess.run(
        [sys.executable, *sandbox.ISOLATED, str(program / "main.py")],
        cwd=submission,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["program", "False", "False"]


def test_the_kernel_starts_isolated_from_the_stand_ins_folder(tmp_path: Path) -> None:
    spec = ["/py/bin/python", "-m", "ipykernel_launcher", "-f", "{connection_file}", "--X=1"]
    command = kernel.trusted_command(spec, tmp_path)
    assert command[:5] == ["/py/bin/python", *sandbox.ISOLATED, "-B", str(tmp_path / "kit_kernel.py")]
    assert command[5:8] == ["-f", "{connection_file}", "--X=1"] and "ipykernel_launcher" not in command
    assert all(f"--IPKernelApp.exec_lines={line}" in command for line in kernel.EXEC_LINES)
    with pytest.raises(GraderFault):
        kernel.trusted_command(["/py/bin/python", "other_kernel.py"], tmp_path)


# ---------------------------------------------------------------- whose fault, by where it happened


def _notebook(*sources: str) -> NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell("# title"))
    for index, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["nbgrader"] = {"grade_id": f"c{index}"}
        nb.cells.append(cell)
    return nb


@pytest.fixture
def fake_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """nbclient without a kernel: a cell's source says what its kernel does (``die``, ``raise NAME``, or print)."""

    def preprocess(self: Any, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        if nb.metadata.get("fail_to_start"):
            raise RuntimeError("Kernel died before replying to kernel_info")
        for index, cell in enumerate(nb.cells):
            self.preprocess_cell(cell, resources, index)
        return nb, resources

    def preprocess_cell(self: Any, cell: NotebookNode, resources: Any, index: int) -> Any:
        if cell.source == "die":
            raise DeadKernelError("Kernel died")
        if cell.source.startswith("raise "):
            raise {"KeyError": KeyError, "OSError": OSError, "TypeError": TypeError}[cell.source[6:]]("text")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=cell.source)]
        return cell, resources

    monkeypatch.setattr(ExecutePreprocessor, "preprocess", preprocess)
    monkeypatch.setattr(ExecutePreprocessor, "preprocess_cell", preprocess_cell)


def _said(cell: NotebookNode) -> str:
    return "".join(o.get("text", "") + o.get("evalue", "") for o in cell.outputs)


def test_a_kernel_that_cannot_start_is_the_graders_fault(fake_kernel: None, tmp_path: Path) -> None:
    nb = _notebook("print(1)")
    nb.metadata["fail_to_start"] = True
    with pytest.raises(GraderFault, match="could not start"):
        SandboxedExecute(config=_config(tmp_path)).preprocess(nb, {})


def test_a_kernel_that_dies_in_a_cell_costs_that_cell_and_the_rest_is_graded(fake_kernel: None, tmp_path: Path) -> None:
    nb, _ = SandboxedExecute(config=_config(tmp_path)).preprocess(_notebook("ok", "die", "later"), {})
    assert _said(nb.cells[1]) == "ok"
    assert "the kernel stopped while this cell ran (DeadKernelError: Kernel died)" in _said(nb.cells[2])
    # a cell of no id the student knows is named by its place
    assert "this cell was not run: the kernel stopped in cell number 3" in _said(nb.cells[3])


def test_the_first_code_cell_dying_is_the_students_not_the_graders(fake_kernel: None, tmp_path: Path) -> None:
    nb, _ = SandboxedExecute(config=_config(tmp_path)).preprocess(_notebook("die", "later"), {})
    assert "the kernel stopped while this cell ran" in _said(nb.cells[1])


def test_an_error_nbclient_raises_in_a_cell_costs_that_cell_and_the_next_runs(
    fake_kernel: None, tmp_path: Path
) -> None:
    nb, _ = SandboxedExecute(config=_config(tmp_path)).preprocess(
        _notebook("raise KeyError", "raise TypeError", "ok"), {}
    )
    assert kernel.MALFORMED in str(nb.cells[1].outputs) and "KeyError" in _said(nb.cells[1])
    assert "TypeError" in _said(nb.cells[2])
    assert _said(nb.cells[3]) == "ok"


def test_the_graders_own_errors_stop_the_notebook_ungraded(fake_kernel: None, tmp_path: Path) -> None:
    with pytest.raises(OSError):
        SandboxedExecute(config=_config(tmp_path)).preprocess(_notebook("ok", "raise OSError"), {})


def test_a_message_nbclient_fails_on_is_named_in_its_cell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def fails(self: Any, msg: dict[str, Any], cell: NotebookNode, cell_index: int) -> None:
        raise KeyError("data")

    monkeypatch.setattr(NotebookClient, "process_message", fails)
    execute, cell = SandboxedExecute(config=_config(tmp_path)), nbformat.v4.new_code_cell("x")
    assert execute.process_message(message("stream", {"name": "stdout", "text": "x"}), cell, 0) is None
    execute._note_dropped(cell)
    assert kernel.MALFORMED in str(cell.outputs) and "'stream' message (KeyError)" in _said(cell)


def _config(tmp_path: Path) -> Config:
    config = Config()
    config.KitGrading.work_dir = str(tmp_path)
    return config


def test_a_display_update_counts_every_output_it_rewrites(tmp_path: Path) -> None:
    """nbclient writes an update of a display id into every earlier output of that id: 1,000 empty displays and one
    update of 50,000 characters would be 50 MB of notebook."""
    execute = SandboxedExecute(config=_config(tmp_path))
    execute.nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("a"), nbformat.v4.new_code_cell("b")])
    first, second = execute.nb.cells
    execute.clear_before_next_output = False  # as nbclient sets it for each cell
    transient = {"display_id": "d"}
    execute._output.start_cell()
    for _ in range(1_000):
        execute.process_message(message("display_data", {"data": {}, "metadata": {}, "transient": transient}), first, 0)
    execute._output.start_cell()
    update = {"data": {"text/plain": "u" * 50_000}, "metadata": {}, "transient": transient}
    execute.process_message(message("update_display_data", update), second, 1)
    assert len(first.outputs) > 100 and not execute._unhandled  # each display also rewrites the earlier ones
    assert len(nbformat.writes(execute.nb)) < 1_000_000


@pytest.mark.parametrize(
    ("language", "not_run", "stopped", "cut"),
    [
        (
            "en",
            "This cell was not run: the grading kernel's time budget for the whole notebook (6 s) was used up, mostly "
            "by the cell defining Linear (4 s).",
            "This cell was stopped after 3 s: a cell may run for at most 3 s.",
            "... output cut after 1,000 characters: the grading kernel keeps at most 1,000 characters",
        ),
        (
            "zh",
            "这个单元格没有运行：评分内核给整个笔记本的时间（6 秒）已经用完，"
            "主要花在了定义 Linear 的单元格（4 秒）上。",
            "这个单元格运行 3 秒后被停止：一个单元格最多只能运行 3 秒。",
            "……输出在 1000 个字符处被截断：评分内核对一个单元格最多保留 1000 个字符的输出",
        ),
    ],
)
def test_the_kernels_notes_are_written_in_the_editions_language(
    language: str, not_run: str, stopped: str, cut: str
) -> None:
    from autograder.grading.cell_limits import TimeBudget, cell_name

    budget = TimeBudget(6)
    budget.start_notebook(language)
    answer = nbformat.v4.new_code_cell()
    answer.metadata["nbgrader"] = {"grade_id": "linear", "solution": True}
    budget._spent[cell_name(answer, 2, language)] = 4.0
    assert budget.not_run().evalue == not_run
    shown = budget.not_run().traceback[0]  # the note's English name only beside English words
    assert shown == (f"\x1b[0;31mTimeBudgetUsedUp\x1b[0m: {not_run}" if language == "en" else not_run)
    from autograder.exporters.summary import _error_of  # the feedback's summary box says it as the cell does

    summary = _error_of({"outputs": [budget.not_run()]})
    assert summary == (f"TimeBudgetUsedUp: {not_run}" if language == "en" else not_run)
    assert budget.stopped(3, 3, "'mlp'")["evalue"] == stopped
    cap, cell = OutputCap(1_000, 1_000_000), nbformat.v4.new_code_cell()
    cap.start_notebook(language)
    cap.start_cell()
    cap.process(message("stream", {"name": "stdout", "text": "x" * 5_000}), cell, _handle(cell))
    assert cut in cell.outputs[-1].text, cell.outputs[-1].text


def test_the_kernel_writes_in_the_language_of_the_edition_it_grades() -> None:
    from autograder.helpers import graded_language as _language
    from autograder.settings import load_course_config
    from conftest import REPO

    config = load_course_config(REPO)
    assert _language(config, {"nbgrader": {"assignment": "mlp_zh"}}) == "zh"
    assert _language(config, {"nbgrader": {"assignment": "mlp"}}) == "en" == _language(config, {})


@pytest.mark.parametrize(
    ("assignment", "note"),
    [("mlp", "... output cut: 50 characters in all ..."), ("mlp_zh", "……输出被截断：共 50 个字符……")],
)
def test_a_long_output_is_cut_with_a_note_in_the_editions_language(assignment: str, note: str) -> None:
    from autograder.preprocessors.sanitize import LimitOutputSize
    from autograder.settings import load_course_config
    from conftest import REPO

    config = load_course_config(REPO)
    config.KitGrading.max_output_chars = 20
    cell = nbformat.v4.new_code_cell()
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="y" * 50)]
    nb = nbformat.v4.new_notebook(cells=[cell])
    LimitOutputSize(config=config).preprocess(nb, {"nbgrader": {"assignment": assignment}})
    assert cell.outputs[0].text == "y" * 20 + "\n" + note


@pytest.mark.parametrize(
    ("grade", "en", "zh"),
    [
        ("linear", "the cell defining Linear", "定义 Linear 的单元格"),
        ("public_relu", "the public checks of ReLU", "ReLU 的公开检查"),
        ("test_linear_backward_dw", "the hidden test of Linear.backward, W.grad", "Linear.backward, W.grad 的隐藏测试"),
        ("setup", "the setup cell (the imports)", "开头导入模块的单元格"),
        ("train_mnist", "the training cell", "训练模型的单元格"),
        (None, "cell number 3", "第 3 个单元格"),
    ],
)
def test_the_kernels_notes_name_a_cell_as_the_student_knows_it_never_by_its_id(grade: str | None, en: str, zh: str):
    from autograder.grading.cell_limits import cell_name

    cell = nbformat.v4.new_code_cell()
    if grade:
        cell.metadata["nbgrader"] = {"grade_id": grade}
    assert (cell_name(cell, 2, "en"), cell_name(cell, 2, "zh")) == (en, zh)


def test_every_note_the_kernel_writes_is_known_to_the_feedback() -> None:
    from autograder.grading.kernel import MALFORMED
    from autograder.messages import KERNEL_NOTES

    assert MALFORMED in KERNEL_NOTES and set(KERNEL_NOTES) >= {"TimeBudgetUsedUp", "CellTimeoutError", "KernelDied"}
