"""Trusted side: the commands people run, ``python -m autograder COMMAND`` (``autograder/__main__.py``), and nothing
else: each module here is one command, with its ``main``.

``grade`` (a class, in parallel or on a Dask cluster: ``autograder.grading.class_run``), ``demo`` (a demo class of
three, on stock nbgrader driven by ``autograder.classroom``), ``edition`` (another language's edition of the
notebook), ``hidden-cells`` (the notebook's hidden test cells from the registry), ``points-table`` (the points
tables, from the registry), ``public-data`` (the public checks' data), ``regenerate`` (all that is generated, in one
run), ``report`` (the class report of a
graded assignment: ``autograder.report``), ``watch`` (each submission graded as it comes, its feedback released:
``autograder.grading.watch``).

May import: anything in ``autograder``. Nothing in ``autograder`` outside this package imports it.
"""
