"""Mutation-testing benchmark of the hidden checks' judging code (issue 21). Not a unit test, and not run by CI.

Usage (from an environment with the kit's test extras and mutmut 3, e.g. ``.venv/bin/pip install mutmut``)::

    .venv/bin/python benchmarks/mutation.py [--paths autograder/judge/relu.py ...] [--max-children 1]
        [--sample 400 [--seed 21]] [--only NAME ...] [--keep DIR]
    .venv/bin/python benchmarks/mutation.py --named [NAME ...]
    .venv/bin/python benchmarks/mutation.py --recheck KEPT_DIR --tests tests/test_new.py ...
    .venv/bin/python benchmarks/mutation.py --direct KEPT_DIR --sample 250 --seed 27 [--draws 0 100]

``--named`` needs no mutmut: it applies each hand-written weakening of ``benchmarks/named_mutants.py`` (or those
named) alone to a clone of HEAD, runs only the test files the weakening names (fast tier) and reports each as caught
(the tests failed) or NOT CAUGHT, in a few minutes. ``--only`` runs mutmut on the named mutants only (e.g. an earlier
sample's survivors, after new tests: a killed mutant stays killed when tests are only added). ``--recheck`` does the
same without mutmut's stats run: it applies each survivor of a ``--keep`` folder's run, as a text edit, to a clone of
HEAD and runs only the named test files (the new ones), counting exit code 1 as killed. ``--direct`` tests a kept
``--sample`` run's drawn mutants (or the draws FIRST to LAST) without mutmut: each applied as a text edit to a clone of
HEAD, with the tests mutmut's stats run found calling its function (mutmut's own clean run before its first mutant
takes about 10 minutes on the shared machine).

The default ``--paths`` are all the grading code: the judges, their inputs, the probes, the registry, the public
checks and their diagnosis helpers (``nn_checks``, ``nn_public``, ``nn_diagnosis``): some 3,500+ mutants, about
3.5 hours on 2 cores; ``--sample N`` tests N of them drawn at random (stated as such in the output).
Measured figures and every survivor, classified: ``benchmarks/mutation_survivors.md``.

It clones the repository's committed tree (HEAD, not the work tree) into a temporary folder, writes mutmut's
configuration into the clone's pyproject.toml (never into this repository's), and runs ``mutmut run`` there with the
kit's fast test tier (``pytest -m "not slow"``). mutmut rewrites every function of the mutated modules into a
trampoline, runs the whole tier once to learn which tests call which function, then, for each mutant, only the tests
that call its function, in a fork of a process that has collected the tests but run none (``process_isolation =
"forkserver"``: the tests cache grading results with ``functools.cache``, so forks of a process that has run them
would reuse the unmutated verdicts). At the end it prints the counts (total, killed, survived, timeout, suspicious,
skipped, no tests), the score killed / (killed + survived), per module and in all, and every survivor: file,
function and a one-line diff.

Left out of the run (``--exclude-tests``): the tests that read source files as text (the generated release/ and
solutions/ copies of the course helpers, the Chinese edition's copies, the README's commands, the house style, the
imports allowed beside student code, the named weakenings' texts). On a mutated tree they fail for every mutant of
the helpers whatever the mutant does (mutmut's trampolines change the files' text and import mutmut), and mutmut
refuses to start when a test fails on the unmutated code.

The course helpers (``source/mlp/nn_checks.py``, ``nn_diagnosis.py``) are imported by bare name after ``sys.path``
is set (``tests/conftest.py``), while mutmut names a mutant after its file's path (``source.mlp.nn_checks``): the
clone gets a copy of each helper at its root (``nn_checks.py``, mutated there) and ``mutants/source/mlp/<helper>``
becomes a link to that mutated copy, so the module the tests import is called ``nn_checks`` and is the mutated one.

Tests that run the grader in a child process (``python -m autograder ...``) see the mutants too (``PYTHONPATH``
names ``mutants/``, and the active mutant is in the environment), but mutmut only counts calls made in the test
process: a function called only in children has "no tests". Set ``MNIST_DIR`` as for the test suite (the fast tier
does not read MNIST).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

JUDGES = tuple(
    f"autograder/judge/{name}.py" for name in ("common", "linear", "relu", "loss", "sgd", "mlp", "gate", "inputs")
)
PROBES = tuple(
    f"autograder/probe/{name}.py" for name in ("core", "linear", "relu", "loss", "sgd", "mlp", "gate", "run")
)
"""The worker's probes (``probe/messages.py`` only declares message texts and is left out)."""
HELPERS = ("source/mlp/nn_checks.py", "source/mlp/nn_public.py", "source/mlp/nn_diagnosis.py")
DEFAULT_PATHS = (*JUDGES, *PROBES, "autograder/registry.py", *HELPERS)
"""All the grading code: the judges, their inputs, the probes, the registry, the public checks and their diagnosis."""

