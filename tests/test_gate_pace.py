"""The MNIST gate's speed, measured from outside: the grader's own training (the pace) and the watch of a worker.

A real pace process and a real CPU-burning process stand in for the student's worker; no sandbox, no MNIST. Every
assertion compares the watch's decisions with the figures it read, so none depends on how busy the machine is.
"""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from autograder.grading.pace import RATE_STEPS, Pace, SpeedWatch
from autograder.sandbox import cpu_seconds

BURN = "import time\nwhile True:\n    pass\n"


def _read(watch: SpeedWatch, burner: subprocess.Popen, seconds: float = 0.1) -> None:
    """One reading of the burner's CPU time for the watch, as the workers' watch gives it every 0.25 s."""
    time.sleep(seconds)
    watch.observe(cpu_seconds(burner.pid))


def test_the_pace_measures_the_graders_own_training_step() -> None:
    with Pace(hidden=256, batch=32, chunk=50) as pace:
        reading = pace.close()
    assert reading.chunks >= 1 and reading.setup > 0
    assert 1e-5 < reading.step < 0.5  # seconds of CPU per step of the 784-256-10 MLP at batch 32
    assert reading.cpu_for(1000) == pytest.approx(reading.setup + 1000 * reading.step)


def _watch(progress: int, limit: float, steps: int, cpu: float) -> tuple[SpeedWatch, dict, bool]:
    """Watch a process that burns CPU, until the watch has seen it use ``cpu`` seconds or stopped it, while it 'says'
    it is at step ``progress`` (at most 120 s of wall time: a very busy machine)."""
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    said = SimpleNamespace(progress=progress)
    stopped: list[bool] = []

    def stop() -> None:
        stopped.append(True)
        burner.kill()

    pace = Pace(hidden=256, batch=32, chunk=50, every=0.5)
    watch = SpeedWatch(pace, limit, steps, said, stop, floor=0.0)
    deadline = time.monotonic() + 120
    while burner.poll() is None and watch.cpu < cpu and time.monotonic() < deadline:
        _read(watch, burner)
    burner.kill()
    burner.wait()
    return watch, watch.finish(), bool(stopped)


def test_a_worker_that_says_nothing_is_stopped_once_it_used_the_graders_start_up_and_one_interval() -> None:
    watch, measured, stopped = _watch(progress=0, limit=3.0, steps=5625, cpu=30)
    assert stopped and measured["too_slow_at"] == 0
    seen = measured["too_slow"]  # what the watch compared, for the message: the same figures
    # against the pace as read when it stopped (the pace's median may move with later chunks on a busy machine)
    assert measured["cpu"] >= seen["student"] > 3.0 * seen["reference"], measured
    assert seen["from"] == 0 and seen["times"] > 3.0
    assert seen["times"] == pytest.approx(seen["student"] / seen["reference"])


def test_the_watch_never_stops_a_worker_on_its_start_up_before_the_floor() -> None:
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    stopped: list[bool] = []
    with Pace(hidden=256, batch=32, chunk=50, every=0.5) as pace:
        watch = SpeedWatch(pace, 1.0, 5625, SimpleNamespace(progress=0), lambda: stopped.append(True))
        deadline = time.monotonic() + 120
        while watch.cpu < 2.0 and not stopped and time.monotonic() < deadline:
            _read(watch, burner, 0.05)
        burner.kill()
        burner.wait()
        measured = watch.finish()
    assert not stopped and measured["cpu"] >= 2.0, measured  # 2 s of start-up: over 1 x the grader's, under the floor


def test_a_forged_progress_only_delays_the_stop_to_the_whole_runs_allowance() -> None:
    """A worker that says it is done gets no more than the judge's rule on the whole run allows."""
    watch, measured, stopped = _watch(progress=100, limit=2.0, steps=100, cpu=30)
    assert stopped and measured["too_slow_at"] == 100
    assert measured["cpu"] > 2.0 * (measured["pace_setup"] + 100 * measured["pace_step"]), measured


def test_a_worker_within_the_limit_is_not_stopped() -> None:
    watch, measured, stopped = _watch(progress=0, limit=1e9, steps=5625, cpu=1.0)
    assert not stopped and measured["too_slow_at"] is None and measured["cpu"] >= 1.0, measured


def test_a_worker_whose_cpu_per_step_is_over_the_limit_is_stopped_before_the_whole_runs_allowance() -> None:
    """The rate rule: over RATE_STEPS steps the worker says it did, its CPU per step against the grader's step."""
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    said = SimpleNamespace(progress=1)
    stopped: list[bool] = []
    with Pace(hidden=256, batch=32, chunk=50, every=0.5) as pace:
        watch = SpeedWatch(pace, 20.0, 10**9, said, lambda: stopped.append(True), floor=0.0)
        deadline = time.monotonic() + 120
        while watch._first is None and time.monotonic() < deadline:  # its first reading, at step 1
            _read(watch, burner, 0.02)
        said.progress = 1 + RATE_STEPS
        while not stopped and time.monotonic() < deadline:
            _read(watch, burner, 0.05)
        burner.kill()
        burner.wait()
        measured = watch.finish()
    whole_run = 20.0 * (measured["pace_setup"] + (1 + RATE_STEPS + watch.every_steps) * measured["pace_step"])
    seen = measured["too_slow"]
    assert stopped and seen["times"] > 20.0 and seen["from"] == 1, measured
    assert seen["times"] == pytest.approx(seen["student"] / seen["reference"])
    assert measured["cpu"] < whole_run, (measured, whole_run)  # the rate, not the allowance of the steps said
