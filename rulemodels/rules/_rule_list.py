"""An ordered list of rules, one per class, for more than two classes: :class:`RuleList`.

A rule list decides a row by its first step whose rule holds::

    IF glucose > 142.0 AND bmi > 29.5 THEN class = high
    ELSE IF glucose > 99.0 THEN class = low
    ELSE class = healthy

Each step is a two-level :class:`~rulemodels.rules.Rule` (CNF or DNF, each
step its own form) with the class it gives; a row no step claims gets the
``default`` class. Missing values follow :meth:`Literal.evaluate` in every
step, so each step's rule is two-valued and the list is too: the exports
(:func:`rulemodels.rules.to_sql` and the others) write the same decision.

Probabilities (:class:`ClassRates`) are per *bucket*: the rows each step
claims, and the rows left to the default, with the Laplace-smoothed class
frequencies of the training rows in that bucket, as :class:`PatternRates`
smooths the binary rate.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.rules._json import RuleFormatError, _object_from_pairs, check_unique_keys
from rulemodels.rules._rule import Literal, Rule
from rulemodels.utils import as_pandas

__all__ = ["ClassRates", "RuleList", "class_label"]

_LIST_FORMAT_NAME = "rulemodels.rule_list"
_LIST_VERSIONS = (1,)


def class_label(value: Any) -> Any:
    """A class label as a plain JSON scalar: numpy scalars as Python values; strings, integers,
    booleans and finite floats are labels, anything else is refused with a TypeError.

    Parameters
    ----------
    value : object
        The label to check; a numpy scalar is converted to its Python value.

    Returns
    -------
    object
        ``value`` as a plain Python scalar.

    Raises
    ------
    TypeError
        If ``value`` is not a string, an integer or a finite number.
    """
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise TypeError(f"a class label must be a string or a finite number, got {value!r}")
    if not isinstance(value, str | int | float | bool):
        raise TypeError(f"a class label must be a string, an integer or a number, got {type(value).__name__} {value!r}")
    return value


def _same_label(a: Any, b: Any) -> bool:
    """Labels are the same class when equal or equal as text (``1`` and ``"1"`` would be ambiguous in a CSV)."""
    return bool(a == b) or str(a) == str(b)


@dataclass(frozen=True)
class RuleList:
    """An ordered list of ``(class, rule)`` steps and a default class.

    A row gets the class of the first step whose rule is true on it, and
    ``default`` when none is. Step classes and the default are distinct
    labels (strings, integers, booleans or finite numbers; numpy scalars are
    stored as Python values so the list round-trips through JSON).

    Parameters
    ----------
    steps : iterable of (label, Rule)
        The steps in order: each a class label and the rule that gives it to the rows no earlier step claims.
    default : label
        The class of the rows no step's rule is true on.

    Examples
    --------
    >>> from rulemodels.rules import Literal, Rule, RuleList
    >>> rules = RuleList([("high", Rule.dnf([[Literal("glucose", ">", 142.0)]])),
    ...                   ("low", Rule.dnf([[Literal("glucose", ">", 99.0)]]))], default="healthy")
    >>> print(rules)
    IF (glucose > 142.0) THEN class = high
    ELSE IF (glucose > 99.0) THEN class = low
    ELSE class = healthy
    >>> rules.predict(pd.DataFrame({"glucose": [150, 120, 80, None]})).tolist()
    ['high', 'low', 'healthy', 'healthy']
    """

    steps: tuple[tuple[Any, Rule], ...]
    default: Any

    def __post_init__(self) -> None:
        if isinstance(self.steps, Rule | Mapping | str):
            raise TypeError("RuleList steps must be an iterable of (class label, Rule) pairs")
        steps = []
        for k, step in enumerate(self.steps):
            if not isinstance(step, tuple | list) or len(step) != 2 or not isinstance(step[1], Rule):
                raise TypeError(f"step {k + 1} must be a (class label, Rule) pair, got {step!r}")
            steps.append((class_label(step[0]), step[1]))
        default = class_label(self.default)
        labels = [label for label, _ in steps] + [default]
        for i, first in enumerate(labels):
            for second in labels[i + 1:]:
                if _same_label(first, second):
                    raise ValueError(
                        f"class {first!r} appears twice in the rule list (steps {[lab for lab, _ in steps]}, "
                        f"default {default!r}): each step and the default give distinct classes"
                    )
        object.__setattr__(self, "steps", tuple(steps))
        object.__setattr__(self, "default", default)

    # -- structure ---------------------------------------------------------

    @property
    def classes(self) -> tuple[Any, ...]:
        """The classes the list can give: the step classes in order, then the default."""
        return tuple(label for label, _ in self.steps) + (self.default,)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The step rules, in order."""
        return tuple(rule for _, rule in self.steps)

    @property
    def literals(self) -> tuple[Literal, ...]:
        """Distinct literals of all steps, in order of first appearance."""
        return tuple(dict.fromkeys(lit for rule in self.rules for lit in rule.literals))

    @property
    def features(self) -> tuple[str, ...]:
        """Distinct raw features used by any step, in order of first appearance."""
        return tuple(dict.fromkeys(lit.feature for lit in self.literals))

    @property
    def n_clauses(self) -> int:
        """Clauses summed over the steps."""
        return sum(rule.n_clauses for rule in self.rules)

    @property
    def n_literals(self) -> int:
        """Literals summed over the steps (the paper's count of each step rule, added up)."""
        return sum(rule.n_literals for rule in self.rules)

    @property
    def n_conditions(self) -> int:
        """Conditions as printed, summed over the steps."""
        return sum(rule.n_conditions for rule in self.rules)

    @property
    def n_features(self) -> int:
        """Distinct raw features used by any step."""
        return len(self.features)

    def complexity(self) -> dict[str, int]:
        """``{'n_steps', 'n_clauses', 'n_literals', 'n_conditions', 'n_features'}`` of the whole list.

        Returns
        -------
        dict of str to int
            The numbers of steps, clauses, literals, conditions and features.
        """
        return {
            "n_steps": len(self.steps),
            "n_clauses": self.n_clauses,
            "n_literals": self.n_literals,
            "n_conditions": self.n_conditions,
            "n_features": self.n_features,
        }

    # -- evaluation --------------------------------------------------------

    def step_values(self, X: pd.DataFrame) -> np.ndarray:
        """Each step rule's value on each row, shape (n_samples, n_steps) (every step, not only the first that holds).

        ``X`` is a DataFrame (pandas, polars, pyarrow, ...; converted once here) or an array.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the rules use.

        Returns
        -------
        ndarray of bool of shape (n_samples, n_steps)
            Each step rule's value on each row.
        """
        X = as_pandas(X)
        frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(X)
        if not self.steps:
            return np.zeros((len(frame), 0), dtype=bool)
        return np.column_stack([rule.evaluate(frame) for rule in self.rules])

    @staticmethod
    def first_true(step_values: np.ndarray) -> np.ndarray:
        """The claiming step of each row from :meth:`step_values`: 0-based, ``n_steps`` for the default.

        Parameters
        ----------
        step_values : ndarray of bool, shape (n_samples, n_steps)
            Whether each step's rule is true on each row (:meth:`step_values`).

        Returns
        -------
        ndarray of int, shape (n_samples,)
            The first step whose rule is true on each row, or ``n_steps`` where none is.
        """
        values = np.asarray(step_values, dtype=bool)
        n_steps = values.shape[1]
        return np.where(values.any(axis=1), values.argmax(axis=1), n_steps) if n_steps else np.zeros(len(values), dtype=int)

    def claims(self, X: pd.DataFrame) -> np.ndarray:
        """The step that claims each row (0-based; ``len(steps)`` for the default).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the rules use.

        Returns
        -------
        ndarray of int of shape (n_samples,)
            The index of the step that claims each row (``len(steps)`` for the default).
        """
        return self.first_true(self.step_values(X))

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """The class of each row: that of the first step whose rule holds, else ``default``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the rules use.

        Returns
        -------
        ndarray of shape (n_samples,)
            The class of each row.
        """
        return np.asarray(list(self.classes))[self.claims(X)]

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Same as :meth:`predict` (the name :meth:`Rule.evaluate` has): the class of each row.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the rules use.

        Returns
        -------
        ndarray of shape (n_samples,)
            The class of each row.
        """
        return self.predict(X)

    # -- text --------------------------------------------------------------

    def __str__(self) -> str:
        return self.to_text()

    def to_text(self, target: str = "class") -> str:
        """The list as printed, one line per step: ``IF <rule> THEN <target> = a`` ... ``ELSE <target> = c``.

        Parameters
        ----------
        target : str, default="class"
            The name printed for the class in ``THEN <target> = ...``.

        Returns
        -------
        str
            The list as printed.
        """
        lines = [
            f"{'IF' if k == 0 else 'ELSE IF'} {_rule_text(rule)} THEN {target} = {label}"
            for k, (label, rule) in enumerate(self.steps)
        ]
        lines.append(f"ELSE {target} = {self.default}" if self.steps else f"{target} = {self.default}")
        return "\n".join(lines)

    # -- exports (rulemodels.rules: to_sql, to_query, to_python, rule_list_html) --

    def to_sql(self, *, cast: bool = True) -> str:
        """``CASE WHEN <rule 1> THEN 'a' WHEN ... ELSE 'c' END``; see :func:`rulemodels.rules.to_sql`.

        Parameters
        ----------
        cast : bool, default=True
            Compare thresholds on ``"x" + 0``, so numbers stored as text (SQLite) compare as numbers.

        Returns
        -------
        str
            The ``CASE WHEN ... END`` expression.
        """
        from rulemodels.rules._export import to_sql

        return to_sql(self, cast=cast)

    def to_query(self) -> dict[Any, str]:
        """One ``DataFrame.eval`` expression per class, true exactly on the rows of that class; see :func:`rulemodels.rules.to_query`.

        Returns
        -------
        dict
            One expression per class, in the list's order.
        """
        from rulemodels.rules._export import to_query

        return to_query(self)

    def to_python(self) -> str:
        """A dependency-free module whose ``predict_row(row)`` returns the class; see :func:`rulemodels.rules.to_python`.

        Returns
        -------
        str
            The source of the module.
        """
        from rulemodels.rules._export import to_python

        return to_python(self)

    def _repr_html_(self) -> str:
        """The list as an HTML table of its steps (for notebooks)."""
        from rulemodels.rules._display import rule_list_html

        return rule_list_html(self)

    # -- serialization -----------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """``{"format": "rulemodels.rule_list", "version": 1, "steps": [{"class": ..., "rule": {...}}, ...], "default": ...}``.

        Returns
        -------
        dict
            The list's format, version, steps and default.
        """
        return {
            "format": _LIST_FORMAT_NAME,
            "version": 1,
            "steps": [{"class": label, "rule": rule.to_dict()} for label, rule in self.steps],
            "default": self.default,
        }

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as standard JSON text.

        Parameters
        ----------
        indent : int or None, default=None
            Passed to :func:`json.dumps`: None writes one line.

        Returns
        -------
        str
            The JSON text.
        """
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RuleList:
        """Build a rule list from :meth:`to_dict` output, validating it strictly (:class:`RuleFormatError` naming the path).

        Parameters
        ----------
        d : Mapping
            The dict :meth:`to_dict` returns (``format``, ``version``, ``steps``, ``default``), e.g. parsed JSON.

        Returns
        -------
        RuleList
            The rule list ``d`` describes.

        Raises
        ------
        RuleFormatError
            If ``d`` is not a valid rule list, naming the path of the first problem.
        """
        if not isinstance(d, Mapping):
            raise RuleFormatError(f"rule list: expected an object, got {type(d).__name__}")
        expected = ("format", "version", "steps", "default")
        unknown = [key for key in d if key not in expected]
        missing = [key for key in expected if key not in d]
        if unknown or missing:
            raise RuleFormatError(f"rule list: keys must be {', '.join(expected)} (missing {missing}, unexpected {unknown})")
        if d["format"] != _LIST_FORMAT_NAME:
            raise RuleFormatError(f"format: expected {_LIST_FORMAT_NAME!r}, got {d['format']!r}")
        if type(d["version"]) is not int or d["version"] not in _LIST_VERSIONS:
            raise RuleFormatError(f"version: unsupported rule list version {d['version']!r}; this release reads {list(_LIST_VERSIONS)}")
        if not isinstance(d["steps"], list):
            raise RuleFormatError(f"steps: expected a list of steps, got {type(d['steps']).__name__}")
        steps = []
        for k, step in enumerate(d["steps"]):
            if not isinstance(step, Mapping) or sorted(step) != ["class", "rule"]:
                raise RuleFormatError(f"steps[{k}]: expected an object with the keys 'class' and 'rule'")
            try:
                rule = Rule.from_dict(step["rule"])
            except RuleFormatError as exc:
                raise RuleFormatError(f"steps[{k}].rule: {exc}") from None
            steps.append((_label_from_data(step["class"], f"steps[{k}].class"), rule))
        default = _label_from_data(d["default"], "default")
        try:
            return cls(tuple(steps), default)
        except ValueError as exc:
            raise RuleFormatError(str(exc)) from None

    @classmethod
    def from_json(cls, s: str | bytes) -> RuleList:
        """Parse :meth:`to_json` output (never pickle, never ``eval``); a key named twice is refused.

        Parameters
        ----------
        s : str or bytes
            The JSON text.

        Returns
        -------
        RuleList
            The rule list the text describes.

        Raises
        ------
        RuleFormatError
            If the text is not JSON, names a key twice or is not a valid rule list.
        """
        try:
            data = json.loads(s, object_pairs_hook=_object_from_pairs)
        except json.JSONDecodeError as exc:
            raise RuleFormatError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
        check_unique_keys(data, "the rule list")
        return cls.from_dict(data)


