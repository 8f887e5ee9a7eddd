"""House style: ruff's linter and formatter (configured in pyproject.toml) find nothing to change. Fast tier."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", [["check", "--no-fix"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff_finds_nothing_to_change(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "."], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"ruff {' '.join(command)}:\n{done.stdout}{done.stderr}"
