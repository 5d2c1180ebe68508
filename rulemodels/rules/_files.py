"""Saving and loading fitted rules as model files (JSON, validated; never pickle).

A model file holds the rule, its class names, its feature columns and, when saved, the
training positive rate per pattern of clause outputs and the kind of each column the
rule uses. Version 1 holds a two-class rule; version 2 (written for more than two
classes) an ordered rule list (:class:`~rulemodels.rules.RuleList`), all the classes,
and the class rates per step instead of the pattern rates. Both versions are read.
Public names are re-exported by :mod:`rulemodels.rules`.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from rulemodels.outputs import write_text_atomically
from rulemodels.rules._explain import explain_rule, explain_rule_list
from rulemodels.rules._json import RuleFormatError, _object_from_pairs, check_unique_keys
from rulemodels.rules._kinds import ColumnKind, conform, text_dtypes
from rulemodels.rules._ops import CATEGORY_OPS, FLAG_OPS, SET_OPS, THRESHOLD_OPS
from rulemodels.rules._probability import PatternRates
from rulemodels.rules._rule import Rule
from rulemodels.rules._rule_list import ClassRates, RuleList
from rulemodels.utils import as_pandas

__all__ = ["MAX_RULE_FILE_BYTES", "MODEL_FORMAT", "SavedModel", "load_model", "save_model"]

#: The ``"format"`` field of a model file (:func:`save_model`); :func:`load_model` refuses a file without it.
MODEL_FORMAT = "rulemodels.model"


def _plain(value: Any) -> Any:
    """numpy scalars as Python values (for JSON)."""
    return value.item() if isinstance(value, np.generic) else value


#: Rule files larger than this (10 MiB) are refused before they are parsed. A saved
#: rule of a few hundred literals and its pattern rates take a few kilobytes.
MAX_RULE_FILE_BYTES = 10 * 1024 * 1024

#: The model-file versions this release reads: 1 (a two-class rule) and 2 (a rule list, more than two classes).
_MODEL_VERSIONS = (1, 2)
_MODEL_KEYS = ("format", "version", "target", "classes", "features", "rule")
_OPTIONAL_MODEL_KEYS = ("metadata", "pattern_rates", "column_kinds", "class_rates")
_RATES_KEYS = ("patterns", "n_samples", "n_positive", "proba", "unseen")


@dataclass(frozen=True)
class SavedModel:
    """A fitted rule with what ``predict`` needs: the class names, the feature columns,
    (when saved) the training positive rate per pattern of clause outputs, and (when saved)
    the kind of each column the rule uses.

    ``predict``, ``predict_proba`` and ``explain`` read each column of ``column_kinds``
    as that kind first (:meth:`conform`): text categories match as text however pandas
    parsed the column, and a column holding values of another kind gets one
    :class:`~rulemodels.rules.ColumnKindDriftWarning`. A file without kinds (older
    releases) evaluates the rule on the data as given.

    Parameters
    ----------
    rule : Rule or RuleList
        The fitted rule, or the rule list with more than two classes.
    classes : tuple
        The class labels; a rule is true for ``classes[1]``.
    target : str
        The name of the target column.
    features : tuple of str
        The feature columns the model was fitted on.
    metadata : dict
        Free-form metadata saved with the rule.
    pattern_rates : PatternRates or None, default=None
        The training positive rate per pattern of clause outputs, when saved.
    column_kinds : mapping of str to ColumnKind, default={}
        The kind of each column the rule uses, when saved.
    class_rates : ClassRates or None, default=None
        The class rates per step of a rule list, when saved.
    """

    rule: Rule | RuleList
    classes: tuple[Any, ...]
    target: str
    features: tuple[str, ...]
    metadata: dict
    pattern_rates: PatternRates | None = None
    column_kinds: Mapping[str, ColumnKind] = field(default_factory=dict)
    class_rates: ClassRates | None = None

    @property
    def multiclass(self) -> bool:
        """Whether the file holds a rule list (version 2: more than two classes) rather than a two-class rule."""
        return isinstance(self.rule, RuleList)

    def conform(self, X: pd.DataFrame) -> pd.DataFrame:
        """``X`` with each column of :attr:`column_kinds` read as its kind (:func:`rulemodels.rules.conform`);
        warns once per column whose kind drifted.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            The rows to read.

        Returns
        -------
        DataFrame
            ``X`` with those columns read as their kinds.
        """
        return conform(X, self.column_kinds, stacklevel=3)

    def csv_dtypes(self) -> dict[str, type]:
        """``pandas.read_csv`` dtypes for the columns of text categories (``{name: str}``), so codes such as
        ``"02110"`` keep their leading zeros.

        Returns
        -------
        dict of str to type
            ``{name: str}`` for each column of text categories.
        """
        return text_dtypes(self.column_kinds)

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """``classes[1]`` where the rule is true on a row of ``X``, ``classes[0]`` elsewhere; for a rule
        list, the class of the first step whose rule holds (else the default). ``X`` may be a polars or
        pyarrow DataFrame too.

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            The rows to predict, with every column of :attr:`features`.

        Returns
        -------
        ndarray of shape (n_samples,)
            The class of each row.
        """
        X = as_pandas(X)
        self._check_columns(X)
        if isinstance(self.rule, RuleList):
            return self.rule.predict(self.conform(X))
        fired = self.rule.evaluate(self.conform(X))
        return np.where(fired, self.classes[1], self.classes[0])

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        """The probability of ``classes[1]`` per row, from the saved pattern rates (see :class:`rulemodels.rules.PatternRates`);
        for a rule list, an (n, K) array, a column per class of ``classes``, from the saved class rates
        (:class:`rulemodels.rules.ClassRates`).

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            The rows to predict, with every column of :attr:`features`.

        Returns
        -------
        ndarray
            The probability of ``classes[1]`` per row, shape (n,); for a rule list, shape (n, K).

        Raises
        ------
        ValueError
            If the rule file has no pattern rates (or, for a rule list, no class rates).
        """
        X = as_pandas(X)
        if isinstance(self.rule, RuleList):
            if self.class_rates is None:
                raise ValueError(
                    "this rule file has no class rates, so it gives no probabilities: save it again with 'rulemodels fit ... --out'"
                )
            self._check_columns(X)
            return self.class_rates.predict(self.rule.claims(self.conform(X)))
        if self.pattern_rates is None:
            raise ValueError(
                "this rule file has no pattern rates, so it gives no probabilities: save the rule again "
                "with this release ('rulemodels fit ... --out RULE.json')"
            )
        self._check_columns(X)
        clause_values = self.rule.clause_outputs(self.conform(X))
        return self.pattern_rates.predict(clause_values, self.rule.reduce(clause_values))

    def explain(self, X: pd.DataFrame) -> pd.DataFrame:
        """Each row's prediction with the clauses and literals that decided it (:func:`rulemodels.rules.explain_rule`).

        Parameters
        ----------
        X : DataFrame of shape (n_samples, n_features)
            The rows to explain, with every column of :attr:`features`.

        Returns
        -------
        DataFrame
            One row per row of ``X``: the prediction and what decided it.
        """
        X = as_pandas(X)
        self._check_columns(X)
        if isinstance(self.rule, RuleList):
            return explain_rule_list(self.rule, self.conform(X))
        return explain_rule(self.rule, self.conform(X), self.classes)

    def _check_columns(self, X: pd.DataFrame) -> None:
        """Every column the rule uses is present (missing values follow :meth:`Literal.evaluate`)."""
        missing = [name for name in self.rule.features if name not in X.columns]
        if missing:
            raise ValueError(f"the data has no column {_some(missing, brackets=False)}, which the rule uses")


def _rates_document(rates: PatternRates) -> dict[str, Any]:
    return {
        "patterns": [[bool(v) for v in row] for row in rates.patterns],
        "n_samples": [float(v) for v in rates.n_samples],
        "n_positive": [float(v) for v in rates.n_positive],
        "proba": [float(v) for v in rates.proba],
        "unseen": [float(v) for v in rates.unseen],
    }


def save_model(
    path: str | Path, rule: Rule | RuleList, classes: tuple[Any, ...], target: str, features: list[str], *,
    pattern_rates: PatternRates | None = None, column_kinds: Mapping[str, ColumnKind] | None = None,
    class_rates: ClassRates | None = None, **metadata: object,
) -> None:
    """Write a rule, its class names, its feature columns and (optionally) its pattern rates and
    column kinds as JSON.

    A :class:`~rulemodels.rules.RuleList` is written as version 2 with every class of
    ``classes`` (the estimator's ``classes_``, the column order of ``class_rates``)
    and its optional ``class_rates``; a :class:`Rule` as version 1 with two classes.

    ``column_kinds`` (e.g. ``clf.binarizer_.column_kinds_``) gives the kind of each
    column; the file keeps those of the columns the rule uses, which must all be
    given and agree with the rule's literals (``ValueError`` otherwise).

    Parameters
    ----------
    path : str or Path
        The file to write.
    rule : Rule or RuleList
        The rule to save (a fitted estimator's ``rule_``).
    classes : tuple
        The class labels (the estimator's ``classes_``).
    target : str
        The name of the target column.
    features : list of str
        The feature columns (e.g. ``list(clf.feature_names_in_)``).
    pattern_rates : PatternRates or None, default=None
        The estimator's ``pattern_rates_``, for ``predict_proba`` of a rule.
    column_kinds : mapping of str to ColumnKind or None, default=None
        The kind of each column; None saves no kinds.
    class_rates : ClassRates or None, default=None
        The estimator's ``class_rates_``, for ``predict_proba`` of a rule list.
    **metadata : object
        Free-form metadata saved in the file.

    Raises
    ------
    TypeError
        If ``rule`` is not a Rule or RuleList, ``classes`` is not a sequence, or ``features`` is not iterable.
    ValueError
        If ``pattern_rates`` is given for a rule list, or ``class_rates`` for a two-class rule.

    Examples
    --------
    >>> import os, tempfile
    >>> from rulemodels import load_model, save_model
    >>> from rulemodels.rules import Literal, Rule
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("bmi", "<=", 30.0)]])
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     path = os.path.join(directory, "model.json")
    ...     save_model(path, rule, (0, 1), "outcome", ["age", "bmi"], note="example")
    ...     model = load_model(path)
    >>> print(model.rule)
    (age > 50.0 AND bmi <= 30.0)
    >>> model.target, model.features, model.metadata
    ('outcome', ('age', 'bmi'), {'note': 'example'})
    """
    _check_path(path, "save_model", "the file to write")
    if not isinstance(rule, Rule | RuleList):
        hint = (" (a fitted estimator: pass its rule, clf.rule_)" if hasattr(rule, "rule_")
                else " (the arguments are save_model(path, rule, classes, target, features))")
        raise TypeError(f"save_model: rule must be a Rule or a RuleList, got {type(rule).__name__}{hint}")
    if isinstance(classes, str | bytes) or not hasattr(classes, "__len__"):
        raise TypeError(f"save_model: classes must be a sequence of class labels (e.g. clf.classes_), got {type(classes).__name__}")
    if isinstance(features, str | bytes) or not hasattr(features, "__iter__"):
        raise TypeError(
            f"save_model: features must be a list of column names (e.g. list(clf.feature_names_in_)), got {type(features).__name__}"
        )
    kinds_document = None
    if column_kinds is not None:
        used = {name: column_kinds[name] for name in rule.features if name in column_kinds}
        kinds_document = {name: kind.to_dict() for name, kind in used.items()}
        _check_kinds(kinds_document, rule, [str(f) for f in features], error=ValueError)
    multiclass = isinstance(rule, RuleList)
    if multiclass and pattern_rates is not None:
        raise ValueError("a rule list has class_rates, not pattern_rates")
    if not multiclass and class_rates is not None:
        raise ValueError("class_rates are for a rule list (more than two classes); a two-class rule has pattern_rates")
    document = {
        "format": MODEL_FORMAT,
        "version": 2 if multiclass else 1,
        "target": str(target),
        "classes": [_plain(c) for c in classes],
        "features": [str(f) for f in features],
        "rule": rule.to_dict(),
        "metadata": {key: _plain(value) for key, value in metadata.items()},
    }
    if pattern_rates is not None:
        document["pattern_rates"] = _rates_document(pattern_rates)
    if class_rates is not None:
        document["class_rates"] = class_rates.to_dict()
    if kinds_document is not None:
        document["column_kinds"] = kinds_document
    write_text_atomically(path, json.dumps(document, indent=2, allow_nan=False) + "\n")  # complete or absent


def _check_path(path: Any, function: str, what: str) -> None:
    """A ``TypeError`` naming ``function`` unless ``path`` is a ``str`` or an ``os.PathLike`` (e.g. arguments swapped)."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(
            f"{function}: path must be {what}'s path (a str or os.PathLike), got {type(path).__name__}; "
            f"the path comes first: {function}('model.json', ...)"
        )


