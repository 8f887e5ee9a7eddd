"""Answers that are a call of a released helper: none of them may score more than the plain wrong answer.

The helper modules students get (``nn_diagnosis``, ``nn_checks``, ``nn_public``, ...) are in the grading workers
too. Each submission here is the reference solution with one graded method (or one line of it) replaced by a call
of a helper function that computed, before the helpers held no answer, the graded quantity on input the caller
chooses (after a transpose, a sign or an identity matrix where needed). It must lose that method's cells, as the
plain wrong answer does; the rest of its part (the helper now raises, which stops the method there) and the MNIST
gate, which trains the student's MLP, may go with them.
"""

from __future__ import annotations

from autograder import registry
from autograder.cell_ids import hidden_cell_id
from autograder.classroom import Edit, apply_edits
from catalogue.attacks import Context, Submission
from catalogue.mistakes import GATE_CELL

GATE = (GATE_CELL,)
IMPORTS = "import nn_checks, nn_diagnosis, nn_messages; "
GRADER_MLP = "__import__('autograder.judge.suspects', fromlist=['mlp']).mlp"
"""The grader's own function of the MLP's wrong answers, where they went when they left the helpers: a student who
has read the kit calls it by name (the kernel has only a stand-in of the grader and the workers only its probes and
its copy of the helpers, so the call raises and stops the method)."""


def _suspect(quantity: str, cause: str) -> str:
    """Code for the wrong-answer function of the suspect of ``quantity`` whose cause is ``cause``."""
    return f"next(s for s in nn_diagnosis.{quantity}.suspects if s.cause == nn_messages.{cause}).gives"


def _replace(*edits: tuple[str, str, str]) -> object:
    """The solution with ``(cell, old, new)`` edits; ``new`` may use the helpers (imported just before it)."""
    changes = tuple(Edit(cell, old, f"{IMPORTS}{new}") for cell, old, new in edits)
    return lambda solution, context: {"mlp.ipynb": apply_edits(solution, changes)}


def _attack(name: str, description: str, loses: tuple[str, ...], *edits: tuple[str, str, str]) -> Submission:
    """Loses ``loses``; may lose the rest of its part too (a helper that raises now stops the method there)."""
    part = registry.cells_of_part(edits[0][0])
    return Submission(name, description, _replace(*edits), tuple(hidden_cell_id(c) for c in loses), (*part, *GATE))


FORWARD = "return x @ self.W + self.b"
DW, DB, DX = "self.W.grad = x.T @ grad", "self.b.grad = grad.sum(axis=0)", "return grad @ self.W.T"
RELU_FORWARD, RELU_BACKWARD = "return np.maximum(x, 0)", 'return grad * self.ctx["mask"]'
LOSS = "return -log_probs[np.arange(batch), targets].mean()"
SAVE_LOGITS = ('self.ctx["targets"] = targets', 'self.ctx["targets"] = targets\n        self.ctx["logits"] = logits')
GRAD = "grad = probs.copy()"
MASK = 'self.ctx["mask"]'
SOFTMAX_OVER_BATCH_T = "nn_diagnosis._softmax_over_batch(self.ctx['logits'].T, False).T"
FD_BACKWARD = (
    "x64 = np.array(x, dtype=np.float64)\n"
    "        W64, b64 = np.array(self.W, dtype=np.float64), np.array(self.b, dtype=np.float64)\n"
    "        f = lambda: float(np.sum((x64 @ W64 + b64) * grad))\n"
    "        self.W.grad = nn_checks.numerical_gradient(f, W64)\n"
    "        self.b.grad = nn_checks.numerical_gradient(f, b64)\n"
    "        return nn_checks.numerical_gradient(f, x64)"
)

