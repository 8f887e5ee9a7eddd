"""README.md and docs/ tell the truth: CI runs the README's test command, its points table matches the notebook, the
grading contract's example message is the grader's own, and every relative link leads to a file (and heading) that
exists."""

import re
from pathlib import Path

from test_generated_files import check_points_table

from autograder.course.nn_messages import Failure
from conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
GRADING_CONTRACT = REPO / "docs" / "grading-contract.md"
INSTRUCTOR_GUIDE = REPO / "docs" / "instructor-guide.md"
STUDENT_GUIDE = REPO / "docs" / "student-guide.md"
STUDENT_CONFIG = REPO / "docs" / "student_nbgrader_config.py"
EXCHANGE_SECTION = "## Running the course over the exchange"
STUDENT_VALIDATE = ".venv/bin/python mlp/nn_public.py mlp/mlp.ipynb"
"""The student's validate (docs/student-guide.md): nbgrader's, with an exit status that says whether it passed."""
ROLES = {"# the administrator": "administrator", "# the instructor": "instructor", "# each student": "student"}


def section(page: Path, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same level."""
    text = page.read_text()
    start = text.index(heading + "\n")
    level = heading.split(" ")[0]
    end = re.search(rf"^{level} ", text[start + len(heading) :], re.M)
    return text[start : start + len(heading) + end.start()] if end else text[start:]


def exchange_steps() -> list[tuple[str, list[str]]]:
    """The instructor guide's walk over the exchange, in order: (who runs it, its commands as printed), who being
    named by each shell block's first line."""
    steps = []
    for block in re.findall(r"```bash\n(.*?)```", section(INSTRUCTOR_GUIDE, EXCHANGE_SECTION), re.S):
        first, *lines = block.splitlines()
        who = next((role for prefix, role in ROLES.items() if first.startswith(prefix)), None)
        assert who, f"a block of the exchange section does not say who runs it: {first!r}"
        steps.append((who, [line for line in lines if line.strip() and not line.startswith("#")]))
    return steps


def configured(path: Path, trait: str) -> str:
    """The string a config file assigns to ``c.<trait>`` (exactly one assignment)."""
    (value,) = re.findall(rf"^c\.{re.escape(trait)} = \"([^\"]*)\"", path.read_text(), re.M)
    return value


def _readme_commands() -> list[str]:
    first_block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.S).group(1)
    return [line for line in first_block.splitlines() if line and not line.startswith("#")]


def documented_feedback_message() -> str:
    """The grading contract's example (*Diagnosis*): what the grader writes into a failed hidden test cell."""
    return re.search(r"for example\n\n```\n(.*?)\n```", GRADING_CONTRACT.read_text(), re.S).group(1)


def documented_failure() -> Failure:
    """docs/grading-contract.md's example as the grader builds it: the failure it writes into a failed hidden test
    cell (declared messages and their fields)."""
    from autograder.course.nn_messages import (
        DW_TRANSPOSED,
        EXPECTED_GOT,
        LINEAR_DW_FORMULA,
        PART_OF,
        VALUE_AT_INDEX,
        VALUE_ERROR,
    )
    from autograder.messages import GRAD_AFTER_BACKWARD, WITH_X_SHAPE

    what = PART_OF(what=WITH_X_SHAPE(call="Linear(5, 5)", shape=(6, 5)), part=GRAD_AFTER_BACKWARD(name="W"))
    expected = VALUE_AT_INDEX(value="-2.02315", index=(1, 3), tolerance="1e-06")
    got = VALUE_ERROR(value="3.37684", error="1.14")
    failure = Failure(EXPECTED_GOT(what=what, expected=expected, got=got), DW_TRANSPOSED, LINEAR_DW_FORMULA)
    assert str(failure) == documented_feedback_message()
    return failure


def test_the_documented_message_is_what_the_catalogue_renders() -> None:
    assert documented_failure().cause is not None


def test_readme_opens_with_a_demo_command_and_a_test_command() -> None:
    demo, tests = _readme_commands()
    assert demo.endswith("-m autograder demo") and tests.endswith("-m pytest -n 2")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert _readme_commands()[1] in ci, "the test command in README.md and the one in .ci/run differ"


def test_readme_points_table_matches_the_notebook() -> None:
    check_points_table("README.md", (REPO / "README.md").read_text())


def test_the_documented_message_names_a_catalogued_cause_and_the_formula() -> None:
    """The example ends as the grader's message for the catalogued `dW = Gᵀ X` does: dW's suspect that names that
    mistake's cause, then dW's formula."""
    from autograder.course import nn_diagnosis
    from catalogue.mistakes import MISTAKES

    message = documented_feedback_message()
    cause = next(m.cause for m in MISTAKES if m.name == "linear_dw_transposed")
    from autograder.course.nn_messages import LIKELY_CAUSE, THE_FORMULA

    suspect = next(s.cause for s in nn_diagnosis.LINEAR_DW.suspects if cause in str(s.cause))
    ending = f"{LIKELY_CAUSE(cause=suspect)}\n{THE_FORMULA(formula=nn_diagnosis.LINEAR_DW.formula)}"
    assert message.endswith(ending), message
    assert message.startswith("Linear(") and " expected " in message and " got " in message, message


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but hyphens dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _outside_code(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _anchors(page: Path) -> set[str]:
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", _outside_code(page.read_text()), re.M)}


def test_every_relative_link_leads_to_an_existing_file_and_heading() -> None:
    broken = []
    for page in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", _outside_code(page.read_text())):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.is_relative_to(REPO) or not file.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
    assert len(DOCS) > 2


def guide_exchange_root() -> str:
    """The exchange root the instructor guide's walk uses as its example: the folder its administrator makes."""
    (administrator,) = [commands for who, commands in exchange_steps() if who == "administrator"]
    (command,) = administrator
    return command.rsplit(" ", 1)[-1]


def _assignment_line(path: Path, trait: str) -> str:
    """Where ``path`` sets ``c.<trait>``, as ``file:line``, for a message that says which line to change."""
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith(f"c.{trait} = "))
    return f"{path.relative_to(REPO)}:{number}"


