"""DataFrames of other libraries (polars, pyarrow, the dataframe interchange protocol) as pandas DataFrames.

The library computes on pandas; :func:`as_pandas` is the one place where a
DataFrame of another library becomes one, at the public boundary (``fit``,
``predict``, the binarizer, a rule's ``evaluate``, the report), so that its
column names and dtypes arrive as they are. It goes through Arrow: a polars
``DataFrame`` (a ``LazyFrame`` is collected first), a ``pyarrow.Table`` or
``RecordBatch``, and anything else that exports the Arrow PyCapsule stream
(``__arrow_c_stream__``) or the dataframe interchange protocol
(``__dataframe__``) is read as a ``pyarrow.Table``, then converted column by
column with these dtypes:

- integers and booleans: numpy ``int``/``bool``, or pandas' nullable
  ``Int64``/``boolean`` (and the other widths) when the column has missing
  values, as a pandas user would hold them (Arrow's own conversion would
  turn such integers into floats and such booleans into objects);
- strings: pandas' default string dtype; dictionary-encoded columns (polars
  ``Categorical`` and ``Enum``): ``category``;
- floats: ``float64`` with NaN for missing values (polars' null and NaN alike);
- timestamps, dates and durations: ``datetime64``/``timedelta64``, which a fit
  refuses as the pandas path does, with a message saying how to turn them
  into numbers.

A pandas DataFrame whose columns pandas backs with pyarrow (``pandas.ArrowDtype``:
``convert_dtypes(dtype_backend="pyarrow")``, ``read_parquet(..., dtype_backend="pyarrow")``)
has those columns converted by :func:`to_frame` with the same dtypes, so it is
read as the same data in polars or pyarrow is.

pandas and pyarrow are imported only when needed, so importing
:mod:`rulemodels.utils` stays cheap; pyarrow is needed only for the DataFrames
of other libraries (polars needs it for its own ``to_pandas`` too).

:func:`to_frame` is the one check and conversion of the features ``X`` that
every public entry point runs (a fit, ``predict``, the binarizer, a rule's
``evaluate``): a pandas DataFrame with unique ``str`` column names, or the one
wording of what is wrong with ``X`` (sparse, not 2-D, a column name twice, no
rows or no columns). The work inside a fit receives that frame and trusts it.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

__all__ = ["as_pandas", "check_nonempty", "check_unique_column_names", "duplicated_names", "is_foreign_frame", "to_frame"]

_PYARROW_NEEDED = (
    "converting a {kind} to pandas needs pyarrow, which is not installed: pip install pyarrow "
    "(or pip install 'rulemodels[large]'), or pass a pandas DataFrame"
)


def is_foreign_frame(X: Any) -> bool:
    """Whether ``X`` is a DataFrame of another library than pandas that :func:`as_pandas` converts.

    That is a polars ``LazyFrame``, or a two-dimensional object exporting the
    Arrow PyCapsule stream (``__arrow_c_stream__``: a polars ``DataFrame``, a
    ``pyarrow.Table`` or ``RecordBatch``, a DuckDB relation) or the dataframe
    interchange protocol (``__dataframe__``). A pandas DataFrame (which has
    both in recent releases), an array, a list, a one-dimensional column (a
    polars ``Series``, a pyarrow array) and a Dask collection (read partition
    by partition where that is supported, never collected here) are not.

    Parameters
    ----------
    X : object
        The data to test.

    Returns
    -------
    bool
        True when :func:`as_pandas` converts ``X`` from another library.
    """
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(X, pandas.DataFrame):
        return False
    if hasattr(X, "__dask_graph__"):
        return False
    if _is_lazy_polars(X):
        return True
    if isinstance(X, type):
        return False
    if hasattr(X, "__dataframe__"):
        return True
    if not hasattr(X, "__arrow_c_stream__") or _is_arrow_column(X):
        return False
    shape = getattr(X, "shape", None)  # a polars Series exports a stream too, of one column
    return shape is None or len(shape) == 2


def as_pandas(X: Any) -> Any:
    """``X`` as a pandas DataFrame if it is a DataFrame of another library; anything else as it is.

    Parameters
    ----------
    X : object
        A pandas DataFrame or array-like (returned unchanged), or a DataFrame
        of another library (see :func:`is_foreign_frame`): a polars
        ``DataFrame`` or ``LazyFrame`` (collected), a ``pyarrow.Table``, or an
        object with ``__arrow_c_stream__`` or ``__dataframe__``.

    Returns
    -------
    pandas.DataFrame or object
        The DataFrame with the same column names, in the same order, and the
        dtypes the module docstring lists; a RangeIndex unless the data came
        from pandas with another index (pyarrow keeps it in its metadata).

    Raises
    ------
    ImportError
        When a DataFrame of another library is passed and pyarrow is not installed.
    TypeError
        When the object says it is a DataFrame but cannot be read as one.
    """
    if not is_foreign_frame(X):
        return X
    kind = f"{type(X).__module__.split('.')[0]}.{type(X).__name__}"
    if _is_lazy_polars(X):
        X = X.collect()
    try:
        import pyarrow as pa
    except ImportError:
        raise ImportError(_PYARROW_NEEDED.format(kind=kind)) from None
    return _arrow_to_pandas(_as_arrow_table(X, pa, kind), pa)


def _is_lazy_polars(X: Any) -> bool:
    """Whether ``X`` is a polars ``LazyFrame`` (polars is not imported to find out)."""
    polars = sys.modules.get("polars")
    return polars is not None and isinstance(X, polars.LazyFrame)


def _is_arrow_column(X: Any) -> bool:
    """Whether ``X`` is a pyarrow ``Array`` or ``ChunkedArray``: one column, which has no ``shape``."""
    pyarrow = sys.modules.get("pyarrow")
    return pyarrow is not None and isinstance(X, (pyarrow.Array, pyarrow.ChunkedArray))


def _as_arrow_table(X: Any, pa: Any, kind: str) -> Any:
    """``X`` (a DataFrame of another library) as a ``pyarrow.Table``."""
    if isinstance(X, pa.Table):
        return X
    try:
        if isinstance(X, pa.RecordBatch) or hasattr(X, "__arrow_c_stream__"):
            return pa.table(X)
        from pyarrow.interchange import from_dataframe

        return from_dataframe(X)
    except (pa.ArrowException, TypeError, ValueError, NotImplementedError) as exc:
        raise TypeError(
            f"could not read the {kind} as a table ({type(exc).__name__}: {exc}): pass a pandas DataFrame "
            "or a 2-D array instead"
        ) from exc


def _nullable_dtypes(pa: Any) -> dict[Any, Any]:
    """pandas' nullable dtype of each Arrow integer and boolean type (those that hold missing values as such)."""
    import pandas as pd

    return {
        pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(), pa.int64(): pd.Int64Dtype(),
        pa.uint8(): pd.UInt8Dtype(), pa.uint16(): pd.UInt16Dtype(), pa.uint32(): pd.UInt32Dtype(),
        pa.uint64(): pd.UInt64Dtype(), pa.bool_(): pd.BooleanDtype(),
    }


