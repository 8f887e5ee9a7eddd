"""What the browser tests need, checked once: Playwright's Python package and Debian's Chromium; and the pages' check
against WCAG 2.1 AA with axe-core (``axe_violations``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def _why_no_browser() -> str | None:
    try:
        import axe_playwright_python  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return (
            "the Python packages `playwright` and `axe-playwright-python` are not installed (pip install -e '.[test]')"
        )
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    return None


REASON = _why_no_browser()
if REASON and os.environ.get("REQUIRE_BROWSER") == "1":
    raise RuntimeError(f"REQUIRE_BROWSER=1 but {REASON}")
BROWSER_TESTS = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}")]
"""The marks of a module of browser tests (its ``pytestmark``)."""

WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # best practices an instructor and a student lean on: headings in order, none empty, one h1; headers not empty
    "rules": {rule: {"enabled": True} for rule in ("heading-order", "empty-heading", "page-has-heading-one")}
    | {"empty-table-header": {"enabled": True}},
    "resultTypes": ["violations"],
}
"""axe-core's WCAG 2.1 A and AA rules (contrast, text alternatives, table headers, ...) and a few best practices."""


def _reason(node: dict) -> str:
    checks = node.get("any") or node.get("all") or node.get("none") or [{}]
    return f"{node['html'][:160]}: {checks[0].get('message')}"


def axe_violations(page) -> dict[str, list[str]]:  # noqa: ANN001 - Playwright's Page
    """What axe-core (bundled by ``axe-playwright-python``: no network) finds on the page against ``WCAG_AA``: each
    violated rule's id -> its first offending elements, with axe's reason."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=WCAG_AA).response["violations"]
    return {v["id"]: [_reason(node) for node in v["nodes"][:5]] for v in found}
