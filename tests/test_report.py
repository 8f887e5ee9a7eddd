"""The class report on synthetic graded courses (``tests/report_course.py``): what it collects, counts and writes.

Fast tier: no nbgrader run, no sandbox; one gradebook per course, made in-process. The browser's view of the report
is ``tests/test_report_browser.py`` (slow tier).
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import registry
from autograder.course.nn_messages import Text
from autograder.faults import Fault
from autograder.report.aggregate import GATE_CHECK, rare_groups, summarize
from autograder.report.build import write_report
from autograder.report.catalogue import edition_language, load_catalogue
from autograder.report.collect import collect, fault_record
from autograder.report.render_html import FOLD_AFTER
from autograder.report.similarity import SimilaritySettings, similar_pairs
from report_course import ReportCourse, all_passed, text, verdict

DW = "cause.linear.dw_transposed"
RARE = "cause.relu.mask_at_zero"
# A Linear written unusually (the given stub is `forward` raising NotImplementedError): what two students copied.
ODD_LINEAR = """class Linear(Module):
    def forward(self, x):
        self.ctx["x"] = x
        acc = np.zeros((x.shape[0], self.W.shape[1]))
        for row in range(x.shape[0]):
            acc[row] = np.einsum("i,ij->j", x[row], self.W) + self.b
        return acc

    def backward(self, grad):
        x = self.ctx["x"]
        self.W.grad = np.einsum("bi,bj->ij", x, grad)
        self.b.grad = np.add.reduce(grad, axis=0)
        return np.einsum("bj,ij->bi", grad, self.W)
"""


def _with(*changes: dict) -> list[dict]:
    verdicts = {v["check"]: v for v in all_passed()}
    verdicts.update({v["check"]: v for v in changes})
    return list(verdicts.values())


def _expected_got(check: str, got: str) -> dict:
    return text("expected_got", what=check, expected="shape (4, 2)", got=got)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twenty students: most pass; named causes, unexplained failures, a copied pair sharing a rare mistake, the
    gate's numbers, students left ungraded for each reason."""
    c = ReportCourse(tmp_path_factory.mktemp("report") / "course")
    for i in range(12):
        c.add(f"s{i:02}", all_passed(accuracy=0.97 + i / 1000, times=1 + i / 10), {"linear": f"x{i} = {i}\n"})
    c.add("alice", all_passed(), name=("Alice", "Adams"))
    c.add("carol", _with(verdict("linear_backward_dw", False, DW)), name=("Carol", "Clark"))
    c.add("dora", _with(verdict("linear_backward_dw", False, DW)), feedback=False)
    copied = {"linear": ODD_LINEAR}
    c.add("pat", _with(verdict("relu_backward", False, RARE)), copied)
    c.add("quin", _with(verdict("relu_backward", False, RARE)), {"linear": ODD_LINEAR.replace("acc", "total")})
    c.add("rex", _with(verdict("linear_forward", False, message=_expected_got("linear_forward", "shape (2, 4)"))))
    c.add("sam", _with(verdict("linear_forward", False, message=_expected_got("linear_forward", "shape (2, 4)"))))
    c.add("tia", _with(verdict("linear_forward", False, message=_expected_got("linear_forward", "None"))))
    raised = text("raised", what="Linear.forward", exception="ValueError", message="shapes (4,3) and (2,3)")
    c.add("uma", _with(verdict("linear_forward", False, message=raised)))
    slow = {"accuracy": 0.981, "times_reference": 40.0}
    c.add("vic", _with(verdict(GATE_CHECK, False, "cause.gate.slow", numbers=slow)))
    c.leave_ungraded("erin", Fault("stopped", "the grading of this submission was stopped after 900 s"))
    c.leave_ungraded("fay", None)
    c.add("gus")  # handed in, never graded
    return c.root


@pytest.fixture(scope="module")
def report(graded: Path) -> Path:
    html, _, _ = write_report(graded, "mlp")
    return html


def test_collect_reads_scores_from_the_gradebook_and_verdicts_from_the_notebooks(graded: Path) -> None:
    data = collect(graded, "mlp")
    students = {s.id: s for s in data.students}
    assert data.notebooks == ["mlp"]
    assert students["alice"].graded and students["alice"].score == 100 and students["alice"].name == "Alice Adams"
    dw_points = registry.check("linear_backward_dw").points
    assert students["carol"].score == 100 - dw_points  # she loses linear_backward_dw, as the gradebook has it
    assert [v.check for v in students["carol"].failed()] == ["linear_backward_dw"]
    dw = students["carol"].verdicts["linear_backward_dw"]  # the grader's Verdict, its test cell's points beside it
    assert dw.failure is not None and dw.failure.cause == Text(DW) and students["carol"].points[dw.check] == dw_points
    assert students["vic"].verdicts[GATE_CHECK].numbers == {"accuracy": 0.981, "times_reference": 40.0}
    assert students["carol"].feedback == graded / "feedback" / "carol" / "mlp" / "mlp.html"
    assert students["dora"].feedback is None
    assert [c.name for c in data.checks][0] == "linear_forward" and data.checks[-1].name == GATE_CHECK


