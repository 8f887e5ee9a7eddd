"""MNIST is found once, on the trusted side, wherever the instructor put it, and every sandbox gets its absolute
path. (A tiny valid MNIST stands in for the real one: the fast tier runs without the data.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from traitlets.config import Config

from autograder.faults import GraderFault
from autograder.grading.course_data import resolve_mnist
from autograder.settings import KitGrading
from tiny_mnist import accept_tiny_counts, synthetic_files, write_files


def _kit(course: Path, **traits: object) -> KitGrading:
    config = Config()
    config.CourseDirectory.root = str(course)
    for name, value in traits.items():
        setattr(config.KitGrading, name, value)
    return KitGrading(config=config)


@pytest.fixture
def mnist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny valid MNIST the loader accepts, outside the course folder."""
    accept_tiny_counts(monkeypatch)
    return write_files(tmp_path / "shared" / "mnist", synthetic_files())


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mnist: Path) -> Path:
    """A course folder whose data/mnist links to ``mnist``, with the command started from another folder, and no
    MNIST_DIR."""
    monkeypatch.delenv("MNIST_DIR", raising=False)
    (tmp_path / "course" / "data").mkdir(parents=True)
    (tmp_path / "course" / "data" / "mnist").symlink_to(mnist)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return tmp_path / "course"


def test_a_relative_configured_folder_is_taken_from_the_course_not_the_current_folder(
    elsewhere: Path, mnist: Path
) -> None:
    found = resolve_mnist(_kit(elsewhere, mnist_dir="data/mnist"))
    assert found == mnist and found.is_absolute()


def test_a_relative_mnist_dir_variable_is_taken_from_the_folder_the_command_runs_in(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, mnist: Path
) -> None:
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("MNIST_DIR", "data/mnist")
    assert resolve_mnist(_kit(elsewhere)) == mnist


def test_the_download_cache_is_used_and_handed_on_as_an_absolute_path(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mnist: Path
) -> None:
    from autograder.course import mnist_data

    cache = tmp_path / "home" / ".cache" / "dl-notes" / "mnist"
    cache.mkdir(parents=True)
    for file in mnist.glob("*.gz"):
        (cache / file.name).write_bytes(file.read_bytes())
        # accept the tiny files' bytes as "official" for this test
        monkeypatch.setitem(mnist_data.OFFICIAL_SHA256, file.name, hashlib.sha256(file.read_bytes()).hexdigest())
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MNIST_CACHE_DIR", raising=False)
    assert resolve_mnist(_kit(elsewhere, download_mnist=False)) == cache


def test_missing_data_is_the_graders_fault_with_the_loaders_message(elsewhere: Path) -> None:
    with pytest.raises(GraderFault, match="MNIST for the gate cannot be used.*no-such-folder"):
        resolve_mnist(_kit(elsewhere, mnist_dir="no-such-folder"))


def test_a_wrong_relative_folder_is_told_with_the_setting_that_named_it_and_where_it_was_taken_from(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNIST_DIR", "../shared/data/mnist")  # written for the clone, run in a course folder below it
    with pytest.raises(GraderFault) as told:
        resolve_mnist(_kit(elsewhere))
    message = str(told.value)
    assert "MNIST_DIR=../shared/data/mnist, taken from the folder the command runs in" in message, message
    assert str(Path.cwd()) in message and "data_dir argument" not in message, message
    with pytest.raises(GraderFault, match=r"c.KitGrading.mnist_dir = 'data/mnlst', taken from the course folder"):
        resolve_mnist(_kit(elsewhere, mnist_dir="data/mnlst"))


def test_a_wrong_absolute_folder_is_told_as_given_not_as_taken_from_a_folder(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    wrong = tmp_path / "no" / "mnist"
    monkeypatch.setenv("MNIST_DIR", str(wrong))
    with pytest.raises(GraderFault) as told:
        resolve_mnist(_kit(elsewhere))
    message = str(told.value)
    assert f"the directory {wrong} (MNIST_DIR={wrong}) does not exist" in message, message
    assert "taken from" not in message and str(Path.cwd()) not in message, message
    with pytest.raises(GraderFault) as told:
        resolve_mnist(_kit(elsewhere, mnist_dir=str(wrong)))
    message = str(told.value)
    assert f"(c.KitGrading.mnist_dir = {str(wrong)!r}) does not exist" in message and "taken from" not in message