HELPER_ATTACKS: tuple[Submission, ...] = (
    _attack(
        "helper_linear_forward_w_transposed",
        "Linear.forward is the W-transposed suspect's answer for Wᵀ",
        ("linear_forward",),
        (
            "linear",
            FORWARD,
            f"return {_suspect('LINEAR_FORWARD', 'W_TRANSPOSED')}(None, x=x, W=np.asarray(self.W).T, b=self.b)",
        ),
    ),
    _attack(
        "helper_linear_forward_no_bias",
        "Linear.forward is the no-bias suspect's answer for x W and −b",
        ("linear_forward",),
        ("linear", FORWARD, f"return {_suspect('LINEAR_FORWARD', 'NO_BIAS')}(x @ self.W, b=-np.asarray(self.b))"),
    ),
    _attack(
        "helper_linear_dx_not_transposed",
        "Linear.backward's dX is the dX-not-transposed suspect's answer for Wᵀ",
        ("linear_backward_dx",),
        ("linear", DX, f"return {_suspect('LINEAR_DX', 'DX_NOT_TRANSPOSED')}(None, W=np.asarray(self.W).T, g=grad)"),
    ),
    _attack(
        "helper_linear_dw_stale_input",
        "Linear.backward's W.grad is the stale-input suspect's answer for the latest input",
        ("linear_backward_dw",),
        ("linear", DW, f"self.W.grad = {_suspect('LINEAR_DW', 'DW_STALE_INPUT')}(None, x_stale=x, g=grad)"),
    ),
    _attack(
        "helper_linear_db_wrong_axis",
        "Linear.backward's b.grad is the wrong-axis suspect's answer for Gᵀ",
        ("linear_backward_db",),
        ("linear", DB, f"self.b.grad = {_suspect('LINEAR_DB', 'DB_WRONG_AXIS')}(None, g=grad.T)"),
    ),
    _attack(
        "helper_linear_backward_numerical_gradient",
        "Linear.backward returns nn_checks.numerical_gradient of its own forward for dX, W.grad and b.grad",
        ("linear_backward_dx", "linear_backward_dw", "linear_backward_db"),
        ("linear", f"{DW}\n        {DB}\n        {DX}", FD_BACKWARD),
    ),
    _attack(
        "helper_relu_forward_max_reduction",
        "ReLU.forward is the max-reduction suspect's answer over a stack of x and zeros",
        ("relu_forward",),
        (
            "relu",
            RELU_FORWARD,
            f"return {_suspect('RELU_FORWARD', 'RELU_MAX_REDUCTION')}(None, x=np.stack([x, np.zeros_like(x)]))",
        ),
    ),
    _attack(
        "helper_relu_forward_mask_from_g",
        "ReLU.forward is the mask-from-G suspect's answer for G = x",
        ("relu_forward",),
        ("relu", RELU_FORWARD, f"return {_suspect('RELU_BACKWARD', 'RELU_MASK_FROM_G')}(None, g=x)"),
    ),
    _attack(
        "helper_relu_backward_stale_mask",
        "ReLU.backward is the stale-mask suspect's answer for the latest mask",
        ("relu_backward",),
        ("relu", RELU_BACKWARD, f"return {_suspect('RELU_BACKWARD', 'RELU_STALE_MASK')}(None, x_stale={MASK}, g=grad)"),
    ),
    _attack(
        "helper_relu_backward_times_output",
        "ReLU.backward is the times-output suspect's answer for G and the mask",
        ("relu_backward",),
        ("relu", RELU_BACKWARD, f"return {_suspect('RELU_BACKWARD', 'RELU_TIMES_OUTPUT')}(grad, x={MASK})"),
    ),
    _attack(
        "helper_loss_log_p_target",
        "CrossEntropyLoss.forward is minus the mean of nn_diagnosis._log_p_target",
        ("cross_entropy_forward",),
        ("cross_entropy", LOSS, "return -np.mean(nn_diagnosis._log_p_target(logits, targets))"),
    ),
    _attack(
        "helper_loss_grad_softmax_over_batch",
        "CrossEntropyLoss.backward from nn_diagnosis._softmax_over_batch of Zᵀ and nn_diagnosis._onehot",
        ("cross_entropy_backward",),
        ("cross_entropy", *SAVE_LOGITS),
        (
            "cross_entropy",
            GRAD,
            f"return ({SOFTMAX_OVER_BATCH_T} - nn_diagnosis._onehot(targets, probs.shape[1])) / batch",
        ),
    ),
    _attack(
        "helper_loss_grad_unshifted",
        "CrossEntropyLoss.backward is nn_diagnosis._unshifted_grad of logits the caller shifted",
        ("cross_entropy_backward",),
        ("cross_entropy", *SAVE_LOGITS),
        (
            "cross_entropy",
            GRAD,
            "z = self.ctx['logits']\n        return nn_diagnosis._unshifted_grad(None, "
            "z - z.max(axis=1, keepdims=True), targets)",
        ),
    ),
    _attack(
        "helper_loss_grad_from_logits",
        "CrossEntropyLoss.backward is the dZ-from-logits suspect's answer for the probabilities",
        ("cross_entropy_backward",),
        ("cross_entropy", GRAD, f"return {_suspect('CROSS_ENTROPY_GRAD', 'DZ_FROM_LOGITS')}(None, z=probs, y=targets)"),
    ),
    _attack(
        "helper_sgd_no_lr",
        "SGD.step writes the no-learning-rate suspect's answer with lr steps",
        ("sgd_step",),
        (
            "sgd",
            "p -= self.lr * p.grad",
            f"p[...] = {_suspect('SGD_UPDATE', 'SGD_NO_LR')}(None, start=np.array(p), grad=p.grad, steps=self.lr)",
        ),
    ),
    _attack(
        "helper_sgd_ascent",
        "SGD.step writes the gradient-ascent suspect's answer for −lr",
        ("sgd_step",),
        (
            "sgd",
            "p -= self.lr * p.grad",
            f"p[...] = {_suspect('SGD_UPDATE', 'SGD_ASCENT')}(None, start=np.array(p), "
            "grad=p.grad, lr=-self.lr, steps=1)",
        ),
    ),
)
"""One submission per released function that held an answer (``Context`` is not needed: they read no file)."""