def test_a_score_is_the_gradebooks_not_a_sum_of_verdicts(tmp_path: Path) -> None:
    from autograder.plugins.canvas import CanvasExportPlugin

    c = ReportCourse(tmp_path / "course")
    c.add("alice", all_passed())
    with c.gradebook() as gradebook:  # a grader's manual change and a late penalty: the report follows the gradebook
        gradebook.find_grade("test_linear_forward", "mlp", "mlp", "alice").manual_score = 3.0
        gradebook.find_submission_notebook("mlp", "mlp", "alice").late_submission_penalty = 10.0
        gradebook.db.commit()
        CanvasExportPlugin(to=str(tmp_path / "canvas.csv")).export(gradebook)
    assert collect(c.root, "mlp").students[0].score == 85
    assert (tmp_path / "canvas.csv").read_text().splitlines()[2].endswith(",85")


def test_the_class_scores_are_nbgraders_own_totals(graded: Path) -> None:
    from nbgrader.api import Gradebook

    from autograder.report.collect import class_scores

    with Gradebook(f"sqlite:///{graded / 'gradebook.db'}", "report-course") as gradebook:
        nbgraders = {row["student"]: row["score"] for row in gradebook.submission_dicts("mlp")}
        assert {student: score for student, (_, _, score) in class_scores(gradebook, "mlp").items()} == nbgraders


def test_ungraded_submissions_say_why_from_the_grade_commands_record(graded: Path) -> None:
    students = {s.id: s for s in collect(graded, "mlp").students}
    assert not students["erin"].graded and students["erin"].fault.kind == "stopped"
    assert students["erin"].why_ungraded.startswith("stopped: the grading of this submission was stopped after 900 s")
    assert "cannot help" in students["erin"].why_ungraded
    assert "left no record" in students["fay"].why_ungraded and str(students["fay"].log) in students["fay"].why_ungraded
    assert students["gus"].why_ungraded.startswith("not graded yet")


def test_the_fault_record_read_is_the_one_the_grade_command_writes(tmp_path: Path) -> None:
    from autograder.grading.autograde import log_path, record_path
    from autograder.settings import CoursePaths, load_course_config

    paths = CoursePaths(load_course_config(ReportCourse(tmp_path / "course").root))
    assert fault_record(paths, "a.student") == (log_path(paths, "a.student"), record_path(paths, "a.student"))


def test_causes_are_counted_by_id_with_their_students(graded: Path) -> None:
    data = collect(graded, "mlp")
    summary = summarize(data, load_catalogue(data.release))
    dw = summary.causes["linear_backward_dw"]
    assert [(g.id, g.students) for g in dw] == [(DW, ["carol", "dora"])]
    assert dw[0].text == "dW = Gᵀ X: the product is transposed"  # its words, from the catalogue, in English
    check = {c.info.name: c for c in summary.checks}["linear_backward_dw"]
    assert (check.judged, check.passed, check.explained) == (len(data.graded()), len(data.graded()) - 2, 2)


def test_unexplained_failures_are_grouped_by_message_and_what_came(graded: Path) -> None:
    data = collect(graded, "mlp")
    groups = summarize(data, load_catalogue(data.release)).unexplained["linear_forward"]
    assert [(g.id, g.got, g.students) for g in groups] == [
        ("expected_got", '"shape (2, 4)"', ["rex", "sam"]),
        ("expected_got", '"None"', ["tia"]),
        ("raised", "", ["uma"]),
    ]
    assert groups[0].text == "linear_forward: expected shape (4, 2), got shape (2, 4)."


def test_the_gate_distributions_come_from_the_gate_verdicts_numbers(graded: Path) -> None:
    data = collect(graded, "mlp")
    summary = summarize(data, load_catalogue(data.release))
    assert summary.accuracy.n == summary.times_reference.n == len(data.graded())
    assert max(summary.times_reference.values) == 40.0
    assert summary.accuracy.stats()["min"] == pytest.approx(0.97)


