"""Submissions that attack the grading machine's resources from the MNIST gate's worker (the longest one).

Each is the correct solution whose ``ReLU.forward`` turns hostile only inside the gate's worker (student code can tell:
the gate's probe is loaded), so the kernel and the other checks run it as it is. It must cost the gate alone, charged
to the student with its own reason, within minutes: a worker that trickles CPU with its timers off is stopped at
``KitGrading.worker_idle_seconds`` (before: the 900 s backstop, left ungraded as the machine's fault); forked children
and anonymous memory files are refused by the kernel (a sandbox is one process: ``autograder.sandbox``), and its
tmpfs folders hold only their fixed sizes (before: each process was bounded alone, and 6.4 GB of the host's memory
went).
"""

from __future__ import annotations

from autograder.classroom import Edit
from autograder.probe import gate
from catalogue.attacks import Submission, _edit
from catalogue.mistakes import GATE_CELL

RELU_FORWARD = "return np.maximum(x, 0)"
IN_THE_GATE = (
    "import signal, sys, time\n"
    f"        if {gate.__name__!r} in sys.modules:  # the gate's worker\n"
    "            for _timer in (signal.ITIMER_PROF, signal.ITIMER_REAL, signal.ITIMER_VIRTUAL):\n"
    "                signal.setitimer(_timer, 0)\n"
)


def _in_the_gate(code: str) -> Edit:
    body = "".join(f"            {line}\n" for line in code.splitlines())
    return Edit("relu", RELU_FORWARD, f"{IN_THE_GATE}{body}        {RELU_FORWARD}")


RESOURCE_ATTACKS: tuple[Submission, ...] = (
    Submission(
        "fault_trickles_cpu",
        "the gate's worker spends 0.6 CPU s every 3 s forever, its timers off: never stalled, never over its budget",
        _edit(
            _in_the_gate(
                "while True:\n"
                "    _end = time.process_time() + 0.6\n"
                "    while time.process_time() < _end:\n"
                "        pass\n"
                "    time.sleep(3)"
            )
        ),
        (GATE_CELL,),
        shows="most of them spent waiting rather than computing",
    ),
    Submission(
        "fault_forked_memory",
        "the gate's worker forks four children that would hold 1.5 GiB each",
        _edit(
            _in_the_gate(
                "import os\n"
                "for _ in range(4):\n"
                "    if os.fork() == 0:\n"
                "        _block = bytearray(os.urandom(1 << 20)) * 1536\n"
                "        time.sleep(600)\n"
                "time.sleep(600)"
            )
        ),
        (GATE_CELL,),
        shows="starts another process",
    ),
    Submission(
        "fault_memory_in_files",
        "the gate's worker fills its tmpfs folders and 1.2 GiB of anonymous memory files, then waits",
        _edit(
            _in_the_gate(
                "import os\n"
                "for _folder in ('/tmp', '/dev/shm', '.', '/'):\n"
                "    for _k in range(8):\n"
                "        try:\n"
                "            with open(os.path.join(_folder, f'fill{_k}'), 'wb') as _out:\n"
                "                _out.write(os.urandom(1 << 20) * 60)\n"
                "        except OSError:\n"
                "            break\n"
                "_files = [os.memfd_create('f') for _ in range(20)]\n"
                "for _fd in _files:\n"
                "    os.write(_fd, os.urandom(1 << 20) * 60)\n"
                "time.sleep(600)"
            )
        ),
        (GATE_CELL,),
        shows="PermissionError",
    ),
)
