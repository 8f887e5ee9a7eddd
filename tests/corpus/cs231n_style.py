# Style: CS231n assignment solutions: module-level functions affine_forward / relu_forward / softmax_loss that
# return (out, cache), wrapped by thin classes; the loss from shifted log-probabilities and divided by N.
# The real bug kept here, common in these solutions: relu_backward writes into dout (`dx = dout; dx[x <= 0] = 0`),
# so ReLU.backward modifies the gradient it was given. A helper named `relu` lives in the student's namespace.


def affine_forward(x, w, b):
    out = x.reshape(x.shape[0], -1).dot(w) + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = dout.dot(w.T).reshape(x.shape)
    dw = x.reshape(x.shape[0], -1).T.dot(dout)
    db = np.sum(dout, axis=0)
    return dx, dw, db


def relu(x):
    return np.maximum(0, x), x


def relu_backward(dout, cache):
    dx, x = dout, cache
    dx[x <= 0] = 0
    return dx


def softmax_loss(x, y):
    shifted_logits = x - np.max(x, axis=1, keepdims=True)
    Z = np.sum(np.exp(shifted_logits), axis=1, keepdims=True)
    log_probs = shifted_logits - np.log(Z)
    probs = np.exp(log_probs)
    N = x.shape[0]
    loss = -np.sum(log_probs[np.arange(N), y]) / N
    dx = probs.copy()
    dx[np.arange(N), y] -= 1
    dx /= N
    return loss, dx


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        out, self.cache = affine_forward(x, self.W, self.b)
        return out

    def backward(self, grad):
        dx, self.W.grad, self.b.grad = affine_backward(grad, self.cache)
        return dx


class ReLU(Module):
    def forward(self, x):
        out, self.cache = relu(x)
        return out

    def backward(self, grad):
        return relu_backward(grad, self.cache)


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        loss, self.dx = softmax_loss(logits, targets)
        return loss

    def backward(self):
        return self.dx


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for w in self.params:
            if w.grad is not None:
                w -= self.lr * w.grad


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
        dh = self.relu.backward(self.fc2.backward(grad))
        return self.fc1.backward(dh)


EXPECTED = {"relu_backward": "changed the array it was given"}
