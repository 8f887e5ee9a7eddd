"""The student's validate command (docs/student-guide.md), ``python mlp/nn_public.py mlp/mlp.ipynb``: what ``nbgrader
validate`` prints, and an exit status that says whether every check passed (stock nbgrader's is 0 either way, nbgrader
issue #1908). Slow tier: each case runs the notebook in a kernel, as a student's validation does."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course.nn_messages import VALIDATE_SUCCESS
from autograder.helpers import edition_language
from gradingkit import MNIST, REPO
from student_notebooks import student_notebook

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("state", "status", "says"), [("wrong_dw", 1, "VALIDATION FAILED"), ("solved", 0, "Success!")])
def test_validate_exits_1_when_a_check_fails_and_0_when_all_pass(
    tmp_path: Path, state: str, status: int, says: str
) -> None:
    """A wrong dW fails Linear's public check; the solved release passes them all."""
    student_notebook(state, tmp_path / "mlp")
    done = subprocess.run(
        [sys.executable, "mlp/nn_public.py", "mlp/mlp.ipynb"],
        cwd=tmp_path,
        env={**os.environ, "MNIST_DIR": str(MNIST)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == status and says in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
    assert ("Linear" in done.stdout) == (state == "wrong_dw"), done.stdout[-3000:]


@pytest.mark.parametrize("assignment", ["mlp", "mlp_zh"])
def test_the_solution_handed_out_on_its_own_validates_where_the_kit_is_not(tmp_path: Path, assignment: str) -> None:
    """``solutions/<assignment>/`` copied alone, as a TA hands it out after the deadline, passes the student's validate
    command in an environment where ``import autograder`` fails: its hidden tests were stripped, as the release's."""
    shutil.copytree(REPO / "solutions" / assignment, tmp_path / "mlp")
    (tmp_path / "no_kit").mkdir()
    (tmp_path / "no_kit" / "autograder.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'autograder'\", name='autograder')\n"
    )
    env = {**os.environ, "MNIST_DIR": str(MNIST), "PYTHONPATH": str(tmp_path / "no_kit")}
    kit = subprocess.run(
        [sys.executable, "-c", "import autograder"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert kit.returncode == 1 and "No module named 'autograder'" in kit.stderr, kit.stderr  # the control
    done = subprocess.run(
        [sys.executable, "mlp/nn_public.py", f"mlp/{assignment}.ipynb"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    success = VALIDATE_SUCCESS.render(edition_language(REPO / "release" / assignment))  # the edition's words
    assert done.returncode == 0 and success in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
