"""Hidden checks of the ``mlp`` assignment. Installed only where grading happens, never released.

Each hidden test cell calls one ``check_*`` function with the student's class;
it returns None on success and raises AssertionError (with a message for the
student) on failure. Hidden inputs come from ``autograder.secret``.
"""
from autograder.linear import check_linear_backward_db, check_linear_backward_dw, check_linear_backward_dx, check_linear_forward
from autograder.loss import check_cross_entropy_backward, check_cross_entropy_forward
from autograder.mlp import check_mlp_backward, check_mlp_forward
from autograder.mnist_gate import check_mnist_accuracy
from autograder.relu import check_relu_backward, check_relu_forward
from autograder.sgd import check_sgd_step

__all__ = [
    "check_linear_forward",
    "check_linear_backward_dx",
    "check_linear_backward_dw",
    "check_linear_backward_db",
    "check_relu_forward",
    "check_relu_backward",
    "check_cross_entropy_forward",
    "check_cross_entropy_backward",
    "check_sgd_step",
    "check_mlp_forward",
    "check_mlp_backward",
    "check_mnist_accuracy",
]
