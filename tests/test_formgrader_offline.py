"""formgrader's page of a graded notebook needs no network and warns of nothing: MathJax comes from the instructor's
Jupyter server (jupyter-server-mathjax, ``autograder/exporters/templates/base/mathjax.html.j2``), and the verdict's
media type is one nbconvert's HTML exporter knows to skip (``apply(c)`` in ``autograder/settings.py``). Each test
has its control, stock nbgrader's page, which fails it."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import jupyter_server_mathjax
import pytest
from formgrader_page import SUBMISSION, formgrade_html
from hostile_pages import feedback_notebook

from autograder.verdict import MIME

PAGE = f"http://127.0.0.1:8888/user/eve/formgrader/submissions/{SUBMISSION}/"  # under a base URL, as on JupyterHub
STATIC = Path(jupyter_server_mathjax.__file__).parent / "static"


@pytest.fixture(scope="module")
def graded() -> object:
    """The solution as graded, with a verdict in a hidden test cell and the notebook's formulas."""
    nb = feedback_notebook()
    assert any(MIME in output.get("data", {}) for cell in nb.cells for output in cell.get("outputs", []))
    return nb


def _scripts(html: str) -> list[str]:
    """Every script the page loads, as the browser resolves it from the page's URL."""
    return [urljoin(PAGE, src) for src in re.findall(r"<script\b[^>]*\bsrc=\"([^\"]*)\"", html)]


def test_formgraders_page_loads_its_scripts_from_the_jupyter_server_alone(graded: object) -> None:
    scripts = _scripts(formgrade_html(graded, base_url="/user/eve"))
    assert len(scripts) > 5 and all(src.startswith("http://127.0.0.1:8888/user/eve/") for src in scripts), scripts
    (mathjax,) = [urlsplit(src) for src in scripts if "MathJax" in src]
    assert mathjax.path == "/user/eve/static/jupyter_server_mathjax/MathJax.js", mathjax  # where the server serves it
    assert (STATIC / "MathJax.js").is_file()
    for config in dict(part.split("=") for part in mathjax.query.split("&"))["config"].split(","):
        assert (STATIC / "config" / f"{config}.js").is_file(), config


def test_the_control_stock_formgrader_loads_mathjax_from_a_cdn(graded: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the verdict's media type: the test below
        html = formgrade_html(graded, kit=False)
    assert any(src.startswith("https://cdnjs.") for src in _scripts(html))


def test_a_verdict_renders_as_nothing_without_a_warning(graded: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        html = formgrade_html(graded)
    assert MIME not in html and '"check": "linear_backward_dw"' not in html


def test_the_control_stock_formgrader_warns_of_the_verdicts_media_type(graded: object) -> None:
    with pytest.warns(UserWarning, match="is not able to be represented"):
        formgrade_html(graded, kit=False)


def test_the_courses_settings_load_where_nbconverts_templates_are_not_on_the_data_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``apply(c)`` runs in every nbgrader command of a course: it must not build an exporter, which needs nbconvert's
    templates on Jupyter's data path (a course's Python may not have them: every command then failed)."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config

    from autograder.settings import apply

    def no_templates(*args: object, **kwargs: object) -> None:
        raise ValueError("No template sub-directory with name 'lab' found")

    monkeypatch.setattr(HTMLExporter, "__init__", no_templates)
    c = Config()
    apply(c)
    assert c.WidgetsDataTypeFilter.display_data_priority[-1] == MIME
    assert "text/html" in c.WidgetsDataTypeFilter.display_data_priority
