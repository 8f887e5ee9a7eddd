"""Hostile notebooks and the kit's pages made from them: feedback as ``nbgrader generate_feedback`` writes it with this
repository's config (without running nbgrader), for the fast tests and the browser tests."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_raw_cell

from autograder import cell_ids
from autograder.cell_ids import nbgrader
from autograder.verdict import MIME

REPO = Path(__file__).resolve().parents[1]


def _display(**data: str) -> NotebookNode:
    return NotebookNode(output_type="display_data", metadata={}, data=data)


def hostile_cells(url: str) -> list[NotebookNode]:
    """Cells whose outputs and markdown would run script or fetch ``url`` if the page let them."""
    markdown = new_markdown_cell(
        "# Notes\n<script>document.title = 'pwned'</script>\n"
        f'<img src=x onerror="console.log(\'pwned\')"> <img src="{url}/markdown.png">\n'
        '<a href="javascript:console.log(\'pwned\')">link</a> <iframe src="{url}/frame"></iframe>'
        f'<form action="{url}/form"><input name=a></form><style>body {{ background: url({url}/css.png) }}</style>'
        f'<object data="{url}/object"></object><embed src="{url}/embed"><base href="{url}/">'
        '<div class="kit-failed-summary kit-all-passed">Every check passed.</div>'
    )
    code = new_code_cell("show()")
    code.outputs = [
        _display(**{"text/html": "<b>bold</b><script>document.title = 'pwned'</script>", "text/plain": "x"}),
        _display(**{"text/html": f'<img src=x onerror="console.log(\'pwned\')"><img src="{url}/html.png">'}),
        _display(**{"application/javascript": "console.log('pwned'); document.title = 'pwned'"}),
        _display(
            **{
                "image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="console.log(1)"><script>'
                f'console.log(2)</script><image href="{url}/svg.png"/><circle r="5"/></svg>'
            }
        ),
        _display(**{"image/png": "x\" onerror=\"console.log('pwned')"}),
        _display(**{"text/markdown": f"<script>console.log('pwned')</script><img src=\"{url}/md-output.png\">"}),
    ]
    return [markdown, code, new_raw_cell(f"<script>console.log('pwned')</script><img src=\"{url}/raw.png\">")]


def graded_solution(assignment: str) -> NotebookNode:
    """The solution notebook of ``assignment`` as autograde leaves it: every locked cell put back as in ``source/``
    (the gradebook's), so each hidden test cell holds its hidden tests again (the solution's has its comment only)."""
    nb = nbformat.read(REPO / "solutions" / assignment / f"{assignment}.ipynb", as_version=4)
    master = nbformat.read(REPO / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    locked = {cell_ids.grade_id(c): c.source for c in master.cells if nbgrader(c).get("locked")}
    for cell in nb.cells:
        if cell_ids.grade_id(cell):
            cell.source = locked.get(cell_ids.grade_id(cell), cell.source)
    return nb


def feedback_notebook(extra: list[NotebookNode] = ()) -> NotebookNode:
    """The solution notebook as graded (every check passed but dW), with ``extra`` cells at the end."""
    from test_docs import documented_failure

    from autograder.course.nn_messages import Failure
    from autograder.preprocessors.verify import apply_verdict
    from autograder.verdict import Verdict

    failure: Failure = documented_failure()
    nb = graded_solution("mlp")
    for cell in nb.cells:
        meta = nbgrader(cell)
        if meta.get("grade"):
            meta["score"] = 0 if meta["grade_id"] == "test_linear_backward_dw" else meta["points"]
        if meta.get("grade_id") == "test_linear_backward_dw":
            apply_verdict(cell, Verdict.failed("linear_backward_dw", failure), "en")
    nb.cells.extend(extra)
    return nb


def cell(nb: NotebookNode, grade_id: str) -> NotebookNode:
    return next(c for c in nb.cells if cell_ids.grade_id(c) == grade_id)


def forged(data: object) -> NotebookNode:
    """An output of the verdict's media type, as a student's ``display(..., raw=True)`` makes it."""
    return _display(**{MIME: data})


def feedback(nb: NotebookNode, assignment: str = "mlp") -> str:
    """The feedback HTML of ``nb``: the course's GenerateFeedback exporter and preprocessors, grades set on cells."""
    from nbgrader.converters import GenerateFeedback
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.preprocessors import GetGrades

    from autograder.settings import load_course_config

    config = load_course_config(REPO)
    converter = GenerateFeedback(coursedir=CourseDirectory(config=config), config=config)
    exporter = converter.exporter_class(parent=converter, config=converter.config)
    for preprocessor in converter.preprocessors:
        if preprocessor is not GetGrades:
            exporter.register_preprocessor(preprocessor)
    info = {
        "assignment": assignment,
        "student": "eve",
        "notebook": "mlp",
        "score": 94,
        "max_score": 100,
        "late_penalty": 0,
    }
    output, _ = exporter.from_notebook_node(nb, {"nbgrader": info, "unique_key": "mlp"})
    return output
