"""nbgrader configuration for the students of the course dl-notes-mlp, handed out by the instructor.

Save it as ``nbgrader_config.py`` in the folder you work in (the one with ``.venv``, where ``mlp/`` will be) and run
nbgrader and JupyterLab from there (docs/student-guide.md). Both values must be the instructor's own
(``nbgrader_config.py`` at the root of the course).
"""

c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)
c.CourseDirectory.course_id = "dl-notes-mlp"
c.Exchange.root = "/srv/nbgrader/exchange"
