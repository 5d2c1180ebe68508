"""Two-level Boolean rules as immutable values.

A *literal* is a Boolean test on one raw feature (``glucose > 142.0``), a
*clause* is a set of literals, and a *rule* combines clauses in conjunctive
(CNF, AND of ORs) or disjunctive (DNF, OR of ANDs) normal form, as in Su et
al., Section "Problem Formulation":

.. math::

    \\hat y_i^{\\mathrm{CNF}} = \\bigwedge_{r=1}^{R} \\bigvee_{j \\in \\mathcal C_r} a_{i,j},
    \\qquad
    \\hat y_i^{\\mathrm{DNF}} = \\bigvee_{r=1}^{R} \\bigwedge_{j \\in \\mathcal C_r} a_{i,j}.

Rules can be evaluated on raw data (:meth:`Rule.evaluate`) or on the 0/1
matrix produced by :class:`rulemodels.data.binarizer.FeatureBinarizer`
(:meth:`Rule.evaluate_binary`). Both give the same answer because a literal
evaluated on raw data equals the binarizer's column for that literal, missing
values included (see :meth:`Literal.evaluate`).

This module depends on numpy and pandas only: no optimisation modelling. Its export
methods (:meth:`Rule.to_sql` and the like) call the functions of
:mod:`rulemodels.rules._export` and ``_display``, which use the standard library only and
do not import this module back.

References
----------
.. [1] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable Two-level
   Boolean Rule Learning for Classification", 2016.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

# The exports and the HTML view need only the attributes of these values (they import the
# types for annotations only), so this module imports them and nothing imports back.
from rulemodels.rules._display import rule_html as _rule_html
from rulemodels.rules._export import to_python as _to_python
from rulemodels.rules._export import to_query as _to_query
from rulemodels.rules._export import to_sql as _to_sql
from rulemodels.utils import as_pandas

__all__ = ["Literal", "Clause", "Rule", "RuleFormatError", "VALID_OPS"]

THRESHOLD_OPS: tuple[str, ...] = ("<=", ">")
CATEGORY_OPS: tuple[str, ...] = ("==", "!=")
FLAG_OPS: tuple[str, ...] = ("is_true", "is_false")
NAN_OPS: tuple[str, ...] = ("is_nan", "not_nan")
SET_OPS: tuple[str, ...] = ("in", "not_in")
#: Every operator a :class:`Literal` may have: thresholds (``<=``, ``>``), categories (``==``, ``!=``),
#: 0/1 flags (``is_true``, ``is_false``), missing values (``is_nan``, ``not_nan``) and sets of values (``in``, ``not_in``).
VALID_OPS: tuple[str, ...] = THRESHOLD_OPS + CATEGORY_OPS + FLAG_OPS + NAN_OPS + SET_OPS

_NEGATED_OP: dict[str, str] = {
    "<=": ">",
    ">": "<=",
    "==": "!=",
    "!=": "==",
    "is_true": "is_false",
    "is_false": "is_true",
    "is_nan": "not_nan",
    "not_nan": "is_nan",
    "in": "not_in",
    "not_in": "in",
}
_FORMS: tuple[str, ...] = ("cnf", "dnf")
_FORMAT_NAME = "rulemodels.rule"
#: Version 2 added the set literals (ops ``in``/``not_in``); a rule without
#: them is still written as version 1, so older releases read it.
_FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)
_VALID_OPS_TEXT = ", ".join(repr(op) for op in VALID_OPS)


class RuleFormatError(ValueError):
    """A serialized rule (dict or JSON text) is malformed.

    The message starts with the path of the offending entry, e.g.
    ``clauses[1][0].op: unknown op 'eval'; expected one of ...``.
    """


# ---------------------------------------------------------------------------
# Value normalisation and column access (shared with the binarizer)
# ---------------------------------------------------------------------------


def _normalize_value(op: str, value: object) -> object:
    """Return ``value`` as a plain, hashable, JSON-representable Python scalar.

    Thresholds become finite Python floats (``-0.0`` becomes ``0.0``).
    Category values become ``str``, ``bool``, ``int`` or finite ``float``
    (numpy scalars are unwrapped). Flag and missing-value ops take no value.
    """
    if op in FLAG_OPS or op in NAN_OPS:
        if value is not None:
            raise ValueError(f"op {op!r} takes no value; got {value!r}")
        return None
    if op in SET_OPS:
        return _normalize_set(op, value)
    if value is None:
        raise ValueError(f"op {op!r} needs a value; got None")
    if isinstance(value, np.generic):
        value = value.item()
    if op in THRESHOLD_OPS:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"op {op!r} needs a numeric threshold; got {type(value).__name__} {value!r}"
            )
        value = float(value) + 0.0
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(
                f"op {op!r} needs a finite value; got {value!r} "
                "(use op 'is_nan'/'not_nan' for missing values)"
            )
        return value
    raise TypeError(
        f"literal values must be str, int, float or bool; got {type(value).__name__} "
        f"{value!r}. Convert the column to one of these types first."
    )


def _category_sort_key(value: object) -> tuple[str, str]:
    return (str(value), type(value).__name__)


def _normalize_set(op: str, value: object) -> tuple[object, ...]:
    """The categories of a set literal as a sorted tuple of distinct category values.

    Duplicates follow Python equality (``1``, ``1.0`` and ``True`` are one
    category, as in matching); the order is by ``str``, so equal sets give
    equal literals.
    """
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(
            f"op {op!r} needs a collection of categories (e.g. ['A41', 'A49']); got "
            f"{type(value).__name__} {value!r}"
        )
    members = [_normalize_value("==", v) for v in value]
    if not members:
        raise ValueError(f"op {op!r} needs at least one category; got an empty collection")
    return tuple(sorted(dict.fromkeys(members), key=_category_sort_key))


def format_threshold(value: float) -> str:
    """A threshold as printed: 15 significant digits, so interpolation noise
    (``20.200000000000003``) is hidden while thresholds that differ in the
    first 15 digits (timestamps, IDs) stay distinct. The stored value is exact.
    """
    return repr(float(f"{value:.15g}"))


def _format_category(value: object) -> str:
    return value if isinstance(value, str) else repr(value)


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


def _as_frame(X: Any) -> pd.DataFrame:
    """Return ``X`` as a pandas DataFrame; arrays get the names ``x0, x1, ...``, a polars or pyarrow
    DataFrame is converted (:func:`rulemodels.utils.as_pandas`)."""
    X = as_pandas(X)
    if isinstance(X, pd.DataFrame):
        return X
    array = np.asarray(X)
    if array.ndim != 2:
        raise ValueError(f"expected 2-D data (a DataFrame or array); got {array.ndim}-D")
    return pd.DataFrame(array, columns=[f"x{k}" for k in range(array.shape[1])])


def _numeric_values(column: pd.Series, name: str) -> np.ndarray:
    """Return ``column`` as a float array with missing values as NaN."""
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
    for k, t in enumerate(thresholds):
        bound = math.floor(t)  # exact: a Python int
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


# ---------------------------------------------------------------------------
# Literal
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Literal:
    """A Boolean test on one raw feature.

    Parameters
    ----------
    feature : str
        Column name of the raw feature.
    op : str
        One of ``'<='``, ``'>'`` (numeric threshold), ``'=='``, ``'!='``
        (category value), ``'in'``, ``'not_in'`` (a set of category values),
        ``'is_true'``, ``'is_false'`` (a 0/1 or bool column) and ``'is_nan'``,
        ``'not_nan'`` (missing-value indicator).
    value : str, int, float, bool, collection of those, or None, default=None
        Threshold or category value (a collection for ``in``/``not_in``,
        stored as a sorted tuple); ``None`` for flag and missing-value ops.
        Thresholds are stored as finite Python floats and numpy scalars are
        unwrapped, so equal literals compare and hash equal.

    Examples
    --------
    >>> lit = Literal("glucose", ">", 142)
    >>> str(lit), str(lit.negate())
    ('glucose > 142.0', 'glucose <= 142.0')
    """

    feature: str
    op: str
    value: object = None

    def __post_init__(self) -> None:
        if not isinstance(self.feature, str):
            raise TypeError(
                f"Literal feature must be a column name (str); got "
                f"{type(self.feature).__name__} {self.feature!r}"
            )
        if self.op not in VALID_OPS:
            raise ValueError(f"unknown op {self.op!r}; expected one of {_VALID_OPS_TEXT}")
        object.__setattr__(self, "value", _normalize_value(self.op, self.value))

    def negate(self) -> Literal:
        """Return the complementary literal (``<=``/``>``, ``==``/``!=``, ...).

        On a row where the feature is missing both a threshold or category
        literal and its negation are False (see :meth:`evaluate`).

        Returns
        -------
        Literal
            The literal with the complementary operator, on the same feature and value.
        """
        return Literal(self.feature, _NEGATED_OP[self.op], self.value)

    def __str__(self) -> str:
        name, op, value = self.feature, self.op, self.value
        if op in THRESHOLD_OPS:
            return f"{name} {op} {format_threshold(value)}"  # type: ignore[arg-type]
        if op in CATEGORY_OPS:
            return f"{name} {op} {_format_category(value)}"
        if op in SET_OPS:
            shown = ", ".join(_format_category(v) for v in value)  # type: ignore[union-attr]
            return f"{name} {'in' if op == 'in' else 'not in'} {{{shown}}}"
        return {
            "is_true": name,
            "is_false": f"not {name}",
            "is_nan": f"{name} is missing",
            "not_nan": f"{name} is not missing",
        }[op]

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Evaluate the literal on raw data.

        Missing values make every literal False except ``is_nan``: ``x <= t``,
        ``x > t``, ``x == v``, ``x != v``, ``x in S``, ``x not in S``,
        ``is_true`` and ``is_false`` are all False where ``x`` is missing. A
        present value that is not among the literal's categories (a category
        unseen in training) makes ``x == v`` and ``x in S`` False and
        ``x != v`` and ``x not in S`` True. This is exactly the column that
        :class:`~rulemodels.data.binarizer.FeatureBinarizer` produces for the
        literal, so raw and binarized evaluation always agree. The price is
        that a literal and its :meth:`negate` are complements only where
        ``x`` is present (and, for flags, in {0, 1}).

        Parameters
        ----------
        X : DataFrame
            Raw data (pandas, polars, pyarrow, ...); a 2-D array is accepted with columns named ``x0, x1, ...``.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples,)
        """
        column = _column(_as_frame(X), self.feature)
        op = self.op
        if op == "is_nan":
            return np.asarray(pd.isna(column), dtype=bool)
        if op == "not_nan":
            return ~np.asarray(pd.isna(column), dtype=bool)
        if op in CATEGORY_OPS or op in SET_OPS:
            members = list(self.value) if op in SET_OPS else [self.value]  # type: ignore[call-overload]
            inside = _category_codes(column, members) >= 0
            if op in ("==", "in"):
                return inside
            return ~inside & ~np.asarray(pd.isna(column), dtype=bool)
        if op in THRESHOLD_OPS:
            below, above = threshold_tests(column, self.feature, [self.value])  # type: ignore[list-item]
            return (below if op == "<=" else above)[:, 0]
        x = _numeric_values(column, self.feature)
        with np.errstate(invalid="ignore"):
            if op == "is_true":
                return x == 1
            return x == 0

    def to_dict(self) -> dict[str, object]:
        """Return ``{"feature": ..., "op": ..., "value": ...}`` (a list of categories for ``in``/``not_in``).

        Returns
        -------
        dict
            The literal's feature, operator and value.
        """
        value = list(self.value) if self.op in SET_OPS else self.value  # type: ignore[call-overload]
        return {"feature": self.feature, "op": self.op, "value": value}


