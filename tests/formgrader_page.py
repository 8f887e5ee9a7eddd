"""A notebook as formgrader's manual grading shows it: nbconvert's HTML exporter with nbgrader's ``formgrade``
template, configured as ``FormgradeExtension`` configures it (then the course's ``nbgrader_config.py``, ``apply(c)``),
with the resources ``SubmissionHandler`` passes."""

from __future__ import annotations

from nbformat import NotebookNode

SUBMISSION = "0123456789abcdef0123456789abcdef"


def formgrade_html(nb: NotebookNode, base_url: str = "", kit: bool = True) -> str:
    """The page's HTML; ``kit=False``: without the kit's settings (stock nbgrader's page, for the controls)."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    from autograder.settings import apply

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    if kit:
        apply(config)
    resources = {
        "assignment_id": "mlp",
        "notebook_id": "mlp",
        "submission_id": SUBMISSION,
        "index": 0,
        "total": 1,
        "base_url": base_url,
        "student": "eve",
        "last_name": None,
        "first_name": None,
        "notebook_path": "autograded/eve/mlp/mlp.ipynb",
    }
    html, _ = HTMLExporter(config=config).from_notebook_node(nb, resources=resources)
    return html
