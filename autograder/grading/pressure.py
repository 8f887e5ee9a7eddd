"""How long this machine kept work waiting for a CPU: the kernel's pressure stall information (PSI), system-wide.

``/proc/pressure/cpu``'s ``some total`` counts the microseconds in which some task was ready to run and had no CPU:
a busy machine raises it, a sandbox only by keeping threads ready to run, which spends its own CPU budget. Credited
to a worker, a machine's load never counts as its idleness (a worker that uses no CPU is stuck whatever the load).

Trusted side: the workers' watch, the grade command's backstop and its retries. May import: the standard library.
"""

from __future__ import annotations

import time

PRESSURE = "/proc/pressure/cpu"
QUIET = 0.5
"""The machine is quiet enough to try a submission again once some task waited for a CPU less than half of the last
10 seconds (PSI's ``avg10``)."""


def _some() -> dict[str, float]:
    """The ``some`` line of the kernel's CPU pressure (``avg10`` in percent, ``total`` in microseconds); empty where
    the kernel does not say (no PSI: Linux before 4.20, or booted with ``psi=0``)."""
    try:
        with open(PRESSURE) as pressure:
            line = next(line for line in pressure if line.startswith("some "))
        return {key: float(value) for key, value in (field.split("=") for field in line.split()[1:])}
    except (OSError, ValueError, StopIteration):
        return {}


def cpu_waiting() -> float | None:
    """Seconds, since the machine started, in which some task waited for a CPU; None where the kernel does not say."""
    total = _some().get("total")
    return None if total is None else total / 1e6


class Waiting:
    """The machine's waiting for a CPU since this was made, in seconds (0 where the kernel does not say)."""

    def __init__(self) -> None:
        self._start = cpu_waiting()

    def seconds(self) -> float:
        now = cpu_waiting()
        return 0.0 if now is None or self._start is None else max(0.0, now - self._start)


def wait_until_quiet(longest: float, every: float = 2.0) -> float:
    """Wait, at most ``longest`` seconds, until the machine is quiet (``QUIET``); return the seconds waited."""
    start = time.monotonic()
    while _some().get("avg10", 0.0) / 100 >= QUIET and time.monotonic() - start < longest:
        time.sleep(every)
    return time.monotonic() - start
