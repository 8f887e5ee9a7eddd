"""What a worker hands back is checked before the grader reads it (``autograder.judge.records.decode_record``, on the
two payloads of a worker's ``result`` frame, as grading reads them): no pickle, no array larger than declared, no zip
bomb decompressed. The records are built as files (``probe.core.save``) only to forge them byte by byte. Fast tier."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.lib import format as npy

from autograder.judge.records import CAPS, RecordRefused, decode_record
from autograder.probe.core import load, save
from autograder.student_text import student_text

REPO = Path(__file__).resolve().parents[1]
GIB = 1 << 30
PICKLED = b"\x80\x04\x95\t\x00\x00\x00\x00\x00\x00\x00]\x94(K\x01K\x02e."  # a pickle of [1, 2], written out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, True)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)  # NaN


def read_result(stem: Path) -> Any:
    """The record ``stem``.json + ``stem``.npz, read as grading reads a worker's result frame (its two payloads)."""
    return decode_record(stem.with_suffix(".json").read_bytes(), stem.with_suffix(".npz").read_bytes(), stem)


def _refused(stem: Path, *words: str) -> str:
    with pytest.raises(RecordRefused) as refused:
        read_result(stem)
    for word in words:
        assert word in refused.value.reason, refused.value.reason
    return refused.value.reason


def _npy(array_header: dict[str, Any], data: bytes = b"") -> bytes:
    out = io.BytesIO()
    npy.write_array_header_1_0(out, array_header)
    return out.getvalue() + data


def _record(folder: Path, members: dict[str, bytes], tree: Any = None, name: str = "check") -> Path:
    """A record whose .npz holds exactly ``members`` (name -> bytes) and whose JSON is ``tree``."""
    stem = folder / name
    with zipfile_writer(stem.with_suffix(".npz")) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    if tree is None:
        tree = [{"array": member.removesuffix(".npy")} for member in members]
    stem.with_suffix(".json").write_text(json.dumps(tree))
    return stem


def zipfile_writer(path: Path) -> Any:
    import zipfile

    return zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)


