"""Binarize raw features into 0/1 literal columns for two-level rule learning.

Rule learning in Su et al. works on a binary matrix :math:`A \\in \\{0,1\\}^{n
\\times d}` whose columns are Boolean tests on raw features, with negations
included ("we assume the negation of each feature is included as another input
feature", Section "Problem Formulation"). :class:`FeatureBinarizer` builds that
matrix and records, for each column, the :class:`~rulemodels.rules.Literal` it
stands for, plus the redundancy structure used by the paper's
redundancy-aware binarization (Section "Redundancy Aware Binarization").
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import Tags
from sklearn.utils.validation import check_is_fitted

from rulemodels import defaults
from rulemodels.data._columns import (
    _all_missing_message,
    _check_cells,
    _id_like_message,
    _is_categorical_column,
    _missing_message,
    _mixed_message,
    _mixed_numbers_and_strings,
    _numeric_id_message,
    float_precision,
    numeric_column_values,
)
from rulemodels.data._thresholds import _in_precision, _linear_quantiles, _RepeatedValues, _shorten, _tree_cuts
from rulemodels.rules import ColumnKind, Literal, conform
from rulemodels.rules._evaluate import _category_codes, _numeric_values, threshold_tests
from rulemodels.rules._kinds import KINDS, category_values
from rulemodels.utils import (
    PARAMETERS,
    Options,
    as_pandas,
    check_unique_column_names,
    resolve_min_rows,
    to_frame,
    validate_params,
)

__all__ = ["AllMissingColumnWarning", "ColumnSummary", "FeatureBinarizer", "IDLikeColumnWarning", "numeric_column_values"]


class AllMissingColumnWarning(UserWarning):
    """A column is missing (None or NaN) in every training row: it yields no literals.

    It is most often a column read wrongly (a misspelled missing-value marker,
    a join that matched nothing); drop it before the fit, or fix how it is read.
    """


class IDLikeColumnWarning(UserWarning):
    """A column has (nearly) one distinct value per row, or holds row numbers, and its values were left out.

    Such a column (an ID, a timestamp or date kept as text, free text, a
    record number) would become one ``x == v`` literal per row, or thresholds
    that split the file by position, and a rule over it only memorises the
    training rows. :class:`FeatureBinarizer` drops its values unless
    ``high_cardinality='keep'``; with missing values its ``x is missing``
    literal stays (the message says so).
    """


#: A categorical column is ID-like when it has at least this many distinct
#: present values ...
ID_LIKE_MIN_DISTINCT = 20
#: ... and they are at least this share of its present values.
ID_LIKE_SHARE = 0.9
#: A numeric column is ID-like (row numbers, record numbers) when its present
#: values are at least ``ID_LIKE_MIN_DISTINCT`` distinct integers, one per
#: row, that fill at least this share of the integers from their minimum to
#: their maximum (row numbers, also of a shuffled sample or of a training fold).
ID_LIKE_DENSITY = 0.5

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Labels:
    """What the label-aware thresholds read of ``y``: each row's class index, the number of classes, the weights."""

    codes: np.ndarray
    n_classes: int
    weights: np.ndarray

    @property
    def n_rows(self) -> float:
        """The training rows (the n of a floor in rows)."""
        return float(self.codes.shape[0])


@dataclass(frozen=True)
class _ColumnPlan:
    """How one source column maps to a block of output columns."""

    name: str
    kind: str  # "threshold", "flag", "category" or "dropped" (an ID-like column: no literals)
    values: tuple[Any, ...]  # thresholds (floats) or categories
    indicator: bool
    negations: bool
    start: int

    @property
    def n_values(self) -> int:
        return len(self.values)

    @property
    def width(self) -> int:
        per_value = 2 if self.negations else 1
        if self.kind == "dropped":  # an ID-like column: its missing indicator only
            return per_value if self.indicator else 0
        if self.kind == "flag":
            body = per_value
        else:
            body = per_value * self.n_values
        return body + (per_value if self.indicator else 0)

    def literals(self) -> list[Literal]:
        """Output literals of this column, in output order."""
        name = self.name
        body: list[Literal] = []
        if self.kind == "threshold":
            body = [Literal(name, "<=", t) for t in self.values]
            if self.negations:
                body += [Literal(name, ">", t) for t in self.values]
        elif self.kind == "category":
            body = [Literal(name, "==", v) for v in self.values]
            if self.negations:
                body += [Literal(name, "!=", v) for v in self.values]
        elif self.kind == "flag":
            body = [Literal(name, "is_true")]
            if self.negations:
                body.append(Literal(name, "is_false"))
        if self.indicator:
            body.append(Literal(name, "is_nan"))
            if self.negations:
                body.append(Literal(name, "not_nan"))
        return body


def _label_codes(y: Any, n_samples: int) -> tuple[np.ndarray, int]:
    """``(codes, n_classes)``: the class index of each row's label (any number of classes)."""
    y_array = np.asarray(y)
    if y_array.ndim == 2 and y_array.shape[1] == 1:
        y_array = y_array.ravel()
    if y_array.ndim != 1:
        raise ValueError(f"y must be 1-dimensional (one label per sample), got shape {y_array.shape}")
    if y_array.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but y has {y_array.shape[0]} labels")
    codes, classes = pd.factorize(pd.Series(y_array, dtype=object), sort=False)
    if (codes < 0).any():
        raise ValueError("y has missing labels (NaN or None): drop those rows or fill in their labels")
    return codes.astype(np.intp), max(len(classes), 1)


def _row_weights(sample_weight: Any, n_samples: int) -> np.ndarray:
    """The label-aware thresholds' row weights (ones when None): finite, non-negative, one per row.

    Only their ratios matter to the trees; the estimators pass weights already checked
    (:func:`rulemodels.data.check_sample_weight`), this check is for a binarizer fitted on its own.
    """
    if sample_weight is None:
        return np.ones(n_samples)
    weights = np.asarray(sample_weight, dtype=float)
    if weights.ndim == 0:
        weights = np.full(n_samples, float(weights))
    if weights.shape != (n_samples,):
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected ({n_samples},)")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("sample_weight must be finite and >= 0")
    if not np.any(weights > 0):
        raise ValueError("Sample weights must contain at least one non-zero number: every sample has weight zero")
    return weights


def _checked_frame(X: Any) -> tuple[pd.DataFrame, bool]:
    """``(frame, had_names)``: ``X`` through :func:`rulemodels.utils.to_frame` (an object array's columns get
    their dtypes inferred, so numbers stay numbers), and whether it came with column names (a DataFrame)."""
    X = as_pandas(X)
    return to_frame(X, infer_objects=True), isinstance(X, pd.DataFrame)


@dataclass(frozen=True)
class ColumnSummary:
    """What :meth:`FeatureBinarizer.fit_summary` needs of one column: counts gathered in one pass over data
    too large to hold at once (Parquet batches, Dask partitions; :mod:`rulemodels.data._stream`).

    Parameters
    ----------
    name : str
        The column's name.
    categorical : bool
        Whether the column is categorical (the binarizer's ``categorical='auto'`` rule, applied to every batch).
    n_rows, n_missing : int
        Rows, and rows where the column is missing.
    values : ndarray
        Numeric column: its distinct present values as floats, sorted (with ``counts``), or a sorted uniform
        sample of its present values (``counts`` None: more distinct values than the pass's cap).
        Categorical column: its distinct present values (objects).
    counts : ndarray of int or None
        How often each of ``values`` occurs; None when ``values`` is a sample.
    maximum : float
        Numeric column: its largest present value (exact, also when ``values`` is a sample).
    category_dtype : bool
        The column has pandas' ``category`` dtype (declared categorical: no numbers-and-text check).
    class_weights : ndarray of shape (len(values), n_classes) or None, default=None
        Numeric column, for label-aware thresholds: the summed weight of the rows of each of ``values`` in
        each class (the weights the fit gives the rows, class weights included), the class indices being the
        columns. With a sample (``counts`` None) each row is one sampled value, its weight in its class.
        None: no labels were kept, and the thresholds are quantiles.
    n_weighted_rows : int, default=0
        Numeric column, with ``class_weights``: the rows of the whole column (not of the sample) whose value
        is present and finite and whose weight is positive; the floor of ``min_leaf_rows`` is that many rows'
        mean weight, ``sum(class_weights) / n_weighted_rows`` (of the sample's weights for a sample).
    minimum : float, default=nan
        Numeric column: its smallest present value (exact, also when ``values`` is a sample).
    integers : bool, default=False
        Numeric column: every present value is a finite integer (exact, also when ``values`` is a sample).
        With ``minimum``, ``maximum`` and the row counts, what the ID-like check of a sampled column reads.
    float_dtype : {'float32', 'float16'} or None, default=None
        Numeric column of floats narrower than float64: their dtype, in whose precision the thresholds are
        chosen and written (as :meth:`FeatureBinarizer.fit` does on such a column). None: float64 or integers.
    """

    name: str
    categorical: bool
    n_rows: int
    n_missing: int
    values: np.ndarray
    counts: np.ndarray | None
    maximum: float = float("nan")
    category_dtype: bool = False
    class_weights: np.ndarray | None = None
    n_weighted_rows: int = 0
    minimum: float = float("nan")
    integers: bool = False
    float_dtype: str | None = None


