"""Parquet files as the CLI and the streaming fit read them: names, columns and record batches.

Kept apart from :mod:`rulemodels.data._stream` so that ``rulemodels predict``
reads Parquet without loading scikit-learn; ``pyarrow`` is imported only when a
Parquet file is read (the ``large`` extra).

A directory whose files differ in their columns or column types is read under
one schema unified from every file's own (:func:`parquet_dataset`), never under
the first file's: the result does not depend on which file comes first.
"""

from __future__ import annotations

import heapq
import json
import logging
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from rulemodels import defaults

__all__ = [
    "PARQUET_SUFFIXES", "ParquetSchemaWarning", "dataset_batches", "dataset_columns", "is_parquet_path", "parquet_batches",
    "parquet_batches_and_ids", "parquet_columns", "parquet_dataset", "parquet_table",
]

logger = logging.getLogger(__name__)

PARQUET_SUFFIXES = defaults.PARQUET_SUFFIXES
_INSTALL = "install the optional dependencies: pip install 'rulemodels[large]' (pyarrow, dask[dataframe], distributed)"
_LISTED = 3  # files named in a message before "and N more"
_UNIFIED = b"rulemodels.unified"  # schema metadata: unified from files that differ (read file by file)


class ParquetSchemaWarning(UserWarning):
    """A column of a Parquet directory is absent from some of its files: those files' rows read it as missing."""


def is_parquet_path(source: str | os.PathLike) -> bool:
    """Whether the CLI reads ``source`` as Parquet: a ``.parquet``/``.pq`` name, or a directory of such files.

    Parameters
    ----------
    source : str or os.PathLike
        The path to check.

    Returns
    -------
    bool
        True when ``source`` is read as Parquet.
    """
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


def parquet_dataset(path: str | os.PathLike, *, report: bool = True) -> Any:
    """The ``pyarrow.dataset`` of a Parquet file or directory, with errors that say what is wrong.

    The files of a directory are read under one schema unified from all of them
    (each file's footer is read; files without rows are left out of it and of
    the dataset). Types are promoted where no value changes: a column of nulls
    (Arrow type ``null``) takes the type of the other files, narrower integers
    or floats the wider type, ``string`` ``large_string``, a dictionary
    (category) column and a text column text, and integers and floats
    ``float64`` (the binarizer reads every number as ``float64``). A column
    absent from a file is missing for that file's rows. The columns are in an
    order that follows every file's own and does not depend on the order of the
    files. A directory whose files all have the same schema is read exactly as
    before (under that schema, metadata included).

    Parameters
    ----------
    path : str or os.PathLike
        A ``.parquet``/``.pq`` file or a directory of them.
    report : bool, default True
        Warn (:class:`ParquetSchemaWarning`) for each column absent from some
        files, naming them, and log at INFO the promoted types and the files
        without rows. ``False`` when only the column names are wanted and the
        read that follows reports.

    Returns
    -------
    pyarrow.dataset.Dataset

    Raises
    ------
    FileNotFoundError
        ``path`` does not exist.
    ValueError
        ``path`` is not Parquet, a file cannot be read as Parquet, or a column
        has types in two files that no type holds without loss (say text in
        one and numbers in another); the message names the column and the files.
    ImportError
        pyarrow is not installed.
    """
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
        dataset = ds.dataset(str(file), format="parquet")
    except (pa.ArrowInvalid, OSError) as exc:
        raise ValueError(f"data file '{path}' could not be read as Parquet ({exc}): give a Parquet file or a directory of them") from None
    if len(dataset.files) <= 1:
        return dataset
    files = _file_schemas(dataset)
    with_rows = [f for f in files if f.rows] or files  # all files empty: the read finds no rows and says so
    empty = [f.path for f in files if not f.rows] if len(with_rows) < len(files) else []
    if empty and report:
        logger.info("Parquet data '%s': %d file(s) without rows left out: %s", path, len(empty), _list_files(empty))
    first = with_rows[0].schema
    if all(f.schema.equals(first) for f in with_rows[1:]):
        if not empty:
            return dataset  # one schema: read as before
        return ds.dataset([f.path for f in with_rows], schema=first, format="parquet", filesystem=dataset.filesystem)
    schema = _unified_schema(with_rows, path, report)
    return ds.dataset([f.path for f in with_rows], schema=schema, format="parquet", filesystem=dataset.filesystem)


