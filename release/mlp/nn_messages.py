"""Every message a check can show, declared once by id with its English wording; other languages' wordings by id.

A message is data until someone reads it: a ``Text`` is a message's id and its fields (numbers, shapes, code, or other
``Text``), and ``render`` turns it into words in a language. ``Failure`` is a failed check as data: the message, the
likely cause and the formula. ``CheckFailed`` carries one; a notebook shows it in the edition's language
(``nn_i18n.LANGUAGE``), ``str()`` of it is English.

Adding a message: declare it here with ``message(id, en=...)`` and give its wording in each other language in
``i18n/messages.<language>.toml``; the grader's own messages are declared the same way in the grader. A language's
wordings reach these helpers in ``nn_wordings.json`` (generated from those files), and the grader adds its own to
``WORDINGS``; a message without a wording in a language is shown in English, never empty. Adding a language: the
maintainer guide's "Adding a language".
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nn_languages import GENERATED
from nn_languages import language as language_of

Field = Any
"""A field of a ``Text``: a ``Text`` (rendered in the same language), a list of fields (rendered one by one and joined
as the language lists things), or a raw value (code, numbers, shapes, a type name) shown as ``str(value)`` in every
language."""


@dataclass(frozen=True)
class Message:
    """One message: its id and its English template (``{name}`` stands for the field ``name``)."""

    id: str
    en: str

    def __call__(self, **fields: Field) -> Text:
        """This message with its fields: a ``Text``."""
        return Text(self.id, fields)

    def template(self, language: str) -> str:
        """Its template in ``language``: the wording there, or the English one if it has none."""
        return WORDINGS.get(language, {}).get(self.id, self.en)


CATALOGUE: dict[str, Message] = {}
"""Every declared message by id: these helpers' own, and the grader's when it is loaded."""

WORDINGS: dict[str, dict[str, str]] = {language: dict(words) for language, words in GENERATED["wordings"].items()}
"""Language -> message id -> its wording there (English aside): these helpers' own, and the grader's when it is
loaded (the grader adds them)."""


def message(id: str, en: str) -> Message:
    """Declare a message (once: a second declaration of an id is a mistake in the catalogue)."""
    if not (isinstance(id, str) and isinstance(en, str)):  # nothing else is a message (a call with arrays, say)
        raise TypeError(f"a message is declared with a text id and English wording, not {type(id).__name__}")
    if id in CATALOGUE and CATALOGUE[id] != Message(id, en):
        raise ValueError(f"the message id {id!r} is declared twice")
    CATALOGUE[id] = Message(id, en)
    return CATALOGUE[id]


def text(id: str, en: str) -> Text:
    """Declare a message without fields and call it: the ``Text`` of a cause, a label or a phrase."""
    return message(id, en=en)()


@dataclass(frozen=True)
class Text:
    """A message with its fields, not yet in any language."""

    id: str
    fields: Mapping[str, Field] = field(default_factory=dict)

    def render(self, language: str = "en") -> str:
        """The words of this text in ``language``."""
        return render(self, language)

    def __str__(self) -> str:
        return self.render("en")

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((name, repr(value)) for name, value in self.fields.items()))))

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data: ``{"id": ..., "fields": {...}}``, a field that is a text nested the same way."""
        return {"id": self.id, "fields": {name: _field_data(value) for name, value in self.fields.items()}}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Text:
        return Text(data["id"], {name: _field_value(value) for name, value in data.get("fields", {}).items()})


def _field_data(value: Field) -> Any:
    if isinstance(value, Text):
        return value.to_data()
    if isinstance(value, list):
        return [_field_data(item) for item in value]
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    return str(value)


def _field_value(value: Any) -> Field:
    if isinstance(value, list):
        return [_field_value(item) for item in value]
    return Text.from_data(value) if isinstance(value, Mapping) and "id" in value else value


def render(text: Text | list | str | None, language: str = "en") -> str:
    """``text`` in ``language`` (a raw string is shown as it is; an unknown language falls back to English)."""
    if text is None:
        return ""
    if isinstance(text, list):
        return _listed([render(item, language) for item in text], language, "list")
    if not isinstance(text, Text):
        return str(text)
    if text.id in _CONJUNCTIONS and isinstance(text.fields.get("items"), list):
        return _listed([render(item, language) for item in text.fields["items"]], language, _CONJUNCTIONS[text.id])
    template, fields = _case(text, language) or (CATALOGUE[text.id].template(language), text.fields)
    values = {name: render(value, language) for name, value in fields.items()}
    space = language_of(language).space_beside_wide
    if space == " ":
        return template.format_map(values)
    words = ""
    for literal, name, spec, conversion in string.Formatter().parse(template):
        words = _joined(words, literal, space)
        if name is not None:
            value = values[name] if conversion is None else repr(values[name])
            words = _joined(words, format(value, spec or ""), space)
    return words


CASES: dict[str, tuple[str, ...]] = {}
"""A message whose template cannot take every value of some fields naturally in every language (``case``) -> those
fields, the one that chooses first."""


def case(frame: Message, *keys: str) -> Message:
    """Let a language word ``frame`` as a whole sentence per case: per value of its field ``keys[0]`` (a ``Text``'s id,
    or a raw value such as an exception's name), and of ``keys[1]`` after it. A case is a message of its own, declared
    with the id ``<frame id>.<key>[.<key>]`` and its English (the frame's, filled), and worded in a language's file:
    its fields are the frame's, the fields of the ``Text`` of ``keys[0]`` by their names, and those of the ``Text``
    of ``keys[1]`` as ``<keys[1]>_<name>``. A language with no wording for a case (English) fills the frame."""
    CASES[frame.id] = keys
    return frame


