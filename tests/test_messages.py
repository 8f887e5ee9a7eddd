"""Messages are data declared once by id (``nn_messages``), and the grader builds every failure from them (fast tier).

Every message of the catalogue (the helpers', the judges' in ``autograder/messages.py`` and the probe's in
``autograder/probe/messages.py``) renders in every language with the same fields (its own wording there or the English
one: ``tests/test_wordings.py``); an id is declared once. No judge or probe builds a failure from words of its own
(an f-string, a concatenation, a literal sentence): the class report counts causes by id, and a notebook shows them in
its edition's language. A failure a worker records travels as data and is rebuilt, checked, on the trusted side.
"""

from __future__ import annotations

import ast
import json
import string
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))  # the assignment's helper modules, as the judges see them

import nn_messages  # noqa: E402
from nn_languages import LANGUAGES  # noqa: E402
from nn_messages import CATALOGUE, CheckFailed, Failure, Text, message, render  # noqa: E402

import autograder.messages  # noqa: E402
import autograder.probe.messages  # noqa: E402
import nn_diagnosis  # noqa: E402, F401 - declares the helpers' messages
import nn_public  # noqa: E402, F401
from autograder.judge.checks import judge  # noqa: E402
from autograder.judge.common import got, judge_cases, recorded_failure  # noqa: E402
from autograder.judge.outcome import WorkerOutcome  # noqa: E402
from autograder.judge.records import decode_record  # noqa: E402
from autograder.probe.core import CheckTimeout, encode, time_limit  # noqa: E402

GRADER = REPO / "autograder"
CHECKED = sorted(
    [
        *GRADER.glob("judge/*.py"),
        *GRADER.glob("probe/*.py"),
        *GRADER.glob("grading/*.py"),
        *(REPO / "source" / "mlp").glob("nn_*.py"),
    ]
)
"""The modules that build failures: the judges, the probes, the grading (a worker's end) and the course's helpers
(the public checks and the checks the judges share)."""
DECLARING = (GRADER / "messages.py", GRADER / "probe" / "messages.py")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _declared_ids(path: Path) -> list[str]:
    """The ids a catalogue module declares, as written: the first argument of each ``message(...)``/``text(...)``."""
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("message", "text")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]


GRADER_IDS = sorted(i for path in DECLARING for i in _declared_ids(path))


def test_the_grader_declares_its_messages() -> None:
    assert len(GRADER_IDS) > 40 and set(GRADER_IDS) <= set(CATALOGUE), set(GRADER_IDS) - set(CATALOGUE)
    areas = {"judge", "checks", "linear", "relu", "loss", "sgd", "gate", "probe", "worker", "cause", "note"}
    areas |= {"report", "feedback", "points", "kernel"}  # the report, the feedback, the points tables, the kernel notes
    areas |= {"expected_got"}  # whole sentences for the cases of a frame (the gate's: ``nn_messages.case``)
    areas |= {"watch"}  # the notes `python -m autograder watch` releases to a student
    assert all(i.split(".")[0] in areas for i in GRADER_IDS), {i for i in GRADER_IDS if i.split(".")[0] not in areas}


@pytest.mark.parametrize("message_id", sorted(CATALOGUE))
def test_every_message_renders_in_every_language_with_the_same_fields(message_id: str) -> None:
    """In a language without a wording of its own the English one (``tests/test_wordings.py``), never nothing."""
    declared = CATALOGUE[message_id]
    fields = _fields(declared.template("en"))
    for language in LANGUAGES:
        template = declared.template(language)
        assert template.strip(), f"{message_id} renders empty in {language}"
        assert _fields(template) == fields, (message_id, language, template)
        rendered = render(Text(message_id, {name: f"<{name}>" for name in fields}), language)
        assert all(f"<{name}>" in rendered for name in fields), (message_id, language, rendered)


@pytest.mark.parametrize("message_id", GRADER_IDS)
def test_every_grader_message_is_written_in_chinese(message_id: str) -> None:
    """A wording with English words in it has Chinese ones too (a template of fields and code alone needs none)."""
    declared = CATALOGUE[message_id]
    words = "".join(part for part, _, _, _ in string.Formatter().parse(declared.en))
    if any(word.isalpha() and word.islower() and len(word) > 2 for word in words.split()):
        assert any("\u4e00" <= c <= "\u9fff" for c in declared.template("zh")), (message_id, declared.template("zh"))