def _read_limited(file: Path, path: str | Path) -> bytes:
    """The file's bytes; refuse a missing file, a directory, or more than :data:`MAX_RULE_FILE_BYTES`."""
    if not file.exists():
        raise FileNotFoundError(f"rule file '{path}' not found")
    if file.is_dir():
        raise RuleFormatError(f"rule file '{path}' is a directory: give the JSON file written by 'rulemodels fit --out'")
    with file.open("rb") as handle:  # read at most one byte too many: /dev/zero or a huge file never loads
        data = handle.read(MAX_RULE_FILE_BYTES + 1)
    if len(data) > MAX_RULE_FILE_BYTES:
        raise RuleFormatError(
            f"rule file '{path}' is larger than {MAX_RULE_FILE_BYTES // (1024 * 1024)} MiB, the limit for a rule "
            "file: it is not a file written by 'rulemodels fit --out'"
        )
    return data


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a standard JSON value")


def _is_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int | bool)


def _fail(path: str | Path, message: str) -> RuleFormatError:
    return RuleFormatError(f"'{path}': {message}")


def _some(names: list[str], limit: int = 10, *, brackets: bool = True) -> str:
    """The first ``limit`` names, quoted (``['a', 'b']``), and how many more there are: an error about
    20,000 columns stays readable."""
    shown = ", ".join(repr(name) for name in names[:limit])
    if brackets:
        shown = f"[{shown}]"
    return f"{shown} and {len(names) - limit} more" if len(names) > limit else shown


