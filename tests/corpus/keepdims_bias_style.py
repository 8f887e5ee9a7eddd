"""Style: nnfs chapter 9 as tutorial repositories copy it (e.g. jhoanmartinez/Neural-networks-from-scratch-in-Python,
9-backpropagation): biases are row vectors of shape (1, n_neurons), so ``dbiases = np.sum(dvalues, axis=0,
keepdims=True)`` keeps the batch axis. Ported onto the given ``b`` of shape (out,), with the gradient kept 2-D.

Under the contract (``b.grad`` of shape (D_out,)) the b.grad cell is lost, with the keepdims cause; nothing else:
the MLP checks run stand-in layers. The MNIST gate trains this Linear, and the grader's update ``b -= lr * b.grad``
cannot broadcast (1, 256) into (256,), so the gate is lost too (the student's fault: the contract states the shape).
"""


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
        self.b.grad = np.sum(dvalues, axis=0, keepdims=True)
        return np.dot(dvalues, self.W.T)


class ReLU(Module):
    def forward(self, inputs):
        self.inputs = inputs
        return np.maximum(0, inputs)

    def backward(self, dvalues):
        dinputs = dvalues.copy()
        dinputs[self.inputs <= 0] = 0
        return dinputs


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        shifted = logits - np.max(logits, axis=1, keepdims=True)
        log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
        self.probs, self.targets = np.exp(log_probs), targets
        return -np.mean(log_probs[range(len(logits)), targets])

    def backward(self):
        samples = len(self.probs)
        dinputs = self.probs.copy()
        dinputs[range(samples), self.targets] -= 1
        return dinputs / samples


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for p in self.params:
            if p.grad is not None:
                p += -self.lr * p.grad.reshape(p.shape)


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, x):
        return self.fc2.forward(self.relu.forward(self.fc1.forward(x)))

    def backward(self, grad):
        return self.fc1.backward(self.relu.backward(self.fc2.backward(grad)))


EXPECTED = {"linear_backward_db": "keepdims=True"}
# The gate cannot apply the stored gradient in its own update: the evidence names that value, not its origin.
GATE = {"mnist_accuracy": "fc1.b.grad"}