def _column_kind(plan: _ColumnPlan, column: pd.Series, categorical: bool) -> ColumnKind:
    """The kind of a fitted column (what :func:`rulemodels.rules.conform` reads it back as)."""
    if plan.kind == "flag":
        return ColumnKind("flag")
    if plan.kind == "threshold" or not categorical:  # a numeric column left out as row numbers stays numeric
        return ColumnKind("numeric")
    present = column.to_numpy(dtype=object)[~np.asarray(pd.isna(column), dtype=bool)]
    return ColumnKind("categorical", category_values(present))


#: What ``column_kinds`` takes for a column: a :class:`ColumnKind`, its name (``'numeric'``, ``'flag'``,
#: ``'categorical'``) or its dict (:meth:`ColumnKind.to_dict`).
ColumnKindSpec = ColumnKind | str | Mapping[str, object]

#: A kind decided already (``column_kinds``): the kind, and a categorical column's values (None: read from the rows).
_Decided = tuple[str, "str | None"]


def _parse_column_kinds(column_kinds: Mapping[str, ColumnKindSpec] | None) -> dict[str, _Decided]:
    """``column_kinds`` as ``{column: (kind, values or None)}``; a ValueError naming an entry that is no kind."""
    parsed: dict[str, _Decided] = {}
    for name, value in (column_kinds or {}).items():
        if isinstance(value, str):
            if value not in KINDS:
                raise ValueError(f"column_kinds[{name!r}] must be one of {', '.join(KINDS)} or a ColumnKind, got {value!r}")
            parsed[str(name)] = (value, None)
            continue
        try:
            kind = value if isinstance(value, ColumnKind) else ColumnKind.from_dict(value)
        except ValueError as exc:
            raise ValueError(f"column_kinds[{name!r}]: {exc}") from exc
        parsed[str(name)] = (kind.kind, kind.values)
    return parsed


def _decided_kind(decided: _Decided, present: Any) -> ColumnKind:
    """The :class:`ColumnKind` of a decided column; a categorical one's values from ``present`` if not decided."""
    kind, values = decided
    if kind == "categorical" and values is None:
        values = category_values(present)
    return ColumnKind(kind, values)


def _check_flag(name: str, decided: str | None, distinct: np.ndarray) -> None:
    """Raise if ``column_kinds`` calls ``name`` a flag and its present values (``distinct``) are not all 0 or 1."""
    if decided != "flag":
        return
    other = distinct[~np.isin(distinct, (0.0, 1.0))]
    if other.size:
        raise ValueError(
            f"column_kinds says column {name!r} is a flag, but it holds other values than 0 and 1 (e.g. {float(other[0]):g}): "
            "call it 'numeric' in column_kinds, or decide the kinds on these rows (decide_column_kinds)"
        )


