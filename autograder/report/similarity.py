"""Similar submissions, as leads for a person to look at, never a finding of copying.

Each student's answer cells (code cells whose nbgrader metadata says ``solution: true``) of the submitted notebook
are fingerprinted with ``copydetect`` (tokens normalised, names as ``V``, winnowed k-grams), the released notebook's
code removed as boilerplate. Fingerprints that many students share are set aside too (like the given code): the
natural way to write a short answer is not evidence. A pair is listed when what is left of each one's code is mostly
found in the other's. Similar code has innocent causes (a study group, the same tutorial, an answer with one natural
form); the report says so, and adds the rare mistakes a pair shares as further evidence.
"""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SimilaritySettings:
    """How alike two submissions must be to be listed."""

    threshold: float = 0.8  # share of each one's fingerprinted answer code found in the other's
    min_tokens: int = 60  # and at least this many tokens (normalised characters) of it
    noise: int = 25  # copydetect's noise threshold: the k of its k-grams
    guarantee: int = 30  # copydetect's guarantee threshold (winnowing window = guarantee - noise + 1)
    common_share: float = 0.05  # a fingerprint found in more than this share of the class is common ...
    common_at_least: int = 10  # ... and in more than this many students


@dataclass
class Pair:
    """Two students whose answer cells are alike once the given and common code is set aside."""

    first: str
    second: str
    similarity: tuple[float, float]  # share of each one's fingerprinted code found in the other's
    tokens: int  # normalised characters they share
    shared: list[str] = field(default_factory=list)  # keys of the rare mistakes both made (``aggregate.Group.key``)

    @property
    def score(self) -> float:
        return min(self.similarity)


def _cells(path: Path, only_answers: bool) -> str:
    """The code of a notebook's answer cells (or of all its code cells), cell after cell."""
    notebook: dict[str, Any] = json.loads(path.read_text())
    sources = []
    for cell in notebook.get("cells", []):
        solution = cell.get("metadata", {}).get("nbgrader", {}).get("solution", False)
        if cell.get("cell_type") == "code" and (solution or not only_answers):
            source = cell.get("source", "")
            sources.append("".join(source) if isinstance(source, list) else source)
    return "\n\n".join(sources)


def answer_code(path: Path) -> str:
    """The answer cells of a submitted notebook ("" if it cannot be read)."""
    try:
        return _cells(path, only_answers=True)
    except (OSError, ValueError, AttributeError):
        return ""


def release_code(path: Path) -> str:
    """Every code cell of the released notebook: what students were given."""
    try:
        return _cells(path, only_answers=False)
    except (OSError, ValueError, AttributeError):
        return ""


@dataclass(frozen=True)
class Similarity:
    """The pairs found, most alike first, and what was set aside as common."""

    pairs: list[Pair]
    common_limit: int  # a fingerprint found in more students than this was set aside
    common: int  # how many fingerprints were


def similar_pairs(answers: dict[str, str], given: str, settings: SimilaritySettings | None = None) -> Similarity:
    """Pairs of students whose ``answers`` are alike beyond the ``given`` code (and the code most students share)."""
    import numpy as np
    from copydetect import CodeFingerprint, compare_files
    from copydetect.utils import get_token_coverage

    settings = settings or SimilaritySettings()
    k, window = settings.noise, settings.guarantee - settings.noise + 1

    def fingerprint(name: str, code: str, boilerplate: Any = None, win: int = window) -> Any:
        return CodeFingerprint(name, k, win, boilerplate, language="python", fp=io.StringIO(code))

    boilerplate = np.unique(np.array(sorted(fingerprint("given.py", given, win=1).hashes), dtype=np.int64))
    prints = {s: fingerprint(f"{s}.py", code, boilerplate) for s, code in sorted(answers.items()) if code.strip()}
    found_in = Counter(h for p in prints.values() for h in p.hashes)
    limit = max(settings.common_at_least, int(settings.common_share * len(prints)))
    common = {h for h, n in found_in.items() if n > limit}
    for p in prints.values():  # as if they were given code: copydetect's own boilerplate removal, after the fact
        p.hashes -= common
        for h in common & p.hash_idx.keys():
            del p.hash_idx[h]
        p.token_coverage = get_token_coverage(p.hash_idx, k, len(p.filtered_code))
    holders: dict[Any, list[str]] = {}
    for student, p in prints.items():
        for h in p.hashes:
            holders.setdefault(h, []).append(student)
    shared = Counter(pair for students in holders.values() for pair in itertools.combinations(students, 2))
    pairs = []
    for (a, b), count in shared.items():
        if count < settings.threshold * min(len(prints[a].hashes), len(prints[b].hashes)) / 2:
            continue  # far too few fingerprints in common to reach the threshold
        tokens, similarity, _ = compare_files(prints[a], prints[b])
        if min(similarity) >= settings.threshold and tokens >= settings.min_tokens:
            pairs.append(Pair(a, b, (float(similarity[0]), float(similarity[1])), int(tokens)))
    pairs.sort(key=lambda p: (-p.score, -p.tokens, p.first, p.second))
    return Similarity(pairs, limit, len(common))
