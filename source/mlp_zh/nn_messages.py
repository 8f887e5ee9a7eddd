"""Every message a check can show, declared once by id, with each language's wording side by side.

A message is data until someone reads it: a ``Text`` is a message's id and its fields (numbers, shapes, code, or other
``Text``), and ``render`` turns it into words in a language. ``Failure`` is a failed check as data: the message, the
likely cause and the formula. ``CheckFailed`` carries one; a notebook shows it in the edition's language
(``nn_i18n.LANGUAGE``), ``str()`` of it is English.

Adding a message: declare it here with ``message(id, en=..., zh=...)``; the grader's own messages are declared the same
way in the grader. Adding a language: a keyword of ``message`` and its wording for every message
(``tests/test_messages.py`` proves that every message has every language).
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

LANGUAGES = ("en", "zh")
"""The languages every message is written in."""

Field = Any
"""A field of a ``Text``: a ``Text`` (rendered in the same language), a list of fields (rendered one by one and joined
as the language lists things), or a raw value (code, numbers, shapes, a type name) shown as ``str(value)`` in every
language."""

LIST_WORDS = {"en": {"list": ", ", "and": ", "}, "zh": {"list": "、", "and": " 和 "}}
"""How a language joins the items of a list: a plain list, and before the last item of ``ALL_OF`` (English keeps the
comma lists its checks always showed; a space beside a Chinese word is dropped as in templates)."""

SPACE_BESIDE_WIDE = {"en": " ", "zh": ""}
"""What a space in a template between a field and a wide (Chinese, full-width) character becomes, when the other side
is wide too: a template sets its fields off by spaces ("应为 {expected}"), which Chinese typography keeps beside
Latin letters, code and numbers ("应为 0.5") and drops between two Chinese characters ("应为形状 (3, 2)")."""


@dataclass(frozen=True)
class Message:
    """One message: its id and its template in each language (``{name}`` stands for the field ``name``)."""

    id: str
    en: str
    zh: str

    def __call__(self, **fields: Field) -> Text:
        """This message with its fields: a ``Text``."""
        return Text(self.id, fields)

    def template(self, language: str) -> str:
        return getattr(self, language)


CATALOGUE: dict[str, Message] = {}
"""Every declared message by id: these helpers' own, and the grader's when it is loaded."""


def message(id: str, en: str, zh: str) -> Message:
    """Declare a message (once: a second declaration of an id is a mistake in the catalogue)."""
    if id in CATALOGUE and CATALOGUE[id] != Message(id, en, zh):
        raise ValueError(f"the message id {id!r} is declared twice")
    CATALOGUE[id] = Message(id, en, zh)
    return CATALOGUE[id]


def text(id: str, en: str, zh: str) -> Text:
    """Declare a message without fields and call it: the ``Text`` of a cause, a label or a phrase."""
    return message(id, en=en, zh=zh)()


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
    template = CATALOGUE[text.id].template(language if language in LANGUAGES else "en")
    values = {name: render(value, language) for name, value in text.fields.items()}
    space = SPACE_BESIDE_WIDE.get(language, " ")
    if space == " ":
        return template.format_map(values)
    words = ""
    for literal, name, spec, conversion in string.Formatter().parse(template):
        words = _joined(words, literal, space)
        if name is not None:
            value = values[name] if conversion is None else repr(values[name])
            words = _joined(words, format(value, spec or ""), space)
    return words


def _listed(items: list[str], language: str, kind: str) -> str:
    """``items`` joined as ``language`` lists things (``LIST_WORDS``): the last with the word of ``kind``."""
    words = LIST_WORDS.get(language, LIST_WORDS["en"])
    space = SPACE_BESIDE_WIDE.get(language, " ")
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
            lines.append(render(THE_FORMULA(formula=self.formula), language))
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


LIKELY_CAUSE = message("likely_cause", en="  Likely cause: {cause}.", zh="  可能的原因：{cause}。")
THE_FORMULA = message("the_formula", en="  The formula: {formula}", zh="  公式：{formula}")
PASSED = message("passed", en="{part}: public checks passed.", zh="{part}：公开检查全部通过。")
NO_CHINESE_FONT = message(
    "no_chinese_font",
    en="No Chinese font found: the plots' Chinese labels show as boxes (install one, e.g. Noto Sans CJK SC).",
    zh="没有找到中文字体：图中的中文标签会显示为方框（请安装一种中文字体，例如 Noto Sans CJK SC）。",
)

ALL_OF = message("list.and", en="{items}", zh="{items}")
"""A list whose items all count ("W2 和 b2"): ``ALL_OF(items=[...])``, joined by ``LIST_WORDS``."""
_CONJUNCTIONS = {ALL_OF.id: "and"}

# --- the sentence of a failure: what was checked, and what went wrong
EXPECTED_GOT = message(
    "expected_got", en="{what}: expected {expected}, got {got}.", zh="{what}：应为 {expected}，实际为 {got}。"
)
RAISED = message("raised", en="{what} raised {exception}: {message}", zh="{what} 抛出了 {exception}：{message}")
RAISED_AT = message(
    "raised_at",
    en="{what} raised {exception}: {message}\n  in your code: `{line}`",
    zh="{what} 抛出了 {exception}：{message}\n  出错的代码：`{line}`",
)
SHAPES_MATMUL = message(
    "shapes.matmul",
    en="in a matrix product `A @ B`, the last axis of A has {left} entries and the first axis of B has {right}: they "
    "must be equal\n  NumPy's words: {numpy}",
    zh="矩阵乘积 `A @ B` 中，A 的最后一维长 {left}，B 的第一维长 {right}，两者应当相等\n  NumPy 的原文：{numpy}",
)
"""NumPy's matmul error, explained from what it says (the two sizes that differ)."""
SHAPES_DOT = message(
    "shapes.dot",
    en="in a matrix product of arrays of shapes {left} and {right}, the last axis of the first and the first axis of "
    "the second must have the same length\n  NumPy's words: {numpy}",
    zh="形状为 {left} 和 {right} 的两个数组做矩阵乘积，第一个的最后一维与第二个的第一维长度应当相同\n"
    "  NumPy 的原文：{numpy}",
)
SHAPES_BROADCAST = message(
    "shapes.broadcast",
    en="an elementwise operation (+, -, *, / or a NumPy function) on arrays of shapes {shapes}, which do not "
    "broadcast together\n  NumPy's words: {numpy}",
    zh="对形状为 {shapes} 的数组做逐元素运算（+、-、*、/ 或 NumPy 函数），这些形状无法广播到一起\n"
    "  NumPy 的原文：{numpy}",
)
SHAPES_OUTPUT = message(
    "shapes.output",
    en="an in-place operation (such as += or out=) writes a result of shape {result} into an array of shape "
    "{target}\n  NumPy's words: {numpy}",
    zh="原地运算（例如 += 或 out=）要把形状为 {result} 的结果写入形状为 {target} 的数组\n  NumPy 的原文：{numpy}",
)
NOT_WRITTEN = message(
    "not_written",
    en="{what}: `{method}` is not written yet.\n"
    "  Write it in place of `raise NotImplementedError()`, run its cell, then this check again.",
    zh="{what}：`{method}` 还没有实现。\n"
    "  请在 `raise NotImplementedError()` 的位置写上你的代码，运行它所在的单元格，然后再运行这项检查。",
)
EXPECTED_UNCHANGED = message(
    "expected_unchanged", en="{what}: expected it unchanged, got it changed", zh="{what}：应保持不变，实际被修改了"
)
PARAMETERS_DIFFER = message(
    "parameters_differ",
    en="{what}: expected the Parameters {names} with shapes {shapes}, got {count} arrays with shapes {found}.",
    zh="{what}：应为参数 {names}，形状依次为 {shapes}；实际为 {count} 个数组，形状依次为 {found}。",
)
LAYERS_RAN = message(
    "layers_ran", en="{model}: the layers ran in the order {calls}", zh="{model} 实际调用各层的顺序为 {calls}"
)

