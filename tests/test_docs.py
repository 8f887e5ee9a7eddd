"""README.md tells the truth: CI runs its test command, and its points table matches the notebook."""

import re

from test_generated_files import check_points_table

from conftest import REPO


def _readme_commands() -> list[str]:
    first_block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.S).group(1)
    return [line for line in first_block.splitlines() if line and not line.startswith("#")]


def test_readme_opens_with_a_demo_command_and_a_test_command() -> None:
    demo, tests = _readme_commands()
    assert demo.endswith("-m autograder demo") and tests.endswith("-m pytest")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert _readme_commands()[1] in ci, "the test command in README.md and the one in .ci/run differ"


def test_readme_points_table_matches_the_notebook() -> None:
    check_points_table("README.md", (REPO / "README.md").read_text())
