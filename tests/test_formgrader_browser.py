"""A hostile submission's autograded notebook as formgrader's manual grading shows it, opened in Chromium over HTTP
with formgrader's own scripts: no student script runs (no console log, no dialog, the title unchanged), no student
link is a script, and a local server the hostile notebook points at gets no request. Playwright with Debian's
Chromium, slow tier; the control shows the same page without ``MakeInert`` runs the student's script.

Offline, as the machines here are: nothing but the page's own origin answers. With the course's settings formgrader's
page loads MathJax from the Jupyter server (jupyter-server-mathjax), renders the formulas and finishes its set-up;
stock nbgrader's page (the control) asks a CDN for MathJax and stops with "MathJax is not defined"."""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jupyter_server_mathjax
from browser_support import BROWSER_TESTS, CHROMIUM
from formgrader_page import SUBMISSION, formgrade_html
from hostile_pages import feedback_notebook, hostile_cells
from test_autograded_inert import formgrader_cells, inert
from test_hostile_pages_browser import ARGS, server  # noqa: F401 - the fixture

pytestmark = BROWSER_TESTS
PAGE = f"/formgrader/submissions/{SUBMISSION}/"
MATHJAX = Path(jupyter_server_mathjax.__file__).parent / "static"


def _serve(html: str) -> Iterator[str]:
    """formgrader's page at its path, formgrader's static files and jupyter-server-mathjax's, on loopback, as the
    instructor's Jupyter server serves them."""
    from nbgrader.server_extensions.formgrader import handlers

    statics = {"/formgrader/static/": Path(handlers.static_path), "/static/jupyter_server_mathjax/": MATHJAX}
    kinds = {".css": "text/css", ".js": "application/javascript", ".otf": "font/otf", ".woff": "font/woff"}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?")[0]
            prefix = next((prefix for prefix in statics if path.startswith(prefix)), "")
            static = statics.get(prefix, Path("/nonexistent"))
            file = static / path.removeprefix(prefix)
            if path == PAGE:
                body, kind = html.encode(), "text/html"
            elif path in ("/formgrader/api/grades", "/formgrader/api/comments"):
                body, kind = b"[]", "application/json"  # a notebook with nothing to grade by hand
            elif prefix and file.resolve().is_relative_to(static) and file.is_file():
                body, kind = file.read_bytes(), kinds.get(file.suffix, "application/octet-stream")
            else:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def _open(nb: Any, kit: bool = True) -> dict[str, Any]:
    """formgrader's page of ``nb`` offline (``kit=False``: stock nbgrader's page): what it asked for and did."""
    from playwright.sync_api import sync_playwright

    seen: dict[str, Any] = {"requests": [], "console": [], "dialogs": [], "errors": [], "failed": []}
    for origin in _serve(formgrade_html(nb, kit=kit)):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_page()
                # No network but this machine's (loopback), as on the machines here: anything else fails.
                page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
                page.on("response", lambda response: response.status >= 400 and seen["failed"].append(response.url))
                page.on("request", lambda request: seen["requests"].append(request.url))
                page.on("console", lambda message: seen["console"].append(f"{message.type}: {message.text}"))
                page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))
                page.on("pageerror", lambda error: seen["errors"].append(str(error)))
                page.goto(origin + PAGE, wait_until="load")
                page.wait_for_timeout(1500)
                seen["title"] = page.title()
                seen["script_links"] = page.locator("#notebook a[href^='javascript:' i]").count()
                seen["handlers"] = page.locator("#notebook [onerror], #notebook [onload]").count()
                seen["mathjax"], seen["set_up"] = page.evaluate("[typeof MathJax, window.formgrader.loaded]")
                seen["formulas"] = page.locator("#notebook .MathJax").count()
                seen["origin"] = origin
            finally:
                browser.close()
    return seen


def _hostile(url: str) -> Any:
    return feedback_notebook([*hostile_cells(url), *formgrader_cells(url)])


def test_formgrader_runs_and_loads_nothing_of_a_hostile_autograded_notebook(server: dict[str, Any]) -> None:  # noqa: F811
    seen = _open(inert(_hostile(server["url"])))
    ours = (seen["origin"] + "/formgrader/", seen["origin"] + "/static/jupyter_server_mathjax/", "data:", "about:")
    assert [url for url in seen["requests"] if not url.startswith(ours)] == []
    assert server["hits"] == []
    assert not [line for line in seen["console"] if line.startswith("log:") or "pwned" in line], seen["console"]
    assert seen["dialogs"] == [] and not [e for e in seen["errors"] if "pwned" in e]
    assert seen["title"] == "mlp" and seen["script_links"] == 0 and seen["handlers"] == 0


def test_the_control_formgrader_page_runs_the_students_script(server: dict[str, Any]) -> None:  # noqa: F811
    """Without ``MakeInert`` the same notebook's script runs in formgrader's page: the test above could fail."""
    seen = _open(_hostile(server["url"]))
    assert any("pwned" in line for line in seen["console"]) or "pwned" in seen["title"], seen
    assert seen["script_links"] > 0 and server["hits"] != []


def test_formgrader_works_offline_with_the_courses_settings() -> None:
    """A graded notebook's page: everything from its own server, no error, the formulas typeset, the page set up."""
    seen = _open(inert(feedback_notebook()))
    ours = (seen["origin"] + "/", "data:", "about:")  # about:blank: MathJax's font check
    assert [url for url in seen["requests"] if not url.startswith(ours)] == [] and seen["failed"] == [], seen
    assert seen["errors"] == [], seen
    assert seen["mathjax"] == "object" and seen["set_up"] is True and seen["formulas"] > 20, seen


def test_the_control_stock_formgrader_is_broken_offline() -> None:
    """Stock nbgrader's page asks a CDN for MathJax, and without it formgrader's script stops before its shortcuts."""
    seen = _open(inert(feedback_notebook()), kit=False)
    assert any(url.startswith("https://cdnjs.cloudflare.com/") for url in seen["requests"]), seen["requests"]
    assert seen["mathjax"] == "undefined" and seen["set_up"] is False and seen["formulas"] == 0, seen
    assert any("MathJax is not defined" in error for error in seen["errors"]), seen["errors"]
