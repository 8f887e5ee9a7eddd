"""What the browser tests need, checked once: Playwright's Python package and Debian's Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def _why_no_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package `playwright` is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    return None


REASON = _why_no_browser()
if REASON and os.environ.get("REQUIRE_BROWSER") == "1":
    raise RuntimeError(f"REQUIRE_BROWSER=1 but {REASON}")
BROWSER_TESTS = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}")]
"""The marks of a module of browser tests (its ``pytestmark``)."""