def _check_header(document: dict, path: str | Path) -> None:
    if document.get("format") != MODEL_FORMAT:
        raise RuleFormatError(f"'{path}' is not a rulemodels model file (format {MODEL_FORMAT!r}, version 1 or 2)")
    version = document.get("version")
    if type(version) is not int or version not in _MODEL_VERSIONS:  # 1.0 and true are not versions
        raise _fail(path, f"'version' must be one of {list(_MODEL_VERSIONS)}, got {version!r}: the file was "
                          "written by another release of rulemodels, or edited")


def _check_classes(classes: Any, path: str | Path) -> tuple[Any, Any]:
    if not isinstance(classes, list) or len(classes) != 2 or not all(_is_scalar(c) for c in classes):
        raise _fail(path, f"'classes' must be a list of two JSON scalars (strings, numbers or booleans), got {classes!r}")
    first, second = classes
    if first == second or str(first) == str(second):
        raise _fail(path, f"'classes' must be two different labels (false rule, true rule), got {classes!r}")
    return first, second


def _check_many_classes(classes: Any, rule: RuleList, path: str | Path) -> tuple[Any, ...]:
    """Version 2's ``classes``: at least two distinct JSON scalars, among them every class of the rule list."""
    if not isinstance(classes, list) or len(classes) < 2 or not all(_is_scalar(c) for c in classes):
        raise _fail(path, f"'classes' must be a list of at least two JSON scalars (strings, numbers or booleans), got {classes!r}")
    if len({str(c) for c in classes}) != len(classes):
        raise _fail(path, f"'classes' must be distinct labels, got {classes!r}")
    unknown = [label for label in rule.classes if not any(label == c and type(label) is type(c) for c in classes)]
    if unknown:
        raise _fail(path, f"the rule list gives the class(es) {unknown!r}, which 'classes' does not list: the file is inconsistent")
    return tuple(classes)


