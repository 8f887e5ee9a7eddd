# Style: the chapter's companion package (dnnlpy): a softmax helper with the max shift, then the loss as
# -log(p + 1e-12) (the chapter's own advice), the one-hot from np.eye, caches kept in self.cache tuples.
# Common in lecture-note packages that separate softmax from the loss. Correct under the contract: full marks.


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
        self.cache = (x,)
        return np.dot(x, self.W) + self.b

    def backward(self, grad):
        (x,) = self.cache
        self.W.grad = np.dot(x.T, grad)
        self.b.grad = np.sum(grad, axis=0)
        return np.dot(grad, self.W.T)


class ReLU(Module):
    def forward(self, x):
        self.cache = x
        return x * (x > 0)

    def backward(self, grad):
        return grad * (self.cache > 0)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        self.p = softmax(logits)
        self.y = np.eye(logits.shape[1])[targets]
        return float(-np.sum(self.y * np.log(self.p + 1e-12)) / logits.shape[0])

    def backward(self):
        return (self.p - self.y) / self.p.shape[0]


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
        h = self.fc1.forward(x)
        a = self.relu.forward(h)
        return self.fc2.forward(a)

    def backward(self, grad):
        da = self.fc2.backward(grad)
        dh = self.relu.backward(da)
        return self.fc1.backward(dh)


EXPECTED: dict = {}
