"""MNIST for grading, found once on the trusted side: every sandbox gets one absolute, validated, read-only path."""

from __future__ import annotations

import os
from pathlib import Path

from autograder.faults import GraderFault
from autograder.settings import KitGrading


def resolve_mnist(kit: KitGrading) -> Path:
    """The absolute MNIST folder for this course, validated (every file, as the loader checks them).

    Order: ``KitGrading.mnist_dir`` (relative to the course), ``$MNIST_DIR`` (relative to the current folder),
    the download cache (downloading if ``KitGrading.download_mnist``). Raises ``GraderFault`` with the loader's
    message when the data is missing or corrupt.
    """
    from autograder.course.mnist_data import MnistDataError, load_mnist
    from autograder.judge.gate import kept_mnist  # read once per process: the gate's judge reads the same copy

    try:
        if kit.mnist_dir:
            folder = (kit.course_root() / Path(kit.mnist_dir).expanduser()).resolve()
            given_as = _given_as(
                f"c.KitGrading.mnist_dir = {kit.mnist_dir!r}", kit.mnist_dir, "the course folder", kit.course_root()
            )
            data = kept_mnist(folder, load_mnist, folder, given_as=given_as)
        elif os.environ.get("MNIST_DIR"):
            folder = Path(os.environ["MNIST_DIR"]).expanduser().resolve()
            given_as = _given_as(
                f"MNIST_DIR={os.environ['MNIST_DIR']}",
                os.environ["MNIST_DIR"],
                "the folder the command runs in",
                Path.cwd(),
            )
            data = kept_mnist(folder, load_mnist, folder, given_as=given_as)
        else:
            data = kept_mnist(None, load_mnist, download=kit.download_mnist)
    except MnistDataError as error:
        raise GraderFault(f"MNIST for the gate cannot be used: {error}") from None
    return Path(data.source).resolve()


def _given_as(setting: str, folder: str, base: str, base_folder: Path) -> str:
    """How the MNIST folder was named, for the loader's message: a relative one with the folder it was taken from (an
    absolute one is taken as it is, wherever the command runs)."""
    if Path(folder).expanduser().is_absolute():
        return setting
    return f"{setting}, taken from {base} {base_folder}"