def test_every_id_is_declared_once_with_its_english() -> None:
    """The ids declared in code and the English wordings file's are one set, each id declared once: ``declared``
    names a second declaration, a declaration without English, and English declared by no code."""
    from autograder.cli import wordings

    assert {d.id for d in wordings.declared()} == set(wordings.read_wordings("en")) >= set(CATALOGUE)
    for path in DECLARING:
        ids = _declared_ids(path)
        assert len(ids) == len(set(ids)), f"{path.name} declares {sorted({i for i in ids if ids.count(i) > 1})} twice"
    assert message("expected_got") is CATALOGUE["expected_got"]  # the same declaration again (a module reloaded)
    for declare in (message, nn_messages.text, nn_messages.cause, nn_messages.formula):
        with pytest.raises(TypeError, match="a text id"):
            declare(np.zeros(2))  # nothing but a text is an id: no array (a call by mistake) joins the catalogue


@pytest.mark.parametrize(
    "code, said",
    [
        ('message("expected_got")\n', "'expected_got' is declared in source/mlp/nn_messages.py too"),
        ('message("never.worded")\n', "'never.worded' is not in i18n/messages.en.toml"),
        ("", None),  # the catalogue's own file left out: its English is declared by no code
    ],
)
def test_the_catalogue_and_its_english_must_agree(
    tmp_path: Path, monkeypatch: Any, code: str, said: str | None
) -> None:
    from autograder.cli import wordings

    extra = tmp_path / "extra.py"
    extra.write_text(code)
    kept = wordings.DECLARING if code else wordings.DECLARING[:-1]
    monkeypatch.setattr(wordings, "DECLARING", (*kept, extra))
    with pytest.raises(wordings.WordingsError) as raised:
        wordings.declared()
    assert said in str(raised.value) if said else "is declared by no code" in str(raised.value)


# ---------------------------------------------------------------- no failure built from words