GRADER_ATTACKS: tuple[Submission, ...] = (
    _attack(
        "grader_linear_forward_mlp_no_relu",
        "Linear.forward is the grader's MLP-without-ReLU wrong answer, with an identity second layer",
        ("linear_forward",),
        (
            "linear",
            FORWARD,
            f"return {GRADER_MLP}(x=x, W1=self.W, b1=self.b, W2=np.eye(self.W.shape[1]), b2=0.0)['mlp_no_relu']",
        ),
    ),
    _attack(
        "grader_relu_forward_relu_on_logits",
        "ReLU.forward is the grader's ReLU-on-logits wrong answer, with identity layers",
        ("relu_forward",),
        (
            "relu",
            RELU_FORWARD,
            f"e, o = np.eye(x.shape[1]), np.zeros(x.shape[1])\n"
            f"        return {GRADER_MLP}(x=x, W1=e, b1=o, W2=e, b2=o)['mlp_relu_on_logits']",
        ),
    ),
    _attack(
        "grader_relu_backward_mlp_relu_grad",
        "ReLU.backward is the grader's MLP-returns-ReLU-gradient wrong answer, with identity layers",
        ("relu_backward",),
        (
            "relu",
            RELU_BACKWARD,
            f"n = grad.shape[-1]\n        return {GRADER_MLP}"
            f"(x={MASK} * 1.0, W1=np.eye(n), b1=0.0, W2=np.eye(n), g=grad)['mlp_returns_relu_grad']",
        ),
    ),
    _attack(
        "grader_mlp_forward_no_relu",
        "MLP.forward's second layer is the grader's MLP-without-ReLU wrong answer",
        ("mlp_forward",),
        (
            "mlp",
            "return self.fc2(self.relu(self.fc1(x)))",
            "h = self.relu(self.fc1(x))\n        return "
            f"{GRADER_MLP}(x=h, W1=np.eye(h.shape[1]), b1=0.0, W2=self.fc2.W, b2=self.fc2.b)['mlp_no_relu']",
        ),
    ),
    _attack(
        "grader_mlp_backward_relu_grad",
        "MLP.backward skips relu.backward for the grader's MLP-returns-ReLU-gradient wrong answer",
        ("mlp_backward",),
        (
            "mlp",
            "return self.fc2(self.relu(self.fc1(x)))",
            "self.ctx['x'] = x\n        return self.fc2(self.relu(self.fc1(x)))",
        ),
        (
            "mlp",
            "grad = self.fc2.backward(grad)\n        grad = self.relu.backward(grad)",
            f"dh = {GRADER_MLP}(x=self.ctx['x'], W1=self.fc1.W, b1=self.fc1.b, W2=self.fc2.W, "
            "g=grad)['mlp_returns_relu_grad']\n        self.fc2.backward(grad)\n        grad = dh",
        ),
    ),
)
"""One submission per answer the MLP's suspects computed when they were helpers: they are the grader's now
(``autograder/judge/suspects.py``), and each calls the grader there by name. In the tests' process, which has the
grader, each is a right answer (``tests/test_helpers_hold_no_answer.py``); graded, the kernel and the workers have no
such module, so each must lose its cells."""

__all__ = ["GRADER_ATTACKS", "HELPER_ATTACKS", "Context"]
