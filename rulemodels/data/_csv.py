"""Reading user data: CSV files and the bundled datasets, with the labels as 0/1.

Public names are re-exported by :mod:`rulemodels.data`.
"""

from __future__ import annotations

import codecs
import csv
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.datasets import DATASET_INFO, list_datasets, load_dataset
from rulemodels.defaults import PARQUET_SUFFIXES
from rulemodels.utils import unknown_name

__all__ = [
    "CSVOptions", "DEFAULT_NA_VALUES", "HeaderLooksLikeDataWarning", "LabeledData", "is_bundled_dataset",
    "load_data", "read_features", "read_text_columns", "resolve_target",
]

#: Cell texts read as missing besides pandas' own (empty, NA, NaN, null, n/a, ...).
DEFAULT_NA_VALUES: tuple[str, ...] = ("?",)


class HeaderLooksLikeDataWarning(UserWarning):
    """Every name in the CSV's header row is a number: the file probably has no header.

    Its first data row would become the column names; read it with
    ``header=False`` (CLI: ``--no-header``), which names the columns ``x0, x1, ...``.
    """


@dataclass(frozen=True)
class CSVOptions:
    """How to read a CSV file.

    Parameters
    ----------
    header : bool
        The first row holds the column names; False names them ``x0, x1, ...``.
    sep : str
        The field separator.
    na_values : tuple of str
        Cell texts read as missing, besides pandas' defaults (empty, ``NA``,
        ``NaN``, ``null``, ``n/a``, ``None``, ...) unless ``default_na`` is
        False. Spaces after a separator are skipped, so ``, ?`` is missing too.
    default_na : bool
        Also read pandas' default texts as missing. False: only empty cells
        and ``na_values`` are missing (a category named ``None`` or ``NA``
        stays a category).
    encoding : str
        The file's text encoding (``utf-8``; ``latin-1`` or ``cp1252`` for
        many spreadsheet exports).
    """

    header: bool = True
    sep: str = ","
    na_values: tuple[str, ...] = field(default=DEFAULT_NA_VALUES)
    default_na: bool = True
    encoding: str = "utf-8"

    def __post_init__(self) -> None:
        if self.sep == "":
            raise ValueError("the CSV separator is empty: give one character, e.g. ',' ';' or a tab")
        try:
            codecs.lookup(self.encoding)
        except LookupError:
            raise ValueError(f"unknown text encoding {self.encoding!r}: use e.g. utf-8, latin-1 or cp1252") from None


@dataclass(frozen=True)
class LabeledData:
    """Features, 0/1 labels, and the names of the two classes (``classes[1]`` is label 1); with more
    than two classes (``load_data(..., multiclass=True)``), the labels themselves and every class, sorted.

    Parameters
    ----------
    X : pandas.DataFrame
        The feature columns.
    y : numpy.ndarray
        The 0/1 labels (1 = ``classes[1]``), or the labels themselves with more than two classes.
    target : str
        The name of the target column.
    classes : tuple
        The class labels, sorted.
    source : str
        Where the data came from (a bundled dataset's name or a file path).
    """

    X: pd.DataFrame
    y: np.ndarray
    target: str
    classes: tuple[Any, ...]
    source: str

    @property
    def multiclass(self) -> bool:
        """Whether ``y`` holds more than two classes (the labels themselves, not 0/1)."""
        return len(self.classes) > 2


def _plain(value: Any) -> Any:
    """numpy scalars as Python values (for JSON)."""
    return value.item() if isinstance(value, np.generic) else value


