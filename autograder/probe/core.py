"""Recording what the student's code gave, as plain data: arrays, numbers, strings, and the errors it raised."""

from __future__ import annotations

import io
import json
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from autograder.course.nn_messages import Failure, Text

CHECK_SECONDS = 10
"""CPU seconds one check may use (a correct solution needs well under one); the gate has its own limits.

CPU time, not wall time: a busy machine slows a check's clock, not its CPU time, so load cannot fail a check."""
_HERE = str(Path(__file__).resolve().parent)


def progress(step: int) -> None:
    """Tell the grader how far a long probe (the gate's training) has come; the worker (``run.main``) replaces this
    with a function that sends it on its report. Only a hint for the grader's watch and its terminal: student code
    can call or replace it, so no verdict rests on it."""


ASIDES = True
"""Whether probes may run the student's own code aside, only to learn something of it (``probe.mlp``'s mirrors). A
worker that ends while it does (stopped from outside, or by itself) is run again with this off
(``grading.workers.run_group``)."""


def aside(running: bool) -> None:
    """Tell the grader that the student's code starts (``True``) or stops (``False``) running aside; the worker
    replaces this as it does ``progress``. Student code can forge it: that only buys a second run without the aid,
    where the same check decides alone."""


class CheckTimeout(BaseException):
    """The student's code ran past a time limit; ``failure`` (an ``nn_messages.Failure``) says which, as data, for the
    record (``failure.to_data()``); ``str()`` is its English rendering. Not an ``Exception``, so the student's
    ``except Exception`` (a retry loop, say) cannot catch it: only a bare ``except`` can, and the watch outside then
    stops the worker at its CPU budget."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.render("en"))
        self.failure = failure


class Stopped(Exception):
    """The student's code raised: the rest of this case cannot be recorded."""


@contextmanager
def _limit(timer: int, signum: int, seconds: float, failure: Failure) -> Iterator[None]:
    """Raise ``CheckTimeout(failure)`` when the interval timer ``timer`` fires after ``seconds`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, frame: Any) -> None:
        raise CheckTimeout(failure)

    previous = signal.signal(signum, on_signal)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, previous)


def time_limit(what: Text | str, seconds: float = CHECK_SECONDS) -> Any:
    """Raise ``CheckTimeout`` once the body has used ``seconds`` of this process's CPU time (main thread only).

    ``what`` is what runs: a ``Text``, or code such as "Linear.forward". Code that hangs without using the CPU (a
    sleep) is stopped by the worker's stall rule instead.
    """
    from autograder.course.nn_messages import (
        Failure,  # a course helper, next to the notebook (imported on use, as in ``raised``)
    )

    from .messages import CPU_TIME, ENDLESS_LOOP

    failure = Failure(CPU_TIME(what=what, seconds=f"{seconds:g}"), ENDLESS_LOOP)
    return _limit(signal.ITIMER_PROF, signal.SIGPROF, seconds, failure)


def wall_limit(what: Text | str, seconds: float) -> Any:
    """Raise ``CheckTimeout`` if the body runs longer than ``seconds`` of wall time (main thread only): against hangs
    that use no CPU, with a limit far above what any load makes of a correct run."""
    from autograder.course.nn_messages import Failure  # a course helper, next to the notebook

    from .messages import NEVER_STOPS, WALL_TIME

    failure = Failure(WALL_TIME(what=what, seconds=f"{seconds:g}"), NEVER_STOPS)
    return _limit(signal.ITIMER_REAL, signal.SIGALRM, seconds, failure)


class AsideTimeout(BaseException):
    """Work done aside, only to help a diagnosis, ran past its own limit (``aside_limit``): never a verdict. Not an
    ``Exception``, so the student's ``except Exception`` cannot swallow it (a bare ``except`` can: the watch outside
    then stops the worker, which runs again without asides)."""


@contextmanager
def aside_limit(seconds: float, wall: float | None = None) -> Iterator[None]:
    """Raise ``AsideTimeout`` once the body has used ``seconds`` of user CPU time or run ``wall`` seconds (main thread
    only), by timers the check's ``time_limit`` around it does not use: for running a student's method only to learn
    something of it, which must not stop the check it helps."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, frame: Any) -> None:
        raise AsideTimeout

    timers = [(signal.ITIMER_VIRTUAL, signal.SIGVTALRM, seconds)]
    if wall is not None and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0):
        timers.append((signal.ITIMER_REAL, signal.SIGALRM, wall))
    previous = [signal.signal(signum, on_signal) for _, signum, _ in timers]
    for timer, _, limit in timers:
        signal.setitimer(timer, limit)
    try:
        yield
    finally:
        for (timer, signum, _), handler in zip(timers, previous, strict=True):
            signal.setitimer(timer, 0)
            signal.signal(signum, handler)


