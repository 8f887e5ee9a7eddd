"""Every message a check can show, declared once by id; its words in each language, English first, are data.

A message is data until someone reads it: a ``Text`` is a message's id and its fields (numbers, shapes, code, or other
``Text``), and ``render`` turns it into words in a language. ``Failure`` is a failed check as data: the message, the
likely cause and the formula. ``CheckFailed`` carries one; a notebook shows it in the edition's language
(``nn_i18n.LANGUAGE``), ``str()`` of it is English.

Adding a message: declare it here with ``message(id)`` and give its English in ``i18n/messages.en.toml`` (its wording
in another language in ``i18n/messages.<language>.toml``); the grader's own messages are declared the same way in the
grader. The wordings reach these helpers in ``nn_wordings.json`` (generated from those files), and the grader adds its
own to ``WORDINGS``; a message without a wording in a language is shown in English, never empty (without the file, by
its id and fields). Adding a language: the maintainer guide's "Adding a language".
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nn_languages import GENERATED, UNREADABLE
from nn_languages import language as language_of

Field = Any
"""A field of a ``Text``: a ``Text`` (rendered in the same language), a list of fields (rendered one by one and joined
as the language lists things), or a raw value (code, numbers, shapes, a type name) shown as ``str(value)`` in every
language."""


@dataclass(frozen=True)
class Message:
    """One message, by its id; its templates (``{name}`` stands for the field ``name``) are in ``WORDINGS``."""

    id: str

    def __call__(self, **fields: Field) -> Text:
        """This message with its fields: a ``Text``."""
        return Text(self.id, fields)

    @property
    def en(self) -> str:
        """Its English template ("" if the wordings file is missing: ``render`` then shows the id and the fields)."""
        return WORDINGS["en"].get(self.id, "")

    def template(self, language: str) -> str:
        """Its template in ``language``: the wording there, or the English one if it has none."""
        return WORDINGS.get(language, {}).get(self.id) or self.en


CATALOGUE: dict[str, Message] = {}
"""Every declared message by id: these helpers' own, and the grader's when it is loaded."""

WORDINGS: dict[str, dict[str, str]] = {"en": {}} | {lang: dict(words) for lang, words in GENERATED["wordings"].items()}
"""Language -> message id -> its wording there, English too: these helpers' own, and the grader's when it is loaded
(the grader adds them)."""


def _an_id(id: Any) -> str:
    if not isinstance(id, str):  # nothing else is a message (a call with arrays, say)
        raise TypeError(f"a message is declared with a text id, not {type(id).__name__}")
    return id


def message(id: str) -> Message:
    """Declare a message by its id (``tests/test_messages.py`` holds every id declared once, with its English)."""
    return CATALOGUE.setdefault(_an_id(id), Message(id))


def text(id: str) -> Text:
    """Declare a message without fields and call it: the ``Text`` of a cause, a label or a phrase."""
    return message(id)()


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
    if not template:  # no wordings file: the message's id and fields, never nothing
        template = " ".join([text.id, *(f"{name}={{{name}}}" for name in fields)])
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
        def part(key: str) -> Text | None:
            return Text.from_data(data[key]) if data.get(key) else None

        numbers = {str(name): float(value) for name, value in (data.get("numbers") or {}).items()}
        return Failure(Text.from_data(data["message"]), part("cause"), part("formula"), numbers)


class CheckFailed(AssertionError):
    """A check failed: ``failure`` says what was expected, what came, the likely cause and the formula.

    A notebook shows it alone, without a traceback, in the edition's language (``_render_traceback_``)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.render("en"))
        self.failure = failure

    def _render_traceback_(self) -> list[str]:
        from nn_checks import render_message
        from nn_i18n import LANGUAGE

        return render_message("\n".join(filter(None, [self.failure.render(LANGUAGE), UNREADABLE])))


LIKELY_CAUSE = message("likely_cause")
THE_FORMULA = message("the_formula")
THE_HINT = message("the_hint")
"""What ends a failure whose last line is advice (such as the gate's), not one of the chapter's formulas."""
PASSED = message("passed")
PUBLIC_DATA_UNREADABLE = message("public_data_unreadable")
NO_CHINESE_FONT = message("no_chinese_font")

ALL_OF = message("list.and")
"""A list whose items all count ("W2 和 b2"): ``ALL_OF(items=[...])``, joined as ``nn_languages`` says."""
_CONJUNCTIONS = {ALL_OF.id: "and"}

