"""The grader's own faults: what makes a grade untrustworthy for a reason that is not the student's.

Trusted side only. Raised anywhere in the grader (``preprocessors``, ``grading``, ``cli``); the class grader catches
it, writes no grade for that submission and says why. A fault travels to the grade command as data (``Fault``), not
as a line of a log: inside ``nbgrader autograde`` the kit's preprocessors leave it in the file ``$KIT_FAULT_RECORD``
names (``recording_faults``), and the grade command and the cluster's task build one for what they see themselves.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from autograder.sandbox import SandboxError

FAULT_RECORD_ENV = "KIT_FAULT_RECORD"
"""The file ``nbgrader autograde`` leaves its fault record in; the grade command sets it for each attempt."""

RETRY = {
    "grader": True,  # a GraderFault in the grading (a busy machine, a worker or kernel that could not start, ...)
    "sandbox": True,  # bubblewrap could not start a sandbox
    "nbgrader": True,  # nbgrader autograde failed without a record of the kit's (its database, a full disk, ...)
    "cluster": True,  # the Dask task or the workers running it died
    "stopped": False,  # the autograde ran c.KitGrading.autograde_seconds and was killed: it would again
}
"""Every kind of fault, and whether trying the submission again can help."""


class GraderFault(RuntimeError):
    """Grading cannot be trusted for a reason that is not the student's: the submission is left ungraded."""


@dataclass(frozen=True)
class Fault:
    """Why a submission was left ungraded: its kind (one of ``RETRY``) and the grader's own words, for a person."""

    kind: str
    detail: str

    def __post_init__(self) -> None:
        if self.kind not in RETRY:
            raise ValueError(f"unknown kind of fault {self.kind!r}; one of {sorted(RETRY)}")

    @property
    def retry(self) -> bool:
        """Whether grading the submission again can help."""
        return RETRY[self.kind]

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)))

    @classmethod
    def read(cls, path: Path) -> Fault | None:
        """The record in ``path``, or None if there is none (or it is not one)."""
        try:
            data = json.loads(path.read_text())
            return cls(str(data["kind"]), str(data["detail"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


def fault_of(error: BaseException) -> Fault | None:
    """The fault a grader's exception stands for, or None if it is not one of the grader's faults."""
    if isinstance(error, GraderFault):
        return Fault("grader", str(error))
    if isinstance(error, SandboxError):
        return Fault("sandbox", str(error))
    return None


Method = TypeVar("Method", bound=Callable[..., Any])


def recording_faults(method: Method) -> Method:
    """For a preprocessor's ``preprocess`` inside ``nbgrader autograde``: a grader's fault it raises is also left in
    ``$KIT_FAULT_RECORD`` (when the grade command set it), then raised on to nbgrader as before."""

    @functools.wraps(method)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except Exception as error:
            fault, target = fault_of(error), os.environ.get(FAULT_RECORD_ENV)
            if fault is not None and target:
                fault.write(Path(target))
            raise

    return recorded  # type: ignore[return-value]
