"""Tests for source/mlp/mnist_data.py (no internet: downloads use a loopback HTTP server)."""

import functools
import hashlib
import http.server
import os
import socket
import sys
import threading
import urllib.request
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "source" / "mlp"))
import mnist_data  # noqa: E402
from mnist_data import MnistDataError  # noqa: E402
from tiny_mnist import N_TEST, N_TRAIN, gz, idx_bytes, images_gz, labels_gz, synthetic_files, write_files  # noqa: E402

TRAIN_CLASS_COUNTS = (5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949)

TRAIN_IMAGES = mnist_data.FILES["train_images"]
TRAIN_LABELS = mnist_data.FILES["train_labels"]
TEST_IMAGES = mnist_data.FILES["test_images"]
TEST_LABELS = mnist_data.FILES["test_labels"]


def _shared_mnist_dir() -> Path | None:
    candidate = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"
    if not (candidate / TRAIN_IMAGES).is_file():
        candidate = Path(os.environ.get("MNIST_DIR") or "/nonexistent")
    return candidate if (candidate / TRAIN_IMAGES).is_file() else None


SHARED_DIR = _shared_mnist_dir()
_real_mnist_present = pytest.mark.skipif(
    SHARED_DIR is None,
    reason="real MNIST files not found in ../shared/data/mnist and $MNIST_DIR is not set to a directory with them",
)


def needs_real_mnist(test):  # noqa: ANN001, ANN201 - a decorator
    """The slow tier (the fast tier runs anywhere, without the real data); skipped where the data is missing."""
    return pytest.mark.slow(_real_mnist_present(test))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ----------------------------------------------------------------------------
# Fixtures
# ----------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch, tmp_path):
    """No $MNIST_DIR, a throw-away cache, and no request may leave the machine."""
    monkeypatch.delenv(mnist_data.MNIST_DIR_ENV, raising=False)
    monkeypatch.setenv(mnist_data.MNIST_CACHE_ENV, str(tmp_path / "default-cache"))
    for var in ("no_proxy", "NO_PROXY"):
        monkeypatch.setenv(var, "127.0.0.1,localhost")

    real_urlopen = urllib.request.urlopen

    def loopback_only(url, *args, **kwargs):
        full_url = getattr(url, "full_url", url)
        if not full_url.startswith("http://127.0.0.1:"):
            pytest.fail(f"test tried to reach the network: {full_url}")
        return real_urlopen(url, *args, **kwargs)

    monkeypatch.setattr(urllib.request, "urlopen", loopback_only)


@pytest.fixture
def small_counts(monkeypatch):
    monkeypatch.setitem(mnist_data.EXPECTED_COUNTS, "train", N_TRAIN)
    monkeypatch.setitem(mnist_data.EXPECTED_COUNTS, "test", N_TEST)


@pytest.fixture
def user_dir(tmp_path, small_counts) -> Path:
    """A directory with a valid tiny MNIST."""
    return write_files(tmp_path / "mnist", synthetic_files())


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep stderr clean
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):  # e.g. client hung up early
        pass


@pytest.fixture
def http_root(tmp_path):
    """(served directory, base URL) of an HTTP server on 127.0.0.1."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def mirror(http_root, monkeypatch, small_counts):
    """A loopback mirror serving a tiny MNIST whose sums are patched in as the official ones."""
    root, base = http_root
    files = synthetic_files()
    write_files(root / "good", files)
    for name, data in files.items():
        monkeypatch.setitem(mnist_data.OFFICIAL_SHA256, name, sha256(data))
    return root, base, files


def dead_url() -> str:
    """URL of a loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name not in mnist_data.OFFICIAL_SHA256)


# ----------------------------------------------------------------------------
# The real data
# ----------------------------------------------------------------------------


def check_real_mnist(m: mnist_data.Mnist) -> None:
    assert m.train_images.shape == (60000, 28, 28) and m.train_images.dtype == np.uint8
    assert m.train_labels.shape == (60000,) and m.train_labels.dtype == np.uint8
    assert m.test_images.shape == (10000, 28, 28) and m.test_images.dtype == np.uint8
    assert m.test_labels.shape == (10000,) and m.test_labels.dtype == np.uint8
    assert m.train_labels.max() <= 9 and m.test_labels.max() <= 9
    assert tuple(np.bincount(m.train_labels, minlength=10)) == TRAIN_CLASS_COUNTS
    assert m.official_bytes == {TRAIN_IMAGES: False, TRAIN_LABELS: True, TEST_IMAGES: True, TEST_LABELS: True}
    assert m.source == SHARED_DIR
    assert 33.0 < m.train_images.mean() < 33.7