# --- the sentence of a failure: what was checked, and what went wrong
EXPECTED_GOT = case(message("expected_got"), "expected", "got")
RAISED = case(message("raised"), "exception", "message")
RAISED_AT = case(message("raised_at"), "exception", "message")
SHAPES_MATMUL = message("shapes.matmul")
"""NumPy's matmul error, explained from what it says (the two sizes that differ)."""
SHAPES_DOT = message("shapes.dot")
SHAPES_BROADCAST = message("shapes.broadcast")
SHAPES_OUTPUT = message("shapes.output")
CORE_NOT_IMPLEMENTED = message("core.not_implemented")
"""``nn_core``'s base ``Module.forward``, ``Module.backward`` and ``Optimizer.step``: a method the subclass lacks."""
CORE_NOT_A_PARAMETER = message("core.not_a_parameter")
"""``nn_core``'s ``Optimizer`` given something other than a ``Parameter`` (``kind``: its type's name)."""
NOT_WRITTEN = message("not_written")
EXPECTED_UNCHANGED = message("expected_unchanged")
PARAMETERS_DIFFER = message("parameters_differ")
LAYERS_RAN = message("layers_ran")

# --- what was checked
PART_OF = message("part_of")
YOUR_PART = message("your_part")
FD_CHECK = message("fd_check")
ON_EXAMPLE = message("on_example")
ON_HUGE_LOGITS = message("on_huge_logits")
TARGETS_UNDERFLOW = message("targets_underflow")
ON_INPUT = message("on_input")
ON_FLOAT64_INPUT = message("on_float64_input")
WITH_GRAD = message("with_grad")
AFTER_EARLIER_WITH_GRAD = message("after_earlier_with_grad")
FOR_X_SHAPE = message("for_x_shape")
FOR_FLOAT64_XWB = message("for_float64_xwb")
FOR_FLOAT32_X = message("for_float32_x")
FOR_FLOAT64_INPUTS = message("for_float64_inputs")
FOR_FLOAT64_GRAD = message("for_float64_grad")
FOR_FLOAT64_LOGITS = message("for_float64_logits")
FOR_LOGITS_SHAPE = message("for_logits_shape")
AFTER_STALE_FORWARD = message("after_stale_forward")
RETURNED_DX = message("returned_dx")
SGD_AFTER_STEPS = message("sgd_after_steps")
SGD_PARAMETER = message("sgd_parameter")
ITS_GRAD = message("its_grad")
NAMED_GRAD = message("named_grad")
BOUND_WHERE_GRADING_SKIPS = message("bound_where_grading_skips")
LAYER_UNCHECKED = message("layer_unchecked")

# --- what was expected, what came
A_NUMPY_ARRAY = message("a_numpy_array")
KIND_VALUE = message("kind_value")
FLOAT_DTYPE = message("float_dtype")
DTYPE = message("dtype")
ONLY_FINITE = message("only_finite")
NAN_ENTRIES = message("nan_entries")
NOT_FINITE_VALUE = message("not_finite_value")
SHAPE = message("shape")
VALUE_AT_INDEX = message("value_at_index")
VALUE_WITHIN = message("value_within")
BAND_AT_INDEX = message("band_at_index")
BAND = message("band")
EPS_IN_LOG = message("eps_in_log")
VALUE_ERROR = message("value_error")
KEEP_ITS_SHAPE = message("keep_its_shape")
STAY_UNCHANGED = message("stay_unchanged")
ONE_FLOAT = message("one_float")
KIND_SHAPE = message("kind_shape")
KIND_SHAPE_DTYPE = message("kind_shape_dtype")
SAME_OBJECTS = message("same_objects")
OTHER_OBJECTS = message("other_objects")
REMAIN_PARAMETERS = message("remain_parameters")
OTHER_ARRAYS = message("other_arrays")
LEAVE_GRAD = message("leave_grad")
LEAVE_GRAD_NONE = message("leave_grad_none")
AN_ARRAY = message("an_array")
IT_CHANGED = message("it_changed")

