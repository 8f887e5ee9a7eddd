"""The student's side in a real browser: JupyterLab (student set-up), public checks, Validate, training, feedback.

Playwright drives Debian's Chromium (/usr/bin/chromium; `.ci/run` installs it). Without it the tests skip, saying
why, unless ``REQUIRE_BROWSER=1`` (set by CI), where they fail instead. Screenshots of every state are saved under
``tests/output/browser/`` (or ``$BROWSER_SCREENSHOTS``).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER_TESTS, CHROMIUM, axe_violations
from test_docs import documented_failure

from gradingkit import MNIST
from student_notebooks import STATES, solution_source, student_notebook

REPO = Path(__file__).resolve().parents[1]
SHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", REPO / "tests" / "output" / "browser"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOKEN = "kit-browser-test"
KERNEL_READY = """() => {
    const session = window.jupyterapp?.shell.currentWidget?.sessionContext;
    const kernel = session?.session?.kernel;
    return session?.isReady && !session.hasNoKernel
        && kernel?.connectionStatus === "connected" && kernel.status === "idle";
}"""
TIMINGS: dict[str, float] = {}


pytestmark = BROWSER_TESTS


def student_setup_command() -> str:
    """The student guide's set-up command (its part after the venv and pip), made to write into a private config
    dir."""
    guide = (REPO / "docs" / "student-guide.md").read_text()
    line = next(text for text in guide.splitlines() if "labextension disable" in text)
    part = next(step for step in line.split(" && ") if "labextension disable" in step)
    return part.replace("--level=sys_prefix", "--level=user").replace("--sys-prefix", "--user")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A JupyterLab server set up as the student guide tells students, serving the four student notebooks."""
    root = tmp_path_factory.mktemp("student")
    for state in STATES:
        student_notebook(state, root / state)
    student_notebook("untouched", root / "zh_untouched", release=REPO / "release" / "mlp_zh")  # the Chinese edition
    home = tmp_path_factory.mktemp("jupyter")
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "MLP_TRAIN_SUBSET": "3000",
        "MNIST_DIR": str(MNIST),  # absolute: the notebooks' kernels start in their own folders
        "JUPYTERLAB_SETTINGS_DIR": str(home / "lab-settings"),
    }
    # Every cell in the page, on screen or not: the tests find cells by their text, which a windowed notebook only
    # renders near the viewport (which cells are rendered then depends on how fast the kernel runs).
    tracker = home / "lab-settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text('{"windowingMode": "none"}')
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    command = student_setup_command().replace(".venv/bin/", "")
    subprocess.run(command, shell=True, check=True, env=env, cwd=root, capture_output=True)
    port = _free_port()
    log = open(home / "lab.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={root}",
            "--LabApp.news_url=",
            "--LabApp.expose_app_in_browser=True",  # `_open` asks the page's session whether its kernel is ready
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            *(["--allow-root"] if os.geteuid() == 0 else []),
        ],
        env=env,
        cwd=root,
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        assert server.poll() is None, (home / "lab.log").read_text()[-3000:]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.3)
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield {"url": url, "root": root, "browser": browser, "log": home / "lab.log"}
        finally:
            browser.close()
            server.terminate()
            server.wait(timeout=30)
            log.close()
            if TIMINGS:
                (SHOTS / "timings.txt").write_text("".join(f"{k}: {v:.1f} s\n" for k, v in TIMINGS.items()))