def _check_features(features: Any, rule: Rule | RuleList, path: str | Path) -> tuple[str, ...]:
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise _fail(path, f"'features' must be a list of column names (strings), got {features!r}")
    repeated = sorted(name for name, count in Counter(features).items() if count > 1)
    if repeated:
        raise _fail(path, f"'features' lists {_some(repeated)} more than once")
    listed = set(features)  # built once: a membership test per rule column keeps loading linear
    unknown = [name for name in rule.features if name not in listed]
    if unknown:
        raise _fail(path, f"'features' does not list {_some(unknown)}, which the rule uses: the file is inconsistent")
    return tuple(features)


#: The ops a literal may have on a column of each kind (``is_nan``/``not_nan`` on any).
_KIND_OPS = {"numeric": THRESHOLD_OPS, "flag": FLAG_OPS, "categorical": CATEGORY_OPS + SET_OPS}


def _check_kinds(kinds: Any, rule: Rule | RuleList, features: list[str], *, error: Any) -> dict[str, ColumnKind]:
    """The ``column_kinds`` field: an object naming listed columns, an entry for every column the rule
    uses, each ``{"kind": ..., "values": ...}`` and agreeing with the rule's literals on that column.

    ``error`` builds the exception from a message (the file's :class:`RuleFormatError`, or
    ``ValueError`` in :func:`save_model`).
    """
    if not isinstance(kinds, dict):
        raise error(f"'column_kinds' must be an object mapping column names to their kinds, got {type(kinds).__name__}")
    listed = set(features)
    unlisted = [name for name in kinds if name not in listed]
    if unlisted:
        raise error(f"'column_kinds' names {_some(unlisted)}, which 'features' does not list")
    parsed: dict[str, ColumnKind] = {}
    for name, entry in kinds.items():
        try:
            parsed[name] = ColumnKind.from_dict(entry)
        except ValueError as exc:
            raise error(f"'column_kinds.{name}': {exc}") from None
    missing = [name for name in rule.features if name not in parsed]
    if missing:
        raise error(f"'column_kinds' has no entry for {_some(missing)}, which the rule uses")
    for literal in rule.literals:
        kind = parsed[literal.feature]
        if literal.op in ("is_nan", "not_nan"):
            continue
        if literal.op not in _KIND_OPS[kind.kind]:
            raise error(f"'column_kinds.{literal.feature}' is {kind.kind}, but the rule has the literal '{literal}' "
                        "on it: the file is inconsistent")
        values = cast("tuple[object, ...]", literal.value) if literal.op in SET_OPS else (literal.value,)  # a set's value is a tuple
        wrong = [v for v in values if kind.values == "text" and not isinstance(v, str)
                 or kind.values == "numbers" and (isinstance(v, str | bool))]
        if wrong:
            raise error(f"'column_kinds.{literal.feature}' says its categories are {kind.values}, but the rule "
                        f"compares it with {wrong[0]!r}: the file is inconsistent")
    return parsed


