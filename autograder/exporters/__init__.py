"""Trusted side: the nbconvert exporters nbgrader uses (``settings.apply(c)`` names them in the course's
configuration).

- ``feedback.FeedbackExporter``: the feedback HTML of ``nbgrader generate_feedback``, readable offline, failed
  checks first, in the edition's language.

May import: nbconvert, nbgrader and their stack, the course helpers (``autograder.course``), the
edition's language (``autograder.helpers``), ``autograder.verdict`` and ``autograder.messages`` (the verdicts and
their words). Never the judges, the grading or the probe.
"""
