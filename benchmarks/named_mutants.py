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
BOUNDS = "tests/test_resource_bounds.py"
SETTINGS = "tests/test_settings.py"
TEXT = "tests/test_student_text.py"
KERNEL_MESSAGES = "tests/test_kernel_messages.py"
KERNEL_ADDRESS = "tests/test_kernel_address.py"
PACE = "tests/test_gate_pace.py"
SPEED = "tests/test_gate_speed_rule.py"
SANITIZER = "tests/test_sanitizer_corpus.py"
PRIVACY = "tests/test_privacy.py"
HIDDEN = "tests/test_hidden_inputs.py"
MESSAGES = "tests/test_messages.py"

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

# ---- issue 42: the trust rules of docs/trust-and-sandbox.md (the watch, the sandbox's one process and limits, the
# speed rule, per-student inputs, kernel message checks, limits on paths and student text, the sanitizer), each one
# plausible edit that loosens a rule or moves a constant; each must fail a fast test (no sandbox, no nbgrader run).
OUTCOME = "tests/test_worker_outcome.py"
TRUST_MUTANTS: tuple[NamedMutant, ...] = (
    # a layer run aside for the MLP's checks never costs them (grading/workers.py)
    NamedMutant(
        "aside_end_charged",
        "autograder/grading/workers.py",
        "        if run.report.aside and asides and not run.report.spoiled:",
        "        if False:",
        "a worker that ends while a layer runs aside (for the MLP's mirrors) costs the MLP's check at once",
        (OUTCOME,),
    ),
    NamedMutant(
        "aside_rerun_asides_again",
        "autograder/grading/workers.py",
        "            asides = False\n",
        "            asides = True\n",
        "the MLP's check is decided again with the layer run aside again (it hangs the same way)",
        (OUTCOME,),
    ),
    NamedMutant(
        "aside_on_any_end",
        "autograder/grading/workers.py",
        "        if run.report.aside and asides and not run.report.spoiled:",
        "        if asides and not run.report.spoiled:",
        "any end of a worker, not only one while code ran aside, earns a second run",
        (OUTCOME,),
    ),
    NamedMutant(
        "aside_check_limit_charged",
        "autograder/probe/mlp.py",
        "        except (AsideTimeout, CheckTimeout):",
        "        except AsideTimeout:",
        "the check's own time limit, firing while a layer runs aside, costs the MLP's check",
        (
            "tests/test_causes_on_evidence.py::test_the_checks_own_limit_firing_in_a_layer_run_aside_costs_the_mlp_nothing",
        ),
    ),
    # the watch (grading/workers.py)
    NamedMutant(
        "watch_stall_counts_all_cpu",
        "autograder/grading/workers.py",
        "used - history[0][1] < STALL_CPU:",
        "used < STALL_CPU:",
        "the stall rule looks at all the CPU used so far, not the last window's (compute 1 s, then sleep forever)",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_stall_window_doubled",
        "autograder/grading/workers.py",
        "while len(history) > 1 and history[1][0] <= now - budget.stall:",
        "while len(history) > 1 and history[1][0] <= now - 2 * budget.stall:",
        "the stall rule compares with the CPU of two windows ago (a worker that computed, then sleeps, gets longer)",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_stall_cpu_lowered",
        "autograder/grading/workers.py",
        "STALL_CPU = 0.5\n",
        "STALL_CPU = 0.05\n",
        "a worker needs only 0.05 CPU s per stall window to count as computing",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_cpu_budget_doubled",
        "autograder/grading/workers.py",
        "if used > cpu_budget:",
        "if used > 2 * cpu_budget:",
        "a worker may spend twice its CPU budget",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_idle_from_the_backstop",
        "autograder/grading/workers.py",
        "elif now > budget.idle and",
        "elif now > budget.wall and",
        "the idle rule starts at the wall-clock backstop (900 s), not at worker_idle_seconds",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_idle_share_halved",
        "autograder/grading/workers.py",
        "IDLE_SHARE = 0.75\n",
        "IDLE_SHARE = 0.375\n",
        "a worker past the idle bound need compute only 37.5 % of its time",
        (BOUNDS,),
    ),
    NamedMutant(
        "watch_idle_waiting_counted_twice",
        "autograder/grading/workers.py",
        "used + min(waited, now) < IDLE_SHARE * now",
        "used + 2 * min(waited, now) < IDLE_SHARE * now",
        "the machine's waiting counts twice as the worker's computing",
        (BOUNDS,),
    ),
    NamedMutant(
        "budget_small_checks_get_the_gates",
        "autograder/grading/workers.py",
        "return self.gate_cpu if any(registry.check(name).slow for name in group) else self.checks_cpu",
        "return self.gate_cpu",
        "a worker of small checks gets the gate's CPU backstop (1800 s) instead of 120 s",
        (BOUNDS,),
    ),
    NamedMutant(
        "budget_course_idle_is_the_wall",
        "autograder/grading/prepare.py",
        "            kit.worker_wall_seconds,\n            kit.worker_idle_seconds,\n",
        "            kit.worker_idle_seconds,\n            kit.worker_wall_seconds,\n",
        "the course's idle and wall settings reach the watch swapped (idle after 900 s)",
        (BOUNDS,),
    ),
    # the sandbox's one process, its CPU figure and its limits (sandbox.py)
    NamedMutant(
        "sandbox_cpu_user_time_only",
        "autograder/sandbox.py",
        "total += sum(int(f) for f in fields[11:15])",
        "total += sum(int(f) for f in fields[11:12])",
        "the sandbox's CPU figure counts user time only: CPU spent in the kernel (system calls) hides from it",
        (BOUNDS,),
    ),
    NamedMutant(
        "sandbox_cpu_not_below_the_first",
        "autograder/sandbox.py",
        "                    stack.extend(int(child) for child in children.read().split())\n",
        "                    pass\n",
        "the sandbox's CPU figure is bubblewrap's own, not the processes below it",
        (BOUNDS,),
    ),
    NamedMutant(
        "sandbox_memfd_allowed",
        "autograder/sandbox.py",
        'REFUSED_CALLS = ("fork", "vfork", "shmget", "memfd_create")',
        'REFUSED_CALLS = ("fork", "vfork", "shmget")',
        "the one-process filter lets memfd_create hold memory outside the process's limit",
        (BOUNDS,),
    ),
    NamedMutant(
        "sandbox_clone_of_a_process_allowed",
        "autograder/sandbox.py",
        "seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0)",
        "seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, CLONE_THREAD)",
        "the filter refuses clone of a thread, and lets clone of a process through",
        (BOUNDS,),
    ),
    NamedMutant(
        "sandbox_clone3_allowed",
        "autograder/sandbox.py",
        '        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")',
        "        pass",
        "the filter lets clone3 through (its flags are out of the filter's sight: a process can start)",
        (BOUNDS,),
    ),
    NamedMutant(
        "sandbox_no_memory_limit",
        "autograder/sandbox.py",
        '        (resource.RLIMIT_AS, limits["memory_bytes"]),\n',
        "",
        "the launcher no longer sets the address-space limit on the sandbox's process",
        (BOUNDS,),
    ),
    NamedMutant(
        "settings_worker_file_limit_dropped",
        "autograder/settings.py",
        "            file_bytes=self.worker_file_mib * MiB,\n",
        "",
        "a worker gets the default 256 MiB file limit instead of worker_file_mib",
        (SETTINGS,),
    ),
    NamedMutant(
        "settings_kernel_total_seconds_tenfold",
        "autograder/settings.py",
        "    kernel_total_seconds = Integer(\n        150,",
        "    kernel_total_seconds = Integer(\n        1500,",
        "the whole notebook gets 1500 s in the kernel instead of 150",
        (SETTINGS,),
    ),
    # the speed rule (judge/inputs.py, judge/gate.py, grading/pace.py)
    NamedMutant(
        "speed_limit_tenfold",
        "autograder/judge/inputs.py",
        "GATE_MAX_SLOWDOWN = 100.0",
        "GATE_MAX_SLOWDOWN = 1000.0",
        "the gate's training may take 1000 times the grader's CPU, not 100",
        (SPEED, PACE),
    ),
    NamedMutant(
        "speed_judge_doubles_the_limit",
        "autograder/judge/gate.py",
        'if measured.get("too_slow_at") is None and times <= limit:',
        'if measured.get("too_slow_at") is None and times <= 2 * limit:',
        "the judge passes training up to twice the speed limit",
        (SPEED,),
    ),
    NamedMutant(
        "pace_slowest_chunk",
        "autograder/grading/pace.py",
        "PaceReading(self._setup, statistics.median(self._chunks[1:]), len(self._chunks) - 1)",
        "PaceReading(self._setup, max(self._chunks[1:]), len(self._chunks) - 1)",
        "the grader's step is its slowest chunk, not the median (a load spike loosens the rule)",
        (PACE,),
    ),
    NamedMutant(
        "pace_floor_tenfold",
        "autograder/grading/pace.py",
        "EARLY_FLOOR = 30.0",
        "EARLY_FLOOR = 300.0",
        "the watch never stops a too-slow gate worker before 300 CPU s",
        (PACE,),
    ),
    NamedMutant(
        "pace_rate_steps_tenfold",
        "autograder/grading/pace.py",
        "RATE_STEPS = 250\n",
        "RATE_STEPS = 2500\n",
        "the rate rule compares a worker's CPU per step only after 2500 steps",
        (PACE,),
    ),
    NamedMutant(
        "pace_watch_doubles_the_limit",
        "autograder/grading/pace.py",
        'if seen["times"] > self.limit and (seen["from"] or used >= self.floor):',
        'if seen["times"] > 2 * self.limit and (seen["from"] or used >= self.floor):',
        "the watch stops a gate worker only at twice the speed limit",
        (PACE,),
    ),
    # per-student inputs (judge/secret.py, judge/inputs.py, and who passes the student)
    NamedMutant(
        "inputs_every_check_per_course",
        "autograder/judge/inputs.py",
        "per_course = registry.check(check).inputs in PER_COURSE",
        "per_course = True",
        "every check's hidden inputs are the course's, the same for every student",
        (TEXT,),
    ),
    NamedMutant(
        "inputs_seed_without_the_student",
        "autograder/judge/secret.py",
        "json.dumps([current(), check, student])",
        "json.dumps([current(), check])",
        "the seed of a student's inputs leaves the student out",
        (TEXT,),
    ),
    NamedMutant(
        "inputs_worker_gets_the_courses",
        "autograder/grading/workers.py",
        'save(program / "inputs" / check, inputs_for(check, student))',
        'save(program / "inputs" / check, inputs_for(check))',
        "the worker's program folder holds the course's inputs, not this student's",
        (HIDDEN,),
    ),
    NamedMutant(
        "inputs_preprocessor_drops_the_student",
        "autograder/preprocessors/verify.py",
        'student=str(info["student"])',
        'student=""',
        "nbgrader's verify step grades every student on the course's inputs",
        (HIDDEN,),
    ),
    # what the kernel sends (grading/kernel.py, grading/cell_limits.py)
    NamedMutant(
        "kernel_count_may_be_a_bool",
        "autograder/grading/kernel.py",
        "(isinstance(count, int) and not isinstance(count, bool))",
        "isinstance(count, int)",
        "an execution_count of True passes the message check",
        (KERNEL_MESSAGES,),
    ),
    NamedMutant(
        "kernel_comms_pass",
        "autograder/grading/kernel.py",
        '        if msg["msg_type"] not in IOPUB:\n            return dropped()\n',
        "",
        "IOPub messages of any type (comms, debug events) reach nbclient unread",
        (KERNEL_MESSAGES,),
    ),
    NamedMutant(
        "kernel_reached_at_its_folders_path",
        "autograder/grading/kernel.py",
        'return f"/proc/{os.getpid()}/fd/{fd}/kernel-ipc"',
        'return str(self._box / "kernel-ipc")',
        "nbgrader's client reaches the kernel at its scratch folder's path, too long for a socket when that is deep",
        (KERNEL_ADDRESS,),
    ),
    NamedMutant(
        "unsandboxed_kernel_binds_at_its_folders_path",
        "autograder/grading/kernel.py",
        'else "../io/kernel-ipc"',
        'else str(self._box / "kernel-ipc")',
        "an unsandboxed kernel binds at its scratch folder's path, too long for a socket when that is deep",
        (KERNEL_ADDRESS,),
    ),
    NamedMutant(
        "worker_rlimit_cpu_below_the_gate_budget",
        "autograder/settings.py",
        "cpu_seconds=2 * max(self.worker_checks_cpu_seconds, self.worker_gate_cpu_seconds),",
        "cpu_seconds=1200,",
        "the kernel ends a gate the speed rule lets run (a crash that can cost the student) before the watch decides",
        (SETTINGS,),
    ),
    NamedMutant(
        "check_timeout_is_an_exception",
        "autograder/probe/core.py",
        "class CheckTimeout(BaseException):",
        "class CheckTimeout(AssertionError):",
        "a student's except Exception swallows the check's time limit: it runs to the worker's CPU budget instead",
        (MESSAGES,),
    ),
    NamedMutant(
        "a_message_declared_without_english",
        "autograder/cli/wordings.py",
        "                    if id in where or id not in english:",
        "                    if id in where:",
        "a message declared in code with no English in i18n/messages.en.toml is shown by its id alone",
        (MESSAGES,),
    ),
    NamedMutant(
        "kernel_output_overhead_zero",
        "autograder/grading/cell_limits.py",
        "OUTPUT_CHARS = 64 ",
        "OUTPUT_CHARS = 0 ",
        "an empty output costs nothing against the caps (a flood of empty displays is never cut)",
        (KERNEL_MESSAGES,),
    ),
    NamedMutant(
        "kernel_cell_timeout_not_capped",
        "autograder/grading/cell_limits.py",
        "return max(1, math.ceil(min(own or math.inf, self.left())))",
        "return max(1, math.ceil(own or self.left()))",
        "a cell with its own timeout may run past what is left of the notebook's time",
        (KERNEL_MESSAGES,),
    ),
    # student text (student_text.py)
    NamedMutant(
        "text_limit_tenfold",
        "autograder/student_text.py",
        "LIMIT = 300\n",
        "LIMIT = 3000\n",
        "student text is cut at 3000 characters, not 300",
        (TEXT,),
    ),
    NamedMutant(
        "text_bidi_isolates_kept",
        "autograder/student_text.py",
        r"\u2060-\u2064\u2066-\u206f",
        r"\u2060-\u2064",
        "bidi isolates (U+2066-U+2069) survive in student text",
        (TEXT,),
    ),
    NamedMutant(
        "text_record_keys_not_capped",
        "autograder/student_text.py",
        "return {student_text(k, limit) if isinstance(k, str) else k: student_data(v, limit)",
        "return {k: student_data(v, limit)",
        "the keys of a worker's record reach the grader uncapped",
        (TEXT,),
    ),
    # limits on submission folders (grading/submissions.py) and the course's privacy (grading/privacy.py)
    NamedMutant(
        "paths_depth_tenfold",
        "autograder/grading/submissions.py",
        "MAX_DEPTH = 32\n",
        "MAX_DEPTH = 320\n",
        "a submission may nest 320 folders",
        (BOUNDS,),
    ),
    NamedMutant(
        "paths_entries_tenfold",
        "autograder/grading/submissions.py",
        "MAX_ENTRIES = 10_000\n",
        "MAX_ENTRIES = 100_000\n",
        "a submission may hold 100,000 entries",
        (BOUNDS,),
    ),
    NamedMutant(
        "paths_long_file_kept",
        "autograder/grading/submissions.py",
        '            elif len(os.fsencode(path)) > MAX_PATH:\n                found.append(Refused(path, "deep"))\n',
        "",
        "a file (not a folder) with a path over MAX_PATH bytes is kept",
        (BOUNDS,),
    ),
    NamedMutant(
        "privacy_passable_folder_private",
        "autograder/grading/privacy.py",
        "(stat.S_IXOTH if stat.S_ISDIR(mode) else 0)",
        "0",
        "a folder others may pass through (o+x, names guessable) counts as private",
        (PRIVACY,),
    ),
    # the sanitizer (safe_html.py)
    NamedMutant(
        "html_placed_class_modal_allowed",
        "autograder/safe_html.py",
        '"modal-scrollbar-measure navbar-fixed-bottom',
        '"navbar-fixed-bottom',
        "the classes modal, modal-backdrop and modal-scrollbar-measure (fixed over the page) survive",
        (SANITIZER,),
    ),
    NamedMutant(
        "html_map_area_allowed",
        "autograder/safe_html.py",
        'TAGS = (set(nh3.ALLOWED_TAGS) - {"map", "area"}) | MATHML_TAGS',
        "TAGS = set(nh3.ALLOWED_TAGS) | MATHML_TAGS",
        "image maps (map, area: links laid over an image) survive",
        (SANITIZER,),
    ),
    NamedMutant(
        "html_small_em_tenfold",
        "autograder/safe_html.py",
        'SMALL = {"em": 3.0,',
        'SMALL = {"em": 30.0,',
        "MathML spacing of up to 30em survives",
        (SANITIZER,),
    ),
    NamedMutant(
        "html_cleaned_once",
        "autograder/safe_html.py",
        "MAX_ROUNDS = 4\n",
        "MAX_ROUNDS = 1\n",
        "student HTML is cleaned once (misnested markup can parse to another tree: mutation XSS)",
        (SANITIZER,),
    ),
    NamedMutant(
        "html_policy_remote_images",
        "autograder/safe_html.py",
        "default-src 'none'; img-src data:;",
        "default-src 'none'; img-src data: https:;",
        "the pages' Content-Security-Policy lets images load from the web",
        ("tests/test_feedback_inert.py",),
    ),
)

FEEDBACK = "tests/test_feedback_carries_the_notebook.py"
FEEDBACK_MUTANTS: tuple[NamedMutant, ...] = (
    # The feedback's top box says what the notebook says (issue 43).
    NamedMutant(
        "feedback_drops_the_formula",
        "autograder/exporters/summary.py",
        "        if failure.formula is not None:\n",
        "        if failure.formula is not None and not failure.cause:\n",
        "the top box leaves out the formula (or hint) of a failure that names a cause",
        (FEEDBACK,),
    ),
    NamedMutant(
        "feedback_first_line_only",
        "autograder/exporters/summary.py",
        "failure.message.render(language).strip()",
        "failure.message.render(language).strip().splitlines()[0]",
        "the top box keeps a message's first line only (a raise's 'in your code:' line goes)",
        (FEEDBACK,),
    ),
)

MUTANTS = (*MUTANTS, *TRUST_MUTANTS, *FEEDBACK_MUTANTS)

if __name__ == "__main__":  # a group's names, for `mutation.py --named $(python benchmarks/named_mutants.py trust)`
    import sys

    print(*(m.name for m in {"trust": TRUST_MUTANTS, "feedback": FEEDBACK_MUTANTS}[sys.argv[1]]))