def _case(text: Text, language: str) -> tuple[str, Mapping[str, Field]] | None:
    """The whole sentence ``language`` gives ``text``'s case, with its fields; None where it words none (``case``)."""
    keys = CASES.get(text.id, ())
    words = WORDINGS.get(language, {})
    values = [text.fields.get(key) for key in keys]
    chosen = [value.id if isinstance(value, Text) else str(value) for value in values]
    for count in range(len(keys), 0, -1):
        id = ".".join((text.id, *chosen[:count]))
        if id in words and id in CATALOGUE:
            fields: dict[str, Field] = {}
            for number, (key, value) in enumerate(zip(keys[:count], values[:count], strict=True)):
                if isinstance(value, Text):
                    fields |= {(f"{key}_{name}" if number else name): v for name, v in value.fields.items()}
            return words[id], fields | dict(text.fields)
    return None


def _listed(items: list[str], language: str, kind: str) -> str:
    """``items`` joined as ``language`` lists things (``nn_languages``): the last with the word of ``kind``."""
    listing = language_of(language)
    words = {"list": listing.list_separator, "and": listing.and_word}
    space = listing.space_beside_wide
    joined = items[0] if items else ""
    for number, item in enumerate(items[1:], 2):
        joined = _joined(_joined(joined, words[kind if number == len(items) else "list"], space), item, space)
    return joined


def is_wide(character: str) -> bool:
    """A character two columns wide: Chinese, or full-width punctuation (``，``, ``（``)."""
    return unicodedata.east_asian_width(character) in "WF"


def _joined(before: str, after: str, space: str) -> str:
    """``before + after``, the one space where they meet replaced by ``space`` if wide characters are on both sides."""
    if before.endswith(" ") and not before.endswith("  ") and len(before) > 1 and after:
        if is_wide(before[-2]) and is_wide(after[0]):
            return before[:-1] + space + after
    if after.startswith(" ") and not after.startswith("  ") and before and len(after) > 1:
        if is_wide(before[-1]) and is_wide(after[1]):
            return before + space + after[1:]
    return before + after


@dataclass(frozen=True)
class Failure:
    """A failed check as data: what happened (``message``), the likely cause if the evidence names one, the formula,
    and what it measured."""

    message: Text
    cause: Text | None = None
    formula: Text | None = None
    numbers: Mapping[str, float] = field(default_factory=dict)  # what the check measured (the gate's accuracy)

    def render(self, language: str = "en") -> str:
        lines = [render(self.message, language)]
        if self.cause is not None:
            lines.append(render(LIKELY_CAUSE(cause=self.cause), language))
        if self.formula is not None:
            label = THE_FORMULA(formula=self.formula) if is_formula(self.formula) else THE_HINT(hint=self.formula)
            lines.append(render(label, language))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render("en")

    def to_data(self) -> dict[str, Any]:
        return {
            "message": self.message.to_data(),
            "cause": self.cause.to_data() if self.cause is not None else None,
            "formula": self.formula.to_data() if self.formula is not None else None,
            "numbers": {name: float(value) for name, value in self.numbers.items()},
        }

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Failure:
        def text(key: str) -> Text | None:
            return Text.from_data(data[key]) if data.get(key) else None

        numbers = {str(name): float(value) for name, value in (data.get("numbers") or {}).items()}
        return Failure(Text.from_data(data["message"]), text("cause"), text("formula"), numbers)


