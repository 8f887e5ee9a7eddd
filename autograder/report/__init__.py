"""Trusted side: the class report, what the instructor sees after grading (``python -m autograder report``).

Built on the verdicts each autograded notebook holds as data (``autograder.verdict``: one output per hidden test cell),
never on rendered text. One concept a module:

- ``catalogue``: the course's message catalogue (the release's ``nn_messages`` and the grader's ids) and its language;
- ``collect``: the course folder and gradebook read into plain records (``ClassData``);
- ``aggregate``: what the class's verdicts come to: pass rates, named causes, the unexplained residue, the gate;
- ``similarity``: pairs of similar answer cells (``copydetect``), leads for a person, never verdicts;
- ``plots``: the charts, as inline SVG (matplotlib);
- ``render_html``: one self-contained HTML file (no script, no network);
- ``write_tables``: the same data as CSV and JSON;
- ``build``: all of it for one assignment, into ``<course>/reports/<assignment>/``.

May import: nbgrader, jinja2, matplotlib, copydetect, ``autograder.settings``, ``autograder.faults``,
``autograder.registry``, ``autograder.verdict``, ``autograder.safe_html`` (the page's policy), the course helpers
(``autograder.course``) with ``autograder.messages``, and the edition's language
(``autograder.helpers``). Never ``autograder.cli``,
``autograder.grading``, the judges or the probes.
"""