def _is_words(node: ast.expr) -> bool:
    """An expression that builds text outside the catalogue: a literal string, an f-string, a concatenation or
    %-formatting of strings, or a method of a string (``"...".format``, ``", ".join``)."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp):
        return _is_words(node.left) or _is_words(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return isinstance(node.func.value, (ast.Constant, ast.JoinedStr)) and _is_words(node.func.value)
    return False


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


FAILURES = {"CheckFailed", "Failure", "CheckTimeout"}
"""Calls whose every argument must be data: a ``Text``, a ``Failure``, or a variable holding one."""
TEXT_KEYWORDS = {"cause", "formula", "expected", "got", "accepted"}
"""Keywords that take a ``Text`` (a cause, a formula, what was expected or came), never code."""
FAIL_TEXTS = (1, 2, 3)
"""Positions of ``nn_checks.fail(what, expected, got, cause)`` that are words, never code."""


def _built_from_words(source: str, filename: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name, where = _name(node), f"{filename}:{node.lineno}"
        if name == "AssertionError":
            found.append(f"{where}: AssertionError(...) (raise CheckFailed(Failure(...)))")
        arguments: list[ast.expr] = []
        if name in FAILURES:
            arguments = [*node.args, *(k.value for k in node.keywords)]
        elif name == "fail":
            arguments = [a for i, a in enumerate(node.args) if i in FAIL_TEXTS]
        arguments += [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS]
        found += [f"{where}: {name}(... {ast.unparse(a)[:60]} ...)" for a in arguments if _is_words(a)]
    return found


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: str(p.relative_to(REPO)))
def test_no_judge_or_probe_builds_a_failure_from_words(path: Path) -> None:
    found = _built_from_words(path.read_text(), str(path.relative_to(REPO)))
    assert not found, "build these from messages (autograder/messages.py, autograder/probe/messages.py):\n" + "\n".join(
        found
    )


@pytest.mark.parametrize(
    "path", [p for p in CHECKED if p.parent.name != "grading"], ids=lambda p: str(p.relative_to(REPO))
)
def test_no_judge_or_probe_keeps_a_sentence_of_its_own(path: Path) -> None:
    """Causes and labels were module constants in English; now they are declared messages (``Text``)."""
    sentences = [
        f"line {node.lineno}: {ast.unparse(node)[:80]}"
        for node in ast.parse(path.read_text()).body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        and node.value is not None
        and _is_words(node.value)
        and " " in ast.unparse(node.value)
    ]
    assert not sentences, sentences


def test_the_scan_finds_words() -> None:
    """The scan above is not vacuous: each way of building words is caught."""
    for code in (
        'raise CheckFailed(Failure(f"{what}: expected"))',
        'raise CheckFailed(Failure(what + ": stopped"))',
        'raise AssertionError("no")',
        'fail(what, "an array", got)',
        'x.check(what, a, e, cause="a {} cause".format(1))',
        'Failure(message, ", ".join(causes))',
    ):
        assert _built_from_words(code, "<snippet>"), code
    assert not _built_from_words('fail("MLP(784, 256, 10)", SHAPE(shape=s), got, CAUSE)', "<snippet>")
    assert not _built_from_words('raise CheckFailed(Failure(STOPPED(what=f"Linear({n}, {m})")))', "<snippet>")


# ---------------------------------------------------------------- judging: failures as data, causes as fields


def _failure(call: Any) -> Failure:
    with pytest.raises(CheckFailed) as failed:
        call()
    return failed.value.failure


def test_a_raised_error_keeps_its_cause_and_formula_as_fields() -> None:
    record = {"y": {"raised": "IndexError", "kinds": ["IndexError"], "message": "out of range", "line": None}}
    cause = autograder.messages.LOSS_TARGET_AXIS
    failure = _failure(lambda: got(record, "y", "Linear.forward", nn_diagnosis.LINEAR_FORWARD.formula, cause=cause))
    assert failure.cause == cause and failure.formula == nn_diagnosis.LINEAR_FORWARD.formula
    assert str(failure).startswith("Linear.forward raised IndexError: out of range\n  Likely cause: the targets")
    stopped = _failure(lambda: got({}, "y", "Linear.forward"))
    assert str(stopped) == "Linear.forward: the check stopped before this step." and stopped.cause is None


def test_judge_cases_fails_with_the_first_failure_that_names_a_cause() -> None:
    def one(case: dict[str, Any], record: dict[str, Any]) -> None:
        cause = autograder.messages.GATE_DIVERGED if case["named"] else None
        raise CheckFailed(Failure(autograder.messages.STOPPED(what=case["name"]), cause))

    cases = [{"name": "first", "named": False}, {"name": "second", "named": True}, {"name": "third", "named": True}]
    assert _failure(lambda: judge_cases(cases, [{}, {}, {}], one)).message.fields["what"] == "second"
    assert _failure(lambda: judge_cases(cases[:1], [{}], one)).message.fields["what"] == "first"


def test_student_code_that_catches_every_exception_cannot_catch_its_time_limit() -> None:
    """A retry loop's ``except Exception`` (the student's) does not swallow the check's CPU limit: the check stops at
    its limit, not at the worker's CPU budget, minutes later."""
    import time

    def retries() -> None:
        until = time.process_time() + 2
        while time.process_time() < until:
            try:
                sum(range(1000))
            except Exception:  # noqa: BLE001, S110 - the student's
                pass

    with pytest.raises(CheckTimeout):
        with time_limit("Linear.forward", 0.05):
            retries()


def test_a_probe_timeout_is_recorded_as_data_and_judged_the_same() -> None:
    with pytest.raises(CheckTimeout) as stopped:
        with time_limit("Linear.forward", 0.05):
            while True:
                pass
    failure = stopped.value.failure
    assert failure.cause == autograder.probe.messages.ENDLESS_LOOP
    english = str(stopped.value)
    assert english.startswith("Linear.forward: expected to finish within 0.05 s of CPU time, but it was still running.")
    assert english.endswith(
        "  Likely cause: an endless loop, or a Python loop over every element instead of array operations."
    )
    # through the worker's record format, read as the grader reads it
    recorded = decode_record(*encode({"stopped": failure.to_data()}), Path("stopped"))
    judged = _failure(lambda: judge("linear_forward", {}, WorkerOutcome.from_record(recorded)))
    assert judged == failure and judged.render("zh") != english
    assert json.loads(json.dumps(failure.to_data())) == failure.to_data()


