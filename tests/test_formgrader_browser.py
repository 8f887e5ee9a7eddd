"""A hostile submission's autograded notebook as formgrader's manual grading shows it, opened in Chromium over HTTP
with formgrader's own scripts: no student script runs (no console log, no dialog, the title unchanged), no student
link is a script, and a local server the hostile notebook points at gets no request. Playwright with Debian's
Chromium, slow tier; the control shows the same page without ``MakeInert`` runs the student's script."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from browser_support import BROWSER_TESTS, CHROMIUM
from formgrader_page import SUBMISSION, formgrade_html
from hostile_pages import feedback_notebook, hostile_cells
from test_autograded_inert import formgrader_cells, inert
from test_hostile_pages_browser import ARGS, server  # noqa: F401 - the fixture

pytestmark = BROWSER_TESTS
PAGE = f"/formgrader/submissions/{SUBMISSION}/"


def _serve(html: str) -> Iterator[str]:
    """formgrader's page at its path, and formgrader's static files, on loopback."""
    from nbgrader.server_extensions.formgrader import handlers

    static = Path(handlers.static_path)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?")[0]
            file = static / path.removeprefix("/formgrader/static/")
            if path == PAGE:
                body, kind = html.encode(), "text/html"
            elif path.startswith("/formgrader/static/") and file.resolve().is_relative_to(static) and file.is_file():
                body, kind = file.read_bytes(), "text/css" if path.endswith(".css") else "application/javascript"
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


def _open(nb: Any) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    seen: dict[str, Any] = {"requests": [], "console": [], "dialogs": [], "errors": []}
    for origin in _serve(formgrade_html(nb)):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_page()
                # formgrader's template loads MathJax from a CDN: no network here, so it is answered empty.
                page.route("https://cdnjs.cloudflare.com/**", lambda route: route.fulfill(status=200, body=""))
                page.on("request", lambda request: seen["requests"].append(request.url))
                page.on("console", lambda message: seen["console"].append(f"{message.type}: {message.text}"))
                page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))
                page.on("pageerror", lambda error: seen["errors"].append(str(error)))
                page.goto(origin + PAGE, wait_until="load")
                page.wait_for_timeout(1500)
                seen["title"] = page.title()
                seen["script_links"] = page.locator("#notebook a[href^='javascript:' i]").count()
                seen["handlers"] = page.locator("#notebook [onerror], #notebook [onload]").count()
                seen["origin"] = origin
            finally:
                browser.close()
    return seen


def _hostile(url: str) -> Any:
    return feedback_notebook([*hostile_cells(url), *formgrader_cells(url)])


def test_formgrader_runs_and_loads_nothing_of_a_hostile_autograded_notebook(server: dict[str, Any]) -> None:  # noqa: F811
    seen = _open(inert(_hostile(server["url"])))
    ours = (seen["origin"] + "/formgrader/", "https://cdnjs.cloudflare.com/", "data:")
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
