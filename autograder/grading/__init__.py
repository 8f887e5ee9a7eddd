"""Trusted side: grading itself, behind nbgrader's pieces and the ``grade`` command; never runs student code here.

- ``prepare``: what every nbgrader process of a course needs (helpers, secret, MNIST, sandbox), resolved once and
  passed on to the processes the class run starts;
- ``kernel``: the notebook's kernel in the sandbox, with a stand-in ``autograder`` (the kernel manager nbgrader's
  preprocessor ``autograder.preprocessors.kernel.SandboxedExecute`` starts), and ``cell_limits``: what its cells may
  print and how long they may run;
- ``verify``: every hidden check probed in sandboxed workers and judged in this process, with whose fault a
  failure is (the course's solution as the control);
- ``workers``: one group of checks run in a sandboxed worker, watched from outside, its report read back;
- ``pressure``: how long the machine kept work waiting for a CPU (the kernel's PSI), credited to a waiting worker;
- ``pace``: the MNIST gate's speed, the worker's CPU time against the grader's own training run beside it;
- ``course_data``: MNIST found and validated once, before the first student;
- ``privacy``: what of a course's private state other users can read and the ``chmod`` that stops it (``grade``
  refuses until then);
- ``class_run``: a whole class graded, the pipeline of ``python -m autograder grade``, from ``submissions`` (made
  gradable, marked once graded), ``autograde`` (one submission's ``nbgrader autograde`` within its limit),
  ``cluster`` (the same as a task on a Dask worker), ``progress`` and ``summary`` (what the terminal shows, from the
  class report);
- ``watch``: ``python -m autograder watch``, each submission graded as it comes through the same pipeline, from
  ``watch_queue`` (its journal, fair order and rate limit), ``watch_exchange`` (collect, release, a note to a student)
  and ``course_lock`` (one grading of a course at a time, one watcher).

May import: nbgrader and its stack (jupyter_client, zmq, nbformat), Dask (``cluster``, on use),
``autograder.settings``, ``autograder.faults``, ``autograder.sandbox``, ``autograder.registry``, ``autograder.judge``,
``autograder.grading.*``, ``autograder.report`` (the class report at the end of a run, and the summary read from it)
and ``autograder.probe`` (files copied into a worker, never run here). Never ``autograder.cli``, nor nbgrader's
preprocessors and exporters of this kit (``autograder.preprocessors``, ``autograder.exporters``), which import it.
"""
