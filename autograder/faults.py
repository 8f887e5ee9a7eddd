"""The grader's own faults: what makes a grade untrustworthy for a reason that is not the student's.

Trusted side only. Raised anywhere in the grader (``plugins``, ``cli``); the class grader catches it, writes no
grade for that submission and says why.
"""

from __future__ import annotations


class GraderFault(RuntimeError):
    """Grading cannot be trusted for a reason that is not the student's: the submission is left ungraded."""
