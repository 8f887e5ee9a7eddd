"""Style: Andrew Trask's "A Neural Network in 11 lines of Python" (iamtrask.github.io, copied into many repositories
such as TomPettit7/ML NeuralNet2.py): one module-level function ``nonlin(x, deriv=False)`` that gives the
activation or, with ``deriv=True``, its derivative computed from the activation's *output*; the network's values in
module globals (``l0``, ``l1``, ``l2``); updates ``syn0 += l0.T.dot(l1_delta)``. Here the math stays in module-level
functions over module globals and the classes are thin wrappers; the Linear keeps its input on the instance, since a
network has two of them.

Correct under the contract: ReLU's derivative from its output is 1(x > 0) (0 at x = 0 too), and the globals hold one
value per role, the latest forward's: full marks.
"""

LR = 0.1
l1 = None  # the ReLU's output, the latest forward's (Trask's hidden layer)
l2 = None  # the softmax probabilities of the latest loss forward
targets_seen = None


def nonlin(x, deriv=False):
    if deriv:
        return (x > 0).astype(x.dtype)
    return np.maximum(x, 0)


def dense(x, syn, bias):
    return x.dot(syn) + bias


def softmax_rows(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.l0 = x
        return dense(x, self.W, self.b)

    def backward(self, delta):
        self.W.grad = self.l0.T.dot(delta)
        self.b.grad = delta.sum(axis=0)
        return delta.dot(np.asarray(self.W).T)


class ReLU(Module):
    def forward(self, x):
        global l1
        l1 = nonlin(x)
        return l1

    def backward(self, delta):
        return delta * nonlin(l1, deriv=True)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        global l2, targets_seen
        z = logits - logits.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        l2, targets_seen = softmax_rows(logits), targets
        return -log_p[np.arange(len(targets)), targets].mean()

    def backward(self):
        l2_delta = l2.copy()
        l2_delta[np.arange(len(targets_seen)), targets_seen] -= 1
        return l2_delta / len(targets_seen)


class SGD(Optimizer):
    def __init__(self, params, lr=LR):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for syn in self.params:
            if syn.grad is not None:
                syn += -self.lr * syn.grad


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


EXPECTED: dict = {}
GATE: dict = {}
