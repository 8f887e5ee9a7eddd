"""Style: deeplearning.ai's "Building your Deep Neural Network: Step by Step" (Andrew Ng's course 1, week 4):
column vectors throughout, A of shape (features, batch), W of shape (n_l, n_{l-1}), b of shape (n_l, 1),
``Z = np.dot(W, A) + b``, ``dW = 1/m * np.dot(dZ, A_prev.T)``, ``db = 1/m * np.sum(dZ, axis=1, keepdims=True)``,
``dA_prev = np.dot(W.T, dZ)``, a cost squeezed with ``np.squeeze`` and ``parameters["W" + str(l)] = ... - lr * dW``.
Ported onto our row-major API (W of shape (in, out) is the course's Wᵀ) by transposing at each method's edges, the
1/m dropped (our loss gradient already has it), the update written in place; one transposition is left over:
``dW = dZ A_prevᵀ`` is stored as it is, of the course's shape (out, in).

Under the contract: the W.grad cell is lost, cause "the product is transposed"; the loss returns a 0-d array from
``np.squeeze`` (one number: accepted). The gate is lost as well: the grader's update cannot subtract a (256, 784)
W1.grad from W1 (784, 256).
"""


def linear_forward(A, W, b):
    return np.dot(W, A) + b


def linear_backward(dZ, A_prev, W):
    dW = np.dot(dZ, A_prev.T)
    db = np.sum(dZ, axis=1, keepdims=True)
    dA_prev = np.dot(W.T, dZ)
    return dA_prev, dW, db


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        A_prev = x.T
        self.cache = A_prev
        Z = linear_forward(A_prev, self.W.T, self.b.reshape(-1, 1))
        return Z.T

    def backward(self, grad):
        dA_prev, dW, db = linear_backward(grad.T, self.cache, self.W.T)
        self.W.grad = dW
        self.b.grad = db.reshape(-1)
        return dA_prev.T


class ReLU(Module):
    def forward(self, x):
        Z = x.T
        self.cache = Z
        return np.maximum(0, Z).T

    def backward(self, grad):
        dA, Z = grad.T, self.cache
        dZ = np.array(dA, copy=True)
        dZ[Z <= 0] = 0
        return dZ.T


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        ZL = logits.T
        m = ZL.shape[1]
        Y = np.eye(ZL.shape[0])[:, targets]
        shifted = ZL - np.max(ZL, axis=0, keepdims=True)
        log_AL = shifted - np.log(np.sum(np.exp(shifted), axis=0, keepdims=True))
        self.cache = (np.exp(log_AL), Y)
        cost = -1.0 / m * np.sum(Y * log_AL, axis=(0, 1), keepdims=True)
        return np.squeeze(cost)

    def backward(self):
        AL, Y = self.cache
        dZL = (AL - Y) / Y.shape[1]
        return dZL.T


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for i in range(len(self.params)):
            if self.params[i].grad is not None:
                self.params[i][...] = self.params[i] - self.lr * self.params[i].grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, X):
        A1 = self.relu.forward(self.fc1.forward(X))
        return self.fc2.forward(A1)

    def backward(self, dAL):
        dA1 = self.fc2.backward(dAL)
        return self.fc1.backward(self.relu.backward(dA1))


EXPECTED = {"linear_backward_dw": "the product is transposed"}
# The gate cannot apply the stored gradient in its own update: the evidence names that value, not its origin.
GATE = {"mnist_accuracy": "fc1.W.grad"}
