"""What a student learns is theirs alone, and what a student's code says is short, one line and harmless wherever the
grader shows it.

Fast tier: ``student_text`` itself; every layer check's hidden inputs differ from one student to the next and are the
same on regrading, the gate's recipe is the course's; a forged record, a judged failure, the terminal summary and the
feedback's top box carry student text capped. Slow tier: the catalogue's text attacks graded alone, the graded
notebook, the feedback and the grade command's terminal read whole.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
from nbformat import NotebookNode  # noqa: E402

import grading  # noqa: E402
from autograder import registry  # noqa: E402
from autograder.cell_ids import grade_id  # noqa: E402
from autograder.course.nn_messages import CheckFailed, Failure, Text  # noqa: E402
from autograder.exporters.summary import _error_of  # noqa: E402
from autograder.grading.summary import summary_lines  # noqa: E402
from autograder.judge.checks import judge, run_here  # noqa: E402
from autograder.judge.inputs import inputs_for  # noqa: E402
from autograder.judge.outcome import WorkerOutcome  # noqa: E402
from autograder.judge.records import decode_record  # noqa: E402
from autograder.probe.core import encode  # noqa: E402
from autograder.report.aggregate import summarize  # noqa: E402
from autograder.report.catalogue import Catalogue  # noqa: E402
from autograder.report.collect import CheckInfo, ClassData, Student  # noqa: E402
from autograder.student_text import ELLIPSIS, LIMIT, student_data, student_lines, student_text  # noqa: E402
from autograder.verdict import Verdict  # noqa: E402
from catalogue.attacks_text import HOSTILE, LEAK_EDITS  # noqa: E402

SECRET = "student-text-secret"
LAYER_CHECKS = tuple(c.name for c in registry.CHECKS if c.inputs != "gate_recipe")
ESCAPE_BYTES = re.compile(r"[\x1b\x07\x9b\x9c\x9d\u202e]")
HUGE = HOSTILE + "\n".join(repr(np.arange(i, i + 500.0)) for i in range(40)) + HOSTILE  # about 100 kB, many lines


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _harmless(text: str, limit: int = LIMIT) -> None:
    assert len(text) <= limit, len(text)
    assert "\n" not in text and "\r" not in text
    assert not ESCAPE_BYTES.search(text), repr(text[:200])
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in text), repr(text[:200])


# ---------------------------------------------------------------- the function


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("shapes (3,4) and (2,)", "shapes (3,4) and (2,)"),
        ("\x1b[2J\x1b[Hcleared", "cleared"),
        ("\x1b]0;title\x07after", "after"),
        ("\x1b]2;title\x1b\\after", "after"),
        ("\x9b31mred\x9b0m", "red"),
        ("a\nb\r\nc\td", "a b c d"),
        ("abc\u202edef\u2066g\u200bh", "abcdefgh"),
        ("nul\x00 del\x7f bell\x07", "nul del bell"),
        ("中文：应为 3", "中文：应为 3"),
    ],
)
def test_student_text_keeps_one_plain_line(raw: str, shown: str) -> None:
    assert student_text(raw) == shown


def test_student_text_caps_with_an_ellipsis_and_changes_nothing_the_second_time() -> None:
    shown = student_text(HUGE)
    _harmless(shown)
    assert shown.endswith(ELLIPSIS) and LIMIT - 20 < len(shown) <= LIMIT
    assert student_text(shown) == shown
    assert student_text("x" * LIMIT) == "x" * LIMIT
    assert student_text(12.5) == "12.5"


def test_student_data_makes_every_string_harmless_keys_too() -> None:
    """Defence in depth: ``decode_record`` caps a worker's keys first; ``student_data`` does not rely on it."""
    shown = student_data({HUGE: [HUGE, (HUGE,), {HUGE: HUGE}], "n": 3})
    (key,) = [k for k in shown if k != "n"]
    inner = shown[key][2]
    for text in (key, shown[key][0], shown[key][1][0], *inner, *inner.values()):
        _harmless(text)
    assert shown["n"] == 3


