"""Reference layers on the course's ``Module`` API, swapped into a student's MLP to test its wiring alone."""
import numpy as np
from nn_core import Module, Parameter

from autograder import reference


class ReferenceLinear(Module):
    def __init__(self, W: np.ndarray, b: np.ndarray) -> None:
        super().__init__()
        self.W = Parameter(W, dtype=W.dtype)
        self.b = Parameter(b, dtype=b.dtype)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = np.array(x)
        return reference.linear_forward(x, self.W, self.b)

    def backward(self, grad: np.ndarray) -> np.ndarray:
        dx, self.W.grad, self.b.grad = reference.linear_backward(self.ctx["x"], self.W, grad)
        return dx


class ReferenceReLU(Module):
    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = np.array(x)
        return reference.relu_forward(x)

    def backward(self, grad: np.ndarray) -> np.ndarray:
        return reference.relu_backward(self.ctx["x"], grad)
