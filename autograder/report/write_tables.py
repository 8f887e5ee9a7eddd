"""The report's data as tables and JSON, beside the HTML: ``students.csv``, ``checks.csv``, ``causes.csv`` (named
causes, methods not written yet and the unexplained residue), ``similar.csv`` and ``report.json`` (all of it, with
every distribution's values).

Causes are written by id, with their words in the edition's language beside them; paths relative to the course.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

from autograder.report.aggregate import GATE_CHECK, ClassSummary, Group
from autograder.report.similarity import Similarity


def _relative(path: Path | None, root: Path) -> str:
    return "" if path is None else Path(os.path.relpath(path, root)).as_posix()


def student_rows(summary: ClassSummary) -> list[dict[str, Any]]:
    """One row a student: score, failed checks, named causes and unexplained failures, feedback, why ungraded."""
    by_student = summary.groups_by_student()
    rows = []
    for s in summary.data.students:
        groups = by_student.get(s.id, [])
        rows.append(
            {
                "student": s.id,
                "name": s.name,
                "graded": s.graded,
                "score": s.score if s.graded else None,
                "max_score": s.max_score if s.graded else None,
                "failed_checks": [v.check for v in s.failed()],
                "causes": [g.id for g in groups if g.kind == "cause"],
                "unexplained": [f"{g.check}:{g.id}" for g in groups if g.kind == "unexplained"],
                "not_written": [g.check for g in groups if g.kind == "not_written"],
                "by_hand": [
                    {"cell": h.cell, "score": h.score, "automatic": h.automatic, "points": h.points} for h in s.by_hand
                ],
                "late_seconds": s.late.seconds if s.late else 0,
                "late_penalty": s.late.penalty if s.late else 0,
                "feedback": _relative(s.feedback, summary.data.course),
                "why_ungraded": s.why_ungraded,
                "fault": {"kind": s.fault.kind, "detail": s.fault.detail} if s.fault else None,
            }
        )
    return rows


def check_rows(summary: ClassSummary) -> list[dict[str, Any]]:
    return [
        {
            "check": c.info.name,
            "title": c.info.title,
            "points": c.info.points,
            "judged": c.judged,
            "passed": c.passed,
            "failed": c.failed,
            "pass_rate": None if c.pass_rate is None else round(c.pass_rate, 4),
            "with_cause": c.explained,
            "not_written": c.not_written,
            "without_cause": c.unexplained,
            "no_verdict": c.no_verdict,
        }
        for c in summary.checks
    ]


def group_rows(summary: ClassSummary) -> list[dict[str, Any]]:
    def row(g: Group) -> dict[str, Any]:
        got = json.loads(g.got) if g.got else None
        return {
            "check": g.check,
            "kind": g.kind,
            "id": g.id,
            "got": got,
            "text": g.text,
            "count": g.count,
            "students": g.students,
        }

    return [row(g) for g in summary.groups()]


def pair_rows(similarity: Similarity) -> list[dict[str, Any]]:
    return [
        {
            "first": p.first,
            "second": p.second,
            "similarity_first": round(p.similarity[0], 4),
            "similarity_second": round(p.similarity[1], 4),
            "tokens": p.tokens,
            "shared_rare": p.shared,
        }
        for p in similarity.pairs
    ]


def _cell(value: Any) -> Any:
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "" if value is None else value


def write_csv(path: Path, rows: list[dict[str, Any]], columns: list[str]) -> None:
    """``rows`` as CSV (lists joined with ``;``), UTF-8 with a byte-order mark so spreadsheets read Chinese right."""
    with path.open("w", newline="", encoding="utf-8-sig") as out:
        writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: _cell(v) for k, v in row.items()} for row in rows)


def report_data(summary: ClassSummary, similarity: Similarity) -> dict[str, Any]:
    """Everything the report shows, as plain JSON data."""
    data = summary.data
    return {
        "assignment": data.assignment,
        "course": str(data.course),
        "notebooks": data.notebooks,
        "language": summary.catalogue.language,
        "counts": {
            "submitted": len(data.students),
            "graded": len(data.graded()),
            "ungraded": len(data.students) - len(data.graded()),
        },
        "scores": {**summary.scores.stats(), "max_score": summary.max_score, "values": summary.scores.values},
        "checks": check_rows(summary),
        "groups": group_rows(summary),
        "gate": {
            "check": GATE_CHECK,
            "accuracy": {**summary.accuracy.stats(), "values": summary.accuracy.values},
            "times_reference": {**summary.times_reference.stats(), "values": summary.times_reference.values},
        },
        "ungraded": [
            {"student": s.id, "why": s.why_ungraded, "fault": s.fault.kind if s.fault else None, "graded": s.graded}
            for s in summary.ungraded
        ],
        "similar": {
            "common_limit": similarity.common_limit,
            "common_fingerprints": similarity.common,
            "pairs": pair_rows(similarity),
        },
        "students": student_rows(summary),
    }


def write_tables(summary: ClassSummary, similarity: Similarity, folder: Path) -> list[Path]:
    """Write the CSV files and ``report.json`` into ``folder``; return their paths."""
    data = report_data(summary, similarity)
    files = {
        "students.csv": (data["students"], list(data["students"][0]) if data["students"] else ["student"]),
        "checks.csv": (data["checks"], list(check_rows(summary)[0]) if summary.checks else ["check"]),
        "causes.csv": (data["groups"], ["check", "kind", "id", "got", "text", "count", "students"]),
        "similar.csv": (
            data["similar"]["pairs"],
            ["first", "second", "similarity_first", "similarity_second", "tokens", "shared_rare"],
        ),
    }
    written = []
    for name, (rows, columns) in files.items():
        write_csv(folder / name, rows, columns)
        written.append(folder / name)
    (folder / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1))
    return [*written, folder / "report.json"]