def _arrow_to_pandas(table: Any, pa: Any) -> Any:
    """A ``pyarrow.Table`` as a pandas DataFrame with the dtypes of the module docstring.

    Arrow's own conversion is kept for every column but the integer and
    boolean ones with missing values, which become pandas' nullable dtypes
    instead of floats and objects. Dates become ``datetime64`` (not objects
    holding ``datetime.date``), so a fit says what to do with them.
    """
    frame = table.to_pandas(date_as_object=False)
    nullable = _nullable_dtypes(pa)
    for position, field in enumerate(table.schema):
        column = table.column(position)
        if field.type in nullable and column.null_count:
            frame.isetitem(position, column.to_pandas(types_mapper=nullable.get).array)
    return frame


def _without_arrow_dtypes(frame: Any) -> Any:
    """``frame`` with each pyarrow-backed column (``pandas.ArrowDtype``: ``bool[pyarrow]``, ``dictionary<...>[pyarrow]``,
    ``int64[pyarrow]``, from ``convert_dtypes(dtype_backend="pyarrow")`` or ``read_parquet(..., dtype_backend="pyarrow")``)
    converted as :func:`as_pandas` converts the same Arrow column of a polars or pyarrow DataFrame.

    So such a frame is read as the same data in polars or pyarrow is: booleans
    as ``bool``/``boolean``, dictionaries as ``category``, integers with
    missing values as ``Int64``. pandas' own string dtype (``string[pyarrow]``
    of the default backend) is not an ``ArrowDtype`` and is kept. The frame
    without such a column is returned as it is.
    """
    import pandas as pd

    positions = [j for j, dtype in enumerate(frame.dtypes) if isinstance(dtype, pd.ArrowDtype)]
    if not positions:
        return frame
    import pyarrow as pa  # installed: pandas made the columns with it

    table = pa.table({str(j): pa.array(frame.iloc[:, j].array) for j in positions})
    converted = _arrow_to_pandas(table, pa)
    frame = frame.copy(deep=False)
    for k, j in enumerate(positions):
        frame.isetitem(j, converted.iloc[:, k].set_axis(frame.index))
    return frame