def test_student_text_is_at_most_300_characters_as_the_trust_document_says() -> None:
    assert (LIMIT, len(student_text("x" * 1000)), student_text("x" * 300)) == (300, 300, "x" * 300)


def test_student_lines_keeps_lines_each_harmless() -> None:
    shown = student_lines(f"first\n{HUGE}", most=5)
    lines = shown.splitlines()
    assert lines[0] == "first" and len(lines) == 6 and lines[-1] == ELLIPSIS
    for line in lines:
        _harmless(line, 1000)


# ---------------------------------------------------------------- hidden inputs: the student's own


@pytest.mark.parametrize("check", LAYER_CHECKS)
def test_two_students_get_different_inputs_and_the_same_on_regrading(check: str) -> None:
    with grading.secret(SECRET):
        alice, bob, alice_again = inputs_for(check, "alice"), inputs_for(check, "bob"), inputs_for(check, "alice")
        course = inputs_for(check)
    assert _same(alice, alice_again)
    assert not _same(alice, bob) and not _same(alice, course) and not _same(bob, course)


def test_no_student_gives_the_courses_inputs_as_before() -> None:
    """The fast tier's pinned values hold: no student seeds with the secret and the check's name alone."""
    import hashlib

    with grading.secret(SECRET):
        digest = hashlib.sha256(f"{SECRET}:linear_forward".encode()).digest()
        old = registry.inputs_of("linear_forward")(np.random.default_rng(int.from_bytes(digest[:16], "little")))
        assert _same(inputs_for("linear_forward"), old) and _same(inputs_for("linear_forward", ""), old)


def test_the_gate_recipe_is_the_courses_for_every_student() -> None:
    """Its reference training is cached per secret (``gate_reference``); another secret gives another recipe."""
    with grading.secret(SECRET):
        recipe = inputs_for("mnist_accuracy")
        assert _same(inputs_for("mnist_accuracy", "alice"), recipe) and _same(
            inputs_for("mnist_accuracy", "bob"), recipe
        )
    with grading.secret(SECRET + "-other"):
        assert not _same(inputs_for("mnist_accuracy", "alice"), recipe)


def test_a_student_id_cannot_pose_as_another_check_or_student() -> None:
    """The seed is the JSON list (secret, check, student): no id of one student is another's or another check's."""
    with grading.secret(SECRET):
        assert not _same(inputs_for("relu_forward", "a:b"), inputs_for("relu_forward", "a"))
        assert not _same(inputs_for("relu_forward", '", "x'), inputs_for("relu_forward", "x"))


# ---------------------------------------------------------------- the trusted side caps what it reads


def _raised(message: str) -> dict[str, Any]:
    return {"raised": "ValueError" + HOSTILE, "kinds": ["ValueError", "Exception"], "message": message, "line": HUGE}


def test_a_record_read_from_a_worker_has_every_string_capped() -> None:
    forged = {"records": [{"dx": _raised(HUGE)}], HUGE: HUGE, "list": [HUGE, {"k": HUGE}]}
    data = decode_record(*encode(forged), Path("linear_backward_dx"))

    def strings(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return []

    for text in strings(data):
        _harmless(text)


def _failure(check: str, record: dict[str, Any]) -> Failure:
    """The failure of ``check`` judged on what a worker recorded, read as grading reads it."""
    with grading.secret(SECRET):
        inputs = inputs_for(check, "mallory")
        with pytest.raises(CheckFailed) as failed:
            judge(check, inputs, WorkerOutcome.from_record(record))
    return failed.value.failure


def _fields(text: Text | None) -> list[Any]:
    if text is None:
        return []
    found = []
    for value in text.fields.values():
        found += _fields(value) if isinstance(value, Text) else [value]
    return found


def _assert_bounded(failure: Failure) -> None:
    for value in [v for t in (failure.message, failure.cause, failure.formula) for v in _fields(t)]:
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, Text):
                _harmless(str(item))
    for language in ("en", "zh"):
        rendered = failure.render(language)
        assert not ESCAPE_BYTES.search(rendered) and len(rendered) < 4 * LIMIT + 400, len(rendered)


