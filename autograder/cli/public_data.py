"""``python -m autograder public-data``: write the public checks' stored data, ``source/mlp/nn_public_data.py``.

The data (fixed inputs, expected values, the typical mistakes' wrong answers) is computed by the grader's reference
(``autograder.judge.public_data``); the file is a helper module students get, so regenerate the editions after it
(``python -m autograder edition zh``, then nbgrader's generate_assignment and generate_solution).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from autograder import helpers

MASTER = Path(__file__).resolve().parents[2] / "source" / "mlp"
TARGET = MASTER / "nn_public_data.py"

HEADER = '''"""The public checks' fixed inputs and expected values (``nn_public``), as data. Generated: do not edit.

Written by the kit's generator from the grader's float64 reference: the expected values of the worked examples, the
gradients of the finite-difference checks (central differences of the reference's forward, computed once), and the
wrong answers of the typical mistakes that let a failed check name its likely cause (``nn_diagnosis``). They hold
for these inputs only: nothing here computes anything.
"""

import numpy as np
'''


def source() -> str:
    """The text of ``nn_public_data.py``, before formatting."""
    helpers.use(MASTER)  # the course's helpers, which the judges' suspects read (a module already loaded is kept)
    from autograder.judge import public_data

    return HEADER + "".join(f"\n{name} = {public_data.literal(value)}\n" for name, value in public_data.data().items())


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m autograder public-data", description=__doc__).parse_args(argv)
    TARGET.write_text(source())
    subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", str(TARGET)], check=False)  # when installed
    print(f"wrote {TARGET}; now regenerate the editions (python -m autograder edition zh, nbgrader)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