def read_features(path: str | Path, options: CSVOptions | None = None,
                  dtypes: Mapping[str, object] | None = None) -> pd.DataFrame:
    """A CSV file (or a Parquet file or directory) as a DataFrame, with clear errors for a missing or empty file.

    Parquet data (``.parquet``/``.pq``, or a directory of them) is read whole, for
    the commands that need every row in memory (``cv``, ``exact``); ``fit`` and
    ``predict`` read it in batches instead (:mod:`rulemodels.data._stream`). The
    CSV reading ``options`` do not apply to it: its columns keep their types.

    Warns (:class:`HeaderLooksLikeDataWarning`) when every header name is a number.
    ``dtypes`` reads the columns it names with those dtypes (``{"zip": str}`` keeps
    ``"02110"`` as text; names the file lacks are ignored).

    Parameters
    ----------
    path : str or Path
        The CSV file, or a Parquet file or directory.
    options : CSVOptions or None, default=None
        How to read a CSV file; None uses ``CSVOptions()``.
    dtypes : mapping of str to dtype or None, default=None
        The dtype of the columns it names.

    Returns
    -------
    DataFrame
        The file's rows.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file is a directory, empty, not in the encoding, malformed CSV, or has duplicate column names.
    """
    options = options or CSVOptions()
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"data file '{path}' not found (give a CSV path or a bundled dataset: {', '.join(list_datasets())})")
    if file.suffix.lower() in PARQUET_SUFFIXES or file.is_dir() and any(p.suffix.lower() in PARQUET_SUFFIXES for p in file.iterdir()):
        return _read_parquet_whole(path, dtypes)
    if file.is_dir():
        raise ValueError(f"data file '{path}' is a directory: give a CSV file")
    na_values = list(options.na_values) if options.default_na else ["", *options.na_values]
    try:
        frame = pd.read_csv(
            file, sep=options.sep, header=0 if options.header else None, na_values=na_values,
            keep_default_na=options.default_na, skipinitialspace=True, encoding=options.encoding,
            dtype=_dtype_argument(dtypes, options.header),
        )
    except pd.errors.EmptyDataError:
        raise ValueError(f"data file '{path}' is empty") from None
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"data file '{path}' is not {options.encoding} text: byte 0x{exc.object[exc.start]:02x} at offset "
            f"{exc.start} cannot be decoded; give its encoding with --encoding (e.g. --encoding latin-1 or "
            "cp1252 for many spreadsheet exports)"
        ) from None
    except pd.errors.ParserError as exc:
        detail = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise ValueError(
            f"data file '{path}' is not a well-formed CSV table ({detail.removeprefix('Error tokenizing data. ')}): "
            "every row needs as many fields as the header; check the separator (--sep) and the quoting"
        ) from None
    if not options.header:
        frame.columns = [f"x{k}" for k in range(frame.shape[1])]
    if frame.shape[0] == 0:
        raise ValueError(f"data file '{path}' has a header but no rows")
    if options.header:
        header = _header_names(file, options.sep, options.encoding)
        duplicated = sorted(name for name, count in Counter(header).items() if count > 1)
        if duplicated:  # pandas would silently rename the second one to 'name.1'
            raise ValueError(f"data file '{path}' has duplicate column names {duplicated}: rename them so each is unique")
        if header and all(_is_number(name) for name in header):
            warnings.warn(
                f"every column name in the first row of '{path}' is a number ({', '.join(header[:4])}"
                f"{', ...' if len(header) > 4 else ''}): the file seems to have no header row, and its first "
                "row of data was read as column names; pass --no-header (columns x0, x1, ...)",
                HeaderLooksLikeDataWarning, stacklevel=2,
            )
    return frame


def read_text_columns(path: str | Path, names: Sequence[str], options: CSVOptions | None = None) -> pd.DataFrame:
    """The columns ``names`` of a CSV file as the text of their cells, for identifiers copied into an output.

    Nothing is parsed: ``"000001"`` keeps its zeros, ``"12345678901234567"``
    stays those 17 digits (not a float), and a missing-value marker or an empty
    cell is that text (``""`` for an empty cell), whatever ``options.na_values``
    says, so that an output joins back to the records on them. As for every
    column (:func:`read_features`), spaces after a separator are skipped. The
    rows are those :func:`read_features` reads from the same file and options.

    Parameters
    ----------
    path : str or Path
        The CSV file.
    names : sequence of str
        The columns to read (``x0, x1, ...`` for a file without a header).
    options : CSVOptions or None, default=None
        How to read the CSV file; None uses ``CSVOptions()``.

    Returns
    -------
    DataFrame
        The named columns, in the order given, as text.

    Raises
    ------
    ValueError
        If a name is not a column of the file.

    Examples
    --------
    >>> import os, tempfile
    >>> from rulemodels.data import read_text_columns
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     path = os.path.join(directory, "records.csv")
    ...     with open(path, "w") as handle:
    ...         _ = handle.write("id,x\\n000001,1.5\\n,2.5\\n12345678901234567,3.5\\n")
    ...     read_text_columns(path, ["id"])["id"].tolist()
    ['000001', '', '12345678901234567']
    """
    options = options or CSVOptions()
    names = list(dict.fromkeys(names))
    if options.header:
        usecols: list[Any] = names
    else:  # x3 is column 3
        bad = [name for name in names if not (name[:1] == "x" and name[1:].isdigit())]
        if bad:
            raise ValueError(f"the column {bad[0]!r} is not a column of a file without a header (x0, x1, ...)")
        usecols = sorted({int(name[1:]) for name in names})
    try:
        frame = pd.read_csv(
            path, sep=options.sep, header=0 if options.header else None, usecols=usecols,
            dtype=str, na_filter=False, skipinitialspace=True, encoding=options.encoding,
        )
    except ValueError as exc:  # a name or position the file lacks
        raise ValueError(f"data file '{path}' has no column(s) {', '.join(map(repr, names))} to read as text ({exc})") from None
    if not options.header:
        frame.columns = [f"x{k}" for k in usecols]
    return frame[names]


