"""The notebooks a student has at four moments: untouched, partly written, with a wrong dW, solved.

Each is the release with some answer cells taken from the solution (and, for ``wrong_dw``, dW transposed), in a
folder of its own next to the released helpers, as a student has it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from autograder.cell_ids import grade_id

REPO = Path(__file__).resolve().parents[1]
RELEASE = REPO / "release" / "mlp"
SOLUTION = REPO / "solutions" / "mlp" / "mlp.ipynb"
ANSWERS = ("linear", "relu", "cross_entropy", "sgd", "mlp")
WRONG_DW = ("self.W.grad = x.T @ grad", "self.W.grad = grad.T @ x")

STATES: dict[str, tuple[str, ...]] = {
    "untouched": (),
    "partly_written": ("linear",),
    "wrong_dw": ANSWERS,
    "solved": ANSWERS,
}
"""State -> the answer cells filled in from the solution."""


def solution_source(answer: str) -> str:
    """The solution's answer cell, without nbgrader's solution markers (as a student would write it)."""
    cells = json.loads(SOLUTION.read_text())["cells"]
    source = "".join(next(c for c in cells if grade_id(c) == answer)["source"])
    return "\n".join(
        line for line in source.splitlines() if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line
    )


def student_notebook(state: str, folder: Path, release: Path = RELEASE) -> Path:
    """Write the release (notebook and helpers) into ``folder`` with the answers of ``state``; return the notebook."""
    folder.mkdir(parents=True, exist_ok=True)
    for helper in [*release.glob("*.py"), *release.glob("*.json")]:  # the helper modules and the data they read
        shutil.copy(helper, folder / helper.name)
    notebook = json.loads(next(release.glob("*.ipynb")).read_text())  # mlp.ipynb, or mlp_zh.ipynb (Chinese edition)
    for cell in notebook["cells"]:
        if grade_id(cell) in STATES[state]:
            source = solution_source(grade_id(cell))
            if state == "wrong_dw" and grade_id(cell) == "linear":
                assert source.count(WRONG_DW[0]) == 1
                source = source.replace(*WRONG_DW)
            cell["source"] = source
    path = folder / "mlp.ipynb"
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
    return path
