"""The kit starts stock nbgrader with jsonschema's "iri" checker imported on first use: checked alike, started faster.

The start-up figures (about 1.3 of nbgrader's 2.4 CPU seconds) are the module's docstring's; no test here times
anything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from autograder.grading import nbgrader_process

REPO = Path(__file__).resolve().parents[1]
PROGRAM = """
import json, sys
from autograder.grading.nbgrader_process import defer_iri_checker
defer_iri_checker()
import nbgrader.apps  # imports jsonschema and its format checkers
from jsonschema import FormatChecker
loaded_at_start = "lark" in sys.modules
cases = [["iri", "http://例子.测试/ü"], ["iri", "http://a b"], ["iri-reference", "#frag"], ["iri", "no scheme"]]
verdicts = [FormatChecker().conforms(value, form) for form, value in cases]
print(json.dumps({"loaded_at_start": loaded_at_start, "verdicts": verdicts, "loaded_after": "lark" in sys.modules}))
"""


def test_the_iri_checker_is_imported_on_first_use_and_checks_as_before() -> None:
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True, cwd=REPO)
    seen = json.loads(run.stdout)
    assert seen == {"loaded_at_start": False, "verdicts": [True, False, True, False], "loaded_after": True}, seen


def test_every_nbgrader_the_kit_starts_goes_through_the_kits_process() -> None:
    assert nbgrader_process.COMMAND == [sys.executable, "-m", "autograder.grading.nbgrader_process"]
    direct = [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "autograder").rglob("*.py"))
        if '"-m", "nbgrader"' in path.read_text()
    ]
    assert direct == [], f"these start `python -m nbgrader` without the kit's process: {direct}"
