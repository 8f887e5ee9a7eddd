# Style: "Deep Learning from Scratch" (Saito, O'Reilly Japan; the zerodeeplearning repositories): Relu keeps
# mask = (x <= 0), copies x and zeroes the mask in forward, and in backward writes into dout (`dout[self.mask] = 0`);
# SoftmaxWithLoss computes -sum(log(y[arange(B), t] + 1e-7)) / B; TwoLayerNet keeps its layers in an OrderedDict
# and loops over it. The real bug: ReLU.backward modifies the gradient it was given.
from collections import OrderedDict


class Linear(Module):
    def __init__(self, in_features, out_features, rng=None):
        super().__init__()
        rng = np.random.default_rng() if rng is None else rng
        self.W = Parameter(rng.standard_normal((in_features, out_features)) * np.sqrt(2.0 / in_features))
        self.b = Parameter(np.zeros(out_features))

    def forward(self, x):
        self.x = x
        return np.dot(x, self.W) + self.b

    def backward(self, dout):
        dx = np.dot(dout, self.W.T)
        self.W.grad = np.dot(self.x.T, dout)
        self.b.grad = np.sum(dout, axis=0)
        return dx


class ReLU(Module):
    def forward(self, x):
        self.mask = (x <= 0)
        out = x.copy()
        out[self.mask] = 0
        return out

    def backward(self, dout):
        dout[self.mask] = 0
        dx = dout
        return dx


def softmax(x):
    x = x - np.max(x, axis=-1, keepdims=True)
    return np.exp(x) / np.sum(np.exp(x), axis=-1, keepdims=True)


def cross_entropy_error(y, t):
    batch_size = y.shape[0]
    return -np.sum(np.log(y[np.arange(batch_size), t] + 1e-7)) / batch_size


class CrossEntropyLoss(Module):
    def forward(self, x, t):
        self.t = t
        self.y = softmax(x)
        self.loss = cross_entropy_error(self.y, self.t)
        return self.loss

    def backward(self):
        batch_size = self.t.shape[0]
        dx = self.y.copy()
        dx[np.arange(batch_size), self.t] -= 1
        return dx / batch_size


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
        self.layers = OrderedDict(Affine1=self.fc1, Relu1=self.relu, Affine2=self.fc2)

    def forward(self, x):
        for layer in self.layers.values():
            x = layer.forward(x)
        return x

    def backward(self, dout):
        for layer in reversed(list(self.layers.values())):
            dout = layer.backward(dout)
        return dout


EXPECTED = {"relu_backward": "changed the array it was given"}
