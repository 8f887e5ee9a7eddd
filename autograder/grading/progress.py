"""The class run's progress: done, failed, running and time left, as a tqdm bar and on each printed line; and, while
a submission is graded, which stage it is at (``autograder.grading.stage``) and for how long.

On a terminal the bar's postfix shows every running submission's stage and time so far, refreshed each second; when
the output is not a terminal (a log, CI), one timestamped line per running submission every ``LINE_EVERY`` seconds.
Each finished submission prints one line, which ends with its score.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.grading.stage import Stage
from autograder.student_text import student_lines, student_text

LINE_EVERY = 30.0
"""Seconds between two lines about one running submission when the output is not a terminal."""


@dataclass
class Running:
    """A submission being graded: since when, and the file its autograde keeps its stage in (None: not known here)."""

    since: float
    record: Path | None
    said: float = 0.0  # when its last plain line was printed
    known: Stage | None = None  # a stage the grade command itself is at for it (its feedback)

    def stage(self) -> Stage | None:
        if self.known is not None:
            return self.known
        return Stage.read(self.record) if self.record is not None else None


def running_words(student: str, running: Running, now: float) -> str:
    """One running submission: who, its stage, how long so far."""
    stage = running.stage()
    return f"{student}: {stage.words() if stage else 'starting nbgrader autograde'}, {now - running.since:.0f} s so far"


class Progress:
    """Done, failed, running and time left: a tqdm bar on a terminal, and the same numbers on each printed line."""

    def __init__(self, total: int, out, running: Callable[[], int], every: float = 1.0) -> None:
        from tqdm import tqdm  # tqdm: small, no dependencies, keeps the bar below printed lines (tqdm.write)

        self._tqdm, self._out, self._running = tqdm, out, running
        self.total, self.done, self.failed, self.started = total, 0, 0, time.perf_counter()
        self.lock = threading.Lock()
        self.terminal = bool(getattr(out, "isatty", lambda: False)())
        self.now: dict[str, Running] = {}
        self.bar = tqdm(
            total=total,
            file=out,
            unit="submission",
            dynamic_ncols=True,
            disable=None,
            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}] {postfix}",
        )
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick_every, args=(every,), daemon=True)
        self._ticker.start()

    def left(self) -> str:
        if not self.done or self.done >= self.total:
            return "?" if self.done < self.total else "0 s"
        seconds = (time.perf_counter() - self.started) / self.done * (self.total - self.done)
        return f"{seconds / 60:.1f} min" if seconds >= 120 else f"{seconds:.0f} s"

    def say(self, text: str) -> None:
        """Print a line (student ids and fault details in it may be the student's: no escape sequence gets out)."""
        self._tqdm.write(student_lines(text), file=self._out)
        self._out.flush()

    def begun(self, student: str, record: Path | None) -> None:
        """A submission's grading began; its autograde keeps its stage in ``record``."""
        with self.lock:
            self.now[student] = Running(time.perf_counter(), record, said=time.perf_counter())

    def at(self, student: str, stage: Stage) -> None:
        """The grade command itself is at ``stage`` for a running submission (after its autograde)."""
        with self.lock:
            if student in self.now:
                self.now[student].known = stage

    def tick(self) -> None:
        """Show where each running submission is: the bar's postfix on a terminal, else a line each now and then."""
        with self.lock:
            now = time.perf_counter()
            if self.terminal:
                self._postfix(now)
                self.bar.refresh()
                return
            for student, running in sorted(self.now.items()):
                if now - running.said >= LINE_EVERY:
                    running.said = now
                    self.say(f"{time.strftime('%H:%M:%S')} {running_words(student, running, now)}")

    def _postfix(self, now: float) -> None:
        shown = "; ".join(running_words(s, r, now) for s, r in sorted(self.now.items()))
        text = f"failed {self.failed}, running {self._running()}" + (f" | {shown}" if shown else "")
        room = max(20, shutil.get_terminal_size((120, 20)).columns - 60)  # the bar itself keeps about 60 columns
        text = student_text(text)  # student ids are the student's: one line, no escape sequence
        self.bar.set_postfix_str(text if len(text) <= room else text[: room - 3] + "...", refresh=False)

    def _tick_every(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - the display never stops grading
                pass

    def finished(self, student: str, ok: bool, text: str, score: str = "") -> None:
        """One submission finished (graded or not): print its line, ending with its score, and move the bar."""
        with self.lock:
            self.now.pop(student, None)
            self.done += 1
            self.failed += not ok
            running = self._running()
            self.say(
                f"[{self.done}/{self.total}] {text} ({time.perf_counter() - self.started:.0f} s in all; "
                f"{self.failed} failed, {running} running, about {self.left()} left)" + (f": {score}" if score else "")
            )
            self._postfix(time.perf_counter())
            self.bar.update(1)

    def close(self) -> None:
        self._stop.set()
        self._ticker.join(timeout=5)
        self.bar.close()
