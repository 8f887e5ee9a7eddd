"""The class report as an instructor opens it: a file in Chromium, offline (Playwright, as ``test_browser.py``).

Every request that is not for a file is recorded and refused: the report must need none. Its charts are drawn (inline
SVG with a size), and a student's name leads to their feedback. Slow tier.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import BROWSER_TESTS, CHROMIUM, axe_violations

from autograder.report.build import write_report
from report_course import ReportCourse, all_passed, verdict

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    c = ReportCourse(tmp_path_factory.mktemp("report-browser") / "course")
    for i in range(30):
        verdicts = all_passed(accuracy=0.975 + i / 2000, times=1 + i / 7)
        if i % 2 == 1:  # 15 students: more than a list shows unfolded
            verdicts[2] = verdict("linear_backward_dw", False, "cause.linear.dw_transposed")
        c.add(f"student{i:02}", verdicts)
    html, _, _ = write_report(c.root, "mlp")
    return html


def test_the_report_opens_offline_draws_its_charts_and_leads_to_feedback(report: Path) -> None:
    from playwright.sync_api import sync_playwright

    refused: list[str] = []

    def refuse(route) -> None:  # noqa: ANN001 - Playwright's Route
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            errors: list[str] = []  # a request the page's Content-Security-Policy refused is logged as an error
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.route("**/*", refuse)
            page.goto(report.as_uri(), wait_until="load")
            charts = page.locator("svg.chart")
            assert charts.count() == 4
            for i in range(charts.count()):
                box = charts.nth(i).bounding_box()
                assert box is not None and box["width"] > 100 and box["height"] > 50, box
                assert charts.nth(i).locator("rect, path").count() > 5
            page.locator("#causes details summary").first.click()  # a folded list of students opens
            page.locator("#causes details a", has_text="student03").click()
            page.wait_for_url("**/feedback/student03/mlp/mlp.html")
            assert page.locator("h1").inner_text() == "Feedback for student03"
            assert errors == []
        finally:
            browser.close()
    assert refused == []


def test_the_report_passes_wcag_aa_and_a_chart_without_its_text_alternative_is_caught(
    report: Path, tmp_path: Path
) -> None:
    """Contrast, every chart's text alternative, headings and table headers, as axe-core checks them; the same report
    with its charts' text alternatives taken out fails (the check can fail)."""
    from playwright.sync_api import sync_playwright

    page_text = report.read_text()
    assert page_text.count('<svg class="chart" role="img" aria-label="') == 4
    unlabelled = report.with_name("unlabelled.html")
    unlabelled.write_text(re.sub(r'(<svg class="chart" role="img") aria-label="[^"]*"', r"\1", page_text))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            page.goto(report.as_uri(), wait_until="load")
            assert axe_violations(page) == {}
            page.goto(unlabelled.as_uri(), wait_until="load")
            assert "svg-img-alt" in axe_violations(page)
        finally:
            browser.close()