# --- whole sentences (``case``): a failure's sentence for one expected value (and what came), for a language in which
# the frame cannot take it naturally; English fills the frame, and each English here is the frame's, filled
message("expected_got.only_finite.nan_entries")
message("expected_got.only_finite.not_finite_value")
message("expected_got.shape.shape")
message("expected_got.dtype.dtype")
message("expected_got.float_dtype.dtype")
message("expected_got.a_numpy_array.kind_value")
message("expected_got.value_at_index.value_error")
message("expected_got.keep_its_shape.shape")
message("expected_got.stay_unchanged")
message("expected_got.one_float")
message("expected_got.same_objects.other_objects")
message("expected_got.remain_parameters.other_arrays")
message("expected_got.leave_grad.it_changed")
message("expected_got.leave_grad_none.an_array")
# Python's and NumPy's common exceptions, which a language may explain beside their own (English) words
message("raised.IndexError")
message("raised_at.IndexError")
message("raised.KeyError")
message("raised_at.KeyError")
message("raised.TypeError")
message("raised_at.TypeError")
message("raised.AttributeError")
message("raised_at.AttributeError")
message("raised.NameError")
message("raised_at.NameError")
message("raised.UnboundLocalError")
message("raised_at.UnboundLocalError")
message("raised.ZeroDivisionError")
message("raised_at.ZeroDivisionError")
message("raised.AxisError")
message("raised_at.AxisError")
message("raised.RecursionError")
message("raised_at.RecursionError")
message("raised.MemoryError")
message("raised_at.MemoryError")
message("raised.AssertionError")
message("raised.ValueError")
message("raised_at.ValueError")
# NumPy's shape errors, each explained by its SHAPES_* message: the frame, without the ValueError's explanation
message("raised.ValueError.shapes.matmul")
message("raised_at.ValueError.shapes.matmul")
message("raised.ValueError.shapes.dot")
message("raised_at.ValueError.shapes.dot")
message("raised.ValueError.shapes.broadcast")
message("raised_at.ValueError.shapes.broadcast")
message("raised.ValueError.shapes.output")
message("raised_at.ValueError.shapes.output")
message("raised_at.AssertionError")

# --- likely causes: each names one mistake, and is counted by its id in the class report


LINEAR_GIVEN = text("linear.given_init")
"""A W or b of another shape than the given ``__init__`` makes."""


def cause(id: str) -> Text:
    """A likely cause (a message without fields), as the ``Text`` the checks name."""
    return text(f"cause.{_an_id(id)}")


