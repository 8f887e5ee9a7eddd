# Style: logits "cleaned" with np.squeeze before a log-softmax, as in code written for batches of many samples
# (and in ports of PyTorch code that squeezes a (B, 1, C) output). Right for B > 1.
# The real bug: at B = 1, np.squeeze turns the logits of shape (1, C) into shape (C,), and `axis=1` then names an
# axis the array does not have: NumPy raises AxisError, a subclass of both ValueError and IndexError, so neither
# "the shapes do not line up" nor "the targets index the wrong axis" is the cause.


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.ctx["x"] = x
        return x @ self.W + self.b

    def backward(self, grad):
        self.W.grad = self.ctx["x"].T @ grad
        self.b.grad = grad.sum(0)
        return grad @ self.W.T


class ReLU(Module):
    def forward(self, x):
        self.ctx["x"] = x
        return np.maximum(x, 0.0)

    def backward(self, grad):
        return grad * (self.ctx["x"] > 0)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        z = np.squeeze(logits)  # "drop the useless axes": at B = 1 this drops the batch axis too
        z = z - z.max(axis=1, keepdims=True)
        log_probs = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        self.ctx.update(probs=np.exp(log_probs), targets=targets)
        return -log_probs[np.arange(len(targets)), targets].mean()

    def backward(self):
        probs, targets = self.ctx["probs"], self.ctx["targets"]
        onehot = np.zeros_like(probs)
        onehot[np.arange(len(targets)), targets] = 1.0
        return (probs - onehot) / len(targets)


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


EXPECTED = {
    "cross_entropy_forward": "an axis the array does not have",
    "cross_entropy_backward": "an axis the array does not have",
}
