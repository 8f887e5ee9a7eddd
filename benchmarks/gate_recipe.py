"""Benchmark: the MNIST gate's accuracy spread over many secrets for candidate recipes. Not a unit test.

Usage (MNIST_DIR must point at the four MNIST .gz files)::

    .venv/bin/python benchmarks/gate_recipe.py [--secrets 12] [--recipes 0.15,0.03 0.15,0.15,0.03 ...]

Each recipe is a list of learning rates, one per epoch (batch 32, the grader's He initialisation and data orders
from each secret, exactly as ``autograder.judge.inputs.gate_recipe`` draws them). The reference solution's MLP is
trained by the gate's probe and judged by the gate's judge, in this process on one BLAS thread, as in the worker.
A recipe keeps the gate as strict as the 6-epoch one when the solution's worst accuracy stays well above the
97 % threshold (the kit asks for at least 97.5 % on every secret).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "source" / "mlp"))
sys.path.insert(0, str(REPO))


def reference_mlp() -> type:
    from autograder.probe.run import load_answer

    notebook = json.loads((REPO / "solutions" / "mlp" / "mlp.ipynb").read_text())
    cells = [
        {"grade_id": c["metadata"]["nbgrader"]["grade_id"], "source": "".join(c["source"])}
        for c in notebook["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        in ("setup", "linear", "relu", "cross_entropy", "sgd", "mlp")
    ]
    namespace, errors = load_answer(cells)
    assert not errors, errors
    return namespace["MLP"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secrets", type=int, default=12)
    parser.add_argument(
        "--recipes", nargs="+", default=["0.15,0.15,0.15,0.15,0.15,0.03", "0.15,0.15,0.03", "0.15,0.03"]
    )
    args = parser.parse_args()
    from autograder.judge import gate as gate_judge
    from autograder.judge import inputs, secret
    from autograder.probe import gate

    MLP = reference_mlp()
    print("| recipe (lr per epoch) | steps | accuracy min–max (median), n secrets | training s (median) |")
    print("| --- | ---: | --- | ---: |")
    for recipe in args.recipes:
        rates = tuple(float(r) for r in recipe.split(","))
        accuracies, seconds = [], []
        for k in range(args.secrets):
            os.environ[secret.SECRET_ENV] = f"gate-recipe-{k}"
            inputs.GATE_LEARNING_RATES = rates  # the builder draws one data order per epoch
            gate_inputs = inputs.inputs_for("mnist_accuracy")
            start = time.perf_counter()
            records = gate.mnist_accuracy(MLP, gate_inputs)
            seconds.append(time.perf_counter() - start)
            accuracies.append(gate_judge.test_accuracy(records[0]["trained"]))
            print(
                f"  {recipe} secret {k}: {100 * accuracies[-1]:.2f} % in {seconds[-1]:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        steps = len(rates) * -(-inputs.GATE_TRAIN_SIZE // inputs.GATE_BATCH)
        print(
            f"| {recipe} | {steps:,} | {100 * min(accuracies):.2f}–{100 * max(accuracies):.2f} % "
            f"({100 * statistics.median(accuracies):.2f} %), {len(accuracies)} | {statistics.median(seconds):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