@dataclass(frozen=True, eq=False)
class _File:
    """One Parquet file of a dataset: its path, its own (physical) schema and its number of rows."""

    path: str
    schema: Any
    rows: int

    @property
    def types(self) -> dict[str, Any]:
        """Each column's Arrow type, by name."""
        return {field.name: field.type for field in self.schema}


def _file_schemas(dataset: Any) -> list[_File]:
    """Each file's schema and rows, read from its footer, in the dataset's order."""
    import pyarrow as pa

    files = []
    for fragment in dataset.get_fragments():
        try:
            files.append(_File(fragment.path, fragment.physical_schema, int(fragment.metadata.num_rows)))
        except (pa.ArrowInvalid, OSError) as exc:
            raise ValueError(
                f"data file '{fragment.path}' could not be read as Parquet ({exc}): remove it from the directory "
                "or replace it with a Parquet file"
            ) from None
    return files


def _list_files(paths: list[str]) -> str:
    named = ", ".join(f"'{p}'" for p in paths[:_LISTED])
    return named + (f" and {len(paths) - _LISTED} more" if len(paths) > _LISTED else "")


def _column_order(names: list[list[str]]) -> list[str]:
    """The columns of all files in one order: each column after those it follows in some file (ties, and files
    that disagree on the order, settled by name), so the same files in any order give the same columns."""
    follows: dict[str, set[str]] = {}
    for columns in names:
        for name in columns:
            follows.setdefault(name, set())
        for before, after in zip(columns, columns[1:]):
            follows[after].add(before)
    done: set[str] = set()
    order: list[str] = []
    ready = [name for name, before in follows.items() if not before]
    heapq.heapify(ready)
    while len(order) < len(follows):
        if ready:
            name = heapq.heappop(ready)
            if name in done:
                continue
        else:  # files disagree on the order (a cycle): take the first name left
            name = min(set(follows) - done)
        done.add(name)
        order.append(name)
        for other, earlier in follows.items():
            if other not in done and name in earlier:
                earlier.discard(name)
                if not earlier:
                    heapq.heappush(ready, other)
    return order


def _unified_schema(files: list[_File], source: str | os.PathLike, report: bool) -> Any:
    """One schema for files whose schemas differ (see :func:`parquet_dataset`), or a ValueError naming the column
    and the files whose types no type holds without loss."""
    import pyarrow as pa

    index = set().union(*(_index_columns(f.schema) for f in files))  # a stored pandas index: not data
    types = [f.types for f in files]
    fields = []
    for name in _column_order([[c for c in f.schema.names if c not in index] for f in files]):
        found: dict[Any, list[str]] = {}  # type -> the files that hold the column as it
        for f, kinds in zip(files, types):
            if name in kinds:
                found.setdefault(kinds[name], []).append(f.path)
        target = _common_type(name, found, source)
        fields.append(pa.field(name, target))
        absent = [f for f, kinds in zip(files, types) if name not in kinds]
        if not report:
            continue
        if absent:
            warnings.warn(
                f"column {name!r} of the Parquet data '{source}' is absent from {len(absent)} of its {len(files)} "
                f"files ({_list_files([f.path for f in absent])}): it is read as missing in their "
                f"{sum(f.rows for f in absent)} rows; if it should not be, write the column into every file",
                ParquetSchemaWarning, stacklevel=3,
            )
        if len(found) > 1:
            logger.info(
                "Parquet data '%s': column %r has types %s; read as %s", source, name,
                ", ".join(f"{kind} in {_list_files(paths)}" for kind, paths in sorted(found.items(), key=lambda t: str(t[0]))),
                target,
            )
    return pa.schema(fields, metadata={_UNIFIED: b"1"})