@needs_real_mnist
def test_real_mnist_via_argument(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = mnist_data.load_mnist(SHARED_DIR, download=False)
    check_real_mnist(m)
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


@needs_real_mnist
def test_real_mnist_via_env(monkeypatch, capsys):
    monkeypatch.setenv("MNIST_DIR", str(SHARED_DIR))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = mnist_data.load_mnist(download=False)
    check_real_mnist(m)
    assert capsys.readouterr().err == ""


@needs_real_mnist
def test_real_mnist_strict_checksums_rejects_rebuilt_train_images():
    with pytest.raises(MnistDataError, match="train-images") as info:
        mnist_data.load_mnist(SHARED_DIR, strict_checksums=True)
    msg = str(info.value)
    assert mnist_data.OFFICIAL_SHA256[TRAIN_IMAGES] in msg
    assert sha256((SHARED_DIR / TRAIN_IMAGES).read_bytes()) in msg


# ----------------------------------------------------------------------------
# A user directory with problems
# ----------------------------------------------------------------------------


def test_synthetic_user_dir_loads(user_dir):
    m = mnist_data.load_mnist(user_dir, download=False)
    assert m.train_images.shape == (N_TRAIN, 28, 28) and m.test_labels.shape == (N_TEST,)
    assert m.source == user_dir
    assert m.official_bytes == dict.fromkeys(mnist_data.OFFICIAL_SHA256, False)
    m.train_images[0, 0, 0] = 1  # arrays are writeable
    assert "train_images=uint8(5, 28, 28)" in repr(m)


def test_missing_dir_argument(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(missing)
    msg = str(info.value)
    assert str(missing) in msg and "does not exist" in msg and "data_dir" in msg


def test_missing_dir_env(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("MNIST_DIR", str(missing))
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist()
    msg = str(info.value)
    assert str(missing) in msg and "MNIST_DIR" in msg and "unset MNIST_DIR" in msg


def test_empty_env_var_is_ignored(monkeypatch, tmp_path):
    monkeypatch.setenv("MNIST_DIR", "")
    with pytest.raises(MnistDataError, match="download=False") as info:
        mnist_data.load_mnist(download=False)
    assert str(tmp_path / "default-cache") in str(info.value)


def test_missing_file_env(user_dir, monkeypatch):
    (user_dir / TEST_LABELS).unlink()
    monkeypatch.setenv("MNIST_DIR", str(user_dir))
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist()
    msg = str(info.value)
    assert TEST_LABELS in msg and str(user_dir) in msg and "MNIST_DIR" in msg
    assert TRAIN_IMAGES + " " not in msg.split("lacks")[1].split("Put")[0]  # only the missing one listed


def test_missing_file_hints_at_uncompressed_copy(user_dir):
    (user_dir / TEST_LABELS).rename(user_dir / TEST_LABELS.removesuffix(".gz"))
    with pytest.raises(MnistDataError, match="uncompressed"):
        mnist_data.load_mnist(user_dir)


def _corrupt(user_dir: Path, name: str, data: bytes) -> str:
    """Replace one file, load, and return the error message."""
    (user_dir / name).write_bytes(data)
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(user_dir)
    msg = str(info.value)
    assert str(user_dir / name) in msg and "data_dir" in msg
    return msg


def test_truncated_gzip(user_dir):
    data = synthetic_files()[TRAIN_IMAGES]
    assert "truncated" in _corrupt(user_dir, TRAIN_IMAGES, data[: len(data) // 2])


def test_bad_crc(user_dir):
    data = bytearray(synthetic_files()[TEST_IMAGES])
    data[-8] ^= 0xFF  # CRC32 in the gzip trailer
    assert "corrupt" in _corrupt(user_dir, TEST_IMAGES, bytes(data))


def test_corrupt_deflate_stream(user_dir):
    data = bytearray(synthetic_files()[TRAIN_IMAGES])
    for i in range(20, 60):
        data[i] ^= 0x5A
    assert "corrupt" in _corrupt(user_dir, TRAIN_IMAGES, bytes(data))


def test_not_gzip_at_all(user_dir):
    raw = idx_bytes(mnist_data.LABEL_MAGIC, (N_TRAIN,), bytes(N_TRAIN))
    assert "gzip" in _corrupt(user_dir, TRAIN_LABELS, raw)


def test_wrong_magic(user_dir):
    msg = _corrupt(user_dir, TRAIN_IMAGES, labels_gz(N_TRAIN))  # a labels file under the images name
    assert "magic" in msg and "2049" in msg and "2051" in msg


def test_wrong_image_size(user_dir):
    assert "28x28" in _corrupt(user_dir, TEST_IMAGES, images_gz(N_TEST, rows=28, cols=27))


def test_payload_too_short(user_dir):
    raw = idx_bytes(mnist_data.IMAGE_MAGIC, (N_TRAIN, 28, 28), bytes(N_TRAIN * 28 * 28 - 1))
    assert "too short" in _corrupt(user_dir, TRAIN_IMAGES, gz(raw))


def test_trailing_bytes(user_dir):
    raw = idx_bytes(mnist_data.LABEL_MAGIC, (N_TEST,), bytes(N_TEST) + b"\x00\x00")
    assert "trailing" in _corrupt(user_dir, TEST_LABELS, gz(raw))


def test_header_cut_off(user_dir):
    assert "header" in _corrupt(user_dir, TRAIN_LABELS, gz(b"\x00\x00\x08\x01\x00"))


def test_count_mismatch_between_images_and_labels(user_dir):
    msg = _corrupt(user_dir, TRAIN_LABELS, labels_gz(N_TRAIN - 1))
    assert str(user_dir / TRAIN_IMAGES) in msg and "do not match" in msg


def test_wrong_count_for_split(user_dir):
    files = {TEST_IMAGES: images_gz(N_TEST + 1), TEST_LABELS: labels_gz(N_TEST + 1)}
    write_files(user_dir, files)
    with pytest.raises(MnistDataError, match=f"expected {N_TEST}") as info:
        mnist_data.load_mnist(user_dir)
    assert str(user_dir / TEST_IMAGES) in str(info.value)


def test_label_out_of_range(user_dir):
    raw = idx_bytes(mnist_data.LABEL_MAGIC, (N_TEST,), bytes([3, 10, 1]))
    msg = _corrupt(user_dir, TEST_LABELS, gz(raw))
    assert "label 10" in msg and "index 1" in msg


def test_user_dir_is_never_replaced_by_download(user_dir, http_root):
    """A broken user directory is an error even when a working mirror exists."""
    (user_dir / TRAIN_IMAGES).unlink()
    with pytest.raises(MnistDataError, match=TRAIN_IMAGES):
        mnist_data.load_mnist(user_dir, mirrors=[http_root[1]])


def _read_idx(path: Path, magic: int, count: int | None = None) -> np.ndarray:
    """One IDX file read and validated as the loader reads each of its four files."""
    return mnist_data._parse_idx(mnist_data._read_bytes(path), path, magic, count)


def test_read_idx_direct(tmp_path):
    path = tmp_path / "x.gz"
    path.write_bytes(labels_gz(4))
    assert _read_idx(path, mnist_data.LABEL_MAGIC, 4).tolist() == [0, 1, 2, 3]
    with pytest.raises(MnistDataError, match="expected 5"):
        _read_idx(path, mnist_data.LABEL_MAGIC, 5)
    with pytest.raises(MnistDataError, match=str(tmp_path / "missing.gz")):
        _read_idx(tmp_path / "missing.gz", mnist_data.LABEL_MAGIC)


# ----------------------------------------------------------------------------
# Download cache (loopback HTTP server only)
# ----------------------------------------------------------------------------


def test_download_into_empty_cache(mirror, tmp_path, capsys):
    root, base, files = mirror
    cache = tmp_path / "cache"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = mnist_data.load_mnist(cache_dir=cache, mirrors=[base + "good/"])
    assert m.source == cache
    assert m.official_bytes == dict.fromkeys(files, True)
    assert m.train_images.shape == (N_TRAIN, 28, 28)
    for name, data in files.items():
        assert (cache / name).read_bytes() == data
    assert leftovers(cache) == []
    assert capsys.readouterr().err == ""

    # Second call: served from the cache, no server needed.
    m2 = mnist_data.load_mnist(cache_dir=cache, download=False)
    np.testing.assert_array_equal(m2.test_images, m.test_images)


def test_cache_dir_from_env(mirror, tmp_path, monkeypatch):
    _, base, files = mirror
    cache = tmp_path / "env-cache"
    monkeypatch.setenv("MNIST_CACHE_DIR", str(cache))
    assert mnist_data.load_mnist(mirrors=[base + "good/"]).source == cache
    assert sorted(p.name for p in cache.iterdir()) == sorted(files)


def test_mirror_with_wrong_bytes_is_rejected(mirror, tmp_path):
    root, base, files = mirror
    bad = synthetic_files(seed=42)  # valid IDX files, but not the "official" bytes
    write_files(root / "bad", bad)
    cache = tmp_path / "cache"
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(cache_dir=cache, mirrors=[base + "bad/"])
    msg = str(info.value)
    assert "checksum" in msg and "MNIST_DIR" in msg and base + "bad/" in msg
    assert leftovers(cache) == []
    assert not (cache / TRAIN_IMAGES).exists()


def test_bad_mirror_then_good_mirror(mirror, tmp_path):
    root, base, files = mirror
    write_files(root / "bad", synthetic_files(seed=42))
    cache = tmp_path / "cache"
    m = mnist_data.load_mnist(cache_dir=cache, mirrors=[base + "bad/", base + "good/"])
    assert m.official_bytes == dict.fromkeys(files, True)
    assert leftovers(cache) == []


def test_dead_first_mirror_falls_back_to_second(mirror, tmp_path):
    _, base, files = mirror
    cache = tmp_path / "cache"
    m = mnist_data.load_mnist(cache_dir=cache, mirrors=[dead_url(), base + "good/"])
    assert m.train_labels.tolist() == [0, 1, 2, 3, 4]
    for name, data in files.items():
        assert (cache / name).read_bytes() == data
    assert leftovers(cache) == []


def test_all_mirrors_fail(mirror, tmp_path):
    _, base, _ = mirror
    dead = dead_url()
    cache = tmp_path / "cache"
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(cache_dir=cache, mirrors=[dead, base + "missing/"])
    msg = str(info.value)
    assert dead in msg and base + "missing/" in msg and "404" in msg and "MNIST_DIR" in msg
    assert leftovers(cache) == []


def test_damaged_cache_file_is_downloaded_again(mirror, tmp_path):
    _, base, files = mirror
    cache = write_files(tmp_path / "cache", files)
    (cache / TEST_IMAGES).write_bytes(files[TEST_IMAGES][:-10])  # damaged after it was cached
    m = mnist_data.load_mnist(cache_dir=cache, mirrors=[base + "good/"])
    assert (cache / TEST_IMAGES).read_bytes() == files[TEST_IMAGES]
    assert m.test_images.shape == (N_TEST, 28, 28)
    assert leftovers(cache) == []


def test_damaged_cache_file_never_used_without_download(mirror, tmp_path):
    _, _, files = mirror
    cache = write_files(tmp_path / "cache", files)
    damaged = bytearray(files[TRAIN_LABELS])
    damaged[-8] ^= 0xFF
    (cache / TRAIN_LABELS).write_bytes(bytes(damaged))
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(cache_dir=cache, download=False)
    assert TRAIN_LABELS in str(info.value) and "checksum" in str(info.value)
    assert not (cache / TRAIN_LABELS).exists()


def test_no_download_with_empty_cache(tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(MnistDataError) as info:
        mnist_data.load_mnist(cache_dir=cache, download=False)
    msg = str(info.value)
    assert "MNIST_DIR" in msg and str(cache) in msg and TRAIN_IMAGES in msg
    assert not cache.exists()


# ----------------------------------------------------------------------------
# to_vectors
# ----------------------------------------------------------------------------


def test_to_vectors():
    images = np.zeros((3, 28, 28), dtype=np.uint8)
    images[0, 0, 0], images[1, 27, 27], images[2, 14, 3] = 255, 128, 1
    x = mnist_data.to_vectors(images)
    assert x.dtype == np.float32 and x.shape == (3, 784)
    assert x.min() == 0.0 and x.max() == 1.0
    assert x[0, 0] == 1.0 and x[1, 783] == np.float32(128 / 255) and x[2, 14 * 28 + 3] == np.float32(1 / 255)
    assert images[0, 0, 0] == 255  # input untouched


def test_to_vectors_rejects_wrong_input():
    with pytest.raises(ValueError, match="uint8"):
        mnist_data.to_vectors(np.zeros((2, 28, 28), dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        mnist_data.to_vectors(np.zeros((2, 784), dtype=np.uint8))


@needs_real_mnist
def test_to_vectors_real_test_set():
    m = mnist_data.load_mnist(SHARED_DIR)
    x = mnist_data.to_vectors(m.test_images)
    assert x.shape == (10000, 784) and x.dtype == np.float32
    assert 0.0 <= x.min() and x.max() <= 1.0