def test_the_report_is_in_the_editions_language(tmp_path: Path) -> None:
    c = ReportCourse(tmp_path / "course", language="zh")
    c.add("carol", _with(verdict("linear_backward_dw", False, DW)))
    assert edition_language(c.release) == "zh"
    html, summary, _ = write_report(c.root, "mlp", similar=False)
    assert summary.causes["linear_backward_dw"][0].text == "dW = Gᵀ X：乘积的顺序反了（结果被转置）"
    page = html.read_text()
    assert '<html lang="zh">' in page and "班级报告" in page and "乘积的顺序反了" in page


def test_similar_answers_are_leads_with_the_rare_mistakes_they_share(graded: Path, report: Path) -> None:
    pairs = json.loads((report.parent / "report.json").read_text())["similar"]["pairs"]
    assert [(p["first"], p["second"]) for p in pairs] == [("pat", "quin")]
    assert pairs[0]["shared_rare"] == [f"relu_backward|cause|{RARE}|"]
    page = report.read_text()
    assert "a lead for a person to look at, not a finding of copying" in page


def test_methods_not_written_yet_are_listed_apart_from_the_residue(tmp_path: Path) -> None:
    def unwritten(check: str, method: str) -> dict:
        return verdict(check, False, message=text("not_written", what=f"{check}: forward(x)", method=method))

    c = ReportCourse(tmp_path / "course")
    c.add("bob", _with(unwritten("linear_forward", "Linear.forward"), unwritten("relu_forward", "ReLU.forward")))
    c.add("ned", _with(unwritten("linear_forward", "Linear.forward")))
    raised = text("raised", what="Linear.forward", exception="ValueError", message="shapes (4,3) and (2,3)")
    c.add("uma", _with(verdict("linear_forward", False, message=raised)))
    html, summary, _ = write_report(c.root, "mlp", similar=False)
    assert [(g.check, g.text, g.students) for gs in summary.not_written.values() for g in gs] == [
        ("linear_forward", "Linear.forward", ["bob", "ned"]),
        ("relu_forward", "ReLU.forward", ["bob"]),
    ]
    assert [g.id for g in summary.unexplained["linear_forward"]] == ["raised"]  # the residue: what no cause explains
    assert "relu_forward" not in summary.unexplained
    check = {c.info.name: c for c in summary.checks}["linear_forward"]
    assert (check.failed, check.not_written, check.unexplained) == (3, 2, 1)
    assert not any(g.kind == "not_written" for g in rare_groups(summary, share=0.0, at_most=5).values())
    page = html.read_text()
    written = page.index('<section id="not_written"><h2>Methods not written yet</h2>')
    assert page.index('<section id="unexplained">') < written and "<code>ReLU.forward</code>" in page[written:]
    with (html.parent / "checks.csv").open(encoding="utf-8-sig") as f:
        row = next(r for r in csv.DictReader(f) if r["check"] == "linear_forward")
    assert (row["not_written"], row["without_cause"]) == ("2", "1")


def test_given_and_common_code_is_not_evidence() -> None:
    given = "class Linear(Module):\n    def forward(self, x):\n        raise NotImplementedError()\n"
    canonical = "class Linear(Module):\n    def forward(self, x):\n        return x @ self.W + self.b\n" * 3
    answers = {f"s{i}": canonical for i in range(12)} | {"given1": given, "given2": given}
    found = similar_pairs(answers, given, SimilaritySettings(common_at_least=10))
    assert found.pairs == [] and found.common > 0
    assert similar_pairs({"a": canonical, "b": canonical}, given).pairs  # two alone are alike


def test_rare_mistakes_are_those_few_students_made(graded: Path) -> None:
    data = collect(graded, "mlp")
    rare = rare_groups(summarize(data, load_catalogue(data.release)), share=0.0, at_most=1)
    assert {g.id for g in rare.values()} == {"expected_got", "raised", "cause.gate.slow"}


def test_the_html_is_self_contained_and_links_each_student_to_their_feedback(report: Path) -> None:
    page = report.read_text()
    assert "<script" not in page.lower() and "@import" not in page
    fetched = re.findall(r'(?:src|href)="([^"#][^"]*)"', page)
    assert fetched and all(link.startswith("../../feedback/") for link in fetched), fetched
    assert all((report.parent / link).is_file() for link in fetched)
    assert page.count("<svg") == 4  # scores, pass rates, the gate's accuracy and speed
    assert '<a href="../../feedback/carol/mlp/mlp.html">carol</a>' in page
    assert "<span>dora</span>" in page  # no feedback, no link
    assert page.count('<tr><td class="students">') >= 23  # every student has a row (and the ungraded theirs)


def test_long_lists_of_students_are_folded(tmp_path: Path) -> None:
    c = ReportCourse(tmp_path / "course")
    for i in range(FOLD_AFTER + 1):
        c.add(f"s{i:02}", _with(verdict("linear_backward_dw", False, DW)))
    html, _, _ = write_report(c.root, "mlp", similar=False)
    assert f"<details><summary>{FOLD_AFTER + 1} students</summary>" in html.read_text()


