"""``python -m autograder public-data``: write the public checks' stored data, ``source/mlp/nn_public_data.json``.

The data (fixed inputs, expected values, the typical mistakes' wrong answers) is computed by the grader's reference
(``autograder.judge.public_data``); the file is data students get beside the helper that reads it
(``nn_public_data.py``): ``python -m autograder regenerate`` writes it, then the editions, the release and the
solutions.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

MASTER = Path(__file__).resolve().parents[2] / "source" / "mlp"
TARGET = MASTER / "nn_public_data.json"
READER = MASTER / "nn_public_data.py"


def text() -> str:
    """The text of ``nn_public_data.json``: every check's data, by name."""
    from autograder.judge import public_data

    return public_data.text(public_data.data()) + "\n"


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


def reader() -> ModuleType:
    """The master's ``nn_public_data`` (the students' reader of the file), loaded under a name of its own; its bare
    ``import nn_messages`` finds the grader's (``autograder.course`` binds the bare names)."""
    import autograder.course  # noqa: F401

    spec = importlib.util.spec_from_file_location("kit_nn_public_data_reader", READER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def decoded(text: str) -> dict[str, Any]:
    """The data a text of ``nn_public_data.json`` holds, as the students' reader reads it."""
    decode = reader().decoded
    return {name: decode(value) for name, value in json.loads(text).items()}


def stored() -> dict[str, Any]:
    """What ``nn_public_data.json`` holds now, by name, as the students' reader reads it ({} for a file that is
    missing or not JSON)."""
    try:
        return decoded(TARGET.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write() -> bool:
    """Write ``nn_public_data.json`` unless it holds the reference's data already (``agrees``); whether it changed."""
    from autograder.judge import public_data

    computed = public_data.data()
    current = stored()
    if all(agrees(current.get(name), value) for name, value in computed.items()) and set(current) == set(computed):
        return False
    before = TARGET.read_bytes() if TARGET.exists() else b""
    TARGET.write_text(public_data.text(computed) + "\n", encoding="utf-8")
    return TARGET.read_bytes() != before


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m autograder public-data", description=__doc__).parse_args(argv)
    changed = write()
    print(f"{TARGET}: {'written' if changed else 'unchanged'}; now run `python -m autograder regenerate`")
    return 0