@pytest.mark.parametrize(
    "forged",
    [
        {"message": {"id": "no.such.message", "fields": {}}},
        {"message": {"id": "probe.cpu_time", "fields": {"what": "x"}}},  # a field missing
        {"message": {"id": "probe.cpu_time", "fields": {"what": "x", "seconds": "1", "more": "y"}}},
        {"message": {"id": "probe.cpu_time", "fields": {"what": ["x"], "seconds": "1"}}},
        {"message": {"id": "probe.cpu_time", "fields": {"what": "x", "seconds": "1"}}, "extra": 1},
        {"cause": None},
        ["not", "a", "failure"],
    ],
)
def test_a_forged_recorded_failure_is_refused_not_rendered(forged: Any) -> None:
    """A worker runs student code: a failure it records that is not a declared message with its fields is refused
    (``ValueError``: the grading code charges the record as spoiled), never rendered with a KeyError."""
    with pytest.raises(ValueError):
        recorded_failure(forged)
    with pytest.raises(ValueError):
        WorkerOutcome.from_record({"stopped": forged})


def test_a_missing_class_names_the_cells_that_raised_as_its_cause() -> None:
    errors = {
        "linear": {"raised": "NameError", "message": "name 'np2' is not defined"},
        "relu": {"raised": "ValueError", "message": "boom"},
    }
    failure = _failure(
        lambda: judge(
            "linear_forward", {}, WorkerOutcome.from_record({"missing_class": "Linear", "cell_errors": errors})
        )
    )
    assert str(failure) == (
        "Linear: expected the class from its answer cell, but it is not defined.\n"
        "  Likely cause: the cell defining Linear raised NameError: name 'np2' is not defined; "
        "the cell defining ReLU raised ValueError: boom."
    )
    assert failure.render("zh").startswith("Linear：这个类应由它的答案单元格定义")
    deleted = _failure(lambda: judge("linear_forward", {}, WorkerOutcome.from_record({"missing_class": "Linear"})))
    assert deleted.cause == autograder.messages.CELL_DELETED


def test_the_gate_note_is_a_text() -> None:
    note = autograder.messages.GATE_PASSED(accuracy="97.05%", seconds="1.0", times="1.5", required="97%")
    assert str(note) == (
        "MNIST: 97.05% test accuracy after 1.0 s of CPU time, 1.5 times the grader's own NumPy training (required 97%)."
    )
    assert note.render("zh").startswith("MNIST：训练用了 1.0 秒 CPU 时间")
    assert Text.from_data(json.loads(json.dumps(note.to_data()))) == note


def test_loading_the_graders_catalogue_loads_every_message_a_verdict_can_name() -> None:
    """The feedback and the report import ``autograder.messages`` only: the probe's messages come with it, into the
    grader's own catalogue."""
    import subprocess
    import sys

    code = (
        "import sys, autograder.messages; from autograder.course import nn_messages; "
        "print(sorted(i for i in nn_messages.CATALOGUE if i.startswith('probe.')), "
        "[m for m in sys.modules if (m.startswith('nn_') or m == 'mnist_data') "
        "and sys.modules[m] is not sys.modules.get('autograder.course.' + m)])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert "probe.cpu_time" in done.stdout, done.stdout + done.stderr
    assert done.stdout.strip().endswith("[]"), done.stdout  # a bare name is the grader's module, no student's copy


@pytest.mark.parametrize("declared", [(0.2, "a rate"), ("an.id", ["a", "list"])], ids=["number-id", "list-wording"])
def test_a_message_is_declared_with_a_text_id_and_wording_only(declared: tuple[Any, Any]) -> None:
    """A helper called with whatever arrays are at hand (the helpers' fuzz tests) declares nothing in the catalogue."""
    before = dict(CATALOGUE)
    with pytest.raises(TypeError):
        message(*declared)
    assert CATALOGUE == before
