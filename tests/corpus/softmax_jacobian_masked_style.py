"""Style: the B×K×K softmax Jacobian of nnfs chapter 9 (``np.diagflat(s) - np.dot(s, s.T)`` per sample, vectorised
with einsum), ported with more care than ``softmax_jacobian_style``: the loss gradient ``-y_true / y_pred`` is divided
only where ``y_true`` is 1 (``np.divide(..., where=...)``, as answers to "RuntimeWarning: invalid value encountered in
divide" recommend), so an underflowed non-target probability no longer gives 0/0. Correct and slow wherever every
target's probability is positive.

Where a target's probability underflows to 0 (a target 800 below its row's max), −1/0 = −inf still meets a Jacobian
column of zeros: NaN in that row. The contract asks for dZ also there: the backward cell is lost, and the true cause
is the division by the underflowed probability (and no exp overflows on those logits, so nothing else explains it).
"""


def softmax(z):
    e = np.exp(z - np.max(z, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.x = x
        return x @ self.W + self.b

    def backward(self, grad):
        self.W.grad = self.x.T @ grad
        self.b.grad = grad.sum(axis=0)
        return grad @ self.W.T


class ReLU(Module):
    def forward(self, x):
        self.x = x
        return np.maximum(0, x)

    def backward(self, grad):
        return grad * (self.x > 0)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        self.s = softmax(logits)
        self.y_true = np.eye(logits.shape[1])[targets]
        return np.mean(-np.log(np.clip(self.s[np.arange(len(targets)), targets], 1e-7, 1 - 1e-7)))

    def backward(self):
        B, K = self.s.shape
        jacobian = np.einsum("bi,ij->bij", self.s, np.eye(K)) - np.einsum("bi,bj->bij", self.s, self.s)
        with np.errstate(divide="ignore"):
            dloss_ds = np.divide(-self.y_true, self.s, out=np.zeros_like(self.s), where=self.y_true > 0) / B
        return np.einsum("bij,bi->bj", jacobian, dloss_ds)


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for p in self.params:
            if p.grad is not None:
                p -= self.lr * p.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))

    def backward(self, grad):
        return self.fc1.backward(self.relu.backward(self.fc2.backward(grad)))


EXPECTED = {"cross_entropy_backward": "divides by a probability that underflowed to 0"}
GATE: dict = {}
