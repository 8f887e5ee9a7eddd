"""The maintainer guide's two tasks, "Adding a check" and "Adding a language", followed literally on a fresh clone of
this repository's HEAD (slow tier).

The guide's own code blocks (the registry entry, the inputs builder, the judge, the mistake) and its Chinese comment
are read from ``docs/maintainer-guide.md`` and applied where the guide says, counting the files edited by hand; then
the commands it names run in the clone (``regenerate``, the section it prints pasted into ``i18n/mlp.zh.md``,
``edition zh --stamp``, ``regenerate``, ``tests/pinned_outputs.py --write``, ``ruff format``), and the fast-tier test
files the new check touches must pass there. "Adding a language" writes the guide's Japanese wordings file (its TOML
block), the lines the edition command lists, and nothing else, then regenerates and runs the tests of every language.
A guide that no longer works, word for word, fails here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_new_language import guide_file

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "maintainer-guide.md"
MOST_HAND_EDITS = 5
"""The issue's goal: adding a check is at most five files edited by hand."""
TOUCHED = (
    "tests/test_registry.py",
    "tests/test_pinned_outputs.py",
    "tests/test_pinned_checks.py",
    "tests/test_corpus.py",
    "tests/test_generated_files.py",
    "tests/test_hidden_inputs.py",
    "tests/test_named_mutants.py",
    "tests/test_edition.py",
    "tests/test_points_table.py",
    "tests/test_wordings.py",
    "tests/test_style.py",
    "tests/test_docs.py",
    "tests/test_zh_typography.py",
)
"""The fast-tier test files a new check touches: the guide promises they pass once its steps are done."""


def adding_a_check() -> str:
    """The guide's section "Adding a check" (up to its building blocks)."""
    text = GUIDE.read_text()
    return text[text.index("### Adding a check") : text.index("#### The building blocks")]


def guide_blocks() -> list[str]:
    """The section's Python code blocks, in order, dedented: entry, inputs builder, judge, mistake."""
    blocks = [textwrap.dedent(b) for b in re.findall(r"```python\n(.*?)^ *```", adding_a_check(), re.S | re.M)]
    assert len(blocks) == 4, f"the guide's 'Adding a check' has {len(blocks)} Python blocks, not 4"
    return blocks


def test_the_guide_s_blocks_are_read() -> None:
    entry, builder, judge, mistake = guide_blocks()
    assert entry.startswith("Check(") and "def relu_dead_cases" in builder
    assert "def judge_backward_dead" in judge and mistake.startswith("_m(")


class Clone:
    """A fresh clone of this repository's HEAD, where commands run with this environment's Python and the clone's
    own ``autograder`` first on the path; the files edited by hand are counted."""

    def __init__(self, folder: Path) -> None:
        self.root = folder / "kit"
        subprocess.run(["git", "clone", "-q", str(REPO), str(self.root)], check=True)
        self.edited: set[str] = set()
        self.env = os.environ | {
            "PYTHONPATH": str(self.root),
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        }

    def edit(self, path: str, old: str, new: str) -> None:
        """A hand edit: ``old``, which occurs exactly once in ``path``, becomes ``new``."""
        file = self.root / path
        text = file.read_text()
        assert text.count(old) == 1, f"{path}: {old!r} occurs {text.count(old)} times"
        file.write_text(text.replace(old, new))
        self.edited.add(path)

    def write(self, path: str, text: str) -> None:
        """A hand edit: ``path`` becomes ``text``."""
        (self.root / path).write_text(text)
        self.edited.add(path)

    def append(self, path: str, code: str) -> None:
        file = self.root / path
        file.write_text(file.read_text().rstrip("\n") + "\n\n\n" + code.rstrip("\n") + "\n")
        self.edited.add(path)

    def run(self, *command: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, *command], cwd=self.root, env=self.env, capture_output=True, text=True, timeout=1800
        )
        if ok:
            assert done.returncode == 0, f"{command}: {done.stdout[-3000:]}\n{done.stderr[-6000:]}"
        return done


