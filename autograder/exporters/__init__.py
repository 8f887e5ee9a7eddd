"""Trusted side: the nbconvert exporters nbgrader uses (``settings.apply(c)`` names them in the course's
configuration).

- ``feedback.FeedbackExporter``: the feedback HTML of ``nbgrader generate_feedback``, readable offline, failed
  checks first, in the edition's language.

May import: nbconvert, nbgrader and their stack, and the course's released helper modules (loaded from the release,
on use). Nothing else of ``autograder``.
"""
