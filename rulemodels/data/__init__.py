"""Data preparation: read user data, check the raw inputs of a fit, and binarize features.

- CSV files and the bundled datasets: :func:`load_data` (features, 0/1 labels and
  the class names as :class:`LabeledData`), :func:`read_features`,
  :func:`read_text_columns` (identifier columns as the text of their cells),
  :class:`CSVOptions`, :func:`resolve_target`, :func:`is_bundled_dataset`;
- the checks every fit runs on X, y and sample weights: :func:`check_input`,
  :func:`as_frame`, :func:`binary_labels`, :func:`class_labels`, :func:`count_classes`,
  :func:`columns_as_labels` (``fit(frame, "label")``), :func:`check_no_missing_labels`,
  :func:`check_sample_weight`; :func:`parse_labels` (a fit's one parse of y,
  :class:`ParsedLabels`, handed on to what needs the labels);
- :class:`FeatureBinarizer`: raw columns to the 0/1 literal columns a rule is
  learned from (:meth:`FeatureBinarizer.fit_summary` fits it from per-column
  counts, :class:`ColumnSummary`; :class:`IDLikeColumnWarning` names a column that
  looks like a row identifier, :class:`AllMissingColumnWarning` one missing in every row);
- data that does not fit in pandas (Parquet paths, Dask DataFrames):
  :func:`read_stream` (two passes: summaries, then weighted distinct
  patterns, :class:`StreamedData`), :func:`stream_map` (predict in chunks),
  :func:`is_stream_input`; :func:`parquet_columns`, :func:`parquet_batches`,
  :func:`parquet_batches_and_ids` (ID columns in their Arrow types) and
  :func:`is_parquet_path` for the CLI (a directory whose files differ in
  columns is read under their unified schema, :class:`ParquetSchemaWarning`).

This layer sits on :mod:`rulemodels.rules` (the rule values) and imports nothing
above it. The names are imported on first use (PEP 562), so reading a CSV file for
``rulemodels predict`` loads no scikit-learn.
"""

from __future__ import annotations

from solvers.lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (milliseconds of `import rulemodels`)

# The public names, each from the module that defines it (`NAME as NAME`: an explicit re-export): imports
# for type checkers and IDEs, and the table of what __getattr__ imports on first use (lazy_exports reads it).
if TYPE_CHECKING:  # pragma: no cover - never runs
    from rulemodels.data._csv import DEFAULT_NA_VALUES as DEFAULT_NA_VALUES
    from rulemodels.data._csv import CSVOptions as CSVOptions
    from rulemodels.data._csv import HeaderLooksLikeDataWarning as HeaderLooksLikeDataWarning
    from rulemodels.data._csv import LabeledData as LabeledData
    from rulemodels.data._csv import is_bundled_dataset as is_bundled_dataset
    from rulemodels.data._csv import load_data as load_data
    from rulemodels.data._csv import read_features as read_features
    from rulemodels.data._csv import read_text_columns as read_text_columns
    from rulemodels.data._csv import resolve_target as resolve_target
    from rulemodels.data._inputs import ParsedLabels as ParsedLabels
    from rulemodels.data._inputs import as_frame as as_frame
    from rulemodels.data._inputs import binary_labels as binary_labels
    from rulemodels.data._inputs import check_input as check_input
    from rulemodels.data._inputs import check_no_missing_labels as check_no_missing_labels
    from rulemodels.data._inputs import check_sample_weight as check_sample_weight
    from rulemodels.data._inputs import class_labels as class_labels
    from rulemodels.data._inputs import class_weighted as class_weighted
    from rulemodels.data._inputs import columns_as_labels as columns_as_labels
    from rulemodels.data._inputs import count_classes as count_classes
    from rulemodels.data._inputs import parse_labels as parse_labels
    from rulemodels.data._parquet import ParquetSchemaWarning as ParquetSchemaWarning
    from rulemodels.data._parquet import is_parquet_path as is_parquet_path
    from rulemodels.data._parquet import parquet_batches as parquet_batches
    from rulemodels.data._parquet import parquet_batches_and_ids as parquet_batches_and_ids
    from rulemodels.data._parquet import parquet_columns as parquet_columns
    from rulemodels.data._stream import StreamedData as StreamedData
    from rulemodels.data._stream import is_stream_input as is_stream_input
    from rulemodels.data._stream import read_stream as read_stream
    from rulemodels.data._stream import stream_map as stream_map
    from rulemodels.data.binarizer import AllMissingColumnWarning as AllMissingColumnWarning
    from rulemodels.data.binarizer import ColumnSummary as ColumnSummary
    from rulemodels.data.binarizer import FeatureBinarizer as FeatureBinarizer
    from rulemodels.data.binarizer import IDLikeColumnWarning as IDLikeColumnWarning

__getattr__, __dir__ = lazy_exports(__name__)
__all__ = __dir__()  # the names above, sorted
