"""The MNIST gate's speed, measured from outside: the grader's own training (the pace) and the watch of a worker.

A real pace process and a real CPU-burning process stand in for the student's worker; no sandbox, no MNIST. Every
assertion compares the watch's decisions with the figures it read, so none depends on how busy the machine is.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from autograder.grading.pace import CHUNK, EARLY_FLOOR, EVERY, RATE_STEPS, Pace, PaceReading, SpeedWatch
from autograder.judge.inputs import GATE_MAX_SLOWDOWN, inputs_for
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
        while watch.cpu < 1.0 and not stopped and time.monotonic() < deadline:
            _read(watch, burner, 0.05)
        burner.kill()
        burner.wait()
        measured = watch.finish()
    assert not stopped and measured["cpu"] >= 1.0, measured  # 1 s of start-up: over 1 x the grader's, under the floor


def test_a_forged_progress_only_delays_the_stop_to_the_whole_runs_allowance() -> None:
    """A worker that says it is done gets no more than the judge's rule on the whole run allows."""
    watch, measured, stopped = _watch(progress=100, limit=2.0, steps=100, cpu=30)
    assert stopped and measured["too_slow_at"] == 100
    assert measured["cpu"] > 2.0 * (measured["pace_setup"] + 100 * measured["pace_step"]), measured


def test_a_worker_within_the_limit_is_not_stopped() -> None:
    watch, measured, stopped = _watch(progress=0, limit=1e9, steps=5625, cpu=0.5)
    assert not stopped and measured["too_slow_at"] is None and measured["cpu"] >= 0.5, measured


def test_a_worker_whose_cpu_per_step_is_over_the_limit_is_stopped_before_the_whole_runs_allowance() -> None:
    """The rate rule: over RATE_STEPS steps the worker says it did, its CPU per step against the grader's step."""
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    said = SimpleNamespace(progress=1)
    stopped: list[bool] = []
    with Pace(hidden=256, batch=32, chunk=50, every=0.5) as pace:
        watch = SpeedWatch(pace, 10.0, 10**9, said, lambda: stopped.append(True), floor=0.0)
        deadline = time.monotonic() + 120
        while watch._first is None and time.monotonic() < deadline:  # its first reading, at step 1
            _read(watch, burner, 0.02)
        said.progress = 1 + RATE_STEPS
        while not stopped and time.monotonic() < deadline:
            _read(watch, burner, 0.05)
        burner.kill()
        burner.wait()
        measured = watch.finish()
    whole_run = 10.0 * (measured["pace_setup"] + (1 + RATE_STEPS + watch.every_steps) * measured["pace_step"])
    seen = measured["too_slow"]
    assert stopped and seen["times"] > 10.0 and seen["from"] == 1, measured
    assert seen["times"] == pytest.approx(seen["student"] / seen["reference"])
    assert measured["cpu"] < whole_run, (measured, whole_run)  # the rate, not the allowance of the steps said


# ---------------------------------------------------------- the rule's figures exactly, on a pace read as given


def test_the_speed_rules_constants_are_the_documented_ones() -> None:
    """docs/trust-and-sandbox.md: at most 100 times the grader's training, in chunks of 200 steps every 5 s; no stop
    on start-up before 30 CPU s; the rate compared over 250 steps."""
    assert (GATE_MAX_SLOWDOWN, CHUNK, EVERY, EARLY_FLOOR, RATE_STEPS) == (100.0, 200, 5.0, 30.0, 250)
    assert inputs_for("mnist_accuracy")["max_slowdown"] == 100.0


def test_the_graders_step_is_the_median_of_its_chunks_after_the_warm_up() -> None:
    pace = Pace.__new__(Pace)
    pace._lock, pace._setup, pace._chunks = threading.Lock(), 0.5, [9.0, 1.0, 1.0, 5.0]
    assert pace.reading() == PaceReading(setup=0.5, step=1.0, chunks=3)


class _GivenPace:
    """A pace read as given: the grader's training takes ``setup`` CPU s to start and ``step`` a step."""

    def __init__(self, setup: float, step: float) -> None:
        self.given = PaceReading(setup, step, 3)

    def tick(self) -> None:
        pass

    def reading(self) -> PaceReading:
        return self.given


def _stops(pace: _GivenPace, readings: list[tuple[int, float]], floor: float = EARLY_FLOOR) -> list[bool]:
    """Whether the watch (the gate's limit, 5,625 steps) has stopped the worker after each (step said, CPU used)."""
    said, stopped = SimpleNamespace(progress=0), []
    watch = SpeedWatch(pace, GATE_MAX_SLOWDOWN, 5625, said, lambda: stopped.append(True), floor=floor)  # type: ignore[arg-type]
    seen = []
    for step, used in readings:
        said.progress = step
        watch.observe(used)
        seen.append(bool(stopped))
    return seen


def test_a_worker_is_stopped_at_the_first_reading_over_100_times_the_graders_training_of_the_steps_said() -> None:
    pace = _GivenPace(setup=1.0, step=0.01)  # 25 steps ahead of step 0: 1.25 CPU s, so 125 CPU s allowed
    assert _stops(pace, [(0, 124.9), (0, 125.1)]) == [False, True]


def test_a_worker_is_never_stopped_on_its_start_up_before_30_cpu_seconds() -> None:
    pace = _GivenPace(setup=0.001, step=1e-6)
    assert _stops(pace, [(0, 29.9), (0, 30.1)]) == [False, True]


def test_the_cpu_per_step_is_compared_once_the_worker_says_it_did_250_steps() -> None:
    """From step 1 at 1 CPU s: 101 times the grader's step over 249 steps, then 250; the whole run's allowance (100 x
    the grader's 1 + 276 x 0.01 CPU s) is never reached."""
    pace = _GivenPace(setup=1.0, step=0.01)
    rate = 101 * 0.01
    readings = [(1, 1.0), (250, 1.0 + 249 * rate), (251, 1.0 + 250 * rate)]
    assert _stops(pace, readings, floor=0.0) == [False, False, True]
