"""The grading kernel's sockets are reached at an address a Unix socket can hold (107 bytes), however deep the scratch
folder (``KitGrading.work_dir``, ``$TMPDIR``) is: a deeper one used to stop every kernel with "File name too long".
Fast tier: zmq sockets bound and reached as the kernel and nbgrader's client do, no kernel. The same with real
kernels, sandboxed and not: ``tests/test_kernel_start.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import zmq
from traitlets.config import Config

from autograder.grading.kernel import SandboxKernelManager

SUN_PATH = 107  # bytes of a Unix socket's address on Linux, its final NUL aside


def _manager(tmp_path: Path, sandboxed: bool) -> SandboxKernelManager:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    config = Config()
    config.KitGrading.work_dir = str(deep)
    config.KitGrading.sandbox = sandboxed
    return SandboxKernelManager(config=config)


def test_an_unsandboxed_kernel_binds_and_is_reached_at_short_addresses_from_a_deep_scratch(tmp_path: Path) -> None:
    manager = _manager(tmp_path, sandboxed=False)
    home = Path(manager._home)
    assert len(str(home / "io" / "kernel-ipc-65535")) > SUN_PATH  # the folder alone would not fit
    (home / "work").mkdir()
    context = zmq.Context()
    kernel_side, client_side = context.socket(zmq.PAIR), context.socket(zmq.PAIR)
    here = os.getcwd()
    try:
        os.chdir(home / "work")  # where the unsandboxed kernel starts, and binds what its connection file says
        kernel_side.bind(f"ipc://{manager.ip}-1")
        os.chdir(here)
        address = manager._short_address()  # what nbgrader's client is given once the kernel is up
        assert len(f"{address}-65535") <= SUN_PATH, address
        client_side.connect(f"ipc://{address}-1")
        client_side.send(b"ping")
        assert kernel_side.poll(5000) and kernel_side.recv() == b"ping"
    finally:
        os.chdir(here)
        kernel_side.close(0)
        client_side.close(0)
        context.term()
        _close(manager)


def test_a_sandboxed_kernels_client_address_is_short_and_names_its_folder(tmp_path: Path) -> None:
    manager = _manager(tmp_path, sandboxed=True)
    address = manager._short_address()
    assert len(f"{address}-65535") <= SUN_PATH, address
    assert Path(address).parent.resolve() == (Path(manager._home) / "io").resolve()
    _close(manager)


def _close(manager: SandboxKernelManager) -> None:
    for fd in manager._socket_fds:
        os.close(fd)
