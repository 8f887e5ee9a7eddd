"""The shared checks fail with messages that explain; the trusted side's finite differences are correct."""

import numpy as np
import pytest
from nn_messages import NO_BIAS

from autograder.judge.reference import numerical_gradient
from nn_checks import FD_TOLERANCE, check_array, check_close, check_gradient, check_shape


def test_numerical_gradient_matches_the_analytic_gradient_and_restores_the_input() -> None:
    x = np.random.default_rng(0).standard_normal((3, 4))
    before = x.copy()
    numeric = numerical_gradient(lambda: float(np.sum(np.sin(x))), x)
    assert np.abs(numeric - np.cos(x)).max() < 1e-8
    assert np.array_equal(x, before)


def test_check_close_names_expected_value_actual_value_and_index() -> None:
    expected = np.array([[1.0, 2.0], [3.0, 4.0]])
    actual = expected.copy()
    actual[1, 0] = 5.0
    with pytest.raises(AssertionError) as error:
        check_close("thing", actual, expected, cause=NO_BIAS)
    message = str(error.value)
    assert (
        "thing: expected 3 at index (1, 0)" in message and "got 5" in message and f"Likely cause: {NO_BIAS}." in message
    )


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (None, "expected a NumPy array, got NoneType"),
        (np.array([1, 2]), "floating-point dtype"),
        (np.array([np.nan, 1.0]), "NaN/inf"),
    ],
)
def test_check_array_rejects_missing_integer_and_non_finite_values(value, fragment: str) -> None:
    with pytest.raises(AssertionError, match=fragment):
        check_array("out", value)


def test_check_shape_reports_both_shapes() -> None:
    with pytest.raises(AssertionError, match=r"expected shape \(5,\), got shape \(1, 5\)"):
        check_shape("b.grad", np.zeros((1, 5)), (5,))


def test_gradient_check_tolerance_separates_noise_from_a_wrong_gradient() -> None:
    exact = np.array([1.0, -2.0, 0.0])
    check_gradient("g", exact + 1e-9, exact)
    with pytest.raises(AssertionError, match="finite-difference check"):
        check_gradient("g", exact * (1 + 10 * FD_TOLERANCE), exact)


def test_the_students_line_skips_frames_that_hide_themselves() -> None:
    """The grading sandbox's audit hook raises from its own frame (``__tracebackhide__``, IPython's convention): the
    line named is the student's call, never the hook's."""
    import os

    from autograder.probe import no_processes
    from nn_diagnosis import student_line

    def refuse() -> None:
        __tracebackhide__ = True  # noqa: F841 - read from the frame
        raise no_processes.NotWhileGrading("os.fork")

    try:
        refuse() if os.environ else None
    except no_processes.NotWhileGrading as error:
        assert student_line(error) == "refuse() if os.environ else None"