def _number_list(value: Any, length: int, field: str, path: str | Path, *, low: float, high: float) -> np.ndarray:
    if (not isinstance(value, list) or len(value) != length
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high for v in value)):
        raise _fail(path, f"'pattern_rates.{field}' must be a list of {length} numbers in [{low:g}, {high:g}]")
    return np.asarray(value, dtype=float)


def _check_rates(rates: Any, rule: Rule, path: str | Path) -> PatternRates | None:
    if rates is None:
        return None
    if not isinstance(rates, dict) or sorted(rates) != sorted(_RATES_KEYS):
        raise _fail(path, f"'pattern_rates' must be an object with the keys {', '.join(_RATES_KEYS)}")
    patterns = rates["patterns"]
    width = rule.n_clauses
    if not isinstance(patterns, list) or not all(
        isinstance(row, list) and len(row) == width and all(isinstance(v, bool) for v in row) for row in patterns
    ):
        raise _fail(path, f"'pattern_rates.patterns' must be a list of lists of {width} booleans (one per clause)")
    table = np.asarray(patterns, dtype=bool).reshape(len(patterns), width)
    n = len(patterns)
    n_samples = _number_list(rates["n_samples"], n, "n_samples", path, low=0.0, high=math.inf)
    n_positive = _number_list(rates["n_positive"], n, "n_positive", path, low=0.0, high=math.inf)
    proba = _number_list(rates["proba"], n, "proba", path, low=0.0, high=1.0)
    unseen = _number_list(rates["unseen"], 2, "unseen", path, low=0.0, high=1.0)
    return PatternRates(table, rule.reduce(table), n_samples, n_positive, proba, (float(unseen[0]), float(unseen[1])))