def test_the_students_configuration_names_the_instructors_exchange_and_course() -> None:
    """The course's configuration is the instructor's to change (the guide allows another exchange root): the file
    handed to students must follow it, and a disagreement names the line to change."""
    course = REPO / "nbgrader_config.py"
    for trait in ("Exchange.root", "CourseDirectory.course_id"):
        theirs, ours = configured(STUDENT_CONFIG, trait), configured(course, trait)
        assert theirs == ours, (
            f"the students would use c.{trait} = {theirs!r} but the course uses {ours!r}: change "
            f"{_assignment_line(STUDENT_CONFIG, trait)} to {ours!r} (the instructor's is what nbgrader releases to "
            f"and collects from)"
        )
    assert configured(course, "Exchange.root") != "/usr/local/share/nbgrader/exchange"  # only root can create it


def test_the_guides_walk_makes_the_exchange_it_names() -> None:
    """The guide's own example root, whatever the course configures: made world-writable and sticky (no one deletes
    another's submission), and named where the guide tells the instructor and the students about it."""
    root = guide_exchange_root()
    (administrator,) = [commands for who, commands in exchange_steps() if who == "administrator"]
    assert administrator == [f"sudo install -d -m 1777 {root}"]
    guide = section(INSTRUCTOR_GUIDE, EXCHANGE_SECTION)
    course_id = configured(STUDENT_CONFIG, "CourseDirectory.course_id")
    assert f"`{course_id}`" in guide and f"`{root}`" in guide and "student_nbgrader_config.py" in guide
    assert f"`{course_id}`" in section(STUDENT_GUIDE, "## The course over nbgrader's exchange")


def test_the_exchange_walk_has_every_step_and_the_student_guide_the_students_commands() -> None:
    steps = exchange_steps()
    commands = " ".join(" ".join(lines) for _, lines in steps)
    for step in (
        "generate_assignment",  # a fresh clone has no gradebook.db: grading needs the assignment registered
        "release_assignment",
        "fetch_assignment",
        STUDENT_VALIDATE,
        "submit",
        "collect",
        "-m autograder grade",  # it also generates each graded student's feedback
        "release_feedback",
        "fetch_feedback",
        "export",
    ):
        assert f" {step} " in f" {commands} ", f"the exchange section does not run {step}"
    students = section(STUDENT_GUIDE, "## The course over nbgrader's exchange")
    for who, lines in steps:
        for line in lines if who == "student" else ():
            assert line.split("#")[0].strip() in students, f"the student guide does not show {line!r}"


def test_the_readmes_fast_tier_command_works_after_its_first_command() -> None:
    """The first command installs the kit without the `test` extra, so the fast tier's command installs it first."""
    readme = (REPO / "README.md").read_text()
    quoted = re.findall(r"`([^`\n]+)`", _outside_code(readme))
    (fast,) = [c for c in quoted if c.endswith('-m pytest -m "not slow" -n 2')]
    first = _readme_commands()[0]
    assert "-e ." in first and "[test]" not in first
    install, _, run = fast.partition(" && ")
    assert install == ".venv/bin/pip install -e '.[test]'" and run.startswith(".venv/bin/python -m pytest"), fast


def test_the_readme_leads_to_grading_one_student_and_to_the_exchange() -> None:
    readme = (REPO / "README.md").read_text()
    assert "`python -m autograder grade mlp --jobs 2`" in readme and "`--student ID`" in readme
    assert "(docs/instructor-guide.md#running-the-course-over-the-exchange)" in readme


def test_the_student_guide_lists_every_file_students_get_and_nothing_else() -> None:
    """The guide's table of the folder students get is that folder (each edition's release holds the same files)."""
    text = STUDENT_GUIDE.read_text()
    rows = re.findall(r"^\| `([^`]+)` \|(.*)\|$", text[: text.index("\n## ")], re.M)
    for edition in ("mlp", "mlp_zh"):
        files = {p.name.replace(f"{edition}.ipynb", "mlp.ipynb") for p in (REPO / "release" / edition).iterdir()}
        listed = {name for name, _ in rows} | {name for _, rest in rows for name in re.findall(r"`([^`]+\.\w+)`", rest)}
        assert {name for name, _ in rows} <= files and files <= listed, (sorted(files), sorted(listed))
    modules = sum(name.endswith(".py") for name, _ in rows)
    assert f"the notebook `mlp.ipynb` and {modules} helper modules" in " ".join(text.split()), modules
