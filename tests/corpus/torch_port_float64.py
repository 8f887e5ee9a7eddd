# Style: a port of PyTorch-like code (torch.optim.SGD's loop, einsum for every product, log-sum-exp loss, boolean
# masks, every computation cast to float64 first), as written by students who know PyTorch.
# The real bug: SGD.step stops at the first parameter without a gradient (`break` where torch has `continue`).


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.saved = np.asarray(x, dtype=np.float64)
        return np.einsum("bi,io->bo", self.saved, np.asarray(self.W, np.float64)) + self.b

    def backward(self, grad):
        grad = np.asarray(grad, dtype=np.float64)
        self.W.grad = np.einsum("bi,bo->io", self.saved, grad)
        self.b.grad = np.einsum("bo->o", grad)
        return np.einsum("bo,io->bi", grad, np.asarray(self.W, np.float64))


class ReLU(Module):
    def forward(self, x):
        self.positive = x > 0
        return np.where(self.positive, x, 0.0)

    def backward(self, grad):
        return np.where(self.positive, grad, 0.0)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        logits = np.asarray(logits, dtype=np.float64)
        m = logits.max(axis=1, keepdims=True)
        log_probs = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
        self.saved = (np.exp(log_probs), np.asarray(targets))
        return float(-log_probs[np.arange(len(logits)), targets].mean())

    def backward(self):
        probs, targets = self.saved
        return (probs - np.eye(probs.shape[1])[targets]) / probs.shape[0]


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for p in self.params:
            if p.grad is None:
                break
            p -= self.lr * p.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, x):
        out = x
        for layer in [self.fc1, self.relu, self.fc2]:
            out = layer(out)
        return out

    def backward(self, grad):
        for layer in [self.fc2, self.relu, self.fc1]:
            grad = layer.backward(grad)
        return grad


EXPECTED = {"sgd_step": "`break`"}
