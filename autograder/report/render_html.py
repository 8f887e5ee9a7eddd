"""The class report as one self-contained HTML file: inline CSS and SVG, no script, nothing fetched (its
Content-Security-Policy: ``autograder.safe_html``).

Long lists of students fold into ``<details>``; the per-student table is a plain table, so a class of thousands stays
usable. Every student is linked to their feedback HTML when it exists. Everything is in the edition's language: the
catalogue's words (causes, messages) and the report's own headings and sentences (the messages ``report.*`` of
``autograder.messages``, which the template names as ``say.REPORT_...`` and shows as any ``Text``: in that language).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from autograder import safe_html
from autograder.exporters import inline
from autograder.report import plots
from autograder.report.aggregate import GATE_CHECK, CheckSummary, ClassSummary, Group
from autograder.report.collect import Student
from autograder.report.similarity import Similarity

FOLD_AFTER = 12
"""A list of more students than this is folded (``<details>``)."""
PAIRS_SHOWN = 200
"""Similar pairs listed in the HTML (all of them are in the CSV and JSON)."""

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
CSS += inline.CSS

TEMPLATE = """<!DOCTYPE html>
<html lang="{{ language }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ say.REPORT_TITLE }}: {{ assignment }}</title>
<style>{{ css }}</style>
</head>
<body>
<h1>{{ say.REPORT_TITLE }}: {{ assignment }}</h1>
<p class="meta">{{ course }} · {{ say.REPORT_GENERATED }} {{ generated }} · {{ counts.submitted }} {{
say.REPORT_SUBMISSIONS }}:
{{ counts.graded }} {{ say.REPORT_GRADED }}, {{ counts.ungraded }} {{ say.REPORT_NOT_GRADED }}</p>
<nav>{% for id, title in sections %}<a href="#{{ id }}">{{ title }}</a>{% endfor %}</nav>

<section id="scores"><h2>{{ say.REPORT_SCORES }}</h2>
{% if scores %}<table><tr>{% for k, v in scores %}<th>{{ k }}</th>{% endfor %}</tr>
<tr>{% for k, v in scores %}<td class="num">{{ v }}</td>{% endfor %}</tr></table>{{ score_chart }}
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endif %}</section>

<section id="checks"><h2>{{ say.REPORT_CHECKS }}</h2>{{ rate_chart }}
<table><tr>{{ headings(say.REPORT_CHECK, say.REPORT_POINTS, say.REPORT_PASS_RATE, say.REPORT_PASSED) }}
{{ headings(say.REPORT_FAILED, say.REPORT_EXPLAINED, say.REPORT_UNWRITTEN, say.REPORT_NO_VERDICT) }}</tr>
{% for c in checks %}<tr><td>{% if c.anchor %}<a href="#{{ c.anchor }}"><code>{{ c.name }}</code></a>
{% else %}<code>{{ c.name }}</code>{% endif %} {{ c.title }}</td>
<td class="num">{{ c.points }}</td><td class="num">{{ c.rate }}
<span class="bar" style="width: {{ c.width }}em"></span></td><td class="num">{{ c.passed }}</td>
<td class="num">{{ c.failed }}</td><td class="num">{{ c.explained }}</td><td class="num">{{ c.not_written }}</td>
<td class="num">{{ c.no_verdict }}</td></tr>
{% endfor %}</table></section>

<section id="causes"><h2>{{ say.REPORT_CAUSES }}</h2>
{% for check in causes %}<h3 id="causes-{{ check.name }}"><code>{{ check.name }}</code> {{ check.title }}</h3>
<table><tr>{{ headings(say.REPORT_CAUSE, say.REPORT_COUNT, say.REPORT_STUDENTS) }}</tr>
{% for g in check.groups %}<tr id="{{ g.anchor }}"><td>{{ g.text }}<br><code>{{ g.id }}</code></td>
<td class="num">{{ g.count }}</td><td>{{ g.students }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endfor %}</section>

