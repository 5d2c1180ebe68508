"""Pass 1 of a fit on chunked data (:mod:`rulemodels.data._stream`): per-column summaries, merged across chunks.

Each chunk (a Parquet record batch, a Dask partition) gives per column its rows,
missing values, kind, distinct values with counts (up to a cap for a numeric
column) and a seeded uniform sample of its present values (bottom-k of uniform
random keys); with label-aware thresholds also each value's summed weight per
label, the rows of each label with a present, finite value and a positive
weight, and the label and weight of each sampled value. Summaries merge in any
grouping (:func:`_merge_summaries`), and :func:`_column_summary` turns one
column's into the :class:`~rulemodels.data.ColumnSummary` that
:meth:`FeatureBinarizer.fit_summary` reads (docs/large_data.md, "Two passes"
and "Thresholds").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.data._columns import _is_categorical_dtype, float_precision, numeric_column_values
from rulemodels.data.binarizer import ColumnSummary
from rulemodels.rules._kinds import holds_only_numbers

__all__: list[str] = []


@dataclass(frozen=True)
class _Layout:
    """The columns of a chunk: features, label, weight (None: unit weights). What the per-chunk work receives."""

    features: list[str]
    label: str
    weight: str | None


@dataclass
class _Counts:
    """One column's counts over the chunks seen so far (merged with :meth:`merge`).

    ``labelled`` (label-aware thresholds): it also keeps, by the label indices of its :class:`_ChunkSummary`
    (the order of its ``labels``), the summed weight of each value's rows in each label (``by_class``, with
    ``counts``), the rows of each label whose value is present and finite and whose weight is positive
    (``positive_rows``), and the label index and weight of each sampled value.
    """

    n_rows: int = 0
    n_missing: int = 0
    text: bool = False  # a categorical dtype (object, string, category) in some chunk
    category_dtype: bool = True  # the category dtype in every chunk
    numbers_only: bool = True  # an object column whose present values are all numbers (in every chunk)
    values: np.ndarray = field(default_factory=lambda: np.empty(0))
    counts: np.ndarray | None = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    keys: np.ndarray = field(default_factory=lambda: np.empty(0))  # random keys of the sample
    sample: np.ndarray = field(default_factory=lambda: np.empty(0))
    maximum: float = -np.inf
    minimum: float = np.inf
    integers: bool = True  # every present number is a finite integer (vacuously true without numbers)
    labelled: bool = False
    by_class: np.ndarray | None = None  # (values, labels): summed weights; None unless labelled with counts
    positive_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sample_labels: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
    sample_weights: np.ndarray = field(default_factory=lambda: np.empty(0))
    float_dtype: str | None = None  # 'float32' or 'float16': the widest float dtype of every chunk, if narrower than float64

    def merge(
        self, other: _Counts, cap: int, size: int, maps: tuple[np.ndarray, np.ndarray] | None = None, n_labels: int = 0,
    ) -> _Counts:
        """The counts of both. ``maps``: where each one's label indices go among the ``n_labels`` merged
        labels (None: keep no per-label counts, e.g. more than two labels, which no fit from chunks takes)."""
        labelled = self.labelled and other.labelled and maps is not None
        merged = _Counts(
            self.n_rows + other.n_rows, self.n_missing + other.n_missing, self.text or other.text,
            self.category_dtype and other.category_dtype, self.numbers_only and other.numbers_only,
            maximum=max(self.maximum, other.maximum), minimum=min(self.minimum, other.minimum),
            integers=self.integers and other.integers, labelled=labelled,
            float_dtype=_wider_float(self.float_dtype, other.float_dtype),
        )
        if self.counts is None or other.counts is None:
            merged.values, merged.counts = np.empty(0), None
        else:
            tables = None
            if labelled:
                assert maps is not None and self.by_class is not None and other.by_class is not None
                tables = [_widen(self.by_class, maps[0], n_labels), _widen(other.by_class, maps[1], n_labels)]
            merged.values, merged.counts, merged.by_class = _merge_counts(
                [self.values, other.values], [self.counts, other.counts], cap=None if merged.text else cap, tables=tables,
            )
        keys = np.concatenate([self.keys, other.keys])
        sample = np.concatenate([self.sample, other.sample])
        labels, weights = np.empty(0, dtype=np.intp), np.empty(0)
        if labelled:
            assert maps is not None
            merged.positive_rows = _widen(self.positive_rows, maps[0], n_labels) + _widen(other.positive_rows, maps[1], n_labels)
            labels = np.concatenate([_relabel(self.sample_labels, maps[0]), _relabel(other.sample_labels, maps[1])])
            weights = np.concatenate([self.sample_weights, other.sample_weights])
        if keys.size > size:
            keep = np.argpartition(keys, size)[:size]
            keys, sample = keys[keep], sample[keep]
            if labelled:
                labels, weights = labels[keep], weights[keep]
        merged.keys, merged.sample = keys, sample
        merged.sample_labels, merged.sample_weights = labels, weights
        return merged


def _wider_float(first: str | None, second: str | None) -> str | None:
    """The narrow float dtype two chunks' values both fit (None, float64 or not floats, when either is None)."""
    if first is None or second is None:
        return None
    return max(first, second, key=lambda name: np.dtype(name).itemsize)


