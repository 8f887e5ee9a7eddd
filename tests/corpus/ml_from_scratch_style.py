# Style: "ML-From-Scratch" (eriklindernoren) Dense and activation layers: layer_input cached, bias gradient summed
# with keepdims=True (w0 has shape (1, n_units) there), ReLU written as np.where(x >= 0, x, 0) with gradient
# np.where(x >= 0, 1, 0), softmax with the max shift and probabilities clipped to [1e-15, 1 - 1e-15].
# Real bugs under the contract: b.grad of shape (1, D_out), and a ReLU gradient of 1 at exactly 0.


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, X):
        self.layer_input = X
        return X.dot(self.W) + self.b

    def backward(self, accum_grad):
        W = self.W
        self.W.grad = self.layer_input.T.dot(accum_grad)
        self.b.grad = np.sum(accum_grad, axis=0, keepdims=True)
        return accum_grad.dot(W.T)


class ReLU(Module):
    def forward(self, x):
        self.layer_input = x
        return np.where(x >= 0, x, 0)

    def backward(self, accum_grad):
        return accum_grad * np.where(self.layer_input >= 0, 1, 0)


class CrossEntropyLoss(Module):
    def forward(self, x, y):
        e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
        self.p = e_x / np.sum(e_x, axis=-1, keepdims=True)
        self.y = np.zeros_like(self.p)
        self.y[np.arange(len(y)), y] = 1
        p = np.clip(self.p, 1e-15, 1 - 1e-15)
        return np.mean(np.sum(-self.y * np.log(p), axis=1))

    def backward(self):
        return (self.p - self.y) / len(self.y)


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for w in self.params:
            if w.grad is not None:
                w[...] = w - self.lr * w.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, X):
        for layer in (self.fc1, self.relu, self.fc2):
            X = layer.forward(X)
        return X

    def backward(self, loss_grad):
        for layer in (self.fc2, self.relu, self.fc1):
            loss_grad = layer.backward(loss_grad)
        return loss_grad


EXPECTED = {"linear_backward_db": "keepdims", "relu_backward": "1(H ≥ 0)"}