# ---------------------------------------------------------------------------
# Clause
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    """A set of literals; the connective comes from the enclosing rule.

    In a CNF rule a clause is the OR of its literals (an empty clause is
    False); in a DNF rule it is the AND of its literals (an empty clause is
    True).

    Parameters
    ----------
    literals : iterable of Literal
        Duplicates are removed, keeping the first occurrence.

    Examples
    --------
    >>> a = Literal("a", "is_true")
    >>> Clause([a, a]).literals == (a,)
    True
    """

    literals: tuple[Literal, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.literals, Literal | str | Mapping):
            raise TypeError(
                "Clause takes an iterable of Literal objects; "
                f"got a single {type(self.literals).__name__}"
            )
        literals = tuple(dict.fromkeys(self.literals))
        for lit in literals:
            if not isinstance(lit, Literal):
                raise TypeError(
                    f"Clause literals must be Literal objects; got {type(lit).__name__} {lit!r}"
                )
        object.__setattr__(self, "literals", literals)

    def __iter__(self) -> Iterator[Literal]:
        return iter(self.literals)

    def __len__(self) -> int:
        return len(self.literals)

    def negate(self) -> Clause:
        """Return the clause of the negated literals (one De Morgan step).

        Returns
        -------
        Clause
            The clause of the negated literals.
        """
        return Clause(lit.negate() for lit in self.literals)

    def display_items(self, form: str) -> list[str]:
        """The conditions as printed: in an AND-term (``form='dnf'``) a column's
        ``x > a`` and ``x <= b`` print as one interval ``a < x <= b``, in place of
        the first of the two; every other literal prints as itself.

        Parameters
        ----------
        form : {"dnf", "cnf"}
            The rule form the clause belongs to; only ``"dnf"`` merges intervals.

        Returns
        -------
        list of str
            The conditions as printed, in order.
        """
        if form != "dnf":
            return [str(lit) for lit in self.literals]
        pairs = _interval_pairs(self.literals)
        items: list[str] = []
        for lit in self.literals:
            pair = pairs.get(lit.feature)
            if pair is None or lit not in pair:
                items.append(str(lit))
            elif lit is pair[0] or lit == pair[0]:
                low, high = sorted(pair, key=lambda p: p.op != ">")
                items.append(f"{format_threshold(low.value)} < {lit.feature} <= {format_threshold(high.value)}")  # type: ignore[arg-type]
        return items

    def to_str(self, form: str) -> str:
        """Render as ``(a AND b)`` (``form='dnf'``) or ``(a OR b)`` (``form='cnf'``); see :meth:`display_items`.

        Parameters
        ----------
        form : {"dnf", "cnf"}
            ``"dnf"`` joins the literals with AND (an empty clause is ``(True)``), any other form with OR
            (an empty clause is ``(False)``).

        Returns
        -------
        str
            The clause as text; an empty clause is ``(True)`` for ``"dnf"`` and ``(False)`` otherwise.
        """
        if not self.literals:
            return "(True)" if form == "dnf" else "(False)"
        joiner = " AND " if form == "dnf" else " OR "
        return "(" + joiner.join(self.display_items(form)) + ")"