class CheckFailed(AssertionError):
    """A check failed: ``failure`` says what was expected, what came, the likely cause and the formula.

    A notebook shows it alone, without a traceback, in the edition's language (``_render_traceback_``)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.render("en"))
        self.failure = failure

    def _render_traceback_(self) -> list[str]:
        from nn_checks import render_message
        from nn_i18n import LANGUAGE

        return render_message(self.failure.render(LANGUAGE))


LIKELY_CAUSE = message("likely_cause", en="  Likely cause: {cause}.")
THE_FORMULA = message("the_formula", en="  The formula: {formula}")
THE_HINT = message("the_hint", en="  Hint: {hint}")
"""What ends a failure whose last line is advice (such as the gate's), not one of the chapter's formulas."""
PASSED = message("passed", en="{part}: public checks passed.")
PUBLIC_DATA_UNREADABLE = message(
    "public_data_unreadable",
    en="The public checks' data {file}, beside nn_public.py, could not be read ({error}): "
    "copy it back from the assignment's folder as it was released.",
)
NO_CHINESE_FONT = message(
    "no_chinese_font",
    en="No Chinese font found: the plots' Chinese labels show as boxes (install one, e.g. Noto Sans CJK SC).",
)

ALL_OF = message("list.and", en="{items}")
"""A list whose items all count ("W2 和 b2"): ``ALL_OF(items=[...])``, joined as ``nn_languages`` says."""
_CONJUNCTIONS = {ALL_OF.id: "and"}

# --- the sentence of a failure: what was checked, and what went wrong
EXPECTED_GOT = case(message("expected_got", en="{what}: expected {expected}, got {got}."), "expected", "got")
RAISED = case(message("raised", en="{what} raised {exception}: {message}"), "exception", "message")
RAISED_AT = case(
    message("raised_at", en="{what} raised {exception}: {message}\n  in your code: `{line}`"), "exception", "message"
)
SHAPES_MATMUL = message(
    "shapes.matmul",
    en="in a matrix product `A @ B`, the last axis of A has {left} entries and the first axis of B has {right}: they "
    "must be equal\n  NumPy's words: {numpy}",
)
"""NumPy's matmul error, explained from what it says (the two sizes that differ)."""
SHAPES_DOT = message(
    "shapes.dot",
    en="in a matrix product of arrays of shapes {left} and {right}, the last axis of the first and the first axis of "
    "the second must have the same length\n  NumPy's words: {numpy}",
)
SHAPES_BROADCAST = message(
    "shapes.broadcast",
    en="an elementwise operation (+, -, *, / or a NumPy function) on arrays of shapes {shapes}, which do not "
    "broadcast together\n  NumPy's words: {numpy}",
)
SHAPES_OUTPUT = message(
    "shapes.output",
    en="an in-place operation (such as += or out=) writes a result of shape {result} into an array of shape "
    "{target}\n  NumPy's words: {numpy}",
)
CORE_NOT_IMPLEMENTED = message("core.not_implemented", en="{method} is not implemented yet")
"""``nn_core``'s base ``Module.forward``, ``Module.backward`` and ``Optimizer.step``: a method the subclass lacks."""
CORE_NOT_A_PARAMETER = message("core.not_a_parameter", en="Optimizer expects Parameters, got {kind}")
"""``nn_core``'s ``Optimizer`` given something other than a ``Parameter`` (``kind``: its type's name)."""
NOT_WRITTEN = message(
    "not_written",
    en="{what}: `{method}` is not written yet.\n"
    "  Write it in place of `raise NotImplementedError()`, run its cell, then this check again.",
)
EXPECTED_UNCHANGED = message("expected_unchanged", en="{what}: expected it unchanged, got it changed")
PARAMETERS_DIFFER = message(
    "parameters_differ",
    en="{what}: expected the Parameters {names} with shapes {shapes}, got {count} arrays with shapes {found}.",
)
LAYERS_RAN = message("layers_ran", en="{model}: the layers ran in the order {calls}")

# --- what was checked
PART_OF = message("part_of", en="{what}: {part}")
YOUR_PART = message("your_part", en="Your {part}")
FD_CHECK = message("fd_check", en="{what} (finite-difference check)")
ON_EXAMPLE = message("on_example", en="{call} on the worked example")
ON_HUGE_LOGITS = message("on_huge_logits", en="{call} on logits of ±1000")
TARGETS_UNDERFLOW = message(
    "targets_underflow",
    en="{call} with targets at probability exp(-800)",
)
ON_INPUT = message("on_input", en="{call} on {h}")
ON_FLOAT64_INPUT = message("on_float64_input", en="{call} on float64 {h}")
WITH_GRAD = message("with_grad", en="{call} with grad {g}")
AFTER_EARLIER_WITH_GRAD = message(
    "after_earlier_with_grad",
    en="{call} on {h} (after an earlier forward) with grad {g}",
)
FOR_X_SHAPE = message("for_x_shape", en="{call} for x of shape {shape}")
FOR_FLOAT64_XWB = message("for_float64_xwb", en="{call} for float64 x, W, b")
FOR_FLOAT32_X = message("for_float32_x", en="{call} for float32 x")
FOR_FLOAT64_INPUTS = message("for_float64_inputs", en="{call} for float64 inputs")
FOR_FLOAT64_GRAD = message("for_float64_grad", en="{call} for float64 grad")
FOR_FLOAT64_LOGITS = message("for_float64_logits", en="{call} for float64 logits")
FOR_LOGITS_SHAPE = message("for_logits_shape", en="{call} for logits of shape {shape}")
AFTER_STALE_FORWARD = message(
    "after_stale_forward",
    en="{call} after forward(x_stale), forward(x)",
)
RETURNED_DX = message("returned_dx", en="{call}, the returned dX")
SGD_AFTER_STEPS = message(
    "sgd_after_steps",
    en="{call} with lr={lr}, the .grad of parameter {index} None, after {steps} step(s)",
)
SGD_PARAMETER = message("sgd_parameter", en="{after}: parameter {index} of shape {shape}")
ITS_GRAD = message("its_grad", en="{what}: its .grad")
NAMED_GRAD = message("named_grad", en="{call}: {name}.grad")
BOUND_WHERE_GRADING_SKIPS = message(
    "bound_where_grading_skips",
    en="{part} is bound on line {line} of its cell, inside `{statement}`: that line does not run while your work is "
    "graded",
)
LAYER_UNCHECKED = message(
    "layer_unchecked",
    en="{model}: not checked, because it runs your {layer}, whose public check fails.",
)

# --- what was expected, what came
A_NUMPY_ARRAY = message("a_numpy_array", en="a NumPy array")
KIND_VALUE = message("kind_value", en="{kind} {value}")
FLOAT_DTYPE = message("float_dtype", en="a floating-point dtype")
DTYPE = message("dtype", en="dtype {dtype}")
ONLY_FINITE = message("only_finite", en="only finite numbers")
NAN_ENTRIES = message(
    "nan_entries",
    en="{count} NaN/inf entries (first at index {index})",
)
NOT_FINITE_VALUE = message("not_finite_value", en="the value {value}")
SHAPE = message("shape", en="shape {shape}")
VALUE_AT_INDEX = message(
    "value_at_index",
    en="{value} at index {index} (relative error at most {tolerance})",
)
VALUE_WITHIN = message("value_within", en="{value} (relative error at most {tolerance})")
BAND_AT_INDEX = message(
    "band_at_index",
    en="{value} at index {index} (relative error at most {tolerance}; {accepted} between {low} and {high})",
)
BAND = message(
    "band",
    en="{value} (relative error at most {tolerance}; {accepted} between {low} and {high})",
)
EPS_IN_LOG = message("eps_in_log", en="with an eps of at most {eps} in the log, anything")
VALUE_ERROR = message("value_error", en="{value}, relative error {error}")
KEEP_ITS_SHAPE = message(
    "keep_its_shape",
    en="the array it was given to keep its shape {shape}",
)
STAY_UNCHANGED = message(
    "stay_unchanged",
    en="the array it was given to stay unchanged ({value} at index {index})",
)
ONE_FLOAT = message(
    "one_float",
    en="one floating-point number (the mean loss: a Python float or a NumPy scalar)",
)
KIND_SHAPE = message("kind_shape", en="{kind} of shape {shape}")
KIND_SHAPE_DTYPE = message("kind_shape_dtype", en="{kind} of shape {shape} and dtype {dtype}")
SAME_OBJECTS = message(
    "same_objects",
    en="optimizer.params to hold the same Parameter objects",
)
OTHER_OBJECTS = message("other_objects", en="other objects")
REMAIN_PARAMETERS = message("remain_parameters", en="optimizer.params to remain Parameters")
OTHER_ARRAYS = message("other_arrays", en="other arrays")
LEAVE_GRAD = message("leave_grad", en="step to leave .grad as it was")
LEAVE_GRAD_NONE = message("leave_grad_none", en="step to leave .grad None")
AN_ARRAY = message("an_array", en="an array")
IT_CHANGED = message("it_changed", en="it changed")

# --- whole sentences (``case``): a failure's sentence for one expected value (and what came), for a language in which
# the frame cannot take it naturally; English fills the frame, and each English here is the frame's, filled
message(
    "expected_got.only_finite.nan_entries",
    en="{what}: expected only finite numbers, got {got_count} NaN/inf entries (first at index {got_index}).",
)
message(
    "expected_got.only_finite.not_finite_value",
    en="{what}: expected only finite numbers, got the value {got_value}.",
)
message("expected_got.shape.shape", en="{what}: expected shape {shape}, got shape {got_shape}.")
message("expected_got.dtype.dtype", en="{what}: expected dtype {dtype}, got dtype {got_dtype}.")
message("expected_got.float_dtype.dtype", en="{what}: expected a floating-point dtype, got dtype {got_dtype}.")
message("expected_got.a_numpy_array.kind_value", en="{what}: expected a NumPy array, got {got_kind} {got_value}.")
message(
    "expected_got.value_at_index.value_error",
    en="{what}: expected {value} at index {index} (relative error at most {tolerance}), got {got_value}, "
    "relative error {got_error}.",
)
message(
    "expected_got.keep_its_shape.shape",
    en="{what}: expected the array it was given to keep its shape {shape}, got shape {got_shape}.",
)
message(
    "expected_got.stay_unchanged",
    en="{what}: expected the array it was given to stay unchanged ({value} at index {index}), got {got}.",
)
message(
    "expected_got.one_float",
    en="{what}: expected one floating-point number (the mean loss: a Python float or a NumPy scalar), got {got}.",
)
message(
    "expected_got.same_objects.other_objects",
    en="{what}: expected optimizer.params to hold the same Parameter objects, got other objects.",
)
message(
    "expected_got.remain_parameters.other_arrays",
    en="{what}: expected optimizer.params to remain Parameters, got other arrays.",
)
message("expected_got.leave_grad.it_changed", en="{what}: expected step to leave .grad as it was, got it changed.")
message("expected_got.leave_grad_none.an_array", en="{what}: expected step to leave .grad None, got an array.")
# Python's and NumPy's common exceptions, which a language may explain beside their own (English) words
message("raised.IndexError", en="{what} raised {exception}: {message}")
message("raised_at.IndexError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.KeyError", en="{what} raised {exception}: {message}")
message("raised_at.KeyError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.TypeError", en="{what} raised {exception}: {message}")
message("raised_at.TypeError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.AttributeError", en="{what} raised {exception}: {message}")
message("raised_at.AttributeError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.NameError", en="{what} raised {exception}: {message}")
message("raised_at.NameError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.UnboundLocalError", en="{what} raised {exception}: {message}")
message("raised_at.UnboundLocalError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.ZeroDivisionError", en="{what} raised {exception}: {message}")
message("raised_at.ZeroDivisionError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.AxisError", en="{what} raised {exception}: {message}")
message("raised_at.AxisError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.RecursionError", en="{what} raised {exception}: {message}")
message("raised_at.RecursionError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.MemoryError", en="{what} raised {exception}: {message}")
message("raised_at.MemoryError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.AssertionError", en="{what} raised {exception}: {message}")
message("raised.ValueError", en="{what} raised {exception}: {message}")
message("raised_at.ValueError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
# NumPy's shape errors, each explained by its SHAPES_* message: the frame, without the ValueError's explanation
message("raised.ValueError.shapes.matmul", en="{what} raised {exception}: {message}")
message("raised_at.ValueError.shapes.matmul", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.ValueError.shapes.dot", en="{what} raised {exception}: {message}")
message("raised_at.ValueError.shapes.dot", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.ValueError.shapes.broadcast", en="{what} raised {exception}: {message}")
message("raised_at.ValueError.shapes.broadcast", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised.ValueError.shapes.output", en="{what} raised {exception}: {message}")
message("raised_at.ValueError.shapes.output", en="{what} raised {exception}: {message}\n  in your code: `{line}`")
message("raised_at.AssertionError", en="{what} raised {exception}: {message}\n  in your code: `{line}`")

# --- likely causes: each names one mistake, and is counted by its id in the class report


LINEAR_GIVEN = text(  # the public and the hidden Linear checks
    "linear.given_init",
    en="Linear.__init__ is given code: keep W of shape (in_features, out_features) and b of shape (out_features,)",
)
"""A W or b of another shape than the given ``__init__`` makes."""


def cause(id: str, en: str) -> Text:
    """A likely cause (a message without fields), as the ``Text`` the checks name."""
    return text(f"cause.{id}", en=en)


GRADING_RUNS_TOP_LEVEL = cause(
    "grading_runs_top_level",
    en="while your work is graded, each answer cell runs only its top-level imports, definitions (def, class) and "
    "assignments, not what is under an if, for, while, with or try: define the class, or assign it, at the top level "
    "of the cell",
)
RETURNED_NONE = cause(
    "returned_none",
    en="the method returned None: a missing `return`, or `return` without a value",
)
GRAD_NOT_SET = message(
    "cause.grad_not_set",
    en="{attribute} was never set: {method} must store the gradient there (`self.{attribute} = ...`)",
)
MLP_GRAD_UNSET = message(
    "cause.mlp.grad_unset",
    en="{attribute} is None after MLP.backward, though {layer}.backward ran and sets it: MLP.backward must not reset "
    "the gradients its layers store",
)
FIX_LAYER_FIRST = message(
    "cause.fix_layer_first",
    en="fix `{method}` first (the public check of {layer} fails there); the MLP check runs your own layers",
)
FIX_CLASS_FIRST = message(
    "cause.fix_class_first",
    en="fix `{layer}` first (its public check fails); the MLP check runs your own layers",
)
CAST_CHANGED_PRECISION = cause(
    "cast_changed_precision",
    en="a cast changed the precision; keep the dtype of the inputs",
)
CHANGED_IN_PLACE = cause(
    "changed_in_place",
    en="the method changed the array it was given, in place (such as `np.maximum(x, 0, out=x)`, `x[x < 0] = 0` or "
    "`grad *= mask`); build a new array instead",
)
NO_BIAS = cause("linear.no_bias", en="the bias is not added (Y = X W, without + b)")
W_TRANSPOSED = cause(
    "linear.w_transposed",
    en="W is transposed (Y = X Wᵀ + b); W already has shape (D_in, D_out)",
)
DX_NOT_TRANSPOSED = cause("linear.dx_not_transposed", en="dX = G W: W is not transposed")
DX_OVER_BATCH = cause(
    "linear.dx_over_batch",
    en="dX divided by the batch size (the loss already averages; dX is a plain product)",
)
DW_TRANSPOSED = cause("linear.dw_transposed", en="dW = Gᵀ X: the product is transposed")
DW_OVER_BATCH = cause(
    "linear.dw_over_batch",
    en="dW divided by the batch size (the loss already averages; dW is a plain sum over the batch)",
)
DW_STALE_INPUT = cause(
    "linear.dw_stale_input",
    en='dW uses the input of an earlier forward call: forward must save its latest input, `self.ctx["x"] = x`, on '
    "every call",
)
DB_NOT_SUMMED = cause("linear.db_not_summed", en="db = G, not summed over the batch")
DB_KEEPDIMS = cause(
    "linear.db_keepdims",
    en="db has shape (1, D_out): the sum kept the batch axis (keepdims=True); b has shape (D_out,)",
)
DB_WRONG_AXIS = cause(
    "linear.db_wrong_axis",
    en="db summed over the features (axis=1) instead of the batch (axis=0)",
)
DB_MEAN = cause(
    "linear.db_mean",
    en="db averaged over the batch (mean) instead of summed",
)
DB_ONE_NUMBER = cause(
    "linear.db_one_number",
    en="db is one number, summed over every axis (or squeezed); sum over the batch axis only (axis=0), which "
    "keeps the shape (D_out,)",
)
RELU_MAX_REDUCTION = cause(
    "relu.max_reduction",
    en="np.max(x, 0) is a reduction (the largest entry of each column), not the elementwise np.maximum(x, 0)",
)
RELU_NEGATIVE_PART = cause(
    "relu.negative_part",
    en="the negative part kept instead of the positive part (min instead of max)",
)
RELU_MASK_AT_ZERO = cause(
    "relu.mask_at_zero",
    en="mask 1(H ≥ 0): the gradient at exactly H = 0 must be 0, use `x > 0`",
)
RELU_TIMES_OUTPUT = cause(
    "relu.times_output",
    en="G multiplied by the output max(H, 0) instead of by the mask 1(H > 0)",
)
RELU_MASK_FROM_G = cause(
    "relu.mask_from_g",
    en="the mask taken from the gradient G instead of from the input H",
)
RELU_STALE_MASK = cause(
    "relu.stale_mask",
    en="the mask comes from an earlier forward call: forward must save what backward needs on every call",
)
RELU_NO_MASK = cause("relu.no_mask", en="no mask: backward returns G unchanged")
NO_MAX_SHIFT = cause(
    "loss.no_max_shift",
    en="softmax without subtracting each row's max first: exp of a large logit overflows to inf, which turns "
    "probabilities into NaN or 0",
)
LOG_OF_ZERO = cause(
    "loss.log_of_zero",
    en="the log of a probability that underflowed to 0 (log 0 = −inf): compute log softmax as "
    "(z − m) − log Σ exp(z − m), or add an eps of at most 1e-07 inside the log",
)
ZERO_TIMES_LOG_ZERO = cause(
    "loss.zero_times_log_zero",
    en="0 · log 0 = NaN: the log of every probability, some of which underflowed to exactly 0, times the one-hot's "
    "zeros; take only each target's log probability (log_p[np.arange(B), y]), from a log softmax computed as "
    "(z − m) − log Σ exp(z − m)",
)
DIVIDES_BY_ZERO = cause(
    "loss.divides_by_zero",
    en="the gradient divides by a probability that underflowed to 0 (the derivative of the log taken literally): "
    "use dZ = (softmax(Z) − onehot(y)) / B",
)
OVER_BATCH = cause(
    "loss.over_batch",
    en="softmax normalised over the batch axis (axis=0) instead of over each row's classes (axis=1)",
)
LOSS_SUMMED = cause(
    "loss.summed",
    en="the loss is summed over the batch, not averaged (B times too large)",
)
LOSS_OVER_CLASSES = cause(
    "loss.over_classes",
    en="the loss is averaged over the classes too (divided by B·C, such as `np.mean(onehot * log_p)`), not over the "
    "batch only: C times too small",
)
LOSS_SIGN = cause(
    "loss.sign",
    en="the loss has the wrong sign: the minus of −log softmax is missing",
)
DZ_NOT_OVER_B = cause(
    "loss.dz_not_over_b",
    en="dZ is not divided by B (the loss is a mean over the batch)",
)
DZ_OVER_CLASSES = cause(
    "loss.dz_over_classes",
    en="dZ is divided by B·C (such as `grad / grad.size`), not by B: C times too small",
)
DZ_OFFSET = message(
    "cause.loss.dz_offset",
    en="dZ is off by the same constant, {offset}, in every entry: something adds a constant to "
    "(softmax(Z) − onehot(y)) / B",
)
DZ_STALE_INPUT = cause(
    "loss.dz_stale_input",
    en="dZ comes from the logits and targets of an earlier forward call: forward must save what backward needs on "
    "every call, replacing what it saved before",
)
DZ_EVERY_ROW = cause(
    "loss.dz_every_row",
    en="the one-hot subtracted with grad[:, y] (every row, at every target column) instead of grad[np.arange(B), y]",
)
DZ_NO_ONEHOT = cause(
    "loss.dz_no_onehot",
    en="the one-hot of the targets is not subtracted: dZ = softmax(Z) / B",
)
DZ_SIGN = cause(
    "loss.dz_sign",
    en="dZ has the wrong sign: softmax(Z) − onehot(y), not onehot(y) − softmax(Z)",
)
DZ_FROM_LOGITS = cause(
    "loss.dz_from_logits",
    en="dZ computed from the logits instead of their softmax",
)
PER_SAMPLE_LOSSES = cause(
    "loss.per_sample",
    en="the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`",
)
LOSS_SHAPE_ONE = cause(
    "loss.shape_one",
    en="an array of shape (1,) is returned where one number is expected (the per-sample losses, or a mean that kept "
    "an axis); return a scalar, e.g. `losses.mean()` over every axis or `float(...)`",
)
LOSS_ONE_NUMBER_ARRAY = message(
    "cause.loss.one_number_array",
    en="the loss is returned as an array of shape {shape} holding one number; return a scalar, e.g. `float(loss)` or "
    "`loss.item()`, or average over every axis",
)
LOSS_NOT_FLOAT = cause(
    "loss.not_float",
    en="the loss is not a floating-point number (an integer or boolean result)",
)
SGD_ASCENT = cause(
    "sgd.ascent",
    en="the sign is flipped: θ + η ∂L/∂θ climbs the loss (gradient ascent)",
)
SGD_LR_TWICE = cause("sgd.lr_twice", en="the learning rate is applied twice (η² ∂L/∂θ)")
SGD_NO_LR = cause(
    "sgd.no_lr",
    en="the learning rate is missing (θ − ∂L/∂θ); use self.lr",
)
SGD_NOTHING_MOVED = cause(
    "sgd.nothing_moved",
    en="no parameter array changed in any step: the update was computed but not written into the arrays "
    "(`p = p - ...` rebinds the loop variable to a new array); update in place with `p -= ...`",
)
SGD_STOPS = cause(
    "sgd.stops",
    en="the loop stops at the first parameter whose .grad is None (`break` or `return`): the parameters after it are "
    "never updated; skip that one parameter with `continue`",
)
SGD_SKIP_NONE = cause(
    "sgd.skip_none",
    en="a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)",
)
SGD_REPLACED = cause(
    "sgd.replaced",
    en="step replaced the list's entries; update each array in place instead",
)
SGD_SETS_GRAD = cause(
    "sgd.sets_grad",
    en="step gave .grad to a parameter that had none; skip it and leave its .grad None (only backward sets it)",
)
SGD_NOT_FLOAT32 = cause(
    "sgd.not_float32",
    en="the update must keep the parameter float32 (update in place)",
)
SGD_GRAD_CHANGED = cause(
    "sgd.grad_changed",
    en="step modified or cleared .grad; only zero_grad() clears it",
)
MLP_NO_RELU = cause("mlp.no_relu", en="the ReLU is skipped: fc2(fc1(x))")
MLP_RELU_ON_LOGITS = cause(
    "mlp.relu_on_logits",
    en="the ReLU is also applied to the logits: the last layer is fc2, with no activation",
)
MLP_RETURNS_RELU_GRAD = cause(
    "mlp.returns_relu_grad",
    en="backward returns the gradient after relu.backward instead of what fc1.backward returns",
)
BACKWARD_STARTED = message(
    "cause.mlp.backward_started",
    en="backward started with {layer}: it must run in reverse order, fc2 → relu → fc1",
)
RELU_NOT_CALLED_BACKWARD = cause(
    "mlp.relu_not_called_backward",
    en="the ReLU is skipped: relu.backward is not called, so the gradient does not pass through the ReLU",
)
RELU_NOT_CALLED_FORWARD = cause(
    "mlp.relu_not_called_forward",
    en="the ReLU is skipped: relu is never called in forward",
)
LAYER_ORDER = message(
    "cause.mlp.layer_order",
    en="{direction} calls the layers in the order {seen}; expected {order}",
)
PARAMETERS_MISS = message(
    "cause.mlp.parameters_miss",
    en="parameters() misses {names}: do not override parameters(); Module.parameters() finds every layer's Parameters",
)
PARAMETERS_OTHER = cause(
    "mlp.parameters_other",
    en="parameters() yields other arrays or another order: do not override parameters(); Module.parameters() finds "
    "every layer's Parameters",
)

# --- causes of an exception, by its class
ERROR_NOT_IMPLEMENTED = cause(
    "error.not_implemented",
    en="this method is not written yet (it still raises NotImplementedError)",
)
ERROR_AXIS = cause(
    "error.axis",
    en="an axis the array does not have: an array lost an axis, usually the batch axis at B = 1 (np.squeeze, x[0] "
    "or .flatten() turn shape (1, C) into (C,)); keep every batch 2-D",
)
ERROR_UNBOUND = cause(
    "error.unbound_local",
    en="a local name used before it is assigned: it is assigned later in the method, or in a branch that did not run",
)
ERROR_KEY = cause(
    "error.ctx_key",
    en="backward reads something from self.ctx that forward did not save: forward must store what backward needs, "
    'for example `self.ctx["x"] = x`, on every call',
)
ERROR_SHAPES = cause(
    "error.shapes",
    en="the shapes in a product or sum do not line up: write each operand's shape next to the formula",
)
ERROR_NONE = cause(
    "error.none",
    en="an operation on None: a method without `return`, or a .grad that was never set",
)
ERROR_RECURSION = cause(
    "error.recursion",
    en="a method calls itself, for example forward calling self(x) or self.forward(x)",
)
ERROR_INDEX = cause(
    "error.index",
    en="an index out of range: check which axis you index (rows are samples, columns are classes or features)",
)
ERROR_INDEX_TYPE = cause(
    "error.index_type",
    en="an index that is not an integer: index with integers or integer arrays (a float such as B / 2 needs //, "
    "int(...) or .astype(int))",
)
ERROR_NAME = cause(
    "error.name",
    en="a name that is not defined: a typo, or a class whose cell did not run",
)
ERROR_MEMORY = cause(
    "error.memory",
    en="an array far too large: check the shapes of your intermediate results",
)
ERROR_PROCESS = cause(
    "error.process",
    en="your code starts another process (subprocess, os.system, multiprocessing), which grading does not allow: "
    "compute in this process, with Python and NumPy",
)

# --- the chapter's formulas


FORMULA_ID = "formula."
"""The start of the id of each of the chapter's formulas (``formula``)."""


def formula(id: str, en: str) -> Text:
    """A formula of the chapter, as the ``Text`` a failure ends with."""
    return text(f"{FORMULA_ID}{id}", en=en)


def is_formula(words: Text) -> bool:
    """Whether ``words``, the last line of a failure, is one of the chapter's formulas (declared by ``formula``), not
    a hint: a failure labels it "The formula" or "Hint" by its id."""
    return words.id.startswith(FORMULA_ID)


LINEAR_FORWARD_FORMULA = formula(
    "linear_forward",
    en="Y = X W + b: X (B, D_in) @ W (D_in, D_out), then b added to every row",
)
LINEAR_DX_FORMULA = formula(
    "linear_dx",
    en="dX = G Wᵀ, of shape (B, D_in); backward must `return` it",
)
LINEAR_DW_FORMULA = formula(
    "linear_dw",
    en="dW = Xᵀ G, of the shape of W (D_in, D_out), with X the input of the latest forward; store it in self.W.grad",
)
LINEAR_DB_FORMULA = formula(
    "linear_db",
    en="db_j = Σ_i G_ij: sum G over the batch axis (axis=0), so that db has the shape of b, (D_out,); store it in "
    "self.b.grad",
)
RELU_FORWARD_FORMULA = formula(
    "relu_forward",
    en="ReLU(H) = max(H, 0) elementwise: np.maximum(x, 0), a new array of the shape of x",
)
RELU_BACKWARD_FORMULA = formula(
    "relu_backward",
    en="dH = G ⊙ 1(H > 0): the mask comes from the input H of the latest forward and is 0 where H ≤ 0",
)
CROSS_ENTROPY_FORMULA = formula(
    "cross_entropy",
    en="L = −(1/B) Σ_i log softmax(Z_i)[y_i]: subtract each row's max before exp, and average over the batch",
)
CROSS_ENTROPY_GRAD_FORMULA = formula(
    "cross_entropy_grad",
    en="G_Z = (Ŷ − Y) / B with Ŷ = softmax(Z) over each row (axis=1) and Y = onehot(y), from the Z and y of the "
    "latest forward",
)
SGD_FORMULA = formula(
    "sgd",
    en="θ ← θ − η ∂L/∂θ for every parameter with a gradient, changing the array itself: `p -= self.lr * p.grad`",
)
MLP_FORWARD_FORMULA = formula(
    "mlp_forward",
    en="logits = fc2(relu(fc1(x))): call the three layers in this order and return the last output",
)
MLP_BACKWARD_FORMULA = formula(
    "mlp_backward",
    en="backward runs in reverse order: grad = fc2.backward(grad); grad = relu.backward(grad); "
    "return fc1.backward(grad)",
)

# --- what ``python nn_public.py NOTEBOOK`` says around the failed cells: nbgrader validate's own words, in English

VALIDATE_FAILED_CELL = text("validate.failed_cell", en="The following cell failed:")
VALIDATE_ERROR_WAS = text("validate.error_was", en="The error was:")
VALIDATE_CHANGED_CELL = text("validate.changed_cell", en="The following cell has changed:")
VALIDATE_TYPE_CHANGED_CELL = message(
    "validate.type_changed_cell", en="The following {old} cell has changed to a {new} cell:"
)
VALIDATE_SUCCESS = text("validate.success", en="Success! Your notebook passes all the tests.")
VALIDATE_FAILED = message(
    "validate.failed",
    en="VALIDATION FAILED ON {count} CELL(S)! If you submit your assignment as it is, you WILL NOT receive full "
    "credit.",
)
VALIDATE_CHANGED = message(
    "validate.changed",
    en="THE CONTENTS OF {count} TEST CELL(S) HAVE CHANGED! This might mean that even though the tests are passing now, "
    "they won't pass when your assignment is graded.",
)
VALIDATE_TYPE_CHANGED = message(
    "validate.type_changed",
    en="THE TYPES OF {count} CELL(S) HAVE CHANGED! This might mean that even though the tests are passing now, they "
    "won't pass when your assignment is graded.",
)

# --- what the notebook shows besides the checks: the training cell, its plots and the MNIST loader

TRAINING_SKIPPED = message(
    "training_skipped",
    en="Skipped while grading: the grader trains your MLP itself.",
)
TRAIN_CHECKS_FAILED = message(
    "train_checks_failed",
    en="Not training yet: the public checks of {parts} fail. Fix them first (each check cell says what is wrong), "
    "then run this cell again.",
)
TRAIN_CHECKS_NOT_RUN = message(
    "train_checks_not_run",
    en="Not training yet: the public checks of {parts} have not run in this kernel. Run the cells above from the "
    "top first, then this cell again.",
)
TRAINING_ON = message(
    "training_on",
    en="Training on {images} images for {epochs} epochs: about 1–2 s per epoch for a correct MLP.",
)
EPOCH_PROGRESS = message("epoch_progress", en="epoch {epoch}/{epochs}: ")  # the progress bar's text before it
STEP_UNIT = message("step_unit", en="batch")
LOSS_SO_FAR = message("loss_so_far", en="loss={loss}")
EPOCH_DONE = message(
    "epoch_done",
    en="epoch {epoch}: mean training loss {loss}, test accuracy {accuracy}",
)
STEP_AXIS = message("step_axis", en="SGD step")
LOSS_AXIS = message("loss_axis", en="training loss (moving average of 50 steps)")
LOSS_TITLE = message("loss_title", en="Training loss")
DIGITS_TITLE = message(
    "digits_title",
    en="Test digits and your model's predictions (red: wrong, with the true label)",
)
WRONG_DIGIT = message("wrong_digit", en="{prediction} (is {label})")

# the MNIST loader's errors (mnist_data.MnistDataError: each line one message)
MNIST_UNREADABLE = message("mnist_unreadable", en="Could not read MNIST file {path}: {error}")
MNIST_TRUNCATED = message(
    "mnist_truncated",
    en="MNIST file {path} looks truncated (the gzip stream ends early: {error}); "
    "the download or copy was probably interrupted.",
)
MNIST_NOT_GZIP = message(
    "mnist_not_gzip",
    en="MNIST file {path} looks corrupt (not a valid gzip file: {error}).",
)
MNIST_NO_HEADER = message(
    "mnist_no_header",
    en="MNIST file {path} is too short to hold its IDX header ({size} bytes).",
)
MNIST_WRONG_MAGIC = message(
    "mnist_wrong_magic",
    en="MNIST file {path} has magic number {magic}, expected {expected}; it is not the file its name says.",
)
MNIST_SWAPPED_MAGIC = message(
    "mnist_swapped_magic",
    en="MNIST file {path} has magic number {magic} (that is the magic number of an MNIST {kind} file), expected "
    "{expected}; it is not the file its name says.",
)
MNIST_IMAGES = text("mnist_images", en="images")
MNIST_LABELS = text("mnist_labels", en="labels")
MNIST_DATA_TYPE = message(
    "mnist_data_type",
    en="MNIST file {path}: unsupported IDX data type {code}.",
)
MNIST_IMAGE_SIZE = message(
    "mnist_image_size",
    en="MNIST file {path} holds {rows}x{cols} images, expected {size}x{size}.",
)
MNIST_ITEMS = message(
    "mnist_items",
    en="MNIST file {path} holds {count} items, expected {expected}.",
)
MNIST_SHORT_DATA = message(
    "mnist_short_data",
    en="MNIST file {path} is too short: its header promises {expected} bytes of data but only {actual} follow "
    "(truncated file?).",
)
MNIST_TRAILING = message(
    "mnist_trailing",
    en="MNIST file {path} has {extra} unexpected trailing bytes after the {expected} bytes of data its header "
    "promises.",
)
MNIST_BAD_LABEL = message(
    "mnist_bad_label",
    en="MNIST file {path} has label {label} at index {index}; labels must be 0..{last}.",
)
MNIST_MISMATCH = message(
    "mnist_mismatch",
    en="MNIST files do not match: {images_path} holds {images} images but {labels_path} holds {labels} labels.",
)
MNIST_SPLIT_SIZE = message(
    "mnist_split_size",
    en="MNIST files {images_path} and {labels_path} hold {count} examples each, expected {expected} for the {split} "
    "split.",
)
MNIST_TRAIN_SPLIT = text("mnist_train_split", en="train")
MNIST_TEST_SPLIT = text("mnist_test_split", en="test")
MNIST_DIR_ARGUMENT = message(
    "mnist_dir_argument",
    en="the directory {directory} (given as the data_dir argument)",
)
MNIST_DIR_GIVEN = message("mnist_dir_given", en="the directory {directory} ({origin})")
MNIST_DIR_ENV = message(
    "mnist_dir_env",
    en="the directory {directory} (from the environment variable ${env})",
)
MNIST_ADVICE_ARGUMENT = message(
    "mnist_advice_argument",
    en="Put the four MNIST files ({names}) there, or call load_mnist() without data_dir to download them.",
)
MNIST_ADVICE_GIVEN = message("mnist_advice_given", en="Put the four MNIST files ({names}) there.")
MNIST_ADVICE_ENV = message(
    "mnist_advice_env",
    en="Put the four MNIST files ({names}) there, or unset {env} to download them.",
)
MNIST_NOT_A_DIRECTORY = message("mnist_not_a_directory", en="Cannot load MNIST: {where} is not a directory.")
MNIST_NO_DIRECTORY = message("mnist_no_directory", en="Cannot load MNIST: {where} does not exist.")
MNIST_LACKS = message(
    "mnist_lacks",
    en="Cannot load MNIST: {where} lacks {count} file(s):",
)
MNIST_MISSING_FILE = message("mnist_missing_file", en="  {name}")
MNIST_MISSING_UNZIPPED = message(
    "mnist_missing_unzipped",
    en="  {name} (found uncompressed {unzipped}; gzip it)",
)
MNIST_CANNOT_LOAD_FROM = message("mnist_cannot_load_from", en="Cannot load MNIST from {where}:")
MNIST_NOT_OFFICIAL = message(
    "mnist_not_official",
    en="MNIST file {path} is not byte-identical to the official file (strict_checksums=True): expected SHA-256 "
    "{expected}, got {actual}. It comes from {where}; pass strict_checksums=False to accept it anyway.",
)
MNIST_CHECKSUM = message(
    "mnist_checksum",
    en="checksum mismatch: expected SHA-256 {expected}, got {actual}",
)
MNIST_DOWNLOAD_FAILED = message(
    "mnist_download_failed",
    en="Could not download MNIST file {name} into {cache_dir}:",
)
MNIST_MIRROR_FAILED = message("mnist_mirror_failed", en="  {url}: {error}")
MNIST_NO_MIRRORS = text("mnist_no_mirrors", en="  (no mirrors were given)")
MNIST_OFFLINE_ADVICE = message(
    "mnist_offline_advice",
    en="If this machine has no internet access, copy the four MNIST files ({names}) to a directory and set the "
    "environment variable {env} to it (or pass data_dir=...).",
)
MNIST_CACHE_DAMAGED = message(
    "mnist_cache_damaged",
    en="Cached MNIST file {path} is damaged (wrong SHA-256) and could not be deleted: {error}",
)
MNIST_CACHE_MISSING = message(
    "mnist_cache_missing",
    en="MNIST files missing from the cache directory {cache_dir}: {names}.",
)
MNIST_CACHE_MISSING_REJECTED = message(
    "mnist_cache_missing_rejected",
    en="MNIST files missing from the cache directory {cache_dir} ({rejected} failed the checksum and was deleted): "
    "{names}.",
)
MNIST_DOWNLOAD_OFF = message(
    "mnist_download_off",
    en="Downloading is off (download=False). Set the environment variable {env} (or pass data_dir=...) to a "
    "directory with the four MNIST files, or allow download=True to fill the cache.",
)
MNIST_CACHE_UNWRITABLE = message(
    "mnist_cache_unwritable",
    en="Cannot create the MNIST cache directory {cache_dir}: {error}",
)
MNIST_CACHE_ADVICE = message(
    "mnist_cache_advice",
    en="Set {cache_env} to a writable directory, or {env} to a directory that already holds the four MNIST files.",
)
