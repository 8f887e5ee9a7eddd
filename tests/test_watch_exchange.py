"""The watcher's rounds through nbgrader's exchange classes (fast tier, grading faked): the default folder exchange and
a second one with its own layout (``shelf_exchange``) pass the same tests. Students hand in as ``nbgrader submit``
leaves it and fetch their feedback through the exchange's FetchFeedback: a graded submission's feedback, the rate
limit's note saying when, and a released note for each bad input (a student not on the roster, an assignment the course
does not have, a collect that fails); the watcher keeps going and nothing leaves the exchange."""

from __future__ import annotations

import html
import io
import os
import shutil
import time
from pathlib import Path

import pytest
import shelf_exchange
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange import ExchangeFactory

from autograder.grading import watch, watch_exchange
from autograder.grading.resubmissions import in_exchange
from autograder.settings import load_course_config
from report_course import fast_new_gradebook

COURSE = "kit-watch"
EXCHANGES = ("default", "shelf")
FIRST, SECOND, THIRD = (f"2026-12-06 10:0{minute}:00.000000 UTC" for minute in range(3))


@pytest.fixture(scope="module")
def blank_gradebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty gradebook, made once (nbgrader stamps a new one with its alembic head: read in-process)."""
    from nbgrader.api import Gradebook

    path = tmp_path_factory.mktemp("gradebook") / "gradebook.db"
    with fast_new_gradebook(), Gradebook(f"sqlite:///{path}", COURSE):
        pass
    return path


def _course(tmp_path: Path, gradebook: Path, exchange: str, lines: tuple[str, ...] = ()) -> Path:
    course = tmp_path / "course"
    (course / "release" / "mlp").mkdir(parents=True)
    shutil.copy(gradebook, course / "gradebook.db")
    settings = ["c = get_config()", f'c.CourseDirectory.course_id = "{COURSE}"', "c.Watch.poll_seconds = 0.5"]
    if exchange == "shelf":
        settings += [f'c.Shelf.root = "{tmp_path / "exchange"}"']
        settings += [
            f'c.ExchangeFactory.{step} = "shelf_exchange.{cls.__name__}"'
            for step, cls in shelf_exchange.CLASSES.items()
        ]
    else:
        settings += [f'c.Exchange.root = "{tmp_path / "exchange"}"']
    (course / "nbgrader_config.py").write_text("\n".join([*settings, *lines]) + "\n")
    return course


def _hand_in(
    tmp_path: Path, exchange: str, student: str, when: str, assignment: str = "mlp", name: str = "mlp"
) -> None:
    files = {f"{name}.ipynb": f'{{"by": "{student}"}}'}
    if exchange == "shelf":
        shelf_exchange.hand_in(tmp_path / "exchange", COURSE, student, assignment, files, when)
        return
    secret = f"secret-{student}-{when}"
    for folder in (
        tmp_path / "exchange" / COURSE / "inbound" / f"{student}+{assignment}+{when}+r4nd",
        tmp_path / "cache" / student / COURSE / f"{student}+{assignment}+{when}",  # the student's own, as submit keeps
    ):
        folder.mkdir(parents=True)
        for file, text in {**files, "timestamp.txt": when, "submission_secret.txt": secret}.items():
            (folder / file).write_text(text)


def _fetched(tmp_path: Path, course: Path, student: str, assignment: str = "mlp") -> dict[str, str]:
    """What the student's ``nbgrader fetch_feedback`` brings through the exchange: file -> text."""
    config = load_course_config(course)
    home = tmp_path / "home" / student
    home.mkdir(parents=True, exist_ok=True)
    config.Exchange.assignment_dir, config.Exchange.cache = str(home), str(tmp_path / "cache" / student)
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id, coursedir.student_id = assignment, student
    ExchangeFactory(config=config).FetchFeedback(
        coursedir=coursedir, authenticator=Authenticator(config=config), config=config
    ).start()
    return {str(p.relative_to(home)): html.unescape(p.read_text()) for p in sorted(home.rglob("*.html"))}