# --- what was checked
PART_OF = message("part_of", en="{what}: {part}", zh="{what}，{part}")
YOUR_PART = message("your_part", en="Your {part}", zh="你的 {part}")
FD_CHECK = message("fd_check", en="{what} (finite-difference check)", zh="{what}（有限差分检查）")
ON_EXAMPLE = message("on_example", en="{call} on the worked example", zh="{call}（示例）")
ON_HUGE_LOGITS = message("on_huge_logits", en="{call} on logits of ±1000", zh="{call}（logits 为 ±1000）")
TARGETS_UNDERFLOW = message(
    "targets_underflow",
    en="{call} with targets at probability exp(-800)",
    zh="{call}（真实标签类别的概率为 exp(-800)）",
)
ON_INPUT = message("on_input", en="{call} on {h}", zh="{call}（输入为 {h}）")
ON_FLOAT64_INPUT = message("on_float64_input", en="{call} on float64 {h}", zh="{call}（输入为 float64 的 {h}）")
WITH_GRAD = message("with_grad", en="{call} with grad {g}", zh="{call}（grad 为 {g}）")
AFTER_EARLIER_WITH_GRAD = message(
    "after_earlier_with_grad",
    en="{call} on {h} (after an earlier forward) with grad {g}",
    zh="{call}（输入为 {h}，之前已调用过一次 forward，grad 为 {g}）",
)
FOR_X_SHAPE = message("for_x_shape", en="{call} for x of shape {shape}", zh="{call}（x 的形状为 {shape}）")
FOR_FLOAT64_XWB = message("for_float64_xwb", en="{call} for float64 x, W, b", zh="{call}（x、W、b 为 float64）")
FOR_FLOAT32_X = message("for_float32_x", en="{call} for float32 x", zh="{call}（x 为 float32）")
FOR_FLOAT64_INPUTS = message("for_float64_inputs", en="{call} for float64 inputs", zh="{call}（输入为 float64）")
FOR_FLOAT64_GRAD = message("for_float64_grad", en="{call} for float64 grad", zh="{call}（grad 为 float64）")
FOR_FLOAT64_LOGITS = message("for_float64_logits", en="{call} for float64 logits", zh="{call}（logits 为 float64）")
FOR_LOGITS_SHAPE = message(
    "for_logits_shape", en="{call} for logits of shape {shape}", zh="{call}（logits 的形状为 {shape}）"
)
AFTER_STALE_FORWARD = message(
    "after_stale_forward",
    en="{call} after forward(x_stale), forward(x)",
    zh="{call}（先调用 forward(x_stale)，再调用 forward(x)）",
)
RETURNED_DX = message("returned_dx", en="{call}, the returned dX", zh="{call} 返回的 dX")
SGD_AFTER_STEPS = message(
    "sgd_after_steps",
    en="{call} with lr={lr}, the .grad of parameter {index} None, after {steps} step(s)",
    zh="{call}（lr={lr}，参数 {index} 的 .grad 为 None）执行 {steps} 步之后",
)
SGD_PARAMETER = message(
    "sgd_parameter", en="{after}: parameter {index} of shape {shape}", zh="{after}，形状为 {shape} 的参数 {index}"
)
ITS_GRAD = message("its_grad", en="{what}: its .grad", zh="{what} 的 .grad")
NAMED_GRAD = message("named_grad", en="{call}: {name}.grad", zh="{call} 之后的 {name}.grad")
LAYER_UNCHECKED = message(
    "layer_unchecked",
    en="{model}: not checked, because it runs your {layer}, whose public check fails.",
    zh="{model}：没有检查，因为它运行的是你的 {layer}，而 {layer} 的公开检查没有通过。",
)

