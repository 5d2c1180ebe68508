"""Column kinds: what each column was when a rule was learned, and reading new data the same way.

A rule's literals only mean what they meant in training if every column is
read as it was then. pandas guesses a column's type from its values, so the
same column can arrive differently in a new batch: ICD or ZIP codes kept as
text (``"250"``) are read as ``int64`` when a batch holds only numeric codes
(``250``), or as ``float64`` when one is missing (``250.0``), and then no
longer equal the learned category ``"250"``. :class:`ColumnKind` records what
a column was (numeric, categorical with text / number / mixed values, or a
0/1 flag); :func:`conform` brings a new frame back to those kinds before a
rule is evaluated, and warns (:class:`ColumnKindDriftWarning`, once per
column) when a column holds values of another kind, saying what the
prediction does with them.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["CATEGORY_VALUES", "KINDS", "ColumnKind", "ColumnKindDriftWarning", "UnseenCategoryWarning", "conform", "text_dtypes"]

#: The kinds of a column.
KINDS: tuple[str, ...] = ("numeric", "categorical", "flag")
#: What the values of a categorical column are: all text, all numbers, or both (or booleans).
CATEGORY_VALUES: tuple[str, ...] = ("text", "numbers", "mixed")
_TRUE_TEXTS = frozenset({"true", "1", "1.0"})
_FALSE_TEXTS = frozenset({"false", "0", "0.0"})


class ColumnKindDriftWarning(UserWarning):
    """A column holds values of another kind than the rule learned it as.

    Said once per column and call, naming the column, the kind learned, what
    the data holds, and what the prediction does with those values.
    """


class UnseenCategoryWarning(UserWarning):
    """A column that took two categories in training holds another one, and the rule reads it as an equality.

    A fitted estimator writes a learned ``x != a`` as ``x == b`` on a column whose only categories in
    training were ``a`` and ``b`` (:func:`~rulemodels.rules.prefer_equality`); the two agree on ``a``,
    ``b`` and missing values, and differ on a category unseen in training, which makes ``x == b``
    false where ``x != a`` was true. ``predict``, ``predict_proba`` and ``explain`` of the estimator
    say so once per such column and call, naming the column, the rows' new categories and what the
    prediction does with them.
    """


@dataclass(frozen=True)
class ColumnKind:
    """The kind of one column when a rule was learned.

    Parameters
    ----------
    kind : {'numeric', 'categorical', 'flag'}
        ``'numeric'``: thresholds (``x <= t``); ``'categorical'``: categories
        (``x == v``); ``'flag'``: a 0/1 or boolean column (``x``, ``not x``).
    values : {'text', 'numbers', 'mixed'} or None
        For a categorical column, what its categories were: all text (codes
        such as ``"250"`` stay text), all numbers, or both; None otherwise.
    """

    kind: str
    values: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.kind == "categorical" and self.values not in CATEGORY_VALUES:
            raise ValueError(f"a categorical column's values must be one of {', '.join(CATEGORY_VALUES)}, got {self.values!r}")
        if self.kind != "categorical" and self.values is not None:
            raise ValueError(f"only a categorical column has 'values'; a {self.kind} column has {self.values!r}")

    def __str__(self) -> str:
        if self.kind == "categorical":
            return {"text": "text categories", "numbers": "number categories", "mixed": "categories"}[self.values]  # type: ignore[index]
        return "numbers" if self.kind == "numeric" else "a 0/1 flag"

    def to_dict(self) -> dict[str, str]:
        """``{"kind": ...}``, with ``"values"`` for a categorical column (the rule file's entry).

        Returns
        -------
        dict of str to str
            The kind (and the values of a categorical column).
        """
        return {"kind": self.kind} if self.values is None else {"kind": self.kind, "values": self.values}

    @classmethod
    def from_dict(cls, data: Any) -> ColumnKind:
        """The kind of a rule file's entry; ``ValueError`` saying what is wrong.

        Parameters
        ----------
        data : object
            The entry: ``{"kind": ...}`` (with ``"values"`` for a categorical column), as :meth:`to_dict` writes it.

        Returns
        -------
        ColumnKind
            The kind the entry describes.

        Raises
        ------
        ValueError
            If the entry is malformed.
        """
        if not isinstance(data, dict) or "kind" not in data or not set(data) <= {"kind", "values"}:
            raise ValueError(f"expected an object with the key 'kind' (and 'values' for a categorical column), got {data!r}")
        return cls(data["kind"], data.get("values"))


def is_number(value: Any) -> bool:
    """A real number (Python, numpy or ``Decimal``), not a boolean."""
    return isinstance(value, numbers.Real | Decimal) and not isinstance(value, bool | np.bool_)


def all_text(values: Any) -> bool:
    """Whether every present value of ``values`` (an object array or Series) is a ``str``, at least one.

    One pass in pandas' compiled type inference (``infer_dtype``), for the
    checks that would otherwise test each cell in Python.
    """
    return bool(pd.api.types.infer_dtype(values, skipna=True) == "string")


def holds_only_numbers(column: pd.Series) -> bool:
    """An object column whose present values are all numbers (at least one): Python ints or floats,
    numpy scalars, ``Decimal`` (``read_sql`` of NUMERIC). Text that looks like a number stays text."""
    values = column.to_numpy(dtype=object)
    present = values[~np.asarray(pd.isna(column), dtype=bool)]
    return len(present) > 0 and all(is_number(v) for v in present)


def category_values(present: Any) -> str:
    """``'text'``, ``'numbers'`` or ``'mixed'``: what the present values of a categorical column are."""
    values = list(present)
    if all(isinstance(v, str) for v in values):
        return "text"
    if all(is_number(v) for v in values):
        return "numbers"
    return "mixed"


def text_dtypes(kinds: Mapping[str, ColumnKind]) -> dict[str, type]:
    """``{column: str}`` for the columns of text categories: how to read them from a CSV file so that
    ``"02110"`` keeps its zero and ``"250"`` stays text (``pandas.read_csv(..., dtype=...)``).

    Parameters
    ----------
    kinds : mapping of str to ColumnKind
        The kind of each column.

    Returns
    -------
    dict of str to type
        ``{column: str}`` for each column of text categories.
    """
    return {name: str for name, kind in kinds.items() if kind.kind == "categorical" and kind.values == "text"}


def _number_as_text(value: Any) -> Any:
    """A number as the text it was most likely read from: ``250`` and ``250.0`` as ``'250'``; NaN stays missing."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            return np.nan if value.is_nan() else str(value)
        return str(int(value)) if value == value.to_integral_value() else str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    number = float(value)
    if math.isnan(number):
        return np.nan
    return str(int(number)) if number.is_integer() else repr(number)


def _text_as_number(value: str) -> Any:
    """Text that reads as a number as that number (``'250'`` as 250, ``'2.5'`` as 2.5), else the text."""
    try:
        number = float(value)
    except ValueError:
        return value
    if not math.isfinite(number):
        return value
    return int(number) if number.is_integer() else number


def _example(values: np.ndarray) -> str:
    return repr(values[0].item() if isinstance(values[0], np.generic) else values[0])


def _seen(column: pd.Series, values: np.ndarray) -> str:
    return f"{values.size} {'value' if values.size == 1 else 'values'} of dtype {column.dtype}, e.g. {_example(values)}"


def _convert_where(column: pd.Series, values: np.ndarray, where: np.ndarray, convert: Callable[[Any], Any],
                   message: Callable[[Any], str]) -> tuple[pd.Series, str | None]:
    """``column`` (its object ``values``) with ``convert`` applied where ``where`` holds, and ``message(first)``
    (``first``: the first converted value); ``column`` itself and no message where ``where`` holds nowhere."""
    if not where.any():
        return column, None
    out = values.copy()
    out[where] = [convert(v) for v in values[where]]
    return pd.Series(out, index=column.index, name=column.name, dtype=object), message(out[where][0])


def _conform_text(name: str, column: pd.Series, kind: ColumnKind) -> tuple[pd.Series, str | None]:
    values = column.to_numpy(dtype=object)
    if all_text(values):  # no number among the present values
        return column, None
    missing = np.asarray(pd.isna(column), dtype=bool)
    numeric = np.fromiter((not m and is_number(v) for v, m in zip(values, missing)), dtype=bool, count=len(values))
    return _convert_where(column, values, numeric, _number_as_text, lambda first: (
        f"column {name!r} was learned as {kind}, but the data holds numbers ({_seen(column, values[numeric])}): "
        f"they are matched as text ({_example(values[numeric])} as {first!r}); text lost when they were "
        f"read as numbers (leading zeros, trailing decimal zeros) cannot be recovered: read the column as text, "
        f"e.g. pd.read_csv(..., dtype={{{name!r}: str}})"
    ))


def _conform_number_categories(name: str, column: pd.Series, kind: ColumnKind) -> tuple[pd.Series, str | None]:
    values = column.to_numpy(dtype=object)
    text = np.fromiter((isinstance(v, str) for v in values), dtype=bool, count=len(values))
    return _convert_where(column, values, text, _text_as_number, lambda _first: (
        f"column {name!r} was learned as {kind}, but the data holds text ({_seen(column, values[text])}): "
        "text that reads as a number is matched as that number, other text matches none of the learned categories"
    ))


def _conform_numeric(name: str, column: pd.Series, kind: ColumnKind) -> tuple[pd.Series, str | None]:
    if pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        return column, None
    values = column.to_numpy(dtype=object)
    numbers_ = pd.to_numeric(pd.Series(values, index=column.index, dtype=object), errors="coerce")
    lost = ~np.asarray(pd.isna(column), dtype=bool) & np.asarray(pd.isna(numbers_), dtype=bool)
    out = numbers_.rename(column.name)
    if not lost.any():
        return out, None
    return out, (
        f"column {name!r} was learned as numbers, but the data holds text ({_seen(column, values[lost])}): "
        "those values are treated as missing (its threshold literals are false there, 'is missing' is true)"
    )


def _conform_flag(name: str, column: pd.Series, kind: ColumnKind) -> tuple[pd.Series, str | None]:
    if pd.api.types.is_bool_dtype(column.dtype):
        return column, None
    if pd.api.types.is_numeric_dtype(column.dtype):
        out = column
        as_text = None
    else:
        values = column.to_numpy(dtype=object)
        converted = np.empty(len(values), dtype=float)
        as_text = np.zeros(len(values), dtype=bool)
        for k, value in enumerate(values):
            if isinstance(value, str):
                word = value.strip().lower()
                converted[k] = 1.0 if word in _TRUE_TEXTS else 0.0 if word in _FALSE_TEXTS else np.nan
                as_text[k] = word not in _TRUE_TEXTS | _FALSE_TEXTS
            elif is_number(value) or isinstance(value, bool | np.bool_):
                converted[k] = float(value)
            else:
                converted[k] = np.nan
        out = pd.Series(converted, index=column.index, name=column.name)
    x = out.to_numpy(dtype=float, na_value=np.nan)
    other_numbers = ~np.isnan(x) & (x != 0) & (x != 1)
    other_text = as_text if as_text is not None else np.zeros(len(x), dtype=bool)
    if not (other_numbers.any() or other_text.any()):
        return out, None
    effects = []
    if other_text.any():
        effects.append("text other than true/false counts as missing")
    if other_numbers.any():
        effects.append(f"numbers other than 0 and 1 make both {name!r} and 'not {name}' false")
    original = column.to_numpy(dtype=object)[other_numbers | other_text]
    return out, (
        f"column {name!r} was learned as a 0/1 flag, but the data holds other values ({_seen(column, original)}): "
        + " and ".join(effects)
    )


_CONFORMERS = {"numeric": _conform_numeric, "flag": _conform_flag}


def conform(frame: pd.DataFrame, kinds: Mapping[str, ColumnKind], *, stacklevel: int = 2) -> pd.DataFrame:
    """``frame`` with each column of ``kinds`` read as that kind; warns once per column whose kind drifted.

    - text categories: numbers (``int64`` 250, ``float64`` 250.0, ``Decimal``) become the text they were
      most likely read from (``'250'``; a non-integral float as its shortest text, ``250.5`` as ``'250.5'``),
      so they match the learned categories; missing values stay missing. Warned: leading zeros lost when
      a column was read as numbers cannot come back.
    - number categories: text that reads as a number becomes that number; warned.
    - numeric: objects holding numbers (Python numbers, ``Decimal``) become a numeric column; text that
      is not a number becomes missing, warned.
    - flag: booleans, 0/1, and the texts ``true``/``false`` (any case) are the flag; other text counts as
      missing and other numbers make ``x`` and ``not x`` both false, warned.

    Columns not in ``frame`` and categorical columns with mixed values are left as they are; the
    frame is returned as given when nothing changes, otherwise a shallow copy.

    Parameters
    ----------
    frame : DataFrame
        The rows to read.
    kinds : mapping of str to ColumnKind
        The kind of each column.
    stacklevel : int, default=2
        The ``stacklevel`` of the drift warnings.

    Returns
    -------
    DataFrame
        ``frame`` with those columns read as their kinds.
    """
    out = frame
    for name, kind in kinds.items():
        if name not in frame.columns:
            continue
        column = frame[name]
        if isinstance(column, pd.DataFrame):  # a repeated name: the column checks report it
            continue
        if kind.kind == "categorical":
            if kind.values == "mixed":
                continue
            conformer = _conform_text if kind.values == "text" else _conform_number_categories
        else:
            conformer = _CONFORMERS[kind.kind]
        new, message = conformer(name, column, kind)
        if message is not None:
            warnings.warn(message, ColumnKindDriftWarning, stacklevel=stacklevel + 1)
        if new is not column:
            if out is frame:
                out = frame.copy(deep=False)
            out[name] = new
    return out