def _interval_pairs(literals: Sequence[Literal]) -> dict[str, tuple[Literal, Literal]]:
    """Columns with exactly one ``>`` and one ``<=`` literal, lower bound below upper: ``{feature: (first, second)}``."""
    by_feature: dict[str, list[Literal]] = {}
    for lit in literals:
        if lit.op in THRESHOLD_OPS:
            by_feature.setdefault(lit.feature, []).append(lit)
    pairs = {}
    for feature, lits in by_feature.items():
        if len(lits) == 2 and {lit.op for lit in lits} == set(THRESHOLD_OPS):
            low = lits[0] if lits[0].op == ">" else lits[1]
            high = lits[1] if low is lits[0] else lits[0]
            if low.value < high.value:  # type: ignore[operator]
                pairs[feature] = (lits[0], lits[1])
    return pairs


# ---------------------------------------------------------------------------
# Rule
# ---------------------------------------------------------------------------


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
        members = [_binary_literal(Literal(lit.feature, member_op, v), A, index) for v in lit.value]  # type: ignore[union-attr]
        stacked = np.column_stack(members)
        return stacked.any(axis=1) if lit.op == "in" else stacked.all(axis=1)
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


@dataclass(frozen=True)
class Rule:
    """A two-level Boolean rule in CNF (AND of ORs) or DNF (OR of ANDs).

    Parameters
    ----------
    form : {'cnf', 'dnf'}
        ``'cnf'``: :math:`\\hat y = \\bigwedge_r \\bigvee_{j \\in C_r} a_j`;
        ``'dnf'``: :math:`\\hat y = \\bigvee_r \\bigwedge_{j \\in C_r} a_j`
        (Su et al., Section "Problem Formulation", Eqs. (def-hatv),
        (def-haty-hatv)). An empty CNF is True, an empty DNF is False.
    clauses : iterable of Clause (or of iterables of Literal)
        The :math:`R` clauses, in order. Duplicate clauses are kept.

    Examples
    --------
    >>> rule = Rule.dnf([[Literal("glucose", ">", 142.0), Literal("bmi", ">", 29.5)],
    ...                  [Literal("age", ">", 54.0)]])
    >>> print(rule)
    (glucose > 142.0 AND bmi > 29.5) OR (age > 54.0)
    >>> print(rule.negate())
    (glucose <= 142.0 OR bmi <= 29.5) AND (age <= 54.0)
    >>> X = pd.DataFrame({"glucose": [150, 100], "bmi": [30.0, 20.0], "age": [30, 60]})
    >>> rule.evaluate(X).tolist()
    [True, True]
    """

    form: str
    clauses: tuple[Clause, ...] = ()

    def __post_init__(self) -> None:
        if self.form not in _FORMS:
            raise ValueError(f"unknown rule form {self.form!r}; expected 'cnf' or 'dnf'")
        if isinstance(self.clauses, Clause | Literal | str | Mapping):
            raise TypeError(
                "Rule clauses must be an iterable of clauses; "
                f"got a single {type(self.clauses).__name__}"
            )
        clauses = tuple(c if isinstance(c, Clause) else Clause(c) for c in self.clauses)
        object.__setattr__(self, "clauses", clauses)

    # -- construction ------------------------------------------------------

    @classmethod
    def dnf(cls, terms: Iterable[Iterable[Literal]]) -> Rule:
        """Build a DNF rule (OR of AND-terms) from iterables of literals."""
        return cls("dnf", tuple(Clause(t) for t in terms))

    @classmethod
    def cnf(cls, clauses: Iterable[Iterable[Literal]]) -> Rule:
        """Build a CNF rule (AND of OR-clauses) from iterables of literals."""
        return cls("cnf", tuple(Clause(c) for c in clauses))

    # -- structure ---------------------------------------------------------

    @property
    def literals(self) -> tuple[Literal, ...]:
        """Distinct literals of the rule, in order of first appearance."""
        return tuple(dict.fromkeys(lit for c in self.clauses for lit in c.literals))

    @property
    def features(self) -> tuple[str, ...]:
        """Distinct raw features used, in order of first appearance."""
        return tuple(dict.fromkeys(lit.feature for lit in self.literals))

    @property
    def n_clauses(self) -> int:
        """Number of clauses :math:`R`."""
        return len(self.clauses)

    @property
    def n_literals(self) -> int:
        """Total number of literals, :math:`\\sum_r |C_r|` (the paper's sparsity cost)."""
        return sum(len(c) for c in self.clauses)

    @property
    def n_conditions(self) -> int:
        """Number of conditions as printed (:meth:`Clause.display_items`): a set
        literal ``x in {a, b}`` and an interval ``3 < x <= 7`` count once each.
        This is the size a reader sees; :attr:`n_literals` is the paper's count."""
        inner = "dnf" if self.form == "dnf" else "cnf"
        return sum(len(c.display_items(inner)) for c in self.clauses)

    @property
    def n_features(self) -> int:
        """Number of distinct raw features used."""
        return len(self.features)

    def complexity(self) -> dict[str, int]:
        """Return ``{'n_clauses': ..., 'n_literals': ..., 'n_conditions': ..., 'n_features': ...}``.

        Returns
        -------
        dict of str to int
            The numbers of clauses, literals, conditions and features.
        """
        return {
            "n_clauses": self.n_clauses,
            "n_literals": self.n_literals,
            "n_conditions": self.n_conditions,
            "n_features": self.n_features,
        }

    def negate(self) -> Rule:
        """Return the complementary rule by De Morgan's laws.

        :math:`\\neg \\bigvee_r \\bigwedge_{j \\in C_r} a_j =
        \\bigwedge_r \\bigvee_{j \\in C_r} \\neg a_j` and vice versa (Su et al.,
        Section "Problem Formulation"). ``rule.negate().evaluate(X)`` equals
        ``~rule.evaluate(X)`` on every row where each literal's negation is
        its complement, i.e. where the rule's features are not missing (and
        flag features are 0 or 1); see :meth:`Literal.evaluate`.

        Returns
        -------
        Rule
            The negated rule, of the other form.
        """
        form = "cnf" if self.form == "dnf" else "dnf"
        return Rule(form, tuple(c.negate() for c in self.clauses))

    # -- evaluation --------------------------------------------------------

    def _combine(self, values: np.ndarray, literals: Sequence[Literal], n: int) -> np.ndarray:
        """Clause outputs from the ``n x m`` truth table of ``literals``."""
        position = {lit: k for k, lit in enumerate(literals)}
        membership = np.zeros((len(literals), self.n_clauses), dtype=np.int64)
        for r, clause in enumerate(self.clauses):
            for lit in clause.literals:
                membership[position[lit], r] = 1
        if values.shape[1] == 0:
            counts = np.zeros((n, self.n_clauses), dtype=np.int64)
        else:
            counts = values.astype(np.int64) @ membership
        if self.form == "dnf":
            return counts == membership.sum(axis=0)
        return counts > 0

    def clause_outputs(self, X: pd.DataFrame) -> np.ndarray:
        """Per-clause values on raw data.

        Parameters
        ----------
        X : DataFrame
            Raw data (pandas, polars, pyarrow, ...) containing every feature of the rule.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples, n_clauses)
            Entry ``(i, r)`` is :math:`\\hat v_{i,r}`: the OR (CNF) or AND
            (DNF) of the literals of clause ``r`` on row ``i``.
        """
        frame = _as_frame(X)
        literals = self.literals
        n = len(frame)
        values = np.zeros((n, len(literals)), dtype=bool)
        for k, lit in enumerate(literals):
            values[:, k] = lit.evaluate(frame)
        return self._combine(values, literals, n)

    def clause_outputs_binary(self, A: Any, literals: Sequence[Literal]) -> np.ndarray:
        """Per-clause values on a binarized 0/1 matrix.

        Parameters
        ----------
        A : array-like or scipy.sparse matrix of shape (n_samples, n_literals)
            0/1 matrix whose column ``k`` is the truth value of ``literals[k]``
            (e.g. the output of ``FeatureBinarizer.transform``).
        literals : sequence of Literal
            The literal of each column of ``A`` (e.g. ``binarizer.literals_``).
            A rule literal missing from it may be served by its negation,
            as ``1 - A[:, k]``.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples, n_clauses)

        Raises
        ------
        ValueError
            If ``A`` is not 2-D with one column per literal.
        """
        literals = list(literals)
        if not hasattr(A, "tocsc"):
            A = np.asarray(A)
        if A.ndim != 2 or A.shape[1] != len(literals):
            raise ValueError(
                f"A has shape {A.shape} but {len(literals)} literals were given; "
                "pass one literal per column of A"
            )
        index = {lit: k for k, lit in enumerate(literals)}
        used = self.literals
        values = np.zeros((A.shape[0], len(used)), dtype=bool)
        for k, lit in enumerate(used):
            values[:, k] = _binary_literal(lit, A, index)
        return self._combine(values, used, A.shape[0])

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Evaluate the rule on raw data.

        Parameters
        ----------
        X : DataFrame
            Raw data (pandas, polars, pyarrow, ...) containing every feature of
            the rule (extra columns are ignored). Missing values follow
            :meth:`Literal.evaluate`.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples,)
            :math:`\\hat y_i`.
        """
        return self.reduce(self.clause_outputs(X))

    def evaluate_binary(self, A: Any, literals: Sequence[Literal]) -> np.ndarray:
        """Evaluate the rule on a binarized 0/1 matrix (see :meth:`clause_outputs_binary`).

        Parameters
        ----------
        A : array-like of 0/1, shape (n_samples, n_literals)
            The binarized matrix, one column per literal.
        literals : sequence of Literal
            The literal of each column of ``A``.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples,)
        """
        return self.reduce(self.clause_outputs_binary(A, literals))

    def reduce(self, clause_values: np.ndarray) -> np.ndarray:
        """The rule's value from its clause values ``(n, R)``: AND over clauses (CNF), OR (DNF).

        With no clause, True for a CNF and False for a DNF.

        Parameters
        ----------
        clause_values : numpy.ndarray of bool, shape (n_samples, n_clauses)
            The value of each clause on each row.

        Returns
        -------
        ndarray of bool of shape (n,)
            The rule's value on each row.
        """
        if self.form == "cnf":
            return clause_values.all(axis=1)
        return clause_values.any(axis=1)

    # -- text --------------------------------------------------------------

    def __str__(self) -> str:
        if not self.clauses:
            return "True" if self.form == "cnf" else "False"
        joiner = " AND " if self.form == "cnf" else " OR "
        inner = "dnf" if self.form == "dnf" else "cnf"
        return joiner.join(c.to_str(inner) for c in self.clauses)

    # -- exports (rulemodels.rules: to_sql, to_query, to_python, rule_html) ----

    def to_sql(self, *, cast: bool = True) -> str:
        """The rule as a NULL-aware boolean SQL expression (SQLite, DuckDB, PostgreSQL); see :func:`rulemodels.rules.to_sql`.

        Parameters
        ----------
        cast : bool, default=True
            Compare thresholds on ``"x" + 0``, so numbers stored as text (SQLite) compare as numbers.

        Returns
        -------
        str
            The SQL expression.
        """
        return _to_sql(self, cast=cast)

    def to_query(self) -> str:
        """The rule as a ``DataFrame.query``/``eval`` expression; see :func:`rulemodels.rules.to_query`.

        Returns
        -------
        str
            The pandas expression.
        """
        return _to_query(self)

    def to_python(self) -> str:
        """The source of a dependency-free module with ``predict_row(row) -> int``; see :func:`rulemodels.rules.to_python`.

        Returns
        -------
        str
            The source of the module.
        """
        return _to_python(self)

    def _repr_html_(self) -> str:
        """The rule as a small HTML table of its clauses, with its complexity (for notebooks)."""
        return _rule_html(self)

    # -- serialization -----------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """Return the rule as plain JSON-compatible data.

        The format is ``{"format": "rulemodels.rule", "version": 1, "form":
        "dnf", "clauses": [[{"feature": ..., "op": ..., "value": ...}, ...], ...]}``.
        A rule with set literals (``"op": "in"`` or ``"not_in"``, ``"value"`` a
        list of categories) is written as version 2; version 1 files (no set
        literals) are still read.

        Returns
        -------
        dict
            The rule's format, version, form and clauses.
        """
        has_sets = any(lit.op in SET_OPS for lit in self.literals)
        return {
            "format": _FORMAT_NAME,
            "version": _FORMAT_VERSION if has_sets else 1,
            "form": self.form,
            "clauses": [[lit.to_dict() for lit in c.literals] for c in self.clauses],
        }

    def to_json(self, indent: int | None = None) -> str:
        """Return :meth:`to_dict` as standard JSON text.

        Parameters
        ----------
        indent : int or None, default=None
            Passed to :func:`json.dumps`: None writes one line.

        Returns
        -------
        str
            The JSON text.
        """
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rule:
        """Build a rule from :meth:`to_dict` output, validating it strictly.

        Raises
        ------
        RuleFormatError
            If anything is malformed; the message names the offending path.
        """
        _check_object(d, "rule", required=("format", "version", "form", "clauses"))
        if d["format"] != _FORMAT_NAME:
            raise RuleFormatError(f"format: expected {_FORMAT_NAME!r}, got {d['format']!r}")
        version = d["version"]
        if type(version) is not int or version not in _READABLE_VERSIONS:  # 1.0 and true are not versions
            raise RuleFormatError(
                f"version: unsupported version {version!r}; this release reads versions "
                f"{', '.join(map(str, _READABLE_VERSIONS))} (a whole number, as written by to_dict)"
            )
        if d["form"] not in _FORMS:
            raise RuleFormatError(f"form: unknown form {d['form']!r}; expected 'cnf' or 'dnf'")
        clauses = d["clauses"]
        if not isinstance(clauses, list):
            raise RuleFormatError(
                f"clauses: expected a list of clauses, got {type(clauses).__name__}"
            )
        rule = cls(d["form"], tuple(_clause_from_data(c, f"clauses[{r}]")
                                    for r, c in enumerate(clauses)))
        if version < _FORMAT_VERSION:
            _check_no_set_ops(clauses, version)
        return rule

    @classmethod
    def from_json(cls, s: str | bytes) -> Rule:
        """Parse :meth:`to_json` output (never pickle, never ``eval``).

        An object that names a key twice is refused (JSON parsers keep the last
        one, while a reader of the file sees the first).
        """
        if not isinstance(s, str | bytes | bytearray):
            raise TypeError(f"from_json expects JSON text (str or bytes); got {type(s).__name__}")
        try:
            data = json.loads(s, parse_constant=_reject_constant, object_pairs_hook=_object_from_pairs)
        except json.JSONDecodeError as exc:
            raise RuleFormatError(
                f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        check_unique_keys(data, "the rule")
        return cls.from_dict(data)


# ---------------------------------------------------------------------------
# Deserialization helpers
# ---------------------------------------------------------------------------

_LITERAL_KEYS = ("feature", "op", "value")


def _reject_constant(name: str) -> None:
    raise RuleFormatError(f"invalid JSON: {name} is not a standard JSON value")


class _ParsedObject(dict):
    """A JSON object as parsed by :func:`_object_from_pairs`: a dict that remembers a repeated key."""

    repeated: str | None = None


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook``: the object as a dict, noting the first key named twice.

    The error is raised by :func:`check_unique_keys`, which knows where the object is.
    """
    parsed = dict(pairs)
    if len(parsed) == len(pairs):
        return parsed
    marked = _ParsedObject(pairs)  # only an object with a repeated key is marked
    seen: set[str] = set()
    marked.repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
    return marked