def zip_bomb(stem: Path, gib: int = 2, crc: bool = True) -> Path:
    """``stem``.npz holding one array of ``gib`` GiB of zeros, deflated to about ``gib`` MB, and its JSON.

    Written by hand in seconds: one 1 MiB block of zeros compressed once, repeated (each block is flushed, so it
    refers to nothing before it), then the final empty block. ``crc=False`` leaves the CRC 0 (quicker)."""
    size = gib * GIB
    shape = ((size - len(_npy({"descr": "<f8", "fortran_order": False, "shape": (size // 8,)}))) // 8,)
    header = _npy({"descr": "<f8", "fortran_order": False, "shape": shape})
    block = bytes(1 << 20)
    first = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = first.compress(header + block[len(header) :]) + first.flush(zlib.Z_FULL_FLUSH)
    again = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = again.compress(block) + again.flush(zlib.Z_FULL_FLUSH)
    blocks = size >> 20
    tail = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    checksum = 0
    if crc:
        checksum = zlib.crc32(block[len(header) :], zlib.crc32(header))
        for _ in range(blocks - 1):
            checksum = zlib.crc32(block, checksum)
    compressed = head + body * (blocks - 1) + tail
    name = b"a0.npy"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, checksum, len(compressed), size, len(name), 0)
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50,
        20,
        20,
        0,
        8,
        0,
        0x21,
        checksum,
        len(compressed),
        size,
        len(name),
        0,
        0,
        0,
        0,
        0,
        0,
    )
    offset = len(local) + len(name) + len(compressed)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central) + len(name), offset, 0)
    stem.with_suffix(".npz").write_bytes(local + name + compressed + central + name + end)
    stem.with_suffix(".json").write_text(json.dumps({"dict": {"logits": {"array": "a0"}}}))
    return stem


def test_what_the_probes_save_reads_back_as_the_probes_own_loader_reads_it(tmp_path: Path) -> None:
    data = {
        "records": [
            {
                "out": np.arange(12, dtype=np.float32).reshape(3, 4),
                "fortran": np.asfortranarray(np.ones((3, 2))),
                "bools": np.array([True, False]),
                "ints": np.array([-1, 2], dtype=np.int64),
                "bytes": np.array([1, 255], dtype=np.uint8),
                "complex": np.array([1 + 2j]),
                "scalar": np.array(3.5),
                "empty": np.zeros((0, 5)),
                "big_endian": np.array([1.0, 2.0], dtype=">f8"),
                "nan": float("nan"),
                "inf": float("inf"),
                "none": None,
                "text": 'a "quoted" [bracket] {brace}',
                "raised": {"raised": "ValueError", "kinds": ["ValueError", "Exception"], "message": "no", "line": 3},
                "list": [1, 2.5, True, [np.zeros(2), {"x": np.ones(1)}]],
            }
        ]
    }
    save(tmp_path / "check", data)
    assert _same(read_result(tmp_path / "check"), load(tmp_path / "check"))
    assert _same(read_result(tmp_path / "check"), data)


def test_the_largest_correct_record_is_well_within_the_caps(tmp_path: Path) -> None:
    trained = [np.ones((784, 256)), np.ones(256), np.ones((256, 10)), np.ones(10)]
    save(tmp_path / "mnist_accuracy", {"records": [{"logits": np.ones((100, 10)), "trained": trained}]})
    assert sum(a.nbytes for a in trained) * 10 < CAPS.record_bytes
    assert _same(read_result(tmp_path / "mnist_accuracy")["records"][0]["trained"], trained)


def test_json_over_its_size_or_nesting_caps_is_refused(tmp_path: Path) -> None:
    save(tmp_path / "check", {})
    (tmp_path / "check.json").write_text(json.dumps({"dict": {"x": "y" * CAPS.json_bytes}}))
    _refused(tmp_path / "check", "bytes of JSON, more than")
    (tmp_path / "check.json").write_text("[" * 100_000 + "]" * 100_000)
    _refused(tmp_path / "check", "nests deeper")
    (tmp_path / "check.json").write_text(json.dumps(["[[[[" * 1000, {"dict": {"]]": "{{{{" * 1000}}]))
    # brackets in strings are text (and every string is read as student text: one line, capped)
    assert read_result(tmp_path / "check") == [student_text("[[[[" * 1000), {"]]": student_text("{{{{" * 1000)}]
    for tree, reason in (
        ({"opaque": "x", "text": "y"}, "not one 'array' or 'dict'"),
        ({"pickle": "x"}, "key 'pickle'"),
        ({"array": "../../etc/passwd"}, "not a plain key"),
        ({"dict": [1]}, "key 'dict'"),
    ):
        (tmp_path / "check.json").write_text(json.dumps(tree))
        _refused(tmp_path / "check", reason)
    (tmp_path / "check.json").write_bytes(b'"\xff"')
    _refused(tmp_path / "check", "not UTF-8")
    (tmp_path / "check.json").write_text("1" * 5000)
    _refused(tmp_path / "check", "not valid JSON")


def test_a_zip_bomb_is_refused_from_its_declared_size_before_anything_is_decompressed(tmp_path: Path) -> None:
    stem = zip_bomb(tmp_path / "mnist_accuracy", crc=False)
    assert stem.with_suffix(".npz").stat().st_size < 3 << 20
    _refused(stem, "declares 2,147,483,6", "more than an array may hold")


def test_a_header_that_lies_about_the_shape_is_refused(tmp_path: Path) -> None:
    header = {"descr": "<f8", "fortran_order": False, "shape": (1 << 28,)}
    _refused(_record(tmp_path, {"a0.npy": _npy(header, bytes(80))}), "more than")
    header["shape"] = (11,)
    _refused(_record(tmp_path, {"a0.npy": _npy(header, bytes(80))}), "header says 88 bytes", "the zip says 80")
    header["shape"] = (9,)
    _refused(_record(tmp_path, {"a0.npy": _npy(header, bytes(80))}), "header says 72 bytes")


def test_objects_pickles_strings_and_records_are_refused(tmp_path: Path) -> None:
    save(tmp_path / "check", {"a": np.array([{"x": 1}], dtype=object)})  # np.savez pickles object arrays
    _refused(tmp_path / "check", "holds object")
    _refused(_record(tmp_path, {"a0.npy": PICKLED}), "no valid .npy header")
    for dtype in ("<U3", "|S2", [("x", "<f8")], [("x", "<f8", (2,))], "<M8[s]", "<m8[s]", "V8"):
        buffer = io.BytesIO()
        np.save(buffer, np.zeros(2, dtype=dtype))
        _refused(_record(tmp_path, {"a0.npy": buffer.getvalue()}), "not plain numbers")


def test_members_and_references_must_match_one_to_one(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.ones(3))
    array = buffer.getvalue()
    _refused(_record(tmp_path, {"../a0.npy": array}, [{"array": "a0"}]), "not KEY.npy")
    _refused(_record(tmp_path, {"a0.npy": array}, [{"array": "a1"}]), "not in it")
    _refused(_record(tmp_path, {"a0.npy": array}, [{"array": "a0"}, {"array": "a0"}]), "more than once")
    _refused(_record(tmp_path, {"a0.npy": array, "a1.npy": array}, [{"array": "a0"}]), "does not name")
    _refused(_record(tmp_path, {f"a{i}.npy": array for i in range(CAPS.members + 1)}), "arrays, more than")


def test_a_damaged_record_is_refused_whatever_the_damage(tmp_path: Path) -> None:
    """Truncated and corrupted .npz files: always ``RecordRefused``, never another exception."""
    save(tmp_path / "good", {"a": np.arange(300.0), "b": [np.ones((4, 4), np.float32), 1]})
    good = (tmp_path / "good.npz").read_bytes()
    (tmp_path / "check.json").write_bytes((tmp_path / "good.json").read_bytes())
    rng = np.random.default_rng(0)
    damaged = [good[:n] for n in range(0, len(good), 37)]
    for _ in range(200):
        data = bytearray(good)
        data[rng.integers(len(data))] ^= 1 << int(rng.integers(8))
        damaged.append(bytes(data))
    for data in damaged:
        (tmp_path / "check.npz").write_bytes(data)
        try:
            read_result(tmp_path / "check")
        except RecordRefused:
            pass


PEAK = """
import resource, sys
sys.path.insert(0, {source!r})
from pathlib import Path
try:
    from {module} import {function} as read
    stem = Path({stem!r})
    payloads = (stem.with_suffix(".json").read_bytes(), stem.with_suffix(".npz").read_bytes(), stem)
    read(*payloads) if {payloads} else read(stem)
except Exception as error:
    print(type(error).__name__, str(error)[:200], file=sys.stderr)
status = open("/proc/self/status").read()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, int(status.split("VmHWM:")[1].split()[0]) // 1024)
"""


def peak_mib(stem: Path, module: str = "autograder.judge.records", function: str = "decode_record") -> int:
    """Peak resident memory (MiB) of a fresh interpreter that reads ``stem`` with ``module.function``.

    Its own peak (VmHWM, which starts again at exec): ``getrusage``'s ru_maxrss, also printed by ``__main__``
    below, keeps across exec the peak of the process that forked it, here the test run's."""
    code = PEAK.format(
        source=str(REPO / "source" / "mlp"),
        module=module,
        function=function,
        stem=str(stem),
        payloads=function == "decode_record",
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    return int(done.stdout.split()[-1])


def rusage_mib(stem: Path, module: str = "autograder.judge.records", function: str = "decode_record") -> int:
    """``resource.getrusage``'s peak (MiB) of the same reading (true when run from a small process)."""
    code = PEAK.format(
        source=str(REPO / "source" / "mlp"),
        module=module,
        function=function,
        stem=str(stem),
        payloads=function == "decode_record",
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    return int(done.stdout.split()[-2])


def test_reading_a_2_gib_zip_bomb_takes_no_more_memory_than_starting_python(tmp_path: Path) -> None:
    stem = zip_bomb(tmp_path / "mnist_accuracy")
    assert peak_mib(stem) < 150


if __name__ == "__main__":  # the memory figures, before (the probes' own loader) and after
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        stem = zip_bomb(Path(folder) / "mnist_accuracy")
        print(f"results files: {stem.with_suffix('.npz').stat().st_size:,} bytes (.npz)")
        empty = Path(folder) / "empty"
        save(empty, {})
        for what, args in (
            ("autograder.probe.core.load            ", (stem, "autograder.probe.core", "load")),
            ("autograder.judge.records.decode_record", (stem,)),
            ("an empty record, decode_record        ", (empty,)),
        ):
            print(f"{what}: peak {rusage_mib(*args)} MiB (getrusage), {peak_mib(*args)} MiB (VmHWM)")
