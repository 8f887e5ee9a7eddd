"""Trusted side: reading what a sandboxed worker reported, checked before anything in it is decoded.

A worker's report comes from the process that runs the student's code, so every byte of it is hostile input to the
grader's unsandboxed process: a JSON nested a million deep, an .npz whose 2 MB hold a 2 GiB array, an array of
pickled objects, a frame that never ends. ``read_report`` reads the worker's standard output as frames within caps;
``decode_record`` reads one check's record (the two payloads of its ``result`` frame) as plain data or raises
``RecordRefused`` saying why; it never unpickles and never decompresses more than the caps below allow. The grader
reads no file the worker wrote.

The record format (written by ``autograder.probe.core.encode``; this module does not import the probe package, which
runs beside student code):

- its JSON: a tree of JSON values, where ``{"array": KEY}`` stands for an ndarray and ``{"dict": {...}}`` for
  a dict (its keys are strings); lists, strings, numbers (NaN and Infinity included), booleans and null are
  themselves. No other object appears. Every string of the tree, keys too, is read through
  ``autograder.student_text.student_text`` (one line, capped, no control characters): whatever the worker wrote.
- its .npz: a zip (stored or deflated) of one ``KEY.npy`` member per array (``numpy.lib.format``, version
  1.0 or 2.0), each referenced exactly once by the tree.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy

from autograder.student_text import student_text

MiB = 1 << 20


@dataclass(frozen=True)
class Caps:
    """How much of a record the grader reads. The largest correct record is the MNIST gate's: four arrays of at
    most 784x256 float64 (1.6 MB) and a few small ones, about 1.7 MB in all, with a JSON tree of about 2 kB."""

    json_bytes: int = 1 * MiB
    depth: int = 32  # nesting of JSON arrays and objects; a correct record nests about 8 deep
    array_bytes: int = 16 * MiB  # the data of one array
    record_bytes: int = 32 * MiB  # the data of all arrays of one record
    members: int = 1024  # arrays in one record (a correct one holds at most about 30)
    header_bytes: int = 4096  # one .npy header (numpy writes about 128)

    @property
    def npz_bytes(self) -> int:
        """The largest .npz file: the arrays' data, plus headers and the zip's own entries."""
        return self.record_bytes + self.members * (self.header_bytes + 512)


CAPS = Caps()
PLAIN_KINDS = "biufc"  # bool, signed and unsigned integers, floating, complex: no objects, strings or records
MEMBER = re.compile(r"([A-Za-z0-9_]{1,64})\.npy")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class RecordRefused(Exception):
    """A worker's record the grader will not read; ``reason`` says why, for people."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = str(path), reason


def decode_record(json_data: bytes, npz_data: bytes, stem: Path, caps: Caps = CAPS) -> Any:
    """A record given as the bytes of its JSON and its .npz (``stem`` names it in refusals) as plain data (dicts,
    lists, str, numbers, bools, None, ndarrays); raises ``RecordRefused`` for anything but the format above within
    ``caps``."""
    tree = parse_json(json_data, stem.with_suffix(".json"), caps)
    npz = stem.with_suffix(".npz")
    if len(npz_data) > caps.npz_bytes:
        raise RecordRefused(npz, f"holds {len(npz_data):,} bytes, more than {caps.npz_bytes:,}")
    arrays = read_npz(npz_data, npz, caps)
    used: set[str] = set()

    def decode(value: Any) -> Any:
        if isinstance(value, dict):
            if "array" in value:
                key = value["array"]
                if key not in arrays:
                    raise RecordRefused(npz, f"the record names an array {key!r} that is not in it")
                if key in used:
                    raise RecordRefused(npz, f"the record names the array {key!r} more than once")
                used.add(key)
                return arrays[key]
            return {student_text(k): decode(v) for k, v in value["dict"].items()}
        if isinstance(value, list):
            return [decode(v) for v in value]
        if isinstance(value, str):  # student code may have written it: short, one line, no escape sequences
            return student_text(value)
        return value

    data = decode(tree)
    if set(arrays) - used:
        raise RecordRefused(npz, f"arrays the record does not name: {sorted(set(arrays) - used)[:5]}")
    return data


