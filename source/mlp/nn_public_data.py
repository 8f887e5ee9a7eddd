"""The public checks' fixed inputs and expected values (``nn_public``), read from ``nn_public_data.json`` beside it.

The kit generates that file from the grader's float64 reference: the expected values of the worked examples, the
gradients of the finite-difference checks (central differences of the reference's forward, computed once), and the
wrong answers of the typical mistakes that let a failed check name its likely cause (``nn_diagnosis``). They hold
for these inputs only: nothing here computes anything. An array is stored as ``{"dtype": ..., "shape": [...],
"data": [...]}`` (its values as nested lists); the rest is JSON's own. ``LINEAR``, ``RELU``, ``CROSS_ENTROPY``,
``SGD`` and ``MLP`` are read on first use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import CheckFailed, Failure

FILE = Path(__file__).with_suffix(".json")
NAMES = ("LINEAR", "RELU", "CROSS_ENTROPY", "SGD", "MLP")


def decoded(value: Any) -> Any:
    """A JSON value as stored, with each array (a dict of exactly ``dtype``, ``shape`` and ``data``) made one."""
    if isinstance(value, dict) and set(value) == {"dtype", "shape", "data"}:
        return np.array(value["data"], dtype=value["dtype"]).reshape(value["shape"]).copy()  # owns its data
    if isinstance(value, dict):
        return {k: decoded(v) for k, v in value.items()}
    return [decoded(v) for v in value] if isinstance(value, list) else value


def load(file: Path = FILE) -> dict[str, Any]:
    """Every check's data in ``file``, by name; ``CheckFailed`` says so if the file is missing, unreadable or not
    the kit's."""
    try:
        stored = json.loads(Path(file).read_text(encoding="utf-8"))
        return {name: decoded(stored[name]) for name in NAMES}
    except (OSError, ValueError, TypeError, KeyError) as error:
        reason = f"{type(error).__name__}: {error}"
        raise CheckFailed(Failure(say.PUBLIC_DATA_UNREADABLE(file=Path(file).name, error=reason))) from None


def __getattr__(name: str) -> Any:
    """``LINEAR`` and the others, read from the file once."""
    if not isinstance(name, str) or name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals().update(load())
    return globals()[name]