class FeatureBinarizer(TransformerMixin, BaseEstimator):
    """Turn raw features into 0/1 literal columns for Boolean rule learning.

    Each output column is a :class:`~rulemodels.rules.Literal` on one source
    column, so a rule learned on the output can be read, and evaluated, in
    terms of the raw features.

    * Numeric column: thresholds :math:`t_1 < \\dots < t_K` are sample
      quantiles of the non-missing, finite training values at levels
      :math:`k / (K_{\\max} + 1)`, :math:`k = 1, \\dots, K_{\\max}`
      (``n_thresholds``; ``numpy.quantile`` with its default ``'linear'``
      method), deduplicated, and with any threshold at or above the column
      maximum dropped (its ``<=`` literal would be constant). A column with at
      most ``n_thresholds + 1`` distinct values uses its finite distinct values
      except the maximum. Each threshold is then written as the number of
      fewest significant digits between the two consecutive training values
      around it (``round_thresholds``): the quantile 1249.78773752 of a column
      whose next value is 1251.3 becomes 1250, and an integer column gets
      integer thresholds. Any number there splits the training values alike,
      so the training rows are binarized exactly as by the quantile, the rule
      prints the number it compares, and two distinct training values are
      never merged (two quantiles between the same two values become one
      threshold). Literals: ``x <= t_k`` for ascending ``k``, then
      (with ``negations``) ``x > t_k`` for ascending ``k``.
    * With ``thresholds='tree'`` a numeric column's thresholds are instead the
      cut points of a classification tree (Gini impurity) grown on that column
      alone from ``fit``'s labels and weights: best split first, at most
      ``n_thresholds + 1`` leaves, each with at least
      :data:`~rulemodels.defaults.TREE_MIN_LEAF_SHARE` of the column's present
      weight and at least ``min_leaf_rows`` rows' weight, only splits that lower the impurity (a column the labels do not
      depend on may get none). Missing values are left out; tied values stay
      together; each cut lies in ``[a, b)`` between consecutive distinct finite
      training values ``a < b`` (the number of fewest significant digits
      there, the nearest to their midpoint; the midpoint itself with
      ``round_thresholds=False``), so it never merges two of them.
      ``'quantile+tree'``: the quantile thresholds plus the tree's cuts that
      separate other values than they do.
    * A column of float32 or float16 numbers (numpy, pandas' ``Float32``,
      Arrow's ``float``/``halffloat``) gets its thresholds in its own
      precision: each is a decimal in the lower half of the gap between two
      numbers of its dtype (between float32's 0.3 and 0.4 it is 0.35: the
      decimal 0.4 is float32's 0.4 to an engine that compares in float32 and
      a number below it to one that widens to float64). Read in the column's
      precision, in float64 or exactly, it splits every number of that dtype
      alike, so ``predict`` and every export agree on such a column. With
      ``round_thresholds=False`` each quantile or midpoint is written so, at
      the column's number at or below it.
    * Numeric column with values in {0, 1} (or bool): ``x`` (``is_true``)
      and, with ``negations``, ``not x`` (``is_false``).
    * Categorical column: for each category seen in training (sorted by
      ``str``), ``x == v``, then (with ``negations``) ``x != v``. Unseen
      categories at transform time give 0 for every ``==`` and 1 for every
      ``!=``.
    * Constant column (at most one distinct non-missing value): no value
      literals (logged at DEBUG level), only the missing-value indicators
      if any.

    Parameters
    ----------
    n_thresholds : int, default=9
        Maximum number of thresholds per numeric column (>= 1).
    thresholds : {'quantile', 'tree', 'quantile+tree'}, default='quantile'
        Where they go: at quantiles of the column (no labels), where the
        classes change (a one-column tree fitted with ``y``; :meth:`fit` then
        needs ``y``), or both. Label-aware thresholds help when a class is
        confined to a narrow range, e.g. a rare class in a tail smaller than
        a quantile bin. :meth:`fit_summary` places them from per-class
        counts (:attr:`ColumnSummary.class_weights`), and uses quantiles for a
        column summarised without them.
    round_thresholds : bool, default=True
        Write each numeric threshold as the number of fewest significant
        digits between the training values around it (see above). ``False``
        keeps the quantiles themselves (numpy's linear interpolation, the
        12-significant-digit value when that stays between the same two
        values; the paper's decile boundaries, which ``rulemodels reproduce``
        uses) and the trees' midpoints. Either way the training rows are
        binarized alike; only rows of new data that fall between two training
        values can differ.
    min_leaf_rows : float or "auto", default="auto"
        With label-aware thresholds, the least weight a cut leaves on each
        side, in rows of the column's mean present weight: ``"auto"`` is
        ½ ln n for ``n`` training rows (2.6 rows on 200 rows, 3.5 on
        1,000; :func:`rulemodels.utils.literal_floor`), the least cost of a
        literal in the estimators (``docs/theta.md``, "A floor in rows"): a
        cut that leaves fewer rows on a side makes a literal that can never
        pay for itself. 0: the share alone.
    negations : bool, default=True
        Also emit the complement of each literal (``>``, ``!=``,
        ``is_false``, ``not_nan``). The paper's formulation assumes
        negations are present; a DNF learned by negating a CNF needs them.
    nan : {'error', 'indicator'}, default='error'
        ``'error'``: missing values in fit or transform raise ``ValueError``.
        ``'indicator'``: each column with missing values at fit time gets
        ``x is NaN`` (and, with ``negations``, ``x is not NaN``) literals;
        every other literal of a column is 0 on rows where it is missing,
        including at transform time for columns that had no missing values
        at fit time.
    high_cardinality : {'drop', 'keep'} or list of str, default='drop'
        What to do with an ID-like column: a categorical column whose present
        values are (nearly) all distinct (at least 20 distinct values, and at
        least 90 % of its present values), or a numeric one that looks like
        row numbers (at least 20 distinct integers, one per row, filling at
        least half of the integers from their minimum to their maximum).
        ``'drop'`` leaves its values out (no value literals) with an
        :class:`IDLikeColumnWarning`; with ``nan='indicator'`` a column with
        missing values keeps its ``x is missing`` (and ``x is not missing``)
        literals, since whether a row has an ID at all (a refund, a coupon)
        memorises no row. ``'keep'`` makes one category per value, or
        thresholds on the numbers. A list names the ID-like columns: a
        decision made already, e.g. by :meth:`id_like_columns` on all the rows
        of which :meth:`fit` sees a part (:class:`~rulemodels.BooleanRuleCV`
        decides once for its folds and its refit); those columns are treated
        as ``'drop'`` treats an ID-like one, without a warning, and the others
        are kept. A Parquet or Dask fit (:meth:`fit_summary`) decides from the
        counts, and for a numeric column with more distinct values than it
        counts, from its exact row counts, minimum, maximum and whether all
        its values are integers, with the uniform sample showing that no
        value repeats.
    categorical : 'auto' or list of str, default='auto'
        Columns to treat as categorical. ``'auto'``: columns of object,
        string or category dtype, except object columns whose present values
        are all numbers (Python ints or floats, ``Decimal`` from ``read_sql``
        of NUMERIC), which are numeric; text that looks like a number
        (``"250"``) stays categorical. A list names the columns (as ``str``; for
        array input ``'x0'``, ``'x1'``, ...); all other columns must be
        numeric or bool.
    column_kinds : dict of str to ColumnKind or str, default=None
        The kind of each named column, a decision made already, e.g. by
        :meth:`decide_column_kinds` on all the rows of which :meth:`fit` sees
        a part (:class:`~rulemodels.BooleanRuleCV` decides once for its folds
        and its refit). Each value is a :class:`~rulemodels.rules.ColumnKind`
        (or its ``to_dict()`` form), or one of ``'numeric'``, ``'flag'``,
        ``'categorical'`` (whose values, text, numbers or mixed, are then read
        from the rows). A named column is taken as that kind instead of
        being judged from the rows: ``'numeric'`` gets thresholds also when
        the rows hold only 0 and 1, ``'flag'`` gets ``x`` / ``not x`` also
        when the rows hold one of them only (then no value literals, as a
        constant column), ``'categorical'`` gets categories without the
        numbers-and-text check, and :meth:`transform` reads the column back as
        that kind (``column_kinds_``). Columns it does not name are judged
        from the rows, as without it. A column it names that ``categorical``
        (a list) contradicts, a ``'flag'`` holding other values than 0 and 1,
        or a ``'numeric'`` one holding text, is a ``ValueError``. Whether a
        column is ID-like is ``high_cardinality``'s decision.

    Attributes
    ----------
    n_features_in_ : int
        Number of source columns seen in :meth:`fit`.
    feature_names_in_ : ndarray of str, shape ``(n_features_in_,)``
        Source column names (converted to ``str``). Set only when ``X`` is a
        DataFrame.
    literals_ : list of Literal
        The literal of each output column, in output order.
    groups_ : ndarray of int, shape (n_output,)
        Index of the source column of each output column.
    thresholds_ : dict of str to ndarray
        Thresholds of each numeric (non-flag, non-categorical) column,
        ascending; empty for a constant column.
    categories_ : dict of str to list
        Training categories of each categorical column, in output order;
        empty for a column with a single category.
    dropped_columns_ : list of str
        ID-like columns whose values are left out (see ``high_cardinality``):
        text with one value per row, and numbers that look like row numbers
        (at least 20 distinct integers, one per row, filling at least half of
        the integers from their minimum to their maximum), each with an
        :class:`IDLikeColumnWarning`. One with missing values keeps its
        missing-value literals.
    constant_columns_ : list of str
        Columns that yield no literals because they hold one value (or none)
        in every training row; a column missing in every row also gives an
        :class:`AllMissingColumnWarning`.
    column_kinds_ : dict of str to ColumnKind
        What each source column was in :meth:`fit`: numeric, a flag, or
        categorical with text, number or mixed categories
        (:class:`rulemodels.rules.ColumnKind`). :meth:`transform` reads each
        column with literals back as that kind (:func:`rulemodels.rules.conform`):
        text categories match as text however pandas parsed them (``250`` and
        ``250.0`` as ``'250'``), objects holding numbers are numbers, and a
        column holding values of another kind gets one
        :class:`~rulemodels.rules.ColumnKindDriftWarning` saying what is done
        with them.
    chains_ : list of tuple of int
        Nested chains of output columns: ``A[:, c[k]] <= A[:, c[k + 1]]``
        elementwise on any data. For each thresholded column, one chain of the
        ``<=`` literals by ascending threshold and (with ``negations``) one of
        the ``>`` literals by descending threshold.
    complements_ : list of tuple of int
        Pairs ``(j1, j2)`` with ``A[:, j1] + A[:, j2] == 1`` on every row where
        the source value is present (and, for flag columns, is 0 or 1):
        ``<=``/``>`` at one threshold, ``==``/``!=``, ``is_true``/``is_false``
        and ``is_nan``/``not_nan``.
    feature_metadata_ : pandas.DataFrame
        One row per output column with columns ``name`` (``str`` of the
        literal), ``source``, ``op``, ``value``, ``group``, ``chain`` (index
        into ``chains_`` or -1), ``chain_position`` (or -1) and ``complement``
        (output index of the complementary column or -1).

    See Also
    --------
    rulemodels.rules.Rule.evaluate_binary : evaluate a rule on the output.

    Notes
    -----
    Raw evaluation and binarization agree: for every output column ``k``,
    ``transform(X)[:, k] == literals_[k].evaluate(X)``, missing values
    included. The output never contains NaN. Infinite values are ordinary
    numbers (``x <= t`` is False for ``+inf``); thresholds are always finite.

    The fitted structure feeds the redundancy-aware binarization of the LP
    solution (Su et al., Section "Redundancy Aware Binarization"), which keeps
    at most one feature of each *redundancy set* in a CNF clause (a DNF term,
    by De Morgan):

    1. *Nested features* (``chains_``): if :math:`a_{i,j_1} \\le a_{i,j_2}` for
       all :math:`i` then :math:`a_{j_1} \\vee a_{j_2} = a_{j_2}`, so at most
       one member of a chain belongs in a clause. With thresholds
       :math:`\\tau_1 < \\dots < \\tau_K` the chains are
       :math:`(c \\le \\tau_1, \\dots, c \\le \\tau_K)` and
       :math:`(c > \\tau_K, \\dots, c > \\tau_1)`.
    2. *Complementary features* (``complements_``): :math:`a_{j_1} \\vee
       a_{j_2} = 1`, so a clause holding both is always true and could be
       disabled instead.
    3. *Zigzag paths*: walking down the ``>`` chain and switching to the
       ``<=`` chain at a shared threshold, e.g. :math:`(c > \\tau_1, c >
       \\tau_2, c \\le \\tau_2, c \\le \\tau_3)`; any two members are nested or
       cover every row (:math:`c > \\tau_i \\vee c \\le \\tau_j = 1` for
       :math:`i \\le j`). The maximal zigzags of a column are ``gt[:k + 1] +
       le[k:]`` for ``k = 0, ..., K - 1``, where ``le``/``gt`` list the
       ``<=``/``>`` output columns by ascending threshold (``gt`` is
       ``chains_[g][::-1]``; ``complement`` links ``gt[k]`` to ``le[k]``).

    Nestings involving the missing-value indicator (every ``<=``/``>``
    literal implies ``not_nan``) or two categories (``x == u`` implies
    ``x != v``) are not listed in ``chains_``.

    References
    ----------
    .. [1] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable
       Two-level Boolean Rule Learning for Classification", 2016.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"age": [25, 40, 55, 70], "smoker": [0, 1, 1, 0]})
    >>> binarizer = FeatureBinarizer(n_thresholds=2).fit(X)
    >>> binarizer.get_feature_names_out().tolist()
    ['age <= 40.0', 'age <= 60.0', 'age > 40.0', 'age > 60.0', 'smoker', 'not smoker']
    >>> binarizer.transform(X)[:, 0].tolist()
    [1, 1, 0, 0]
    """

    _parameter_constraints: dict = {
        "n_thresholds": PARAMETERS["n_thresholds"],  # the estimators' rules for the parameters they pass on
        "thresholds": PARAMETERS["thresholds"],
        "negations": ["boolean"],
        "nan": PARAMETERS["nan"],
        "high_cardinality": PARAMETERS["high_cardinality"],
        "categorical": [Options({"auto"}), list, tuple],
        "round_thresholds": ["boolean"],
        "min_leaf_rows": PARAMETERS["min_literal_rows"],  # the same rule: "auto" or rows >= 0
        "column_kinds": PARAMETERS["column_kinds"],
    }

    def __init__(
        self,
        *,
        n_thresholds: int = defaults.DEFAULT_N_THRESHOLDS,
        thresholds: str = defaults.BINARIZER_THRESHOLDS,
        negations: bool = True,
        nan: str = "error",
        high_cardinality: str | list[str] = defaults.DEFAULT_HIGH_CARDINALITY,
        categorical: str | list[str] = "auto",
        round_thresholds: bool = True,
        min_leaf_rows: float | str = defaults.DEFAULT_MIN_LEAF_ROWS,
        column_kinds: Mapping[str, ColumnKindSpec] | None = None,
    ) -> None:
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.negations = negations
        self.nan = nan
        self.high_cardinality = high_cardinality
        self.categorical = categorical
        self.round_thresholds = round_thresholds
        self.min_leaf_rows = min_leaf_rows
        self.column_kinds = column_kinds

    # -- fit ---------------------------------------------------------------

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> FeatureBinarizer:
        """Learn thresholds and categories of each column.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Raw training data: a pandas, polars or pyarrow DataFrame (or any
            object with ``__arrow_c_stream__`` or ``__dataframe__``), or an array.
        y : array-like of shape (n_samples,), optional
            Class labels (two or more classes). Needed by ``thresholds='tree'`` and
            ``'quantile+tree'``; ignored by ``'quantile'``.
        sample_weight : array-like of shape (n_samples,), optional
            Weights of the rows in the label-aware thresholds' trees; ignored by ``'quantile'``.

        Returns
        -------
        self : FeatureBinarizer
            The fitted binarizer.
        """
        return self._fit(X, y, sample_weight)

    def _fit(
        self, X: Any, y: Any = None, sample_weight: Any = None, *, check_input: bool = True, n_classes: int | None = None,
    ) -> FeatureBinarizer:
        """:meth:`fit`; ``check_input=False`` is the inner path of a fit that checked ``X`` already: ``X`` is then
        the DataFrame :func:`rulemodels.utils.to_frame` returned, taken as it is (scikit-learn's ``_fit(check_input=False)``).

        ``n_classes`` given (with ``check_input=False``) says the fit parsed ``y`` already: ``y`` is then each row's
        class index (``0 .. n_classes - 1``) and ``sample_weight`` the checked weights, taken as they are (the labels
        are parsed once per fit, at its boundary)."""
        validate_params(self)
        frame, had_names = _checked_frame(X) if check_input else (X, True)
        _check_cells(frame)
        if n_classes is not None and not check_input and self.thresholds != "quantile":
            labels: _Labels | None = _Labels(
                np.asarray(y, dtype=np.intp), int(n_classes), np.asarray(sample_weight, dtype=float),
            )
        else:
            labels = self._fit_labels(y, sample_weight, frame.shape[0])
        self.n_features_in_ = frame.shape[1]
        if had_names:
            self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        decided = self._decided_kinds(list(frame.columns))
        categorical = self._categorical_columns(frame)
        plans: list[_ColumnPlan] = []
        kinds: dict[str, ColumnKind] = {}
        start = 0
        for name in frame.columns:
            given = decided.get(name)
            plan = self._fit_column(frame[name], name, name in categorical, start, labels, given)
            plans.append(plan)
            if given is None:
                kinds[name] = _column_kind(plan, frame[name], name in categorical)
            else:
                kinds[name] = _decided_kind(given, frame[name].dropna().to_numpy(dtype=object))
            start += plan.width
        self._plans = plans
        self.column_kinds_ = kinds
        self._set_structure(plans)
        logger.debug(
            "FeatureBinarizer: %d source columns -> %d literals",
            self.n_features_in_,
            len(self.literals_),
        )
        return self

    def _fit_labels(self, y: Any, sample_weight: Any, n_samples: int) -> _Labels | None:
        """The class codes and weights a label-aware ``thresholds`` needs (None for ``'quantile'``, which only checks
        the weights)."""
        if self.thresholds == "quantile":
            if sample_weight is not None:
                _row_weights(sample_weight, n_samples)
            return None
        if y is None:
            raise ValueError(
                f"requires y to be passed, but the target y is None: thresholds={self.thresholds!r} places each "
                "numeric column's thresholds where the classes change, "
                "so fit needs the labels: call fit(X, y) (and sample_weight=... if the rows are weighted), or use "
                "thresholds='quantile', which needs no labels"
            )
        codes, n_classes = _label_codes(y, n_samples)
        return _Labels(codes, n_classes, _row_weights(sample_weight, n_samples))

    def fit_summary(self, summaries: list[ColumnSummary]) -> FeatureBinarizer:
        """Fit from per-column counts (:class:`ColumnSummary`, one per column in order) instead of the rows.

        For data read in batches (:func:`rulemodels.data.read_stream`): with exact counts (``counts`` given)
        the thresholds, categories and indicators are those :meth:`fit` computes on the same rows (the same
        quantile code reads the counts as the sorted values; with label-aware ``thresholds`` the same tree
        reads the per-class weights of each value, ``class_weights``, as :meth:`fit` reads the labels and
        weights of the rows); with a sample (``counts`` None) the thresholds are the same quantiles of the
        sample, or the tree's cuts on the sample's per-class weights, kept below the exact maximum
        (docs/large_data.md measures the approximation). A numeric column summarised without
        ``class_weights`` gets quantiles (logged at INFO). ``feature_names_in_`` is set to the summaries' names.

        Parameters
        ----------
        summaries : list of ColumnSummary
            One summary per column, in the order of the columns.

        Returns
        -------
        FeatureBinarizer
            The fitted binarizer (``self``).

        Raises
        ------
        ValueError
            If the summaries have no columns, or ``categorical`` names a column they lack.
        """
        validate_params(self)
        unlabelled = [s.name for s in summaries if not s.categorical and s.class_weights is None]
        if self.thresholds != "quantile" and unlabelled:
            logger.info(
                "thresholds=%r needs per-class counts, which the summaries of columns %s do not keep: "
                "their thresholds are quantiles", self.thresholds, unlabelled,
            )
        names = check_unique_column_names([summary.name for summary in summaries])
        if not names:
            raise ValueError("Found array with 0 feature(s) while a minimum of 1 is required.")
        if not isinstance(self.categorical, str):
            unknown = [str(c) for c in self.categorical if str(c) not in names]
            if unknown:
                raise ValueError(f"categorical names column(s) {unknown} that are not in X; columns are {names}")
        self.n_features_in_ = len(names)
        self.feature_names_in_ = np.asarray(names, dtype=object)
        decided = self._decided_kinds(names)
        plans: list[_ColumnPlan] = []
        kinds: dict[str, ColumnKind] = {}
        start = 0
        for summary in summaries:
            given = decided.get(summary.name)
            if isinstance(self.categorical, str):
                categorical = summary.categorical if given is None else given[0] == "categorical"
            else:
                categorical = summary.name in {str(c) for c in self.categorical}
            plan, kind = self._fit_summary_column(summary, categorical, start, given)
            plans.append(plan)
            kinds[summary.name] = kind if given is None else _decided_kind(given, summary.values)
            start += plan.width
        self._plans = plans
        self.column_kinds_ = kinds
        self._set_structure(plans)
        return self

    def _fit_summary_column(
        self, summary: ColumnSummary, categorical: bool, start: int, given: _Decided | None = None,
    ) -> tuple[_ColumnPlan, ColumnKind]:
        """:meth:`_fit_column` and :func:`_column_kind` of one column from its summary (``given``: its kind decided
        already, ``column_kinds``)."""
        name = summary.name
        if summary.n_missing and self.nan == "error":
            raise ValueError(_missing_message(name, summary.n_missing))
        indicator = 0 < summary.n_missing < summary.n_rows
        negations = bool(self.negations)
        listed = self._listed_id_columns()
        if summary.n_missing == summary.n_rows > 0:
            warnings.warn(_all_missing_message(name, summary.n_missing), AllMissingColumnWarning, stacklevel=4)
        if categorical:
            values = np.asarray(summary.values, dtype=object)
            if summary.counts is None:
                raise ValueError(f"categorical column {name!r}: its distinct values were not counted")
            if isinstance(self.categorical, str) and not summary.category_dtype and given is None:
                mixed = _mixed_numbers_and_strings(pd.Series(np.repeat(values, summary.counts), dtype=object))
                if mixed is not None:
                    raise ValueError(_mixed_message(name, *mixed))
            if (listed is not None and name in listed) or (
                    listed is None and self._id_like_counts(len(values), summary.n_rows - summary.n_missing, name,
                                                            summary.n_missing)):
                return _ColumnPlan(name, "dropped", (), indicator, negations, start), ColumnKind(
                    "categorical", category_values(values))
            kind, found = self._fit_categories(pd.Series(values, dtype=object), name)
            return _ColumnPlan(name, kind, found, indicator, negations, start), ColumnKind(
                "categorical", category_values(values))
        values = np.asarray(summary.values, dtype=float)
        if (listed is not None and name in listed) or (summary.counts is None and self._is_sampled_numeric_id(summary)):
            return _ColumnPlan(name, "dropped", (), indicator, negations, start), ColumnKind("numeric")
        precision = None if summary.float_dtype is None else np.dtype(summary.float_dtype)
        if summary.counts is None:  # a sample: more distinct values than counted, so neither constant nor a flag
            _check_flag(name, None if given is None else given[0], values)
            sample = values[np.isfinite(values)]
            thresholds = self._summary_thresholds(
                summary, values, np.unique(values),
                lambda: self._thresholds_of(sample, None, float(summary.maximum), precision), precision,
            )
            return _ColumnPlan(name, "threshold", tuple(float(t) for t in thresholds), indicator, negations, start), ColumnKind("numeric")
        decided = None if given is None else given[0]
        _check_flag(name, decided, values)
        if values.size <= 1:
            return _ColumnPlan(name, "threshold", (), indicator, negations, start), ColumnKind("numeric")
        if decided != "numeric" and np.isin(values, (0.0, 1.0)).all():
            return _ColumnPlan(name, "flag", (), indicator, negations, start), ColumnKind("flag")
        if self._is_numeric_id(int(np.sum(summary.counts)), values, name, summary.n_missing):
            return _ColumnPlan(name, "dropped", (), indicator, negations, start), ColumnKind("numeric")
        finite = np.isfinite(values)
        sorted_finite = _RepeatedValues(values[finite], np.asarray(summary.counts)[finite])
        thresholds = self._summary_thresholds(
            summary, values, values, lambda: self._thresholds_of(sorted_finite, values, float(values[-1]), precision),
            precision,
        )
        return _ColumnPlan(name, "threshold", tuple(float(t) for t in thresholds), indicator, negations, start), ColumnKind("numeric")

    def _summary_thresholds(
        self, summary: ColumnSummary, values: np.ndarray, distinct: np.ndarray, quantiles: Callable[[], np.ndarray],
        precision: np.dtype | None = None,
    ) -> np.ndarray:
        """The thresholds of a numeric column from its summary: the ``quantiles()``, or with label-aware
        ``thresholds`` and per-class weights (``summary.class_weights``, one row per entry of ``values``) the
        cuts :meth:`fit` places on the same rows (:meth:`_label_thresholds`: the (value, class, summed weight)
        triples give the tree the sums the rows give it; the floor in rows uses the column's true row count
        and mean weight)."""
        if self.thresholds == "quantile" or summary.class_weights is None:
            return quantiles()
        table = np.asarray(summary.class_weights, dtype=float)
        entries, codes = np.nonzero((table > 0) & np.isfinite(values)[:, None])  # as fit: finite, positive weight
        weights = table[entries, codes]
        n_weighted = int(summary.n_weighted_rows)
        mean_weight = float(weights.sum()) / n_weighted if n_weighted and weights.size else 0.0
        return self._label_thresholds(
            values[entries], codes.astype(np.intp), weights, int(table.shape[1]), float(summary.n_rows), mean_weight,
            distinct, quantiles, precision,
        )

    def _decided_kinds(self, columns: list[str]) -> dict[str, _Decided]:
        """``column_kinds`` parsed, checked against ``columns`` and against ``categorical`` (a list)."""
        decided = _parse_column_kinds(self.column_kinds)
        unknown = [name for name in decided if name not in columns]
        if unknown:
            raise ValueError(f"column_kinds names column(s) {unknown} that are not in X; columns are {list(columns)}")
        if not isinstance(self.categorical, str):
            listed = {str(c) for c in self.categorical}
            clash = [name for name, (kind, _) in decided.items() if (kind == "categorical") != (name in listed)]
            if clash:
                raise ValueError(
                    f"column_kinds and categorical disagree on column(s) {clash}: list in categorical exactly the "
                    "columns that column_kinds calls 'categorical', or leave categorical='auto'"
                )
        return decided

    def _categorical_columns(self, frame: pd.DataFrame) -> set[str]:
        if isinstance(self.categorical, str):  # 'auto', checked by _parameter_constraints
            decided = self._decided_kinds(list(frame.columns))
            chosen = {name for name in frame.columns if name not in decided and _is_categorical_column(frame[name])}
            for name in chosen:
                if isinstance(frame[name].dtype, pd.CategoricalDtype):
                    continue  # declared categorical (astype("category"), CLI --categorical): codes such as "250" are text
                mixed = _mixed_numbers_and_strings(frame[name])
                if mixed is not None:
                    raise ValueError(_mixed_message(name, *mixed))
            return chosen | {name for name, (kind, _) in decided.items() if kind == "categorical"}
        names = [str(c) for c in self.categorical]
        unknown = [n for n in names if n not in frame.columns]
        if unknown:
            raise ValueError(
                f"categorical names column(s) {unknown} that are not in X; "
                f"columns are {list(frame.columns)}"
            )
        return set(names)

    def _fit_column(
        self, column: pd.Series, name: str, is_categorical: bool, start: int, labels: _Labels | None = None,
        given: _Decided | None = None,
    ) -> _ColumnPlan:
        missing = np.asarray(pd.isna(column), dtype=bool)
        n_missing = int(missing.sum())
        if n_missing and self.nan == "error":
            raise ValueError(_missing_message(name, n_missing))
        indicator = 0 < n_missing < len(column)
        if n_missing == len(column) > 0:
            warnings.warn(_all_missing_message(name, n_missing), AllMissingColumnWarning, stacklevel=4)
        listed = self._listed_id_columns()
        if listed is not None and name in listed:  # decided already (e.g. by BooleanRuleCV on all its rows)
            return _ColumnPlan(name, "dropped", (), indicator, bool(self.negations), start)
        if is_categorical:
            if listed is None and self._is_id_like(column[~missing], name, n_missing):
                return _ColumnPlan(name, "dropped", (), indicator, bool(self.negations), start)
            kind, values = self._fit_categories(column[~missing], name)
        else:
            kind, values = self._fit_numeric(column, name, missing, labels, None if given is None else given[0])
            if kind == "dropped":  # its values left out; whether it is missing stays a literal
                return _ColumnPlan(name, "dropped", (), indicator, bool(self.negations), start)
        if kind != "flag" and not values:
            logger.debug("column %r is constant (or, with label-aware thresholds, no cut lowers the impurity); "
                         "it yields no value literals", name)
        return _ColumnPlan(name, kind, values, indicator, bool(self.negations), start)

    def _listed_id_columns(self) -> frozenset[str] | None:
        """The ID-like columns named by ``high_cardinality`` (a decision made already), or None for ``'drop'``
        and ``'keep'`` (decided here, on the rows :meth:`fit` sees)."""
        if isinstance(self.high_cardinality, str):
            return None
        return frozenset(str(name) for name in self.high_cardinality)

    def id_like_columns(self, X: object) -> list[str]:
        """The columns :meth:`fit` would leave out of ``X`` as ID-like, each with its :class:`IDLikeColumnWarning`.

        The decision of ``high_cardinality='drop'`` made once, on all of ``X``, so that fits on parts of it can
        share it: :class:`~rulemodels.BooleanRuleCV` makes it on all the rows given to its ``fit`` and passes
        the list as ``high_cardinality`` to the fit of every fold and to the refit, so the folds score the
        model the refit returns (a column that fills half its range in all the rows may not in a fold).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Raw data, as for :meth:`fit`.

        Returns
        -------
        list of str
            The ID-like columns, in the order of ``X``'s columns: none with ``high_cardinality='keep'``, the
            listed columns of ``X`` when ``high_cardinality`` is a list.
        """
        validate_params(self)
        frame, _ = _checked_frame(X)
        _check_cells(frame)
        listed = self._listed_id_columns()
        if listed is not None:
            return [name for name in frame.columns if name in listed]
        if self.high_cardinality == "keep":
            return []
        categorical = self._categorical_columns(frame)
        found = []
        for name in frame.columns:
            column = frame[name]
            missing = np.asarray(pd.isna(column), dtype=bool)
            n_missing = int(missing.sum())
            if name in categorical:
                dropped = self._is_id_like(column[~missing], name, n_missing)
            else:
                distinct = np.unique(numeric_column_values(column, name)[~missing])
                dropped = not np.isin(distinct, (0.0, 1.0)).all() and self._is_numeric_id(
                    int((~missing).sum()), distinct, name, n_missing)
            if dropped:
                found.append(name)
        return found

    def decide_column_kinds(self, X: object) -> dict[str, ColumnKind]:
        """The kind :meth:`fit` would give each column of ``X`` (its ``column_kinds_``), decided once on all of ``X``.

        A column's kind depends on the rows: a column of 0, 1 and a few 2s is a
        flag in rows without a 2 and numeric in all of them; a text column with
        a few numbers has text categories in rows without them. Passed as
        ``column_kinds`` to fits on parts of ``X``, the decision makes every
        part read each column alike, as a fit on all of ``X`` does:
        :class:`~rulemodels.BooleanRuleCV` makes it on all the rows given to
        its ``fit`` and passes it to the fit of every fold and to the refit, so
        the folds score the model the refit returns.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Raw data, as for :meth:`fit`.

        Returns
        -------
        dict of str to ColumnKind
            The kind of each column, in the order of ``X``'s columns: the kinds
            ``column_kinds`` gives, and for the other columns numeric, a flag
            (present values 0 and 1, both), or categorical with text, number or
            mixed values. An ID-like column has its kind too (numeric or
            categorical); whether its values are left out is
            :meth:`id_like_columns`'s decision.

        Raises
        ------
        ValueError
            As :meth:`fit`: a column mixing numbers and text, a column that is
            neither numeric nor categorical, a ``column_kinds`` that does not fit ``X``.
        """
        validate_params(self)
        frame, _ = _checked_frame(X)
        _check_cells(frame)
        decided = self._decided_kinds(list(frame.columns))
        categorical = self._categorical_columns(frame)
        kinds: dict[str, ColumnKind] = {}
        for name in frame.columns:
            column = frame[name]
            missing = np.asarray(pd.isna(column), dtype=bool)
            given = decided.get(name)
            if name in categorical:
                present = column.to_numpy(dtype=object)[~missing]
                kinds[name] = ColumnKind("categorical", category_values(present)) if given is None else _decided_kind(
                    given, present)
                continue
            distinct = np.unique(numeric_column_values(column, name)[~missing])
            _check_flag(name, None if given is None else given[0], distinct)
            if given is not None:
                kinds[name] = ColumnKind(given[0])
            else:
                flag = distinct.size > 1 and bool(np.isin(distinct, (0.0, 1.0)).all())
                kinds[name] = ColumnKind("flag" if flag else "numeric")
        return kinds

    def _is_id_like(self, present: pd.Series, name: str, n_missing: int = 0) -> bool:
        """Whether to drop ``name`` as ID-like (warns when it does; see ``high_cardinality``)."""
        return self._id_like_counts(int(present.nunique(dropna=True)), len(present), name, n_missing)

    def _id_like_counts(self, distinct: int, n_present: int, name: str, n_missing: int = 0) -> bool:
        """:meth:`_is_id_like` from the counts: ``distinct`` values among ``n_present`` present ones (and
        ``n_missing`` missing ones, whose indicator stays)."""
        if self.high_cardinality != "drop":  # 'keep', or a list decided already
            return False
        if distinct < ID_LIKE_MIN_DISTINCT or distinct < ID_LIKE_SHARE * n_present:
            return False
        warnings.warn(_id_like_message(name, distinct, n_present, self._kept_missing(n_missing)), IDLikeColumnWarning,
                      stacklevel=3)
        return True

    def _kept_missing(self, n_missing: int) -> int:
        """The missing values whose indicator an ID-like column keeps (0 without ``nan='indicator'``)."""
        return n_missing if self.nan == "indicator" else 0

    def _is_numeric_id(self, n_present: int, distinct: np.ndarray, name: str, n_missing: int = 0) -> bool:
        """Whether to drop the numeric column ``name`` as row numbers (warns when it does).

        ``distinct`` are the sorted distinct values of its ``n_present``
        present ones. Row numbers are at least :data:`ID_LIKE_MIN_DISTINCT`
        distinct integers, one per row, that fill at least
        :data:`ID_LIKE_DENSITY` of the integers from their minimum to their
        maximum: a rule from the counts alone, so a fit on Parquet or Dask
        (:meth:`fit_summary`) decides as the in-memory fit does.
        ``high_cardinality='keep'`` (or a list, a decision made already) keeps every column it does not list.
        """
        if self.high_cardinality != "drop" or distinct.size < ID_LIKE_MIN_DISTINCT or distinct.size != n_present:
            return False
        if not (np.isfinite(distinct[0]) and np.isfinite(distinct[-1])) or not np.all(distinct == np.round(distinct)):
            return False
        if distinct.size < ID_LIKE_DENSITY * (distinct[-1] - distinct[0] + 1):
            return False
        warnings.warn(_numeric_id_message(name, int(distinct.size), self._kept_missing(n_missing)), IDLikeColumnWarning,
                      stacklevel=5)
        return True

    def _is_sampled_numeric_id(self, summary: ColumnSummary) -> bool:
        """:meth:`_is_numeric_id` of a column summarised by a sample (more distinct values than the pass counts).

        What the summary knows exactly decides: its present rows, that more than the counting cap of them are
        distinct (at least :data:`ID_LIKE_MIN_DISTINCT`), that all are integers (``summary.integers``), and
        its minimum and maximum, between which the present rows must fill at least :data:`ID_LIKE_DENSITY` of
        the integers. That each value is on one row only is read from the uniform sample of the rows: no
        value repeats in it (a column whose values repeat shows repeats in a sample of thousands of rows).
        """
        if self.high_cardinality != "drop" or not summary.integers:
            return False
        n_present = summary.n_rows - summary.n_missing
        low, high = float(summary.minimum), float(summary.maximum)
        sample = np.asarray(summary.values, dtype=float)
        if n_present < ID_LIKE_MIN_DISTINCT or not (np.isfinite(low) and np.isfinite(high)):
            return False
        if n_present < ID_LIKE_DENSITY * (high - low + 1) or np.unique(sample).size != sample.size:
            return False
        warnings.warn(_numeric_id_message(summary.name, n_present, self._kept_missing(summary.n_missing)),
                      IDLikeColumnWarning, stacklevel=5)
        return True

    def _fit_categories(self, present: pd.Series, name: str) -> tuple[str, tuple[Any, ...]]:
        unique = pd.unique(present.to_numpy(dtype=object))
        try:
            values = [Literal(name, "==", v).value for v in unique]
        except (TypeError, ValueError) as exc:
            raise ValueError(f"categorical column {name!r}: {exc}") from exc
        values = sorted(values, key=str)  # pd.unique already removed duplicates
        return "category", tuple(values) if len(values) > 1 else ()

    def _fit_numeric(
        self, column: pd.Series, name: str, missing: np.ndarray, labels: _Labels | None = None,
        decided: str | None = None,
    ) -> tuple[str, tuple[float, ...]]:
        """``(plan kind, thresholds)`` of a numeric column; ``decided``: its kind decided already
        (``'numeric'``: thresholds also on 0/1 values; ``'flag'``: only 0 and 1 allowed)."""
        x = numeric_column_values(column, name)
        precision = float_precision(column.dtype)
        distinct = np.unique(x[~missing])
        _check_flag(name, decided, distinct)
        if distinct.size <= 1:
            return "threshold", ()
        if decided != "numeric" and np.isin(distinct, (0.0, 1.0)).all():
            return "flag", ()
        if self._is_numeric_id(int((~missing).sum()), distinct, name, int(missing.sum())):
            return "dropped", ()
        if labels is None:
            return "threshold", tuple(float(t) for t in self._thresholds(x[~missing], distinct, precision))
        present = ~missing & np.isfinite(x) & (labels.weights > 0)  # a row of weight 0 is no row to the tree
        weights = labels.weights[present]
        mean_weight = float(weights.mean()) if weights.size else 0.0
        cuts = self._label_thresholds(
            x[present], labels.codes[present], weights, labels.n_classes, labels.n_rows, mean_weight, distinct,
            lambda: self._thresholds(x[~missing], distinct, precision), precision,
        )
        return "threshold", tuple(float(t) for t in cuts)

    def _label_thresholds(
        self, values: np.ndarray, codes: np.ndarray, weights: np.ndarray, n_classes: int, n_rows: float,
        mean_weight: float, distinct: np.ndarray, quantiles: Callable[[], np.ndarray], precision: np.dtype | None = None,
    ) -> np.ndarray:
        """The label-aware thresholds of one numeric column: the cuts of :func:`_tree_cuts` on ``values`` (finite,
        of positive weight; one entry per row, or per value and class with the summed weight: the tree sums
        equal values itself) with their class ``codes`` and ``weights``, at least ``min_leaf_rows`` rows of
        ``mean_weight`` on each side (``n_rows``: the training rows); the ``quantiles()`` when no cut lowers
        the impurity, and with them for ``'quantile+tree'``. ``distinct``: the column's distinct present values;
        ``precision``: the column's float dtype when narrower than float64 (:func:`float_precision`).

        The one placement of :meth:`fit` (on the rows) and :meth:`fit_summary` (on per-class counts), so both
        give the same cuts on the same rows."""
        floor = resolve_min_rows(self.min_leaf_rows, n_rows) * mean_weight
        cuts = _tree_cuts(values, codes, weights, n_classes, int(self.n_thresholds) + 1,
                          shortest=bool(self.round_thresholds), min_leaf_weight=floor, precision=precision)
        if cuts.size == 0:  # no cut lowers the impurity (e.g. one class weighs all): the column's quantiles
            return quantiles()
        if self.thresholds == "quantile+tree":  # a tree cut in the gap of a quantile threshold adds nothing
            found = quantiles()
            gap = np.searchsorted(distinct, cuts, side="right")
            cuts = np.union1d(found, cuts[~np.isin(gap, np.searchsorted(distinct, found, side="right"))])
        return cuts

    def _thresholds(self, present: np.ndarray, distinct: np.ndarray, precision: np.dtype | None = None) -> np.ndarray:
        """Quantile thresholds :math:`q_{k/(K+1)}`, ``k = 1..K``, strictly below the maximum."""
        finite = np.sort(present[np.isfinite(present)])
        return self._thresholds_of(finite, distinct, float(distinct[-1]), precision)

    def _thresholds_of(
        self, finite: Any, distinct: np.ndarray | None, maximum: float, precision: np.dtype | None = None,
    ) -> np.ndarray:
        """:meth:`_thresholds` from the sorted finite values ``finite`` (any sequence with ``len`` and
        indexing: an array, or value counts read as the sorted values, :class:`_RepeatedValues`), the
        distinct present values (None: more than ``n_thresholds + 1`` of them) and the largest one.
        ``precision``: the column's float dtype when narrower than float64; its thresholds are written in
        it (:func:`~rulemodels.data._thresholds._in_precision`, :func:`~rulemodels.data._thresholds._shorten`)."""
        n_thresholds = int(self.n_thresholds)
        if distinct is not None and distinct.size <= n_thresholds + 1:
            candidates = distinct[:-1]
        elif len(finite):
            candidates = np.unique(_linear_quantiles(finite, n_thresholds))
        else:
            candidates = np.empty(0)
        keep = np.isfinite(candidates) & (candidates < maximum)
        candidates = candidates[keep].astype(float)
        if not self.round_thresholds:  # the quantiles themselves (the paper's decile boundaries)
            if precision is None:
                return candidates
            return np.unique([_in_precision(float(t), precision) for t in candidates.tolist()])
        seen = distinct if distinct is not None else np.unique(np.asarray(finite, dtype=float))
        seen = seen[np.isfinite(seen)]
        # two quantiles in one gap between training values split them alike: one threshold
        if not seen.size:
            return np.unique([_in_precision(float(t), precision) for t in candidates.tolist()]) if precision else candidates
        return np.unique(_shorten(candidates, seen, maximum, precision))

    def _set_structure(self, plans: list[_ColumnPlan]) -> None:
        """Set ``literals_``, ``groups_``, ``chains_``, ``complements_`` and metadata."""
        literals: list[Literal] = []
        groups: list[int] = []
        chains: list[tuple[int, ...]] = []
        complements: list[tuple[int, int]] = []
        self.thresholds_ = {}
        self.categories_ = {}
        for g, plan in enumerate(plans):
            block = plan.literals()
            assert len(block) == plan.width
            literals += block
            groups += [g] * len(block)
            chains += self._plan_chains(plan)
            complements += self._plan_complements(plan)
            if plan.kind == "threshold":
                self.thresholds_[plan.name] = np.asarray(plan.values, dtype=float)
            if plan.kind == "category":
                self.categories_[plan.name] = list(plan.values)
        self.dropped_columns_ = [plan.name for plan in plans if plan.kind == "dropped"]
        self.constant_columns_ = [
            plan.name for plan in plans if plan.kind in ("threshold", "category") and not plan.values and not plan.indicator
        ]
        self.literals_ = literals
        self.groups_ = np.asarray(groups, dtype=np.int64)
        self.chains_ = chains
        self.complements_ = complements
        self.feature_metadata_ = self._metadata()

    @staticmethod
    def _plan_chains(plan: _ColumnPlan) -> list[tuple[int, ...]]:
        if plan.kind != "threshold" or not plan.values:
            return []
        k = plan.n_values
        le = tuple(range(plan.start, plan.start + k))
        chains = [le]
        if plan.negations:
            gt = range(plan.start + k, plan.start + 2 * k)
            chains.append(tuple(reversed(gt)))
        return chains

    @staticmethod
    def _plan_complements(plan: _ColumnPlan) -> list[tuple[int, int]]:
        if not plan.negations:
            return []
        s = plan.start
        pairs: list[tuple[int, int]] = []
        body = 0  # an ID-like column ("dropped"): its missing indicator only
        if plan.kind in ("threshold", "category"):
            k = plan.n_values
            pairs += [(s + i, s + k + i) for i in range(k)]
            body = 2 * k
        elif plan.kind == "flag":
            pairs.append((s, s + 1))
            body = 2
        if plan.indicator:
            pairs.append((s + body, s + body + 1))
        return pairs

    def _metadata(self) -> pd.DataFrame:
        n = len(self.literals_)
        chain = np.full(n, -1, dtype=np.int64)
        position = np.full(n, -1, dtype=np.int64)
        for c, members in enumerate(self.chains_):
            chain[list(members)] = c
            position[list(members)] = np.arange(len(members))
        complement = np.full(n, -1, dtype=np.int64)
        for j1, j2 in self.complements_:
            complement[j1], complement[j2] = j2, j1
        return pd.DataFrame(
            {
                "name": [str(lit) for lit in self.literals_],
                "source": [lit.feature for lit in self.literals_],
                "op": [lit.op for lit in self.literals_],
                "value": pd.Series([lit.value for lit in self.literals_], dtype=object),
                "group": self.groups_,
                "chain": chain,
                "chain_position": position,
                "complement": complement,
            }
        )

    # -- transform ---------------------------------------------------------

    def fit_transform(self, X: Any, y: Any = None, **fit_params: Any) -> np.ndarray:
        """:meth:`fit` to ``X``, then :meth:`transform` it (a polars or pyarrow DataFrame converted once).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Raw training data, as in :meth:`fit`.
        y : array-like of shape (n_samples,), optional
            Class labels, as in :meth:`fit`.
        **fit_params : object
            Other arguments of :meth:`fit` (``sample_weight``).

        Returns
        -------
        ndarray
            The binary matrix of ``X``.
        """
        return super().fit_transform(as_pandas(X), y, **fit_params)

    def transform(self, X: Any) -> np.ndarray:
        """Binarize ``X`` with the fitted literals.

        Parameters
        ----------
        X : DataFrame or array-like of shape ``(n_samples, n_features_in_)``
            A DataFrame (pandas, polars, pyarrow, ...) is matched to the fitted
            columns by name (extra columns are ignored, order does not
            matter); an array by position.

        Returns
        -------
        ndarray of uint8, shape ``(n_samples, len(literals_))``
            Column ``k`` is ``literals_[k]`` evaluated on ``X``.
        """
        return self._transform(X)

    def _transform(self, X: Any, *, check_input: bool = True) -> np.ndarray:
        """:meth:`transform`; ``check_input=False`` takes ``X`` as the DataFrame :func:`rulemodels.utils.to_frame`
        returned (the inner path of a fit or a predict that checked it already)."""
        check_is_fitted(self, "literals_")
        frame = self._transform_frame(*(_checked_frame(X) if check_input else (X, True)))
        _check_cells(frame)
        kinds = getattr(self, "column_kinds_", {})  # absent in a binarizer pickled by an older release
        frame = conform(frame, {plan.name: kinds[plan.name] for plan in self._plans if plan.width and plan.name in kinds})
        out = np.zeros((len(frame), len(self.literals_)), dtype=np.uint8)
        for plan, name in zip(self._plans, frame.columns):
            if plan.width == 0:
                continue
            block = self._transform_column(plan, frame[name])
            out[:, plan.start : plan.start + plan.width] = block
        return out

    def _transform_frame(self, frame: pd.DataFrame, had_names: bool) -> pd.DataFrame:
        """Return the source columns of ``frame`` (``X`` as :func:`_checked_frame` returns it) in fitted order, named as at fit."""
        fitted = [plan.name for plan in self._plans]
        if had_names and hasattr(self, "feature_names_in_"):
            missing = [name for name in fitted if name not in frame.columns]
            if missing:
                raise ValueError(
                    f"X is missing column(s) {missing} seen in fit; "
                    f"it has columns {list(frame.columns)}"
                )
            return frame[fitted]
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {frame.shape[1]} features, but FeatureBinarizer is expecting "
                f"{self.n_features_in_} features as input."
            )
        return frame.set_axis(fitted, axis=1)

    def _transform_column(self, plan: _ColumnPlan, column: pd.Series) -> np.ndarray:
        """Boolean block of shape ``(n_samples, plan.width)`` for one source column."""
        missing = np.asarray(pd.isna(column), dtype=bool)
        if self.nan == "error" and missing.any():
            raise ValueError(_missing_message(plan.name, int(missing.sum())))
        parts: list[np.ndarray] = []
        if plan.kind == "dropped":  # an ID-like column: only whether it is missing
            pass
        elif plan.kind == "category":
            codes = _category_codes(column, plan.values)[:, None]
            index = np.arange(plan.n_values)[None, :]
            positive, negative = codes == index, (codes != index) & ~missing[:, None]
        elif plan.kind == "threshold":  # exact on integer columns, as Literal.evaluate
            positive, negative = threshold_tests(column, plan.name, plan.values)
        else:
            x = _numeric_values(column, plan.name)[:, None]
            positive, negative = x == 1, x == 0
        if plan.kind != "dropped":
            parts = [positive, negative] if plan.negations else [positive]
        if plan.indicator:
            parts.append(missing[:, None])
            if plan.negations:
                parts.append(~missing[:, None])
        return np.concatenate(parts, axis=1)

    # -- names and tags ----------------------------------------------------

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Readable name of each output column: ``str`` of its literal.

        Parameters
        ----------
        input_features : array-like of str, optional
            Source column names to use instead of the fitted ones; must equal
            ``feature_names_in_`` if that is set.

        Returns
        -------
        ndarray of object, shape ``(len(literals_),)``
            The text of each literal, in the order of the output columns.

        Raises
        ------
        ValueError
            If ``input_features`` differs in length from, or does not equal, the fitted feature names.
        """
        check_is_fitted(self, "literals_")
        if input_features is None:
            return np.asarray([str(lit) for lit in self.literals_], dtype=object)
        names = [str(f) for f in input_features]
        if len(names) != self.n_features_in_:
            raise ValueError(
                f"input_features should have length {self.n_features_in_}; got {len(names)}"
            )
        fitted = getattr(self, "feature_names_in_", None)
        if fitted is not None and names != list(fitted):
            raise ValueError("input_features is not equal to feature_names_in_")
        return np.asarray(
            [str(Literal(names[g], lit.op, lit.value)) for lit, g in zip(self.literals_,
                                                                        self.groups_)],
            dtype=object,
        )

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.nan == "indicator"
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.transformer_tags.preserves_dtype = []
        tags.target_tags.required = self.thresholds != "quantile"  # label-aware thresholds
        return tags