GRADING_RUNS_TOP_LEVEL = cause("grading_runs_top_level")
RETURNED_NONE = cause("returned_none")
GRAD_NOT_SET = message("cause.grad_not_set")
MLP_GRAD_UNSET = message("cause.mlp.grad_unset")
FIX_LAYER_FIRST = message("cause.fix_layer_first")
FIX_CLASS_FIRST = message("cause.fix_class_first")
CAST_CHANGED_PRECISION = cause("cast_changed_precision")
CHANGED_IN_PLACE = cause("changed_in_place")
NO_BIAS = cause("linear.no_bias")
W_TRANSPOSED = cause("linear.w_transposed")
DX_NOT_TRANSPOSED = cause("linear.dx_not_transposed")
DX_OVER_BATCH = cause("linear.dx_over_batch")
DW_TRANSPOSED = cause("linear.dw_transposed")
DW_OVER_BATCH = cause("linear.dw_over_batch")
DW_STALE_INPUT = cause("linear.dw_stale_input")
DB_NOT_SUMMED = cause("linear.db_not_summed")
DB_KEEPDIMS = cause("linear.db_keepdims")
DB_WRONG_AXIS = cause("linear.db_wrong_axis")
DB_MEAN = cause("linear.db_mean")
DB_ONE_NUMBER = cause("linear.db_one_number")
RELU_MAX_REDUCTION = cause("relu.max_reduction")
RELU_NEGATIVE_PART = cause("relu.negative_part")
RELU_MASK_AT_ZERO = cause("relu.mask_at_zero")
RELU_TIMES_OUTPUT = cause("relu.times_output")
RELU_MASK_FROM_G = cause("relu.mask_from_g")
RELU_STALE_MASK = cause("relu.stale_mask")
RELU_NO_MASK = cause("relu.no_mask")
NO_MAX_SHIFT = cause("loss.no_max_shift")
LOG_OF_ZERO = cause("loss.log_of_zero")
ZERO_TIMES_LOG_ZERO = cause("loss.zero_times_log_zero")
DIVIDES_BY_ZERO = cause("loss.divides_by_zero")
OVER_BATCH = cause("loss.over_batch")
LOSS_SUMMED = cause("loss.summed")
LOSS_OVER_CLASSES = cause("loss.over_classes")
LOSS_SIGN = cause("loss.sign")
DZ_NOT_OVER_B = cause("loss.dz_not_over_b")
DZ_OVER_CLASSES = cause("loss.dz_over_classes")
DZ_OFFSET = message("cause.loss.dz_offset")
DZ_STALE_INPUT = cause("loss.dz_stale_input")
DZ_EVERY_ROW = cause("loss.dz_every_row")
DZ_NO_ONEHOT = cause("loss.dz_no_onehot")
DZ_SIGN = cause("loss.dz_sign")
DZ_FROM_LOGITS = cause("loss.dz_from_logits")
PER_SAMPLE_LOSSES = cause("loss.per_sample")
LOSS_SHAPE_ONE = cause("loss.shape_one")
LOSS_ONE_NUMBER_ARRAY = message("cause.loss.one_number_array")
LOSS_NOT_FLOAT = cause("loss.not_float")
SGD_ASCENT = cause("sgd.ascent")
SGD_LR_TWICE = cause("sgd.lr_twice")
SGD_NO_LR = cause("sgd.no_lr")
SGD_NOTHING_MOVED = cause("sgd.nothing_moved")
SGD_STOPS = cause("sgd.stops")
SGD_SKIP_NONE = cause("sgd.skip_none")
SGD_REPLACED = cause("sgd.replaced")
SGD_SETS_GRAD = cause("sgd.sets_grad")
SGD_NOT_FLOAT32 = cause("sgd.not_float32")
SGD_GRAD_CHANGED = cause("sgd.grad_changed")
MLP_NO_RELU = cause("mlp.no_relu")
MLP_RELU_ON_LOGITS = cause("mlp.relu_on_logits")
MLP_RETURNS_RELU_GRAD = cause("mlp.returns_relu_grad")
BACKWARD_STARTED = message("cause.mlp.backward_started")
RELU_NOT_CALLED_BACKWARD = cause("mlp.relu_not_called_backward")
RELU_NOT_CALLED_FORWARD = cause("mlp.relu_not_called_forward")
LAYER_ORDER = message("cause.mlp.layer_order")
PARAMETERS_MISS = message("cause.mlp.parameters_miss")
PARAMETERS_OTHER = cause("mlp.parameters_other")

# --- causes of an exception, by its class
ERROR_NOT_IMPLEMENTED = cause("error.not_implemented")
ERROR_AXIS = cause("error.axis")
ERROR_UNBOUND = cause("error.unbound_local")
ERROR_KEY = cause("error.ctx_key")
ERROR_SHAPES = cause("error.shapes")
ERROR_NONE = cause("error.none")
ERROR_RECURSION = cause("error.recursion")
ERROR_INDEX = cause("error.index")
ERROR_INDEX_TYPE = cause("error.index_type")
ERROR_NAME = cause("error.name")
ERROR_MEMORY = cause("error.memory")
ERROR_PROCESS = cause("error.process")

# --- the chapter's formulas


FORMULA_ID = "formula."
"""The start of the id of each of the chapter's formulas (``formula``)."""


def formula(id: str) -> Text:
    """A formula of the chapter, as the ``Text`` a failure ends with."""
    return text(f"{FORMULA_ID}{_an_id(id)}")


def is_formula(words: Text) -> bool:
    """Whether ``words``, the last line of a failure, is one of the chapter's formulas (declared by ``formula``), not
    a hint: a failure labels it "The formula" or "Hint" by its id."""
    return words.id.startswith(FORMULA_ID)


LINEAR_FORWARD_FORMULA = formula("linear_forward")
LINEAR_DX_FORMULA = formula("linear_dx")
LINEAR_DW_FORMULA = formula("linear_dw")
LINEAR_DB_FORMULA = formula("linear_db")
RELU_FORWARD_FORMULA = formula("relu_forward")
RELU_BACKWARD_FORMULA = formula("relu_backward")
CROSS_ENTROPY_FORMULA = formula("cross_entropy")
CROSS_ENTROPY_GRAD_FORMULA = formula("cross_entropy_grad")
SGD_FORMULA = formula("sgd")
MLP_FORWARD_FORMULA = formula("mlp_forward")
MLP_BACKWARD_FORMULA = formula("mlp_backward")

# --- what ``python nn_public.py NOTEBOOK`` says around the failed cells: nbgrader validate's own words, in English

