"""Style: nnfs chapter 9's separate softmax and loss backward (Activation_Softmax.backward builds each sample's
Jacobian ``np.diagflat(s) - np.dot(s, s.T)``; Loss_CategoricalCrossentropy.backward is ``-y_true / dvalues``
divided by the samples), here vectorised into a B×K×K Jacobian with einsum: correct where every probability is
positive, and slow (the combined (softmax − onehot)/B is what the book then recommends).

The loss forward clips to [1e-7, 1 − 1e-7] (within the contract's band). The backward divides by the unclipped
probability: where a target's probability underflows to 0 (a target 800 below its row's max), −1/0 = −inf meets a
Jacobian column of zeros and gives NaN. The contract asks for dZ also for logits of ±1000: the backward cell is
lost, and the cause is the division by an underflowed probability. The gate uses the grader's loss gradient.
"""


def softmax(z):
    e = np.exp(z - np.max(z, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def softmax_jacobian(s):
    """(B, K, K): J[b, i, j] = ∂s_i/∂z_j = s_i (δ_ij − s_j)."""
    return np.einsum("bi,ij->bij", s, np.eye(s.shape[1])) - np.einsum("bi,bj->bij", s, s)


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, inputs):
        self.inputs = inputs
        return np.dot(inputs, self.W) + self.b

    def backward(self, dvalues):
        self.W.grad = np.dot(self.inputs.T, dvalues)
        self.b.grad = np.sum(dvalues, axis=0)
        return np.dot(dvalues, self.W.T)


class ReLU(Module):
    def forward(self, inputs):
        self.inputs = inputs
        return np.maximum(0, inputs)

    def backward(self, dvalues):
        return np.where(self.inputs > 0, dvalues, 0.0)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        self.output = softmax(logits)
        self.y_true = np.eye(logits.shape[1])[targets]
        clipped = np.clip(self.output, 1e-7, 1 - 1e-7)
        return np.mean(-np.log(np.sum(clipped * self.y_true, axis=1)))

    def backward(self):
        samples = len(self.output)
        dvalues = -self.y_true / self.output / samples
        return np.einsum("bij,bi->bj", softmax_jacobian(self.output), dvalues)


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