def _rule_text(rule: Rule) -> str:
    """A step's rule as printed: each clause is in parentheses already (``(a AND b) OR (c)``)."""
    return str(rule)


def _label_from_data(value: Any, path: str) -> Any:
    if isinstance(value, float) and not math.isfinite(value) or not isinstance(value, str | int | float | bool):
        raise RuleFormatError(f"{path}: a class label must be a JSON string, number or boolean, got {value!r}")
    return value


@dataclass(frozen=True)
class ClassRates:
    """Class probabilities per bucket of a rule list: the rows each step claims, and the default's.

    ``proba[b, k] = (count[b, k] + 1) / (rows[b] + K)`` over the training rows
    in bucket ``b`` (weighted counts with ``sample_weight``): Laplace's rule of
    succession for K classes, the binary ``(positives + 1) / (rows + 2)`` of
    :class:`PatternRates` for K = 2. Each row sums to 1; a bucket without
    training rows gets ``1 / K`` for every class. It is an in-sample estimate;
    the predicted class (the step's) need not be the most probable one where
    the step is often wrong.

    Parameters
    ----------
    n_samples : ndarray of float, shape (n_buckets,)
        The (weighted) number of training rows in each bucket.
    counts : ndarray of float, shape (n_buckets, n_classes)
        Columns in the order of the estimator's (or the file's) ``classes``.
    proba : ndarray of float, shape (n_buckets, n_classes)
        The smoothed class probabilities of each bucket, ``(counts + 1) / (n_samples + K)``.
    """

    n_samples: np.ndarray
    counts: np.ndarray
    proba: np.ndarray

    @classmethod
    def fit(cls, buckets: np.ndarray, class_index: np.ndarray, n_buckets: int, n_classes: int,
            sample_weight: np.ndarray | None = None) -> ClassRates:
        """Count the (weighted) rows of each class in each bucket and smooth.

        Parameters
        ----------
        buckets : array-like of int, shape (n_samples,)
            The bucket of each training row (:meth:`RuleList.claims`).
        class_index : array-like of int, shape (n_samples,)
            The index of each row's class in ``classes``.
        n_buckets : int
            The number of buckets (the steps, plus one for the default).
        n_classes : int
            The number of classes K.
        sample_weight : array-like of shape (n_samples,) or None, default=None
            The rows' weights; None weighs each row 1.

        Returns
        -------
        ClassRates
            The counts and the probabilities of Laplace's rule of succession (the class docstring's formula).
        """
        buckets = np.asarray(buckets, dtype=int)
        weight = np.ones(len(buckets)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        counts = np.zeros((n_buckets, n_classes))
        np.add.at(counts, (buckets, np.asarray(class_index, dtype=int)), weight)
        n_samples = counts.sum(axis=1)
        proba = (counts + 1.0) / (n_samples[:, None] + n_classes)
        return cls(n_samples, counts, proba)

    def predict(self, buckets: np.ndarray) -> np.ndarray:
        """Look up the probabilities (n_samples, n_classes) of each row from its bucket (:meth:`RuleList.claims`).

        Parameters
        ----------
        buckets : array-like of int, shape (n_samples,)
            The bucket of each row: the step that claims it, or the number of steps for the default
            (:meth:`RuleList.claims`).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The probabilities of each row's bucket.
        """
        return self.proba[np.asarray(buckets, dtype=int)]

    def to_dict(self) -> dict[str, Any]:
        """The rates as plain lists, for JSON (:meth:`from_dict` reads them back).

        Returns
        -------
        dict
            ``{"n_samples": [...], "counts": [[...]], "proba": [[...]]}`` of floats.
        """
        return {
            "n_samples": [float(v) for v in self.n_samples],
            "counts": [[float(v) for v in row] for row in self.counts],
            "proba": [[float(v) for v in row] for row in self.proba],
        }

    @classmethod
    def from_dict(cls, d: Any, n_buckets: int, n_classes: int) -> ClassRates:
        """Read :meth:`to_dict` output, checking its shape (n_buckets x n_classes) and ranges (ValueError).

        Parameters
        ----------
        d : object
            The dict :meth:`to_dict` returns (parsed JSON).
        n_buckets : int
            The number of buckets it must have.
        n_classes : int
            The number of classes it must have.

        Returns
        -------
        ClassRates
            The rates ``d`` holds.

        Raises
        ------
        ValueError
            If ``d`` does not have the keys, shapes or ranges of :meth:`to_dict` output.
        """
        if not isinstance(d, Mapping) or sorted(d) != ["counts", "n_samples", "proba"]:
            raise ValueError("must be an object with the keys n_samples, counts, proba")

        def numbers(values: Any, shape: Sequence[int], high: float, name: str) -> np.ndarray:
            array = np.asarray(values, dtype=object)
            flat = list(array.ravel()) if array.shape == tuple(shape) else None
            if flat is None or not all(isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= high for v in flat):
                raise ValueError(f"'{name}' must hold {' x '.join(map(str, shape))} numbers in [0, {high:g}]")
            return np.asarray(values, dtype=float).reshape(shape)

        n_samples = numbers(d["n_samples"], (n_buckets,), math.inf, "n_samples")
        counts = numbers(d["counts"], (n_buckets, n_classes), math.inf, "counts")
        proba = numbers(d["proba"], (n_buckets, n_classes), 1.0, "proba")
        if not np.allclose(proba.sum(axis=1), 1.0):
            raise ValueError("every row of 'proba' must sum to 1")
        return cls(n_samples, counts, proba)