def _check_keys(document: dict, path: str | Path) -> None:
    """No key a model file (of either version) does not have."""
    unknown = [key for key in document if key not in _MODEL_KEYS + _OPTIONAL_MODEL_KEYS]
    if unknown:
        raise _fail(path, f"unexpected key(s) {', '.join(map(repr, unknown))}; a model file has "
                          f"{', '.join(_MODEL_KEYS + _OPTIONAL_MODEL_KEYS)}")


def _check_target_features_metadata(document: dict, rule: Any, path: str | Path) -> tuple[str, Any, dict]:
    """The label column's name, the feature columns (holding every column of ``rule``) and the metadata object."""
    target = document.get("target")
    if not isinstance(target, str) or not target:
        raise _fail(path, f"'target' must be the label column's name (a non-empty string), got {target!r}")
    features = _check_features(document.get("features"), rule, path)
    metadata = document.get("metadata", {})
    if not isinstance(metadata, dict):
        raise _fail(path, f"'metadata' must be an object, got {type(metadata).__name__}")
    return target, features, metadata


def _check_kinds_of(document: dict, rule: Any, features: Any, path: str | Path) -> dict:
    """The file's column kinds, checked against the rule and the features ({} when it has none)."""
    kinds = {}
    if "column_kinds" in document:
        kinds = _check_kinds(document["column_kinds"], rule, list(features), error=lambda message: _fail(path, message))
    return kinds


def _model_from_document(document: dict, path: str | Path) -> SavedModel:
    """Every field of a model file checked: types, distinct classes, features consistent with the rule."""
    _check_header(document, path)
    if document["version"] == 2:
        return _list_model_from_document(document, path)
    if "class_rates" in document:
        raise _fail(path, "'class_rates' belong to a rule list (version 2); a version 1 file has 'pattern_rates'")
    classes = _check_classes(document.get("classes"), path)
    rule = _rule_from(document.get("rule"), path)
    _check_keys(document, path)
    target, features, metadata = _check_target_features_metadata(document, rule, path)
    rates = _check_rates(document.get("pattern_rates"), rule, path)
    kinds = _check_kinds_of(document, rule, features, path)
    return SavedModel(rule, classes, target, features, metadata, rates, kinds)


