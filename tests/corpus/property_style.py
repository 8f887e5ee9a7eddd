# Style: properties over private attributes, as in object-oriented NumPy layer libraries: W and b are properties with
# setters over `_W` and `_b`; what backward needs is derived on demand (`mask`, `probs` are read-only properties of
# the saved input); the MLP exposes `layers` as a property and loops over it. Everything is correct: it must lose
# nothing.


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self._W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self._b = Parameter(np.zeros(out_features))
        self._x = None

    @property
    def W(self):
        return self._W

    @W.setter
    def W(self, value):
        self._W = value

    @property
    def b(self):
        return self._b

    @b.setter
    def b(self, value):
        self._b = value

    def forward(self, x):
        self._x = x
        return x @ self.W + self.b

    def backward(self, grad):
        self.W.grad = self._x.T @ grad
        self.b.grad = grad.sum(axis=0)
        return grad @ self.W.T


class ReLU(Module):
    def __init__(self):
        super().__init__()
        self._x = None

    @property
    def mask(self):
        return self._x > 0

    def forward(self, x):
        self._x = x
        return x * self.mask

    def backward(self, grad):
        return grad * self.mask


class CrossEntropyLoss(Module):
    def __init__(self):
        super().__init__()
        self._logits = self._targets = None

    @property
    def log_probs(self):
        shifted = self._logits - self._logits.max(axis=1, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))

    @property
    def probs(self):
        return np.exp(self.log_probs)

    @property
    def batch(self):
        return self._logits.shape[0]

    def forward(self, logits, targets):
        self._logits, self._targets = logits.copy(), np.asarray(targets).copy()
        return -self.log_probs[np.arange(self.batch), self._targets].mean()

    def backward(self):
        grad = self.probs
        grad[np.arange(self.batch), self._targets] -= 1.0
        return grad / self.batch


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self._lr = lr

    @property
    def lr(self):
        return self._lr

    @property
    def updatable(self):
        return [p for p in self.params if p.grad is not None]

    def step(self):
        for p in self.updatable:
            p -= self.lr * p.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    @property
    def layers(self):
        return (self.fc1, self.relu, self.fc2)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def backward(self, grad):
        for layer in reversed(self.layers):
            grad = layer.backward(grad)
        return grad


EXPECTED: dict = {}
# The MNIST gate trains it with the grader's recipe and loss gradient: it must pass.
GATE: dict = {}