# --- what was expected, what came
A_NUMPY_ARRAY = message("a_numpy_array", en="a NumPy array", zh="一个 NumPy 数组")
KIND_VALUE = message("kind_value", en="{kind} {value}", zh="{kind} 类型的值 {value}")
FLOAT_DTYPE = message("float_dtype", en="a floating-point dtype", zh="浮点类型（dtype）")
DTYPE = message("dtype", en="dtype {dtype}", zh="dtype {dtype}")
ONLY_FINITE = message("only_finite", en="only finite numbers", zh="只含有限数的结果")
NAN_ENTRIES = message(
    "nan_entries",
    en="{count} NaN/inf entries (first at index {index})",
    zh="含有 {count} 个 NaN/inf 元素的结果（第一个位于索引 {index}）",
)
NOT_FINITE_VALUE = message("not_finite_value", en="the value {value}", zh="值 {value}")
SHAPE = message("shape", en="shape {shape}", zh="形状 {shape}")
VALUE_AT_INDEX = message(
    "value_at_index",
    en="{value} at index {index} (relative error at most {tolerance})",
    zh="索引 {index} 处的值 {value}（相对误差不超过 {tolerance}）",
)
VALUE_WITHIN = message(
    "value_within", en="{value} (relative error at most {tolerance})", zh="{value}（相对误差不超过 {tolerance}）"
)
BAND_AT_INDEX = message(
    "band_at_index",
    en="{value} at index {index} (relative error at most {tolerance}; {accepted} between {low} and {high})",
    zh="索引 {index} 处的值 {value}（相对误差不超过 {tolerance}；{accepted}{low} 与 {high} 之间的值都可以）",
)
BAND = message(
    "band",
    en="{value} (relative error at most {tolerance}; {accepted} between {low} and {high})",
    zh="{value}（相对误差不超过 {tolerance}；{accepted}{low} 与 {high} 之间的值都可以）",
)
EPS_IN_LOG = message(
    "eps_in_log", en="with an eps of at most {eps} in the log, anything", zh="由于 log 中允许加上不超过 {eps} 的 eps，"
)
VALUE_ERROR = message("value_error", en="{value}, relative error {error}", zh="{value}，相对误差为 {error}")
KEEP_ITS_SHAPE = message(
    "keep_its_shape",
    en="the array it was given to keep its shape {shape}",
    zh="传入数组原来的形状 {shape}（传入的数组应保持不变）",
)
STAY_UNCHANGED = message(
    "stay_unchanged",
    en="the array it was given to stay unchanged ({value} at index {index})",
    zh="传入数组在索引 {index} 处原来的值 {value}（传入的数组应保持不变）",
)
ONE_FLOAT = message(
    "one_float",
    en="one floating-point number (the mean loss: a Python float or a NumPy scalar)",
    zh="一个浮点数（平均损失：Python float 或 NumPy 标量）",
)
KIND_SHAPE = message("kind_shape", en="{kind} of shape {shape}", zh="形状为 {shape} 的 {kind}")
KIND_SHAPE_DTYPE = message(
    "kind_shape_dtype", en="{kind} of shape {shape} and dtype {dtype}", zh="形状为 {shape}、dtype 为 {dtype} 的 {kind}"
)
SAME_OBJECTS = message(
    "same_objects",
    en="optimizer.params to hold the same Parameter objects",
    zh="optimizer.params 中原来的那些 Parameter 对象",
)
OTHER_OBJECTS = message("other_objects", en="other objects", zh="其他对象")
REMAIN_PARAMETERS = message(
    "remain_parameters", en="optimizer.params to remain Parameters", zh="optimizer.params 中的 Parameter 对象"
)
OTHER_ARRAYS = message("other_arrays", en="other arrays", zh="其他数组")
LEAVE_GRAD = message("leave_grad", en="step to leave .grad as it was", zh="step 之前的 .grad（step 不应修改它）")
LEAVE_GRAD_NONE = message("leave_grad_none", en="step to leave .grad None", zh="None（step 应让 .grad 保持为 None）")
AN_ARRAY = message("an_array", en="an array", zh="一个数组")
IT_CHANGED = message("it_changed", en="it changed", zh="被修改过的 .grad")

# --- likely causes: each names one mistake, and is counted by its id in the class report


LINEAR_GIVEN = text(  # the public and the hidden Linear checks
    "linear.given_init",
    en="Linear.__init__ is given code: keep W of shape (in_features, out_features) and b of shape (out_features,)",
    zh="Linear.__init__ 是给定的代码：保持 W 的形状为 (in_features, out_features)，b 的形状为 (out_features,)",
)
"""A W or b of another shape than the given ``__init__`` makes."""


def cause(id: str, en: str, zh: str) -> Text:
    """A likely cause (a message without fields), as the ``Text`` the checks name."""
    return text(f"cause.{id}", en=en, zh=zh)