<section id="unexplained"><h2>{{ say.REPORT_UNEXPLAINED }}</h2><p>{{ say.REPORT_RESIDUE }}</p>
{% for check in unexplained %}<h3 id="unexplained-{{ check.name }}"><code>{{ check.name }}</code> {{ check.title }}</h3>
<table><tr>{{ headings(say.REPORT_MESSAGE, say.REPORT_GOT, say.REPORT_COUNT, say.REPORT_STUDENTS) }}</tr>
{% for g in check.groups %}<tr id="{{ g.anchor }}"><td><div class="message">{{ g.text }}</div>
<code>{{ g.id }}</code></td><td><code>{{ g.got }}</code></td><td class="num">{{ g.count }}</td>
<td>{{ g.students }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endfor %}</section>

<section id="not_written"><h2>{{ say.REPORT_NOT_WRITTEN }}</h2><p>{{ say.REPORT_NOT_WRITTEN_NOTE }}</p>
{% if not_written %}<table><tr>{{ headings(say.REPORT_CHECK, say.REPORT_METHODS, say.REPORT_COUNT) }}
{{ headings(say.REPORT_STUDENTS) }}</tr>
{% for check in not_written %}{% for g in check.groups %}<tr id="{{ g.anchor }}"><td><code>{{ check.name }}</code>
{{ check.title }}</td><td><code>{{ g.text }}</code></td><td class="num">{{ g.count }}</td><td>{{ g.students }}</td></tr>
{% endfor %}{% endfor %}</table>
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endif %}</section>

<section id="gate"><h2>{{ say.REPORT_GATE }} (<code>{{ gate }}</code>)</h2>
{% for title, stats, chart in gate_charts %}<h3>{{ title }}</h3>
{% if stats %}<table><tr>{% for k, v in stats %}<th>{{ k }}</th>{% endfor %}</tr>
<tr>{% for k, v in stats %}<td class="num">{{ v }}</td>{% endfor %}</tr></table>{{ chart }}
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endif %}{% endfor %}</section>

<section id="similar"><h2>{{ say.REPORT_SIMILAR }}</h2>{% if searched %}<p class="lead">{{ lead }}</p>
{% else %}<p>{{ say.REPORT_NOT_SEARCHED }}</p>{% endif %}
{% if pairs %}<table><tr>{{ headings(say.REPORT_PAIR, say.REPORT_ALIKE, say.REPORT_SHARED) }}</tr>
{% for p in pairs %}<tr><td class="students">{{ p.first }} {{ p.second }}</td><td class="num">{{ p.alike }}</td>
<td>{% for g in p.shared %}<a href="#{{ g.anchor }}">{{ g.text }}</a> ({{ g.count }})<br>{% endfor %}</td></tr>
{% endfor %}</table>{% if more_pairs %}<p>{{ more_pairs }}</p>{% endif %}
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endif %}</section>

<section id="ungraded"><h2>{{ say.REPORT_UNGRADED }}</h2>
{% if ungraded %}<table><tr>{{ headings(say.REPORT_STUDENT, say.REPORT_WHY) }}</tr>
{% for s in ungraded %}<tr><td class="students">{{ s.link }}</td><td>{{ s.why }}</td></tr>{% endfor %}</table>
{% else %}<p>{{ say.REPORT_NONE }}</p>{% endif %}</section>

<section id="students"><h2>{{ say.REPORT_STUDENTS }}</h2>
<table><tr>{{ headings(say.REPORT_STUDENT, say.REPORT_NAME, say.REPORT_SCORE, say.REPORT_FAILED_CHECKS) }}
{{ headings(say.REPORT_CAUSE, say.REPORT_NOTES) }}</tr>
{% for s in students %}<tr><td class="students">{{ s.link }}</td><td>{{ s.name }}</td><td class="num">{{ s.score }}</td>
<td>{{ s.failed }}</td><td>{{ s.causes }}</td><td>{{ s.notes }}</td></tr>
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

    def many(self, students: list[str], language: str) -> Markup:
        """A list of students, folded when long."""
        from autograder import messages as say

        inner = Markup('<span class="students">{}</span>').format(Markup(" ").join(self(s) for s in students))
        if len(students) <= FOLD_AFTER:
            return inner
        many = say.REPORT_STUDENTS_N.render(language)
        return Markup("<details><summary>{} {}</summary>{}</details>").format(len(students), many, inner)


