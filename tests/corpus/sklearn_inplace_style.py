"""Style: scikit-learn's MLP (sklearn/neural_network/_base.py and _multilayer_perceptron.py): everything in place,
``inplace_relu(X)`` is ``np.maximum(X, 0, out=X)``, ``inplace_relu_derivative(Z, delta)`` is ``delta[Z == 0] = 0``
(the mask read from the activation), ``inplace_softmax`` writes ``np.exp(tmp, out=X)``, the layer output is
``activations[i + 1] += intercepts[i]``, the log-loss clips at the dtype's eps and the update is ``param += update``.
In scikit-learn those arrays are the network's own buffers; this port applies the ReLU functions to the arrays the
caller passes, so ReLU.forward changes its input and ReLU.backward its gradient (the loss works on a copy).

Under the contract neither ReLU method may modify its argument: both ReLU cells are lost, cause "changed in place";
the values are right, and the MLP and the gate (whose arrays are the layers' own) are unaffected.
"""


def inplace_relu(X):
    np.maximum(X, 0, out=X)


def inplace_relu_derivative(Z, delta):
    delta[Z == 0] = 0


def inplace_softmax(X):
    tmp = X - X.max(axis=1)[:, np.newaxis]
    np.exp(tmp, out=X)
    X /= X.sum(axis=1)[:, np.newaxis]


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.ctx["x"] = x
        activation = np.asarray(x @ self.W)
        activation += self.b
        return activation

    def backward(self, delta):
        self.W.grad = self.ctx["x"].T @ delta
        self.b.grad = delta.sum(axis=0)
        return delta @ np.asarray(self.W).T


class ReLU(Module):
    def forward(self, x):
        inplace_relu(x)
        self.ctx["Z"] = x
        return x

    def backward(self, delta):
        inplace_relu_derivative(self.ctx["Z"], delta)
        return delta


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        y_prob = np.array(logits, dtype=np.float64)
        inplace_softmax(y_prob)
        self.ctx["y_prob"], self.ctx["y"] = y_prob, targets
        eps = np.finfo(y_prob.dtype).eps
        picked = np.clip(y_prob[np.arange(len(targets)), targets], eps, 1 - eps)
        return -np.log(picked).sum() / len(targets)

    def backward(self):
        delta = self.ctx["y_prob"].copy()
        delta[np.arange(len(self.ctx["y"])), self.ctx["y"]] -= 1
        delta /= len(self.ctx["y"])
        return delta


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for param in self.params:
            if param.grad is not None:
                param += -self.lr * param.grad


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


EXPECTED = {"relu_forward": "changed the array it was given", "relu_backward": "changed the array it was given"}
GATE: dict = {}