def duplicated_names(names: list[str]) -> list[str]:
    """The names that occur more than once in ``names``, sorted.

    Parameters
    ----------
    names : list of str
        Column names.

    Returns
    -------
    list of str
        Each name that occurs more than once, once, sorted.
    """
    counts = Counter(names)
    return sorted(name for name, count in counts.items() if count > 1)


def check_unique_column_names(columns: Any) -> list[str]:
    """The column names as ``str``; raise if two are equal (each names its literals).

    Parameters
    ----------
    columns : iterable
        Column names of any type (``1`` and ``"1"`` are equal as ``str``).

    Returns
    -------
    list of str
        The names as ``str``, in order.

    Raises
    ------
    ValueError
        If two names are equal after conversion to ``str``.
    """
    names = [str(c) for c in columns]
    duplicated = duplicated_names(names)
    if duplicated:
        raise ValueError(
            f"column names {duplicated} appear more than once (after conversion to str); "
            "rename the columns so each is unique"
        )
    return names


def to_frame(X: Any, columns: list[str] | None = None, *, ensure_nonempty: bool = False, infer_objects: bool = False) -> Any:
    """``X`` checked and returned as a pandas DataFrame with unique ``str`` column names: the one converter of ``X``.

    Every public entry point (a fit, ``predict``, :class:`~rulemodels.data.FeatureBinarizer`,
    :meth:`rulemodels.rules.Rule.evaluate`) calls it once; the work behind it
    receives the frame and does not check it again. Each bad input has one
    message, whichever entry point receives it.

    Parameters
    ----------
    X : pandas.DataFrame, DataFrame of another library, or array-like of shape (n_samples, n_features)
        A pandas DataFrame keeps its columns (names as ``str``), index and
        dtypes; a polars or pyarrow DataFrame (or any object with
        ``__arrow_c_stream__`` or ``__dataframe__``) is converted by
        :func:`as_pandas` first; a 2-D array gets the names ``columns``.
    columns : list of str, optional
        The names of an array's columns (``x0, x1, ...`` when None); ignored for DataFrames.
    ensure_nonempty : bool, default=False
        Refuse ``X`` without rows or without columns (a fit, a transform); a
        rule evaluates on no rows.
    infer_objects : bool, default=False
        Infer the dtype of each column of an object array (numbers become
        numeric columns), as :class:`~rulemodels.data.FeatureBinarizer` reads arrays.

    Returns
    -------
    pandas.DataFrame
        ``X`` with ``str`` column names (a new frame; the data is shared, never copied, as pandas' copy on write allows).

    Raises
    ------
    TypeError
        If ``X`` is a sparse matrix.
    ValueError
        If ``X`` is not 2-D, has two columns of the same name (as ``str``), or
        (``ensure_nonempty``) has no rows or no columns.
    """
    import numpy as np
    import pandas as pd

    X = as_pandas(X)
    if isinstance(X, pd.DataFrame):
        frame = _without_arrow_dtypes(X.set_axis(check_unique_column_names(X.columns), axis=1))
    else:
        if hasattr(X, "tocsr") or hasattr(X, "toarray"):
            raise TypeError("X is a sparse matrix, which is not supported: pass a dense array (X.toarray()) or a DataFrame")
        array = np.asarray(X)
        if array.ndim == 1:
            raise ValueError(
                "Expected 2D array, got 1D array instead. Reshape your data with array.reshape(-1, 1) for a "
                "single feature or array.reshape(1, -1) for a single sample"
            )
        if array.ndim != 2:
            raise ValueError(
                f"Expected 2D array, got {array.ndim}D array instead: pass a DataFrame or an array of shape (n_samples, n_features)"
            )
        names = columns if columns is not None else [f"x{j}" for j in range(array.shape[1])]
        frame = pd.DataFrame(array, columns=check_unique_column_names(names))
        if infer_objects and array.dtype == object:
            frame = frame.infer_objects()
    if ensure_nonempty:
        check_nonempty(frame.shape)
    return frame


def check_nonempty(shape: tuple[int, ...]) -> None:
    """Raise if data of ``shape`` (rows, columns) has no rows or no columns: what a fit needs at least.

    Parameters
    ----------
    shape : tuple of int
        ``(n_samples, n_features)``.

    Raises
    ------
    ValueError
        If either is 0.
    """
    for what, size in zip(("sample", "feature"), shape):
        if size == 0:
            raise ValueError(f"Found array with 0 {what}(s) (shape={tuple(shape)}) while a minimum of 1 is required.")