RETURNED_NONE = cause(
    "returned_none",
    en="the method returned None: a missing `return`, or `return` without a value",
    zh="方法返回了 None：缺少 `return`，或 `return` 后面没有值",
)
GRAD_NOT_SET = message(
    "cause.grad_not_set",
    en="{attribute} was never set: {method} must store the gradient there (`self.{attribute} = ...`)",
    zh="{attribute} 从未被设置：{method} 必须把梯度存入其中（`self.{attribute} = ...`）",
)
MLP_GRAD_UNSET = message(
    "cause.mlp.grad_unset",
    en="{attribute} is None after MLP.backward, though {layer}.backward ran and sets it: MLP.backward must not reset "
    "the gradients its layers store",
    zh="MLP.backward 之后 {attribute} 为 None，但 {layer}.backward 已经运行并设置了它："
    "MLP.backward 不能清除各层存入的梯度",
)
FIX_LAYER_FIRST = message(
    "cause.fix_layer_first",
    en="fix `{method}` first (the public check of {layer} fails there); the MLP check runs your own layers",
    zh="请先修正 `{method}`（{layer} 的公开检查在这个方法上没有通过）；MLP 的检查运行的是你自己的层",
)
FIX_CLASS_FIRST = message(
    "cause.fix_class_first",
    en="fix `{layer}` first (its public check fails); the MLP check runs your own layers",
    zh="请先修正 `{layer}`（它的公开检查没有通过）；MLP 的检查运行的是你自己的层",
)
CAST_CHANGED_PRECISION = cause(
    "cast_changed_precision",
    en="a cast changed the precision; keep the dtype of the inputs",
    zh="类型转换改变了精度；请保持输入的 dtype",
)
CHANGED_IN_PLACE = cause(
    "changed_in_place",
    en="the method changed the array it was given, in place (such as `np.maximum(x, 0, out=x)`, `x[x < 0] = 0` or "
    "`grad *= mask`); build a new array instead",
    zh="方法原地修改了传入的数组（例如 `np.maximum(x, 0, out=x)`、`x[x < 0] = 0` 或 `grad *= mask`）；"
    "请改为构造一个新数组",
)
NO_BIAS = cause(
    "linear.no_bias", en="the bias is not added (Y = X W, without + b)", zh="没有加上偏置（Y = X W，缺少 + b）"
)
W_TRANSPOSED = cause(
    "linear.w_transposed",
    en="W is transposed (Y = X Wᵀ + b); W already has shape (D_in, D_out)",
    zh="W 被转置了（Y = X Wᵀ + b）；W 的形状本来就是 (D_in, D_out)",
)
DX_NOT_TRANSPOSED = cause("linear.dx_not_transposed", en="dX = G W: W is not transposed", zh="dX = G W：W 没有转置")
DX_OVER_BATCH = cause(
    "linear.dx_over_batch",
    en="dX divided by the batch size (the loss already averages; dX is a plain product)",
    zh="dX 除以了 batch 大小 B（损失已经取过平均；dX 就是一个普通的矩阵乘积）",
)
DW_TRANSPOSED = cause(
    "linear.dw_transposed", en="dW = Gᵀ X: the product is transposed", zh="dW = Gᵀ X：乘积的顺序反了（结果被转置）"
)
DW_OVER_BATCH = cause(
    "linear.dw_over_batch",
    en="dW divided by the batch size (the loss already averages; dW is a plain sum over the batch)",
    zh="dW 除以了 batch 大小 B（损失已经取过平均；dW 就是在 batch 维度上的普通求和）",
)
DW_STALE_INPUT = cause(
    "linear.dw_stale_input",
    en='dW uses the input of an earlier forward call: forward must save its latest input, `self.ctx["x"] = x`, on '
    "every call",
    zh='dW 用了更早一次 forward 调用的输入：forward 每次调用都必须保存最新的输入，`self.ctx["x"] = x`',
)
DB_NOT_SUMMED = cause(
    "linear.db_not_summed", en="db = G, not summed over the batch", zh="db = G，没有在 batch 维度上求和"
)
DB_KEEPDIMS = cause(
    "linear.db_keepdims",
    en="db has shape (1, D_out): the sum kept the batch axis (keepdims=True); b has shape (D_out,)",
    zh="db 的形状为 (1, D_out)：求和时保留了 batch 维度（keepdims=True），而 b 的形状是 (D_out,)",
)
DB_WRONG_AXIS = cause(
    "linear.db_wrong_axis",
    en="db summed over the features (axis=1) instead of the batch (axis=0)",
    zh="db 在特征维度（axis=1）上求和，而不是在 batch 维度（axis=0）上",
)
DB_MEAN = cause(
    "linear.db_mean",
    en="db averaged over the batch (mean) instead of summed",
    zh="db 在 batch 维度上取了平均（mean），而不是求和",
)
DB_ONE_NUMBER = cause(
    "linear.db_one_number",
    en="db is one number, summed over every axis (or squeezed); sum over the batch axis only (axis=0), which "
    "keeps the shape (D_out,)",
    zh="db 成了一个数，因为在所有轴上求了和（或被 squeeze 了）；只应在 batch 维度（axis=0）上求和，"
    "这样形状保持为 (D_out,)",
)
RELU_MAX_REDUCTION = cause(
    "relu.max_reduction",
    en="np.max(x, 0) is a reduction (the largest entry of each column), not the elementwise np.maximum(x, 0)",
    zh="np.max(x, 0) 是归约（取每列的最大元素），不是逐元素的 np.maximum(x, 0)",
)
RELU_NEGATIVE_PART = cause(
    "relu.negative_part",
    en="the negative part kept instead of the positive part (min instead of max)",
    zh="保留了负的部分而不是正的部分（用了 min 而不是 max）",
)
RELU_MASK_AT_ZERO = cause(
    "relu.mask_at_zero",
    en="mask 1(H ≥ 0): the gradient at exactly H = 0 must be 0, use `x > 0`",
    zh="掩码用了 1(H ≥ 0)：在不可导点 H = 0 处梯度必须取 0，请用 `x > 0`",
)
RELU_TIMES_OUTPUT = cause(
    "relu.times_output",
    en="G multiplied by the output max(H, 0) instead of by the mask 1(H > 0)",
    zh="上游梯度 G 乘的是输出 max(H, 0)，而不是掩码 1(H > 0)",
)
RELU_MASK_FROM_G = cause(
    "relu.mask_from_g",
    en="the mask taken from the gradient G instead of from the input H",
    zh="掩码取自上游梯度 G，而不是输入 H",
)
RELU_STALE_MASK = cause(
    "relu.stale_mask",
    en="the mask comes from an earlier forward call: forward must save what backward needs on every call",
    zh="掩码来自更早一次 forward 调用：forward 每次调用都必须保存 backward 需要的内容",
)
RELU_NO_MASK = cause(
    "relu.no_mask", en="no mask: backward returns G unchanged", zh="没有用掩码：backward 原样返回了上游梯度 G"
)
NO_MAX_SHIFT = cause(
    "loss.no_max_shift",
    en="softmax without subtracting each row's max first: exp of a large logit overflows to inf, which turns "
    "probabilities into NaN or 0",
    zh="softmax 之前没有先减去每行的最大值：大的 logit 取 exp 会溢出为 inf，使概率变成 NaN 或 0",
)
LOG_OF_ZERO = cause(
    "loss.log_of_zero",
    en="the log of a probability that underflowed to 0 (log 0 = −inf): compute log softmax as "
    "(z − m) − log Σ exp(z − m), or add an eps of at most 1e-07 inside the log",
    zh="对下溢为 0 的概率取了 log（log 0 = −inf）：请用 (z − m) − log Σ exp(z − m) 计算 log softmax，"
    "或在 log 中加上不超过 1e-07 的 eps",
)
DIVIDES_BY_ZERO = cause(
    "loss.divides_by_zero",
    en="the gradient divides by a probability that underflowed to 0 (the derivative of the log taken literally): "
    "use dZ = (softmax(Z) − onehot(y)) / B",
    zh="梯度除以了一个下溢为 0 的概率（照字面对 log 求导）：请用 dZ = (softmax(Z) − onehot(y)) / B",
)
OVER_BATCH = cause(
    "loss.over_batch",
    en="softmax normalised over the batch axis (axis=0) instead of over each row's classes (axis=1)",
    zh="softmax 在 batch 维度（axis=0）上归一化，而不是在每一行的类别（axis=1）上",
)
LOSS_SUMMED = cause(
    "loss.summed",
    en="the loss is summed over the batch, not averaged (B times too large)",
    zh="损失在 batch 维度上求和而没有取平均（大了 B 倍）",
)
LOSS_SIGN = cause(
    "loss.sign",
    en="the loss has the wrong sign: the minus of −log softmax is missing",
    zh="损失的符号错了：−log softmax 中的负号漏掉了",
)
DZ_NOT_OVER_B = cause(
    "loss.dz_not_over_b",
    en="dZ is not divided by B (the loss is a mean over the batch)",
    zh="dZ 没有除以 B（损失是 batch 中 B 个样本的平均）",
)
DZ_EVERY_ROW = cause(
    "loss.dz_every_row",
    en="the one-hot subtracted with grad[:, y] (every row, at every target column) instead of grad[np.arange(B), y]",
    zh="用 grad[:, y] 减去独热向量（每一行在所有标签所在的列上都减了），应为 grad[np.arange(B), y]",
)
DZ_NO_ONEHOT = cause(
    "loss.dz_no_onehot",
    en="the one-hot of the targets is not subtracted: dZ = softmax(Z) / B",
    zh="没有减去真实标签的独热向量：dZ = softmax(Z) / B",
)
DZ_SIGN = cause(
    "loss.dz_sign",
    en="dZ has the wrong sign: softmax(Z) − onehot(y), not onehot(y) − softmax(Z)",
    zh="dZ 的符号错了：应为 softmax(Z) − onehot(y)，而不是 onehot(y) − softmax(Z)",
)
DZ_FROM_LOGITS = cause(
    "loss.dz_from_logits",
    en="dZ computed from the logits instead of their softmax",
    zh="dZ 是用 logits 而不是它们的 softmax 算的",
)
PER_SAMPLE_LOSSES = cause(
    "loss.per_sample",
    en="the per-sample losses are returned instead of their mean over the batch, e.g. `losses.mean()`",
    zh="返回的是每个样本的损失，而不是它们在 batch 上的平均，例如 `losses.mean()`",
)
LOSS_SHAPE_ONE = cause(
    "loss.shape_one",
    en="an array of shape (1,) is returned where one number is expected (the per-sample losses, or a mean that kept "
    "an axis); return a scalar, e.g. `losses.mean()` over every axis or `float(...)`",
    zh="应返回一个数，却返回了形状为 (1,) 的数组（每个样本的损失，或保留了一个轴的平均）；请返回标量，"
    "例如在所有轴上求 `losses.mean()`，或 `float(...)`",
)
LOSS_ONE_NUMBER_ARRAY = message(
    "cause.loss.one_number_array",
    en="the loss is returned as an array of shape {shape} holding one number; return a scalar, e.g. `float(loss)` or "
    "`loss.item()`, or average over every axis",
    zh="损失以形状为 {shape}、只含一个数的数组返回；请返回标量，例如 `float(loss)` 或 `loss.item()`，"
    "或在所有轴上取平均",
)
LOSS_NOT_FLOAT = cause(
    "loss.not_float",
    en="the loss is not a floating-point number (an integer or boolean result)",
    zh="损失不是浮点数（结果是整数或布尔值）",
)
SGD_ASCENT = cause(
    "sgd.ascent",
    en="the sign is flipped: θ + η ∂L/∂θ climbs the loss (gradient ascent)",
    zh="符号反了：θ + η ∂L/∂θ 会让损失上升（梯度上升）",
)
SGD_LR_TWICE = cause(
    "sgd.lr_twice", en="the learning rate is applied twice (η² ∂L/∂θ)", zh="学习率乘了两次（η² ∂L/∂θ）"
)
SGD_NO_LR = cause(
    "sgd.no_lr",
    en="the learning rate is missing (θ − ∂L/∂θ); use self.lr",
    zh="漏掉了学习率（θ − ∂L/∂θ）；请使用 self.lr",
)
SGD_NOTHING_MOVED = cause(
    "sgd.nothing_moved",
    en="no parameter array changed in any step: the update was computed but not written into the arrays "
    "(`p = p - ...` rebinds the loop variable to a new array); update in place with `p -= ...`",
    zh="没有一个参数数组在任何一步中改变：更新算出来了，但没有写回数组"
    "（`p = p - ...` 只是把循环变量绑定到一个新数组）；请用 `p -= ...` 原地更新",
)
SGD_STOPS = cause(
    "sgd.stops",
    en="the loop stops at the first parameter whose .grad is None (`break` or `return`): the parameters after it are "
    "never updated; skip that one parameter with `continue`",
    zh="循环在第一个 .grad 为 None 的参数处停止了（`break` 或 `return`）：它后面的参数都没有被更新；请用 `continue` "
    "只跳过这一个参数",
)
SGD_SKIP_NONE = cause(
    "sgd.skip_none",
    en="a parameter whose .grad is None is not skipped: `if p.grad is None: continue` (zero_grad sets .grad to None)",
    zh="没有跳过 .grad 为 None 的参数：`if p.grad is None: continue`（zero_grad 会把 .grad 设为 None）",
)
SGD_REPLACED = cause(
    "sgd.replaced",
    en="step replaced the list's entries; update each array in place instead",
    zh="step 替换了列表中的元素；请改为原地更新每个数组",
)
SGD_SETS_GRAD = cause(
    "sgd.sets_grad",
    en="step gave .grad to a parameter that had none; skip it and leave its .grad None (only backward sets it)",
    zh="step 给一个没有梯度的参数设置了 .grad；应跳过它，让它的 .grad 保持为 None（只有 backward 设置 .grad）",
)
SGD_NOT_FLOAT32 = cause(
    "sgd.not_float32",
    en="the update must keep the parameter float32 (update in place)",
    zh="更新必须保持参数为 float32（原地更新）",
)
SGD_GRAD_CHANGED = cause(
    "sgd.grad_changed",
    en="step modified or cleared .grad; only zero_grad() clears it",
    zh="step 修改或清空了 .grad；只有 zero_grad() 才清空它",
)
MLP_NO_RELU = cause("mlp.no_relu", en="the ReLU is skipped: fc2(fc1(x))", zh="跳过了 ReLU：fc2(fc1(x))")
MLP_RELU_ON_LOGITS = cause(
    "mlp.relu_on_logits",
    en="the ReLU is also applied to the logits: the last layer is fc2, with no activation",
    zh="对 logits 也用了 ReLU：最后一层是 fc2，后面没有激活函数",
)
MLP_RETURNS_RELU_GRAD = cause(
    "mlp.returns_relu_grad",
    en="backward returns the gradient after relu.backward instead of what fc1.backward returns",
    zh="backward 返回的是 relu.backward 之后的梯度，而不是 fc1.backward 的返回值",
)
BACKWARD_STARTED = message(
    "cause.mlp.backward_started",
    en="backward started with {layer}: it must run in reverse order, fc2 → relu → fc1",
    zh="backward 从 {layer} 开始：它必须按相反的顺序运行（fc2 → relu → fc1）",
)
RELU_NOT_CALLED_BACKWARD = cause(
    "mlp.relu_not_called_backward",
    en="the ReLU is skipped: relu.backward is not called, so the gradient does not pass through the ReLU",
    zh="跳过了 ReLU：没有调用 relu.backward，所以梯度没有经过 ReLU",
)
RELU_NOT_CALLED_FORWARD = cause(
    "mlp.relu_not_called_forward",
    en="the ReLU is skipped: relu is never called in forward",
    zh="跳过了 ReLU：forward 中从未调用 relu",
)
LAYER_ORDER = message(
    "cause.mlp.layer_order",
    en="{direction} calls the layers in the order {seen}; expected {order}",
    zh="{direction} 调用各层的顺序为 {seen}，应为 {order}",
)
PARAMETERS_MISS = message(
    "cause.mlp.parameters_miss",
    en="parameters() misses {names}: do not override parameters(); Module.parameters() finds every layer's Parameters",
    zh="parameters() 缺少 {names}：不要重写 parameters()；Module.parameters() 会找到每一层的 Parameter",
)
PARAMETERS_OTHER = cause(
    "mlp.parameters_other",
    en="parameters() yields other arrays or another order: do not override parameters(); Module.parameters() finds "
    "every layer's Parameters",
    zh="parameters() 给出的是其他数组或顺序不对：不要重写 parameters()；Module.parameters() 会找到每一层的 Parameter",
)

