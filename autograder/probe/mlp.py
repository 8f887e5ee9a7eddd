"""Probes of ``MLP``: its own wiring, with stand-in layers swapped in for the student's Linear and ReLU.

The stand-ins record the order in which the MLP calls them; their gradients
are read from the stand-ins themselves, whatever the MLP does with its attributes.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from nn_core import Module, Parameter
from nn_diagnosis import describe_parameters, record_calls

from .core import Record, collect_cases, time_limit

NAMES = ("W1", "b1", "W2", "b2")


class StandInLinear(Module):
    def __init__(self, W: np.ndarray, b: np.ndarray) -> None:
        super().__init__()
        self.W, self.b = Parameter(W, dtype=np.float64), Parameter(b, dtype=np.float64)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["x"] = np.array(x, dtype=np.float64)
        return self.ctx["x"] @ self.W + self.b

    def backward(self, grad: np.ndarray) -> np.ndarray:
        x = self.ctx["x"]
        self.W.grad, self.b.grad = x.T @ grad, grad.sum(axis=0)
        return grad @ np.asarray(self.W).T


class StandInReLU(Module):
    def forward(self, x: np.ndarray) -> np.ndarray:
        self.ctx["positive"] = np.asarray(x) > 0
        return np.where(self.ctx["positive"], x, 0.0)

    def backward(self, grad: np.ndarray) -> np.ndarray:
        return np.where(self.ctx["positive"], grad, 0.0)


def _with_stand_ins(MLP: type, case: dict[str, Any], record: Record) -> tuple[Any, list[Any], list[str]]:
    """The student's MLP (its parameters() recorded) with stand-in layers holding the case's weights."""
    W1, W2 = case["W1"], case["W2"]
    mlp = record.run("mlp", MLP, W1.shape[0], W1.shape[1], W2.shape[1])
    found = list(record.run("parameters", mlp.parameters))
    owners = [getattr(getattr(mlp, layer, None), p, None) for layer in ("fc1", "fc2") for p in ("W", "b")]
    record.keep("parameters", describe_parameters(found, owners, NAMES))
    layers = [StandInLinear(case["W1"], case["b1"]), StandInReLU(), StandInLinear(case["W2"], case["b2"])]
    mlp.fc1, mlp.relu, mlp.fc2 = layers
    return mlp, layers, record_calls(mlp)


def mlp_forward(MLP: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        mlp, _, calls = _with_stand_ins(MLP, case, record)
        x = case["x"].copy()
        try:
            record.run("logits", mlp, x)
        finally:
            record.keep("calls", list(calls))
            record.keep("x_after", x)

    with time_limit("MLP.forward"):
        return collect_cases(inputs["cases"], probe)


def mlp_backward(MLP: type, inputs: dict[str, Any]) -> list[Record]:
    def probe(case: dict[str, Any], record: Record) -> None:
        mlp, (fc1, _, fc2), calls = _with_stand_ins(MLP, case, record)
        g = case["g"].copy()
        try:
            record.run("logits", mlp, case["x"].copy())
            record.run("dx", mlp.backward, g)
        finally:
            record.keep("calls", list(calls))
            record.keep("g_after", g)
        record.keep("grads", [None if p.grad is None else np.array(p.grad) for p in (fc1.W, fc1.b, fc2.W, fc2.b)])

    with time_limit("MLP.backward"):
        return collect_cases(inputs["cases"], probe)
