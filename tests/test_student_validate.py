"""The student's validate command (docs/student-guide.md), ``python mlp/nn_public.py mlp/mlp.ipynb``: what ``nbgrader
validate`` prints, and an exit status that says whether every check passed (stock nbgrader's is 0 either way, nbgrader
issue #1908). Slow tier: each case runs the notebook in a kernel, as a student's validation does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradingkit import MNIST
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
