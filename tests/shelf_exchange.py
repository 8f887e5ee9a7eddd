"""A second nbgrader exchange, for the tests: the watcher must work through nbgrader's exchange classes
(``c.ExchangeFactory``), not the default exchange's folder. ``ngshare_exchange`` (0.5.3, the last release) pins
``jupyter-core<4.11.2`` against nbgrader 0.9's ``jupyter_core>=5`` and needs a JupyterHub service, so this one stands
in: it keeps each submission on a "shelf" in a layout of its own, ``<root>/<course>/shelf/<assignment>/<student>/<n>/``
(``n`` counting up), and each released feedback as ``<root>/<course>/returned/<hash>.html``. It implements the
interfaces the watcher and a student use: List (inbound), Collect, ReleaseFeedback, FetchFeedback; ``hand_in`` puts a
submission on the shelf as a Submit would.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

from nbgrader.exchange import abc
from nbgrader.utils import notebook_hash, parse_utc
from traitlets import Unicode


class Shelf(abc.Exchange):
    root = Unicode("", help="The shelf's folder.").tag(config=True)

    def course(self) -> Path:
        if not self.coursedir.course_id or not self.root:
            self.fail("no course id or no shelf")
        return Path(self.root) / self.coursedir.course_id

    def submissions(self, student: str, assignment: str) -> list[Path]:
        """The submissions on the shelf (``"*"``: anyone's, of any assignment), oldest first."""
        parts = [part if part == "*" else glob.escape(part) for part in (assignment, student)]
        found = glob.glob(str(self.course() / "shelf" / parts[0] / parts[1] / "*"))
        return sorted((Path(p) for p in found), key=lambda p: (str(p.parent), int(p.name)))

    def init_src(self) -> None:
        pass

    def init_dest(self) -> None:
        pass

    def copy_files(self) -> None:
        pass


class ShelfList(Shelf, abc.ExchangeList):
    def list_files(self) -> list[dict]:
        if not self.inbound:
            self.fail("only the inbound is listed here")
        grouped: dict[tuple[str, str], list[dict]] = {}
        for path in self.submissions("*", self.coursedir.assignment_id or "*"):
            student, assignment = path.parent.name, path.parent.parent.name
            when = (path / "timestamp.txt").read_text()
            info = {"course_id": self.coursedir.course_id, "student_id": student, "assignment_id": assignment}
            grouped.setdefault((student, assignment), []).append({**info, "timestamp": when, "status": "submitted"})
        return [
            {**found[0], "submissions": sorted(found, key=lambda f: parse_utc(f["timestamp"]))}
            for found in grouped.values()
        ]


class ShelfCollect(Shelf, abc.ExchangeCollect):
    def copy_files(self) -> None:
        assignment = self.coursedir.assignment_id
        latest: dict[str, Path] = {}
        for path in self.submissions(self.coursedir.student_id or "*", assignment):
            latest[path.parent.name] = path  # oldest first: the last one stays
        for student, path in latest.items():
            dest = Path(self.coursedir.format_path(self.coursedir.submitted_directory, student, assignment))
            have = self.coursedir.get_existing_timestamp(str(dest))
            if have is not None and not (self.update and parse_utc((path / "timestamp.txt").read_text()) > have):
                continue
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(path, dest)


class ShelfReleaseFeedback(Shelf, abc.ExchangeReleaseFeedback):
    def copy_files(self) -> None:
        student = self.coursedir.student_id or "*"
        source = self.coursedir.format_path(self.coursedir.feedback_directory, student, self.coursedir.assignment_id)
        returned = self.course() / "returned"
        returned.mkdir(parents=True, exist_ok=True)
        for page in glob.glob(os.path.join(source, "*.html")):
            secret = (Path(page).parent / "submission_secret.txt").read_text()
            shutil.copy(page, returned / f"{notebook_hash(secret=secret, notebook_id=Path(page).stem)}.html")


class ShelfFetchFeedback(Shelf, abc.ExchangeFetchFeedback):
    """A student's feedback on each of their submissions on the shelf (the student id is the coursedir's)."""

    def copy_files(self) -> None:
        assignment = self.coursedir.assignment_id
        for path in self.submissions(self.coursedir.student_id, assignment):
            secret, when = (path / "submission_secret.txt").read_text(), (path / "timestamp.txt").read_text()
            for notebook in path.glob("*.ipynb"):
                page = self.course() / "returned" / f"{notebook_hash(secret=secret, notebook_id=notebook.stem)}.html"
                if page.exists():
                    dest = Path(self.assignment_dir) / assignment / "feedback" / when
                    dest.mkdir(parents=True, exist_ok=True)
                    shutil.copy(page, dest / f"{notebook.stem}.html")


CLASSES = {
    "list": ShelfList,
    "collect": ShelfCollect,
    "release_feedback": ShelfReleaseFeedback,
    "fetch_feedback": ShelfFetchFeedback,
}
"""``c.ExchangeFactory.<name>`` for each step of this exchange."""


def hand_in(root: Path, course: str, student: str, assignment: str, files: dict[str, str], when: str) -> None:
    """Put a submission on the shelf, as a Submit would: its files, its timestamp and its secret."""
    folder = root / course / "shelf" / assignment / student
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / str(len(list(folder.iterdir())))
    path.mkdir()
    for name, text in {**files, "timestamp.txt": when, "submission_secret.txt": f"secret-{student}-{when}"}.items():
        (path / name).write_text(text)
