"""A hostile submission's feedback, and a class report naming hostile students, opened in Chromium: no student script
runs (no console message, no dialog, the title unchanged) and nothing is requested but the file itself and ``data:``
URLs; a local server the hostile HTML points at gets no request. Playwright with Debian's Chromium, slow tier."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER_TESTS, CHROMIUM
from hostile_pages import feedback, feedback_notebook, hostile_cells

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
pytestmark = BROWSER_TESTS


@pytest.fixture
def server() -> Iterator[dict[str, Any]]:
    """A local HTTP server that records every request it gets."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield {"url": f"http://127.0.0.1:{httpd.server_address[1]}", "hits": hits}
    finally:
        httpd.shutdown()


def _open(page_file: Path) -> dict[str, Any]:
    """Open ``page_file`` in Chromium; what it requested, logged and showed."""
    from playwright.sync_api import sync_playwright

    seen: dict[str, Any] = {"requests": [], "console": [], "dialogs": [], "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.on("request", lambda request: seen["requests"].append(request.url))
            page.on("console", lambda message: seen["console"].append(f"{message.type}: {message.text}"))
            page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))
            page.on("pageerror", lambda error: seen["errors"].append(str(error)))
            page.goto(page_file.as_uri(), wait_until="load")
            page.wait_for_timeout(1000)
            seen["title"] = page.title()
            seen["math"] = page.locator("math").count()
            seen["box"] = page.locator(".kit-failed-summary").count()
        finally:
            browser.close()
    return seen


def _assert_inert(seen: dict[str, Any], page_file: Path, hits: list[str]) -> None:
    outside = [url for url in seen["requests"] if url != page_file.as_uri() and not url.startswith("data:")]
    assert outside == [], outside
    assert hits == [], hits
    assert seen["console"] == [] and seen["dialogs"] == [] and seen["errors"] == [], seen
    assert "pwned" not in seen["title"], seen["title"]


def test_a_hostile_submissions_feedback_runs_and_loads_nothing(tmp_path: Path, server: dict[str, Any]) -> None:
    page_file = tmp_path / "mlp.html"
    page_file.write_text(feedback(feedback_notebook(hostile_cells(server["url"]))))
    seen = _open(page_file)
    _assert_inert(seen, page_file, server["hits"])
    assert seen["math"] >= 40 and seen["box"] == 1  # the kit's own page still works


def test_the_control_page_shows_the_test_can_see_a_script_and_a_load(tmp_path: Path, server: dict[str, Any]) -> None:
    """Without the kit's cleaning and policy the same HTML runs and loads: the test above could fail."""
    page_file = tmp_path / "raw.html"
    page_file.write_text(
        f"<html><head></head><body><script>console.log('pwned')</script><img src=\"{server['url']}/x.png\"></body>"
    )
    seen = _open(page_file)
    assert any("pwned" in line for line in seen["console"]) and server["hits"] == ["/x.png"]


def test_a_class_report_naming_hostile_students_runs_and_loads_nothing(tmp_path: Path, server: dict[str, Any]) -> None:
    from autograder.report.build import write_report
    from report_course import ReportCourse, all_passed, text, verdict

    hostile = "<script>console.log('pwned')</script><img src=x onerror=\"console.log('pwned')\">"
    hostile += f"<img src={server['url']}/r.png>"
    c = ReportCourse(tmp_path / "course")
    for i in range(3):
        verdicts = all_passed()
        message = text("expected_got", what=hostile, expected=hostile, got=hostile)
        verdicts[2] = verdict("linear_backward_dw", False, None, message)
        c.add(f"student{i}", verdicts, name=(hostile, hostile))
    html, _, _ = write_report(c.root, "mlp")
    seen = _open(html)
    _assert_inert(seen, html, server["hits"])
