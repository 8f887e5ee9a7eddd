"""把 MNIST 手写数字数据集读成 NumPy 数组。

用法：

    from mnist_data import load_mnist, to_vectors
    mnist = load_mnist()
    x_train = to_vectors(mnist.train_images)   # float32 (60000, 784)，取值在 [0, 1]
    y_train = mnist.train_labels                # uint8 (60000,)

数据文件从哪里来（按顺序，找到即止）：

1. ``load_mnist(data_dir=...)`` 或环境变量 ``MNIST_DIR``：
   你提供的一个文件夹，里面有四个 ``.gz`` 文件。
2. 下载缓存（``cache_dir=...``，否则为 ``$MNIST_CACHE_DIR``，再否则为
   ``~/.cache/dl-notes/mnist``），第一次使用时从镜像站下载。

每个文件都会被检查（gzip 完整性、IDX 文件头、大小、标签范围），
下载的文件还必须与官方的 SHA-256 校验和一致。出错时，错误信息用本版本的语言说明问题所在
（这些消息在 ``nn_messages`` 中声明）。
"""

import gzip
import hashlib
import http.client
import os
import struct
import tempfile
import urllib.request
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nn_messages as say
import numpy as np
from nn_messages import Text

__all__ = [
    "DEFAULT_MIRRORS",
    "FILES",
    "MNIST_CACHE_ENV",
    "MNIST_DIR_ENV",
    "OFFICIAL_SHA256",
    "Mnist",
    "MnistDataError",
    "load_mnist",
    "to_vectors",
]

MNIST_DIR_ENV = "MNIST_DIR"
MNIST_CACHE_ENV = "MNIST_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("~") / ".cache" / "dl-notes" / "mnist"
DEFAULT_MIRRORS: tuple[str, ...] = (
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
)
DOWNLOAD_TIMEOUT = 30.0  # seconds, per connection attempt / read

FILES: dict[str, str] = {
    "train_images": "train-images-idx3-ubyte.gz",
    "train_labels": "train-labels-idx1-ubyte.gz",
    "test_images": "t10k-images-idx3-ubyte.gz",
    "test_labels": "t10k-labels-idx1-ubyte.gz",
}
OFFICIAL_SHA256: dict[str, str] = {
    "train-images-idx3-ubyte.gz": "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
    "train-labels-idx1-ubyte.gz": "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
    "t10k-images-idx3-ubyte.gz": "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
    "t10k-labels-idx1-ubyte.gz": "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
}
# Number of examples per split (tests may shrink these to use tiny files).
EXPECTED_COUNTS: dict[str, int] = {"train": 60000, "test": 10000}

IMAGE_MAGIC = 2051  # 0x00000803: unsigned bytes, 3 dimensions
LABEL_MAGIC = 2049  # 0x00000801: unsigned bytes, 1 dimension
IMAGE_SIZE = 28
NUM_CLASSES = 10


class MnistDataError(ValueError):
    """MNIST 文件缺失、损坏或无法下载：``lines`` 中的每一项是一条消息（一个 ``Text``；
    或者嵌套错误的各行；或者原样的文字，例如反序列化之后）。``str()`` 是英文；
    笔记本中用本版本的语言显示它，不显示调用栈。"""

    def __init__(self, *lines: Any) -> None:
        self.lines: list[Text | str] = [
            part for line in lines for part in (line.lines if isinstance(line, MnistDataError) else [line])
        ]
        super().__init__(self.render("en"))

    def render(self, language: str) -> str:
        return "\n".join(say.render(line, language) for line in self.lines)

    def _render_traceback_(self) -> list[str]:
        from nn_i18n import LANGUAGE

        return [f"\x1b[1;31m{type(self).__name__}\x1b[0m: {self.render(LANGUAGE)}"]


@dataclass(frozen=True, eq=False)
class Mnist:
    """MNIST 的四个数组，以及读取它们的位置。"""

    train_images: np.ndarray  # uint8 (60000, 28, 28)
    train_labels: np.ndarray  # uint8 (60000,)
    test_images: np.ndarray  # uint8 (10000, 28, 28)
    test_labels: np.ndarray  # uint8 (10000,)
    source: Path  # directory the files were read from
    official_bytes: dict[str, bool]  # filename -> SHA-256 equals the official sum

    def __repr__(self) -> str:
        shapes = ", ".join(f"{role}={getattr(self, role).dtype}{getattr(self, role).shape}" for role in FILES)
        return f"Mnist({shapes}, source={str(self.source)!r})"