def test_the_tables_hold_the_same_data(report: Path) -> None:
    folder = report.parent

    def rows(name: str) -> list[dict[str, str]]:
        with (folder / name).open(encoding="utf-8-sig") as f:
            return list(csv.DictReader(f))

    students = {r["student"]: r for r in rows("students.csv")}
    assert students["carol"]["score"] == "94.0" and students["carol"]["causes"] == DW
    assert students["carol"]["feedback"] == "feedback/carol/mlp/mlp.html"
    assert students["erin"]["graded"] == "False" and students["erin"]["why_ungraded"].startswith("stopped:")
    checks = {r["check"]: r for r in rows("checks.csv")}
    assert checks["linear_forward"]["failed"] == "4" and checks["linear_forward"]["without_cause"] == "4"
    causes = [r for r in rows("causes.csv") if r["id"] == DW]
    assert causes == [
        {
            "check": "linear_backward_dw",
            "kind": "cause",
            "id": DW,
            "got": "",
            "text": "dW = Gᵀ X: the product is transposed",
            "count": "2",
            "students": "carol;dora",
        }
    ]
    assert rows("similar.csv")[0]["first"] == "pat"
    data = json.loads((folder / "report.json").read_text())
    assert data["counts"] == {"submitted": 25, "graded": 22, "ungraded": 3}
    assert data["gate"]["check"] == GATE_CHECK and len(data["gate"]["accuracy"]["values"]) == 22


def test_the_command_writes_the_report_of_the_course_it_runs_in(
    graded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from autograder.__main__ import main

    monkeypatch.chdir(graded)
    assert main(["report", "mlp", "--no-similar", "--out", "elsewhere"]) == 0
    assert (graded / "elsewhere" / "report.html").is_file() and (graded / "elsewhere" / "causes.csv").is_file()
    assert "Not looked for (--no-similar)." in (graded / "elsewhere" / "report.html").read_text()
    assert "25 submission(s), 22 graded" in capsys.readouterr().out


def test_a_grading_run_ends_with_the_class_report_and_the_causes_named_most_often(graded: Path) -> None:
    import io

    from autograder.grading.class_run import ClassRun, report
    from autograder.settings import CoursePaths, load_course_config

    paths = CoursePaths(load_course_config(graded))
    run = ClassRun(paths, "mlp", lambda student: None, 1, 0, io.StringIO())  # type: ignore[arg-type,return-value]
    run.results = {"alice": True}
    (graded / "reports" / "mlp" / "report.html").unlink(missing_ok=True)
    terminal = io.StringIO()
    report(run, paths, "mlp", terminal)
    out = terminal.getvalue()
    assert (graded / "reports" / "mlp" / "report.html").is_file()
    assert "Scores of the 22 graded submission(s)" in out
    assert "Named causes seen most often (students, checks):\n  2  dW = Gᵀ X: the product is transposed" in out
    assert f"Class report: {graded / 'reports' / 'mlp' / 'report.html'}" in out


def test_a_report_that_fails_stops_no_grading_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from autograder.report.build import report_after_grading

    report_after_grading(tmp_path / "no-course", "mlp")
    assert capsys.readouterr().out.startswith("(No class report: ")


def test_similar_pairs_are_the_same_in_every_process() -> None:
    """copydetect hashes k-grams with Python's ``hash``, which each process seeds its own way (PYTHONHASHSEED):
    winnowing would keep other k-grams and a borderline pair come and go. The report's own hash is the same in every
    process."""
    script = f"""
import json
from autograder.report.similarity import SimilaritySettings, fingerprints, normalised, similar_pairs
odd = {ODD_LINEAR!r}
answers = {{
    "pat": odd,
    "quin": odd.replace("acc", "total").replace("np.add.reduce(grad, axis=0)", "grad.sum(axis=0)"),
    "rex": odd.replace("for row in range(x.shape[0]):", "for i, row in enumerate(x):"),
    "sam": "class Linear(Module):\\n    def forward(self, x):\\n        return x @ self.W + self.b\\n",
}}
pairs = similar_pairs(answers, "", SimilaritySettings(threshold=0.3, min_tokens=10)).pairs
print(json.dumps([hash("a k-gram"), sorted(fingerprints(normalised(odd), 25, 6)[0]), [vars(p) for p in pairs]]))
"""
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0][0] != runs[1][0]  # Python's own hash differs between the two processes ...
    assert runs[0][1:] == runs[1][1:] and runs[0][1] and len(runs[0][2]) >= 2  # ... the fingerprints and pairs do not
