"""Reading user data and saving/loading fitted rules (JSON, validated; never pickle)."""

from __future__ import annotations

import csv
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.data.binarizer import duplicated_names
from rulemodels.datasets import DATASET_INFO, list_datasets, load_dataset
from rulemodels.explain import explain_rule
from rulemodels.rules import Rule, RuleFormatError

__all__ = [
    "CSVOptions", "HeaderLooksLikeDataWarning", "LabeledData", "SavedModel", "is_bundled_dataset", "load_data",
    "load_model", "read_features", "resolve_target", "save_model",
]

MODEL_FORMAT = "rulemodels.model"

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

    Attributes
    ----------
    header : bool
        The first row holds the column names; False names them ``x0, x1, ...``.
    sep : str
        The field separator.
    na_values : tuple of str
        Cell texts read as missing, besides pandas' defaults (empty, ``NA``,
        ``NaN``, ``null``, ``n/a``, ...). Spaces after a separator are skipped,
        so ``, ?`` is missing too.
    """

    header: bool = True
    sep: str = ","
    na_values: tuple[str, ...] = field(default=DEFAULT_NA_VALUES)


@dataclass(frozen=True)
class LabeledData:
    """Features, 0/1 labels, and the names of the two classes (``classes[1]`` is label 1)."""

    X: pd.DataFrame
    y: np.ndarray
    target: str
    classes: tuple[Any, Any]
    source: str


def _plain(value: Any) -> Any:
    """numpy scalars as Python values (for JSON)."""
    return value.item() if isinstance(value, np.generic) else value


def read_features(path: str | Path, options: CSVOptions | None = None) -> pd.DataFrame:
    """A CSV file as a DataFrame, with clear errors for a missing or empty file.

    Warns (:class:`HeaderLooksLikeDataWarning`) when every header name is a number.
    """
    options = options or CSVOptions()
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"data file '{path}' not found (give a CSV path or a bundled dataset: {', '.join(list_datasets())})")
    try:
        frame = pd.read_csv(
            file, sep=options.sep, header=0 if options.header else None, na_values=list(options.na_values),
            skipinitialspace=True,
        )
    except pd.errors.EmptyDataError:
        raise ValueError(f"data file '{path}' is empty") from None
    if not options.header:
        frame.columns = [f"x{k}" for k in range(frame.shape[1])]
    if frame.shape[0] == 0:
        raise ValueError(f"data file '{path}' has a header but no rows")
    if options.header:
        header = _header_names(file, options.sep)
        duplicated = duplicated_names(header)
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


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _header_names(file: Path, sep: str) -> list[str]:
    """The names in the CSV file's header row, as written."""
    with file.open(newline="") as handle:
        header = next(csv.reader(handle, delimiter=sep, skipinitialspace=True), [])
    return [name.strip() for name in header]


def resolve_target(target: str, columns: list[str]) -> str:
    """The target column's name from a name or a 0-based index (negative counts from the end).

    A name that is a column wins over the same text read as an index.
    """
    if target in columns:
        return target
    try:
        index = int(target)
    except ValueError:
        raise ValueError(f"target column '{target}' is not a column; columns are {', '.join(map(str, columns))}") from None
    if not -len(columns) <= index < len(columns):
        raise ValueError(
            f"--target {index} is out of range: the file has {len(columns)} columns "
            f"(0 to {len(columns) - 1}, or -1 for the last)"
        )
    return str(columns[index])


def is_bundled_dataset(source: str) -> bool:
    """Whether ``source`` names a bundled dataset (and is not also a file path)."""
    return source in list_datasets() and not Path(source).exists()


