"""How often a correct submission loses a hidden check because of the course's secret: not a unit test, a count.

Usage::

    .venv/bin/python benchmarks/fair_secrets.py [--secrets 2000]

Grades, in this process (every fast check; the MNIST gate is not here), the reference solution, every correct
variant of the mistake catalogue and every corpus submission that must lose nothing, under N random secrets. Prints
how many (secret, submission) pairs lost each check, with the first secret that did so: every count must be 0.
The fast tier keeps the secrets once found here (``tests/test_fair_under_any_secret.py``).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "corpus"))
import grading  # noqa: E402
from catalogue.mistakes import VARIANTS  # noqa: E402


def correct_submissions() -> dict[str, dict]:
    """Every submission the kit's tests hold to be correct, as namespaces ready to grade."""
    codes = {"reference": grading.catalogue_code(())}
    codes |= {variant.name: grading.catalogue_code(variant.edits) for variant in VARIANTS}
    codes |= {name: code for name, code in grading.corpus().items() if not grading.expected_of(code)}
    return {name: grading.namespace(code, f"<{name}>") for name, code in codes.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--secrets", type=int, default=2000, help="how many random secrets to grade under")
    args = parser.parse_args()
    submissions = correct_submissions()
    lost: Counter[str] = Counter()
    first: dict[str, str] = {}
    start = time.perf_counter()
    for _ in range(args.secrets):
        secret = secrets.token_hex(16)
        with grading.secret(secret):
            for name, names in submissions.items():
                for check, message in grading.grade(names).items():
                    lost[check] += 1
                    first.setdefault(check, f"{secret} {name}: {message.splitlines()[0][:160]}")
    seconds = time.perf_counter() - start
    print(f"{len(submissions)} correct submissions x {args.secrets} secrets, {seconds:.0f} s")
    print(f"checks lost: {sum(lost.values())}")
    for check, count in lost.most_common():
        print(f"  {check}: {count} (first: {first[check]})")


if __name__ == "__main__":
    main()
