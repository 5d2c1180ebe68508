"""What the binarizer reads of a raw column: its kind (numeric, flag, categorical, ID-like), its values as
numbers, the checks of its cells, and the message of each column it refuses or leaves out.

Used by :class:`~rulemodels.data.FeatureBinarizer` on the rows and by the
per-column summaries of a Parquet or Dask fit (:mod:`rulemodels.data._stream`),
so both read a column alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from rulemodels.rules._evaluate import _numeric_values
from rulemodels.rules._kinds import all_text, holds_only_numbers
from rulemodels.utils import check_nonempty

__all__ = ["numeric_column_values"]


def _missing_message(name: str, count: int) -> str:
    return (
        f"column {name!r} has {count} missing values and nan='error' was asked for; use "
        "nan='indicator' (the default of BooleanRuleClassifier and the CLI: a missing value "
        "makes the column's other literals false and gets its own 'is missing' literal) or impute them"
    )


#: What pandas' ``infer_dtype`` calls an object column of scalars only (no list, dict, set, tuple or array in it).
_SCALAR_INFERRED = frozenset({"string", "empty", "integer", "floating", "mixed-integer-float", "boolean", "decimal"})


def _check_scalar_cells(frame: pd.DataFrame) -> None:
    """Raise if an object column holds lists, dicts, sets, tuples or arrays (one value per cell is needed)."""
    for name in frame.columns:
        if not pd.api.types.is_object_dtype(frame[name].dtype):
            continue
        values = frame[name].to_numpy(dtype=object)
        if pd.api.types.infer_dtype(values, skipna=True) in _SCALAR_INFERRED:
            continue  # the common case, without a Python test of each cell
        for value in values:
            if isinstance(value, list | tuple | dict | set | frozenset | np.ndarray | pd.Series):
                raise ValueError(
                    f"column {name!r} holds {type(value).__name__}s (e.g. {value!r}) where one number or "
                    "category per cell is needed: expand them into separate columns "
                    f"(e.g. pd.DataFrame(X[{name!r}].tolist())) or drop the column"
                )


def _kept_indicator(name: str, n_missing: int) -> str:
    """What an ID-like column with missing values keeps: its ``is missing`` literal (empty without missing values)."""
    if not n_missing:
        return ""
    return (
        f"Its {n_missing} missing values are kept as a feature: the literal '{name} is missing' "
        "(whether a row has a value at all) stays, only the values are left out. "
    )


def _id_like_message(name: str, distinct: int, present: int, n_missing: int = 0) -> str:
    return (
        f"column {name!r} has {distinct} distinct values in {present} rows (an ID, a date or "
        "free text): its values are left out, since one literal per value would only memorise rows. "
        f"{_kept_indicator(name, n_missing)}"
        f"If it holds dates, convert it to numbers first, e.g. X[{name!r}] = "
        f"pd.to_datetime(X[{name!r}]).dt.year (or days since a reference date); "
        "high_cardinality='keep' (CLI: --keep-id-columns) keeps it as categories"
    )


def _all_missing_message(name: str, n_rows: int) -> str:
    return (
        f"column {name!r} is missing in all {n_rows} training rows: it yields no literals; "
        f"check how it was read (a missing-value marker, a join), or drop it: X.drop(columns=[{name!r}]) "
        f"(CLI: --drop {name})"
    )


def _numeric_id_message(name: str, n_present: int, n_missing: int = 0) -> str:
    return (
        f"column {name!r} holds {n_present} distinct integers, one per row, filling most of their range (row numbers "
        "or record IDs): "
        "its values are left out, since a threshold on it would only split the file by position. "
        f"{_kept_indicator(name, n_missing)}"
        "high_cardinality='keep' (CLI: --keep-id-columns) keeps it as a number; "
        f"X.drop(columns=[{name!r}]) (CLI: --drop {name}) drops it without this warning"
    )


def _is_categorical_dtype(dtype: Any) -> bool:
    """Columns of a dtype that may be categorical under ``categorical='auto'`` (see :func:`_is_categorical_column`)."""
    return (
        isinstance(dtype, pd.CategoricalDtype)
        or pd.api.types.is_object_dtype(dtype)
        or pd.api.types.is_string_dtype(dtype)
    )


def _is_categorical_column(column: pd.Series) -> bool:
    """Columns treated as categorical under ``categorical='auto'``: category, string and object dtypes,
    except an object column whose present values are all numbers (Python ints or floats, ``Decimal``
    from ``read_sql`` of NUMERIC): that one is numeric, with thresholds, so an unseen value still
    falls on the right side of each threshold. Text that looks like a number (``"250"``) stays text."""
    if not _is_categorical_dtype(column.dtype):
        return False
    return not (pd.api.types.is_object_dtype(column.dtype) and holds_only_numbers(column))


def _mixed_numbers_and_strings(column: pd.Series) -> tuple[int, int, Any] | None:
    """``(numbers, other strings, first such string)`` for a mostly numeric object column, else None.

    Numbers include strings that parse as numbers (a CSV column read as
    text). A column counts as mixed when more than half its present values
    are numbers and some are other strings: a numeric column with stray
    text ("high", "n/a"), which would otherwise silently become one
    category per number.
    """
    values = column.dropna().to_numpy(dtype=object)
    if all_text(values):  # text only (the common case): each distinct text parsed once
        codes, distinct = pd.factorize(values)
        parsed = pd.to_numeric(pd.Series(distinct, dtype=object), errors="coerce").notna().to_numpy()[codes]
        is_string = np.ones(len(values), dtype=bool)
        is_bool = np.zeros(len(values), dtype=bool)
    else:
        is_string = np.fromiter((isinstance(v, str) for v in values), dtype=bool, count=len(values))
        if not is_string.any():
            return None
        parsed = pd.to_numeric(pd.Series(values), errors="coerce").notna().to_numpy()
        is_bool = np.fromiter((isinstance(v, (bool, np.bool_)) for v in values), dtype=bool, count=len(values))
    is_number = parsed & ~is_bool
    other_strings = is_string & ~is_number
    if other_strings.any() and is_number.sum() * 2 > len(values):
        return int(is_number.sum()), int(other_strings.sum()), values[other_strings][0]
    return None


def _mixed_message(name: str, numbers: int, strings: int, example: Any) -> str:
    return (
        f"column {name!r} mixes numbers ({numbers} values) and text ({strings} values, "
        f"e.g. {example!r}): convert it to numbers (pd.to_numeric(X[{name!r}], errors='coerce') "
        f"turns the text into NaN), or, if its values are codes (ICD, ZIP), declare it categorical: "
        f"X[{name!r}] = X[{name!r}].astype(str).astype('category') (CLI: --categorical {name})"
    )


def _check_cells(frame: pd.DataFrame) -> None:
    """Raise if ``frame`` has no rows or columns, or a column is complex or holds lists, dicts, sets, tuples or
    arrays: what the binarizer reads of the values, after :func:`rulemodels.utils.to_frame` checked the shape
    and the names."""
    check_nonempty(frame.shape)
    complex_columns = [n for n in frame.columns if pd.api.types.is_complex_dtype(frame[n])]
    if complex_columns:
        raise ValueError(
            f"Complex data not supported: column(s) {complex_columns}; "
            "split them into real and imaginary parts"
        )
    _check_scalar_cells(frame)


def numeric_column_values(column: pd.Series, name: str) -> np.ndarray:
    """A numeric (or bool, or object holding numbers) column as floats (NaN where missing), or a ValueError
    that says how to convert it (dates, durations, text).

    Parameters
    ----------
    column : pandas.Series
        The column's values.
    name : str
        The column's name, for the error messages.

    Returns
    -------
    numpy.ndarray of float, shape (n_samples,)
        The values as floats, NaN where a value is missing.

    Raises
    ------
    ValueError
        If the column holds dates or durations, has a dtype neither numeric nor bool, or holds values
        that are not numbers.
    """
    dtype = column.dtype
    if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype):
        raise ValueError(
            f"column {name!r} holds dates or durations ({dtype}); convert it to numbers first, e.g. "
            f"X[{name!r}].dt.year, or (X[{name!r}] - X[{name!r}].min()).dt.days for days since its first date"
        )
    if not (pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_object_dtype(dtype)):
        raise ValueError(
            f"column {name!r} has dtype {dtype}, which is neither numeric nor bool; "
            "list it in categorical= or convert it to numbers"
        )
    try:
        return _numeric_values(column, name)
    except ValueError as exc:
        raise ValueError(f"{exc}; list {name!r} in categorical= or convert it") from exc


def float_precision(dtype: Any) -> np.dtype | None:
    """The float dtype of a column narrower than float64 (``float32``, ``float16``), or None.

    numpy's ``float32``/``float16``, pandas' nullable ``Float32`` and Arrow's ``float``/``halffloat``
    (polars' ``Float32`` arrives as one of them): the columns whose thresholds are chosen in their own
    precision (:func:`rulemodels.data._thresholds._splits_alike`), so that an engine comparing in that
    precision and one comparing in float64 split them alike.
    """
    numpy_dtype = getattr(dtype, "numpy_dtype", dtype)
    if isinstance(numpy_dtype, np.dtype) and numpy_dtype.kind == "f" and numpy_dtype.itemsize < 8:
        return numpy_dtype
    return None