HELPER_FOLDER = "source/mlp"
"""Modules here are imported by bare name (``import nn_checks``), not by their path."""

EXCLUDED_TESTS = (
    "tests/test_generated_files.py",
    "tests/test_style.py",
    "tests/test_docs.py",
    "tests/test_named_mutants.py",
    "tests/test_edition.py::test_the_chinese_edition_is_current",
    "tests/test_edition.py::test_both_editions_have_the_same_code_grade_ids_and_points",
    "tests/test_trust_line.py::test_untrusted_code_imports_only_the_standard_library_numpy_and_the_course_helpers",
)
"""Tests that read files' text: every mutant of the helpers "fails" them (see the module's docstring)."""

FAST_TIER = ["-m", "not slow", "-p", "no:cacheprovider"]

STATUSES = ("killed", "survived", "timeout", "suspicious", "skipped", "no tests", "segfault", "not checked")


@dataclass(frozen=True)
class Mutant:
    name: str  # mutmut's: "<module>.x_<function>__mutmut_<n>" or "<module>.xǁ<Class>ǁ<method>__mutmut_<n>"
    status: str

    @property
    def module(self) -> str:
        return re.sub(r"\.x(_|ǁ).*$", "", self.name)

    @property
    def function(self) -> str:
        mangled = self.name[len(self.module) + 1 :].partition("__mutmut_")[0]
        return mangled[2:] if mangled.startswith("x_") else ".".join(p for p in mangled[1:].split("ǁ") if p)


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _toml_list(items: list[str]) -> str:
    return json.dumps(items, ensure_ascii=False)  # a JSON list of plain strings is a TOML array


def prepare(repo: Path, clone: Path, paths: list[str], exclude_tests: list[str]) -> None:
    """Clone ``repo``'s HEAD into ``clone`` and configure mutmut there for ``paths``."""
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(repo), str(clone)], check=True)
    helpers = [p for p in paths if str(Path(p).parent) == HELPER_FOLDER]
    source_paths = []
    for path in paths:
        if not (clone / path).is_file():
            raise SystemExit(f"{path}: not a file of the committed tree")
        if path in helpers:
            shutil.copy2(clone / path, clone / Path(path).name)  # mutated at the root, under its import name
            source_paths.append(Path(path).name)
        else:
            source_paths.append(path)
    # Everything the tests read goes to mutants/ too: whole top-level folders, but the helpers' folder file by file
    # without the helpers (they become links below, which a copy would overwrite with the unmutated text).
    tracked = _git("ls-files", cwd=clone).splitlines()
    tops = sorted({t.split("/")[0] for t in tracked} - {"tests", "pyproject.toml"})
    also_copy = []
    for top in tops:
        inside = [h for h in helpers if h.startswith(top + "/")]
        if inside:
            also_copy += [t for t in tracked if t.startswith(top + "/") and t not in helpers]
        else:
            also_copy.append(top)
    mutants = clone / "mutants"
    for item in also_copy:  # mutmut copies a listed file only into an existing folder
        (mutants / item).parent.mkdir(parents=True, exist_ok=True)
    for helper in helpers:
        (mutants / helper).symlink_to(os.path.relpath(mutants / Path(helper).name, (mutants / helper).parent))
    selection = ["tests", *(f"--deselect={t}" if "::" in t else f"--ignore={t}" for t in exclude_tests)]
    config = f"""
[tool.mutmut]
source_paths = {_toml_list(source_paths)}
also_copy = {_toml_list(also_copy)}
pytest_add_cli_args = {_toml_list(FAST_TIER)}
pytest_add_cli_args_test_selection = {_toml_list(selection)}
process_isolation = "forkserver"
forkserver_warmup = "collect"
"""
    with (clone / "pyproject.toml").open("a") as pyproject:
        pyproject.write(config)


