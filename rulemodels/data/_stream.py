"""Data that does not fit in pandas: Parquet files read in record batches, and Dask DataFrames.

A fit on such data makes two passes over its chunks (Parquet record batches,
or Dask partitions, on the Dask workers when a ``distributed`` client is
active), and never holds more than one chunk of raw rows besides the result:

1. **summaries** (:mod:`rulemodels.data._summaries`): per column what
   :class:`~rulemodels.data.FeatureBinarizer` needs, merged across chunks:
   rows, missing values, whether it is categorical, its distinct values with
   counts (exact), and for a numeric column with more than
   ``STREAM_EXACT_DISTINCT`` distinct values a seeded uniform sample of
   ``STREAM_SAMPLE_SIZE`` present values (bottom-k of uniform random keys, a
   mergeable summary) plus its exact maximum. With label-aware thresholds
   (the estimators' default ``thresholds="tree"``) each value's rows are also
   summed per class with their weights (and the sample keeps each value's class
   and weight), so the one-column trees see what they see on the rows. The
   binarizer is fitted from them (:meth:`FeatureBinarizer.fit_summary`): with
   exact counts its thresholds are those :meth:`~FeatureBinarizer.fit` computes
   on all the rows, quantiles or label-aware cuts.
2. **patterns** (:func:`collapse`): each chunk is binarized with that fitted
   binarizer, and rows are collapsed to the distinct (binary pattern, label)
   groups with summed weights, keeping the first raw row of each group.

The clause LPs only ever see weighted distinct patterns (identical rows are
grouped in :mod:`rulemodels.models._data`), so a fit on the representatives
with the summed weights and the fixed binarizer is the fit on all the rows
(docs/large_data.md). ``pyarrow`` and ``dask`` are imported only here, and only
when such input is given (the ``large`` extra).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from rulemodels import defaults
from rulemodels.data._inputs import class_weighted
from rulemodels.data._parquet import dataset_batches, dataset_columns, parquet_dataset
from rulemodels.data._summaries import _Classes, _column_summary, _Layout, _merge_summaries, _summarize_chunk
from rulemodels.data.binarizer import FeatureBinarizer
from rulemodels.utils import check_unique_column_names, unknown_name

__all__ = ["StreamedData", "is_stream_input", "read_stream", "stream_map"]

logger = logging.getLogger(__name__)

_LABEL = "__rulemodels_label__"
_WEIGHT = "__rulemodels_weight__"
_FAN_IN = 8  # chunk results merged at a time


def is_dask_collection(X: Any) -> bool:
    """Whether ``X`` is a Dask DataFrame or Series (checked without importing dask)."""
    return type(X).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(X, "npartitions") and hasattr(X, "to_delayed")


def is_stream_input(X: Any) -> bool:
    """Whether ``fit``/``predict`` reads ``X`` in chunks: a path (Parquet file or directory) or a Dask DataFrame.

    Parameters
    ----------
    X : object
        The input to check.

    Returns
    -------
    bool
        True for a path or a Dask collection.
    """
    return isinstance(X, (str, os.PathLike)) or is_dask_collection(X)


# -- the chunks --------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """Where the chunks come from: a Parquet dataset or a Dask DataFrame, its feature columns, label and weight."""

    data: Any
    features: list[str]
    label: str
    weight: str | None
    is_dask: bool
    batch_rows: int

    @property
    def layout(self) -> _Layout:
        return _Layout(self.features, self.label, self.weight)

    def chunks(self) -> Iterator[pd.DataFrame]:
        """The Parquet record batches as DataFrames (features, then label and weight), one at a time."""
        columns = [*self.features, self.label, *([self.weight] if self.weight else [])]
        yield from dataset_batches(self.data, columns, self.batch_rows)

    def map_reduce(self, function: Callable[..., Any], merge: Callable[[list[Any]], Any], *args: Any) -> Any:
        """``merge`` of ``function(chunk, index, *args)`` over the chunks, in chunk order, merging every
        ``_FAN_IN`` results as they come (so at most that many unmerged results are held). A Dask DataFrame's
        chunks and merges run on its workers (``dask.compute``, which uses the active ``distributed``
        client) as a tree; Parquet batches are read one at a time here. Empty chunks are skipped (a Dask
        partition that a filter emptied, as ``ddf[ddf.x.notnull()]`` may leave). None when there is no
        chunk with rows."""
        if self.is_dask:
            import dask

            level = [
                dask.delayed(_unless_empty)(function, part, index, *args) for index, part in enumerate(self.data.to_delayed())
            ]
            while len(level) > 1:
                level = [dask.delayed(_merge_present)(merge, level[k:k + _FAN_IN]) for k in range(0, len(level), _FAN_IN)]
            return _compute_with_progress(level[0]) if level else None
        pending: list[Any] = []
        with _parquet_pass(self.chunks()) as chunks:
            for index, chunk in enumerate(chunks):
                pending.append(function(chunk, index, *args))
                if len(pending) == _FAN_IN:
                    pending = [merge(pending)]
        return merge(pending) if pending else None


@contextlib.contextmanager
def _parquet_pass(batches: Iterable[pd.DataFrame]) -> Iterator[Iterator[pd.DataFrame]]:
    """The Parquet batches, each counted on a "Parquet pass" bar once the caller is done with it; the bar is
    drawn after two seconds on a terminal or in a notebook, and closed when the block ends, however it ends."""
    from rulemodels.utils import progress_bar

    with progress_bar(None, "Parquet pass", "batch") as bar:
        def counted() -> Iterator[pd.DataFrame]:
            for batch in batches:
                yield batch
                bar.update(1)

        yield counted()


def _compute_with_progress(value: Any) -> Any:
    """``dask.compute(value)[0]`` under a "Dask pass" bar (drawn after two seconds on a terminal or in a notebook).

    With a ``distributed`` client (a local or remote cluster) the bar counts the seconds and the work is
    cancelled on the cluster when the wait is interrupted (Ctrl-C); with Dask's local schedulers it
    counts the graph's finished tasks (``dask.callbacks.Callback``).
    """
    import dask
    from dask.callbacks import Callback

    from rulemodels.utils import progress_bar

    client = _distributed_client()
    with progress_bar(None, "Dask pass", "s" if client is not None else "task") as bar:
        if client is not None:
            future = client.compute(value)
            started = time.monotonic()
            try:
                while True:
                    try:
                        return future.result(timeout=0.5)
                    except TimeoutError:  # distributed's wait timed out: the work goes on
                        bar.update(int(time.monotonic() - started) - bar.n)
            except BaseException:
                future.cancel()
                raise

        class _Ticks(Callback):  # the local schedulers call these in the calling thread
            def _start_state(self, dsk: Any, state: Any) -> None:
                bar.total = len(dsk)

            def _posttask(self, key: Any, result: Any, dsk: Any, state: Any, worker_id: Any) -> None:
                bar.update(1)

        with _Ticks():
            return dask.compute(value)[0]


def _distributed_client() -> Any:
    """The active ``distributed`` client that ``dask.compute`` would use, or None (local schedulers)."""
    if "distributed" not in sys.modules:  # no client can exist without it imported
        return None
    from distributed import default_client

    try:
        return default_client()
    except ValueError:  # no client
        return None


def _unless_empty(function: Callable[..., Any], chunk: pd.DataFrame, index: int, *args: Any) -> Any:
    """``function(chunk, index, *args)``, or None for a chunk without rows (a Dask partition a filter emptied)."""
    return function(chunk, index, *args) if len(chunk) else None


def _merge_present(merge: Callable[[list[Any]], Any], parts: list[Any]) -> Any:
    """``merge`` of the results that are not None (the empty chunks'), or None when all are."""
    present = [part for part in parts if part is not None]
    return merge(present) if present else None


def _column_name(value: Any, what: str, columns: list[str], source: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be the name of a column of {source} (a str), got {type(value).__name__}")
    if value not in columns:
        raise ValueError(unknown_name(what, value, columns, source))
    return value


def _source(X: Any, y: Any, sample_weight: Any, batch_rows: int) -> _Source:
    """The chunked source of ``(X, y, sample_weight)`` (see :func:`read_stream`)."""
    if is_dask_collection(X):
        if getattr(X, "ndim", None) != 2:
            raise TypeError("X is a Dask Series: pass a Dask DataFrame of the features")
        frame = X
        columns = [str(c) for c in frame.columns]
        check_unique_column_names(columns)
        frame = frame.rename(columns=dict(zip(frame.columns, columns)))
        frame, label = _attach(frame, y, "y", _LABEL, columns)
        weight = None
        if sample_weight is not None:
            frame, weight = _attach(frame, sample_weight, "sample_weight", _WEIGHT, columns)
        features = [c for c in columns if c not in (label, weight)]
        if not features:
            raise ValueError(f"the Dask DataFrame has no feature columns besides the label {label!r}")
        return _Source(frame, features, label, weight, True, batch_rows)
    dataset = parquet_dataset(X)  # a directory's files under their unified schema
    columns = dataset_columns(dataset)
    check_unique_column_names(columns)
    if y is None:
        raise ValueError(f"y must name the label column of the Parquet data '{X}'; columns are {', '.join(columns)}")
    label = _column_name(y, "y", columns, f"'{X}'")
    weight = None if sample_weight is None else _column_name(sample_weight, "sample_weight", columns, f"'{X}'")
    features = [c for c in columns if c not in (label, weight)]
    if not features:
        raise ValueError(f"the Parquet data '{X}' has no feature columns besides the label {label!r}")
    return _Source(dataset, features, label, weight, False, batch_rows)


def _attach(frame: Any, values: Any, what: str, reserved: str, columns: list[str]) -> tuple[Any, str]:
    """``(frame, name)``: ``values`` as a column of the Dask ``frame`` (a column name, or an aligned Dask Series)."""
    if values is None:
        raise ValueError(f"{what} is required: give the name of a column of X or a Dask Series aligned with X")
    if isinstance(values, str):
        return frame, _column_name(values, what, columns, "the Dask DataFrame")
    if not is_dask_collection(values) or getattr(values, "ndim", None) != 1:
        raise TypeError(
            f"with a Dask DataFrame X, {what} must be a column name or a Dask Series aligned with X, "
            f"got {type(values).__name__}"
        )
    return frame.assign(**{reserved: values}), reserved


# -- pass 2: patterns ------------------------------------------------------------


@dataclass
class _Patterns:
    """Distinct (binary pattern, label) groups: their keys, first raw rows, labels and summed weights."""

    keys: np.ndarray
    rows: pd.DataFrame
    labels: np.ndarray
    weights: np.ndarray


def _pattern_keys(A: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """One bytes key per row: the packed binary row and the label."""
    packed = np.concatenate([np.packbits(A, axis=1), positive[:, None].astype(np.uint8)], axis=1)
    packed = np.ascontiguousarray(packed)
    return packed.view(np.dtype((np.void, packed.shape[1]))).ravel()


def _group(keys: np.ndarray, rows: pd.DataFrame, labels: np.ndarray, weights: np.ndarray) -> _Patterns:
    """The groups of equal ``keys``, in the order of their first rows (the order the clause LPs give the
    groups of the same rows in memory, :func:`rulemodels.models._data.group_samples`: a degenerate LP then
    returns the same vertex)."""
    distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=weights, minlength=distinct.size)
    order = np.argsort(first, kind="stable")
    first = first[order]
    return _Patterns(distinct[order], rows.iloc[first].reset_index(drop=True), labels[first], summed[order])


def _collapse_chunk(chunk: pd.DataFrame, index: int, source: _Layout, binarizer: FeatureBinarizer, positive_class: Any) -> _Patterns:
    """Pass 2 on one chunk (runs on a Dask worker for Dask input)."""
    rows = chunk[source.features]
    labels = chunk[source.label].to_numpy()
    weights = (
        pd.to_numeric(chunk[source.weight]).to_numpy(dtype=float) if source.weight is not None else np.ones(len(chunk))
    )
    A = binarizer.transform(rows)
    return _group(_pattern_keys(A, labels == positive_class), rows, labels, weights)


def _merge_patterns(parts: list[_Patterns]) -> _Patterns:
    if len(parts) == 1:
        return parts[0]
    rows = pd.concat([part.rows for part in parts], ignore_index=True)
    return _group(
        np.concatenate([part.keys for part in parts]), rows,
        np.concatenate([part.labels for part in parts]), np.concatenate([part.weights for part in parts]),
    )


# -- the fit's data --------------------------------------------------------------


@dataclass(frozen=True)
class StreamedData:
    """What a fit on chunked data learns from: the distinct patterns and the binarizer fitted in pass 1.

    Parameters
    ----------
    X : DataFrame
        One raw row per distinct (binary pattern, label) group (its first row in the data).
    y : Series
        The label of each group (named as the label column).
    sample_weight : ndarray
        The summed weight of the rows of each group (the row count without weights).
    binarizer : FeatureBinarizer
        Fitted from pass 1's summaries (:meth:`FeatureBinarizer.fit_summary`); the fit must use it as it is.
    n_samples : int
        Rows read.
    approximate : list of str
        Columns whose thresholds come from a sample (more distinct values than the cap): its quantiles, or
        the label-aware cuts placed from its per-class weights.
    class_counts : dict
        Rows read of each label value (unweighted; for ``class_weight="balanced"``).
    """

    X: pd.DataFrame
    y: pd.Series
    sample_weight: np.ndarray
    binarizer: FeatureBinarizer
    n_samples: int
    approximate: list[str]
    class_counts: dict = field(default_factory=dict)

    @property
    def n_patterns(self) -> int:
        """Number of distinct rows of ``X`` (each one a group of identical rows with the groups' summed weight)."""
        return int(self.X.shape[0])


def read_stream(
    X: Any,
    y: Any,
    sample_weight: Any = None,
    *,
    binarizer: FeatureBinarizer,
    class_weight: str | dict | None = None,
    batch_rows: int = defaults.STREAM_BATCH_ROWS,
    exact_distinct: int = defaults.STREAM_EXACT_DISTINCT,
    sample_size: int = defaults.STREAM_SAMPLE_SIZE,
    seed: int = defaults.STREAM_SEED,
) -> StreamedData:
    """Read Parquet or Dask data in two passes into the weighted distinct patterns a fit learns from.

    ``X`` is a path to a Parquet file or directory (``y`` and ``sample_weight``
    name its label and weight columns), or a Dask DataFrame (``y`` and
    ``sample_weight`` are column names or aligned Dask Series). ``binarizer``
    holds the binarization settings (unfitted); the returned one is fitted from
    pass 1's summaries. See the module docstring.

    Parameters
    ----------
    X : str, os.PathLike or dask.dataframe.DataFrame
        A Parquet file or directory, or a Dask DataFrame.
    y : str or dask.dataframe.Series
        The label column's name, or (Dask) an aligned Series.
    sample_weight : str, dask.dataframe.Series or None, default=None
        The weight column's name, or (Dask) an aligned Series; None weighs every row 1.
    binarizer : FeatureBinarizer
        The binarization settings (unfitted). With label-aware ``thresholds`` (``'tree'``,
        ``'quantile+tree'``) pass 1 also sums each value's weights per class, and the cut points are placed
        from those sums as :meth:`FeatureBinarizer.fit` places them on the rows.
    class_weight : dict, "balanced" or None, default=None
        The fit's ``class_weight``: the class weights that multiply the row weights in those per-class sums
        (:func:`~rulemodels.data.class_weighted`; ``"balanced"`` counts the rows of each class). The returned
        ``sample_weight`` stays without them.
    batch_rows : int, default=defaults.STREAM_BATCH_ROWS
        Rows per Parquet batch, at most.
    exact_distinct : int, default=defaults.STREAM_EXACT_DISTINCT
        The cap on a numeric column's distinct values counted exactly; beyond it the thresholds are
        quantiles of a sample, or (label-aware) the cuts placed from the sample's per-class weights.
    sample_size : int, default=defaults.STREAM_SAMPLE_SIZE
        The size of that sample.
    seed : int, default=defaults.STREAM_SEED
        The seed of the sampling.

    Returns
    -------
    StreamedData
        The distinct patterns with their labels and weights, the fitted binarizer, the row count and the class counts.

    Raises
    ------
    ValueError
        If the data has no rows, missing labels, invalid or all-zero weights, or not exactly two classes,
        or (label-aware thresholds) ``class_weight`` is invalid or names a label that is no class.
    """
    source = _source(X, y, sample_weight, int(batch_rows))
    start = time.perf_counter()
    by_class = binarizer.thresholds != "quantile"  # label-aware thresholds: per-class counts of each value
    summary = source.map_reduce(
        _summarize_chunk, partial(_merge_summaries, cap=int(exact_distinct), size=int(sample_size)),
        source.layout, int(seed), int(exact_distinct), int(sample_size), by_class,
    )
    if summary is None:
        raise ValueError(f"the data {_describe(X)} has no rows: a rule is learned from rows of both classes")
    n_samples = next(iter(summary.columns.values())).n_rows
    if n_samples == 0:
        raise ValueError(f"the data {_describe(X)} has no rows: a rule is learned from rows of both classes")
    if summary.n_missing_labels:
        raise ValueError(
            f"the label column {source.label!r} has {summary.n_missing_labels} missing value(s): drop those rows first"
        )
    if summary.bad_weights:
        raise ValueError(summary.bad_weights)
    if source.weight is not None and summary.weight_total <= 0:
        raise ValueError("Sample weights must contain at least one non-zero number: every sample has weight zero")
    classes = np.sort(summary.labels.index.to_numpy())
    if classes.size != 2:
        raise ValueError(
            f"the label column {source.label!r} has {classes.size} distinct value(s) ({classes[:10].tolist()}): "
            "a Parquet or Dask fit learns a two-class rule; map the labels to two values first, or fit "
            "in-memory data (a DataFrame) for an ordered rule list over more classes"
        )
    class_counts = {label: int(count) for label, count in summary.labels.items()}
    classes_of = None
    if by_class:  # each class's weight, as the in-memory fit weighs its rows (class_weight="balanced": row counts)
        factors = np.ones(classes.size) if class_weight is None else np.asarray(
            class_weighted(classes, None, class_weight, class_counts=class_counts), dtype=float,
        )
        classes_of = _Classes(np.asarray(summary.labels.index.get_indexer(classes), dtype=np.intp), factors)
    summaries = [_column_summary(name, counts, classes_of) for name, counts in summary.columns.items()]
    fitted = binarizer.fit_summary(summaries)
    # an ID-like column sampled has no thresholds to approximate
    approximate = [s.name for s in summaries if s.counts is None and s.name not in fitted.dropped_columns_]
    if approximate:
        placed = (
            "their label-aware cut points are placed from the per-class weights of a uniform sample of %d values"
            if by_class else "their thresholds are quantiles of a uniform sample of %d values"
        )
        logger.info(
            "columns %s have more than %d distinct values: " + placed + " (docs/large_data.md)",
            approximate, exact_distinct, sample_size,
        )
    logger.info(
        "pass 1 of 2: %d rows, %d columns -> %d literals (%.1f s)",
        n_samples, len(summaries), len(fitted.literals_), time.perf_counter() - start,
    )
    start = time.perf_counter()
    patterns = source.map_reduce(_collapse_chunk, _merge_patterns, source.layout, fitted, classes[1])
    logger.info(
        "pass 2 of 2: %d rows -> %d distinct (binary pattern, label) groups (%.1f s)",
        n_samples, patterns.keys.size, time.perf_counter() - start,
    )
    label_name = str(y) if isinstance(y, str) else str(getattr(y, "name", None) or "y")  # a Dask Series' name
    return StreamedData(
        patterns.rows, pd.Series(patterns.labels, name=label_name), patterns.weights, fitted, n_samples, approximate,
        class_counts,
    )


def _describe(X: Any) -> str:
    return "(Dask DataFrame)" if is_dask_collection(X) else f"'{X}'"


# -- predict ---------------------------------------------------------------------


def stream_map(X: Any, function: Callable[[pd.DataFrame], np.ndarray], columns: list[str], *, meta: Any,
               batch_rows: int = defaults.STREAM_BATCH_ROWS) -> Any:
    """``function`` (rows -> an array of one value, or a row of values, per row) over chunked ``X``.

    A Parquet path is read batch by batch (only ``columns``) and the results are
    concatenated into one numpy array; a Dask DataFrame gives a lazy Dask Series
    or DataFrame from ``map_partitions``, to ``.compute()``. ``meta`` is the
    empty pandas Series or DataFrame of the Dask result (its dtypes and columns).

    Parameters
    ----------
    X : str, os.PathLike or dask.dataframe.DataFrame
        A Parquet file or directory, or a Dask DataFrame.
    function : callable
        Maps a DataFrame of rows to an array of one value (or one row of values) per row.
    columns : list of str
        The columns ``function`` reads.
    meta : pandas.Series or pandas.DataFrame
        The empty pandas Series or DataFrame of the Dask result.
    batch_rows : int, default=defaults.STREAM_BATCH_ROWS
        Rows per Parquet batch, at most.

    Returns
    -------
    ndarray or Dask collection
        The values of every row: an array for a path, a lazy Dask collection for a Dask DataFrame.

    Raises
    ------
    ValueError
        If the Parquet data lacks a column of ``columns`` or has no rows.
    """
    if is_dask_collection(X):
        frame_output = isinstance(meta, pd.DataFrame)

        def on_partition(part: pd.DataFrame) -> Any:
            part = part.rename(columns={c: str(c) for c in part.columns})
            if not len(part):
                return meta.set_axis(part.index[:0])
            values = function(part[columns])
            if frame_output:
                return pd.DataFrame(values, index=part.index, columns=meta.columns)
            return pd.Series(values, index=part.index, name=meta.name)

        return X.map_partitions(on_partition, meta=meta)
    dataset = parquet_dataset(X)  # a directory's files under their unified schema
    names = dataset_columns(dataset)
    missing = [c for c in columns if c not in names]
    if missing:
        raise ValueError(f"the Parquet data '{X}' lacks column(s) {missing} seen in fit; it has {', '.join(names)}")
    with _parquet_pass(dataset_batches(dataset, columns, batch_rows)) as batches:
        results = [function(batch) for batch in batches]
    if not results:
        raise ValueError(f"the Parquet data '{X}' has no rows to predict")
    return np.concatenate(results)