# --- causes of an exception, by its class
ERROR_NOT_IMPLEMENTED = cause(
    "error.not_implemented",
    en="this method is not written yet (it still raises NotImplementedError)",
    zh="这个方法还没有实现（它仍然抛出 NotImplementedError）",
)
ERROR_AXIS = cause(
    "error.axis",
    en="an axis the array does not have: an array lost an axis, usually the batch axis at B = 1 (np.squeeze, x[0] "
    "or .flatten() turn shape (1, C) into (C,)); keep every batch 2-D",
    zh="数组没有这个轴：某个数组少了一个轴，通常是 B = 1 时的 batch 维度（np.squeeze、x[0] 或 .flatten() 会把形状 "
    "(1, C) 变成 (C,)）；每个 batch 都要保持二维",
)
ERROR_UNBOUND = cause(
    "error.unbound_local",
    en="a local name used before it is assigned: it is assigned later in the method, or in a branch that did not run",
    zh="局部变量在赋值之前就被使用了：它在方法中更靠后的位置才赋值，或者在没有执行的分支里赋值",
)
ERROR_KEY = cause(
    "error.ctx_key",
    en="backward reads something from self.ctx that forward did not save: forward must store what backward needs, "
    'for example `self.ctx["x"] = x`, on every call',
    zh="backward 从 self.ctx 读取了 forward 没有保存的内容：forward 每次调用都必须保存 backward 需要的内容，例如 "
    '`self.ctx["x"] = x`',
)
ERROR_SHAPES = cause(
    "error.shapes",
    en="the shapes in a product or sum do not line up: write each operand's shape next to the formula",
    zh="乘积或求和中的形状对不上：把每个操作数的形状写在公式旁边核对",
)
ERROR_NONE = cause(
    "error.none",
    en="an operation on None: a method without `return`, or a .grad that was never set",
    zh="对 None 做了运算：某个方法缺少 `return`，或某个 .grad 从未被设置",
)
ERROR_RECURSION = cause(
    "error.recursion",
    en="a method calls itself, for example forward calling self(x) or self.forward(x)",
    zh="方法调用了它自己，例如 forward 中调用 self(x) 或 self.forward(x)",
)
ERROR_INDEX = cause(
    "error.index",
    en="an index out of range: check which axis you index (rows are samples, columns are classes or features)",
    zh="下标越界：检查你索引的是哪个轴（行是样本，列是类别或特征）",
)
ERROR_NAME = cause(
    "error.name",
    en="a name that is not defined: a typo, or a class whose cell did not run",
    zh="使用了未定义的名字：拼写错误，或某个类所在的单元格没有运行",
)
ERROR_MEMORY = cause(
    "error.memory",
    en="an array far too large: check the shapes of your intermediate results",
    zh="数组太大了：检查中间结果的形状",
)