VALIDATE_FAILED_CELL = text("validate.failed_cell")
VALIDATE_ERROR_WAS = text("validate.error_was")
VALIDATE_CHANGED_CELL = text("validate.changed_cell")
VALIDATE_TYPE_CHANGED_CELL = message("validate.type_changed_cell")
VALIDATE_SUCCESS = text("validate.success")
VALIDATE_FAILED = message("validate.failed")
VALIDATE_CHANGED = message("validate.changed")
VALIDATE_TYPE_CHANGED = message("validate.type_changed")

# --- what the notebook shows besides the checks: the training cell, its plots and the MNIST loader

TRAINING_SKIPPED = message("training_skipped")
TRAIN_CHECKS_FAILED = message("train_checks_failed")
TRAIN_CHECKS_NOT_RUN = message("train_checks_not_run")
TRAINING_ON = message("training_on")
EPOCH_PROGRESS = message("epoch_progress")  # the progress bar's text before it
STEP_UNIT = message("step_unit")
LOSS_SO_FAR = message("loss_so_far")
EPOCH_DONE = message("epoch_done")
STEP_AXIS = message("step_axis")
LOSS_AXIS = message("loss_axis")
LOSS_TITLE = message("loss_title")
DIGITS_TITLE = message("digits_title")
WRONG_DIGIT = message("wrong_digit")

# the MNIST loader's errors (mnist_data.MnistDataError: each line one message)
MNIST_UNREADABLE = message("mnist_unreadable")
MNIST_TRUNCATED = message("mnist_truncated")
MNIST_NOT_GZIP = message("mnist_not_gzip")
MNIST_NO_HEADER = message("mnist_no_header")
MNIST_WRONG_MAGIC = message("mnist_wrong_magic")
MNIST_SWAPPED_MAGIC = message("mnist_swapped_magic")
MNIST_IMAGES = text("mnist_images")
MNIST_LABELS = text("mnist_labels")
MNIST_DATA_TYPE = message("mnist_data_type")
MNIST_IMAGE_SIZE = message("mnist_image_size")
MNIST_ITEMS = message("mnist_items")
MNIST_SHORT_DATA = message("mnist_short_data")
MNIST_TRAILING = message("mnist_trailing")
MNIST_BAD_LABEL = message("mnist_bad_label")
MNIST_MISMATCH = message("mnist_mismatch")
MNIST_SPLIT_SIZE = message("mnist_split_size")
MNIST_TRAIN_SPLIT = text("mnist_train_split")
MNIST_TEST_SPLIT = text("mnist_test_split")
MNIST_DIR_ARGUMENT = message("mnist_dir_argument")
MNIST_DIR_GIVEN = message("mnist_dir_given")
MNIST_DIR_ENV = message("mnist_dir_env")
MNIST_ADVICE_ARGUMENT = message("mnist_advice_argument")
MNIST_ADVICE_GIVEN = message("mnist_advice_given")
MNIST_ADVICE_ENV = message("mnist_advice_env")
MNIST_NOT_A_DIRECTORY = message("mnist_not_a_directory")
MNIST_NO_DIRECTORY = message("mnist_no_directory")
MNIST_LACKS = message("mnist_lacks")
MNIST_MISSING_FILE = message("mnist_missing_file")
MNIST_MISSING_UNZIPPED = message("mnist_missing_unzipped")
MNIST_CANNOT_LOAD_FROM = message("mnist_cannot_load_from")
MNIST_NOT_OFFICIAL = message("mnist_not_official")
MNIST_CHECKSUM = message("mnist_checksum")
MNIST_DOWNLOAD_FAILED = message("mnist_download_failed")
MNIST_MIRROR_FAILED = message("mnist_mirror_failed")
MNIST_NO_MIRRORS = text("mnist_no_mirrors")
MNIST_OFFLINE_ADVICE = message("mnist_offline_advice")
MNIST_CACHE_DAMAGED = message("mnist_cache_damaged")
MNIST_CACHE_MISSING = message("mnist_cache_missing")
MNIST_CACHE_MISSING_REJECTED = message("mnist_cache_missing_rejected")
MNIST_DOWNLOAD_OFF = message("mnist_download_off")
MNIST_CACHE_UNWRITABLE = message("mnist_cache_unwritable")
MNIST_CACHE_ADVICE = message("mnist_cache_advice")
