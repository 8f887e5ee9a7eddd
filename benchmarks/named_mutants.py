"""Hand-written weakenings of the grading code, each a plausible edit that a test of the fast tier must catch (issue
27: a reviewer's 36 edits, 7 of which the fast tier let through, and their kin).

``benchmarks/mutation.py --named`` applies each one alone to a clone of HEAD and runs the test files it names: the
edit is caught when they fail. ``tests/test_named_mutants.py`` checks that every edit still applies to the source
(its old text is there exactly once), so the list cannot rot silently when the code it weakens changes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NamedMutant:
    name: str
    path: str  # repo-relative
    old: str  # present exactly once in the file
    new: str
    weakens: str
    tests: tuple[str, ...]  # test files (or node ids) that must fail on it


WEAKENED = "tests/test_weakened_checks.py"
PINNED = "tests/test_pinned_checks.py"
CORPUS = "tests/test_corpus.py"
OUTPUTS = "tests/test_pinned_outputs.py"

_CLOSE_SHAPE = "    check_shape(what, actual, np.shape(expected), cause)\n    error, index = worst_difference("
_SGD_GRAD = "if after is None or np.shape(after) != grads[i].shape or not np.array_equal(after, grads[i]):"

MUTANTS: tuple[NamedMutant, ...] = (
    # 1. the closeness check accepting a transposed array
    NamedMutant(
        "close_no_shape",
        "source/mlp/nn_checks.py",
        _CLOSE_SHAPE,
        "    error, index = worst_difference(",
        "check_close no longer compares shapes (a transposed or broadcastable array is compared by value)",
        (WEAKENED,),
    ),
    NamedMutant(
        "close_shape_after_broadcasting",
        "source/mlp/nn_checks.py",
        _CLOSE_SHAPE,
        "    check_shape(what, actual, np.broadcast_shapes(np.shape(actual), np.shape(expected)), cause)\n"
        "    error, index = worst_difference(",
        "check_close compares the shape after broadcasting (a (1, n) array passes for an (n,) one)",
        (WEAKENED,),
    ),
    NamedMutant(
        "within_no_shape",
        "source/mlp/nn_checks.py",
        "    check_shape(what, actual, np.shape(expected), cause)\n    low, high =",
        "    low, high =",
        "check_within (the loss band) no longer compares shapes",
        (WEAKENED,),
    ),
    # 2. the public finite-difference check skipping b.grad
    NamedMutant(
        "public_fd_skips_b_grad",
        "source/mlp/nn_public.py",
        '[("W", layer.W, case["dW"]), ("b", layer.b, case["db"])],',
        '[("W", layer.W, case["dW"])],',
        "the public Linear finite-difference check no longer compares b.grad",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_fd_first_parameter_only",
        "source/mlp/nn_public.py",
        "    for p in params:\n        named, expected = next(",
        "    for p in params[:1]:\n        named, expected = next(",
        "check_gradients compares the first parameter's .grad only",
        (WEAKENED,),
    ),
    # 3. SGD no longer required to leave .grad unchanged
    NamedMutant(
        "sgd_grad_values_not_compared",
        "source/mlp/nn_diagnosis.py",
        _SGD_GRAD,
        "if after is None:",
        "check_sgd accepts any .grad after a step, as long as there is one",
        (WEAKENED,),
    ),
    NamedMutant(
        "sgd_grad_not_checked",
        "source/mlp/nn_diagnosis.py",
        _SGD_GRAD,
        "if False:",
        "check_sgd no longer looks at .grad after a step",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_sgd_records_given_grads",
        "source/mlp/nn_public.py",
        'case["grads_after"].append([None if p.grad is None else np.array(p.grad) for p in params])',
        'case["grads_after"].append([None if p.grad is None else np.array(g) for p, g in zip(params, grads)])',
        "the public SGD check records the gradients it gave, not the parameters' .grad after the step",
        (WEAKENED,),
    ),
    # 4. the SGD cases cut to one step
    NamedMutant(
        "sgd_one_step",
        "autograder/judge/inputs.py",
        'return {"cases": cases, "steps": 2}',
        'return {"cases": cases, "steps": 1}',
        "the hidden SGD cases take one step instead of two",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_sgd_one_step",
        "source/mlp/nn_public_data.json",
        '  "steps": 2,',
        '  "steps": 1,',
        "the public SGD check takes one step instead of two",
        (WEAKENED,),
    ),
    # 5. the stale forward given the same inputs
    NamedMutant(
        "loss_probe_stale_same_inputs",
        "autograder/probe/loss.py",
        'loss_fn, case["z_stale"].copy(), case["y_stale"].copy())',
        'loss_fn, case["z"].copy(), case["y"].copy())',
        "the loss probe's earlier forward gets the judged inputs (a forward that returns a cached result passes)",
        (WEAKENED,),
    ),
    NamedMutant(
        "loss_inputs_stale_same",
        "autograder/judge/inputs.py",
        '        case["z_stale"] = rng.standard_normal(case["z"].shape)\n'
        '        case["y_stale"] = rng.integers(0, case["z"].shape[1], size=case["z"].shape[0])',
        '        case["z_stale"] = case["z"].copy()\n        case["y_stale"] = case["y"].copy()',
        "the loss cases' stale inputs are the judged ones",
        (WEAKENED,),
    ),
    NamedMutant(
        "relu_probe_stale_same_input",
        "autograder/probe/relu.py",
        'record.run("forward_stale", relu, case["x_stale"].copy())',
        'record.run("forward_stale", relu, case["x"].copy())',
        "the ReLU probe's earlier forward gets the judged input",
        (WEAKENED,),
    ),
    NamedMutant(
        "linear_probe_stale_same_input",
        "autograder/probe/linear.py",
        '(("forward_stale", case["x_stale"]), ("forward", case["x"]))',
        '(("forward_stale", case["x"]), ("forward", case["x"]))',
        "the Linear probe's earlier forward gets the judged input",
        (PINNED, CORPUS),
    ),
    # 6. Linear.forward no longer required to leave x unchanged
    NamedMutant(
        "linear_forward_x_not_kept",
        "autograder/judge/linear.py",
        '        check_unchanged(what, record["x_after"], case["x"])\n',
        "",
        "the hidden Linear.forward check no longer requires x unchanged",
        (WEAKENED,),
    ),
    NamedMutant(
        "linear_probe_x_after_is_a_copy",
        "autograder/probe/linear.py",
        'record.keep("x_after", x)',
        'record.keep("x_after", case["x"])',
        "the Linear probe records the case's x, not the array forward was given",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_linear_x_not_kept",
        "source/mlp/nn_public.py",
        '    check_unchanged("Linear(2, 1).forward", x, case["x"])\n',
        "",
        "the public Linear check no longer requires x unchanged",
        (WEAKENED,),
    ),
    # 7. a looser finite-difference tolerance in one ReLU case
    NamedMutant(
        "relu_fd_tolerance_1e_4",
        "autograder/judge/relu.py",
        "FD_CHECK(what=what), dx, numeric, FD_TOLERANCE,",
        "FD_CHECK(what=what), dx, numeric, 1e-4,",
        "the hidden ReLU finite-difference case accepts a relative error of 1e-4",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_fd_tolerance_100x",
        "source/mlp/nn_public.py",
        "analytic, expected, FD_TOLERANCE, unset=not_set, x=x, g=upstream, **inputs",
        "analytic, expected, 100 * FD_TOLERANCE, unset=not_set, x=x, g=upstream, **inputs",
        "the public finite-difference checks accept a relative error 100 times larger",
        (WEAKENED,),
    ),
    # kin: the other inputs a method must leave unchanged
    NamedMutant(
        "relu_forward_x_not_kept",
        "autograder/judge/relu.py",
        '        check_unchanged(what, record["x_after"], h)\n',
        "",
        "the hidden ReLU.forward check no longer requires x unchanged",
        (PINNED, CORPUS),
    ),
    NamedMutant(
        "relu_backward_g_not_kept",
        "autograder/judge/relu.py",
        '        check_unchanged(what, record["g_after"], g)\n',
        "",
        "the hidden ReLU.backward check no longer requires grad unchanged",
        (PINNED, CORPUS),
    ),
    NamedMutant(
        "loss_z_not_kept",
        "autograder/judge/loss.py",
        '        check_unchanged(what, record["z_after"], z)\n',
        "",
        "the hidden loss check no longer requires the logits unchanged",
        (WEAKENED,),
    ),
    NamedMutant(
        "public_loss_z_not_kept",
        "source/mlp/nn_public.py",
        '    check_unchanged(example, z, case["z"])\n',
        "",
        "the public loss check no longer requires the logits unchanged",
        (WEAKENED,),
    ),
    NamedMutant(
        "mlp_forward_x_not_kept",
        "autograder/judge/mlp.py",
        '        check_unchanged(what, record["x_after"], case["x"])\n',
        "",
        "the hidden MLP.forward check no longer requires x unchanged",
        (WEAKENED,),
    ),
    NamedMutant(
        "mlp_backward_g_not_kept",
        "autograder/judge/mlp.py",
        '        check_unchanged(backward, record["g_after"], g)\n',
        "",
        "the hidden MLP.backward check no longer requires grad unchanged",
        (WEAKENED,),
    ),
    NamedMutant(
        "linear_backward_g_not_kept",
        "autograder/judge/linear.py",
        '            check_unchanged(PART_OF(what=name, part="backward(grad)"), record["g_after"], case["g"])\n',
        "            pass\n",
        "the hidden Linear.backward checks no longer require grad unchanged",
        (PINNED, CORPUS),
    ),
    # 8. what a student reads: the first sample's rewording survivors (a subject None, a garbled call), as edits
    NamedMutant(
        "linear__check_layer_subject_none",
        "autograder/judge/linear.py",
        'got(record, "layer", layer)',
        'got(record, "layer", None)',
        "a message loses or garbles a field: linear._check_layer subject None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "linear__judge_gradient_backward_subject_none",
        "autograder/judge/linear.py",
        'got(record, "dx", PART_OF(what=name, part="backward(grad)"), quantity.formula)',
        'got(record, "dx", None, quantity.formula)',
        "a message loses or garbles a field: linear._judge_gradient backward subject None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "linear__judge_gradient_part_none",
        "autograder/judge/linear.py",
        'got(record, "dx", PART_OF(what=name, part="backward(grad)"), quantity.formula)',
        'got(record, "dx", PART_OF(what=name, part=None), quantity.formula)',
        "a message loses or garbles a field: linear._judge_gradient part None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "linear_judge_forward_x_unchanged_subject_none",
        "autograder/judge/linear.py",
        'check_unchanged(what, record["x_after"], case["x"])\n        got(record, "fresh_layer"',
        'check_unchanged(None, record["x_after"], case["x"])\n        got(record, "fresh_layer"',
        "a message loses or garbles a field: linear.judge_forward x-unchanged subject None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "linear_judge_forward_y32_formula_as_subject",
        "autograder/judge/linear.py",
        'y32 = got(record, "y32", float32, LINEAR_FORWARD.formula)',
        'y32 = got(record, "y32", LINEAR_FORWARD.formula)',
        "a message loses or garbles a field: linear.judge_forward y32 formula as subject",
        (OUTPUTS,),
    ),
    NamedMutant(
        "loss_judge_forward_xxforwardxx",
        "autograder/judge/loss.py",
        'what = _name("forward(logits, targets)", z)',
        'what = _name("XXforward(logits, targets)XX", z)',
        "a message loses or garbles a field: loss.judge_forward XXforwardXX",
        (OUTPUTS,),
    ),
    NamedMutant(
        "loss_judge_backward_xxbackwardxx",
        "autograder/judge/loss.py",
        'what = _name("backward()", z)',
        'what = _name("XXbackward()XX", z)',
        "a message loses or garbles a field: loss.judge_backward XXbackward()XX",
        (OUTPUTS,),
    ),
    NamedMutant(
        "mlp_judge_backward_xxbackwardgradxx",
        "autograder/judge/mlp.py",
        'PART_OF(what=what, part="backward(grad)")',
        'PART_OF(what=what, part="XXbackward(grad)XX")',
        "a message loses or garbles a field: mlp.judge_backward XXbackward(grad)XX",
        (OUTPUTS,),
    ),
    NamedMutant(
        "mlp_judge_backward_grad_unchanged_subject_none",
        "autograder/judge/mlp.py",
        'check_unchanged(backward, record["g_after"], g)',
        'check_unchanged(None, record["g_after"], g)',
        "a message loses or garbles a field: mlp.judge_backward grad-unchanged subject None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "mlp_judge_backward_dx_subject_none",
        "autograder/judge/mlp.py",
        "PART_OF(what=what, part=RETURNED_DX),",
        "PART_OF(what=None, part=RETURNED_DX),",
        "a message loses or garbles a field: mlp.judge_backward dX subject None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "relu_judge_forward_shape_none",
        "autograder/judge/relu.py",
        'what = FOR_X_SHAPE(call="ReLU().forward(x)", shape=h.shape)',
        'what = FOR_X_SHAPE(call="ReLU().forward(x)", shape=None)',
        "a message loses or garbles a field: relu.judge_forward shape None",
        (OUTPUTS,),
    ),
    NamedMutant(
        "relu_judge_backward_xxreluxx",
        "autograder/judge/relu.py",
        'what = FOR_X_SHAPE(call="ReLU().backward(grad)", shape=h.shape)',
        'what = FOR_X_SHAPE(call="XXReLU().backward(grad)XX", shape=h.shape)',
        "a message loses or garbles a field: relu.judge_backward XXReLU()XX",
        (OUTPUTS,),
    ),
    NamedMutant(
        "sgd_judge_step_xx_around_the_call",
        "autograder/judge/sgd.py",
        'SGD_STEP(call=f"{name}.step()"',
        'SGD_STEP(call=f"XX{name}.step()XX"',
        "a message loses or garbles a field: sgd.judge_step XX around the call",
        (OUTPUTS,),
    ),
)