def _open(lab: dict[str, Any], state: str) -> Any:
    """Open a student notebook in a fresh page; wait until its kernel is idle."""
    page = lab["browser"].new_page(viewport={"width": 1400, "height": 1000})
    started = time.time()
    workspace = f"{state}-{len(TIMINGS)}-{time.time_ns()}"  # a fresh workspace: no notebook of an earlier page reopens
    page.goto(f"{lab['url']}/lab/workspaces/{workspace}/tree/{state}/mlp.ipynb?reset&token={TOKEN}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    # Ready as the notebook's session sees it, not as the status bar draws it: on a busy machine the bar showed an idle
    # kernel while Run All still found none, and then asked which kernel to start, or ran nothing (2026-12-07).
    page.wait_for_function(KERNEL_READY, timeout=60_000)
    TIMINGS.setdefault("open the notebook (page load to idle kernel)", time.time() - started)
    return page


def _shown(page: Any, locator: Any, seconds: float, name: str) -> None:
    """Wait until ``locator`` is visible; past ``seconds``, fail with what the page showed instead (a screenshot under
    ``SHOTS``, any dialog, the kernel's status), so a failure on a CI machine can be read afterwards."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.wait_for(timeout=seconds * 1000)
    except PlaywrightTimeout:
        shot = SHOTS / f"timeout_{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        dialogs = page.locator(".jp-Dialog").all_inner_texts()
        status = page.locator(".jp-Notebook-ExecutionIndicator").first.get_attribute("data-status", timeout=1000)
        pytest.fail(f"not shown within {seconds:.0f} s: {locator}; dialogs {dialogs}, kernel {status}; see {shot}")


def _command(page: Any, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).first.click()


def _cell(page: Any, starts: str) -> Any:
    """The code cell whose source starts with ``starts``."""
    return page.locator(".jp-CodeCell").filter(has=page.locator(".jp-InputArea-editor", has_text=starts)).first


def _validate(page: Any, name: str) -> str:
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Toolbar-item", has_text="Validate").first.click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=120_000)
    page.wait_for_function(
        "() => !document.querySelector('.jp-Dialog').innerText.includes('Validating')", timeout=120_000
    )
    text = dialog.inner_text()
    page.screenshot(path=str(SHOTS / f"validate_{name}.png"))
    page.keyboard.press("Escape")
    return text


def test_student_lab_has_the_assignment_list_and_validate_but_no_instructor_tools(lab: dict[str, Any]) -> None:
    page = _open(lab, "untouched")
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    items = page.locator(".lm-Menu-content").inner_text()
    page.keyboard.press("Escape")
    assert "Assignment List" in items and "Formgrader" not in items and "Create Assignment" not in items, items
    assert page.locator(".jp-Toolbar-item", has_text="Validate").count() >= 1
    assert page.locator("#create_assignment_toolbar, .nbgrader-CreateAssignmentWidget").count() == 0
    page.screenshot(path=str(SHOTS / "student_lab.png"))
    page.close()


@pytest.mark.parametrize(
    ("state", "failed", "expected"),
    [
        ("untouched", 5, ["Linear: `Linear.forward` is not written yet.", "`MLP.forward` is not written yet."]),
        ("partly_written", 4, ["ReLU: `ReLU.forward` is not written yet."]),
        (
            "wrong_dw",
            2,
            [
                "Linear.backward on the worked example: W.grad: expected shape (3, 2), got shape (2, 3).",
                "Likely cause: dW = Gᵀ X: the product is transposed.",
                "The formula: dW = Xᵀ G",
            ],
        ),
        ("solved", 0, ["Success! Your notebook passes all the tests."]),
    ],
)
def test_validate_button_tells_the_truth(lab: dict[str, Any], state: str, failed: int, expected: list[str]) -> None:
    page = _open(lab, state)
    started = time.time()
    text = re.sub(r"\s+", " ", _validate(page, state))
    TIMINGS[f"Validate ({state})"] = time.time() - started
    assert text.count("The following cell failed") == failed, text
    for fragment in expected:
        assert fragment in text, text
    if failed:
        assert "Success" not in text and "Traceback" not in text, text
    page.close()


def test_public_check_on_the_stub_then_on_a_pasted_solution(lab: dict[str, Any]) -> None:
    page = _open(lab, "untouched")
    _command(page, "Run", "Run All Cells")
    check = _cell(page, "# Public checks for Linear")
    output = check.locator(".jp-OutputArea")
    _shown(page, output.get_by_text("is not written yet"), 120, "stub")
    check.scroll_into_view_if_needed()
    shown = output.text_content() or ""
    assert "Linear: `Linear.forward` is not written yet." in shown and "Traceback" not in shown, shown
    check.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "public_check_stub.png"))

    answer = _cell(page, "class Linear(Module)")
    answer.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(solution_source("linear"))
    page.keyboard.press("Shift+Enter")
    check.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    _shown(page, output.get_by_text("Linear: public checks passed."), 120, "pasted")
    check.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "public_check_solved.png"))
    page.close()


def test_solved_notebook_runs_its_public_checks_and_trains_with_a_progress_bar_and_plots(lab: dict[str, Any]) -> None:
    page = _open(lab, "solved")
    started = time.time()
    _command(page, "Run", "Run All Cells")
    # Waits, not verdicts: generous, for a machine busy with other tests
    _shown(page, _cell(page, "# Public checks for MLP").get_by_text("MLP: public checks passed."), 300, "solved")
    TIMINGS["run every public check (Run All, up to the MLP check)"] = time.time() - started
    # The training cell, by what it prints first (its source opens with imports that other cells share)
    printed = page.locator(".jp-OutputArea", has_text="Training on 3,000")
    training = page.locator(".jp-CodeCell").filter(has=printed).first
    _shown(page, training.locator(".jp-OutputArea img"), 300, "training")
    TIMINGS["Run All including training on 3,000 images"] = time.time() - started
    training.scroll_into_view_if_needed()
    shown = (training.locator(".jp-OutputArea").text_content() or "").replace("\u2007", " ")  # tqdm pads with U+2007
    assert "epoch 4: mean training loss" in shown, shown
    assert training.locator(".widget-hprogress, progress, .jupyter-widgets.widget-hprogress").count() >= 4, shown
    for text in ("epoch 1/4", "94/94"):  # 3,000 images in batches of 32
        assert text in shown, shown
    training.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "training.png"), full_page=False)
    page.close()


def test_chinese_edition_shows_chinese_headings_and_messages(lab: dict[str, Any]) -> None:
    page = _open(lab, "zh_untouched")
    page.locator(".jp-MarkdownOutput h1", has_text="作业：从零实现多层感知机").first.wait_for(timeout=30_000)
    _command(page, "Run", "Run All Cells")
    check = _cell(page, "# Linear 的公开检查")
    output = check.locator(".jp-OutputArea")
    _shown(page, output.get_by_text("还没有实现"), 180, "zh_stub")
    shown = output.text_content() or ""
    assert "Linear：`Linear.forward` 还没有实现。" in shown and "Traceback" not in shown, shown
    assert "not written yet" not in shown, shown
    heading = page.locator(".jp-MarkdownOutput h2", has_text="线性层 Linear")
    assert heading.count() >= 1
    check.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "zh_public_check_stub.png"))
    page.close()


def feedback_html(assignment: str, folder: Path) -> Path:
    """The feedback ``nbgrader generate_feedback`` writes with this repository's config (its exporter and
    preprocessors; the grades GetGrades would read from the gradebook are set on the cells) for the solution
    notebook of ``assignment`` as graded, with a failed dW test cell."""
    from hostile_pages import graded_solution
    from nbgrader.converters import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.preprocessors import GetGrades

    from autograder.cell_ids import nbgrader
    from autograder.preprocessors.verify import apply_verdict
    from autograder.settings import load_course_config
    from autograder.verdict import Verdict

    config = load_course_config(REPO)
    converter = GenerateFeedback(coursedir=CourseDirectory(config=config), config=config)
    exporter = converter.exporter_class(parent=converter, config=converter.config)
    for preprocessor in converter.preprocessors:
        if preprocessor is not GetGrades:
            exporter.register_preprocessor(preprocessor)
    nb = graded_solution(assignment)
    for cell in nb.cells:
        meta = nbgrader(cell)
        if meta.get("grade"):
            meta["score"] = 0 if meta["grade_id"] == "test_linear_backward_dw" else meta["points"]
        if meta.get("grade_id") == "test_linear_backward_dw":
            apply_verdict(cell, Verdict.failed("linear_backward_dw", documented_failure()), "en")
    resources = {
        "nbgrader": {
            "assignment": assignment,
            "student": "bob",
            "notebook": assignment,
            "score": 94,
            "max_score": 100,
            "late_penalty": 0,
        },
        "unique_key": assignment,
    }
    output, _ = exporter.from_notebook_node(nb, resources)
    path = folder / f"{assignment}_feedback.html"
    path.write_text(output)
    return path


def _cause_line(language: str) -> str:
    """The feedback's likely-cause line of the documented failure (dW transposed), from the messages' declarations:
    the label, a space unless it ends in a full-width colon, the cause."""
    from autograder import messages as say
    from autograder.course.nn_messages import DW_TRANSPOSED, is_wide

    label = say.FEEDBACK_LABEL(label=say.FEEDBACK_CAUSE).render(language)
    return label + ("" if is_wide(label[-1]) else " ") + DW_TRANSPOSED.render(language)


@pytest.mark.parametrize(
    ("assignment", "expected"),
    [
        ("mlp", ["Checks that failed (1)", _cause_line("en")]),
        ("mlp_zh", ["未通过的检查（1 项）", _cause_line("zh"), "作业：从零实现多层感知机"]),
    ],
)
def test_feedback_renders_math_offline_and_shows_failed_checks_first(
    lab: dict[str, Any], tmp_path: Path, assignment: str, expected: list[str]
) -> None:
    path = feedback_html(assignment, tmp_path)
    context = lab["browser"].new_context(viewport={"width": 1300, "height": 1000})
    context.set_offline(True)
    requested: list[str] = []

    def refuse(route: Any) -> None:
        requested.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(?!file:).*"), refuse)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    text = page.locator("body").inner_text()
    assert requested == [], requested  # the file loads nothing from the network
    assert "$$" not in text and "\\frac" not in text and "\\partial" not in text, text[:2000]
    formulas = page.locator("math")
    assert formulas.count() >= 40
    box = page.locator("math[display=block]").first.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 20, box  # drawn as math, not as raw text
    assert page.locator("math mfrac").count() >= 4
    summary = page.locator(".kit-failed-summary")
    assert summary.is_visible() and summary.bounding_box()["y"] < 700  # on the first screen, above the notebook
    for fragment in expected:
        assert fragment in text, fragment
    failure = page.locator(".output_error").first
    assert failure.evaluate("e => getComputedStyle(e).borderLeftStyle") == "solid"
    page.screenshot(path=str(SHOTS / f"feedback_offline_{assignment}_top.png"))
    page.locator("a[name=test_linear_backward_dw]").scroll_into_view_if_needed()
    page.locator("math[display=block]").nth(2).scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"feedback_offline_{assignment}_linear.png"))
    context.close()


@pytest.mark.parametrize("assignment", ["mlp", "mlp_zh"])
def test_feedback_passes_wcag_aa_and_a_reintroduced_violation_is_caught(
    lab: dict[str, Any], tmp_path: Path, assignment: str
) -> None:
    """Contrast, text alternatives, headings and table headers of the feedback, as axe-core checks them; then an image
    without a text alternative put on the same page is found (the check can fail). The lab's browser: a second
    Playwright beside the lab's would be a sync API inside its running loop."""
    page = lab["browser"].new_page(viewport={"width": 1300, "height": 1000})
    page.goto(feedback_html(assignment, tmp_path).as_uri(), wait_until="load")
    assert axe_violations(page) == {}
    page.evaluate(
        """() => { const image = document.createElement("img");
        image.src = "data:image/gif;base64,R0lGODlhAQABAAAAACw="; document.body.prepend(image); }"""
    )
    assert "image-alt" in axe_violations(page)
    page.close()
