"""Typical student mistakes, and correct-but-different solutions, as edits of the reference solution.

Each entry rewrites answer cells of the solutions notebook (found by their
nbgrader ``grade_id``). The kit's tests grade every entry: a mistake must lose
points on its own part and nowhere unrelated (``registry.cells_a_part_may_cost``);
a variant must earn full marks. The demo class uses one mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder import registry
from autograder.classroom import Edit

GATE_CELL = registry.check("mnist_accuracy").cell


@dataclass(frozen=True)
class Mistake:
    name: str
    part: str
    description: str
    edits: tuple[Edit, ...]
    must_lose: tuple[str, ...]  # the test cells that must lose points
    cause: str  # the failure message of every cell in must_lose must contain this (the diagnosis names the mistake)


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    edits: tuple[Edit, ...]


def _m(name: str, part: str, description: str, old: str, new: str, must_lose: tuple[str, ...], cause: str) -> Mistake:
    """A mistake made by one edit of the part's answer cell (whose grade_id is the part's name)."""
    return Mistake(name, part, description, (Edit(part, old, new),), must_lose, cause)


def per_entry(a: str, b: str) -> str:
    """The product ``a @ b`` written entry by entry in Python: one NumPy dot product per entry."""
    return f"np.array([[{a}[i] @ {b}[:, j] for j in range({b}.shape[1])] for i in range({a}.shape[0])])"


FORWARD_SAVE = 'self.ctx["x"] = x\n'
SGD_UPDATE = "p -= self.lr * p.grad"
MLP_BACKWARD = (
    "grad = self.fc2.backward(grad)\n        grad = self.relu.backward(grad)\n        return self.fc1.backward(grad)"
)

MISTAKES: tuple[Mistake, ...] = (
    _m(
        "linear_dw_transposed",
        "linear",
        "dW = Gᵀ X instead of Xᵀ G",
        "self.W.grad = x.T @ grad",
        "self.W.grad = grad.T @ x",
        ("test_linear_backward_dw",),
        "dW = Gᵀ X",
    ),
    _m(
        "linear_dw_averaged",
        "linear",
        "dW divided by the batch size",
        "self.W.grad = x.T @ grad",
        "self.W.grad = x.T @ grad / x.shape[0]",
        ("test_linear_backward_dw",),
        "dW divided by the batch size",
    ),
    _m(
        "linear_db_not_summed",
        "linear",
        "db = G, not summed over the batch",
        "self.b.grad = grad.sum(axis=0)",
        "self.b.grad = grad",
        ("test_linear_backward_db",),
        "not summed over the batch",
    ),
    _m(
        "linear_db_keepdims",
        "linear",
        "db of shape (1, D_out)",
        "grad.sum(axis=0)",
        "grad.sum(axis=0, keepdims=True)",
        ("test_linear_backward_db",),
        "keepdims",
    ),
    _m(
        "linear_db_not_stored",
        "linear",
        "backward computes db but never stores it in b.grad",
        "self.b.grad = grad.sum(axis=0)",
        "db = grad.sum(axis=0)",
        ("test_linear_backward_db", GATE_CELL),
        "Linear.backward must store the gradient",
    ),
    _m(
        "linear_db_wrong_axis",
        "linear",
        "db summed over the features (axis=1)",
        "grad.sum(axis=0)",
        "grad.sum(axis=1)",
        ("test_linear_backward_db",),
        "summed over the features (axis=1)",
    ),
    _m(
        "linear_db_mean",
        "linear",
        "db averaged over the batch",
        "grad.sum(axis=0)",
        "grad.mean(axis=0)",
        ("test_linear_backward_db",),
        "averaged over the batch",
    ),
    _m(
        "linear_dx_no_transpose",
        "linear",
        "dX = G W instead of G Wᵀ",
        "return grad @ self.W.T",
        "return grad @ self.W",
        ("test_linear_backward_dx",),
        "W is not transposed",
    ),
    _m(
        "linear_forward_no_bias",
        "linear",
        "forward forgets + b",
        "return x @ self.W + self.b",
        "return x @ self.W",
        ("test_linear_forward",),
        "bias is not added",
    ),
    _m(
        "linear_forward_w_transposed",
        "linear",
        "forward computes X Wᵀ + b",
        "return x @ self.W + self.b",
        "return x @ self.W.T + self.b",
        ("test_linear_forward",),
        "W is transposed",
    ),
    _m(
        "linear_forward_not_saving_input",
        "linear",
        "forward does not save x",
        FORWARD_SAVE,
        "pass\n",
        ("test_linear_backward_dx", "test_linear_backward_dw", "test_linear_backward_db"),
        "forward did not save",
    ),
    _m(
        "linear_stale_input",
        "linear",
        "forward saves only the first input it sees",
        FORWARD_SAVE,
        'self.ctx.setdefault("x", x)\n',
        ("test_linear_backward_dw",),
        "input of an earlier forward call",
    ),
    Mistake(  # hundreds of times the grader's training on every machine measured (BENCHMARKS.md): far over the limit
        "linear_python_loops",
        "linear",
        "forward and backward compute each output entry in a Python loop (right values, far too slow)",
        (
            Edit("linear", "return x @ self.W + self.b", f"return {per_entry('x', 'self.W')} + self.b"),
            Edit("linear", "self.W.grad = x.T @ grad", f"self.W.grad = {per_entry('x.T', 'grad')}"),
            Edit("linear", "return grad @ self.W.T", f"return {per_entry('grad', 'self.W.T')}"),
        ),
        (GATE_CELL,),
        "Python loop",
    ),
    _m(
        "relu_mask_ge_zero",
        "relu",
        "mask 1(H >= 0): gradient 1 at exactly 0",
        'self.ctx["mask"] = x > 0',
        'self.ctx["mask"] = x >= 0',
        ("test_relu_backward",),
        "1(H ≥ 0)",
    ),
    _m(
        "relu_backward_times_output",
        "relu",
        "backward multiplies by the output, not the mask",
        'self.ctx["mask"] = x > 0',
        'self.ctx["mask"] = np.maximum(x, 0)',
        ("test_relu_backward",),
        "multiplied by the output",
    ),
    _m(
        "relu_mask_from_grad",
        "relu",
        "mask taken from the upstream gradient",
        'return grad * self.ctx["mask"]',
        "return grad * (grad > 0)",
        ("test_relu_backward",),
        "mask taken from the gradient",
    ),
    _m(
        "relu_backward_no_mask",
        "relu",
        "backward returns the upstream gradient unchanged",
        'return grad * self.ctx["mask"]',
        "return grad",
        ("test_relu_backward",),
        "no mask",
    ),
    _m(
        "relu_forward_in_place",
        "relu",
        "forward overwrites its input",
        "return np.maximum(x, 0)",
        "return np.maximum(x, 0, out=x)",
        ("test_relu_forward",),
        "in place",
    ),
    _m(
        "relu_forward_np_max",
        "relu",
        "np.max (a reduction) instead of np.maximum",
        "return np.maximum(x, 0)",
        "return np.max(x, 0)",
        ("test_relu_forward",),
        "reduction",
    ),
    _m(
        "relu_forward_minimum",
        "relu",
        "np.minimum instead of np.maximum",
        "return np.maximum(x, 0)",
        "return np.minimum(x, 0)",
        ("test_relu_forward",),
        "min instead of max",
    ),
    _m(
        "ce_no_max_shift",
        "cross_entropy",
        "softmax without subtracting the row max",
        "shifted = logits - logits.max(axis=1, keepdims=True)",
        "shifted = logits",
        ("test_cross_entropy_forward", "test_cross_entropy_backward"),
        "without subtracting each row's max",
    ),
    _m(
        "ce_sum_not_mean",
        "cross_entropy",
        "loss summed over the batch, not averaged",
        "return -log_probs[np.arange(batch), targets].mean()",
        "return -log_probs[np.arange(batch), targets].sum()",
        ("test_cross_entropy_forward",),
        "summed over the batch",
    ),
    _m(
        "ce_per_sample_losses",
        "cross_entropy",
        "forward returns the per-sample losses, not their mean",
        "return -log_probs[np.arange(batch), targets].mean()",
        "return -log_probs[np.arange(batch), targets]",
        ("test_cross_entropy_forward",),
        "per-sample losses",
    ),
    _m(
        "ce_loss_sign_flipped",
        "cross_entropy",
        "forward returns +mean log-probability",
        "return -log_probs[np.arange(batch), targets].mean()",
        "return log_probs[np.arange(batch), targets].mean()",
        ("test_cross_entropy_forward",),
        "wrong sign",
    ),
    _m(
        "ce_backward_not_divided_by_b",
        "cross_entropy",
        "dZ not divided by B",
        "return grad / batch",
        "return grad",
        ("test_cross_entropy_backward",),
        "not divided by B",
    ),
    _m(
        "ce_softmax_over_batch",
        "cross_entropy",
        "softmax normalised over the batch axis",
        "np.exp(shifted).sum(axis=1, keepdims=True)",
        "np.exp(shifted).sum(axis=0, keepdims=True)",
        ("test_cross_entropy_forward", "test_cross_entropy_backward"),
        "over the batch axis",
    ),
    _m(
        "ce_backward_float32",
        "cross_entropy",
        "backward returns dZ in float32 for float64 logits",
        "return grad / batch",
        "return (grad / batch).astype(np.float32)",
        ("test_cross_entropy_backward",),
        "compute dZ in the dtype of the logits",
    ),
    _m(
        "ce_onehot_wrong_index",
        "cross_entropy",
        "one-hot subtracted with grad[:, y]",
        "grad[np.arange(batch), targets] -= 1",
        "grad[:, targets] -= 1",
        ("test_cross_entropy_backward",),
        "grad[:, y]",
    ),
    _m(
        "ce_onehot_not_subtracted",
        "cross_entropy",
        "dZ = softmax / B, without the one-hot",
        "grad[np.arange(batch), targets] -= 1",
        "pass",
        ("test_cross_entropy_backward",),
        "not subtracted",
    ),
    _m(
        "ce_backward_sign_flipped",
        "cross_entropy",
        "dZ = (onehot − softmax) / B",
        "return grad / batch",
        "return -grad / batch",
        ("test_cross_entropy_backward",),
        "wrong sign",
    ),
    _m(
        "ce_loss_over_classes",
        "cross_entropy",
        "loss averaged over every entry of onehot * log p: divided by B·C, not B",
        "return -log_probs[np.arange(batch), targets].mean()",
        "return -np.mean(np.eye(logits.shape[1])[targets] * log_probs)",
        ("test_cross_entropy_forward",),
        "averaged over the classes too",
    ),
    _m(
        "ce_zero_times_log_zero",
        "cross_entropy",
        "loss = −Σ onehot · log softmax / B: the probabilities that underflow to 0 give 0 · log 0 = NaN",
        "return -log_probs[np.arange(batch), targets].mean()",
        "probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)\n"
        "        return -(np.eye(logits.shape[1])[targets] * np.log(probs)).sum() / batch",
        ("test_cross_entropy_forward",),
        "0 · log 0 = NaN",
    ),
    _m(
        "ce_backward_over_classes",
        "cross_entropy",
        "dZ divided by B·C (the array's size), not B",
        "return grad / batch",
        "return grad / grad.size",
        ("test_cross_entropy_backward",),
        "dZ is divided by B·C",
    ),
    _m(
        "ce_backward_plus_one",
        "cross_entropy",
        "a constant added to dZ",
        "return grad / batch",
        "return grad / batch + 1",
        ("test_cross_entropy_backward",),
        "off by the same constant, 1,",
    ),
    Mistake(
        "ce_backward_earlier_forward",
        "cross_entropy",
        "forward queues what it saves and backward takes the oldest: the logits and targets of an earlier forward",
        (
            Edit(
                "cross_entropy",
                'self.ctx["probs"] = np.exp(log_probs)\n        self.ctx["targets"] = targets',
                'self.ctx.setdefault("saved", []).append((np.exp(log_probs), targets))',
            ),
            Edit(
                "cross_entropy",
                'probs, targets = self.ctx["probs"], self.ctx["targets"]',
                'probs, targets = self.ctx["saved"].pop(0)',
            ),
        ),
        ("test_cross_entropy_backward",),
        "logits and targets of an earlier forward",
    ),
    _m(
        "sgd_rebinds",
        "sgd",
        "p = p - lr * grad rebinds instead of updating in place",
        SGD_UPDATE,
        "p = p - self.lr * p.grad",
        ("test_sgd_step",),
        "rebinds",
    ),
    _m(
        "sgd_replaces_list_entries",
        "sgd",
        "self.params[i] = p - lr * grad puts new plain arrays in the list (no .grad: the next step raises)",
        "for p in self.params:\n            if p.grad is not None:\n                p -= self.lr * p.grad",
        "for i, p in enumerate(self.params):\n            if p.grad is not None:\n"
        "                self.params[i] = p - self.lr * p.grad",
        ("test_sgd_step",),
        "replaced the list's entries",
    ),
    _m(
        "sgd_sign_flipped",
        "sgd",
        "gradient ascent: p += lr * grad",
        SGD_UPDATE,
        "p += self.lr * p.grad",
        ("test_sgd_step",),
        "sign is flipped",
    ),
    _m(
        "sgd_lr_twice",
        "sgd",
        "learning rate applied twice",
        SGD_UPDATE,
        "p -= self.lr * self.lr * p.grad",
        ("test_sgd_step",),
        "applied twice",
    ),
    _m(
        "sgd_no_lr",
        "sgd",
        "update without the learning rate",
        SGD_UPDATE,
        "p -= p.grad",
        ("test_sgd_step",),
        "learning rate is missing",
    ),
    _m(
        "sgd_no_skip_none",
        "sgd",
        "parameters without a gradient are not skipped",
        "if p.grad is not None:",
        "if True:",
        ("test_sgd_step",),
        ".grad is None is not skipped",
    ),
    _m(
        "mlp_backward_forward_order",
        "mlp",
        "backward through fc1, relu, fc2 (forward order)",
        MLP_BACKWARD,
        "grad = self.fc1.backward(grad)\n        grad = self.relu.backward(grad)\n"
        "        return self.fc2.backward(grad)",
        ("test_mlp_backward",),
        "reverse order",
    ),
    _m(
        "mlp_forward_float32",
        "mlp",
        "forward returns float32 logits for float64 x",
        "return self.fc2(self.relu(self.fc1(x)))",
        "return self.fc2(self.relu(self.fc1(x))).astype(np.float32)",
        ("test_mlp_forward",),
        "keep the dtype of x and of the layers' outputs",
    ),
    _m(
        "mlp_forward_skips_relu",
        "mlp",
        "forward without the ReLU",
        "return self.fc2(self.relu(self.fc1(x)))",
        "return self.fc2(self.fc1(x))",
        ("test_mlp_forward", "test_mlp_backward"),
        "ReLU is skipped",
    ),
    _m(
        "mlp_forward_relu_on_logits",
        "mlp",
        "forward applies the ReLU to the logits too",
        "return self.fc2(self.relu(self.fc1(x)))",
        "return np.maximum(self.fc2(self.relu(self.fc1(x))), 0)",
        ("test_mlp_forward",),
        "applied to the logits",
    ),
    _m(
        "mlp_backward_skips_relu",
        "mlp",
        "backward skips relu.backward",
        "grad = self.relu.backward(grad)",
        "grad = grad",
        ("test_mlp_backward",),
        "ReLU is skipped",
    ),
    _m(
        "mlp_backward_returns_nothing",
        "mlp",
        "backward does not return dX",
        "return self.fc1.backward(grad)",
        "self.fc1.backward(grad)",
        ("test_mlp_backward",),
        "missing `return`",
    ),
    _m(
        "mlp_backward_returns_hidden_grad",
        "mlp",
        "backward returns the gradient before fc1.backward",
        "return self.fc1.backward(grad)",
        "self.fc1.backward(grad)\n        return grad",
        ("test_mlp_backward",),
        "instead of what fc1.backward returns",
    ),
    _m(
        "mlp_parameters_incomplete",
        "mlp",
        "MLP overrides parameters() and yields only fc1's",
        "    def forward(self, x: np.ndarray) -> np.ndarray:",
        "    def parameters(self):\n        return self.fc1.parameters()\n\n"
        "    def forward(self, x: np.ndarray) -> np.ndarray:",
        ("test_mlp_forward", "test_mlp_backward"),
        "parameters() misses W2, b2",
    ),
)

GRADED_MISTAKES: tuple[Mistake, ...] = tuple(
    m for m in MISTAKES if GATE_CELL in m.must_lose or m is next(f for f in MISTAKES if f.part == m.part)
)
"""The mistakes the slow tier's class grades end to end (sandbox, kernel, nbgrader, the gate trained on MNIST): the
first of each part and every one the gate must catch. The fast tier (``test_corpus``) grades every mistake with the
same probes and judges on two secrets, in this process: which cells each loses and the cause each names."""


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "linear_np_dot",
        "np.dot instead of @",
        (
            Edit("linear", "return x @ self.W + self.b", "return np.dot(x, self.W) + self.b"),
            Edit("linear", "self.W.grad = x.T @ grad", "self.W.grad = np.dot(x.T, grad)"),
            Edit("linear", "return grad @ self.W.T", "return np.dot(grad, self.W.T)"),
        ),
    ),
    Variant(
        "linear_einsum",
        "einsum for every product and sum",
        (
            Edit("linear", "return x @ self.W + self.b", 'return np.einsum("bi,io->bo", x, self.W) + self.b'),
            Edit("linear", "self.W.grad = x.T @ grad", 'self.W.grad = np.einsum("bi,bo->io", x, grad)'),
            Edit("linear", "self.b.grad = grad.sum(axis=0)", 'self.b.grad = np.einsum("bo->o", grad)'),
            Edit("linear", "return grad @ self.W.T", 'return np.einsum("bo,io->bi", grad, self.W)'),
        ),
    ),
    Variant(
        "linear_grads_accumulate",
        "backward adds to an existing .grad (PyTorch style; zero_grad clears it)",
        (
            Edit(
                "linear",
                "self.W.grad = x.T @ grad\n        self.b.grad = grad.sum(axis=0)",
                "self.W.grad = x.T @ grad if self.W.grad is None else self.W.grad + x.T @ grad\n"
                "        self.b.grad = grad.sum(axis=0) if self.b.grad is None else self.b.grad + grad.sum(axis=0)",
            ),
        ),
    ),
    Variant(
        "float64_arithmetic",
        "every layer and the loss compute in float64",
        (
            Edit(
                "linear",
                "return x @ self.W + self.b",
                "return np.asarray(x, np.float64) @ np.asarray(self.W, np.float64) + self.b",
            ),
            Edit("relu", "return np.maximum(x, 0)", "return np.maximum(np.asarray(x, np.float64), 0.0)"),
            Edit(
                "cross_entropy",
                "batch = logits.shape[0]",
                "logits = np.asarray(logits, dtype=np.float64)\n        batch = logits.shape[0]",
            ),
        ),
    ),
    Variant(
        "logsumexp_softmax",
        "softmax from a log-sum-exp and an np.eye one-hot",
        (
            Edit(
                "cross_entropy",
                "shifted = logits - logits.max(axis=1, keepdims=True)\n"
                "        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))",
                "m = np.max(logits, axis=1, keepdims=True)\n"
                "        log_probs = logits - (m + np.log(np.sum(np.exp(logits - m), axis=1, keepdims=True)))",
            ),
            Edit(
                "cross_entropy",
                "grad = probs.copy()\n        grad[np.arange(batch), targets] -= 1\n        return grad / batch",
                "return (probs - np.eye(probs.shape[1])[targets]) / batch",
            ),
        ),
    ),
    Variant(
        "relu_where_saves_input",
        "np.where, saving the input rather than the mask",
        (
            Edit(
                "relu",
                'self.ctx["mask"] = x > 0\n        return np.maximum(x, 0)',
                'self.ctx["x"] = x\n        return np.where(x > 0, x, 0.0)',
            ),
            Edit("relu", 'return grad * self.ctx["mask"]', 'return np.where(self.ctx["x"] > 0, grad, 0.0)'),
        ),
    ),
    Variant(
        "sgd_out_argument",
        "np.subtract(..., out=p), enumerate over params",
        (
            Edit(
                "sgd",
                "for p in self.params:\n            if p.grad is not None:\n                p -= self.lr * p.grad",
                "for i, p in enumerate(self.params):\n            if p.grad is None:\n                continue\n"
                "            np.subtract(self.params[i], self.lr * p.grad, out=self.params[i])",
            ),
        ),
    ),
    Variant(
        "mlp_loop_over_layers",
        "forward and backward as loops over the layers",
        (
            Edit(
                "mlp",
                "return self.fc2(self.relu(self.fc1(x)))",
                "for layer in (self.fc1, self.relu, self.fc2):\n            x = layer.forward(x)\n        return x",
            ),
            Edit(
                "mlp",
                "grad = self.fc2.backward(grad)\n        grad = self.relu.backward(grad)\n"
                "        return self.fc1.backward(grad)",
                "for layer in reversed((self.fc1, self.relu, self.fc2)):\n            grad = layer.backward(grad)\n"
                "        return grad",
            ),
        ),
    ),
)