# --- the chapter's formulas


def formula(id: str, en: str, zh: str) -> Text:
    """A formula of the chapter, as the ``Text`` a failure ends with."""
    return text(f"formula.{id}", en=en, zh=zh)


LINEAR_FORWARD_FORMULA = formula(
    "linear_forward",
    en="Y = X W + b: X (B, D_in) @ W (D_in, D_out), then b added to every row",
    zh="Y = X W + b：X (B, D_in) @ W (D_in, D_out)，再给每一行加上 b",
)
LINEAR_DX_FORMULA = formula(
    "linear_dx",
    en="dX = G Wᵀ, of shape (B, D_in); backward must `return` it",
    zh="dX = G Wᵀ，形状为 (B, D_in)；backward 必须 `return` 它",
)
LINEAR_DW_FORMULA = formula(
    "linear_dw",
    en="dW = Xᵀ G, of the shape of W (D_in, D_out), with X the input of the latest forward; store it in self.W.grad",
    zh="dW = Xᵀ G，形状与 W 相同 (D_in, D_out)，X 是最近一次 forward 的输入；把它存入 self.W.grad",
)
LINEAR_DB_FORMULA = formula(
    "linear_db",
    en="db_j = Σ_i G_ij: sum G over the batch axis (axis=0), so that db has the shape of b, (D_out,); store it in "
    "self.b.grad",
    zh="db_j = Σ_i G_ij：在 batch 维度（axis=0）上对 G 求和，使 db 的形状与 b 相同，为 (D_out,)；把它存入 self.b.grad",
)
RELU_FORWARD_FORMULA = formula(
    "relu_forward",
    en="ReLU(H) = max(H, 0) elementwise: np.maximum(x, 0), a new array of the shape of x",
    zh="ReLU(H) = max(H, 0) 逐元素计算：np.maximum(x, 0)，一个与 x 形状相同的新数组",
)
RELU_BACKWARD_FORMULA = formula(
    "relu_backward",
    en="dH = G ⊙ 1(H > 0): the mask comes from the input H of the latest forward and is 0 where H ≤ 0",
    zh="dH = G ⊙ 1(H > 0)：掩码来自最近一次 forward 的输入 H，在 H ≤ 0 处为 0",
)
CROSS_ENTROPY_FORMULA = formula(
    "cross_entropy",
    en="L = −(1/B) Σ_i log softmax(Z_i)[y_i]: subtract each row's max before exp, and average over the batch",
    zh="L = −(1/B) Σ_i log softmax(Z_i)[y_i]：取 exp 之前先减去每行的最大值，并在 batch 上取平均",
)
CROSS_ENTROPY_GRAD_FORMULA = formula(
    "cross_entropy_grad",
    en="G_Z = (Ŷ − Y) / B with Ŷ = softmax(Z) over each row (axis=1) and Y = onehot(y), from the Z and y of the "
    "latest forward",
    zh="G_Z = (Ŷ − Y) / B，其中 Ŷ = softmax(Z) 在每一行（axis=1）上计算，Y = onehot(y)，Z 和 y 来自最近一次 forward",
)
SGD_FORMULA = formula(
    "sgd",
    en="θ ← θ − η ∂L/∂θ for every parameter with a gradient, changing the array itself: `p -= self.lr * p.grad`",
    zh="θ ← θ − η ∂L/∂θ，对每个有梯度的参数原地修改数组本身：`p -= self.lr * p.grad`",
)
MLP_FORWARD_FORMULA = formula(
    "mlp_forward",
    en="logits = fc2(relu(fc1(x))): call the three layers in this order and return the last output",
    zh="logits = fc2(relu(fc1(x)))：按这个顺序调用三层，并返回最后的输出",
)
MLP_BACKWARD_FORMULA = formula(
    "mlp_backward",
    en="backward runs in reverse order: grad = fc2.backward(grad); grad = relu.backward(grad); "
    "return fc1.backward(grad)",
    zh="backward 按相反的顺序运行：grad = fc2.backward(grad); grad = relu.backward(grad); return fc1.backward(grad)",
)

