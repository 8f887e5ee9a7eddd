"""``python -m autograder public-data``: write the public checks' stored data, ``source/mlp/nn_public_data.py``.

The data (fixed inputs, expected values, the typical mistakes' wrong answers) is computed by the grader's reference
(``autograder.judge.public_data``); the file is a helper module students get: ``python -m autograder regenerate``
writes it, then the editions, the release and the solutions.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

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


RTOL = 1e-13
"""Stored and computed floats agree to this relative error, a few units in the last place: the reference's last bits
vary with the CPU (NumPy's vectorised ``exp`` and ``log`` round differently with and without AVX-512), which changes
nothing a check decides; so the file is rewritten only for a real change (``tests/test_public_data.py`` compares so
too)."""


def close(stored: Any, computed: Any) -> bool:
    """Whether a stored value is a computed one: the same type (dtype and shape), floats within ``RTOL``."""
    if isinstance(computed, np.ndarray):
        return (
            isinstance(stored, np.ndarray)
            and stored.dtype == computed.dtype
            and stored.shape == computed.shape
            and (
                np.array_equal(stored, computed)
                or computed.dtype.kind == "f"
                and np.allclose(stored, computed, rtol=RTOL, atol=0.0, equal_nan=True)
            )
        )
    if isinstance(computed, float) and type(stored) is float:
        return bool(np.isclose(stored, computed, rtol=RTOL, atol=0.0, equal_nan=True))
    return stored == computed and type(stored) is type(computed)


def agrees(stored: Any, computed: Any) -> bool:
    """Whether the stored data is the computed data (``close`` value by value)."""
    if isinstance(computed, dict):
        return (
            isinstance(stored, dict)
            and set(stored) == set(computed)
            and all(agrees(stored[k], computed[k]) for k in computed)
        )
    if isinstance(computed, (list, tuple)):
        return (
            isinstance(stored, (list, tuple))
            and len(stored) == len(computed)
            and all(agrees(s, c) for s, c in zip(stored, computed, strict=True))
        )
    return close(stored, computed)


def stored() -> dict[str, Any]:
    """What ``nn_public_data.py`` holds now, by name (evaluated from its text: the kit's own generated file)."""
    names: dict[str, Any] = {}
    exec(compile(TARGET.read_text(), str(TARGET), "exec"), names)  # noqa: S102 - the generator's own output
    return names


def write() -> bool:
    """Write ``nn_public_data.py`` (formatted by ruff, when installed) unless it holds the reference's data already
    (``agrees``); whether it changed."""
    helpers.use(MASTER)
    from autograder.judge import public_data

    computed = public_data.data()
    if TARGET.exists() and all(agrees(stored().get(name), value) for name, value in computed.items()):
        return False
    before = TARGET.read_bytes() if TARGET.exists() else b""
    TARGET.write_text(source())
    subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", str(TARGET)], check=False)
    return TARGET.read_bytes() != before


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m autograder public-data", description=__doc__).parse_args(argv)
    changed = write()
    print(f"{TARGET}: {'written' if changed else 'unchanged'}; now run `python -m autograder regenerate`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