def _fake_grading(graded: list[str]):
    """``grade_class`` as the watcher calls it: each student's feedback written, True for each."""

    def grade_class(root: Path, assignment: str, notebook: str, jobs: int, students: list[str], **kwargs: object):
        graded.extend(f"scheduler {kwargs['scheduler']}" for _ in ([1] if kwargs.get("scheduler") else []))
        for student in students:
            submitted, feedback = root / "submitted" / student / assignment, root / "feedback" / student / assignment
            shutil.rmtree(feedback, ignore_errors=True)
            feedback.mkdir(parents=True)
            for name in ("timestamp.txt", "submission_secret.txt"):
                shutil.copy(submitted / name, feedback / name)
            (feedback / "mlp.html").write_text(f"graded: {student} {(submitted / 'timestamp.txt').read_text()}")
            graded.append(student)
        return dict.fromkeys(students, True)

    return grade_class


@pytest.fixture
def graded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The students graded, in order (grading faked); PATH as it was after the test (the watcher changes it)."""
    monkeypatch.setenv("PATH", os.environ.get("PATH", ""))
    done: list[str] = []
    monkeypatch.setattr(watch, "grade_class", _fake_grading(done))
    return done


class _Clock:
    """``time`` as the watcher sees it, but its pause after a round that graded nothing (``c.Watch.poll_seconds``,
    0.5 s at least) recorded, not waited: the rounds are called one after the other here."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


@pytest.fixture(autouse=True)
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The watcher's pauses, in seconds (none waited)."""
    clock = _Clock()
    monkeypatch.setattr(watch, "time", clock)
    return clock.slept


def _watcher(course: Path) -> tuple[watch.Watcher, io.StringIO]:
    out = io.StringIO()
    return watch.Watcher(course, "mlp", "mlp.ipynb", jobs=2, out=out), out


def _gradebook(course: Path, students: tuple[str, ...] = (), assignments: tuple[str, ...] = ()) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE) as gradebook:
        for student in students:
            gradebook.add_student(student)
        for assignment in assignments:
            gradebook.add_assignment(assignment)