# ----------------------------------------------------------------------------
# Reading and validating one IDX file
# ----------------------------------------------------------------------------


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise MnistDataError(say.MNIST_UNREADABLE(path=path, error=e)) from None


def _parse_idx(raw: bytes, path: Path, expected_magic: int, expected_count: int | None) -> np.ndarray:
    """Decompress and validate gzip'ed IDX bytes; ``path`` is only used in messages."""
    try:
        data = gzip.decompress(raw)
    except EOFError as e:
        raise MnistDataError(say.MNIST_TRUNCATED(path=path, error=e)) from None
    except (OSError, zlib.error) as e:  # gzip.BadGzipFile is an OSError
        raise MnistDataError(say.MNIST_NOT_GZIP(path=path, error=e)) from None

    if len(data) < 4:
        raise MnistDataError(say.MNIST_NO_HEADER(path=path, size=len(data)))
    (magic,) = struct.unpack(">I", data[:4])
    if magic != expected_magic:
        kinds = {IMAGE_MAGIC: say.MNIST_IMAGES, LABEL_MAGIC: say.MNIST_LABELS}
        if magic in kinds:
            raise MnistDataError(
                say.MNIST_SWAPPED_MAGIC(path=path, magic=magic, kind=kinds[magic], expected=expected_magic)
            )
        raise MnistDataError(say.MNIST_WRONG_MAGIC(path=path, magic=magic, expected=expected_magic))
    if (magic >> 8) != 0x08:  # type code 0x08 = unsigned byte
        raise MnistDataError(say.MNIST_DATA_TYPE(path=path, code=f"{magic >> 8:#04x}"))

    ndim = magic & 0xFF
    header_len = 4 + 4 * ndim
    if len(data) < header_len:
        raise MnistDataError(say.MNIST_NO_HEADER(path=path, size=len(data)))
    dims = struct.unpack(f">{ndim}I", data[4:header_len])

    if magic == IMAGE_MAGIC and dims[1:] != (IMAGE_SIZE, IMAGE_SIZE):
        raise MnistDataError(say.MNIST_IMAGE_SIZE(path=path, rows=dims[1], cols=dims[2], size=IMAGE_SIZE))
    if expected_count is not None and dims[0] != expected_count:
        raise MnistDataError(say.MNIST_ITEMS(path=path, count=dims[0], expected=expected_count))

    expected_len = int(np.prod(dims, dtype=np.int64))
    payload_len = len(data) - header_len
    if payload_len < expected_len:
        raise MnistDataError(say.MNIST_SHORT_DATA(path=path, expected=expected_len, actual=payload_len))
    if payload_len > expected_len:
        raise MnistDataError(say.MNIST_TRAILING(path=path, extra=payload_len - expected_len, expected=expected_len))

    array = np.frombuffer(data, dtype=np.uint8, offset=header_len).reshape(dims).copy()
    if magic == LABEL_MAGIC and array.size and array.max() >= NUM_CLASSES:
        bad = int(np.argmax(array >= NUM_CLASSES))
        raise MnistDataError(say.MNIST_BAD_LABEL(path=path, label=array[bad], index=bad, last=NUM_CLASSES - 1))
    return array


def _sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _build(raws: dict[str, bytes], source: Path, official: dict[str, bool]) -> Mnist:
    """Parse the four files (filename -> gzip bytes) and check they fit together."""
    arrays: dict[str, np.ndarray] = {}
    for split in ("train", "test"):
        images_name, labels_name = FILES[f"{split}_images"], FILES[f"{split}_labels"]
        images = _parse_idx(raws[images_name], source / images_name, IMAGE_MAGIC, None)
        labels = _parse_idx(raws[labels_name], source / labels_name, LABEL_MAGIC, None)
        if len(images) != len(labels):
            raise MnistDataError(
                say.MNIST_MISMATCH(
                    images_path=source / images_name,
                    images=len(images),
                    labels_path=source / labels_name,
                    labels=len(labels),
                )
            )
        expected = EXPECTED_COUNTS[split]
        if len(images) != expected:
            raise MnistDataError(
                say.MNIST_SPLIT_SIZE(
                    images_path=source / images_name,
                    labels_path=source / labels_name,
                    count=len(images),
                    expected=expected,
                    split=say.MNIST_TRAIN_SPLIT if split == "train" else say.MNIST_TEST_SPLIT,
                )
            )
        arrays[f"{split}_images"], arrays[f"{split}_labels"] = images, labels
    return Mnist(**arrays, source=source, official_bytes=official)