def _widen(table: np.ndarray, index: np.ndarray, n_labels: int) -> np.ndarray:
    """``table`` (labels on its last axis) with its labels moved to positions ``index`` of ``n_labels``."""
    out = np.zeros((*table.shape[:-1], n_labels), dtype=table.dtype)
    out[..., index] = table
    return out


def _relabel(labels: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Label indices moved to ``index`` (-1, a row without a label, stays -1)."""
    return np.where(labels >= 0, index[np.maximum(labels, 0)], -1) if index.size else np.full(labels.shape, -1)


def _by_label(inverse: np.ndarray, n_values: int, labels: np.ndarray, weights: np.ndarray, n_labels: int) -> np.ndarray:
    """The ``(n_values, n_labels)`` summed ``weights`` of the rows of each value (``inverse``) and label (rows
    without a label, -1, left out)."""
    known = labels >= 0
    cells = inverse[known] * n_labels + labels[known]
    summed = np.bincount(cells, weights=weights[known], minlength=n_values * n_labels)
    return summed.reshape(n_values, n_labels)


def _merge_counts(
    values: list[np.ndarray], counts: list[np.ndarray], cap: int | None, tables: list[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Distinct values and summed counts of several (values, counts), and the summed rows of their per-label
    ``tables`` (None without them); ``(empty, None, None)`` above ``cap`` distinct values."""
    if values[0].dtype == object or values[-1].dtype == object:
        inverse, uniques = pd.factorize(np.concatenate([v.astype(object) for v in values]), sort=False)
        distinct = np.asarray(uniques, dtype=object)
    else:
        distinct, inverse = np.unique(np.concatenate(values), return_inverse=True)
        if cap is not None and distinct.size > cap:
            return np.empty(0), None, None
    inverse = np.asarray(inverse).ravel()
    summed = np.bincount(inverse, weights=np.concatenate(counts), minlength=distinct.size).astype(np.int64)
    if tables is None:
        return distinct, summed, None
    stacked = np.concatenate(tables)
    table = np.column_stack(
        [np.bincount(inverse, weights=stacked[:, j], minlength=distinct.size) for j in range(stacked.shape[1])]
    ) if stacked.shape[1] else np.zeros((distinct.size, 0))
    return distinct, summed, table


def _column_counts(
    column: pd.Series, name: str, seed: tuple[int, ...], cap: int, size: int,
    labels: np.ndarray | None = None, weights: np.ndarray | None = None, n_labels: int = 0,
) -> _Counts:
    """The :class:`_Counts` of one chunk of one column; with ``labels`` (each row's label index, -1 where
    missing) and ``weights`` (each row's weight), also per label (``labelled``)."""
    missing = np.asarray(pd.isna(column), dtype=bool)
    counts = _Counts(len(column), int(missing.sum()))
    precision = float_precision(column.dtype)
    counts.float_dtype = None if precision is None else precision.name
    counts.category_dtype = isinstance(column.dtype, pd.CategoricalDtype)
    labelled = labels is not None and weights is not None
    if labelled:
        assert labels is not None and weights is not None
        counts.labelled = True
        counts.by_class = np.zeros((0, n_labels))
        counts.positive_rows = np.zeros(n_labels, dtype=np.int64)
        labels, weights = labels[~missing], weights[~missing]
    if _is_categorical_dtype(column.dtype):
        counts.text = True
        present = column.to_numpy(dtype=object)[~missing]
        # vacuously true without present values: a batch of missing values says nothing of the column's kind
        counts.numbers_only = pd.api.types.is_object_dtype(column.dtype) and (not present.size or holds_only_numbers(column))
        if present.size:
            inverse, uniques = pd.factorize(present, sort=False)
            counts.values = np.asarray(uniques, dtype=object)
            counts.counts = np.bincount(inverse, minlength=counts.values.size).astype(np.int64)
            if labelled and counts.numbers_only:  # the column may be numeric: its values' rows per label
                assert labels is not None and weights is not None
                counts.by_class = _by_label(inverse, counts.values.size, labels, weights, n_labels)
                finite = np.isfinite(numeric_column_values(pd.Series(present, dtype=object), name))
                counts.positive_rows = np.bincount(labels[(labels >= 0) & (weights > 0) & finite], minlength=n_labels)
            elif labelled:
                counts.by_class = np.zeros((counts.values.size, n_labels))  # text: categories, no thresholds
        else:
            counts.values = np.empty(0, dtype=object)
        return counts
    # A chunk of numbers (not bools) keeps an object column numeric, as pandas' concatenation of the chunks
    # would: bools in an object column are categories (a Parquet bool column is object where it has nulls).
    boolean = pd.api.types.is_bool_dtype(column.dtype)
    counts.numbers_only = not boolean
    x = numeric_column_values(column, name)[~missing]
    if x.size:
        distinct, inverse, found = np.unique(
            column.to_numpy()[~missing] if boolean else x, return_inverse=True, return_counts=True,
        )
        if distinct.size <= cap:
            counts.values, counts.counts = distinct, found.astype(np.int64)
            if labelled:
                assert labels is not None and weights is not None
                counts.by_class = _by_label(np.asarray(inverse).ravel(), distinct.size, labels, weights, n_labels)
        else:
            counts.values, counts.counts, counts.by_class = np.empty(0), None, None
        counts.maximum, counts.minimum = float(x.max()), float(x.min())
        counts.integers = bool(np.all(np.isfinite(x) & (x == np.round(x))))
        keys = np.random.default_rng(list(seed)).random(x.size)
        keep = np.argpartition(keys, size)[:size] if keys.size > size else slice(None)
        counts.keys, counts.sample = keys[keep], x[keep]
        if labelled:
            assert labels is not None and weights is not None
            counts.positive_rows = np.bincount(labels[(labels >= 0) & (weights > 0) & np.isfinite(x)], minlength=n_labels)
            counts.sample_labels, counts.sample_weights = labels[keep], weights[keep]
    return counts


@dataclass
class _ChunkSummary:
    """Pass 1 of one chunk (or of several merged): per-column counts, label counts, weights."""

    columns: dict[str, _Counts]
    labels: pd.Series  # count of each label value (the order of the columns' per-label counts)
    n_missing_labels: int
    weight_total: float
    bad_weights: str | None


def _summarize_chunk(
    chunk: pd.DataFrame, index: int, source: _Layout, seed: int, cap: int, size: int, by_class: bool = False,
) -> _ChunkSummary:
    """Pass 1 on one chunk (runs on a Dask worker for Dask input); ``by_class``: also per label (at most two)."""
    labels = chunk[source.label]
    n_missing = int(pd.isna(labels).sum())
    found = labels.dropna().value_counts(sort=False)
    bad, total = None, float(len(chunk))
    weights = np.ones(len(chunk))
    if source.weight is not None:
        weights = pd.to_numeric(chunk[source.weight], errors="coerce").to_numpy(dtype=float)
        if not np.all(np.isfinite(weights)):
            bad = "sample_weight must be finite: the weight column has NaN, infinity or text"
        elif np.any(weights < 0):
            bad = "Negative values in data passed to sample_weight: weights must be >= 0"
        total = float(weights.sum()) if bad is None else 0.0
    per_label: dict[str, Any] = {}
    if by_class and len(found) <= 2:  # more labels: no fit from chunks takes them (read_stream says so)
        codes = np.asarray(found.index.get_indexer(labels.to_numpy()), dtype=np.intp)
        per_label = {"labels": codes, "weights": weights, "n_labels": len(found)}
    columns = {
        name: _column_counts(chunk[name], name, (seed, index, k), cap, size, **per_label)
        for k, name in enumerate(source.features)
    }
    return _ChunkSummary(columns, found, n_missing, total, bad)


def _merge_summaries(parts: list[_ChunkSummary], cap: int, size: int) -> _ChunkSummary:
    merged = parts[0]
    for part in parts[1:]:
        labels = merged.labels.add(part.labels, fill_value=0)
        maps = None
        if len(labels) <= 2:  # the per-label counts of the columns, moved to the merged labels' order
            maps = (
                np.asarray(labels.index.get_indexer(merged.labels.index), dtype=np.intp),
                np.asarray(labels.index.get_indexer(part.labels.index), dtype=np.intp),
            )
        merged = _ChunkSummary(
            {name: merged.columns[name].merge(part.columns[name], cap, size, maps, len(labels)) for name in merged.columns},
            labels,
            merged.n_missing_labels + part.n_missing_labels,
            merged.weight_total + part.weight_total,
            merged.bad_weights or part.bad_weights,
        )
    return merged


@dataclass(frozen=True)
class _Classes:
    """The two classes of a fit from chunks, for the per-class counts: where each sits among a summary's
    labels (``order``, the classes sorted) and the weight of each (``class_weight``; ones without)."""

    order: np.ndarray
    factors: np.ndarray


def _column_summary(name: str, counts: _Counts, classes: _Classes | None = None) -> ColumnSummary:
    """The binarizer's :class:`ColumnSummary` of one column's merged counts; with ``classes`` and per-label
    counts, the per-class weights of its values (``class_weights``) that label-aware thresholds read."""
    categorical = counts.text and not (counts.numbers_only and counts.n_rows > counts.n_missing)
    labelled = classes is not None and counts.labelled and not categorical
    class_weights, n_weighted = None, 0
    if labelled:
        assert classes is not None
        n_weighted = int(counts.positive_rows[classes.order][classes.factors > 0].sum())
    if categorical or counts.counts is None or not counts.text:
        if counts.counts is not None:
            values = counts.values
            if labelled:
                assert classes is not None and counts.by_class is not None
                class_weights = counts.by_class[:, classes.order] * classes.factors
        else:  # a sample: one row per sampled value, its weight in its class
            order = np.argsort(counts.sample, kind="stable")
            values = counts.sample[order]
            if labelled:
                assert classes is not None
                rank = np.empty(classes.order.size, dtype=np.intp)  # a label's index -> its class's
                rank[classes.order] = np.arange(classes.order.size)
                codes = rank[counts.sample_labels[order]]
                class_weights = np.zeros((values.size, classes.order.size))
                class_weights[np.arange(values.size), codes] = counts.sample_weights[order] * classes.factors[codes]
        return ColumnSummary(
            name, categorical, counts.n_rows, counts.n_missing, values, counts.counts, counts.maximum, counts.category_dtype,
            class_weights, n_weighted, minimum=counts.minimum, float_dtype=None if categorical else counts.float_dtype,
            integers=not categorical and counts.integers and counts.n_rows > counts.n_missing,
        )
    # an object column holding only numbers: numeric, its counted values read as numbers
    numbers = numeric_column_values(pd.Series(counts.values, dtype=object), name)
    values, inverse = np.unique(numbers, return_inverse=True)
    inverse = np.asarray(inverse).ravel()
    summed = np.bincount(inverse, weights=counts.counts, minlength=values.size).astype(np.int64)
    if labelled:
        assert classes is not None and counts.by_class is not None
        table = counts.by_class[:, classes.order] * classes.factors
        class_weights = np.column_stack(
            [np.bincount(inverse, weights=table[:, j], minlength=values.size) for j in range(table.shape[1])]
        )
    return ColumnSummary(
        name, False, counts.n_rows, counts.n_missing, values, summed, float(values.max()) if values.size else -np.inf,
        class_weights=class_weights, n_weighted_rows=n_weighted,
    )
