"""The untrusted half of every hidden check: call the student's classes on the hidden inputs and record what came.

A probe imports only NumPy, the course's helper modules and ``probe.core``;
it never sees a reference answer. The grader runs it in the notebook's kernel
and again in a sandboxed worker (``probe.run``) that loads only the student's
answer code; the trusted half (``autograder.<part>``) judges the records.
"""
