"""Data preparation: read user data, check the raw inputs of a fit, and binarize features.

- CSV files and the bundled datasets: :func:`load_data` (features, 0/1 labels and
  the class names as :class:`LabeledData`), :func:`read_features`,
  :class:`CSVOptions`, :func:`resolve_target`, :func:`is_bundled_dataset`;
- the checks every fit runs on X, y and sample weights: :func:`check_input`,
  :func:`as_frame`, :func:`binary_labels`, :func:`class_labels`, :func:`count_classes`,
  :func:`columns_as_labels` (``fit(frame, "label")``), :func:`check_no_missing_labels`,
  :func:`check_sample_weight`;
- :class:`FeatureBinarizer`: raw columns to the 0/1 literal columns a rule is
  learned from (:meth:`FeatureBinarizer.fit_summary` fits it from per-column
  counts, :class:`ColumnSummary`; :class:`IDLikeColumnWarning` names a column that
  looks like a row identifier, :class:`AllMissingColumnWarning` one missing in every row);
- data that does not fit in pandas (Parquet paths, Dask DataFrames):
  :func:`read_stream` (two passes: summaries, then weighted distinct
  patterns, :class:`StreamedData`), :func:`stream_map` (predict in chunks),
  :func:`is_stream_input`; :func:`parquet_columns`, :func:`parquet_batches` and
  :func:`is_parquet_path` for the CLI (a directory whose files differ in
  columns is read under their unified schema, :class:`ParquetSchemaWarning`).

This layer sits on :mod:`rulemodels.rules` (the rule values) and imports nothing
above it. The names are imported on first use (PEP 562), so reading a CSV file for
``rulemodels predict`` loads no scikit-learn.
"""

from __future__ import annotations

from solvers.lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (milliseconds of `import rulemodels`)

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "CSVOptions": "rulemodels.data._csv",
    "ColumnSummary": "rulemodels.data.binarizer",
    "ParquetSchemaWarning": "rulemodels.data._parquet",
    "StreamedData": "rulemodels.data._stream",
    "is_parquet_path": "rulemodels.data._parquet",
    "is_stream_input": "rulemodels.data._stream",
    "parquet_batches": "rulemodels.data._parquet",
    "parquet_columns": "rulemodels.data._parquet",
    "read_stream": "rulemodels.data._stream",
    "stream_map": "rulemodels.data._stream",
    "DEFAULT_NA_VALUES": "rulemodels.data._csv",
    "FeatureBinarizer": "rulemodels.data.binarizer",
    "HeaderLooksLikeDataWarning": "rulemodels.data._csv",
    "AllMissingColumnWarning": "rulemodels.data.binarizer",
    "IDLikeColumnWarning": "rulemodels.data.binarizer",
    "LabeledData": "rulemodels.data._csv",
    "as_frame": "rulemodels.data._inputs",
    "binary_labels": "rulemodels.data._inputs",
    "class_labels": "rulemodels.data._inputs",
    "columns_as_labels": "rulemodels.data._inputs",
    "count_classes": "rulemodels.data._inputs",
    "check_input": "rulemodels.data._inputs",
    "check_no_missing_labels": "rulemodels.data._inputs",
    "check_sample_weight": "rulemodels.data._inputs",
    "class_weighted": "rulemodels.data._inputs",
    "is_bundled_dataset": "rulemodels.data._csv",
    "load_data": "rulemodels.data._csv",
    "read_features": "rulemodels.data._csv",
    "resolve_target": "rulemodels.data._csv",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from rulemodels.data._csv import (
        DEFAULT_NA_VALUES,
        CSVOptions,
        HeaderLooksLikeDataWarning,
        LabeledData,
        is_bundled_dataset,
        load_data,
        read_features,
        resolve_target,
    )
    from rulemodels.data._inputs import (
        as_frame,
        binary_labels,
        check_input,
        check_no_missing_labels,
        check_sample_weight,
        class_labels,
        class_weighted,
        columns_as_labels,
        count_classes,
    )
    from rulemodels.data._parquet import ParquetSchemaWarning, is_parquet_path, parquet_batches, parquet_columns
    from rulemodels.data._stream import StreamedData, is_stream_input, read_stream, stream_map
    from rulemodels.data.binarizer import AllMissingColumnWarning, ColumnSummary, FeatureBinarizer, IDLikeColumnWarning

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