# --- what the notebook shows besides the checks: the training cell, its plots and the MNIST loader

DIGIT_GROUP = {"en": ",", "zh": ""}
"""How a language groups the digits of a large count (60,000 in English, 60000 in Chinese)."""

TRAINING_SKIPPED = message(
    "training_skipped",
    en="Skipped while grading: the grader trains your MLP itself.",
    zh="评分时不运行这个单元格：评分程序会自己训练你的 MLP。",
)
TRAINING_ON = message(
    "training_on",
    en="Training on {images} images for {epochs} epochs: about 1–2 s per epoch for a correct MLP.",
    zh="在 {images} 张训练图像上训练 {epochs} 轮：正确的 MLP 每轮约需 1–2 秒。",
)
EPOCH_PROGRESS = message("epoch_progress", en="epoch {epoch}/{epochs}", zh="第 {epoch}/{epochs} 轮")
STEP_UNIT = message("step_unit", en="batch", zh="步")
LOSS_SO_FAR = message("loss_so_far", en="loss={loss}", zh="损失={loss}")
EPOCH_DONE = message(
    "epoch_done",
    en="epoch {epoch}: mean training loss {loss}, test accuracy {accuracy}",
    zh="第 {epoch} 轮：平均训练损失 {loss}，测试准确率 {accuracy}",
)
STEP_AXIS = message("step_axis", en="SGD step", zh="SGD 步数")
LOSS_AXIS = message("loss_axis", en="training loss (moving average of 50 steps)", zh="训练损失（50 步滑动平均）")
LOSS_TITLE = message("loss_title", en="Training loss", zh="训练损失")
DIGITS_TITLE = message(
    "digits_title",
    en="Test digits and your model's predictions (red: wrong, with the true label)",
    zh="测试数字及模型的预测（红色：预测错误，括号中为真实标签）",
)
WRONG_DIGIT = message("wrong_digit", en="{prediction} (is {label})", zh="{prediction}（应为 {label}）")

