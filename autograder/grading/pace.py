"""The MNIST gate's speed, measured from outside the student's process: their worker's CPU time against the grader's.

Student code shares the gate worker's process, so any clock or tracer in it can be replaced. Two things cannot:

- the CPU time the kernel charges to the worker's sandbox, one process with its threads (``sandbox.cpu_seconds``),
  read from ``/proc`` every 0.25 s while it runs, outside its sandbox;
- the grader's own training step (``judge.gate_reference.step``: the reference MLP, float32 NumPy, one BLAS thread,
  the gate's shapes and batch), run in a process of the grader's own that no student code reaches: the *pace*.

The pace runs beside the student's worker, at the same time, so both are measured under the same load: a chunk of
``CHUNK`` steps when the worker starts and then every ``EVERY`` seconds until it ends (about 0.1 s of CPU a chunk);
its step is the median of the chunks (the first, which warms caches, left out). The speed rule is then
``worker CPU <= limit x (pace set-up + steps x pace step)``: the whole worker (start-up, MNIST, the student's
training) against the grader's whole training of the same steps, measured the same way. The worker's word on how far
it has come (its progress frames) only lets the watch stop a too-slow worker early; forging it delays that stop, and
the judge's rule on the whole run still holds.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.faults import GraderFault

CHUNK = 200
"""Steps of the grader's training per pace chunk (about 0.1 s of CPU on a 2026 laptop core)."""
EVERY = 5.0
"""Wall seconds between two pace chunks while the student's worker runs."""
ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """import sys
from autograder.grading.pace import pace_main
pace_main(sys.argv[1:])
"""


@dataclass(frozen=True)
class PaceReading:
    """The grader's own training, measured: CPU seconds of its process's start-up and of one step."""

    setup: float
    step: float
    chunks: int

    def cpu_for(self, steps: int) -> float:
        """CPU seconds the grader's own training of ``steps`` steps takes here, start-up included."""
        return self.setup + steps * self.step


