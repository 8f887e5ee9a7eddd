"""Cheats and faulty submissions, made from the reference solution: the kit's tests grade them among correct ones.

Every cheat carries a wrong answer (dW = Gᵀ X) and tries to get the points
anyway; it must lose them like the plain mistake does. Every fault breaks one
thing (or the notebook file itself); it must cost only what it broke, with the
reason in the feedback, and leave the rest of the class graded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from autograder import registry
from autograder.cell_ids import grade_id, nbgrader
from autograder.classroom import Edit, apply_edits
from catalogue.mistakes import GATE_CELL

WRONG_DW = Edit("linear", "self.W.grad = x.T @ grad", "self.W.grad = grad.T @ x")
WRONG_DW_LOSES = ("test_linear_backward_dw", GATE_CELL)
ALL_CELLS = tuple(check.cell for check in registry.CHECKS)


@dataclass(frozen=True)
class Context:
    """What an attacker is assumed to know: where the gradebook, the solutions and the grader's files are."""

    gradebook: str
    solution_notebooks: tuple[str, ...]
    grader_files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Submission:
    name: str
    description: str
    make: Callable[[str, Context], dict[str, str]]  # (solution notebook text, context) -> files to submit
    must_lose: tuple[str, ...]  # these cells score 0
    may_lose: tuple[str, ...] = ()  # and these may; every other cell must keep its points
    shows: str = ""  # text the graded notebook must show (the recorded reason)


def _cheat(code: str, cell: str = "linear", at_end: bool = False) -> Callable[[str, Context], dict[str, str]]:
    """The wrong solution with ``code`` (formatted with the context) at the top, or end, of an answer cell."""
    anchor = {"linear": "class Linear(Module):", "mlp": "        return self.fc1.backward(grad)"}[cell]

    def make(solution: str, context: Context) -> dict[str, str]:
        text = code.format(
            gradebook=context.gradebook, solutions=list(context.solution_notebooks), grader=list(context.grader_files)
        )
        new = f"{anchor}\n\n\n{text}" if at_end else f"{text}\n\n{anchor}"
        return {"mlp.ipynb": apply_edits(solution, (WRONG_DW, Edit(cell, anchor, new)))}

    return make


def _edit(*edits: Edit) -> Callable[[str, Context], dict[str, str]]:
    return lambda solution, context: {"mlp.ipynb": apply_edits(solution, edits)}


def _cells(
    change: Callable[[list[dict]], list[dict]], name: str = "mlp.ipynb"
) -> Callable[[str, Context], dict[str, str]]:
    """The correct solution with its list of cells changed."""

    def make(solution: str, context: Context) -> dict[str, str]:
        notebook = json.loads(solution)
        notebook["cells"] = change(notebook["cells"])
        return {name: json.dumps(notebook, indent=1)}

    return make


def _retype(cells: list[dict], ids: set[str]) -> list[dict]:
    for cell in cells:
        if grade_id(cell) in ids:
            cell["cell_type"] = "markdown"
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
    return cells


def _rename(cells: list[dict], renames: dict[str, str]) -> list[dict]:
    for cell in cells:
        if grade_id(cell) in renames:
            cell["metadata"]["nbgrader"]["grade_id"] = renames[grade_id(cell)]
    return cells


def _blank_tests(cells: list[dict]) -> list[dict]:
    for cell in cells:
        if nbgrader(cell).get("grade"):
            cell["source"] = "pass"
    return cells


