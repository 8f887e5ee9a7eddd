"""A tiny but valid MNIST (a few examples, real IDX format, gzipped), for tests that must not need the real data."""

from __future__ import annotations

import gzip
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "source" / "mlp"))
import mnist_data  # noqa: E402

N_TRAIN, N_TEST = 5, 3  # sizes of the synthetic data sets
TRAIN_IMAGES = mnist_data.FILES["train_images"]
TRAIN_LABELS = mnist_data.FILES["train_labels"]
TEST_IMAGES = mnist_data.FILES["test_images"]
TEST_LABELS = mnist_data.FILES["test_labels"]


def idx_bytes(magic: int, dims: tuple[int, ...], payload: bytes) -> bytes:
    """Raw (uncompressed) IDX bytes: big-endian magic, dims, then the payload."""
    return struct.pack(f">I{len(dims)}I", magic, *dims) + payload


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def images_gz(n: int, rows: int = 28, cols: int = 28, seed: int = 0) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, size=(n, rows, cols), dtype=np.uint8)
    return gz(idx_bytes(mnist_data.IMAGE_MAGIC, (n, rows, cols), pixels.tobytes()))


def labels_gz(n: int) -> bytes:
    return gz(idx_bytes(mnist_data.LABEL_MAGIC, (n,), bytes(i % 10 for i in range(n))))


def synthetic_files(seed: int = 0) -> dict[str, bytes]:
    """Filename -> gzip bytes of a tiny but valid MNIST (N_TRAIN / N_TEST examples)."""
    return {
        TRAIN_IMAGES: images_gz(N_TRAIN, seed=seed),
        TRAIN_LABELS: labels_gz(N_TRAIN),
        TEST_IMAGES: images_gz(N_TEST, seed=seed + 1),
        TEST_LABELS: labels_gz(N_TEST),
    }


def write_files(directory: Path, files: dict[str, bytes]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return directory


def accept_tiny_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the loader (every copy of ``mnist_data`` imported so far) accept N_TRAIN / N_TEST examples."""
    for module in {mnist_data, sys.modules.get("mnist_data", mnist_data)}:
        monkeypatch.setitem(module.EXPECTED_COUNTS, "train", N_TRAIN)
        monkeypatch.setitem(module.EXPECTED_COUNTS, "test", N_TEST)
