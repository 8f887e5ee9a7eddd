"""A notebook cell as the student knows it, never by its nbgrader id: what the kernel's notes and the checks' causes
call it (the feedback's headings name graded cells the same way: ``exporters.summary.cell_title``)."""

from __future__ import annotations

from autograder import registry
from autograder.cell_ids import check_named
from autograder.course.nn_messages import Text

TRAINING_CELL = "train_mnist"
"""The grade id of the cell that trains the student's MLP on MNIST."""


def cell_called(grade: str | None, number: int, language: str = "en") -> Text:
    """The cell of grade id ``grade`` (None for none), the ``number``-th of its notebook: the cell defining
    ``Linear``, the public checks or the hidden test of what it checks, the setup or the training cell; any other
    cell by its place. ``language`` words a hidden test's name where it is not code (``MNIST 准确率 ≥ 97 %``)."""
    from autograder import messages as say
    from autograder.exporters.summary import PUBLIC_PREFIX, check_title

    answers = registry.answers()
    check = check_named(grade or "")
    if grade in answers:
        return say.KERNEL_CELL_ANSWER(name=answers[grade])
    if grade and grade.startswith(PUBLIC_PREFIX) and grade.removeprefix(PUBLIC_PREFIX) in answers:
        return say.KERNEL_CELL_PUBLIC(name=answers[grade.removeprefix(PUBLIC_PREFIX)])
    if check is not None and check in registry.BY_NAME:
        return say.KERNEL_CELL_HIDDEN(name=check_title(check, language))
    if grade == registry.SETUP_CELL:
        return say.KERNEL_CELL_SETUP
    if grade == TRAINING_CELL:
        return say.KERNEL_CELL_TRAINING
    return say.KERNEL_CELL_NUMBER(number=number)
