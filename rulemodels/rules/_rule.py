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

This module holds the value types and depends on numpy and pandas only: no
optimisation modelling. Their evaluation on raw columns and on the binary matrix
is :mod:`rulemodels.rules._evaluate`, the reading of their JSON
:mod:`rulemodels.rules._json`, the operators :mod:`rulemodels.rules._ops`; their
export methods (:meth:`Rule.to_sql` and the like) call the functions of
:mod:`rulemodels.rules._export` and ``_display``, which use the standard library
only. None of these modules imports this one back.

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
from typing import Any, cast

import numpy as np
import pandas as pd

# The evaluation on raw columns, the JSON reader, the exports and the HTML view read these values by their
# attributes only (they import the types for annotations only; the JSON reader gets the Literal constructor
# as an argument), so this module imports them and nothing imports back.
from rulemodels.rules._display import rule_html as _rule_html
from rulemodels.rules._evaluate import _binary_literal, literal_values
from rulemodels.rules._export import to_python as _to_python
from rulemodels.rules._export import to_query as _to_query
from rulemodels.rules._export import to_sql as _to_sql
from rulemodels.rules._json import FORMAT_NAME, FORMAT_VERSION, RuleFormatError, read_rule_data, read_rule_json
from rulemodels.rules._ops import (
    CATEGORY_OPS,
    FLAG_OPS,
    FORMS,
    NAN_OPS,
    SET_OPS,
    THRESHOLD_OPS,
    VALID_OPS,
    VALID_OPS_TEXT,
)
from rulemodels.utils import to_frame

__all__ = ["Literal", "Clause", "Rule", "RuleFormatError", "VALID_OPS"]

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

# ---------------------------------------------------------------------------
# Value normalisation
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
            raise ValueError(f"unknown op {self.op!r}; expected one of {VALID_OPS_TEXT}")
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
            shown = ", ".join(_format_category(v) for v in cast("tuple[object, ...]", value))
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
            The literal's truth value on each row (False where the column is missing, for every operator).
        """
        return literal_values(self, to_frame(X))

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
        return Clause(tuple(lit.negate() for lit in self.literals))

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
        if self.form not in FORMS:
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
        """Build a DNF rule (OR of AND-terms) from iterables of literals.

        Parameters
        ----------
        terms : iterable of iterable of Literal
            The terms, each the literals it ANDs.

        Returns
        -------
        Rule
            The rule ``OR_r AND_{l in terms[r]} l``.
        """
        return cls("dnf", tuple(Clause(cast("tuple[Literal, ...]", t)) for t in terms))  # Clause checks and converts

    @classmethod
    def cnf(cls, clauses: Iterable[Iterable[Literal]]) -> Rule:
        """Build a CNF rule (AND of OR-clauses) from iterables of literals.

        Parameters
        ----------
        clauses : iterable of iterable of Literal
            The clauses, each the literals it ORs.

        Returns
        -------
        Rule
            The rule ``AND_r OR_{l in clauses[r]} l``.
        """
        return cls("cnf", tuple(Clause(cast("tuple[Literal, ...]", c)) for c in clauses))  # Clause checks and converts

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
        frame = to_frame(X)  # checked once here, not again for each literal
        literals = self.literals
        n = len(frame)
        values = np.zeros((n, len(literals)), dtype=bool)
        for k, lit in enumerate(literals):
            values[:, k] = literal_values(lit, frame)
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
            Entry ``(i, r)`` is :math:`\\hat v_{i,r}`, the value of clause ``r`` on row ``i``.

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
            :math:`\\hat y_i`, the rule's value on each row.
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
            return np.asarray(clause_values.all(axis=1))
        return np.asarray(clause_values.any(axis=1))

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
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION if has_sets else 1,
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

        Parameters
        ----------
        d : Mapping
            The dict :meth:`to_dict` returns (e.g. parsed JSON).

        Returns
        -------
        Rule
            The rule ``d`` describes.

        Raises
        ------
        RuleFormatError
            If anything is malformed; the message names the offending path.
        """
        form, clauses = read_rule_data(d, Literal)
        return cls(form, tuple(Clause(tuple(c)) for c in clauses))

    @classmethod
    def from_json(cls, s: str | bytes) -> Rule:
        """Parse :meth:`to_json` output (never pickle, never ``eval``).

        An object that names a key twice is refused (JSON parsers keep the last
        one, while a reader of the file sees the first).

        Parameters
        ----------
        s : str or bytes
            The JSON text.

        Returns
        -------
        Rule
            The rule the text describes.

        Raises
        ------
        RuleFormatError
            If the text is not JSON, names a key twice or is not a valid rule.
        """
        return cls.from_dict(read_rule_json(s))