# ----------------------------------------------------------------------------
# Source 1: a directory chosen by the user
# ----------------------------------------------------------------------------


def _load_user_dir(directory: Path, origin: str, strict_checksums: bool) -> Mnist:
    names = list(FILES.values())
    if origin == "argument":
        where = say.MNIST_DIR_ARGUMENT(directory=directory)
        advice = say.MNIST_ADVICE_ARGUMENT(names=names)
    elif origin != "env":  # the caller's own words for where the directory came from
        where = say.MNIST_DIR_GIVEN(directory=directory, origin=origin)
        advice = say.MNIST_ADVICE_GIVEN(names=names)
    else:
        where = say.MNIST_DIR_ENV(directory=directory, env=MNIST_DIR_ENV)
        advice = say.MNIST_ADVICE_ENV(names=names, env=MNIST_DIR_ENV)

    if not directory.is_dir():
        state = say.MNIST_NOT_A_DIRECTORY if directory.exists() else say.MNIST_NO_DIRECTORY
        raise MnistDataError(state(where=where), advice)

    missing = [name for name in FILES.values() if not (directory / name).is_file()]
    if missing:
        lines = []
        for name in missing:
            unzipped = directory / name.removesuffix(".gz")
            found = unzipped.is_file()
            lines.append(
                say.MNIST_MISSING_UNZIPPED(name=name, unzipped=unzipped.name)
                if found
                else say.MNIST_MISSING_FILE(name=name)
            )
        raise MnistDataError(say.MNIST_LACKS(where=where, count=len(missing)), *lines, advice)

    try:
        raws = {name: _read_bytes(directory / name) for name in FILES.values()}
        official = {name: _sha256(raw) == OFFICIAL_SHA256[name] for name, raw in raws.items()}
        mnist = _build(raws, directory, official)
    except MnistDataError as e:
        raise MnistDataError(say.MNIST_CANNOT_LOAD_FROM(where=where), e, advice) from None

    if strict_checksums:
        for name, ok in official.items():
            if not ok:
                raise MnistDataError(
                    say.MNIST_NOT_OFFICIAL(
                        path=directory / name, expected=OFFICIAL_SHA256[name], actual=_sha256(raws[name]), where=where
                    )
                )
    return mnist


# ----------------------------------------------------------------------------
# Source 2: the download cache
# ----------------------------------------------------------------------------


class _ChecksumMismatch(Exception):
    """A downloaded file did not have the official SHA-256 sum (``text`` says so)."""

    def __init__(self, text: Text) -> None:
        super().__init__(say.render(text, "en"))
        self.text = text


def _download_one(url: str, target: Path, expected_sha: str) -> None:
    """Download ``url`` to a temp file next to ``target``; move it there only if the sum matches."""
    tmp = tempfile.NamedTemporaryFile(delete=False, dir=target.parent, prefix=target.name + ".", suffix=".part")
    tmp_path = Path(tmp.name)
    try:
        digest = hashlib.sha256()
        with tmp, urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response:
            while chunk := response.read(1 << 16):
                digest.update(chunk)
                tmp.write(chunk)
        actual = digest.hexdigest()
        if actual != expected_sha:
            raise _ChecksumMismatch(say.MNIST_CHECKSUM(expected=expected_sha, actual=actual))
        os.replace(tmp_path, target)
    except BaseException:  # also on Ctrl-C: never leave a half-written file behind
        tmp.close()
        tmp_path.unlink(missing_ok=True)
        raise


def _download(name: str, cache_dir: Path, mirrors: Sequence[str]) -> None:
    """Fetch ``name`` into ``cache_dir`` from the first mirror that delivers the official bytes."""
    errors = []
    for mirror in mirrors:
        url = mirror.rstrip("/") + "/" + name
        try:
            _download_one(url, cache_dir / name, OFFICIAL_SHA256[name])
            return
        except (OSError, ValueError, http.client.HTTPException, _ChecksumMismatch) as e:
            errors.append(say.MNIST_MIRROR_FAILED(url=url, error=e.text if isinstance(e, _ChecksumMismatch) else e))
    raise MnistDataError(
        say.MNIST_DOWNLOAD_FAILED(name=name, cache_dir=cache_dir),
        *(errors or [say.MNIST_NO_MIRRORS]),
        say.MNIST_OFFLINE_ADVICE(names=list(FILES.values()), env=MNIST_DIR_ENV),
    )