def _common_type(name: str, found: dict[Any, list[str]], source: str | os.PathLike) -> Any:
    """The type that holds every type in ``found`` without loss, or a ValueError naming the files."""
    import pyarrow as pa

    kinds = sorted({kind for kind in found if not pa.types.is_null(kind)}, key=str)  # sorted: any file order
    if not kinds:
        return pa.null()
    if len(kinds) == 1:
        return kinds[0]
    if any(pa.types.is_dictionary(kind) for kind in kinds) and not all(pa.types.is_dictionary(kind) for kind in kinds):
        kinds = sorted({kind.value_type if pa.types.is_dictionary(kind) else kind for kind in kinds}, key=str)
    target = None
    try:
        target = pa.unify_schemas([pa.schema([pa.field(name, kind)]) for kind in kinds], promote_options="permissive").field(name).type
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        pass
    if target is not None and all(_lossless(kind, target) for kind in kinds):
        return target
    if all(pa.types.is_integer(kind) or pa.types.is_floating(kind) for kind in kinds):
        return pa.float64()  # numbers are read as float64 by the binarizer: this loses nothing it would keep
    held = "; ".join(
        f"{kind} in {_list_files(paths)}" for kind, paths in sorted(found.items(), key=lambda t: str(t[0]))
        if not pa.types.is_null(kind)
    )
    raise ValueError(
        f"column {name!r} of the Parquet data '{source}' has types that no one type holds without loss: {held}. "
        f"Write {name!r} with one type in every file (text everywhere, or numbers everywhere), or leave the "
        "files that differ out of the directory"
    )


_TIME_UNITS = ("s", "ms", "us", "ns")


def _lossless(kind: Any, target: Any) -> bool:
    """Whether every value of Arrow type ``kind`` is read unchanged as ``target``."""
    import pyarrow as pa

    types = pa.types
    if kind == target or types.is_null(kind):
        return True
    if types.is_dictionary(kind):
        return _lossless(kind.value_type, target.value_type if types.is_dictionary(target) else target)
    if types.is_integer(kind) and types.is_integer(target):
        if types.is_signed_integer(kind):
            return types.is_signed_integer(target) and target.bit_width >= kind.bit_width
        return target.bit_width > kind.bit_width or (types.is_unsigned_integer(target) and target.bit_width == kind.bit_width)
    if types.is_integer(kind) and types.is_floating(target):
        return target.bit_width == 64  # numbers are read as float64 by the binarizer
    if types.is_floating(kind) and types.is_floating(target):
        return target.bit_width >= kind.bit_width
    if types.is_string(kind) or types.is_large_string(kind):
        return types.is_string(target) or types.is_large_string(target)
    if types.is_binary(kind) or types.is_large_binary(kind):
        return types.is_binary(target) or types.is_large_binary(target)
    if types.is_timestamp(kind) and types.is_timestamp(target):
        return kind.tz == target.tz and _TIME_UNITS.index(target.unit) >= _TIME_UNITS.index(kind.unit)
    if types.is_decimal(target):
        return types.is_decimal(kind) or types.is_integer(kind)  # pyarrow widens precision and scale to hold both
    return False


def _index_columns(schema: Any) -> set[str]:
    """The columns in which pandas stored a DataFrame's index (named in the schema's ``pandas`` metadata)."""
    stored = (schema.metadata or {}).get(b"pandas")
    try:
        entries = json.loads(stored).get("index_columns", []) if stored else []
    except (ValueError, AttributeError):
        return set()
    return {entry for entry in entries if isinstance(entry, str)}


def dataset_columns(dataset: Any) -> list[str]:
    """The data columns of a ``pyarrow.dataset``: its schema's names but those holding a stored pandas index
    (``DataFrame.to_parquet`` with an index that is not a range), which ``to_pandas`` makes the index."""
    index = _index_columns(dataset.schema)
    return [str(c) for c in dataset.schema.names if c not in index]


def parquet_columns(path: str | os.PathLike) -> list[str]:
    """The column names of a Parquet file or directory (read from the files' schemas, no rows).

    A directory whose files differ in their columns has all of them (see
    :func:`parquet_dataset`; the read of the rows that follows reports what differs).
    Columns holding a stored pandas index are not data and are left out.

    Parameters
    ----------
    path : str or os.PathLike
        A Parquet file or a directory of them.

    Returns
    -------
    list of str
        The column names.
    """
    return dataset_columns(parquet_dataset(path, report=False))