def check_unique_keys(document: Any, root: str) -> None:
    """Raise :class:`RuleFormatError` naming the first key an object of ``document`` repeats, and where.

    ``document`` is parsed with ``object_pairs_hook=_object_from_pairs``; ``root``
    names the whole document in the message (``"the rule"``). One pass over the
    document, without recursion.
    """
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            repeated = getattr(value, "repeated", None)
            if repeated is not None:
                where = f"in {path}" if path else f"at the top of {root}"
                raise RuleFormatError(
                    f"duplicate key {repeated!r} {where}: a JSON object must name each key once (a parser keeps "
                    "the last value while a reader sees the first); remove one of them"
                )
            stack.extend((item, f"{path}.{key}" if path else str(key)) for key, item in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{k}]") for k, item in reversed(list(enumerate(value))))


def _check_no_set_ops(clauses: list[Any], version: int) -> None:
    """Refuse a set literal in a rule of a version before set literals existed (a file edited by hand)."""
    for r, clause in enumerate(clauses):
        for j, item in enumerate(clause):
            if item["op"] in SET_OPS:
                raise RuleFormatError(
                    f"clauses[{r}][{j}].op: op {item['op']!r} is a version-{_FORMAT_VERSION} operator, but the rule "
                    f"says version {version}: the file is inconsistent (set 'version' to {_FORMAT_VERSION}, "
                    "or write the rule again with to_json)"
                )