def test_adding_a_check_as_the_guide_says(tmp_path: Path) -> None:
    entry, builder, judge, mistake = guide_blocks()
    kit = Clone(tmp_path)
    assert kit.run("-c", "import autograder; print(autograder.__file__)").stdout.startswith(str(kit.root))

    # 1. its entry after its part's other checks; its points taken from relu_backward's (7 become 5)
    backward = re.search(
        r'    Check\("relu_backward",.*?\),\n', (kit.root / "autograder/registry.py").read_text(), re.S
    )
    assert backward is not None
    assert "points=7" in backward[0] and "7 become 5" in adding_a_check()
    kit.edit("autograder/registry.py", backward[0], backward[0].replace("points=7", "points=5") + "    " + entry)
    # 2. its inputs, 3. its judge
    kit.append("autograder/judge/inputs.py", builder)
    kit.append("autograder/judge/relu.py", judge)
    # 4. the mistake it catches, in the catalogue
    mistakes = (kit.root / "tests/catalogue/mistakes.py").read_text()
    end = mistakes.index("\n)\n", mistakes.index("MISTAKES:"))
    kit.write(
        "tests/catalogue/mistakes.py",
        mistakes[:end] + "\n" + textwrap.indent(mistake, "    ").rstrip("\n") + mistakes[end:],
    )

    # 5. regenerate: it stops with the new cell's section to paste into the translation
    first = kit.run("-m", "autograder", "regenerate", ok=False)
    assert first.returncode != 0, first.stdout[-2000:]
    section = re.search(r"^<!-- code (?P<id>[\w-]+) -->\nen: (?P<en>.*)\nzh: .*\n", first.stdout + first.stderr, re.M)
    assert section is not None, first.stderr[-3000:]
    zh = re.search(r"\(\"(?P<zh>[^\"]*（2 分）[^\"]*)\"\)", adding_a_check())
    assert zh is not None
    translation = kit.root / "i18n/mlp.zh.md"
    pasted = f"\n\n<!-- code {section['id']} -->\nen: {section['en']}\nzh: {zh['zh']}\n"
    kit.write("i18n/mlp.zh.md", translation.read_text().rstrip("\n") + pasted)
    kit.run("-m", "autograder", "edition", "zh", "--stamp")
    kit.run("-m", "autograder", "regenerate")

    # 6. the pins: only the new check's verdicts come
    kit.run("tests/pinned_outputs.py", "--write")
    numstat = subprocess.run(
        ["git", "diff", "--numstat", "--", "tests/pinned/outputs.json"], cwd=kit.root, capture_output=True, text=True
    ).stdout.split()
    assert numstat and int(numstat[0]) > 0 and numstat[1] == "0", numstat
    kit.run("-m", "ruff", "format", "autograder", "tests")

    assert len(kit.edited) <= MOST_HAND_EDITS, sorted(kit.edited)
    tests = kit.run("-m", "pytest", "-q", "-m", "not slow", "-p", "no:cacheprovider", *TOUCHED, ok=False)
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]


LANGUAGE_TESTS = (
    "tests/test_wordings.py",
    "tests/test_edition.py",
    "tests/test_generated_files.py",
    "tests/test_pinned_outputs.py",
    "tests/test_messages.py",
    "tests/test_points_table.py",
    "tests/test_plot_font.py",
    "tests/test_release_is_the_students.py",
    "tests/test_style.py",
)
"""The fast-tier test files that run for every language: the guide promises they pass with the new one."""


def test_adding_a_language_as_the_guide_says(tmp_path: Path) -> None:
    kit = Clone(tmp_path)
    # 1. the file: the guide's own, with its language table and three wordings
    kit.write("i18n/messages.ja.toml", guide_file())
    # 2. generate: it stamps the wordings and lists the messages shown in English, as lines to add to the file
    done = kit.run("-m", "autograder", "edition", "ja", "--stamp")
    listed = re.findall(r'^"[^"\n]+"\.en = .*$', done.stderr, re.M)
    assert len(listed) > 100, done.stderr[-2000:]
    kit.write("i18n/messages.ja.toml", (kit.root / "i18n/messages.ja.toml").read_text() + "\n".join(listed) + "\n")
    assert "no wording" not in kit.run("-m", "autograder", "edition", "ja").stderr  # nothing left out now
    # 5. regenerate: every edition, mlp_ja among them, its release and solution
    kit.run("-m", "autograder", "regenerate")
    assert (kit.root / "release" / "mlp_ja" / "mlp_ja.ipynb").is_file()
    # 4. the pins: the Japanese words come, no English or Chinese pin changes
    kit.run("tests/pinned_outputs.py", "--write")
    numstat = subprocess.run(
        ["git", "diff", "--numstat", "--", "tests/pinned/outputs.json"], cwd=kit.root, capture_output=True, text=True
    ).stdout.split()
    assert numstat and int(numstat[0]) > 0 and numstat[1] == "0", numstat

    assert kit.edited == {"i18n/messages.ja.toml"}  # one file, no Python
    tests = kit.run("-m", "pytest", "-q", "-m", "not slow", "-p", "no:cacheprovider", *LANGUAGE_TESTS, ok=False)
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-2000:]
