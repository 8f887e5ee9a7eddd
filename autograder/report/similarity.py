"""Similar submissions, as leads for a person to look at, never a finding of copying.

Each student's answer cells (code cells whose nbgrader metadata says ``solution: true``) of the submitted notebook
are fingerprinted with ``copydetect``'s own steps (tokens normalised, names as ``V``; winnowed k-grams; the released
notebook's code removed as boilerplate) and pairs compared with its ``compare_files``; only the k-grams' hash is the
report's own (``kgram_hashes``), the same in every process, so two runs list the same pairs. Fingerprints that many
students share are set aside too, like the given code: the natural way to write a short answer is not evidence. A
pair is listed when what is left of each one's code is mostly found in the other's. Similar code has innocent causes
(a study group, the same tutorial, an answer with one natural form); the report says so, and adds the rare mistakes a
pair shares as further evidence.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.cell_ids import nbgrader

PARALLEL_FROM = 300
"""Classes this large are tokenised on every core."""
MAX_NOTEBOOK_BYTES = 64 << 20
"""A submitted notebook larger than this is not read for similarity (the released one is about 40 kB)."""
MAX_CODE_CHARS = 1_000_000
"""Characters of one notebook's code compared; the answer cells of the reference solution hold about 4,000."""
_BASE, _MIX1, _MIX2 = 0x100000001B3, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
"""The k-gram hash: a polynomial in this base, then splitmix64's finaliser (modulo 2**64)."""


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
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        return ""
    notebook: dict[str, Any] = json.loads(path.read_text())
    sources = []
    for cell in notebook.get("cells", []):
        solution = nbgrader(cell).get("solution", False)
        if cell.get("cell_type") == "code" and (solution or not only_answers):
            source = cell.get("source", "")
            sources.append("".join(source) if isinstance(source, list) else source)
    return "\n\n".join(sources)[:MAX_CODE_CHARS]


def answer_code(path: Path) -> str:
    """The answer cells of a submitted notebook ("" if it cannot be read)."""
    try:
        return _cells(path, only_answers=True)
    except (OSError, ValueError, AttributeError, TypeError, RecursionError):  # a student's file, whatever it holds
        return ""


def release_code(path: Path) -> str:
    """Every code cell of the released notebook: what students were given."""
    try:
        return _cells(path, only_answers=False)
    except (OSError, ValueError, AttributeError, TypeError, RecursionError):
        return ""


@dataclass(frozen=True)
class Similarity:
    """The pairs found, most alike first, and what was set aside as common."""

    pairs: list[Pair]
    common_limit: int  # a fingerprint found in more students than this was set aside
    common: int  # how many fingerprints were
    searched: bool = True  # False: not looked for (``--no-similar``)


@dataclass
class Fingerprint:
    """What ``copydetect.compare_files`` reads of a ``CodeFingerprint``: the normalised code, its winnowed k-gram
    hashes (``copydetect.utils.get_document_fingerprints``) and how many of its tokens they cover."""

    filtered_code: str
    hashes: set[int]
    hash_idx: dict[int, list[int]]
    k: int
    token_coverage: float = 0.0
    offsets: Any = ()  # copydetect maps matches back to the raw code with these; the report needs no highlighting

    def set_aside(self, common: set[int]) -> None:
        """Drop ``common`` fingerprints, as copydetect drops boilerplate, and count the tokens left."""
        from copydetect.utils import get_token_coverage

        self.hashes -= common
        for h in common & self.hash_idx.keys():
            del self.hash_idx[h]
        self.token_coverage = get_token_coverage(self.hash_idx, self.k, len(self.filtered_code))


def normalised(code: str) -> str:
    """``code`` tokenised and filtered by copydetect (names as V, functions F, strings S; no comments or spaces); ""
    if the tokeniser fails on it: one student's code never stops the report."""
    from copydetect.utils import filter_code

    try:
        return filter_code(code, "answer.py", "python")[0]
    except Exception:  # noqa: BLE001 - a student's text, whatever it holds
        return ""


def _normalise_all(codes: list[str]) -> list[str]:
    """Tokenising is most of the cost: on every core for a large class."""
    workers = min(os.cpu_count() or 1, 8)
    if len(codes) < PARALLEL_FROM or workers < 2:
        return [normalised(code) for code in codes]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(normalised, codes, chunksize=64))


def kgram_hashes(code: str, k: int) -> Any:
    """A 64-bit hash of every ``k`` characters of ``code`` in a row, as an int64 array: what copydetect's
    ``hashed_kgrams`` computes with Python's ``hash``, which changes from process to process (``PYTHONHASHSEED``) and
    with it which k-grams winnowing keeps, so a borderline pair would come and go between runs."""
    import numpy as np

    chars = np.frombuffer(code.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(chars) - k + 1
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    hashes = np.zeros(count, dtype=np.uint64)
    base, mix1, mix2 = np.uint64(_BASE), np.uint64(_MIX1), np.uint64(_MIX2)
    for offset in range(k):  # unsigned arithmetic wraps around: modulo 2**64
        hashes = hashes * base + chars[offset : offset + count]
    for shift, factor in ((30, mix1), (27, mix2)):  # every character in every bit: winnowing keeps the smallest
        hashes = (hashes ^ (hashes >> np.uint64(shift))) * factor
    return (hashes ^ (hashes >> np.uint64(31))).view(np.int64)


def fingerprints(code: str, k: int, window: int, boilerplate: Any = ()) -> tuple[set[int], dict[int, list[int]]]:
    """copydetect's ``get_document_fingerprints`` with ``kgram_hashes``: the winnowed hashes of ``code`` (normalised)
    but those in ``boilerplate``, and where each one starts."""
    import numpy as np
    from copydetect.utils import winnow

    hashes, where = winnow(kgram_hashes(code, k), window, remove_duplicates=False)
    if len(boilerplate):
        kept = ~np.isin(hashes, boilerplate)
        hashes, where = hashes[kept], where[kept]
    index: dict[int, list[int]] = {}
    for value, start in zip(hashes.tolist(), where.tolist(), strict=True):
        index.setdefault(value, []).append(start)
    return set(index), index


def similar_pairs(answers: dict[str, str], given: str, settings: SimilaritySettings | None = None) -> Similarity:
    """Pairs of students whose ``answers`` are alike beyond the ``given`` code (and the code most students share)."""
    from copydetect import compare_files

    settings = settings or SimilaritySettings()
    k, window = settings.noise, settings.guarantee - settings.noise + 1
    boilerplate = kgram_hashes(normalised(given), k)  # every k-gram of the given code
    students = sorted(s for s, code in answers.items() if code.strip())
    prints = {}
    for student, code in zip(students, _normalise_all([answers[s] for s in students]), strict=True):
        hashes, index = fingerprints(code, k, window, boilerplate)
        prints[student] = Fingerprint(code, hashes, index, k)
    found_in = Counter(h for p in prints.values() for h in p.hashes)
    limit = max(settings.common_at_least, int(settings.common_share * len(prints)))
    common = {h for h, n in found_in.items() if n > limit}
    for p in prints.values():  # as if it were given code
        p.set_aside(common)
    holders: dict[int, list[str]] = {}
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
