"""The MNIST gate: the grader trains the student's MLP with its own recipe and requires 97 % test accuracy.

The recipe (seed, initialisation, batch size, learning rates, epochs) and the
loss and optimiser belong to the grader, so only the student's ``MLP``,
``Linear`` and ``ReLU`` are exercised.
"""
import math
import time
import warnings
from dataclasses import dataclass

import numpy as np
from mnist_data import MnistDataError, load_mnist, to_vectors
from threadpoolctl import threadpool_limits
from nn_checks import check_array, check_shape, fail
from nn_diagnosis import explain, explain_error

from autograder import reference
from autograder.common import GRADER_FILES
from autograder.limits import CheckTimeout, time_limit
from autograder.secret import rng_for


@dataclass(frozen=True)
class Recipe:
    hidden: int = 256
    batch: int = 32
    learning_rates: tuple[float, ...] = (0.15, 0.15, 0.15, 0.15, 0.15, 0.03)  # one per epoch
    threshold: float = 0.97
    budget_seconds: float = 90.0  # CPU seconds of training; a vectorised solution needs about 8


RECIPE = Recipe()
AFTER_CHECKS = "the gate trains your MLP, Linear and ReLU: make their checks above pass first"
SLOW_HINT = "a Python loop over samples or entries in forward/backward; use matrix products (x @ W) on the whole batch"


def _reinitialise(params: list, rng: np.random.Generator) -> None:
    """He initialisation from the grader's own seed, in place (biases to zero)."""
    for p in params:
        p[...] = rng.standard_normal(p.shape) * math.sqrt(2.0 / p.shape[0]) if p.ndim == 2 else 0.0


def train_and_evaluate(MLP: type, data, recipe: Recipe = RECIPE) -> tuple[float, float]:
    """Train with the recipe and return (test accuracy, training seconds); raise AssertionError on failure."""
    x_train, y_train = to_vectors(data.train_images), data.train_labels.astype(np.int64)
    x_test, y_test = to_vectors(data.test_images), data.test_labels.astype(np.int64)
    rng = rng_for("mnist_gate")
    model = MLP(x_train.shape[1], recipe.hidden, 10)
    params = list(model.parameters())
    _reinitialise(params, rng)
    n = len(x_train)
    total_steps = len(recipe.learning_rates) * math.ceil(n / recipe.batch)
    start, cpu_start = time.perf_counter(), time.process_time()
    step = 0
    for lr in recipe.learning_rates:
        order = rng.permutation(n)
        for i in range(0, n, recipe.batch):
            batch = order[i:i + recipe.batch]
            logits = model(x_train[batch])
            if step == 0:
                check_shape("MLP(784, 256, 10).forward on 32 MNIST images", logits, (len(batch), 10))
            grad = reference.cross_entropy_grad(np.asarray(logits, np.float64), y_train[batch]).astype(np.asarray(logits).dtype)
            for p in params:  # fresh gradients each step, whether backward sets or accumulates them
                p.grad = None
            model.backward(grad)
            for p in params:
                if p.grad is None:
                    fail("MNIST training", "every parameter to have a .grad after MLP.backward", "a parameter without one",
                         "MLP.backward must call fc2.backward, relu.backward and fc1.backward")
                p -= lr * p.grad
            step += 1
            if step in (10, 50) or step % 250 == 0:
                check_array(f"MNIST training: the logits after {step} SGD steps", np.asarray(logits),
                            "training diverged; a gradient is wrong (check the gradient tests above)")
                elapsed = time.process_time() - cpu_start  # CPU time: other load on the machine does not count
                projected = elapsed * total_steps / step
                if projected > recipe.budget_seconds:
                    fail("MNIST training speed", f"training to finish within {recipe.budget_seconds:.0f} CPU seconds",
                         f"about {projected:.0f} s (measured {elapsed:.1f} CPU seconds for {step} of {total_steps} steps)", SLOW_HINT)
    seconds = time.perf_counter() - start
    predictions = np.concatenate([np.asarray(model(x_test[i:i + 1000])).argmax(axis=1) for i in range(0, len(x_test), 1000)])
    return float(np.mean(predictions == y_test)), seconds


def check_mnist_accuracy(MLP: type) -> None:
    """Train the student's MLP with the grader's recipe; require RECIPE.threshold accuracy on the 10,000 test images."""
    try:
        data = load_mnist()
    except MnistDataError as error:
        raise RuntimeError(f"The grading machine cannot read MNIST (an instructor's problem, not the student's): {error}") from None
    # One BLAS thread: the result is the same on every machine and regrade, and a
    # busy machine (or parallel grading) cannot make a correct solution look slow.
    with time_limit("MNIST training", RECIPE.budget_seconds + 60), threadpool_limits(limits=1, user_api="blas"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                accuracy, seconds = train_and_evaluate(MLP, data)
        except (AssertionError, CheckTimeout):
            raise
        except Exception as error:
            raise AssertionError(explain_error("MNIST training", error, formula=AFTER_CHECKS, skip=(GRADER_FILES,))) from None
    if not accuracy >= RECIPE.threshold:
        message = (f"MNIST test accuracy after the grader's training ({len(RECIPE.learning_rates)} epochs, {seconds:.1f} s): "
                   f"expected at least {RECIPE.threshold:.2%} (a correct MLP reaches about 98%), got {accuracy:.2%}.")
        raise AssertionError(explain(message, "a gradient is slightly wrong or the model does not learn", AFTER_CHECKS))
    print(f"MNIST: {accuracy:.2%} test accuracy after {seconds:.1f} s of training (required {RECIPE.threshold:.0%}).")