@pytest.mark.parametrize("check", ["linear_backward_dx", "linear_backward_dw", "linear_backward_db"])
def test_an_exception_full_of_hidden_inputs_and_escapes_fails_its_check_capped(check: str) -> None:
    """The catalogue's leaking Linear.backward, probed and judged in this process: nothing read its record through
    ``decode_record``, the judge caps what it raised."""
    names = grading.namespace(grading.catalogue_code(LEAK_EDITS), "<leak>")
    with grading.secret(SECRET):
        with pytest.raises(CheckFailed) as failed:
            run_here(check, names[registry.check(check).cls])
    _assert_bounded(failed.value.failure)
    assert "raised ValueError" in failed.value.failure.render("en")


def test_a_forged_stopped_failure_and_forged_cells_are_capped() -> None:
    stopped = Failure(Text("raised", {"what": HUGE, "exception": HUGE, "message": HUGE})).to_data()
    _assert_bounded(_failure("relu_forward", {"stopped": stopped}))
    errors = {"linear": _raised(HUGE), **{f"cell{i}{HOSTILE}": _raised(HUGE) for i in range(5000)}}
    failure = _failure("relu_forward", {"missing_class": HUGE, "cell_errors": errors})
    _assert_bounded(failure)


def test_a_list_of_many_names_in_a_failure_is_cut() -> None:
    calls = [f"fc{i}.backward{HOSTILE}" for i in range(5000)]
    record = {"parameters": None, "calls": calls}
    with grading.secret(SECRET):
        cases = inputs_for("mlp_backward", "mallory")["cases"]
    try:
        failure = _failure("mlp_backward", {"records": [dict(record) for _ in cases]})
    except KeyError:  # the record is not what the probe writes: the grader calls that unjudgeable, also capped
        return
    _assert_bounded(failure)


# ---------------------------------------------------------------- what the terminal, the report and the feedback show


def test_the_terminal_summary_and_the_report_show_a_students_cause_capped() -> None:
    cause = Text("checks.cell_raised", {"cell": "'linear'", "exception": "ValueError", "message": HUGE})
    verdict = Verdict.failed(
        "linear_forward", Failure(Text("raised", {"what": "x", "exception": "E", "message": HUGE}), cause)
    )
    student = Student("mallory\x1b[2J", graded=True, score=0.0, max_score=8.0, verdicts={"linear_forward": verdict})
    data = ClassData(
        Path("/course"), "mlp", ["mlp"], Path("/course/release/mlp"), [CheckInfo("linear_forward", "L", 8.0)], [student]
    )
    summary = summarize(data, Catalogue("en"))
    lines = summary_lines(summary, Path("/course/reports/mlp/report.html"))
    for line in lines:
        _harmless(line, 1200)
    for groups in (*summary.causes.values(), *summary.unexplained.values()):
        for group in groups:
            for line in group.text.splitlines():
                _harmless(line, 1000)


def test_the_feedback_top_box_shows_a_public_checks_exception_capped() -> None:
    plain = NotebookNode(outputs=[NotebookNode(output_type="error", ename="ValueError" + HOSTILE, evalue=HUGE)])
    _harmless(_error_of(plain))
    own = NotebookNode(outputs=[NotebookNode(output_type="error", ename="CheckFailed", traceback=[HUGE] * 50)])
    for line in _error_of(own).splitlines():
        _harmless(line, 1000)


def test_the_grade_commands_progress_lines_are_harmless() -> None:
    import io

    from autograder.grading.progress import Progress

    out = io.StringIO()
    progress = Progress(1, out, lambda: 0)
    progress.begun(f"mallory{HOSTILE}", None)
    progress.tick()
    progress.finished(f"mallory{HOSTILE}", True, f"mallory{HOSTILE}: graded")
    progress.close()
    assert not ESCAPE_BYTES.search(out.getvalue().replace("\r", "")), repr(out.getvalue())


