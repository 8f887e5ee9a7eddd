"""The secret that seeds every hidden input. It is never copied into ``release/``.

Set ``MLP_GRADER_SECRET`` to use your own; the same secret regrades a
submission with exactly the same inputs.
"""
import hashlib
import os

import numpy as np

SECRET_ENV = "MLP_GRADER_SECRET"
_DEFAULT_SECRET = "1ae287373328993a4b3c76daec8bbe62"


def current() -> str:
    """The secret in use: ``MLP_GRADER_SECRET`` if set, else the kit's default."""
    return os.environ.get(SECRET_ENV) or _DEFAULT_SECRET


def rng_for(check: str) -> np.random.Generator:
    """A generator seeded by the secret and the check's name (stable across runs)."""
    secret = current()
    digest = hashlib.sha256(f"{secret}:{check}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))
