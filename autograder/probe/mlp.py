"""Probes of ``MLP``: its own wiring, with stand-in layers swapped in for the student's Linear and ReLU.

The stand-ins record the order in which the MLP calls them; their gradients are read from the stand-ins
themselves, whatever the MLP does with its attributes. An MLP may read a layer's results from the layer's own
attributes (``self.fc1.output``, as nnfs does) instead of its return value: before the swap, each of the
student's own layers runs once on random data, and every attribute that then holds its input, its output or its
returned gradient is kept up to date on the stand-in too ("mirrors"), with the stand-in's correct values. A layer
that raises or hangs there shows nothing: its mirrors are then read from its code (``stores``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from autograder.course.nn_diagnosis import describe_parameters, record_calls
from nn_core import Module, Parameter

from . import core
from .core import AsideTimeout, CheckTimeout, Record, aside_limit, collect_cases, time_limit
from .stores import stores

NAMES = ("W1", "b1", "W2", "b2")
Mirrors = dict[str, list[str]]  # "input", "output", "grad_in", "grad_out" -> attribute names ("ctx:key" for self.ctx)

MIRROR_SECONDS = 0.5
"""CPU seconds the student's own layer may take to show where it keeps its input, output and gradients (tiny arrays:
a correct layer, even one looping in Python, takes milliseconds); a case's three layers stay well inside the check's
``CHECK_SECONDS``."""
_HUNG: set[type] = set()  # the student's layer classes whose run aside passed its limit, in this worker
MIRROR_WALL_SECONDS = 5.0
"""Wall seconds the same may take: a layer that sleeps shows nothing, and its mirrors are read from its code (a
time-out here only loses a diagnosis's aid, never a verdict, so a busy machine costs nothing)."""


class StandIn(Module):
    """A correct layer that also writes its results where the student's own layer of that place keeps them."""

    def __init__(self, mirrors: Mirrors | None = None) -> None:
        super().__init__()
        self.mirrors: Mirrors = mirrors or {}

    def _mirror(self, kind: str, value: np.ndarray) -> None:
        for name in self.mirrors.get(kind, []):
            if name.startswith("ctx:"):
                self.ctx[name[4:]] = value
            else:
                object.__setattr__(self, name, value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)


class StandInLinear(StandIn):
    def __init__(self, W: np.ndarray, b: np.ndarray, mirrors: Mirrors | None = None) -> None:
        super().__init__(mirrors)
        self.W, self.b = Parameter(W, dtype=np.float64), Parameter(b, dtype=np.float64)

    def forward(self, x: np.ndarray) -> np.ndarray:
        self._mirror("input", x)
        self.ctx["x_seen"] = np.array(x, dtype=np.float64)
        y = self.ctx["x_seen"] @ self.W + self.b
        self._mirror("output", y)
        return y

    def backward(self, grad: np.ndarray) -> np.ndarray:
        self._mirror("grad_in", grad)
        x = self.ctx["x_seen"]
        self.W.grad, self.b.grad = x.T @ grad, grad.sum(axis=0)
        dx = grad @ np.asarray(self.W).T
        self._mirror("grad_out", dx)
        return dx


class StandInReLU(StandIn):
    def forward(self, x: np.ndarray) -> np.ndarray:
        self._mirror("input", x)
        self.ctx["positive_seen"] = np.asarray(x) > 0
        y = np.where(self.ctx["positive_seen"], x, 0.0)
        self._mirror("output", y)
        return y

    def backward(self, grad: np.ndarray) -> np.ndarray:
        self._mirror("grad_in", grad)
        dx = np.where(self.ctx["positive_seen"], grad, 0.0)
        self._mirror("grad_out", dx)
        return dx


class PlaceholderLinear(StandInLinear):
    """Stands for a ``Linear`` class the submission lacks while its MLP is built (the stand-ins then replace it)."""

    def __init__(self, in_features: int, out_features: int, *_: Any, **__: Any) -> None:
        super().__init__(np.zeros((in_features, out_features)), np.zeros(out_features))


PLACEHOLDERS = {"Linear": PlaceholderLinear, "ReLU": StandInReLU}


@contextmanager
def _layer_classes_defined(MLP: type) -> Iterator[None]:
    """A missing ``Linear`` or ``ReLU`` class costs its own checks, not the MLP's: while the MLP is built, a
    placeholder takes the missing name in the namespace of the MLP's ``__init__``, and leaves it afterwards."""
    init = MLP.__dict__.get("__init__")
    names = getattr(init, "__globals__", None)
    missing = [n for n in PLACEHOLDERS if isinstance(names, dict) and not isinstance(names.get(n), type)]
    for name in missing:
        names[name] = PLACEHOLDERS[name]
    try:
        yield
    finally:
        for name in missing:
            names.pop(name, None)


def _holders(layer: Any) -> dict[str, Any]:
    """The layer's attributes and self.ctx entries ("ctx:key"), other than its Parameters."""
    found = {k: v for k, v in vars(layer).items() if not isinstance(v, Parameter) and k != "ctx"}
    ctx = vars(layer).get("ctx")
    if isinstance(ctx, dict):
        found.update({f"ctx:{k}": v for k, v in ctx.items()})
    return found


def _same(held: Any, value: Any) -> bool:
    if held is value:
        return True
    try:
        held, value = np.asarray(held), np.asarray(value)
        return (
            held.dtype.kind == "f"
            and held.shape == value.shape
            and bool(np.allclose(held, value, rtol=1e-4, atol=1e-6))
        )
    except Exception:  # noqa: BLE001 - whatever the student's layer keeps
        return False


def _learn_mirrors(layer: Any, x: np.ndarray, g: np.ndarray, correct_y: Any, correct_dx: Any) -> Mirrors:
    """Run the student's own layer once; name the attributes that then hold its input, output and gradients.

    Only an aid: the MLP's checks run on stand-in layers, so a layer that raises or hangs here costs its own checks,
    never the MLP's (what it did not show is read from its code). It runs under its own limit (``aside_limit``),
    inside the check's; either one firing here ends only this run. A layer that swallows both (a bare ``except``
    around a sleep) is stopped from outside, and the check runs again in a fresh worker without this run
    (``core.ASIDES``)."""
    mirrors: Mirrors = {}
    if core.ASIDES and type(layer) not in _HUNG:  # a layer past its limit once is read from its code from then on
        core.aside(True)
        try:
            with aside_limit(MIRROR_SECONDS, MIRROR_WALL_SECONDS):
                _learn(mirrors, layer, x, g, correct_y, correct_dx)
        except (AsideTimeout, CheckTimeout):  # the layer's time, even the check's limit: never the MLP's
            _HUNG.add(type(layer))  # so that a sleeping layer's waits never add up to the worker's stall window
        except Exception:  # noqa: BLE001 - a broken or hanging layer costs its own checks, not the MLP's
            pass
        finally:
            core.aside(False)
    if "output" not in mirrors:  # forward did not return: where it stores, from its code
        mirrors.update(_assigned(layer, "forward", "input", "output"))
    if "grad_out" not in mirrors:
        mirrors.update(_assigned(layer, "backward", "grad_in", "grad_out"))
    return mirrors


def _assigned(layer: Any, method: str, given: str, computed: str) -> Mirrors:
    """Mirrors of a layer whose run failed, read from its ``method``'s code (``stores``): the attributes that hold
    the argument under ``given``, those that hold what it returns under ``computed``, but for the stand-in's own names.

    The stand-in puts its own correct values there, in the slot the student's code states: an MLP that reads them is
    judged on its wiring, and a wrong wiring stays wrong (an attribute whose meaning the code does not state gets
    nothing)."""
    function = getattr(type(layer), method, None)
    if function is None:
        return {}
    held_as_given, held_computed = stores(function)
    reserved = {"ctx", "mirrors", "W", "b", *dir(StandInLinear)}
    reserved.update(k for k, v in vars(layer).items() if isinstance(v, Parameter))
    found = {given: sorted(held_as_given - reserved), computed: sorted(held_computed - reserved)}
    return {kind: names for kind, names in found.items() if names}


def _learn(mirrors: Mirrors, layer: Any, x: np.ndarray, g: np.ndarray, correct_y: Any, correct_dx: Any) -> None:
    """Fill ``mirrors`` from one forward and one backward of the student's ``layer``."""
    y = layer.forward(x.copy())
    held = _holders(layer)
    ys = [v for v in (y, correct_y(x)) if isinstance(v, np.ndarray)]
    mirrors["output"] = [k for k, v in held.items() if any(_same(v, t) for t in ys)]
    mirrors["input"] = [k for k, v in held.items() if k not in mirrors["output"] and _same(v, x)]
    dx = layer.backward(g.copy())
    held = _holders(layer)
    dxs = [v for v in (dx, correct_dx(x, g)) if isinstance(v, np.ndarray)]
    mirrors["grad_out"] = [k for k, v in held.items() if any(_same(v, t) for t in dxs)]
    mirrors["grad_in"] = [k for k, v in held.items() if k not in mirrors["grad_out"] and _same(v, g)]


def _swap(mlp: Any, replace: dict[int, Any]) -> None:
    """Put the stand-ins wherever the MLP holds its layers: attributes, lists, tuples and dicts of layers."""
    for name, value in list(vars(mlp).items()):
        if id(value) in replace:
            setattr(mlp, name, replace[id(value)])
        elif isinstance(value, list):
            value[:] = [replace.get(id(v), v) for v in value]
        elif isinstance(value, tuple):
            setattr(mlp, name, tuple(replace.get(id(v), v) for v in value))
        elif isinstance(value, dict):
            for key, item in list(value.items()):
                value[key] = replace.get(id(item), item)


def _with_stand_ins(MLP: type, case: dict[str, Any], record: Record) -> tuple[Any, list[Any], list[str]]:
    """The student's MLP (its parameters() recorded) with stand-in layers holding the case's weights."""
    W1, W2 = case["W1"], case["W2"]
    with _layer_classes_defined(MLP):
        mlp = record.run("mlp", MLP, W1.shape[0], W1.shape[1], W2.shape[1])
    found = list(record.run("parameters", mlp.parameters))
    owners = [getattr(getattr(mlp, layer, None), p, None) for layer in ("fc1", "fc2") for p in ("W", "b")]
    record.keep("parameters", describe_parameters(found, owners, NAMES))
    rng = np.random.default_rng(0)
    batch, (d_x, hidden), classes = case["x"].shape[0], W1.shape, W2.shape[1]
    own = [getattr(mlp, name, None) for name in ("fc1", "relu", "fc2")]
    mirrors = []
    for layer, d_in, d_out in zip(own, (d_x, hidden, hidden), (hidden, hidden, classes), strict=True):
        x, g = rng.standard_normal((batch, d_in)), rng.standard_normal((batch, d_out))
        if layer is own[1]:
            mirrors.append(_learn_mirrors(layer, x, g, lambda h: np.maximum(h, 0.0), lambda h, g: g * (h > 0)))
        else:

            def y_of(h: np.ndarray, layer: Any = layer) -> np.ndarray:
                return h @ np.asarray(layer.W, np.float64) + np.asarray(layer.b, np.float64)

            def dx_of(h: np.ndarray, g: np.ndarray, layer: Any = layer) -> np.ndarray:
                return g @ np.asarray(layer.W, np.float64).T

            mirrors.append(_learn_mirrors(layer, x, g, y_of, dx_of))
    layers = [
        StandInLinear(case["W1"], case["b1"], mirrors[0]),
        StandInReLU(mirrors[1]),
        StandInLinear(case["W2"], case["b2"], mirrors[2]),
    ]
    _swap(mlp, {id(old): new for old, new in zip(own, layers, strict=True) if old is not None})
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