def plain(value: Any) -> Any:
    """What came, as plain data: an ndarray (a copy), None, or a description of anything else."""
    if value is None:
        return None
    if isinstance(value, (np.ndarray, np.generic, float, int)) and not isinstance(value, bool):
        return np.array(value)
    return {"opaque": type(value).__name__, "text": _short_repr(value)}


def _short_repr(value: Any) -> str:
    try:
        return repr(value)[:60]
    except Exception:  # noqa: BLE001 - the student's __repr__ may raise anything
        return "?"


def raised(error: BaseException) -> dict[str, Any]:
    """An exception raised by the student's code, as plain data (with the student's own line, if known)."""
    from autograder.course.nn_diagnosis import describe_error  # a course helper, next to the notebook

    return describe_error(error, skip=(_HERE,))


def is_raised(value: Any) -> bool:
    return isinstance(value, dict) and "raised" in value


class Record(dict):
    """What one case gave, key by key, in the order the probe asked."""

    def run(self, key: str, method: Callable[..., Any], *args: Any) -> Any:
        """Call the student's ``method``; keep what came (plain) under ``key``, or the error it raised and stop the
        case."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                value = method(*args)
        except Exception as error:  # noqa: BLE001 - whatever the student's code raises is recorded (a limit is not)
            self[key] = raised(error)
            raise Stopped from None
        self[key] = plain(value)
        return value

    def keep(self, key: str, value: Any) -> None:
        self[key] = plain(value) if isinstance(value, np.ndarray) else value


def collect_cases(cases: list[Any], probe_one: Callable[[Any, Record], None]) -> list[Record]:
    """Run ``probe_one`` on every case; a case whose student code raised keeps what came before the error."""
    records = []
    for case in cases:
        record = Record()
        try:
            probe_one(case, record)
        except Stopped:
            pass
        records.append(record)
    return records


# ---------------------------------------------------------------- plain data on disk: JSON and .npz, never pickle


def encode(data: Any) -> tuple[bytes, bytes]:
    """``data`` (dicts, lists, str, numbers, bools, None, ndarrays) as the bytes of a .json and an .npz file."""
    arrays: dict[str, np.ndarray] = {}

    def tree(value: Any) -> Any:
        if isinstance(value, np.ndarray):
            key = f"a{len(arrays)}"
            arrays[key] = value
            return {"array": key}
        if isinstance(value, dict):
            return {"dict": {str(k): tree(v) for k, v in value.items()}}
        if isinstance(value, (list, tuple)):
            return [tree(v) for v in value]
        if isinstance(value, (np.bool_, np.integer, np.floating)):
            return value.item()
        return value

    text = json.dumps(tree(data)).encode()
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return text, buffer.getvalue()


def save(path: Path, data: Any) -> None:
    """Write ``data`` as ``path``.json and ``path``.npz (``encode``)."""
    text, npz = encode(data)
    path.with_suffix(".npz").write_bytes(npz)
    path.with_suffix(".json").write_bytes(text)


def load(path: Path, max_bytes: int = 512 << 20) -> Any:
    """Read what ``save`` wrote (refusing pickled objects and files over ``max_bytes``)."""
    for suffix in (".json", ".npz"):
        if path.with_suffix(suffix).stat().st_size > max_bytes:
            raise ValueError(f"{path.with_suffix(suffix)} is larger than {max_bytes} bytes")
    tree = json.loads(path.with_suffix(".json").read_text())
    with np.load(path.with_suffix(".npz"), allow_pickle=False) as arrays:

        def decode(value: Any) -> Any:
            if isinstance(value, dict):
                if "array" in value:
                    return arrays[value["array"]]
                return {k: decode(v) for k, v in value["dict"].items()}
            if isinstance(value, list):
                return [decode(v) for v in value]
            return value

        return decode(tree)
