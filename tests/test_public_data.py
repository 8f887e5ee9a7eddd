"""The public checks' stored data (``source/mlp/nn_public_data.json``) is what the grader's reference computes.

The public checks compare with data, never with a function a student could call
(``tests/test_helpers_hold_no_answer.py``); that data is generated from one source, ``autograder/judge/public_data.py``:
here it is regenerated and compared, value by value, and the stored finite-difference gradients agree with the
reference's exact ones. The students' reader (``nn_public_data.py``) reads it back bit for bit, and says so, as a
failed check, when the file is not beside it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import nn_public_data
import numpy as np
import pytest

from autograder.cli import public_data as writer
from autograder.judge import public_data, reference
from nn_checks import worst_difference

GENERATED = public_data.data()
ULPS = writer.RTOL
"""Floats agree to a few units in the last place, not bit for bit: NumPy's vectorised exp and log round the last bit
differently on CPUs with and without AVX-512, so data written on one machine differs by an ulp on another. A stale
file differs far more (any change of an input or a mistake)."""


def _same(stored: Any, computed: Any, where: str) -> None:
    if isinstance(computed, dict):
        assert isinstance(stored, dict) and set(stored) == set(computed), where
        for key in computed:
            _same(stored[key], computed[key], f"{where}.{key}")
    elif isinstance(computed, (list, tuple)):
        assert len(stored) == len(computed), where
        for i, (s, c) in enumerate(zip(stored, computed, strict=True)):
            _same(s, c, f"{where}[{i}]")
    elif isinstance(computed, np.ndarray):
        assert isinstance(stored, np.ndarray) and stored.dtype == computed.dtype, where
        assert np.shape(stored) == np.shape(computed), where
        if np.issubdtype(computed.dtype, np.floating):
            assert np.allclose(stored, computed, rtol=ULPS, atol=0.0, equal_nan=True), where
        else:
            assert np.array_equal(stored, computed), where
    elif isinstance(computed, float):
        assert type(stored) is float and np.isclose(stored, computed, rtol=ULPS, atol=0.0, equal_nan=True), where
    else:
        assert stored == computed and type(stored) is type(computed), where


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_the_stored_data_is_what_the_generator_computes_from_the_reference(name: str) -> None:
    """Fails on a stale file: run ``python -m autograder regenerate``."""
    _same(getattr(nn_public_data, name), GENERATED[name], name)


def test_a_value_off_by_more_than_the_cpus_last_bits_is_stale() -> None:
    computed = GENERATED["LINEAR"]
    assert writer.agrees(nn_public_data.LINEAR, computed)
    nudged = {**computed, "example": {**computed["example"], "W": computed["example"]["W"] * (1 + 1e-9)}}
    assert not writer.agrees(nudged, computed)
    assert not writer.agrees({**computed, "example": {}}, computed)


def test_the_stored_gradients_are_the_reference_gradients() -> None:
    linear, relu, loss, mlp = (
        nn_public_data.LINEAR["fd"],
        nn_public_data.RELU["fd"],
        nn_public_data.CROSS_ENTROPY["fd"],
        nn_public_data.MLP,
    )
    pairs = [
        *zip(
            (linear["dx"], linear["dW"], linear["db"]),
            reference.linear_backward(linear["x"], linear["W"], linear["g"]),
            strict=True,
        ),
        (relu["dx"], reference.relu_backward(relu["h"], relu["g"])),
        (loss["dz"], reference.cross_entropy_grad(loss["z"], loss["y"])),
    ]
    exact = reference.mlp_backward(mlp["x"], mlp["W1"], mlp["b1"], mlp["W2"], mlp["b2"], mlp["g"])
    pairs += [(mlp["grads"][k], exact[k]) for k in exact]
    for stored, expected in pairs:
        assert worst_difference(stored, expected)[0] < 1e-7


def test_the_written_file_reads_back_bit_for_bit() -> None:
    read = writer.decoded(writer.text())
    assert list(read) == list(GENERATED)
    assert writer.agrees(read, GENERATED)
    pairs = [(read, GENERATED)]
    while pairs:  # every array has the computed dtype, shape and bits; every other value is the same, of the same type
        stored, computed = pairs.pop()
        assert type(stored) is (list if isinstance(computed, tuple) else type(computed))
        if isinstance(computed, dict):
            pairs += [(stored[k], computed[k]) for k in computed]
        elif isinstance(computed, (list, tuple)):
            pairs += list(zip(stored, computed, strict=True))
        elif isinstance(computed, np.ndarray):
            same = stored.dtype == computed.dtype and stored.shape == computed.shape
            assert same and stored.tobytes() == computed.tobytes()
            assert stored.flags.c_contiguous and stored.flags.owndata and stored.flags.writeable
        else:
            assert stored == computed


def test_the_written_file_names_only_dtypes_numpy_1_26_has() -> None:
    # np.bool was removed in NumPy 1.24 and came back in 2.0; students may run 1.26 (pyproject: numpy>=1.26).
    found: set[str] = set()
    json.loads(writer.text(), object_hook=lambda d: found.add(d.get("dtype", "")) or d)
    assert found - {""} == {"bool", "float32", "float64", "int64"}, found


@pytest.mark.parametrize("value", [np.array([1.0, np.nan]), float("inf"), {"dtype": 1, "shape": 2, "data": 3}, {1: 2}])
def test_the_writer_refuses_what_would_not_read_back(value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        public_data.text(value)


RELEASE = Path(__file__).resolve().parents[1] / "release" / "mlp"


@pytest.mark.parametrize("damage", ["missing", "not JSON", "not the kit's"])
def test_a_release_without_its_data_file_fails_the_checks_with_a_message(tmp_path: Path, damage: str) -> None:
    """A student's folder without ``nn_public_data.json`` (or with a broken one): the check cell fails with one
    message naming the file (``CheckFailed``, shown without a traceback), not a traceback of the reader."""
    for helper in RELEASE.glob("*.py"):
        shutil.copy(helper, tmp_path / helper.name)
    if damage != "missing":
        (tmp_path / "nn_public_data.json").write_text('{"LINEAR": ' if damage == "not JSON" else '{"LINEAR": []}')
    script = (
        "import nn_public\n"
        "from nn_messages import CheckFailed\n"
        "class Linear: pass\n"
        "try:\n"
        "    nn_public.check_linear(Linear)\n"
        "except CheckFailed as failed:\n"
        "    print(failed.failure.message.id, '|', ''.join(failed._render_traceback_()))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and not run.stderr, run.stderr
    assert run.stdout.startswith("public_data_unreadable |"), run.stdout
    assert "nn_public_data.json" in run.stdout and "Traceback" not in run.stdout


def test_a_grading_worker_holds_the_release_s_helpers_and_their_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``workers.prepare`` copies the release's modules and the data they read, and nothing of a release can take
    the place of the worker's own ``manifest.json`` or ``answer.json``."""
    from autograder import registry
    from autograder.grading import workers

    monkeypatch.setenv("MLP_GRADER_SECRET", "public-data")
    release = tmp_path / "release"
    shutil.copytree(RELEASE, release)
    (release / "manifest.json").write_text("{}")
    group = registry.worker_groups()[0][:1]
    program, _ = workers.prepare(tmp_path / "worker", group, [], release)
    for name in ("nn_public_data.json", "nn_public_data.py", "nn_public.py"):
        assert (program / name).read_bytes() == (RELEASE / name).read_bytes(), name
    assert json.loads((program / "manifest.json").read_text()) == registry.manifest(group)


