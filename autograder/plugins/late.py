"""A late submission's penalty in points per started hour or day after the due date (nbgrader's own
``LateSubmissionPlugin`` knows only no penalty or a zero).

``autograder.settings.apply`` makes it the plugin of ``AssignLatePenalties``, with no penalty until the course sets
one of its two traits (one line in ``nbgrader_config.py``). nbgrader applies it when it autogrades a notebook whose
submission is later than the due date (``nbgrader db assignment add mlp --duedate=...``, plus any extension).
"""

from __future__ import annotations

import math

from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Float


class LatePenalty(LateSubmissionPlugin):
    """Points off a late notebook: ``points_per_hour`` for every started hour late plus ``points_per_day`` for every
    started day, never more than the notebook's score; 0 and 0 (the default) is no penalty."""

    points_per_hour = Float(0.0, min=0.0, help="Points taken off for every started hour after the due date.").tag(
        config=True
    )
    points_per_day = Float(0.0, min=0.0, help="Points taken off for every started day after the due date.").tag(
        config=True
    )

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float) -> float | None:
        if total_seconds_late <= 0:
            return None
        hours, days = math.ceil(total_seconds_late / 3600), math.ceil(total_seconds_late / 86400)
        penalty = self.points_per_hour * hours + self.points_per_day * days
        return min(score, penalty) if penalty > 0 else None