def _in_exchange(course: Path) -> int:
    return len(in_exchange(load_course_config(course)) or {})


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_each_submission_is_graded_and_its_student_fetches_the_feedback(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str], slept: list[float]
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange)
    _hand_in(tmp_path, exchange, "ann", FIRST)
    _hand_in(tmp_path, exchange, "ben", SECOND)
    watcher, out = _watcher(course)
    watcher.round()
    assert sorted(graded) == ["ann", "ben"], out.getvalue()
    _hand_in(tmp_path, exchange, "ann", THIRD)  # a resubmission: graded again
    watcher.round()
    watcher.round()  # nothing new: nothing graded, and the watcher pauses
    assert sorted(graded) == ["ann", "ann", "ben"] and slept == [0.5], (out.getvalue(), slept)
    assert _fetched(tmp_path, course, "ann") == {
        f"mlp/feedback/{when}/mlp.html": f"graded: ann {when}" for when in (FIRST, THIRD)
    }
    assert list(_fetched(tmp_path, course, "ben").values()) == [f"graded: ben {SECOND}"]
    assert _in_exchange(course) == 2  # the exchange is only read


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_a_renamed_notebooks_feedback_is_fetched_by_its_own_name(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str]
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange)
    _hand_in(tmp_path, exchange, "ann", FIRST, name="mlp (1)")  # graded as mlp.ipynb, fetched by its own name
    _watcher(course)[0].round()
    assert _fetched(tmp_path, course, "ann") == {f"mlp/feedback/{FIRST}/mlp (1).html": f"graded: ann {FIRST}"}


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_a_submission_over_the_rate_limit_is_held_and_its_student_fetches_when_it_will_be_graded(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str]
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange, ("c.Watch.graded_per_hour = 1",))
    _hand_in(tmp_path, exchange, "ann", FIRST)
    watcher, out = _watcher(course)
    watcher.round()
    _hand_in(tmp_path, exchange, "ann", SECOND)
    watcher.round()
    watcher.round()  # told once
    assert graded == ["ann"] and out.getvalue().count(" held ") == 1, out.getvalue()
    note = _fetched(tmp_path, course, "ann")[f"mlp/feedback/{SECOND}/mlp.html"]
    assert "At most 1 submissions are graded per hour" in note and "will be graded at about" in note, note
    assert [e.state for e in watcher.journal.watched()] == ["released", "queued"]  # graded once the hour is over


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_a_student_not_on_the_roster_gets_a_note_and_is_not_graded(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str]
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange, ("c.Watch.roster_only = True",))
    _gradebook(course, students=("ann",))
    _hand_in(tmp_path, exchange, "ann", FIRST)
    _hand_in(tmp_path, exchange, "eve", SECOND)
    watcher, out = _watcher(course)
    watcher.round()
    watcher.round()
    assert graded == ["ann"] and out.getvalue().count("NOT ON ROSTER") == 1, out.getvalue()
    note = "\n".join(_fetched(tmp_path, course, "eve").values())
    assert "eve is not on this course's roster" in note and "then submit again" in note, note
    assert _in_exchange(course) == 2


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_a_submission_of_an_assignment_the_course_does_not_have_gets_a_note_under_its_notebooks_name(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str]
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange)
    _gradebook(course, assignments=("mlp", "hw0"))
    _hand_in(tmp_path, exchange, "ann", FIRST, assignment="mlp2", name="my work")
    _hand_in(tmp_path, exchange, "ben", FIRST, assignment="hw0", name="hw0")  # the course's: not the watcher's
    _hand_in(tmp_path, exchange, "ben", SECOND)
    watcher, out = _watcher(course)
    watcher.round()
    watcher.round()
    assert graded == ["ben"] and out.getvalue().count(" OTHER ") == 1, out.getvalue()
    note = _fetched(tmp_path, course, "ann", "mlp2")[f"mlp2/feedback/{FIRST}/my work.html"]
    assert "an assignment named mlp2, which this course does not have" in note, note
    assert "nbgrader fetch_assignment mlp" in note
    assert not _fetched(tmp_path, course, "ben", "hw0") and not (course / "submitted" / "ben" / "hw0").exists()
    assert _in_exchange(course) == 3


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_a_collect_that_fails_is_tried_again_then_given_up_and_one_that_came_in_part_gets_a_note(
    tmp_path: Path, blank_gradebook: Path, exchange: str, graded: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    course = _course(tmp_path, blank_gradebook, exchange)
    _hand_in(tmp_path, exchange, "ann", FIRST)
    _hand_in(tmp_path, exchange, "ben", FIRST)
    collect = watch_exchange.collect

    def failing(config, assignment, student, log):  # noqa: ANN001, ANN202 - the watcher's own call
        if student == "ann":
            return False  # ann's never comes
        collect(config, assignment, student, log)  # ben's comes, but the exchange says it failed (part of it)
        (course / "submitted" / "ben" / "mlp" / "mlp.ipynb").unlink()
        return False

    monkeypatch.setattr(watch_exchange, "collect", failing)
    watcher, out = _watcher(course)
    for _ in range(watch.COLLECT_TRIES + 1):
        watcher.round()
    said = out.getvalue()
    assert not graded and said.count("ann                  retry") == watch.COLLECT_TRIES - 1, said
    assert said.count("LOST") == 1 and said.count("NOT COLLECTED") == 1, said
    assert {e.student: e.state for e in watcher.journal.watched()} == {"ann": "failed", "ben": "failed"}
    note = "\n".join(_fetched(tmp_path, course, "ben").values())
    assert "could not be copied whole out of the exchange" in note, note
    monkeypatch.setattr(watch_exchange, "collect", collect)
    assert _in_exchange(course) == 2  # both still there, for the instructor's own collect


def test_the_watcher_grades_on_the_dask_cluster_it_is_given(
    tmp_path: Path, blank_gradebook: Path, graded: list[str]
) -> None:
    """``--scheduler`` reaches the class grading (which sends each submission to that cluster, ``grading.cluster``;
    ``tests/test_cluster.py`` grades there); without it, the course's ``c.KitGrading.scheduler`` or this machine."""
    course = _course(tmp_path, blank_gradebook, EXCHANGES[0])
    _hand_in(tmp_path, EXCHANGES[0], "ann", FIRST)
    watch.Watcher(course, "mlp", "mlp.ipynb", jobs=2, out=io.StringIO(), scheduler="tcp://cluster:8786").round()
    _hand_in(tmp_path, EXCHANGES[0], "ann", SECOND)
    watch.Watcher(course, "mlp", "mlp.ipynb", jobs=2, out=io.StringIO()).round()
    assert graded == ["scheduler tcp://cluster:8786", "ann", "ann"]
