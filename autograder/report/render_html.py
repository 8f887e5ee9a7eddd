"""The class report as one self-contained HTML file: inline CSS and SVG, no script, nothing fetched.

Long lists of students fold into ``<details>``; the per-student table is a plain table, so a class of thousands stays
usable. Every student is linked to their feedback HTML when it exists. The catalogue's words (causes, messages) are in
the edition's language; the report's own headings in English, or in Chinese for the Chinese edition (``WORDS``).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from autograder.report import plots
from autograder.report.aggregate import GATE_CHECK, CheckSummary, ClassSummary, Group
from autograder.report.collect import Student
from autograder.report.similarity import Similarity

FOLD_AFTER = 12
"""A list of more students than this is folded (``<details>``)."""
PAIRS_SHOWN = 200
"""Similar pairs listed in the HTML (all of them are in the CSV and JSON)."""

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Class report",
        "scores": "Scores",
        "checks": "Checks",
        "causes": "Named causes",
        "unexplained": "Failures with no named cause",
        "not_written": "Methods not written yet",
        "gate": "The MNIST gate",
        "similar": "Similar submissions (leads)",
        "ungraded": "Ungraded submissions",
        "students": "Students",
        "student": "student",
        "students_n": "students",
        "name": "name",
        "score": "score",
        "check": "check",
        "points": "points",
        "pass_rate": "pass rate",
        "passed": "passed",
        "failed": "failed",
        "explained": "with a named cause",
        "unwritten": "not written yet",
        "methods": "methods",
        "no_verdict": "no verdict",
        "cause": "cause",
        "count": "count",
        "message": "message",
        "got": "what came",
        "failed_checks": "failed checks",
        "why": "why",
        "pair": "pair",
        "alike": "alike",
        "shared": "rare mistakes both made",
        "accuracy": "test accuracy (%)",
        "speed": "step time / grader's NumPy step",
        "none": "None.",
        "submissions": "submissions",
        "graded": "graded",
        "not_graded": "not graded",
        "generated": "generated",
        "median": "median",
        "mean": "mean",
        "lowest": "lowest",
        "highest": "highest",
        "earlier_grade": "an earlier grade stands; the last regrade failed",
        "lead": (
            "Pairs whose answer cells are near-identical once the release's given code, and code more than {common} "
            "students wrote alike, are set aside. This is a lead for a person to look at, not a finding of copying: "
            "similar code has innocent causes (a study group, the same tutorial, an answer with one natural form). "
            "Rare mistakes both made are listed as further evidence."
        ),
        "more_pairs": "{shown} of {total} pairs shown; every pair is in similar.csv.",
        "residue": (
            "Failed checks the catalogue names no cause for, grouped by what came: what the catalogue does not "
            "explain yet."
        ),
        "not_written_note": (
            "Failed checks whose method still raises NotImplementedError: not written yet, not a mistake for the "
            "catalogue to explain."
        ),
        "rate_axis": "students passing (%)",
        "not_searched": "Not looked for (--no-similar).",
    },
    "zh": {
        "title": "班级报告",
        "scores": "分数",
        "checks": "检查",
        "causes": "已命名的原因",
        "unexplained": "未命名原因的失败",
        "not_written": "尚未实现的方法",
        "gate": "MNIST 门槛",
        "similar": "相似的提交（线索）",
        "ungraded": "未评分的提交",
        "students": "学生",
        "student": "学生",
        "students_n": "名学生",
        "name": "姓名",
        "score": "分数",
        "check": "检查",
        "points": "分值",
        "pass_rate": "通过率",
        "passed": "通过",
        "failed": "未通过",
        "explained": "有命名原因",
        "unwritten": "尚未实现",
        "methods": "方法",
        "no_verdict": "无判定",
        "cause": "原因",
        "count": "人数",
        "message": "信息",
        "got": "实际得到",
        "failed_checks": "未通过的检查",
        "why": "原因",
        "pair": "学生对",
        "alike": "相似度",
        "shared": "两人都犯的罕见错误",
        "accuracy": "测试准确率 (%)",
        "speed": "每步耗时 / 评分程序 NumPy 每步耗时",
        "none": "无。",
        "submissions": "份提交",
        "graded": "已评分",
        "not_graded": "未评分",
        "generated": "生成于",
        "median": "中位数",
        "mean": "平均",
        "lowest": "最低",
        "highest": "最高",
        "earlier_grade": "之前的分数仍然有效；最近一次重新评分失败",
        "lead": (
            "去掉发布版本中给定的代码，以及超过 {common} 名学生写法相同的代码之后，答案单元格几乎相同的学生对。"
            "这只是需要人来查看的线索，而不是抄袭的结论：相似的代码可能有正当的原因（学习小组、同一个教程、"
            "只有一种自然写法的答案）。两人都犯的罕见错误作为进一步的证据列出。"
        ),
        "more_pairs": "显示了 {total} 对中的 {shown} 对；所有的学生对都在 similar.csv 中。",
        "residue": "目录中没有命名原因的失败，按实际得到的结果分组：目录尚未解释的部分。",
        "not_written_note": "方法仍然抛出 NotImplementedError 的未通过检查：尚未实现，不是需要目录解释的错误。",
        "rate_axis": "通过的学生 (%)",
        "not_searched": "未查找（--no-similar）。",
    },
}

CSS = """
body { font-family: -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
  margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #1a1a1a; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #3b6ea5; padding-bottom: 0.15em; margin-top: 1.6em; }
nav a { margin-right: 1em; } .meta { color: #555; }
table { border-collapse: collapse; margin: 0.5em 0 1em; } th, td { border: 1px solid #ccd; padding: 0.25em 0.5em;
  text-align: left; vertical-align: top; } th { background: #eef2f7; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: 0.92em; }
.bar { display: inline-block; height: 0.8em; background: #3b6ea5; vertical-align: middle; }
.lead { background: #fff8e1; border-left: 5px solid #f0b400; padding: 0.5em 0.8em; }
svg.chart { display: block; max-width: 100%; height: auto; margin: 0.5em 0; }
details summary { cursor: pointer; color: #3b6ea5; } .students a, .students span { margin-right: 0.6em; }
.message { white-space: pre-wrap; font-family: monospace; font-size: 0.92em; }
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="{{ language }}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ w.title }}: {{ assignment }}</title>
<style>{{ css }}</style>
</head>
<body>
<h1>{{ w.title }}: {{ assignment }}</h1>
<p class="meta">{{ course }} · {{ w.generated }} {{ generated }} · {{ counts.submitted }} {{ w.submissions }}:
{{ counts.graded }} {{ w.graded }}, {{ counts.ungraded }} {{ w.not_graded }}</p>
<nav>{% for id, title in sections %}<a href="#{{ id }}">{{ title }}</a>{% endfor %}</nav>

<section id="scores"><h2>{{ w.scores }}</h2>
{% if scores %}<table><tr>{% for k, v in scores %}<th>{{ k }}</th>{% endfor %}</tr>
<tr>{% for k, v in scores %}<td class="num">{{ v }}</td>{% endfor %}</tr></table>{{ score_chart }}
{% else %}<p>{{ w.none }}</p>{% endif %}</section>

<section id="checks"><h2>{{ w.checks }}</h2>{{ rate_chart }}
<table><tr><th>{{ w.check }}</th><th>{{ w.points }}</th><th>{{ w.pass_rate }}</th><th>{{ w.passed }}</th>
<th>{{ w.failed }}</th><th>{{ w.explained }}</th><th>{{ w.unwritten }}</th><th>{{ w.no_verdict }}</th></tr>
{% for c in checks %}<tr><td>{% if c.anchor %}<a href="#{{ c.anchor }}"><code>{{ c.name }}</code></a>
{% else %}<code>{{ c.name }}</code>{% endif %} {{ c.title }}</td>
<td class="num">{{ c.points }}</td><td class="num">{{ c.rate }}
<span class="bar" style="width: {{ c.width }}em"></span></td><td class="num">{{ c.passed }}</td>
<td class="num">{{ c.failed }}</td><td class="num">{{ c.explained }}</td><td class="num">{{ c.not_written }}</td>
<td class="num">{{ c.no_verdict }}</td></tr>
{% endfor %}</table></section>

<section id="causes"><h2>{{ w.causes }}</h2>
{% for check in causes %}<h3 id="causes-{{ check.name }}"><code>{{ check.name }}</code> {{ check.title }}</h3>
<table><tr><th>{{ w.cause }}</th><th>{{ w.count }}</th><th>{{ w.students }}</th></tr>
{% for g in check.groups %}<tr id="{{ g.anchor }}"><td>{{ g.text }}<br><code>{{ g.id }}</code></td>
<td class="num">{{ g.count }}</td><td>{{ g.students }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ w.none }}</p>{% endfor %}</section>

<section id="unexplained"><h2>{{ w.unexplained }}</h2><p>{{ w.residue }}</p>
{% for check in unexplained %}<h3 id="unexplained-{{ check.name }}"><code>{{ check.name }}</code> {{ check.title }}</h3>
<table><tr><th>{{ w.message }}</th><th>{{ w.got }}</th><th>{{ w.count }}</th><th>{{ w.students }}</th></tr>
{% for g in check.groups %}<tr id="{{ g.anchor }}"><td><div class="message">{{ g.text }}</div>
<code>{{ g.id }}</code></td><td><code>{{ g.got }}</code></td><td class="num">{{ g.count }}</td>
<td>{{ g.students }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ w.none }}</p>{% endfor %}</section>

<section id="not_written"><h2>{{ w.not_written }}</h2><p>{{ w.not_written_note }}</p>
{% if not_written %}<table><tr><th>{{ w.check }}</th><th>{{ w.methods }}</th><th>{{ w.count }}</th>
<th>{{ w.students }}</th></tr>
{% for check in not_written %}{% for g in check.groups %}<tr id="{{ g.anchor }}"><td><code>{{ check.name }}</code>
{{ check.title }}</td><td><code>{{ g.text }}</code></td><td class="num">{{ g.count }}</td><td>{{ g.students }}</td></tr>
{% endfor %}{% endfor %}</table>
{% else %}<p>{{ w.none }}</p>{% endif %}</section>

<section id="gate"><h2>{{ w.gate }} (<code>{{ gate }}</code>)</h2>
{% for title, stats, chart in gate_charts %}<h3>{{ title }}</h3>
{% if stats %}<table><tr>{% for k, v in stats %}<th>{{ k }}</th>{% endfor %}</tr>
<tr>{% for k, v in stats %}<td class="num">{{ v }}</td>{% endfor %}</tr></table>{{ chart }}
{% else %}<p>{{ w.none }}</p>{% endif %}{% endfor %}</section>

<section id="similar"><h2>{{ w.similar }}</h2>{% if searched %}<p class="lead">{{ lead }}</p>
{% else %}<p>{{ w.not_searched }}</p>{% endif %}
{% if pairs %}<table><tr><th>{{ w.pair }}</th><th>{{ w.alike }}</th><th>{{ w.shared }}</th></tr>
{% for p in pairs %}<tr><td class="students">{{ p.first }} {{ p.second }}</td><td class="num">{{ p.alike }}</td>
<td>{% for g in p.shared %}<a href="#{{ g.anchor }}">{{ g.text }}</a> ({{ g.count }})<br>{% endfor %}</td></tr>
{% endfor %}</table>{% if more_pairs %}<p>{{ more_pairs }}</p>{% endif %}
{% else %}<p>{{ w.none }}</p>{% endif %}</section>

<section id="ungraded"><h2>{{ w.ungraded }}</h2>
{% if ungraded %}<table><tr><th>{{ w.student }}</th><th>{{ w.why }}</th></tr>
{% for s in ungraded %}<tr><td class="students">{{ s.link }}</td><td>{{ s.why }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ w.none }}</p>{% endif %}</section>

<section id="students"><h2>{{ w.students }}</h2>
<table><tr><th>{{ w.student }}</th><th>{{ w.name }}</th><th>{{ w.score }}</th><th>{{ w.failed_checks }}</th>
<th>{{ w.cause }}</th></tr>
{% for s in students %}<tr><td class="students">{{ s.link }}</td><td>{{ s.name }}</td><td class="num">{{ s.score }}</td>
<td>{{ s.failed }}</td><td>{{ s.causes }}</td></tr>
{% endfor %}</table></section>
</body>
</html>
"""


def number(value: float | None, digits: int = 1) -> str:
    """A score or figure as people read it: no trailing zeros."""
    if value is None:
        return ""
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


class _Links:
    """Each student's name, linked to their feedback HTML (relative to the report) when it exists."""

    def __init__(self, summary: ClassSummary, folder: Path) -> None:
        self.links: dict[str, Markup] = {}
        for student in summary.data.students:
            if student.feedback is not None:
                href = Path(os.path.relpath(student.feedback, folder)).as_posix()
                self.links[student.id] = Markup('<a href="{}">{}</a>').format(href, student.id)
            else:
                self.links[student.id] = Markup("<span>{}</span>").format(student.id)

    def __call__(self, student: str) -> Markup:
        return self.links.get(student) or Markup("<span>{}</span>").format(student)

    def many(self, students: list[str], words: dict[str, str]) -> Markup:
        """A list of students, folded when long."""
        inner = Markup('<span class="students">{}</span>').format(Markup(" ").join(self(s) for s in students))
        if len(students) <= FOLD_AFTER:
            return inner
        return Markup("<details><summary>{} {}</summary>{}</details>").format(len(students), words["students_n"], inner)


def _stats(values: dict[str, float], words: dict[str, str], show: Any) -> list[tuple[str, str]]:
    if not values:
        return []
    names = {"n": "n", "mean": words["mean"], "median": words["median"], "min": words["lowest"]}
    names |= {"p10": "10 %", "p90": "90 %", "max": words["highest"]}
    return [(label, str(values["n"]) if key == "n" else show(values[key])) for key, label in names.items()]


def _group_rows(summary: ClassSummary, groups: dict[str, list[Group]], links: _Links, w: dict) -> list[dict]:
    titles = {c.info.name: c.info.title for c in summary.checks}
    order = {name: i for i, name in enumerate(titles)}
    return [
        {
            "name": check,
            "title": titles.get(check, ""),
            "groups": [
                {
                    "anchor": g.anchor,
                    "text": g.text,
                    "id": g.id,
                    "got": g.got_text,
                    "count": g.count,
                    "students": links.many(g.students, w),
                }
                for g in found
            ],
        }
        for check, found in sorted(groups.items(), key=lambda item: order.get(item[0], len(order)))
    ]


def _check_anchor(summary: ClassSummary, check: str) -> str:
    """Where a check's failures are listed first: its named causes, else its residue, else its methods not written."""
    for section, by_check in (("causes", summary.causes), ("unexplained", summary.unexplained)):
        if check in by_check:
            return f"{section}-{check}"
    found = summary.not_written.get(check)
    return found[0].anchor if found else ""


def render(summary: ClassSummary, similarity: Similarity, folder: Path) -> str:
    """The report's HTML, for a file in ``folder`` (links to feedback are relative to it)."""
    from jinja2 import Environment

    w = WORDS.get(summary.catalogue.language, WORDS["en"])
    links = _Links(summary, folder)
    template = Environment(autoescape=True).from_string(TEMPLATE)
    return template.render(
        **_page(summary, w),
        **_scores_section(summary, w),
        **_checks_section(summary, w),
        **_causes_section(summary, links, w),
        **_unexplained_section(summary, links, w),
        **_not_written_section(summary, links, w),
        **_gate_section(summary, w),
        **_similar_section(summary, similarity, links, w),
        **_ungraded_section(summary, links, w),
        **_students_section(summary, links),
    )


def _page(summary: ClassSummary, w: dict[str, str]) -> dict[str, Any]:
    """The title, the line under it (course, when, how many graded) and the links to the sections."""
    data = summary.data
    sections = [(key, w[key]) for key in ("scores", "checks", "causes", "unexplained", "not_written", "gate")]
    sections += [("similar", w["similar"])]
    sections += [(key, w[key]) for key in ("ungraded", "students")]
    return {
        "language": summary.catalogue.language,
        "w": w,
        "css": Markup(CSS),
        "assignment": data.assignment,
        "course": str(data.course),
        "generated": datetime.now().strftime("%Y-%m-%d %H:%M"),
        "counts": {
            "submitted": len(data.students),
            "graded": len(data.graded()),
            "ungraded": len(data.students) - len(data.graded()),
        },
        "sections": sections,
    }


def _scores_section(summary: ClassSummary, w: dict[str, str]) -> dict[str, Any]:
    """The scores' figures and their histogram (twenty bins up to the highest score possible)."""
    top = summary.max_score
    score_bins = [top * i / 20 for i in range(21)] if top else 20
    return {
        "scores": _stats(summary.scores.stats(), w, number),
        "score_chart": Markup(plots.histogram(summary.scores.values, "scores", w["score"], score_bins, None)),
    }


def _checks_section(summary: ClassSummary, w: dict[str, str]) -> dict[str, Any]:
    """Each check's pass rate, as a chart and a table counting how its failures are explained."""
    judged = [c for c in summary.checks if c.pass_rate is not None]
    rate_chart = plots.pass_rates(
        [c.info.name for c in judged], [c.pass_rate or 0.0 for c in judged], "rates", w["rate_axis"]
    )
    return {"rate_chart": Markup(rate_chart), "checks": [_check_row(summary, c) for c in summary.checks]}


def _check_row(summary: ClassSummary, c: CheckSummary) -> dict[str, Any]:
    return {
        "name": c.info.name,
        "anchor": _check_anchor(summary, c.info.name),
        "title": c.info.title,
        "points": number(c.info.points),
        "rate": "" if c.pass_rate is None else f"{100 * c.pass_rate:.0f} %",
        "width": f"{4 * (c.pass_rate or 0):.2f}",
        "passed": c.passed,
        "failed": c.failed,
        "explained": c.explained,
        "not_written": c.not_written,
        "no_verdict": c.no_verdict,
    }


def _causes_section(summary: ClassSummary, links: _Links, w: dict[str, str]) -> dict[str, Any]:
    """Each check's named causes, with their students."""
    return {"causes": _group_rows(summary, summary.causes, links, w)}


def _unexplained_section(summary: ClassSummary, links: _Links, w: dict[str, str]) -> dict[str, Any]:
    """Each check's failures with no named cause, grouped by what came."""
    return {"unexplained": _group_rows(summary, summary.unexplained, links, w)}


def _not_written_section(summary: ClassSummary, links: _Links, w: dict[str, str]) -> dict[str, Any]:
    """Each check's methods not written yet, with their students."""
    return {"not_written": _group_rows(summary, summary.not_written, links, w)}


def _gate_section(summary: ClassSummary, w: dict[str, str]) -> dict[str, Any]:
    """The MNIST gate's test accuracy and speed: figures and a histogram each."""
    return {
        "gate": GATE_CHECK,
        "gate_charts": [
            (
                w["accuracy"],
                _stats(summary.accuracy.stats(), w, lambda v: f"{100 * v:.2f} %"),
                Markup(plots.histogram([100 * v for v in summary.accuracy.values], "accuracy", w["accuracy"])),
            ),
            (
                w["speed"],
                _stats(summary.times_reference.stats(), w, lambda v: f"{v:.2f}×"),
                Markup(plots.histogram(summary.times_reference.values, "speed", w["speed"], log=True)),
            ),
        ],
    }


def _similar_section(summary: ClassSummary, similarity: Similarity, links: _Links, w: dict[str, str]) -> dict[str, Any]:
    """The similar pairs (the first ``PAIRS_SHOWN``), each with the rare mistakes both made, under the lead's caveat."""
    groups = {g.key: g for g in summary.groups()}
    pairs = similarity.pairs
    shown = [
        {
            "first": links(p.first),
            "second": links(p.second),
            "alike": f"{100 * p.similarity[0]:.0f} % / {100 * p.similarity[1]:.0f} % ({p.tokens})",
            "shared": [groups[key] for key in p.shared if key in groups],
        }
        for p in pairs[:PAIRS_SHOWN]
    ]
    return {
        "lead": w["lead"].format(common=similarity.common_limit),
        "searched": similarity.searched,
        "pairs": shown,
        "more_pairs": w["more_pairs"].format(shown=len(shown), total=len(pairs)) if len(pairs) > len(shown) else "",
    }


def _ungraded_section(summary: ClassSummary, links: _Links, w: dict[str, str]) -> dict[str, Any]:
    """Who was not graded and why, or whose earlier grade stands because the last regrade failed."""
    return {
        "ungraded": [
            {"link": links(s.id), "why": s.why_ungraded or f"{w['earlier_grade']}: {s.fault.detail if s.fault else ''}"}
            for s in summary.ungraded
        ]
    }


def _students_section(summary: ClassSummary, links: _Links) -> dict[str, Any]:
    """Every student: their score, the checks they failed and the named causes they showed."""
    by_student = summary.groups_by_student()
    return {"students": [_student_row(s, links, by_student.get(s.id, [])) for s in summary.data.students]}


def _student_row(s: Student, links: _Links, groups: list[Group]) -> dict[str, Any]:
    return {
        "link": links(s.id),
        "name": s.name,
        "score": number(s.score) if s.graded else "—",
        "failed": Markup(" ").join(Markup("<code>{}</code>").format(v.check) for v in s.failed()),
        "causes": Markup(" ").join(
            Markup('<a href="#{}">{}</a>').format(g.anchor, g.id.removeprefix("cause."))
            for g in groups
            if g.kind == "cause"
        ),
    }
