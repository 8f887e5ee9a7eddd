"""The class report at scale: how long ``python -m autograder report`` takes and how large its files are for a
synthetic class of 2,000 (a figure, not a unit test).

Usage::

    .venv/bin/python benchmarks/report_scale.py [--students 2000] [--keep DIR]

Builds a graded course as the grade command leaves one (``tests/report_course.py``: gradebook, autograded notebooks
with verdicts, feedback, fault records), with answer cells drawn from a few ways to write each method plus some
students' own lines, a few planted pairs of copied answers that share a rare mistake, named causes, unexplained
failures with a long tail of what came, the gate's numbers, and 1 % of submissions left ungraded. Then times the
report (collect, aggregate, similarity, HTML, tables) and prints the time of each step and the size of each file.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from autograder import registry  # noqa: E402
from autograder.faults import Fault  # noqa: E402
from report_course import ReportCourse, text, verdict  # noqa: E402

CAUSES = {
    "linear_forward": ["cause.linear.no_bias", "cause.linear.w_transposed"],
    "linear_backward_dx": ["cause.linear.dx_not_transposed", "cause.linear.dx_over_batch"],
    "linear_backward_dw": ["cause.linear.dw_transposed", "cause.linear.dw_over_batch", "cause.linear.dw_stale_input"],
    "linear_backward_db": ["cause.linear.db_not_summed", "cause.linear.db_keepdims", "cause.linear.db_mean"],
    "relu_forward": ["cause.relu.max_reduction", "cause.relu.negative_part"],
    "relu_backward": ["cause.relu.mask_at_zero", "cause.relu.times_output"],
    "cross_entropy_forward": ["cause.returned_none"],
    "cross_entropy_backward": ["cause.returned_none"],
    "sgd_step": ["cause.returned_none"],
    "mlp_forward": ["cause.returned_none"],
    "mlp_backward": ["cause.returned_none"],
    "mnist_accuracy": ["cause.gate.slow"],
}
"""Catalogued causes to draw from, per check (ids of the course's catalogue)."""
RARE = "cause.changed_in_place"
"""The rare mistake the planted pairs share (drawn for nobody else)."""
WAYS = {
    "linear": [
        "        self.ctx['x'] = x\n        return x @ self.W + self.b\n",
        "        self.ctx['x'] = x\n        return np.dot(x, self.W) + self.b\n",
        "        self.ctx['x'] = x\n        out = np.matmul(x, self.W)\n        out = out + self.b\n"
        "        return out\n",
    ],
    "relu": [
        "        self.ctx['mask'] = x > 0\n        return np.maximum(x, 0)\n",
        "        self.ctx['x'] = x\n        return np.where(x > 0, x, 0)\n",
        "        mask = (x > 0).astype(x.dtype)\n        self.ctx['mask'] = mask\n        return x * mask\n",
    ],
    "cross_entropy": [
        "        z = logits - logits.max(axis=1, keepdims=True)\n        p = np.exp(z) / np.exp(z).sum(axis=1, "
        "keepdims=True)\n        self.ctx['p'], self.ctx['y'] = p, targets\n        return -np.log(p[np.arange(len("
        "targets)), targets]).mean()\n",
        "        shifted = logits - np.max(logits, axis=1)[:, None]\n        logp = shifted - np.log(np.sum(np.exp("
        "shifted), axis=1))[:, None]\n        self.ctx['logp'] = logp\n        self.ctx['t'] = targets\n        "
        "return float(-np.mean(logp[range(len(targets)), targets]))\n",
    ],
    "sgd": [
        "        for p in self.params:\n            if p.grad is not None:\n                p -= self.lr * p.grad\n",
        "        for param in self.params:\n            if param.grad is None:\n                continue\n            "
        "param[...] = param - self.lr * param.grad\n",
    ],
    "mlp": [
        "        return self.fc2(self.relu(self.fc1(x)))\n",
        "        h = self.fc1.forward(x)\n        h = self.relu.forward(h)\n        return self.fc2.forward(h)\n",
    ],
}
OWN_LINES = [
    "        assert x.ndim == 2, x.shape\n",
    "        x = np.asarray(x)\n",
    "        batch_size, n_features = x.shape\n",
    "        eps = 1e-12\n",
    "        debug = {'shape': x.shape, 'dtype': str(x.dtype)}\n",
    "        for axis in range(x.ndim):\n            assert x.shape[axis] > 0\n",
    "        if not np.isfinite(x).all():\n            raise ValueError('non-finite input')\n",
    "        counter = getattr(self, 'calls', 0) + 1\n        self.calls = counter\n",
]
"""Lines some students add of their own (each a few percent of the class)."""


def answers(rng: random.Random) -> dict[str, str]:
    """One student's answer cells: a way to write each method, and now and then a line of their own."""
    found = {}
    for answer, cls in registry.answers().items():
        body = rng.choice(WAYS[answer])
        while rng.random() < 0.35:
            body = rng.choice(OWN_LINES) + body
        found[answer] = f"class {cls}(Module):\n    def forward(self, x):\n{body}"
    return found


def student_verdicts(rng: random.Random) -> list[dict]:
    """Most checks pass; a failure names a cause two times in three, else what came (a long tail of values)."""
    found = []
    for check in registry.CHECKS:
        gate = {"accuracy": min(0.99, rng.gauss(0.978, 0.004)), "times_reference": rng.lognormvariate(0.3, 0.4)}
        numbers = gate if check.slow else None
        if rng.random() > 0.12:
            found.append(verdict(check.name, numbers=numbers))
        elif rng.random() < 0.67:
            found.append(verdict(check.name, False, rng.choice(CAUSES[check.name]), numbers=numbers))
        else:
            got = rng.choice(["shape (2, 4)", "None", "dtype float32"] + [f"{rng.random():.3f} at index (0, 1)"])
            what = text("expected_got", what=check.title, expected="shape (4, 2)", got=got)
            found.append(verdict(check.name, False, message=what, numbers=numbers))
    return found


PAIRS = 10
"""Planted pairs of copied answers."""


def build(root: Path, students: int, seed: int = 1, pairs: int = PAIRS) -> ReportCourse:
    """The class; students 10, 12, ... copy the one before them (a name changed) and both make the rare mistake."""
    rng = random.Random(seed)
    course = ReportCourse(root)
    copies = set(range(11, 11 + 2 * pairs, 2))
    code: dict[str, str] = {}
    for i in range(students):
        student = f"student{i:04}"
        if i in copies:  # the one before, with a name changed
            code = {cell: source.replace("self.ctx", "self.cache") for cell, source in code.items()}
        else:
            code = answers(rng)
            code["linear"] += f"        marker = x.sum() * {i} + len(self.ctx)\n        self.marker = marker\n"
        verdicts = student_verdicts(rng)
        if i in copies or i + 1 in copies:
            verdicts = [v if v["check"] != "relu_backward" else verdict("relu_backward", False, RARE) for v in verdicts]
        if rng.random() < 0.01:
            course.leave_ungraded(student, Fault("grader", "a worker could not start"), code)
        else:
            course.add(student, verdicts, code, feedback=rng.random() < 0.95)
    return course


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=2000)
    parser.add_argument(
        "--keep", type=Path, default=None, help="build the course here and keep it (a course already there is reused)"
    )
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="kit-report-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    root = args.keep or scratch / "course"
    try:
        start = time.perf_counter()
        if (root / "gradebook.db").exists():
            print(f"Reusing the class built in {root}")
        else:
            build(root, args.students)
            print(f"Built a graded class of {args.students} in {time.perf_counter() - start:.0f} s (not timed below)")
        from autograder.report import build as report_build
        from autograder.report.aggregate import summarize
        from autograder.report.catalogue import load_catalogue
        from autograder.report.collect import collect
        from autograder.report.render_html import render
        from autograder.report.write_tables import write_tables

        times = {}
        start = time.perf_counter()
        data = collect(root, "mlp")
        times["collect (gradebook, notebooks)"] = time.perf_counter() - start
        summary = summarize(data, load_catalogue(data.release))
        times["aggregate"] = time.perf_counter() - start - sum(times.values())
        similarity = report_build.find_similar(data, summary)
        times["similarity (copydetect)"] = time.perf_counter() - start - sum(times.values())
        folder = root / "reports" / "mlp"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.html").write_text(render(summary, similarity, folder), encoding="utf-8")
        times["HTML (with SVG charts)"] = time.perf_counter() - start - sum(times.values())
        write_tables(summary, similarity, folder)
        times["CSV and JSON"] = time.perf_counter() - start - sum(times.values())
        total = time.perf_counter() - start
        print(f"Load average while it ran (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} core(s)")
        for step, seconds in times.items():
            print(f"  {step:<32} {seconds:6.1f} s")
        print(f"  {'total':<32} {total:6.1f} s")
        for path in sorted(folder.iterdir()):
            print(f"  {path.name:<32} {path.stat().st_size / 1024:8.0f} KiB")
        copies = {f"student{i:04}" for i in range(11, 11 + 2 * PAIRS, 2)}
        found = [p for p in similarity.pairs if p.second in copies and p.first == f"student{int(p.second[7:]) - 1:04}"]
        print(
            f"{len(data.students)} students, {len(data.graded())} graded; {len(similarity.pairs)} similar pair(s), "
            f"{len(found)} of the {PAIRS} planted, {sum(1 for p in similarity.pairs if p.shared)} sharing a rare "
            f"mistake; {similarity.common} fingerprints set aside, common to more than {similarity.common_limit}"
        )
        start = time.perf_counter()
        html, _, _ = report_build.write_report(root, "mlp")
        print(f"write_report end to end (python -m autograder report): {time.perf_counter() - start:.1f} s")
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