def _check_object(data: object, path: str, required: Sequence[str],
                  optional: Sequence[str] = ()) -> None:
    """Check that ``data`` is a dict with exactly the expected keys."""
    if not isinstance(data, Mapping):
        raise RuleFormatError(
            f"{path}: expected an object with keys {', '.join(required)}; "
            f"got {type(data).__name__}"
        )
    for key in required:
        if key not in data:
            raise RuleFormatError(f"{path}: missing key {key!r}")
    unknown = [k for k in data if k not in required and k not in optional]
    if unknown:
        raise RuleFormatError(f"{path}: unexpected key(s) {', '.join(map(repr, unknown))}")


def _clause_from_data(data: object, path: str) -> Clause:
    if not isinstance(data, list):
        raise RuleFormatError(f"{path}: expected a list of literals, got {type(data).__name__}")
    return Clause(_literal_from_data(item, f"{path}[{j}]") for j, item in enumerate(data))


def _literal_from_data(data: object, path: str) -> Literal:
    _check_object(data, path, required=("feature", "op"), optional=("value",))
    assert isinstance(data, Mapping)
    feature, op, value = data["feature"], data["op"], data.get("value")
    if not isinstance(feature, str):
        raise RuleFormatError(f"{path}.feature: expected a string, got {type(feature).__name__}")
    if not isinstance(op, str) or op not in VALID_OPS:
        raise RuleFormatError(f"{path}.op: unknown op {op!r}; expected one of {_VALID_OPS_TEXT}")
    if op in SET_OPS:
        if not isinstance(value, list) or not all(isinstance(v, str | int | float | bool) for v in value):
            raise RuleFormatError(f"{path}.value: op {op!r} needs a list of categories (JSON scalars)")
    elif value is not None and not isinstance(value, str | int | float | bool):
        raise RuleFormatError(
            f"{path}.value: expected a JSON scalar (string, number, boolean or null), "
            f"got {type(value).__name__}"
        )
    if value is None and op not in FLAG_OPS + NAN_OPS:
        raise RuleFormatError(f"{path}.value: op {op!r} needs a value; got null or nothing")
    try:
        return Literal(feature, op, value)
    except (TypeError, ValueError) as exc:
        raise RuleFormatError(f"{path}.value: {exc}") from exc