@pytest.mark.parametrize("damage", ["missing", "not JSON", "not the kit's"])
def test_a_release_without_its_wordings_shows_the_checks_by_id_and_says_why(tmp_path: Path, damage: str) -> None:
    """A student's folder without ``nn_wordings.json`` (or with a broken one), where every message's words are: the
    checks still run and show what failed by the message's id and fields, and say which file to copy back, not a
    traceback."""
    for helper in [*(RELEASE.parent / "mlp_zh").glob("*.py"), RELEASE.parent / "mlp_zh" / "nn_public_data.json"]:
        shutil.copy(helper, tmp_path / helper.name)
    if damage != "missing":
        (tmp_path / "nn_wordings.json").write_text('{"wordings": ' if damage == "not JSON" else '{"wordings": []}')
    script = (
        "import nn_public\n"
        "from nn_messages import CheckFailed\n"
        "class Linear: pass\n"
        "try:\n"
        "    nn_public.check_linear(Linear)\n"
        "except CheckFailed as failed:\n"
        "    print(failed.failure.message.id, '|', '\\n'.join(failed._render_traceback_()))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and not run.stderr, run.stderr
    failed_id, shown = run.stdout.split(" | ", 1)
    assert "Traceback" not in shown and shown.startswith(f"\x1b[1;31m{failed_id} "), run.stdout
    assert "nn_wordings.json beside nn_public.py, could not be read" in " ".join(shown.split()), run.stdout
