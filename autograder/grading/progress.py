"""The class run's progress: done, failed, running and time left, as a tqdm bar and on each printed line."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from autograder.student_text import student_lines


class Progress:
    """Done, failed, running and time left: a tqdm bar on a terminal, and the same numbers on each printed line."""

    def __init__(self, total: int, out, running: Callable[[], int]) -> None:
        from tqdm import tqdm  # tqdm: small, no dependencies, keeps the bar below printed lines (tqdm.write)

        self._tqdm, self._out, self._running = tqdm, out, running
        self.total, self.done, self.failed, self.started = total, 0, 0, time.perf_counter()
        self.lock = threading.Lock()
        self.bar = tqdm(
            total=total,
            file=out,
            unit="submission",
            dynamic_ncols=True,
            disable=None,
            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}] {postfix}",
        )

    def left(self) -> str:
        if not self.done or self.done >= self.total:
            return "?" if self.done < self.total else "0 s"
        seconds = (time.perf_counter() - self.started) / self.done * (self.total - self.done)
        return f"{seconds / 60:.1f} min" if seconds >= 120 else f"{seconds:.0f} s"

    def say(self, text: str) -> None:
        """Print a line (student ids and fault details in it may be the student's: no escape sequence gets out)."""
        self._tqdm.write(student_lines(text), file=self._out)
        self._out.flush()

    def finished(self, ok: bool, text: str) -> None:
        """One submission finished (graded or not): print its line, move the bar."""
        with self.lock:
            self.done += 1
            self.failed += not ok
            running = self._running()
            self.say(
                f"[{self.done}/{self.total}] {text} ({time.perf_counter() - self.started:.0f} s in all; "
                f"{self.failed} failed, {running} running, about {self.left()} left)"
            )
            self.bar.set_postfix_str(f"failed {self.failed}, running {running}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        self.bar.close()
