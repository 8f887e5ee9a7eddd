"""How long this machine kept work waiting for a CPU: the kernel's pressure stall information (PSI), system-wide.

``/proc/pressure/cpu``'s ``some total`` counts the microseconds in which at least one task was ready to run and had
no CPU. A busy machine raises it; a sandbox can raise it only by keeping threads ready to run, which spends its own
CPU budget (a sandbox is one process: ``autograder.sandbox``). The workers' watch credits a worker with this
waiting, so a machine's load never counts as a worker's idleness, and never as its stall: a worker that uses no
CPU at all is stuck whatever the load.

Trusted side: the workers' watch (``workers._watch``), the grade command's backstop (``autograde.run_limited``) and
its retries (``class_run``). May import: the standard library only.
"""

from __future__ import annotations

import time

PRESSURE = "/proc/pressure/cpu"


QUIET = 0.5
"""The machine is quiet enough to try a submission again once some task waited for a CPU less than half of the last
10 seconds (PSI's ``avg10``)."""


def cpu_waiting() -> float | None:
    """Seconds, since the machine started, in which some task waited for a CPU; None where the kernel does not say
    (no PSI: Linux before 4.20, or booted with ``psi=0``)."""
    try:
        with open(PRESSURE, "rb") as pressure:
            for line in pressure:
                if line.startswith(b"some "):
                    return int(line.rsplit(b"total=", 1)[1]) / 1e6
    except (OSError, ValueError, IndexError):
        pass
    return None


class Waiting:
    """The machine's waiting for a CPU since this was made, in seconds (0 where the kernel does not say)."""

    def __init__(self) -> None:
        self._start = cpu_waiting()

    def seconds(self) -> float:
        now = cpu_waiting()
        return 0.0 if now is None or self._start is None else max(0.0, now - self._start)


def busy_share() -> float:
    """The share of the last 10 seconds in which some task waited for a CPU (0 where the kernel does not say)."""
    try:
        with open(PRESSURE, "rb") as pressure:
            for line in pressure:
                if line.startswith(b"some "):
                    return float(line.split(b"avg10=", 1)[1].split()[0]) / 100
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def wait_until_quiet(longest: float, every: float = 2.0) -> float:
    """Wait, at most ``longest`` seconds, until the machine is quiet (``QUIET``); return the seconds waited."""
    start = time.monotonic()
    while busy_share() >= QUIET and time.monotonic() - start < longest:
        time.sleep(every)
    return time.monotonic() - start
