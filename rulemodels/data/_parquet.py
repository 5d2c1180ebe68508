"""Parquet files as the CLI and the streaming fit read them: names, columns and record batches.

Kept apart from :mod:`rulemodels.data._stream` so that ``rulemodels predict``
reads Parquet without loading scikit-learn; ``pyarrow`` is imported only when a
Parquet file is read (the ``large`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from rulemodels import defaults

__all__ = ["PARQUET_SUFFIXES", "is_parquet_path", "parquet_batches", "parquet_columns", "parquet_dataset"]

PARQUET_SUFFIXES = defaults.PARQUET_SUFFIXES
_INSTALL = "install the optional dependencies: pip install 'rulemodels[large]' (pyarrow, dask[dataframe], distributed)"


def is_parquet_path(source: str | os.PathLike) -> bool:
    """Whether the CLI reads ``source`` as Parquet: a ``.parquet``/``.pq`` name, or a directory of such files."""
    path = Path(source)
    if path.suffix.lower() in PARQUET_SUFFIXES:
        return True
    return path.is_dir() and any(child.suffix.lower() in PARQUET_SUFFIXES for child in path.iterdir())


def _import_pyarrow_dataset() -> Any:
    try:
        import pyarrow.dataset as ds
    except ImportError:
        raise ImportError(f"reading Parquet needs pyarrow, which is not installed: {_INSTALL}") from None
    return ds


def parquet_dataset(path: str | os.PathLike) -> Any:
    """The ``pyarrow.dataset`` of a Parquet file or directory, with errors that say what is wrong."""
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"data file '{path}' not found: give a Parquet file or a directory of Parquet files")
    if file.is_file() and file.suffix.lower() not in PARQUET_SUFFIXES:
        raise ValueError(
            f"data file '{path}' is not a Parquet file (suffix {file.suffix or 'none'}): give a .parquet/.pq file "
            "or a directory of them; read a CSV file with pandas.read_csv and pass the DataFrame"
        )
    ds = _import_pyarrow_dataset()
    import pyarrow as pa

    try:
        return ds.dataset(str(file), format="parquet")
    except (pa.ArrowInvalid, OSError) as exc:
        raise ValueError(f"data file '{path}' could not be read as Parquet ({exc}): give a Parquet file or a directory of them") from None


def parquet_columns(path: str | os.PathLike) -> list[str]:
    """The column names of a Parquet file or directory (read from its schema, no rows)."""
    return [str(c) for c in parquet_dataset(path).schema.names]


def parquet_batches(path: str | os.PathLike, columns: list[str] | None = None,
                    batch_rows: int = defaults.STREAM_BATCH_ROWS) -> Iterator[pd.DataFrame]:
    """The record batches of a Parquet file or directory as DataFrames (``columns``: only those), one at a time."""
    dataset = parquet_dataset(path)
    for batch in dataset.to_batches(columns=columns, batch_size=int(batch_rows)):
        if batch.num_rows:
            yield batch.to_pandas()