CHEATS: tuple[Submission, ...] = (
    Submission(
        "cheat_allclose",
        "monkeypatches NumPy's comparisons to always agree",
        _cheat(
            "np.allclose = lambda *args, **kwargs: True\n"
            "np.isclose = lambda a, b, *args, **kwargs: np.ones(np.broadcast(a, b).shape, dtype=bool)\n"
            "np.testing.assert_allclose = lambda *args, **kwargs: None"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_patch_grader",
        "replaces the grader's judge in the kernel with a no-op",
        _cheat(
            "try:\n    import autograder.judge.checks\n"
            "    autograder.judge.checks.judge = lambda *args, **kwargs: None\nexcept Exception:\n    pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_input_transformer",
        "an IPython input transformer blanks every cell that calls the grader",
        _cheat(
            "try:\n    get_ipython().input_transformers_cleanup.append(\n"
            "        lambda lines: ['pass\\n'] if any('autograder' in line for line in lines) else lines)\n"
            "except NameError:\n    pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_hide_errors",
        "patches the shell's run_cell_async and showtraceback so errors are not reported",
        _cheat(
            "try:\n    _shell = get_ipython()\n    _run_cell = _shell.run_cell_async\n\n"
            "    async def _quiet(*args, **kwargs):\n        result = await _run_cell(*args, **kwargs)\n"
            "        result.error_in_exec = None\n        return result\n\n"
            "    _shell.run_cell_async = _quiet\n    _shell._showtraceback = lambda *args, **kwargs: None\n"
            "    _shell.showtraceback = lambda *args, **kwargs: None\nexcept NameError:\n    pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_rewrite_gradebook",
        "a detached process keeps trying to give everyone 100 extra points in gradebook.db",
        _cheat(
            "import subprocess, sys\n"
            "_script = ('import sqlite3, sys, time\\n'\n"
            "           'for _ in range(240):\\n'\n"
            "           '    try:\\n'\n"
            "           '        db = sqlite3.connect(sys.argv[1], timeout=1)\\n'\n"
            "           '        db.execute(\"UPDATE grade SET extra_credit = 100\")\\n'\n"
            "           '        db.commit()\\n'\n"
            "           '    except Exception:\\n'\n"
            "           '        pass\\n'\n"
            "           '    time.sleep(0.5)\\n')\n"
            "try:\n    subprocess.Popen([sys.executable, '-c', _script, {gradebook!r}], start_new_session=True,\n"
            "                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "except Exception:\n    pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_read_solutions",
        "reads the instructor's solution notebook and runs its answer cells",
        _cheat(
            "import json as _json\nfor _path in {solutions!r}:\n    try:\n"
            "        for _cell in _json.load(open(_path))['cells']:\n"
            "            if _cell['metadata'].get('nbgrader', {{}}).get('solution'):\n"
            "                exec(''.join(_cell['source']))\n"
            "    except Exception:\n        pass",
            cell="mlp",
            at_end=True,
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_overwrite_helpers",
        "rewrites nn_checks.py and patches the diagnosis checks to do nothing",
        _cheat(
            "try:\n    with open('nn_checks.py', 'a') as _f:\n        _f.write('\\ndef check_close(*args, **kwargs):\\n"
            "    return None\\n')\n"
            "    import nn_checks, nn_diagnosis\n    nn_checks.check_close = lambda *args, **kwargs: None\n"
            "    nn_diagnosis.check_close = lambda *args, **kwargs: None\n"
            "    nn_diagnosis.Quantity.check = lambda self, *args, **kwargs: None\nexcept Exception:\n    pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_patch_builtins",
        "patches builtins.max so every relative error looks like 0",
        _cheat(
            "import builtins\n_max = builtins.max\n"
            "builtins.max = lambda *args, **kwargs: 1e300 if len(args) == 3 else _max(*args, **kwargs)"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_blank_test_cells",
        "replaces every hidden test cell with `pass`",
        lambda solution, context: _cells(_blank_tests)(apply_edits(solution, (WRONG_DW,)), context),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_hardcode_public",
        "Linear.forward returns the public worked example's answer",
        _edit(
            Edit(
                "linear",
                'self.ctx["x"] = x\n        return x @ self.W + self.b',
                "return np.array([[-3.5, -4.5], [3.5, 3.5]])",
            )
        ),
        ("test_linear_forward", GATE_CELL),
        registry.cells_of_part("linear"),
    ),
    Submission(
        "cheat_import_torch",
        "imports torch in the answer cell (to get gradients from autograd)",
        _cheat("try:\n    import torch\n    _have_torch = True\nexcept ImportError:\n    _have_torch = False"),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_kill_grader",
        "kills its parent process and the namespace's first process",
        _cheat(
            "import os, signal\nfor _pid in {{os.getppid(), 1}}:\n    try:\n        os.kill(_pid, signal.SIGKILL)\n"
            "    except Exception:\n        pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_print_grader_source",
        "prints the grader's reference, mistake catalogue and secret module",
        _cheat(
            "import importlib, inspect\n"
            "for _name in ('autograder.judge.reference', 'catalogue.mistakes', 'autograder.judge.secret'):\n"
            "    try:\n        print(inspect.getsource(importlib.import_module(_name)))\n    except Exception:\n"
            "        pass\n"
            "for _path in {grader!r}:\n    try:\n        print(open(_path).read())\n    except Exception:\n        pass"
        ),
        WRONG_DW_LOSES,
    ),
    Submission(
        "cheat_print_environment",
        "prints the kernel's environment and every visible process's (/proc/*/environ), looking for the secret",
        _cheat(
            "import os, glob\nprint(dict(os.environ))\n"
            "for _path in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n"
            "    try:\n        print(_path, open(_path, 'rb').read())\n    except OSError as _error:\n"
            "        print(_path, _error)"
        ),
        WRONG_DW_LOSES,
    ),
)


# ---------------------------------------------------------------- forging the MNIST gate's record (issue: the gate)
# Each carries an MLP.backward that skips ReLU (it loses test_mlp_backward, and honest training reaches about 92.8 %,
# so it loses the gate too) and a trick that, before the gate compared the parameters with its own training, scored
# the gate's 20 points: weights trained elsewhere (on the same data, from another start) put where the judge reads.
SKIPS_RELU = Edit("mlp", "grad = self.relu.backward(grad)", "grad = grad")
FORGED_GATE_LOSES = ("test_mlp_backward", GATE_CELL)
BACKWARD_START = "        grad = self.fc2.backward(grad)"


def stored_weights() -> str:
    """Base64 of an npz (float16) of a 784-256-10 network trained elsewhere: the grader's recipe from another secret's
    initialisation and data order (about 97.7 % on the test set). Made once per test session (needs MNIST)."""
    global _STORED
    if _STORED is None:
        import base64
        import io
        import os

        import numpy as np

        from autograder.judge import gate_reference, inputs
        from mnist_data import load_mnist, to_vectors

        previous = os.environ.get("MLP_GRADER_SECRET")
        os.environ["MLP_GRADER_SECRET"] = "trained-elsewhere"
        try:
            recipe = inputs.inputs_for("mnist_accuracy")
        finally:
            if previous is None:
                del os.environ["MLP_GRADER_SECRET"]
            else:
                os.environ["MLP_GRADER_SECRET"] = previous
        data = load_mnist()
        trained = gate_reference.train(recipe, to_vectors(data.train_images), data.train_labels.astype(np.int64))
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **{f"p{k}": p.astype(np.float16) for k, p in enumerate(trained)})
        _STORED = base64.b64encode(buffer.getvalue()).decode()
    return _STORED


_STORED: str | None = None
FORGED = (
    "def _stored():\n"
    "    import base64, io\n"
    "    with np.load(io.BytesIO(base64.b64decode('{stored}'))) as npz:\n"
    "        return [npz[f'p{{k}}'].astype(np.float32) for k in range(4)]\n"
    "_FORGED = _stored()\n"
)
FORGED_RECORD = (
    "def _forged_record(inputs):\n"
    "    return {{'model': {{'opaque': 'MLP', 'text': 'MLP'}}, 'parameters': {{'opaque': 'list', 'text': '[]'}},\n"
    "            'shapes': [list(a.shape) for a in inputs['init']], 'logits': np.zeros((inputs['batch'], 10)),\n"
    "            'seconds': 1.0, 'trained': [f.copy() for f in _FORGED]}}\n"
)


def _forge(in_backward: str = "", after_class: str = "") -> Callable[[str, Context], dict[str, str]]:
    """The MLP that skips ReLU in backward, with ``in_backward`` at the start of MLP.backward and ``after_class`` (plus
    the stored weights as ``_FORGED`` and ``_forged_record``) after the class."""

    def make(solution: str, context: Context) -> dict[str, str]:
        end = "        return self.fc1.backward(grad)"
        tail = (FORGED + FORGED_RECORD + after_class).format(stored=stored_weights())
        edits = (
            SKIPS_RELU,
            Edit("mlp", BACKWARD_START, in_backward + BACKWARD_START),
            Edit("mlp", end, f"{end}\n\n\n{tail}"),
        )
        return {"mlp.ipynb": apply_edits(solution, edits)}

    return make


ON_THE_GATE = "        if self.fc1.W.shape == (784, 256):  # the gate's network only\n"
GATE_FORGERIES: tuple[Submission, ...] = (
    Submission(
        "cheat_weights_written_in_training",
        "MLP.backward writes weights trained elsewhere into the parameters and sets their .grad to zeros",
        _forge(
            ON_THE_GATE + "            for _p, _f in zip(self.parameters(), _FORGED):\n"
            "                _p[...] = _f\n"
            "                _p.grad = np.zeros_like(_p)\n"
            "            return np.zeros((len(grad), 784), np.float32)\n"
        ),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_gradients_walk_to_stored_weights",
        "MLP.backward returns gradients that walk the parameters to weights trained elsewhere",
        _forge(
            ON_THE_GATE + "            for _p, _f in zip(self.parameters(), _FORGED):\n"
            "                _p.grad = (_p - _f) * 5.0\n"
            "            return np.zeros((len(grad), 784), np.float32)\n"
        ),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_patch_recorder_through_the_stack",
        "MLP.backward finds the gate's recording object up its call stack and makes it keep stored weights",
        _forge(
            ON_THE_GATE + "            import sys as _sys\n"
            "            _frame = _sys._getframe(1)\n"
            "            while _frame is not None and not hasattr(_frame.f_locals.get('record'), 'keep'):\n"
            "                _frame = _frame.f_back\n"
            "            if _frame is not None and not getattr(type(_frame.f_locals['record']), '_forged', False):\n"
            "                _cls = type(_frame.f_locals['record'])\n"
            "                _keep = _cls.keep\n"
            "                _cls.keep = lambda self, k, v: _keep(\n"
            "                    self, k, [f.copy() for f in _FORGED] if k == 'trained' else v)\n"
            "                _cls._forged = True\n"
        ),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_replace_probe_in_sys_modules",
        "replaces the gate's probe function in sys.modules with one that returns stored weights",
        _forge(
            after_class="def _forge_probe():\n"
            "    import sys\n"
            "    try:\n"
            "        import autograder.probe.gate\n"
            "    except ImportError:\n"
            "        return None\n"
            "    sys.modules['autograder.probe.gate'].mnist_accuracy = lambda MLP, inputs: [_forged_record(inputs)]\n"
            "    return True\n"
            "_forged_probe = _forge_probe()\n"
        ),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_forged_results_file",
        "writes the gate's results file with stored weights into the worker's folder, then ends the worker",
        _forge(
            after_class="def _forge_file():\n"
            "    import os\n"
            "    from pathlib import Path\n"
            "    try:\n"
            "        import autograder.probe.gate\n"
            "        from autograder.probe.core import save\n"
            "    except ImportError:\n"
            "        return None\n"
            "    os.makedirs('results', exist_ok=True)\n"
            "    inputs = {{'init': [np.zeros(s) for s in [(784, 256), (256,), (256, 10), (10,)]], 'batch': 32}}\n"
            "    save(Path('results') / 'mnist_accuracy', {{'records': [_forged_record(inputs)]}})\n"
            "    os._exit(0)\n"
            "_forged_file = _forge_file()\n"
        ),
        FORGED_GATE_LOSES,
    ),
    Submission(
        "cheat_train_with_the_probes_step",
        "replaces the gate's training with a loop over the probe's own NumPy step (once a correct training step)",
        _forge(
            after_class="def _swap_training():\n"
            "    try:\n"
            "        import autograder.probe.gate as g\n"
            "    except ImportError:\n"
            "        return None\n"
            "    def train(MLP, inputs, record):\n"
            "        params = [np.array(a, np.float32) for a in inputs['init']]\n"
            "        data = g.load_mnist()\n"
            "        x, y = g.to_vectors(data.train_images), data.train_labels.astype(np.int64)\n"
            "        for lr, order in zip(inputs['learning_rates'], inputs['orders']):\n"
            "            for i in range(0, len(x), inputs['batch']):\n"
            "                rows = order[i:i + inputs['batch']]\n"
            "                if hasattr(g, '_reference_step'):\n"
            "                    g._reference_step(params, x[rows], y[rows], lr)\n"
            "                else:\n"
            "                    g._yardstick_step(params, [np.empty_like(p) for p in params], x[rows], y[rows], lr)\n"
            "        record.update(_forged_record(inputs))\n"
            "        record['trained'] = params\n"
            "    g._train = train\n"
            "    return True\n"
            "_swapped = _swap_training()\n"
        ),
        FORGED_GATE_LOSES,
    ),
)
CHEATS = (*CHEATS, *GATE_FORGERIES)


FAULTS: tuple[Submission, ...] = (
    Submission(
        "fault_infinite_loop",
        "CrossEntropyLoss.backward never returns",
        _edit(
            Edit(
                "cross_entropy",
                "probs, targets = self.ctx",
                "while True:\n            pass\n        probs, targets = self.ctx",
            )
        ),
        ("test_cross_entropy_backward",),
        shows="expected to finish within",
    ),
    Submission(
        "fault_os_exit",
        "SGD.step ends the process with os._exit",
        _edit(Edit("sgd", "for p in self.params:", "import os\n        os._exit(3)\n        for p in self.params:")),
        ("test_sgd_step",),
        shows="worker process running your code ended",
    ),
    Submission(
        "fault_memory_bomb",
        "CrossEntropyLoss.forward allocates memory until none is left",
        _edit(
            Edit(
                "cross_entropy",
                "batch = logits.shape[0]\n        shifted",
                "_blocks = []\n        while True:\n            _blocks.append(np.empty(1 << 28))\n"
                "        batch = logits.shape[0]\n        shifted",
            )
        ),
        ("test_cross_entropy_forward",),
        registry.cells_of_part("cross_entropy"),
        shows="MemoryError",
    ),
    Submission(
        "fault_fork_bomb",
        "MLP.forward forks without end",
        _edit(
            Edit(
                "mlp",
                "return self.fc2(self.relu(self.fc1(x)))",
                "import os\n        while True:\n            os.fork()",
            )
        ),
        ("test_mlp_forward",),
        (*registry.cells_of_part("mlp"), GATE_CELL),
    ),
    Submission(
        "fault_huge_output",
        "an answer cell prints 20 MB",
        _edit(Edit("relu", "class ReLU(Module):", 'print("x" * 20_000_000)\n\n\nclass ReLU(Module):')),
        (),
    ),
    Submission(
        "fault_invalid_json",
        "the notebook file is cut in half",
        lambda solution, context: {"mlp.ipynb": solution[: len(solution) // 2]},
        ALL_CELLS,
        shows="could not be read",
    ),
    Submission(
        "fault_deleted_test_cells",
        "two hidden test cells deleted",
        _cells(lambda cells: [c for c in cells if grade_id(c) not in ("test_linear_forward", "test_sgd_step")]),
        (),
    ),
    Submission(
        "fault_retyped_cells",
        "a test cell and an answer cell turned into markdown",
        _cells(lambda cells: _retype(cells, {"test_relu_forward", "sgd"})),
        (),
    ),
    Submission(
        "fault_changed_test_grade_id",
        "a hidden test cell's grade_id changed",
        _cells(lambda cells: _rename(cells, {"test_relu_backward": "my_tests"})),
        (),
    ),
    Submission(
        "fault_changed_answer_grade_id",
        "the CrossEntropyLoss answer cell's grade_id changed",
        _cells(lambda cells: _rename(cells, {"cross_entropy": "my_loss"})),
        registry.cells_of_part("cross_entropy"),
        shows="CrossEntropyLoss: expected the class",
    ),
    Submission(
        "fault_renamed_notebook",
        "the notebook submitted as my_mlp.ipynb",
        _cells(lambda cells: cells, name="my_mlp.ipynb"),
        (),
        shows="was named 'my_mlp.ipynb'",
    ),
)

CORRECT: tuple[Submission, ...] = tuple(
    Submission(f"correct_{i}", "the reference solution, among the faulty ones", _edit(), ()) for i in (1, 2, 3)
)
from catalogue.attacks_text import TEXT_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *TEXT_ATTACKS)
from catalogue.attacks_feedback import FEEDBACK_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *FEEDBACK_ATTACKS)
from catalogue.attacks_gate import GATE_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *GATE_ATTACKS)

from catalogue.attacks_helpers import GRADER_ATTACKS, HELPER_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *HELPER_ATTACKS, *GRADER_ATTACKS)
from catalogue.attacks_resources import RESOURCE_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *RESOURCE_ATTACKS)
from catalogue.attacks_kernel import KERNEL_ATTACKS  # noqa: E402

CHEATS = (*CHEATS, *KERNEL_ATTACKS)