def _read_parquet_whole(path: str | Path, dtypes: Mapping[str, object] | None) -> pd.DataFrame:
    """Every row of a Parquet file or directory; ``dtypes`` columns cast (missing values kept missing)."""
    from rulemodels.data._parquet import parquet_table

    frame = parquet_table(path).to_pandas()  # a directory's files under their unified schema
    if frame.empty:
        raise ValueError(f"data file '{path}' has no rows")
    for name, dtype in (dtypes or {}).items():
        if name in frame.columns and dtype is str:
            column = frame[name]
            frame[name] = column.astype(object).where(column.isna(), column.astype(str))
    return frame


def _dtype_argument(dtypes: Mapping[str, object] | None, header: bool) -> dict[Any, Any] | None:
    """``read_csv``'s ``dtype``: by name, or by position for a file without a header (``x3`` is column 3)."""
    if not dtypes:
        return None
    if header:
        return dict(dtypes)
    return {int(name[1:]): dtype for name, dtype in dtypes.items() if name[:1] == "x" and name[1:].isdigit()}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _header_names(file: Path, sep: str, encoding: str) -> list[str]:
    """The names in the CSV file's header row, as written."""
    with file.open(newline="", encoding=encoding) as handle:
        header = next(csv.reader(handle, delimiter=sep, skipinitialspace=True), [])
    return [name.strip() for name in header]


def resolve_target(target: str, columns: list[str]) -> str:
    """The target column's name from a name or a 0-based index (negative counts from the end).

    A name that is a column wins over the same text read as an index.

    Parameters
    ----------
    target : str
        A column name, or a 0-based column index as text.
    columns : list of str
        The file's column names.

    Returns
    -------
    str
        The target column's name.

    Raises
    ------
    ValueError
        If ``target`` is neither a column name nor an index in range.
    """
    if target in columns:
        return target
    try:
        index = int(target)
    except ValueError:
        raise ValueError(unknown_name("the target column", target, columns, "the file")) from None
    if not -len(columns) <= index < len(columns):
        raise ValueError(
            f"--target {index} is out of range: the file has {len(columns)} columns "
            f"(0 to {len(columns) - 1}, or -1 for the last)"
        )
    return str(columns[index])


def is_bundled_dataset(source: str) -> bool:
    """Whether ``source`` names a bundled dataset (and is not also a file path).

    Parameters
    ----------
    source : str
        A dataset name or a file path.

    Returns
    -------
    bool
        True when ``source`` is a bundled dataset's name and no such path exists.
    """
    return source in list_datasets() and not Path(source).exists()


def _without(X: pd.DataFrame, drop: Sequence[str], target: str) -> pd.DataFrame:
    """``X`` without the columns ``drop`` names (each must be a feature column of ``X``)."""
    columns = [str(c) for c in X.columns]
    for name in drop:
        if name == target:
            raise ValueError(f"--drop/--id name the target column {name!r}: they name feature columns")
        if name not in columns:
            raise ValueError(unknown_name("--drop/--id: the column", name, [*columns, target], "the data"))
    if len(set(drop)) == len(columns):
        raise ValueError(f"--drop/--id leave no feature column: the data has only {', '.join(map(repr, columns))} besides the target")
    return X.drop(columns=list(dict.fromkeys(drop))) if drop else X


