"""Trusted side: the commands people run, ``python -m autograder COMMAND`` (``autograder/__main__.py``).

``grade`` (a class, in parallel or on a Dask cluster with ``cluster``), ``demo`` (a demo class of three),
``edition`` (another language's edition of the notebook), ``hidden-cells`` (the notebook's hidden test cells from
the registry); ``classroom`` drives stock nbgrader on a course folder for the demo and the kit's tests.

May import: anything in ``autograder``. Nothing in ``autograder`` outside this package imports it.
"""