def mutmut_command(python: Path) -> Path:
    command = python.parent / "mutmut"
    if not command.exists():
        raise SystemExit(f"no mutmut beside {python}: install it with `{python} -m pip install mutmut`")
    return command


def run(clone: Path, mutmut: Path, max_children: int, log: Path, names: list[str] | None = None) -> float:
    """Run mutmut in ``clone`` (every mutant, or those named); its output goes to ``log``. Return the seconds."""
    env = dict(os.environ, PYTHONPATH=str(clone / "mutants"))  # child processes of the tests import the mutants
    env["PATH"] = f"{mutmut.parent}{os.pathsep}{env.get('PATH', '')}"  # the environment's commands (nbgrader's alembic)
    env.pop("MUTANT_UNDER_TEST", None)
    start = time.monotonic()
    with log.open("a") as out:
        command = [str(mutmut), "run", "--max-children", str(max_children), *(names or [])]
        done = subprocess.run(command, cwd=clone, env=env, stdout=out, stderr=out)
    if done.returncode and names != [NO_MUTANT]:
        tail = log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"mutmut run failed ({done.returncode}); the end of {log}:\n{tail}")
    return time.monotonic() - start


NO_MUTANT = "no.such.x_mutant__mutmut_0"
"""Named to ``mutmut run``, it generates the mutants and learns which tests call what, then stops (on an assert)."""


def sampled(
    clone: Path, mutmut: Path, max_children: int, log: Path, size: int, seed: int, chunk: int
) -> tuple[list[str], float]:
    """Generate every mutant, draw ``size`` of them (``seed``), run those only, ``chunk`` at a time in the order
    drawn (mutmut tests the mutants it is given file by file: a run stopped early has then still tested a random part
    of the sample, not the first modules only). Return them and the seconds."""
    seconds = run(clone, mutmut, max_children, log, [NO_MUTANT])
    names = sorted(m.name for m in results(clone, mutmut))
    if not names:
        raise SystemExit(f"mutmut generated no mutants; see {log}")
    sample = random.Random(seed).sample(names, min(size, len(names)))
    print(f"sample: {len(sample)} of {len(names)} mutants (seed {seed})", flush=True)
    for start in range(0, len(sample), chunk):
        seconds += run(clone, mutmut, max_children, log, sample[start : start + chunk])
        print(f"{min(start + chunk, len(sample))} of {len(sample)} tested ({seconds / 60:.0f} min)", flush=True)
    return sorted(sample), seconds


