"""Trusted side: nbgrader's plugins in nbgrader's sense of the word, the export and late-submission plugins a course's
configuration or command line names.

- ``canvas.CanvasExportPlugin``: grades as a CSV that Canvas's gradebook import accepts
  (``nbgrader export --exporter=autograder.plugins.canvas.CanvasExportPlugin``).
- ``late.LatePenalty``: points off a late submission, per started hour or day (``apply(c)`` sets it).

May import: nbgrader and its stack (traitlets), ``autograder.report`` (the class's scores as nbgrader counts them).
"""
