# Style: "Neural Networks from Scratch in Python" (nnfs, Kinsley & Kukieła): every layer stores self.inputs,
# self.output and self.dinputs; the ReLU zeroes a copy of the gradient where inputs <= 0; the loss clips
# probabilities to [1e-7, 1 - 1e-7]; the combined softmax/loss backward copies the probabilities and subtracts 1;
# the network reads each layer's output from its attribute (self.fc1.output). Very common in tutorial repositories.
# Correct under the contract: full marks.


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.inputs = x
        self.output = np.dot(x, self.W) + self.b
        return self.output

    def backward(self, grad):
        self.dweights = np.dot(self.inputs.T, grad)
        self.dbiases = np.sum(grad, axis=0)
        self.W.grad, self.b.grad = self.dweights, self.dbiases
        self.dinputs = np.dot(grad, self.W.T)
        return self.dinputs


class ReLU(Module):
    def forward(self, x):
        self.inputs = x
        self.output = np.maximum(0, x)
        return self.output

    def backward(self, grad):
        self.dinputs = grad.copy()
        self.dinputs[self.inputs <= 0] = 0
        return self.dinputs


class CrossEntropyLoss(Module):
    def forward(self, logits, targets):
        exp_values = np.exp(logits - np.max(logits, axis=1, keepdims=True))
        self.output = exp_values / np.sum(exp_values, axis=1, keepdims=True)
        self.targets = targets
        samples = len(logits)
        y_pred_clipped = np.clip(self.output, 1e-7, 1 - 1e-7)
        correct_confidences = y_pred_clipped[range(samples), targets]
        negative_log_likelihoods = -np.log(correct_confidences)
        return np.mean(negative_log_likelihoods)

    def backward(self):
        samples = len(self.output)
        self.dinputs = self.output.copy()
        self.dinputs[range(samples), self.targets] -= 1
        self.dinputs = self.dinputs / samples
        return self.dinputs


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            p += -self.lr * p.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, x):
        self.fc1.forward(x)
        self.relu.forward(self.fc1.output)
        self.fc2.forward(self.relu.output)
        return self.fc2.output

    def backward(self, grad):
        self.fc2.backward(grad)
        self.relu.backward(self.fc2.dinputs)
        self.fc1.backward(self.relu.dinputs)
        return self.fc1.dinputs


EXPECTED: dict = {}