def parse_json(data: bytes, path: Path, caps: Caps = CAPS) -> Any:
    """The JSON tree in ``data``, refused if over the caps or not in the record format."""
    if len(data) > caps.json_bytes:
        raise RecordRefused(path, f"holds {len(data):,} bytes of JSON, more than {caps.json_bytes:,}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordRefused(path, f"is not UTF-8 text ({error.reason} at byte {error.start})") from None
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > caps.depth:
            raise RecordRefused(path, f"nests deeper than {caps.depth} levels")
    try:
        tree = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordRefused(path, f"is not valid JSON ({str(error)[:200]})") from None
    _check_tree(tree, path)
    return tree


def _check_tree(value: Any, path: Path) -> None:
    if isinstance(value, list):
        for item in value:
            _check_tree(item, path)
    elif isinstance(value, dict):
        if len(value) != 1:
            raise RecordRefused(path, f"holds an object with keys {sorted(value)[:5]}, not one 'array' or 'dict'")
        if "array" in value:
            if not isinstance(value["array"], str) or not MEMBER.fullmatch(f"{value['array']}.npy"):
                raise RecordRefused(path, f"names an array by {str(value['array'])[:80]!r}, not a plain key")
        elif "dict" in value and isinstance(value["dict"], dict):
            for item in value["dict"].values():
                _check_tree(item, path)
        else:
            raise RecordRefused(path, f"holds an object with the key {next(iter(value))[:80]!r}")
    elif value is not None and not isinstance(value, (str, int, float, bool)):
        raise RecordRefused(path, f"holds a {type(value).__name__}")


def read_npz(data: bytes, path: Path, caps: Caps = CAPS) -> dict[str, np.ndarray]:
    """Every array of the .npz in ``data``; each member's name, declared size and .npy header are checked before
    any of its data is decompressed."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError, NotImplementedError) as error:
        raise RecordRefused(path, f"is not a zip archive ({error})") from None
    with archive:
        members = archive.infolist()
        if len(members) > caps.members:
            raise RecordRefused(path, f"holds {len(members):,} arrays, more than {caps.members:,}")
        checked, total = {}, 0
        for member in members:
            key, shape, dtype = _check_member(archive, member, path, caps)
            if key in checked:
                raise RecordRefused(path, f"holds the array {key!r} twice")
            total += math.prod(shape) * dtype.itemsize
            if total > caps.record_bytes:
                raise RecordRefused(path, f"holds more than {caps.record_bytes:,} bytes of array data")
            checked[key] = (member, shape, dtype)
        return {key: _read_member(archive, *found, path, caps) for key, found in checked.items()}


def _check_member(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, path: Path, caps: Caps
) -> tuple[str, tuple[int, ...], np.dtype]:
    """(key, shape, dtype) of one member, from the zip's directory and the .npy header alone."""
    name = MEMBER.fullmatch(member.filename)
    if name is None:
        raise RecordRefused(path, f"holds a member named {member.filename[:80]!r}, not KEY.npy")
    where = f"{member.filename}"
    if member.flag_bits & 0x1:
        raise RecordRefused(path, f"{where} is encrypted")
    if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise RecordRefused(path, f"{where} is compressed with method {member.compress_type}, not stored or deflated")
    if member.file_size > caps.array_bytes + caps.header_bytes:
        raise RecordRefused(
            path, f"{where} declares {member.file_size:,} bytes, more than an array may hold ({caps.array_bytes:,})"
        )
    try:
        with archive.open(member) as stream:
            head = io.BytesIO(stream.read(min(member.file_size, 10 + caps.header_bytes)))
        version = npy.read_magic(head)
        if version == (1, 0):
            shape, _, dtype = npy.read_array_header_1_0(head, max_header_size=caps.header_bytes)
        elif version == (2, 0):
            shape, _, dtype = npy.read_array_header_2_0(head, max_header_size=caps.header_bytes)
        else:
            raise RecordRefused(path, f"{where} is .npy version {version[0]}.{version[1]}, not 1.0 or 2.0")
    except RecordRefused:
        raise
    except Exception as error:  # noqa: BLE001 - a forged header can fail numpy's parser or zipfile in many ways
        raise RecordRefused(path, f"{where} has no valid .npy header ({type(error).__name__}: {error})") from None
    if dtype.kind not in PLAIN_KINDS or dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise RecordRefused(path, f"{where} holds {dtype}, not plain numbers or booleans")
    size = math.prod(shape) * dtype.itemsize
    if size > caps.array_bytes:
        raise RecordRefused(path, f"{where} holds an array of {size:,} bytes, more than {caps.array_bytes:,}")
    if size != member.file_size - head.tell():
        raise RecordRefused(
            path,
            f"{where}: its header says {size:,} bytes of data ({dtype}, shape {shape}), the zip says "
            f"{member.file_size - head.tell():,}",
        )
    return name.group(1), shape, dtype


def _read_member(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, shape: tuple[int, ...], dtype: np.dtype, path: Path, caps: Caps
) -> np.ndarray:
    """The member's array, read with ``allow_pickle=False``, refused unless it is exactly what its header said."""
    try:
        with archive.open(member) as stream:
            array = npy.read_array(stream, allow_pickle=False, max_header_size=caps.header_bytes)
            extra = stream.read(1)
    except Exception as error:  # noqa: BLE001 - truncated data, a wrong CRC, a stream that lies about its size
        raise RecordRefused(path, f"{member.filename} could not be read ({type(error).__name__}: {error})") from None
    if extra or array.shape != shape or array.dtype != dtype:
        raise RecordRefused(path, f"{member.filename} is not what its header says")
    return array


# ---------------------------------------------------------------- a worker's report on its standard output


@dataclass
class WorkerReport:
    """What a worker said (``autograder/probe/run.py`` writes it): that it started, the answer cell it was loading,
    the checks it began, and each check's record as the bytes of its two files."""

    started: bool = False
    loading: str = ""
    begun: list[str] = field(default_factory=list)
    results: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    spoiled: str = ""  # why reading stopped before the end: the stream broke the format
    progress: int = 0  # the last training step the gate's worker said it reached (its word only: never a verdict)
    aside: bool = False  # it last said the student's code runs aside, only to help a diagnosis (its word only)


FRAME_PAYLOADS = {"loading": 0, "begin": 0, "progress": 0, "aside": 0, "result": 2}
"""A frame is a JSON header line ``{"kind": K, "name": N, "sizes": [...]}`` then that many payloads of those sizes
(a result's .json and .npz bytes)."""
HEADER_BYTES = 512
NAME = re.compile(r"[a-z0-9_]{1,64}")


def read_report(
    stream: Any, started: bytes, caps: Caps = CAPS, total_bytes: int = 256 * MiB, report: WorkerReport | None = None
) -> WorkerReport:
    """Read a worker's report from ``stream`` (a binary pipe) until it ends, or until it breaks the format or the caps
    (``spoiled``); never more than ``total_bytes`` in all. A frame cut short by the worker's end is not an error: the
    check it belonged to was running. ``report``, if given, is filled as frames arrive (a watcher reads it live)."""
    report = WorkerReport() if report is None else report
    report.started = stream.readline(len(started) + 1) == started + b"\n"
    if not report.started:
        return report
    left = total_bytes
    while True:
        line = stream.readline(HEADER_BYTES)
        if not line:
            return report
        if not line.endswith(b"\n"):
            if len(line) < HEADER_BYTES:
                return report  # cut short by the worker's end
            report.spoiled = f"a line of more than {HEADER_BYTES} bytes"
            return report
        frame = _frame(line, caps)
        if frame is None:
            report.spoiled = f"a line that is not one of its frames: {line[:60]!r}"
            return report
        kind, name, sizes = frame
        left -= sum(sizes)
        if left < 0:
            report.spoiled = f"more than {total_bytes:,} bytes in all"
            return report
        payloads = [stream.read(n) for n in sizes]
        if any(len(p) != n for p, n in zip(payloads, sizes, strict=True)):
            return report  # cut short by the worker's end
        if kind == "loading":
            report.loading = name
        elif kind == "begin":
            report.begun.append(name)
            report.aside = False
        elif kind == "aside":
            report.aside = name == "begin"
        elif kind == "progress":
            report.progress = int(name) if name.isdigit() else report.progress
        elif name in report.results:
            report.spoiled = f"a second result for {name}"
            return report
        else:
            report.results[name] = (payloads[0], payloads[1])


def _frame(line: bytes, caps: Caps) -> tuple[str, str, list[int]] | None:
    """A frame's header (kind, name, payload sizes), or None if the line is not one."""
    try:
        header = json.loads(line)
    except ValueError:
        return None
    if not isinstance(header, dict) or set(header) != {"kind", "name", "sizes"}:
        return None
    kind, name, sizes = header["kind"], header["name"], header["sizes"]
    if kind not in FRAME_PAYLOADS or not isinstance(name, str) or not NAME.fullmatch(name):
        return None
    if not isinstance(sizes, list) or len(sizes) != FRAME_PAYLOADS[kind]:
        return None
    if not all(type(n) is int and n >= 0 for n in sizes):
        return None
    if sizes and (sizes[0] > caps.json_bytes or sizes[1] > caps.npz_bytes):
        return None
    return kind, name, sizes