def _stats(values: dict[str, float], language: str, show: Any) -> list[tuple[str, str]]:
    from autograder import messages as say
    from autograder.course import nn_messages

    if not values:
        return []
    names = {"n": "n", "mean": say.REPORT_MEAN, "median": say.REPORT_MEDIAN, "min": say.REPORT_LOWEST}
    names |= {"p10": "10 %", "p90": "90 %", "max": say.REPORT_HIGHEST}
    return [
        (nn_messages.render(label, language), str(values["n"]) if key == "n" else show(values[key]))
        for key, label in names.items()
    ]


def _group_rows(summary: ClassSummary, groups: dict[str, list[Group]], links: _Links, language: str) -> list[dict]:
    titles = {c.info.name: c.info.title for c in summary.checks}
    order = {name: i for i, name in enumerate(titles)}
    return [
        {
            "name": check,
            "title": titles.get(check, ""),
            "groups": [
                {
                    "anchor": g.anchor,
                    "text": Markup(inline.readable(g.text)),
                    "id": g.id,
                    "got": g.got_text,
                    "count": g.count,
                    "students": links.many(g.students, language),
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

    from autograder import messages as say
    from autograder.course.nn_messages import Text

    language = summary.catalogue.language
    links = _Links(summary, folder)

    def in_language(value: Any) -> Any:
        """What the template shows: a ``Text`` (a message of the report's or the catalogue's) in the language."""
        return value.render(language) if isinstance(value, Text) else value

    def headings(*texts: Text) -> Markup:
        """A table's heading cells."""
        return Markup("").join(Markup("<th>{}</th>").format(text.render(language)) for text in texts)

    template = Environment(autoescape=True, finalize=in_language).from_string(TEMPLATE)
    page = template.render(
        say=say,
        headings=headings,
        **_page(summary),
        **_scores_section(summary, language),
        **_checks_section(summary, language),
        **_causes_section(summary, links, language),
        **_unexplained_section(summary, links, language),
        **_not_written_section(summary, links, language),
        **_gate_section(summary, language),
        **_similar_section(summary, similarity, links),
        **_ungraded_section(summary, links, language),
        **_students_section(summary, links, language),
    )
    # Every text of a student's (ids, names, what came) is escaped; the policy forbids script and any load but
    # data: images should one slip through. Inline style stays allowed: matplotlib's SVG charts draw with it.
    return safe_html.with_policy(page, inline_style=True)


def _page(summary: ClassSummary) -> dict[str, Any]:
    """The title, the line under it (course, when, how many graded) and the links to the sections."""
    from autograder import messages as say

    data = summary.data
    sections = [
        ("scores", say.REPORT_SCORES),
        ("checks", say.REPORT_CHECKS),
        ("causes", say.REPORT_CAUSES),
        ("unexplained", say.REPORT_UNEXPLAINED),
        ("not_written", say.REPORT_NOT_WRITTEN),
        ("gate", say.REPORT_GATE),
        ("similar", say.REPORT_SIMILAR),
        ("ungraded", say.REPORT_UNGRADED),
        ("students", say.REPORT_STUDENTS),
    ]
    return {
        "language": summary.catalogue.language,
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


def _scores_section(summary: ClassSummary, language: str) -> dict[str, Any]:
    """The scores' figures and their histogram (twenty bins up to the highest score possible)."""
    from autograder import messages as say

    top = summary.max_score
    score_bins = [top * i / 20 for i in range(21)] if top else 20
    label = say.REPORT_SCORE.render(language)
    return {
        "scores": _stats(summary.scores.stats(), language, number),
        "score_chart": Markup(
            plots.histogram(summary.scores.values, "scores", label, score_bins, None, ylabel=_students(language))
        ),
    }


def _checks_section(summary: ClassSummary, language: str) -> dict[str, Any]:
    """Each check's pass rate, as a chart and a table counting how its failures are explained."""
    from autograder import messages as say

    judged = [c for c in summary.checks if c.pass_rate is not None]
    rate_chart = plots.pass_rates(
        [c.info.name for c in judged],
        [c.pass_rate or 0.0 for c in judged],
        "rates",
        say.REPORT_RATE_AXIS.render(language),
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


def _causes_section(summary: ClassSummary, links: _Links, language: str) -> dict[str, Any]:
    """Each check's named causes, with their students."""
    return {"causes": _group_rows(summary, summary.causes, links, language)}


def _unexplained_section(summary: ClassSummary, links: _Links, language: str) -> dict[str, Any]:
    """Each check's failures with no named cause, grouped by what came."""
    return {"unexplained": _group_rows(summary, summary.unexplained, links, language)}


def _not_written_section(summary: ClassSummary, links: _Links, language: str) -> dict[str, Any]:
    """Each check's methods not written yet, with their students."""
    return {"not_written": _group_rows(summary, summary.not_written, links, language)}


def _students(language: str) -> str:
    """The charts' y axis: students, in the report's language."""
    from autograder import messages as say

    return say.REPORT_STUDENTS.render(language)


def _gate_section(summary: ClassSummary, language: str) -> dict[str, Any]:
    """The MNIST gate's test accuracy and speed: figures and a histogram each."""
    from autograder import messages as say

    accuracy, speed = say.REPORT_ACCURACY.render(language), say.REPORT_SPEED.render(language)
    return {
        "gate": GATE_CHECK,
        "gate_charts": [
            (
                accuracy,
                _stats(summary.accuracy.stats(), language, lambda v: f"{100 * v:.2f} %"),
                Markup(
                    plots.histogram(
                        [100 * v for v in summary.accuracy.values], "accuracy", accuracy, ylabel=_students(language)
                    )
                ),
            ),
            (
                speed,
                _stats(summary.times_reference.stats(), language, lambda v: f"{v:.2f}×"),
                Markup(
                    plots.histogram(
                        summary.times_reference.values, "speed", speed, log=True, ylabel=_students(language)
                    )
                ),
            ),
        ],
    }


def _similar_section(summary: ClassSummary, similarity: Similarity, links: _Links) -> dict[str, Any]:
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
    from autograder import messages as say

    return {
        "lead": say.REPORT_LEAD(common=similarity.common_limit),
        "searched": similarity.searched,
        "pairs": shown,
        "more_pairs": say.REPORT_MORE_PAIRS(shown=len(shown), total=len(pairs)) if len(pairs) > len(shown) else None,
    }


def _ungraded_section(summary: ClassSummary, links: _Links, language: str) -> dict[str, Any]:
    """Who was not graded and why, or whose earlier grade stands because the last regrade failed."""
    from autograder import messages as say

    earlier = say.REPORT_EARLIER_GRADE.render(language)
    return {
        "ungraded": [
            {"link": links(s.id), "why": s.why_ungraded or f"{earlier}: {s.fault.detail if s.fault else ''}"}
            for s in summary.ungraded
        ]
    }


def _students_section(summary: ClassSummary, links: _Links, language: str) -> dict[str, Any]:
    """Every student: their score, the checks they failed, the named causes they showed, the scores a person set and
    how late they submitted."""
    by_student = summary.groups_by_student()
    rows = [_student_row(s, links, by_student.get(s.id, []), language) for s in summary.data.students]
    return {"students": rows}


def student_notes(s: Student) -> list[Any]:
    """What the score holds besides the checks, as texts: each cell's score set by hand (counted instead of its
    check's), and the late penalty."""
    from autograder import messages as say

    notes = [
        say.REPORT_BY_HAND(
            cell=h.cell,
            score=f"{h.score:g}",
            points=f"{h.points:g}",
            automatic="—" if h.automatic is None else f"{h.automatic:g}",
        )
        for h in s.by_hand
    ]
    if s.late is not None:
        notes.append(say.REPORT_LATE(hours=s.late.hours, penalty=f"{s.late.penalty:g}"))
    return notes


def _student_row(s: Student, links: _Links, groups: list[Group], language: str) -> dict[str, Any]:
    return {
        "notes": Markup("<br>").join(note.render(language) for note in student_notes(s)),
        "link": links(s.id),
        "name": s.name,
        "score": number(s.score) if s.graded else "—",
        "failed": Markup(" ").join(Markup("<code>{}</code>").format(v.check) for v in s.failed()),
        "causes": Markup("<br>").join(
            Markup('<a href="#{}">{}</a>').format(g.anchor, Markup(inline.readable(g.text)))
            for g in groups
            if g.kind == "cause"
        ),
    }