def _list_model_from_document(document: dict, path: str | Path) -> SavedModel:
    """A version 2 file: a rule list, its K classes, features, metadata, class rates and column kinds, all checked."""
    _check_keys(document, path)
    if "pattern_rates" in document:
        raise _fail(path, "'pattern_rates' belong to a two-class rule (version 1); a rule list has 'class_rates'")
    try:
        rule = RuleList.from_dict(document.get("rule"))  # type: ignore[arg-type]
    except RuleFormatError as exc:
        raise RuleFormatError(f"'{path}': rule: {exc}") from None
    classes = _check_many_classes(document.get("classes"), rule, path)
    target, features, metadata = _check_target_features_metadata(document, rule, path)
    rates = None
    if "class_rates" in document:
        try:
            rates = ClassRates.from_dict(document["class_rates"], len(rule.steps) + 1, len(classes))
        except ValueError as exc:
            raise _fail(path, f"'class_rates': {exc}") from None
    kinds = _check_kinds_of(document, rule, features, path)
    return SavedModel(rule, classes, target, features, metadata, None, kinds, rates)


def _rule_from(document: Any, path: str | Path) -> Rule:
    """``Rule.from_dict`` with the file named in its error."""
    try:
        return Rule.from_dict(document)
    except RuleFormatError as exc:
        raise RuleFormatError(f"'{path}': {exc}") from None


def load_model(path: str | Path) -> SavedModel:
    """Read a model file written by :func:`save_model` (or a bare rule JSON); validated, never executed.

    Every field is checked (format and version, two distinct class labels, the
    target's name, a features list that holds every column of the rule, the
    rule, optional metadata, pattern rates and column kinds), an object that
    names a key twice is refused, and a file over
    :data:`MAX_RULE_FILE_BYTES` is refused before it is read. Errors are
    :class:`~rulemodels.rules.RuleFormatError` naming the file and the field.

    Parameters
    ----------
    path : str or Path
        The file to read.

    Returns
    -------
    SavedModel
        The rule (or rule list), its classes, target, features, metadata and the
        optional pattern rates, column kinds and class rates; a bare rule file
        gives classes ``(0, 1)``, target ``"target"`` and the rule's features.

    Raises
    ------
    RuleFormatError
        If the file is not UTF-8 JSON, is nested too deeply, does not hold a JSON object, or repeats a key.

    Examples
    --------
    >>> import os, tempfile
    >>> from rulemodels import load_model, save_model
    >>> from rulemodels.rules import Literal, Rule
    >>> rule = Rule.dnf([[Literal("age", ">", 50)]])
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     path = os.path.join(directory, "model.json")
    ...     save_model(path, rule, ("no", "yes"), "outcome", ["age"])
    ...     model = load_model(path)
    >>> str(model.rule), model.classes, model.target
    ('(age > 50.0)', ('no', 'yes'), 'outcome')
    """
    _check_path(path, "load_model", "the file to read")
    data = _read_limited(Path(path), path)
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_reject_constant, object_pairs_hook=_object_from_pairs)
    except UnicodeDecodeError:
        raise RuleFormatError(f"'{path}' is not valid JSON: it is not UTF-8 text") from None
    except ValueError as exc:
        raise RuleFormatError(f"'{path}' is not valid JSON: {exc}") from None
    except RecursionError:
        raise RuleFormatError(f"'{path}' is not a rule file: its JSON is nested too deeply") from None
    if not isinstance(document, dict):
        raise RuleFormatError(f"'{path}' must hold a JSON object")
    try:
        check_unique_keys(document, "the file")
    except RuleFormatError as exc:
        raise RuleFormatError(f"'{path}': {exc}") from None
    if document.get("format") == "rulemodels.rule":
        rule = _rule_from(document, path)
        return SavedModel(rule, (0, 1), "target", rule.features, {})
    return _model_from_document(document, path)
