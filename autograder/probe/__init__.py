"""Untrusted side: the half of every hidden check that runs beside the student's code.

A probe calls the student's classes on the hidden inputs and records what came, as plain data (``core.save``),
never pickles. It runs in a sandboxed worker (``run.py``) whose folder holds only the student's answer cells, the
release's helper modules (``nn_core``, which they import), an ``autograder`` package of these modules and the course
helpers the grader uses (``autograder.course``, which the answer cells then find by their bare names), the hidden
inputs of its checks and ``manifest.json`` (which probe runs for which check, written by the grader from
``autograder.registry``). A probe never sees a reference answer.

May import: the standard library, NumPy, threadpoolctl, ``autograder.course`` (the messages, the catalogue, the MNIST
loader), the student's ``nn_core`` (whose ``Parameter`` the student's classes use) and ``probe.*`` (relative
imports). Never the rest of ``autograder``: it is not in the worker. A failure a probe records (a time limit) is
data, ``Failure.to_data()`` of the messages declared in ``probe/messages.py``, never words.
The judges (``autograder.judge``) decide on the records, outside the sandbox.
"""