def pace_main(argv: list[str]) -> None:
    """The pace process: say how much CPU its start-up took, then run a chunk of steps per line read on stdin."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from autograder.judge.gate_reference import step

    hidden, batch, chunk = (int(a) for a in argv)
    rng = np.random.default_rng(0)  # the values do not matter for the time: dense products of the gate's shapes
    x = rng.random((4096, 784), dtype=np.float32)
    y = rng.integers(0, 10, len(x))
    params = [
        (rng.standard_normal((784, hidden)) * np.sqrt(2 / 784)).astype(np.float32),
        np.zeros(hidden, np.float32),
        (rng.standard_normal((hidden, 10)) * np.sqrt(2 / hidden)).astype(np.float32),
        np.zeros(10, np.float32),
    ]
    order = rng.permutation(len(x))
    print(json.dumps({"setup": time.process_time()}), flush=True)
    with threadpool_limits(limits=1, user_api="blas"):
        done = 0
        for _ in sys.stdin:
            start = time.process_time()
            for _ in range(chunk):
                rows = order[(done * batch) % len(x) :][:batch]
                if len(rows) < batch:
                    rows = order[:batch]
                step(params, x[rows], y[rows], 0.01)
                done += 1
            print(json.dumps({"steps": chunk, "cpu": time.process_time() - start}), flush=True)


class Pace:
    """The grader's own training, run in chunks beside a student's gate worker (``with Pace(...) as pace``)."""

    def __init__(self, hidden: int, batch: int, chunk: int = CHUNK, every: float = EVERY) -> None:
        self.chunk, self.every = chunk, every
        self._setup: float | None = None
        self._chunks: list[float] = []
        self._lock = threading.Lock()
        self._asked = 0.0
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        try:
            self._process = subprocess.Popen(
                # run in ROOT, whose autograder ``-c`` finds first (an instructor's clone may not be installed)
                [sys.executable, "-E", "-s", "-c", PROGRAM, str(hidden), str(batch), str(chunk)],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                text=True,
            )
        except OSError as error:
            raise GraderFault(f"could not start the grader's own training to time the MNIST gate ({error})") from error
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.ask()  # warm-up
        self.ask()

    def _read(self) -> None:
        for line in self._process.stdout:
            data: dict[str, Any] = json.loads(line)
            with self._lock:
                if "setup" in data:
                    self._setup = float(data["setup"])
                else:
                    self._chunks.append(float(data["cpu"]) / int(data["steps"]))

    def ask(self) -> None:
        """Have the pace run one more chunk now."""
        self._asked = time.monotonic()
        try:
            self._process.stdin.write("go\n")
            self._process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # it ended: ``reading`` says so

    def tick(self) -> None:
        """Ask for a chunk if the last was asked ``every`` seconds ago (called by the watch of the student's worker)."""
        if time.monotonic() - self._asked >= self.every:
            self.ask()

    def reading(self) -> PaceReading | None:
        """The measurement so far; None until a chunk after the warm-up has finished."""
        with self._lock:
            if self._setup is None or len(self._chunks) < 2:
                return None
            return PaceReading(self._setup, statistics.median(self._chunks[1:]), len(self._chunks) - 1)

    def close(self, timeout: float = 120.0) -> PaceReading:
        """Stop the pace and return its measurement (waiting for a first chunk if none has finished yet)."""
        deadline = time.monotonic() + timeout
        while self.reading() is None and self._process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        reading = self.reading()
        try:
            self._process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reader.join(timeout=5)
        if reading is None:
            raise GraderFault(
                f"the grader's own training, which times the MNIST gate, gave no measurement "
                f"(exit status {self._process.returncode})"
            )
        return reading

    def __enter__(self) -> Pace:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


RATE_STEPS = 250
"""Steps the worker must say it has done since the watch's first reading before its rate is compared."""
EARLY_FLOOR = 30.0
"""CPU seconds a worker may always use before the watch stops it on the start-up and steps it says it did (the
start-up includes the student's own definitions; the judge's rule on the whole run still holds). Above what a worker
that computes a fifth of the time (the catalogue's trickling attack) uses before the idle rule stops it at
``worker_idle_seconds`` (120 s: 24 CPU s), so that it is told it mostly waited."""


@dataclass
class SpeedWatch:
    """Judges a student's gate worker as the workers' watch reads its CPU time: whether it is already too slow.

    ``limit`` is the gate's ``max_slowdown``; ``steps`` the recipe's number of steps. ``stop`` is called once, from
    ``observe``, when the worker is too slow by either of two readings: it has used more than ``limit`` times the
    grader's training (start-up included) of the steps it says it has done, plus one progress interval, and at least
    ``floor`` seconds; or, over ``RATE_STEPS`` or more steps it says it did, its CPU per step was more than
    ``limit`` times the grader's. What the worker says can be forged only to delay the stop; the judge's rule on the
    whole run does not rest on it."""

    pace: Pace
    limit: float
    steps: int
    progress: Any  # the live WorkerReport: its ``progress`` is the worker's word
    stop: Any
    every_steps: int = 25
    floor: float = EARLY_FLOOR
    cpu: float = 0.0
    too_slow_at: int | None = None  # the step the worker said it had reached when it was stopped as too slow
    too_slow: dict[str, float] | None = None  # what the watch compared then: times, student and grader CPU, from step
    _first: tuple[int, float] | None = None  # (step said, CPU used) at the first reading with progress

    def observe(self, used: float) -> None:
        """One reading of the worker's CPU seconds (``sandbox.cpu_seconds``, by the workers' watch)."""
        if used <= 0.0:
            return  # ended: /proc has nothing more of it
        self.cpu = max(self.cpu, used)
        self.pace.tick()
        reading = self.pace.reading()
        if reading is None or self.too_slow_at is not None:
            return
        said = max(0, min(int(self.progress.progress), self.steps))
        if self._first is None and said > 0:
            self._first = (said, used)
        ahead = min(said + self.every_steps, self.steps)  # a progress frame lags the CPU by up to one interval
        seen = {"times": used / reading.cpu_for(ahead), "student": used, "reference": reading.cpu_for(ahead)}
        seen["from"] = 0
        if self._first is not None and said - self._first[0] >= RATE_STEPS:
            steps, spent = said - self._first[0], used - self._first[1]
            rate = spent / (steps * reading.step)
            if rate > seen["times"]:
                seen = {"times": rate, "student": spent, "reference": steps * reading.step, "from": self._first[0]}
        if seen["times"] > self.limit and (seen["from"] or used >= self.floor):
            self.too_slow_at, self.too_slow = said, seen
            self.stop()

    def finish(self) -> dict[str, Any]:
        """The trusted measurement of the run, for the judge (``judge.gate``)."""
        reading = self.pace.close()
        return {
            "cpu": self.cpu,
            "steps": self.steps,
            "pace_setup": reading.setup,
            "pace_step": reading.step,
            "pace_chunks": reading.chunks,
            "too_slow_at": self.too_slow_at,
            "too_slow": self.too_slow,
        }
