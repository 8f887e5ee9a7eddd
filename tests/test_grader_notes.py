"""The notes the grader puts at the top of a graded notebook are declared messages, in the edition's language."""

from __future__ import annotations

from pathlib import Path

from autograder.grading.submissions import Refused, refusal_note
from conftest import REPO


class _Release:
    """Stands in for ``CoursePaths``: only the release folder of an assignment is read."""

    def release(self, assignment: str) -> Path:
        return REPO / "release" / assignment


def test_the_refusal_note_lists_the_entries_in_english_and_in_chinese() -> None:
    refused = [Refused("data.txt", "symlink", "/etc/passwd"), Refused("pipe", "fifo")]
    english = refusal_note(refused, _Release(), "mlp")
    assert english.startswith("**Note from the grader.** These entries of your submission were not graded")
    assert "`data.txt` (a symbolic link), `pipe` (a FIFO (named pipe))" in english and "/etc/passwd" not in english
    chinese = refusal_note(refused, _Release(), "mlp_zh")
    assert (
        chinese.startswith("**评分程序的说明。**") and "`data.txt`（符号链接）、`pipe`（FIFO（命名管道））" in chinese
    )


def test_a_long_list_is_cut_and_a_linked_folder_is_said_once() -> None:
    many = [Refused(f"f{i}", "hard_link") for i in range(23)]
    assert "`f19` (a hard link), 3 more." in refusal_note(many, _Release(), "mlp")
    assert "symbolic link, not a folder" in refusal_note([Refused(".", "symlink", "/")], _Release(), "mlp")
