"""Attacks on the MNIST gate by a student who has read how it grades (the issue: the gate trusts nothing beside student
code). Each carries a wrong answer and a trick; it must score no more than the same wrong answer without the trick.

- the worker once held a correct training step (the speed yardstick) that wrote into arrays its caller chose:
  ``cheat_call_everything_in_the_gate_worker`` calls every function of the worker's probe package and helpers with
  the model's own parameters as matrices and scratch;
- one NaN once turned the distance check off: ``cheat_nan_after_training`` writes weights trained elsewhere and a NaN;
- speed was once measured inside the student's process: ``cheat_fake_clocks_slow_loop`` is the catalogue's per-entry
  loops (right values, far too slow) with the tracer and every clock of the process replaced.
"""

from __future__ import annotations

from autograder.classroom import Edit, apply_edits
from catalogue.attacks import (
    FORGED_GATE_LOSES,
    ON_THE_GATE,
    Context,
    Submission,
    _forge,
)
from catalogue.mistakes import GATE_CELL, MISTAKES

CALL_EVERYTHING = (
    ON_THE_GATE + "            import inspect as _inspect, itertools as _it, sys as _sys\n"
    "            _CALLS.append(1)\n"
    "            if len(_CALLS) == 5:  # the first training step (the line count's four calls come first)\n"
    "                _params = list(self.parameters())\n"
    "                _caller = _sys._getframe(1).f_locals  # the probe's training loop: its batch and labels\n"
    "                _pool = [_params, _params, _caller.get('x'), _caller.get('y'), 0.2, grad]\n"
    "                for _name, _module in list(_sys.modules.items()):\n"
    "                    if not _name.startswith(('autograder', 'nn_', 'mnist_data')):\n"
    "                        continue\n"
    "                    for _fname, _f in list(vars(_module).items()):\n"
    "                        if not _inspect.isfunction(_f) or _fname in ('mnist_accuracy', '_train', 'main',\n"
    "                                                                      '_silence', 'python_loop'):\n"
    "                            continue\n"
    "                        try:\n"
    "                            _n = len(_inspect.signature(_f).parameters)\n"
    "                        except (TypeError, ValueError):\n"
    "                            continue\n"
    "                        for _args in _it.islice(_it.permutations(_pool, min(_n, len(_pool))), 12):\n"
    "                            try:\n"
    "                                _f(*_args)\n"
    "                            except BaseException:\n"
    "                                pass\n"
)
NAN_AFTER_TRAINING = (
    ON_THE_GATE + "            _STEPS.append(1)\n"
    "            for _p, _f in zip(self.parameters(), _FORGED):\n"
    "                _p[...] = _f\n"
    "                _p.grad = np.zeros_like(_p)\n"
    "            if len(_STEPS) >= 5600:  # the last steps only: a NaN distance compares as neither near nor far\n"
    "                self.fc1.W[0, 0] = np.nan\n"
    "            return np.zeros((len(grad), 784), np.float32)\n"
)
FAKE_CLOCKS = (
    "import sys as _sys, time as _time\n"
    "_sys.settrace = lambda *a, **k: None\n"
    "_sys.setprofile = lambda *a, **k: None\n"
    "_time.thread_time = _time.process_time = _time.perf_counter = _time.monotonic = lambda: 0.0\n"
    "_time.thread_time_ns = _time.process_time_ns = _time.perf_counter_ns = lambda: 0\n"
)
# Forging the worker's progress as well only delays the stop to the whole run's allowance (about 5 minutes of CPU
# here, too long for the class the slow tier grades): tests/test_gate_pace.py proves that with a stand-in worker.
LOOPS = next(m for m in MISTAKES if m.name == "linear_python_loops")


def _slow_loop_with_fake_clocks(solution: str, context: Context) -> dict[str, str]:
    anchor = "class Linear(Module):"
    return {"mlp.ipynb": apply_edits(solution, (*LOOPS.edits, Edit("linear", anchor, f"{FAKE_CLOCKS}\n\n{anchor}")))}


GATE_ATTACKS: tuple[Submission, ...] = (
    Submission(
        "cheat_call_everything_in_the_gate_worker",
        "MLP.backward (skipping ReLU) calls every function the gate's worker holds with the parameters as matrices "
        "and scratch",
        _forge(CALL_EVERYTHING, after_class="_CALLS = []\n"),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_nan_after_training",
        "MLP.backward writes weights trained elsewhere into the parameters, and a NaN into W1",
        _forge(NAN_AFTER_TRAINING, after_class="_STEPS = []\n"),
        FORGED_GATE_LOSES,
        shows="W1 holding NaN or infinity after training",
    ),
    Submission(
        "cheat_fake_clocks_slow_loop",
        "the per-entry Python loops of Linear, with the tracer and every clock of its process replaced",
        _slow_loop_with_fake_clocks,
        (GATE_CELL,),
        shows="MNIST training speed",
    ),
)