def named(repo: Path, work: Path, names: list[str]) -> int:
    """Apply each named weakening alone to a clone of ``repo``'s HEAD and run its tests; return how many were not
    caught."""
    from named_mutants import MUTANTS  # beside this file

    chosen = [m for m in MUTANTS if not names or m.name in names]
    if names and len(chosen) != len(set(names)):
        raise SystemExit(f"unknown named mutants: {sorted(set(names) - {m.name for m in MUTANTS})}")
    clone = work / "kit"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(repo), str(clone)], check=True)
    env = dict(os.environ, PYTHONPATH=str(clone))  # the clone's packages, not an editable install's
    where = subprocess.run(
        [sys.executable, "-c", "import autograder; print(autograder.__file__)"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(clone.resolve()):
        raise SystemExit(f"the clone imports autograder from {where}, not from itself")

    def tests_fail(tests: tuple[str, ...]) -> tuple[int, str, float]:
        """pytest's exit code (1: a test failed), the first failed test, and the seconds."""
        start = time.monotonic()
        command = [sys.executable, "-m", "pytest", "-q", "-x", "-rf", *FAST_TIER, *tests]
        done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
        first = next((line.split()[1] for line in done.stdout.splitlines() if line.startswith("FAILED ")), "")
        return done.returncode, first, time.monotonic() - start

    baseline = sorted({t for m in chosen for t in m.tests})
    code, _, seconds = tests_fail(tuple(baseline))
    if code:
        raise SystemExit(f"the tests fail on the unmutated clone (exit code {code}): {baseline}")
    print(f"unmutated: {len(baseline)} test files pass ({seconds:.0f} s)", flush=True)
    missed = 0
    for mutant in chosen:
        file = clone / mutant.path
        text = file.read_text()
        if text.count(mutant.old) != 1:
            raise SystemExit(f"{mutant.name}: its old text is in {mutant.path} {text.count(mutant.old)} times")
        file.write_text(text.replace(mutant.old, mutant.new))
        try:
            code, first, seconds = tests_fail(mutant.tests)
        finally:
            file.write_text(text)
        caught = code == 1 and first  # a test failed (not an error of collection or of the edit itself)
        missed += not caught
        verdict = "caught" if caught else ("NOT CAUGHT" if code == 0 else f"ERROR {code}")
        print(f"{verdict:>10}  {mutant.name:<34} {seconds:4.0f} s  {mutant.path}: {mutant.weakens}", flush=True)
        if first:
            print(f"{'':12}by {first}", flush=True)
    print(f"\n{len(chosen) - missed} of {len(chosen)} named weakenings caught")
    return missed


def mutant_edit(kept: Path, mutmut: Path, name: str) -> tuple[str, str, str]:
    """A mutant of a kept run as a text edit of the source: (repo-relative path, old text, new text), from the hunk
    ``mutmut show`` prints (its context and removed lines, then its context and added lines)."""
    text = subprocess.run([str(mutmut), "show", name], cwd=kept, check=True, capture_output=True, text=True).stdout
    lines = text.splitlines()
    path = next(line[4:].strip() for line in lines if line.startswith("--- "))
    body = lines[next(i for i, line in enumerate(lines) if line.startswith("@@")) + 1 :]
    old = "".join(line[1:] + "\n" for line in body if line[:1] in (" ", "-"))
    new = "".join(line[1:] + "\n" for line in body if line[:1] in (" ", "+"))
    if "/" not in path:  # a course helper, mutated at the clone's root under its import name
        path = f"{HELPER_FOLDER}/{path}"
    return path, old, new


def recheck(repo: Path, kept: Path, work: Path, tests: list[str]) -> None:
    """Apply each survivor of the mutmut run kept in ``kept`` to a clone of ``repo``'s HEAD and run ``tests`` (the
    fast tier's new test files): killed when they fail. Tests only added to HEAD, so what the kept run killed
    stays killed; this settles its survivors in minutes, without mutmut's stats run."""
    mutmut = mutmut_command(Path(sys.executable))
    survivors = sorted(m.name for m in results(kept / "kit", mutmut) if m.status == "survived")
    clone = work / "kit"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(repo), str(clone)], check=True)
    env = dict(os.environ, PYTHONPATH=str(clone))
    command = [sys.executable, "-m", "pytest", "-q", "-x", *FAST_TIER, *tests]
    if subprocess.run(command, cwd=clone, env=env, capture_output=True).returncode:
        raise SystemExit(f"the tests fail on the unmutated clone: {tests}")
    counts: Counter[str] = Counter()
    for name in survivors:
        path, old, new = mutant_edit(kept / "kit", mutmut, name)
        file = clone / path
        text = file.read_text()
        if text.count(old) != 1 and "ǁ" in name:  # mutmut shows a method dedented
            old, new = (textwrap.indent(t, "    ") for t in (old, new))
        if text.count(old) != 1:
            status = "not applied"
        else:
            file.write_text(text.replace(old, new))
            try:
                code = subprocess.run(command, cwd=clone, env=env, capture_output=True).returncode
            finally:
                file.write_text(text)
            status = {0: "survived", 1: "killed"}.get(code, f"error {code}")
        counts[status] += 1
        print(f"{status:>11}  {name}", flush=True)
    print(f"\n{len(survivors)} survivors of {kept}: " + ", ".join(f"{n} {s}" for s, n in counts.most_common()))