def _load_cache(cache_dir: Path, download: bool, mirrors: Sequence[str]) -> Mnist:
    raws: dict[str, bytes] = {}
    missing: list[str] = []
    rejected: list[str] = []
    for name in FILES.values():
        path = cache_dir / name
        if not path.is_file():
            missing.append(name)
            continue
        raw = _read_bytes(path)
        if _sha256(raw) == OFFICIAL_SHA256[name]:
            raws[name] = raw
            continue
        # The cache only ever receives verified files, so this one got damaged.
        try:
            path.unlink()
        except OSError as e:
            raise MnistDataError(say.MNIST_CACHE_DAMAGED(path=path, error=e)) from None
        missing.append(name)
        rejected.append(name)

    if missing and not download:
        missing_files = (
            say.MNIST_CACHE_MISSING_REJECTED(cache_dir=cache_dir, rejected=rejected, names=missing)
            if rejected
            else say.MNIST_CACHE_MISSING(cache_dir=cache_dir, names=missing)
        )
        raise MnistDataError(missing_files, say.MNIST_DOWNLOAD_OFF(env=MNIST_DIR_ENV))
    if missing:
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise MnistDataError(
                say.MNIST_CACHE_UNWRITABLE(cache_dir=cache_dir, error=e),
                say.MNIST_CACHE_ADVICE(cache_env=MNIST_CACHE_ENV, env=MNIST_DIR_ENV),
            ) from None
        if isinstance(mirrors, str):  # a single URL instead of a sequence of them
            mirrors = (mirrors,)
        for name in missing:
            _download(name, cache_dir, mirrors)
            raws[name] = _read_bytes(cache_dir / name)

    return _build(raws, cache_dir, {name: True for name in FILES.values()})


# ----------------------------------------------------------------------------
# Public entry points
# ----------------------------------------------------------------------------


def load_mnist(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    download: bool = True,
    mirrors: Sequence[str] = DEFAULT_MIRRORS,
    strict_checksums: bool = False,
    given_as: str = "",
) -> Mnist:
    """加载 MNIST：如果设置了 ``data_dir`` 或 ``$MNIST_DIR``，就从那个目录读取，否则从下载缓存读取（必要时下载到缓存中）。

    你指定的目录按原样使用：除非 ``strict_checksums=True``，它的校验和只记录在
    ``Mnist.official_bytes`` 中。缓存中的文件和下载的文件必须与官方的 SHA-256 校验和一致。
    无法加载数据时抛出 MnistDataError，并说明原因；
    ``given_as`` 说明 ``data_dir`` 是怎样给出的，默认是作为参数 data_dir 给出。
    """
    if data_dir is not None and os.fspath(data_dir) != "":
        return _load_user_dir(Path(data_dir).expanduser(), given_as or "argument", strict_checksums)
    env_dir = os.environ.get(MNIST_DIR_ENV, "")
    if env_dir:
        return _load_user_dir(Path(env_dir).expanduser(), "env", strict_checksums)

    if cache_dir is None or os.fspath(cache_dir) == "":
        cache_dir = os.environ.get(MNIST_CACHE_ENV, "") or DEFAULT_CACHE_DIR
    return _load_cache(Path(cache_dir).expanduser(), download, mirrors)


def to_vectors(images: np.ndarray) -> np.ndarray:
    """把 uint8 (N,28,28) 的图像变成 float32 (N,784) 的向量，缩放到 [0,1]（除以 255）。"""
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[1:] != (IMAGE_SIZE, IMAGE_SIZE):
        raise ValueError(f"expected images of shape (N, {IMAGE_SIZE}, {IMAGE_SIZE}), got {images.shape}")
    if images.dtype != np.uint8:
        raise ValueError(f"expected uint8 pixels 0..255, got {images.dtype} (already converted?)")
    vectors = images.reshape(len(images), IMAGE_SIZE * IMAGE_SIZE).astype(np.float32)
    vectors /= np.float32(255)
    return vectors
