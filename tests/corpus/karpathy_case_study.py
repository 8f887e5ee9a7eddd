# Style: the CS231n "neural network case study" (Karpathy) and the many from-scratch MNIST posts that follow it:
# exp_scores = np.exp(scores) with no max shift, probs normalised per row, correct_logprobs = -np.log(probs[...]),
# dscores = probs; dscores[range(N), y] -= 1; dscores /= N; the ReLU gradient zeroed where the hidden output is <= 0.
# The real bug: no max shift, so logits of ±1000 give NaN in the loss and in its gradient.


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, X):
        self.X = X
        return np.dot(X, self.W) + self.b

    def backward(self, dscores):
        self.W.grad = np.dot(self.X.T, dscores)
        self.b.grad = np.sum(dscores, axis=0)
        return np.dot(dscores, self.W.T)


class ReLU(Module):
    def forward(self, x):
        self.hidden_layer = np.maximum(0, x)
        return self.hidden_layer

    def backward(self, dhidden):
        dhidden = dhidden.copy()
        dhidden[self.hidden_layer <= 0] = 0
        return dhidden


class CrossEntropyLoss(Module):
    def forward(self, scores, y):
        num_examples = scores.shape[0]
        exp_scores = np.exp(scores)
        self.probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
        self.y = y
        correct_logprobs = -np.log(self.probs[range(num_examples), y])
        return np.sum(correct_logprobs) / num_examples

    def backward(self):
        num_examples = self.probs.shape[0]
        dscores = self.probs.copy()
        dscores[range(num_examples), self.y] -= 1
        dscores /= num_examples
        return dscores


class SGD(Optimizer):
    def __init__(self, params, lr):
        super().__init__(params)
        self.lr = lr

    def step(self):
        for p in self.params:
            if p.grad is not None:
                p += -self.lr * p.grad


class MLP(Module):
    def __init__(self, input_dim, hidden_dim, num_classes, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.fc1 = Linear(input_dim, hidden_dim, rng=rng)
        self.relu = ReLU()
        self.fc2 = Linear(hidden_dim, num_classes, rng=rng)

    def forward(self, X):
        hidden_layer = self.relu(self.fc1(X))
        return self.fc2(hidden_layer)

    def backward(self, dscores):
        dhidden = self.fc2.backward(dscores)
        dhidden = self.relu.backward(dhidden)
        return self.fc1.backward(dhidden)


EXPECTED = {"cross_entropy_forward": "subtracting each row's max",
            "cross_entropy_backward": "subtracting each row's max"}