# the MNIST loader's errors (mnist_data.MnistDataError: each line one message)
MNIST_UNREADABLE = message(
    "mnist_unreadable", en="Could not read MNIST file {path}: {error}", zh="无法读取 MNIST 文件 {path}：{error}"
)
MNIST_TRUNCATED = message(
    "mnist_truncated",
    en="MNIST file {path} looks truncated (the gzip stream ends early: {error}); "
    "the download or copy was probably interrupted.",
    zh="MNIST 文件 {path} 似乎不完整（gzip 数据提前结束：{error}）；下载或复制可能被中断了。",
)
MNIST_NOT_GZIP = message(
    "mnist_not_gzip",
    en="MNIST file {path} looks corrupt (not a valid gzip file: {error}).",
    zh="MNIST 文件 {path} 似乎已损坏（不是有效的 gzip 文件：{error}）。",
)
MNIST_NO_HEADER = message(
    "mnist_no_header",
    en="MNIST file {path} is too short to hold its IDX header ({size} bytes).",
    zh="MNIST 文件 {path} 太短，装不下它的 IDX 文件头（只有 {size} 字节）。",
)
MNIST_WRONG_MAGIC = message(
    "mnist_wrong_magic",
    en="MNIST file {path} has magic number {magic}, expected {expected}; it is not the file its name says.",
    zh="MNIST 文件 {path} 的魔数为 {magic}，应为 {expected}；它不是文件名所说的那个文件。",
)
MNIST_SWAPPED_MAGIC = message(
    "mnist_swapped_magic",
    en="MNIST file {path} has magic number {magic} (that is the magic number of an MNIST {kind} file), expected "
    "{expected}; it is not the file its name says.",
    zh="MNIST 文件 {path} 的魔数为 {magic}（这是 MNIST {kind}文件的魔数），应为 {expected}；"
    "它不是文件名所说的那个文件。",
)
MNIST_IMAGES = text("mnist_images", en="images", zh="图像")
MNIST_LABELS = text("mnist_labels", en="labels", zh="标签")
MNIST_DATA_TYPE = message(
    "mnist_data_type",
    en="MNIST file {path}: unsupported IDX data type {code}.",
    zh="MNIST 文件 {path}：不支持的 IDX 数据类型 {code}。",
)
MNIST_IMAGE_SIZE = message(
    "mnist_image_size",
    en="MNIST file {path} holds {rows}x{cols} images, expected {size}x{size}.",
    zh="MNIST 文件 {path} 中的图像为 {rows}x{cols}，应为 {size}x{size}。",
)
MNIST_ITEMS = message(
    "mnist_items",
    en="MNIST file {path} holds {count} items, expected {expected}.",
    zh="MNIST 文件 {path} 有 {count} 项，应为 {expected} 项。",
)
MNIST_SHORT_DATA = message(
    "mnist_short_data",
    en="MNIST file {path} is too short: its header promises {expected} bytes of data but only {actual} follow "
    "(truncated file?).",
    zh="MNIST 文件 {path} 太短：文件头声明有 {expected} 字节数据，实际只有 {actual} 字节（文件不完整？）。",
)
MNIST_TRAILING = message(
    "mnist_trailing",
    en="MNIST file {path} has {extra} unexpected trailing bytes after the {expected} bytes of data its header "
    "promises.",
    zh="MNIST 文件 {path} 在文件头声明的 {expected} 字节数据之后，还有 {extra} 个多余的字节。",
)
MNIST_BAD_LABEL = message(
    "mnist_bad_label",
    en="MNIST file {path} has label {label} at index {index}; labels must be 0..{last}.",
    zh="MNIST 文件 {path} 中下标 {index} 处的标签为 {label}；标签必须在 0 到 {last} 之间。",
)
MNIST_MISMATCH = message(
    "mnist_mismatch",
    en="MNIST files do not match: {images_path} holds {images} images but {labels_path} holds {labels} labels.",
    zh="MNIST 文件不匹配：{images_path} 有 {images} 张图像，而 {labels_path} 有 {labels} 个标签。",
)
MNIST_SPLIT_SIZE = message(
    "mnist_split_size",
    en="MNIST files {images_path} and {labels_path} hold {count} examples each, expected {expected} for the {split} "
    "split.",
    zh="MNIST 文件 {images_path} 和 {labels_path} 各有 {count} 个样本，{split}应有 {expected} 个。",
)
MNIST_TRAIN_SPLIT = text("mnist_train_split", en="train", zh="训练集")
MNIST_TEST_SPLIT = text("mnist_test_split", en="test", zh="测试集")
MNIST_DIR_ARGUMENT = message(
    "mnist_dir_argument",
    en="the directory {directory} (given as the data_dir argument)",
    zh="目录 {directory}（由参数 data_dir 给出）",
)
MNIST_DIR_GIVEN = message(
    "mnist_dir_given", en="the directory {directory} ({origin})", zh="目录 {directory}（{origin}）"
)
MNIST_DIR_ENV = message(
    "mnist_dir_env",
    en="the directory {directory} (from the environment variable ${env})",
    zh="目录 {directory}（来自环境变量 ${env}）",
)
MNIST_ADVICE_ARGUMENT = message(
    "mnist_advice_argument",
    en="Put the four MNIST files ({names}) there, or call load_mnist() without data_dir to download them.",
    zh="请把四个 MNIST 文件（{names}）放到那里，或者不带 data_dir 调用 load_mnist() 来下载它们。",
)
MNIST_ADVICE_GIVEN = message(
    "mnist_advice_given", en="Put the four MNIST files ({names}) there.", zh="请把四个 MNIST 文件（{names}）放到那里。"
)
MNIST_ADVICE_ENV = message(
    "mnist_advice_env",
    en="Put the four MNIST files ({names}) there, or unset {env} to download them.",
    zh="请把四个 MNIST 文件（{names}）放到那里，或者取消环境变量 {env} 以下载它们。",
)
MNIST_NOT_A_DIRECTORY = message(
    "mnist_not_a_directory", en="Cannot load MNIST: {where} is not a directory.", zh="无法加载 MNIST：{where}不是目录。"
)
MNIST_NO_DIRECTORY = message(
    "mnist_no_directory", en="Cannot load MNIST: {where} does not exist.", zh="无法加载 MNIST：{where}不存在。"
)
MNIST_LACKS = message(
    "mnist_lacks",
    en="Cannot load MNIST: {where} lacks {count} file(s):",
    zh="无法加载 MNIST：{where}缺少 {count} 个文件：",
)
MNIST_MISSING_FILE = message("mnist_missing_file", en="  {name}", zh="  {name}")
MNIST_MISSING_UNZIPPED = message(
    "mnist_missing_unzipped",
    en="  {name} (found uncompressed {unzipped}; gzip it)",
    zh="  {name}（找到了未压缩的 {unzipped}；请用 gzip 压缩它）",
)
MNIST_CANNOT_LOAD_FROM = message(
    "mnist_cannot_load_from", en="Cannot load MNIST from {where}:", zh="无法从{where}加载 MNIST："
)
MNIST_NOT_OFFICIAL = message(
    "mnist_not_official",
    en="MNIST file {path} is not byte-identical to the official file (strict_checksums=True): expected SHA-256 "
    "{expected}, got {actual}. It comes from {where}; pass strict_checksums=False to accept it anyway.",
    zh="MNIST 文件 {path} 与官方文件的字节不一致（strict_checksums=True）：SHA-256 应为 {expected}，实际为 {actual}。"
    "它来自{where}；传入 strict_checksums=False 即可仍然使用它。",
)
MNIST_CHECKSUM = message(
    "mnist_checksum",
    en="checksum mismatch: expected SHA-256 {expected}, got {actual}",
    zh="校验和不符：SHA-256 应为 {expected}，实际为 {actual}",
)
MNIST_DOWNLOAD_FAILED = message(
    "mnist_download_failed",
    en="Could not download MNIST file {name} into {cache_dir}:",
    zh="无法把 MNIST 文件 {name} 下载到 {cache_dir}：",
)
MNIST_MIRROR_FAILED = message("mnist_mirror_failed", en="  {url}: {error}", zh="  {url}：{error}")
MNIST_NO_MIRRORS = text("mnist_no_mirrors", en="  (no mirrors were given)", zh="  （没有给出任何镜像）")
MNIST_OFFLINE_ADVICE = message(
    "mnist_offline_advice",
    en="If this machine has no internet access, copy the four MNIST files ({names}) to a directory and set the "
    "environment variable {env} to it (or pass data_dir=...).",
    zh="如果这台机器不能上网，请把四个 MNIST 文件（{names}）复制到一个目录中，并把环境变量 {env} 设为该目录"
    "（或者传入 data_dir=...）。",
)
MNIST_CACHE_DAMAGED = message(
    "mnist_cache_damaged",
    en="Cached MNIST file {path} is damaged (wrong SHA-256) and could not be deleted: {error}",
    zh="缓存中的 MNIST 文件 {path} 已损坏（SHA-256 不符），而且无法删除：{error}",
)
MNIST_CACHE_MISSING = message(
    "mnist_cache_missing",
    en="MNIST files missing from the cache directory {cache_dir}: {names}.",
    zh="缓存目录 {cache_dir} 中缺少 MNIST 文件：{names}。",
)
MNIST_CACHE_MISSING_REJECTED = message(
    "mnist_cache_missing_rejected",
    en="MNIST files missing from the cache directory {cache_dir} ({rejected} failed the checksum and was deleted): "
    "{names}.",
    zh="缓存目录 {cache_dir} 中缺少 MNIST 文件：{names}（其中 {rejected} 未通过校验，已被删除）。",
)
MNIST_DOWNLOAD_OFF = message(
    "mnist_download_off",
    en="Downloading is off (download=False). Set the environment variable {env} (or pass data_dir=...) to a "
    "directory with the four MNIST files, or allow download=True to fill the cache.",
    zh="下载已关闭（download=False）。请把环境变量 {env} 设为存有四个 MNIST 文件的目录（或者传入 data_dir=...），"
    "或者允许 download=True 来填充缓存。",
)
MNIST_CACHE_UNWRITABLE = message(
    "mnist_cache_unwritable",
    en="Cannot create the MNIST cache directory {cache_dir}: {error}",
    zh="无法创建 MNIST 缓存目录 {cache_dir}：{error}",
)
MNIST_CACHE_ADVICE = message(
    "mnist_cache_advice",
    en="Set {cache_env} to a writable directory, or {env} to a directory that already holds the four MNIST files.",
    zh="请把 {cache_env} 设为一个可写的目录，或者把 {env} 设为已经存有四个 MNIST 文件的目录。",
)