# ---------------------------------------------------------------- slow: the text attacks graded, read whole


@pytest.mark.slow
def test_a_leaking_exception_reaches_notebook_feedback_and_terminal_capped(tmp_path: Path) -> None:
    from autograder import classroom
    from catalogue.attacks import Context
    from catalogue.attacks_text import RAISING_LOSES, TEXT_ATTACKS
    from gradingkit import MNIST, REPO, grade, make_course

    course = make_course(
        tmp_path / "course",
        "text-attacks",
        f"c.KitGrading.mnist_dir = {str(MNIST)!r}\nc.KitGrading.secret_file = {str(tmp_path / 'secret')!r}\n"
        f"c.KitGrading.work_dir = {str(tmp_path / 'work')!r}\n",
        {attack.name: "release" for attack in TEXT_ATTACKS},  # replaced below: no correct one, whose gate trains
    )
    (tmp_path / "work").mkdir()
    solution = (REPO / "solutions" / classroom.ASSIGNMENT / classroom.NOTEBOOK).read_text()
    context = Context(str(course / "gradebook.db"), ())
    for attack in TEXT_ATTACKS:
        for name, text in attack.make(solution, context).items():
            classroom.submit(course, attack.name, text, name)
    result = grade(course)
    assert result.returncode == 0, result.stdout + result.stderr
    terminal = result.stdout + result.stderr
    assert not ESCAPE_BYTES.search(terminal.replace("\r", "")), repr(terminal[-2000:])
    classroom.nbgrader(course, "generate_feedback", classroom.ASSIGNMENT)
    for attack in TEXT_ATTACKS:
        grades = classroom.cell_grades(course)[attack.name]
        assert all(grades[cell].score == 0 for cell in RAISING_LOSES), grades
        graded = course / "autograded" / attack.name / classroom.ASSIGNMENT / classroom.NOTEBOOK
        nb = json.loads(graded.read_text())
        hidden = [c for c in nb["cells"] if grade_id(c) in RAISING_LOSES]
        for cell in hidden:
            for output in cell["outputs"]:
                if output["output_type"] == "error":
                    for line in output["evalue"].splitlines():
                        _harmless(line, LIMIT + 200)
                else:
                    assert not ESCAPE_BYTES.search(json.dumps(output, ensure_ascii=False))
        assert len(json.dumps([c["outputs"] for c in hidden])) < 3000 * len(hidden)
        feedback = (course / "feedback" / attack.name / classroom.ASSIGNMENT / "mlp.html").read_text()
        hidden_box, _, public_box = feedback.partition('class="kit-public"')
        messages = re.findall(r'<div class="kit-message">(.*?)</div>', hidden_box, re.DOTALL)
        assert any("raised ValueError" in m for m in messages), messages
        for message in messages:  # a hidden check's, whole: its sentence and, for a raise, the student's line
            assert len(message.splitlines()) <= 2, message
            for line in message.splitlines():
                _harmless(line, 2 * LIMIT + 400)  # html-escaped: a character may take 6
        for message in re.findall(r'<div class="kit-message">(.*?)</div>', public_box, re.DOTALL):
            assert len(message.splitlines()) <= 13  # a public check's, as the kernel showed it: a few lines
            for line in message.splitlines():
                _harmless(line, 6 * 1000)
        with grading.secret((tmp_path / "secret").read_text().strip()):
            largest = max(inputs_for("linear_backward_dx", attack.name)["cases"], key=lambda c: c["x"].size)["x"]
        np.set_printoptions(threshold=sys.maxsize)
        try:
            leaked = repr(largest)
        finally:
            np.set_printoptions(threshold=1000)
        assert len(leaked) > LIMIT
        assert leaked not in feedback and leaked not in graded.read_text() and leaked not in terminal
