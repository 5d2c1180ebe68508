"""Raw-column evaluation: the truth of a literal on raw data and on the binary matrix.

:meth:`Literal.evaluate <rulemodels.rules.Literal.evaluate>`, :meth:`Rule.clause_outputs
<rulemodels.rules.Rule.clause_outputs>` and :meth:`Rule.clause_outputs_binary
<rulemodels.rules.Rule.clause_outputs_binary>` call these functions, and so does
:class:`~rulemodels.data.FeatureBinarizer`'s transform (:func:`threshold_tests`,
:func:`_category_codes`, :func:`_numeric_values`), which keeps raw and binarized evaluation
identical. The literals are read by their attributes only (``feature``, ``op``, ``value``,
``negate``): this module does not import :mod:`rulemodels.rules._rule`, which imports it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from rulemodels.rules._ops import CATEGORY_OPS, NAN_OPS, SET_OPS, THRESHOLD_OPS

if TYPE_CHECKING:  # annotations only: rulemodels.rules._rule imports this module
    from rulemodels.rules._rule import Literal

__all__ = ["literal_values", "threshold_tests"]


def _column(X: pd.DataFrame, feature: str) -> pd.Series:
    """Return column ``feature`` of ``X``, matching column names by ``str``."""
    if feature in X.columns:
        column = X[feature]
    else:
        matches = [c for c in X.columns if str(c) == feature]
        if len(matches) != 1:
            raise ValueError(
                f"rule uses column {feature!r} which is not in the data; "
                f"columns are {[str(c) for c in X.columns]}"
            )
        column = X[matches[0]]
    if isinstance(column, pd.DataFrame):
        raise ValueError(f"column name {feature!r} appears more than once in the data")
    return column



def _numeric_values(column: pd.Series, name: str) -> np.ndarray:
    """Return ``column`` as a float array with missing values as NaN.

    Text in an object column is read as ``predict`` reads it (``pd.to_numeric``): text that is not a
    number there (``'abc'``, but also ``'1_000'`` and full-width digits, which Python's ``float`` would
    accept) is refused rather than read differently from ``predict``.
    """
    if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
        values = column.to_numpy(dtype=object, na_value=np.nan)
        text = np.fromiter((isinstance(v, str) for v in values), dtype=bool, count=len(values))
        if text.any():
            read = pd.to_numeric(pd.Series(values[text], dtype=object), errors="coerce").to_numpy(dtype=float)
            if np.isnan(read).any():
                raise ValueError(
                    f"column {name!r} has non-numeric values (dtype {column.dtype}, e.g. "
                    f"{values[text][np.isnan(read)][0]!r}); threshold and flag literals need numbers: "
                    "convert the column with pd.to_numeric, or use the fitted estimator's predict, "
                    "which reads such text as missing"
                )
            values = values.copy()
            values[text] = read
            column = pd.Series(values, index=column.index, dtype=object)
    try:
        return column.to_numpy(dtype=float, na_value=np.nan)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"column {name!r} has non-numeric values (dtype {column.dtype}); "
            "threshold and flag literals need numbers"
        ) from exc


def _integer_values(column: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """``(values, missing)`` of an integer column (numpy or pandas' nullable ``Int64`` ...), else None.

    ``values`` keeps the column's integer dtype (missing entries hold 0), so
    values beyond 2**53 (nanosecond timestamps, 64-bit IDs) are not rounded
    as a float conversion would round them.
    """
    dtype = column.dtype
    numpy_dtype = getattr(dtype, "numpy_dtype", dtype)  # a nullable dtype's numpy type
    if not isinstance(numpy_dtype, np.dtype) or numpy_dtype.kind not in "iu":
        return None
    missing = np.asarray(pd.isna(column), dtype=bool)
    return column.to_numpy(dtype=numpy_dtype, na_value=0), missing


def threshold_tests(column: pd.Series, name: str, thresholds: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """``x <= t`` and ``x > t`` for each threshold ``t``: two bool arrays of shape ``(n, len(thresholds))``.

    Both are False where ``x`` is missing. A float column is compared in
    float64. An integer column is compared exactly, in integers: for an
    integer ``x``, ``x <= t`` is ``x <= floor(t)``, and a threshold beyond
    the dtype's range makes the test constant. Converting to float64 instead
    would round integers beyond 2**53, so ``x <= t`` would differ from what
    SQLite, PostgreSQL and Python compute for the same integer. The
    binarizer's transform and :meth:`Literal.evaluate` both use this
    function, which keeps them identical.
    """
    integers = _integer_values(column)
    if integers is None:
        x = _numeric_values(column, name)[:, None]
        t = np.asarray(thresholds, dtype=float).reshape(1, -1)
        with np.errstate(invalid="ignore"):
            return x <= t, x > t
    values, missing = integers
    info = np.iinfo(values.dtype)
    below = np.empty((len(values), len(thresholds)), dtype=bool)
    for k, threshold in enumerate(thresholds):
        bound = math.floor(threshold)  # exact: a Python int
        if bound < info.min:
            below[:, k] = False
        elif bound >= info.max:
            below[:, k] = True
        else:
            below[:, k] = values <= values.dtype.type(bound)
    present = ~missing[:, None]
    return below & present, ~below & present


def _category_codes(column: pd.Series, categories: Sequence[object]) -> np.ndarray:
    """Position of each value of ``column`` in ``categories``; -1 if absent or missing.

    Matching uses pandas' hash-based index lookup, which follows Python
    equality (``1``, ``1.0`` and ``True`` match one another, as they do in
    :class:`Literal` equality). The binarizer and :meth:`Literal.evaluate` both
    use this function, which keeps them consistent.
    """
    index = pd.Index(list(categories), dtype=object)
    codes = index.get_indexer(column.to_numpy(dtype=object))
    codes[np.asarray(pd.isna(column))] = -1
    return codes


def literal_values(lit: Literal, frame: pd.DataFrame) -> np.ndarray:
    """The truth of ``lit`` on every row of ``frame``: :meth:`Literal.evaluate <rulemodels.rules.Literal.evaluate>`
    on a frame :func:`rulemodels.utils.to_frame` returned (it is not checked again).

    Parameters
    ----------
    lit : Literal
        The literal.
    frame : pandas.DataFrame
        Raw data with the literal's column.

    Returns
    -------
    numpy.ndarray of bool, shape (n_samples,)
    """
    column = _column(frame, lit.feature)
    op = lit.op
    if op == "is_nan":
        return np.asarray(pd.isna(column), dtype=bool)
    if op == "not_nan":
        return ~np.asarray(pd.isna(column), dtype=bool)
    if op in CATEGORY_OPS or op in SET_OPS:
        members = list(lit.value) if op in SET_OPS else [lit.value]  # type: ignore[call-overload]
        inside = _category_codes(column, members) >= 0
        if op in ("==", "in"):
            return inside
        return ~inside & ~np.asarray(pd.isna(column), dtype=bool)
    if op in THRESHOLD_OPS:
        below, above = threshold_tests(column, lit.feature, [lit.value])  # type: ignore[list-item]
        return (below if op == "<=" else above)[:, 0]
    x = _numeric_values(column, lit.feature)
    with np.errstate(invalid="ignore"):
        if op == "is_true":
            return x == 1
        return x == 0


def _column_of(
    lit: Literal, index: Mapping[Literal, int]
) -> tuple[int, bool]:
    """Column of ``lit`` in a binarized matrix, and whether to complement it."""
    if lit in index:
        return index[lit], False
    negation = lit.negate()
    if negation in index:
        return index[negation], True
    raise ValueError(
        f"literal '{lit}' is not a column of the binary matrix, and neither is its "
        f"negation '{negation}'; binarize the data with the features the rule uses"
    )


def _binary_literal(lit: Literal, A: Any, index: Mapping[Literal, int]) -> np.ndarray:
    """The truth of ``lit`` on every row of the binary matrix ``A``.

    A set literal is served by its members' columns: ``x in S`` is the OR of
    the ``x == v`` columns, ``x not in S`` the AND of the ``x != v`` columns.
    """
    if lit.op in SET_OPS:
        member_op = "==" if lit.op == "in" else "!="
        members = [_binary_literal(type(lit)(lit.feature, member_op, v), A, index) for v in cast("tuple[object, ...]", lit.value)]
        stacked = np.column_stack(members)
        return np.asarray(stacked.any(axis=1) if lit.op == "in" else stacked.all(axis=1))
    if lit.op in NAN_OPS and lit not in index and lit.negate() not in index:
        present = _present_from_pair(lit.feature, A, index)
        if present is not None:
            return present if lit.op == "not_nan" else ~present
    column, flip = _column_of(lit, index)
    return _binary_columns(A, [column])[:, 0] ^ flip


def _present_from_pair(feature: str, A: Any, index: Mapping[Literal, int]) -> np.ndarray | None:
    """``feature is not missing`` on the binary matrix without its indicator column, or None.

    A column that had no missing values in training has no ``is_nan`` /
    ``not_nan`` columns, yet a simplified rule can say ``x is not missing``
    (``(x <= 1 AND b) OR (x > 1 AND b)`` is ``x is not missing AND b``). Both
    literals of a complementary pair (``x <= t`` and ``x > t``, or ``x == v``
    and ``x != v``) are false exactly where ``x`` is missing
    (:meth:`Literal.evaluate`, the binarizer's columns), so their OR is
    ``x is not missing``. Flags have no such pair: a value other than 0 and 1
    makes both ``x`` and ``not x`` false.
    """
    for lit in index:
        if lit.feature == feature and lit.op in ("<=", "==") and lit.negate() in index:
            pair = _binary_columns(A, [index[lit], index[lit.negate()]])
            return pair[:, 0] | pair[:, 1]
    return None


def _binary_columns(A: Any, columns: list[int]) -> np.ndarray:
    """Dense boolean ``A[:, columns]`` for a numpy array or scipy.sparse matrix."""
    if hasattr(A, "tocsc"):
        return np.asarray(A.tocsc()[:, columns].toarray(), dtype=bool)
    return np.asarray(A)[:, columns].astype(bool)