def parquet_batches(path: str | os.PathLike, columns: list[str] | None = None,
                    batch_rows: int = defaults.STREAM_BATCH_ROWS) -> Iterator[pd.DataFrame]:
    """The record batches of a Parquet file or directory as DataFrames (``columns``: only those), one at a time.

    A directory is read under its files' unified schema (:func:`parquet_dataset`).

    Parameters
    ----------
    path : str or os.PathLike
        A Parquet file or a directory of them.
    columns : list of str or None, default=None
        The columns to read; None reads every column.
    batch_rows : int, default=defaults.STREAM_BATCH_ROWS
        The number of rows per batch, at most.

    Yields
    ------
    pandas.DataFrame
        Each batch, in the file's (the files') order.
    """
    yield from dataset_batches(parquet_dataset(path), columns, batch_rows)


def parquet_table(path: str | os.PathLike) -> Any:
    """Every row of a Parquet file or directory as one ``pyarrow.Table`` (a directory's files under their unified
    schema, see :func:`parquet_dataset`; a value that the unified type cannot hold is an error naming its file)."""
    dataset = parquet_dataset(path)
    if (dataset.schema.metadata or {}).get(_UNIFIED) is None:
        return dataset.to_table()
    import pyarrow as pa

    tables = []
    for fragment in dataset.get_fragments():
        try:
            tables.append(fragment.to_table(schema=dataset.schema))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise ValueError(_unreadable(fragment.path, exc)) from None
    return pa.concat_tables(tables)


def _unreadable(path: str, exc: Exception) -> str:
    return (
        f"data file '{path}' could not be read with the types unified from all the files ({exc}): "
        "write its columns with the types of the other files"
    )


def dataset_batches(dataset: Any, columns: list[str] | None = None,
                    batch_rows: int = defaults.STREAM_BATCH_ROWS) -> Iterator[pd.DataFrame]:
    """The non-empty record batches of a ``pyarrow.dataset`` (``columns``: only those) as DataFrames.

    A dataset whose schema was unified from files that differ is read file by
    file, so that a value its file's type holds and the unified type does not
    (an integer beyond 2**53 read as ``float64``) is an error naming the file.
    """
    for batch in _record_batches(dataset, columns, batch_rows):
        yield batch.to_pandas()


def parquet_batches_and_ids(path: str | os.PathLike, ids: list[str],
                            batch_rows: int = defaults.STREAM_BATCH_ROWS) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """The record batches of a Parquet file or directory as :func:`parquet_batches` gives them, each with its
    columns ``ids`` in their Arrow types, for identifiers copied into an output.

    pandas' default conversion turns an ``int64`` column with a null into
    ``float64`` (``12345678901234567`` becomes ``1.2345678901234568e+16``);
    the ID columns are converted to pandas' Arrow-backed dtypes
    (:class:`pandas.ArrowDtype`) instead, so an ``int64`` with nulls stays
    ``int64[pyarrow]`` with missing values, and every other type keeps its
    values as written. The first DataFrame of each pair is the whole batch,
    converted as before (the features are read as they always are, also when
    an ID column is one of them).

    Parameters
    ----------
    path : str or os.PathLike
        A Parquet file or a directory of them.
    ids : list of str
        The ID columns (columns of the data).
    batch_rows : int, default=defaults.STREAM_BATCH_ROWS
        The number of rows per batch, at most.

    Yields
    ------
    tuple of (DataFrame, DataFrame)
        A batch's every column, and its ID columns in their Arrow types (a ``RangeIndex``).
    """
    for batch in _record_batches(parquet_dataset(path), None, batch_rows):
        yield batch.to_pandas(), pd.DataFrame(
            {name: batch.column(name).to_pandas(types_mapper=pd.ArrowDtype).reset_index(drop=True) for name in ids}
        )


def _record_batches(dataset: Any, columns: list[str] | None, batch_rows: int) -> Iterator[Any]:
    """The non-empty record batches (``pyarrow.RecordBatch``) of a dataset, read as :func:`dataset_batches` says."""
    if (dataset.schema.metadata or {}).get(_UNIFIED) is None:
        for batch in dataset.to_batches(columns=columns, batch_size=int(batch_rows)):
            if batch.num_rows:
                yield batch
        return
    import pyarrow as pa

    for fragment in dataset.get_fragments():
        try:
            for batch in fragment.to_batches(schema=dataset.schema, columns=columns, batch_size=int(batch_rows)):
                if batch.num_rows:
                    yield batch
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise ValueError(_unreadable(fragment.path, exc)) from None