def direct(repo: Path, kept: Path, work: Path, size: int, seed: int, first: int, last: int) -> None:
    """Test draws ``first`` to ``last`` of the sample (``size``, ``seed``) of the mutmut run kept in ``kept`` without
    mutmut: each mutant applied alone, as a text edit, to a clone of ``repo``'s HEAD, then the tests mutmut's stats run
    found calling its function, fastest first, stopping at the first failure (what mutmut runs for it). mutmut's
    clean run before testing any mutant runs those tests once more on its trampolines (about 10 minutes on the shared
    machine, for each ``mutmut run``); this starts in seconds, so any range of the draw (a random part of the sample)
    can be tested by itself."""
    mutmut = mutmut_command(Path(sys.executable))
    stats = json.loads((kept / "kit" / "mutants" / "mutmut-stats.json").read_text())
    tests_by, seconds_by = stats["tests_by_mangled_function_name"], stats["duration_by_test"]
    names = sorted(m.name for m in results(kept / "kit", mutmut))
    draw = random.Random(seed).sample(names, min(size, len(names)))
    clone = work / "kit"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(repo), str(clone)], check=True)
    env = dict(os.environ, PYTHONPATH=str(clone))
    for number in range(first, min(last, len(draw))):
        name = draw[number]
        tests = sorted(tests_by.get(name.partition("__mutmut_")[0], []), key=lambda t: seconds_by.get(t, 0.0))
        if not tests:
            print(f"{number} no tests {name}", flush=True)
            continue
        path, old, new = mutant_edit(kept / "kit", mutmut, name)
        file = clone / path
        text = file.read_text()
        if text.count(old) != 1 and "ǁ" in name:  # mutmut shows a method dedented
            old, new = (textwrap.indent(t, "    ") for t in (old, new))
        if text.count(old) != 1:
            print(f"{number} not applied {name}", flush=True)
            continue
        file.write_text(text.replace(old, new))
        start = time.monotonic()
        try:
            command = [sys.executable, "-m", "pytest", "-q", "-x", *FAST_TIER, *tests]
            code = subprocess.run(command, cwd=clone, env=env, capture_output=True).returncode
        finally:
            file.write_text(text)
        status = {0: "survived", 1: "killed", 3: "killed"}.get(code, f"error {code}")  # 3 (pytest crashed): as mutmut
        print(f"{number} {status} {name} ({len(tests)} tests, {time.monotonic() - start:.0f} s)", flush=True)


def results(clone: Path, mutmut: Path) -> list[Mutant]:
    text = subprocess.run(
        [str(mutmut), "results", "--all", "true"], cwd=clone, check=True, capture_output=True, text=True
    ).stdout
    found = re.findall(r"^\s+(\S+__mutmut_\d+): (.+)$", text, re.MULTILINE)
    return [Mutant(name, status.strip()) for name, status in found]


def one_line_diff(clone: Path, mutmut: Path, name: str) -> str:
    """The changed lines of a mutant, as ``old  →  new``."""
    text = subprocess.run([str(mutmut), "show", name], cwd=clone, check=True, capture_output=True, text=True).stdout
    lines = [line for line in text.splitlines() if line[:1] in "-+" and not line.startswith(("---", "+++"))]
    old = " / ".join(line[1:].strip() for line in lines if line.startswith("-"))
    new = " / ".join(line[1:].strip() for line in lines if line.startswith("+"))
    return f"{old}  →  {new}"


def score(counts: Counter[str]) -> str:
    judged = counts["killed"] + counts["survived"]
    return f"{counts['killed'] / judged:.1%}" if judged else "n/a"


