"""The watcher's journal, queue and locks (``autograder.grading.watch_queue``, ``course_lock``), pure Python (fast
tier): no submission lost or graded twice across a restart, first submissions before resubmissions, the rate limit
per student, one watcher per course, and a second grading waits for the first, saying so."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest

from autograder.grading import course_lock
from autograder.grading.watch_queue import HOUR, Journal, free_at, next_up


def _journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "watch" / "journal.json")


def test_a_restart_keeps_every_unfinished_submission_and_grades_none_twice(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    done, grading, queued = (journal.add(s, f"2026-12-06T10:0{i}:00") for i, s in enumerate(("ann", "ben", "cy")))
    assert done and grading and queued
    journal.mark(done, "released", graded_at=1.0)
    journal.mark(grading, "grading", graded_at=2.0)  # killed while it was graded
    journal.add("dee", "2026-12-06T10:04:00")  # killed right after it saw dee's
    again = _journal(tmp_path)  # what a restarted watcher reads
    assert sorted(e.student for e in again.open_entries()) == ["ben", "cy", "dee"]
    assert again.add("ann", "2026-12-06T10:00:00") is None  # seen again in the exchange: not a new submission
    assert again.entries[done.key].state == "released"


def test_only_a_students_latest_submission_is_graded(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    older, newer = journal.add("ann", "2026-12-06T10:00:00"), journal.add("ann", "2026-12-06T10:05:00")
    assert [e.key for e in journal.open_entries()] == [newer.key]
    assert _journal(tmp_path).entries[older.key].state == "superseded"


def test_every_first_submission_comes_before_any_resubmission(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    first = journal.add("ann", "2026-12-06T10:00:00")
    journal.mark(first, "released", graded_at=time.time())
    journal.add("ann", "2026-12-06T10:01:00")  # ann's resubmission, before the others' first
    journal.add("ben", "2026-12-06T10:02:00")
    journal.add("cy", "2026-12-06T10:03:00")
    ready, held = next_up(journal, time.time(), per_hour=0)
    assert [e.student for e in ready] == ["ben", "cy", "ann"] and not held


def test_over_the_rate_limit_a_submission_is_held_until_an_hour_after_the_oldest_grading(tmp_path: Path) -> None:
    journal, now = _journal(tmp_path), 10 * HOUR
    for minute, started in ((0, now - 3000), (1, now - 600)):
        journal.mark(journal.add("ann", f"2026-12-06T10:0{minute}:00"), "released", graded_at=started)
    journal.add("ann", "2026-12-06T10:02:00")
    journal.add("ben", "2026-12-06T10:03:00")
    ready, held = next_up(journal, now, per_hour=2)
    assert [e.student for e in ready] == ["ben"] and [e.student for e in held] == ["ann"]
    assert free_at(journal, "ann", now, 2) == now - 3000 + HOUR
    assert [e.student for e in next_up(journal, now - 3000 + HOUR, per_hour=2)[0]] == ["ben", "ann"]
    assert [e.student for e in next_up(journal, now, per_hour=3)[0]] == ["ben", "ann"]


def test_a_second_watcher_of_a_course_refuses(tmp_path: Path) -> None:
    first = course_lock.watcher(tmp_path)
    try:
        with pytest.raises(course_lock.WatcherRunning, match="another watcher already watches this course"):
            course_lock.watcher(tmp_path)
    finally:
        first.close()
    course_lock.watcher(tmp_path).close()  # once the first is gone, a watcher starts


def test_a_grading_waits_for_the_one_holding_the_course_and_says_so(tmp_path: Path) -> None:
    order: list[str] = []
    said = io.StringIO()
    entered = threading.Event()

    def other() -> None:  # another process in truth: its own open file of the lock, in a thread of its own here
        handle = (tmp_path / "grading.lock").open("a+")
        course_lock.fcntl.flock(handle, course_lock.fcntl.LOCK_EX)
        handle.write("pid 1: python -m autograder grade mlp")
        handle.flush()
        entered.set()
        time.sleep(0.5)
        order.append("other done")
        handle.close()

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(5)
    with course_lock.grading(tmp_path, said):
        order.append("this one")
        with course_lock.grading(tmp_path, said):  # re-entrant: the watcher around the grade pipeline
            order.append("nested")
    thread.join()
    assert order == ["other done", "this one", "nested"]
    assert "waiting for pid 1: python -m autograder grade mlp to finish grading this course" in said.getvalue()