def load_data(source: str, target: str | None = None, positive: str | None = None,
              options: CSVOptions | None = None) -> LabeledData:
    """Load a bundled dataset by name, or a CSV file with a ``target`` column.

    ``target`` is a column name or a 0-based column index (``-1``: the last
    column). The target must have exactly two values, or ``positive`` must
    name the value that counts as the positive class (label 1; every other
    value is 0). ``options`` says how to read the CSV file.
    """
    if is_bundled_dataset(source):
        X, y = load_dataset(source)
        info = DATASET_INFO[source]
        if target is not None and target != info["target"]:
            raise ValueError(f"bundled dataset '{source}' has target '{info['target']}', not '{target}'")
        return LabeledData(X, y.to_numpy().astype(int), info["target"], (0, 1), source)
    frame = read_features(source, options)
    if target is None:
        raise ValueError(
            f"--target is required for a CSV file (a column name, or an index: -1 is the last column); "
            f"columns are {', '.join(map(str, frame.columns))}"
        )
    target = resolve_target(str(target), [str(c) for c in frame.columns])
    column = frame[target]
    if column.isna().any():
        raise ValueError(f"target column '{target}' has {int(column.isna().sum())} missing values; drop those rows first")
    X = frame.drop(columns=[target])
    values = sorted(column.astype(str).unique())
    if len(values) == 1:
        raise ValueError(
            f"target column '{target}' has a single value ({values[0]}) in '{source}': "
            "a rule is learned from rows of both classes"
        )
    if positive is None:
        if len(values) != 2:
            raise ValueError(
                f"target column '{target}' has {len(values)} distinct values ({', '.join(values[:10])}); "
                "pass --positive VALUE to name the positive class"
            )
        positive_text = values[1]
        negative: Any = _plain(column[column.astype(str) == values[0]].iloc[0])
    else:
        positive_text = str(positive)
        if positive_text not in values:
            raise ValueError(f"--positive {positive!r} is not a value of '{target}'; values are {', '.join(values[:10])}")
        others = [v for v in values if v != positive_text]
        negative = _plain(column[column.astype(str) == others[0]].iloc[0]) if len(others) == 1 else f"not {positive_text}"
    positive_value = _plain(column[column.astype(str) == positive_text].iloc[0])
    y = (column.astype(str) == positive_text).to_numpy().astype(int)
    return LabeledData(X, y, target, (negative, positive_value), source)


@dataclass(frozen=True)
class SavedModel:
    """A fitted rule with what ``predict`` needs: the class names and the feature columns."""

    rule: Rule
    classes: tuple[Any, Any]
    target: str
    features: tuple[str, ...]
    metadata: dict

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """``classes[1]`` where the rule is true on a row of ``X``, ``classes[0]`` elsewhere."""
        self._check_columns(X)
        fired = self.rule.evaluate(X)
        return np.where(fired, self.classes[1], self.classes[0])

    def explain(self, X: pd.DataFrame) -> pd.DataFrame:
        """Each row's prediction with the clauses and literals that decided it (:func:`rulemodels.explain.explain_rule`)."""
        self._check_columns(X)
        return explain_rule(self.rule, X, self.classes)

    def _check_columns(self, X: pd.DataFrame) -> None:
        """Every column the rule uses is present (missing values follow :meth:`Literal.evaluate`)."""
        missing = [name for name in self.rule.features if name not in X.columns]
        if missing:
            raise ValueError(f"the data has no column {', '.join(repr(m) for m in missing)}, which the rule uses")


def save_model(path: str | Path, rule: Rule, classes: tuple[Any, Any], target: str, features: list[str], **metadata: Any) -> None:
    """Write a rule and its class names as JSON."""
    document = {
        "format": MODEL_FORMAT,
        "version": 1,
        "target": target,
        "classes": [_plain(c) for c in classes],
        "features": [str(f) for f in features],
        "rule": rule.to_dict(),
        "metadata": {key: _plain(value) for key, value in metadata.items()},
    }
    Path(path).write_text(json.dumps(document, indent=2) + "\n")


def _rule_from(document: Any, path: str | Path) -> Rule:
    """``Rule.from_dict`` with the file named in its error."""
    try:
        return Rule.from_dict(document)
    except RuleFormatError as exc:
        raise RuleFormatError(f"'{path}': {exc}") from None


def load_model(path: str | Path) -> SavedModel:
    """Read a model file written by :func:`save_model` (or a bare rule JSON); validated, never executed."""
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"rule file '{path}' not found")
    try:
        document = json.loads(file.read_text())
    except json.JSONDecodeError as exc:
        raise RuleFormatError(f"'{path}' is not valid JSON: {exc}") from None
    if not isinstance(document, dict):
        raise RuleFormatError(f"'{path}' must hold a JSON object")
    if document.get("format") == "rulemodels.rule":
        return SavedModel(_rule_from(document, path), (0, 1), "target", (), {})
    if document.get("format") != MODEL_FORMAT or document.get("version") != 1:
        raise RuleFormatError(f"'{path}' is not a rulemodels model file (format {MODEL_FORMAT!r}, version 1)")
    classes = document.get("classes")
    if not isinstance(classes, list) or len(classes) != 2 or not all(isinstance(c, (str, int, float, bool)) for c in classes):
        raise RuleFormatError(f"'{path}': 'classes' must be a list of two JSON scalars")
    rule = _rule_from(document.get("rule"), path)
    features = document.get("features", [])
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise RuleFormatError(f"'{path}': 'features' must be a list of column names")
    metadata = document.get("metadata", {})
    return SavedModel(rule, (classes[0], classes[1]), str(document.get("target", "target")), tuple(features), dict(metadata) if isinstance(metadata, dict) else {})