def load_data(source: str, target: str | None = None, positive: str | None = None,
              options: CSVOptions | None = None, categorical: Sequence[str] = (), *, multiclass: bool = False,
              drop: Sequence[str] = ()) -> LabeledData:
    """Load a bundled dataset by name, or a CSV file with a ``target`` column.

    ``target`` is a column name or a 0-based column index (``-1``: the last
    column). The target must have exactly two values, or ``positive`` must
    name the value that counts as the positive class (label 1; every other
    value is 0). ``options`` says how to read the CSV file. ``categorical``
    names columns whose values are codes, not quantities (ICD or ZIP codes):
    they are read as text (``"02110"`` keeps its zero) and given the
    ``category`` dtype, so every value is a category. ``multiclass=True``: a
    target with more than two values and no ``positive`` keeps its labels
    (``y`` holds the values, ``classes`` all of them, sorted), for an ordered
    rule list; otherwise such a target needs ``positive``. ``drop`` names
    feature columns left out (an ID column, a column that must not be in the
    rule: the CLI's ``--drop`` and ``--id``).

    Parameters
    ----------
    source : str
        A bundled dataset's name or a CSV file's path.
    target : str or None, default=None
        The target column: a name or a 0-based index; None is the bundled dataset's target.
    positive : str or None, default=None
        The target value that counts as the positive class.
    options : CSVOptions or None, default=None
        How to read the CSV file.
    categorical : sequence of str, default=()
        Columns read as text categories.
    multiclass : bool, default=False
        Keep the labels of a target with more than two values.
    drop : sequence of str, default=()
        Feature columns left out.

    Returns
    -------
    LabeledData
        The features, the labels, the target's name, the classes and the source.

    Raises
    ------
    ValueError
        If the target is absent, unknown, categorical, incomplete or constant, or ``positive`` is needed or unknown.
    """
    if is_bundled_dataset(source):
        X, y = load_dataset(source)
        info = DATASET_INFO[source]
        if target is not None and target != info["target"]:
            raise ValueError(f"bundled dataset '{source}' has target '{info['target']}', not '{target}'")
        name = str(info["target"])
        X = _without(X, drop, name)
        return LabeledData(_as_categories(X, categorical, source), y.to_numpy().astype(int), name, (0, 1), source)
    frame = read_features(source, options, dtypes=dict.fromkeys(categorical, str))
    if target is None:
        raise ValueError(
            f"--target is required for a CSV file (a column name, or an index: -1 is the last column); "
            f"columns are {', '.join(map(str, frame.columns))}"
        )
    target = resolve_target(str(target), [str(c) for c in frame.columns])
    column = frame[target]
    if column.isna().any():
        raise ValueError(f"target column '{target}' has {int(column.isna().sum())} missing values; drop those rows first")
    if target in categorical:
        raise ValueError(f"--categorical names the target column '{target}': it names feature columns")
    X = _as_categories(_without(frame.drop(columns=[target]), drop, target), categorical, source)
    # Label texts are compared without surrounding spaces ("yes " is "yes"): a CSV written with
    # padded cells must not turn positives into negatives.
    texts = column.astype(str).str.strip()
    values = sorted(texts.unique())
    if len(values) == 1:
        raise ValueError(
            f"target column '{target}' has a single value ({values[0]}) in '{source}': "
            "a rule is learned from rows of both classes"
        )
    if positive is None and multiclass and len(values) > 2:
        labels = {text: _plain(column[texts == text].iloc[0]) for text in values}
        labels = {text: value.strip() if isinstance(value, str) else value for text, value in labels.items()}
        y_labels = np.array([labels[text] for text in texts], dtype=object)
        if all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in labels.values()):
            y_labels = y_labels.astype(np.int64)
        return LabeledData(X, y_labels, target, tuple(sorted(labels.values())), source)
    if positive is None:
        if len(values) != 2:
            hint = "" if multiclass else (
                " (this command learns a two-class rule; 'rulemodels fit' learns an ordered rule list over all the values)"
            )
            raise ValueError(
                f"target column '{target}' has {len(values)} distinct values ({', '.join(values[:10])}); "
                f"pass --positive VALUE to name the positive class{hint}"
            )
        positive_text = values[1]
        negative: Any = _plain(column[texts == values[0]].iloc[0])
    else:
        positive_text = str(positive).strip()
        if positive_text not in values:
            raise ValueError(f"--positive {positive!r} is not a value of '{target}'; values are {', '.join(values[:10])}")
        others = [v for v in values if v != positive_text]
        negative = _plain(column[texts == others[0]].iloc[0]) if len(others) == 1 else f"not {positive_text}"
    positive_value = _plain(column[texts == positive_text].iloc[0])
    if isinstance(positive_value, str):
        positive_value = positive_value.strip()
    if isinstance(negative, str):
        negative = negative.strip()
    y = (texts == positive_text).to_numpy().astype(int)
    return LabeledData(X, y, target, (negative, positive_value), source)


def _as_categories(X: pd.DataFrame, categorical: Sequence[str], source: str) -> pd.DataFrame:
    """``X`` with the ``categorical`` columns as ``category`` dtype (missing values stay missing)."""
    unknown = [name for name in categorical if name not in X.columns]
    if unknown:
        raise ValueError(
            f"--categorical names column(s) {', '.join(map(repr, unknown))} that '{source}' does not have; "
            f"columns are {', '.join(map(str, X.columns))}"
        )
    if not categorical:
        return X
    X = X.copy()
    for name in categorical:
        X[name] = X[name].astype("category")
    return X