def report(mutants: list[Mutant], diffs: dict[str, str], module_files: dict[str, str], seconds: float) -> None:
    by_module: dict[str, Counter[str]] = {}
    for mutant in mutants:
        by_module.setdefault(mutant.module, Counter())[mutant.status] += 1
    total: Counter[str] = sum(by_module.values(), Counter())
    shown = [s for s in STATUSES if total[s]] + sorted(set(total) - set(STATUSES))
    width = max([len("module"), *(len(m) for m in by_module)])
    print(f"mutmut run: {seconds / 60:.1f} min")
    print(f"{'module':<{width}}  {'total':>5}  " + "  ".join(f"{s:>9}" for s in shown) + "  score")
    for module, counts in [*sorted(by_module.items()), ("all", total)]:
        cells = "  ".join(f"{counts[s]:>9}" for s in shown)
        print(f"{module:<{width}}  {sum(counts.values()):>5}  {cells}  {score(counts)}")
    print(f"\nscore = killed / (killed + survived) = {total['killed']}/{total['killed'] + total['survived']}", end="")
    print(f" = {score(total)}")
    survivors = [m for m in mutants if m.status == "survived"]
    print(f"\n{len(survivors)} surviving mutants:")
    for mutant in survivors:
        where = module_files.get(mutant.module, mutant.module)
        print(f"{mutant.name}\n    {where} :: {mutant.function}\n    {diffs[mutant.name]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", nargs="+", default=list(DEFAULT_PATHS), help="modules to mutate (repo-relative)")
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--repo", type=Path, default=REPO, help="repository whose HEAD is cloned (default: this one)")
    parser.add_argument(
        "--exclude-tests", nargs="*", default=list(EXCLUDED_TESTS), help="test files or node ids left out of the run"
    )
    parser.add_argument("--sample", type=int, help="test only this many mutants, drawn at random from all")
    parser.add_argument("--seed", type=int, default=21, help="seed of the draw (default 21)")
    parser.add_argument("--chunk", type=int, default=25, help="sampled mutants given to one mutmut run (default 25)")
    parser.add_argument("--only", nargs="+", help="test only these mutants (mutmut's names)")
    parser.add_argument("--keep", type=Path, help="run in this (new) folder and keep it, to browse with mutmut")
    parser.add_argument("--named", nargs="*", help="apply the hand-written weakenings (all, or those named) instead")
    parser.add_argument("--recheck", type=Path, help="a --keep folder: apply its survivors to HEAD, run --tests")
    parser.add_argument("--tests", nargs="+", default=[], help="the test files --recheck runs")
    parser.add_argument(
        "--direct", type=Path, help="a --keep folder of a --sample run: test --draws of its sample without mutmut"
    )
    parser.add_argument("--draws", type=int, nargs=2, default=[0, 10**9], help="--direct: the draws FIRST LAST")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="mlp-mutation-")) if args.keep is None else args.keep.resolve()
    modes = (
        (args.direct, lambda: direct(repo, args.direct.resolve(), work, args.sample or 0, args.seed, *args.draws)),
        (args.recheck, lambda: recheck(repo, args.recheck.resolve(), work, args.tests)),
        (args.named, lambda: sys.exit(1 if named(repo, work, args.named) else 0)),
    )
    repo = args.repo.resolve()
    for chosen, run in modes:  # the modes without a mutmut run: each in the work folder, removed unless --keep
        if chosen is None:
            continue
        work.mkdir(parents=True, exist_ok=True)
        try:
            run()
        finally:
            if args.keep is None:
                shutil.rmtree(work, ignore_errors=True)
        return
    mutmut = mutmut_command(Path(sys.executable))
    clone = work / "kit"
    work.mkdir(parents=True, exist_ok=True)
    try:
        prepare(args.repo.resolve(), clone, args.paths, args.exclude_tests)
        print(f"mutating {len(args.paths)} modules in {clone}; mutmut's output: {work / 'mutmut.log'}", flush=True)
        log = work / "mutmut.log"
        if args.only:
            seconds = run(clone, mutmut, args.max_children, log, [NO_MUTANT])
            chosen = sorted(args.only)
            seconds += run(clone, mutmut, args.max_children, log, chosen)
        elif args.sample is None:
            seconds, chosen = run(clone, mutmut, args.max_children, log), None
        else:
            chosen, seconds = sampled(clone, mutmut, args.max_children, log, args.sample, args.seed, args.chunk)
        mutants = [m for m in results(clone, mutmut) if chosen is None or m.name in chosen]
        diffs = {m.name: one_line_diff(clone, mutmut, m.name) for m in mutants if m.status == "survived"}
        module_files = {
            (Path(p).stem if str(Path(p).parent) == HELPER_FOLDER else p.removesuffix(".py").replace("/", ".")): p
            for p in args.paths
        }
        report(mutants, diffs, module_files, seconds)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
