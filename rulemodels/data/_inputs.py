"""Checks of the raw inputs a fit receives: features X, labels y, sample weights.

Shared by :class:`~rulemodels.BooleanRuleClassifier` and
:class:`~rulemodels.TrainingWorkspace`, so both say the same thing about the
same bad input: this module is the one home of these checks (the sample-weight
check included). Public names are re-exported by :mod:`rulemodels.data`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target

from rulemodels.utils import fill_doc, to_frame, unknown_name

__all__ = [
    "ParsedLabels", "as_frame", "binary_labels", "columns_as_labels", "check_input", "check_no_missing_labels",
    "check_sample_weight", "class_labels", "class_weighted", "count_classes", "parse_labels",
]


def check_input(X: Any) -> None:
    """Reject sparse matrices, non-2-D arrays and duplicate column names with clear messages.

    The checks of :func:`rulemodels.utils.to_frame`, the one converter of
    ``X``, without keeping the frame. Missing values are handled by the
    binarizer (``nan``); infinite values are ordinary numbers (``x <= t`` is
    False for +inf and True for -inf).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        The features to check.

    Raises
    ------
    TypeError
        If ``X`` is sparse.
    ValueError
        If ``X`` is not a DataFrame and not 2-D, or has two columns of the same name.
    """
    to_frame(X)


def check_no_missing_labels(y: np.ndarray) -> None:
    """Raise when labels are missing (None, NaN): a rule is learned from labelled rows only.

    Parameters
    ----------
    y : numpy.ndarray of shape (n_samples,)
        The labels.

    Raises
    ------
    ValueError
        If ``y`` has a missing label (None or NaN).
    """
    missing = np.flatnonzero(np.asarray(pd.isna(y), dtype=bool))
    if missing.size:
        shown = ", ".join(map(str, missing[:5])) + (", ..." if missing.size > 5 else "")
        raise ValueError(
            f"y has {missing.size} missing label(s) (None or NaN) at row(s) {shown}: drop those rows "
            "first, e.g. keep = y.notna(); X, y = X[keep], y[keep]"
        )


def as_frame(X: Any, columns: list[str] | None = None) -> pd.DataFrame:
    """``X`` as a pandas DataFrame with string column names: :func:`rulemodels.utils.to_frame`.

    Parameters
    ----------
    X : pandas.DataFrame, DataFrame of another library, or array-like of shape (n_samples, n_features)
        A pandas DataFrame keeps its data; a polars or pyarrow DataFrame (or
        any object with ``__arrow_c_stream__`` or ``__dataframe__``) is
        converted with its column names and dtypes by
        :func:`rulemodels.utils.as_pandas`; an array gets the names ``columns``.
    columns : list of str, optional
        The names of an array's columns (``x0, x1, ...`` when None); ignored for DataFrames.

    Returns
    -------
    pandas.DataFrame
        ``X`` as a pandas DataFrame (a pandas DataFrame itself, unchanged).

    Raises
    ------
    TypeError
        If ``X`` is sparse.
    ValueError
        If ``X`` is not 2-D, or has two columns of the same name.
    """
    return to_frame(X, columns)


def columns_as_labels(X: Any, y: Any, sample_weight: Any = None) -> tuple[Any, Any, Any]:
    """``fit(frame, "label")``: ``y`` (and ``sample_weight``) named as columns of an in-memory DataFrame.

    The same call as on a Parquet path or a Dask DataFrame: a ``y`` that is a
    ``str`` names the label column of ``X``, which is taken out of the
    features; a ``sample_weight`` that is a ``str`` names a weight column, taken
    out likewise. Returns ``(X, y, sample_weight)`` with those columns
    separated, or the inputs unchanged when ``y`` is not a ``str``. A name that
    is not a column is refused with the closest column suggested; a column name
    with an array ``X`` (no names) is refused too.

    Parameters
    ----------
    X : DataFrame or array-like
        The features, which may hold the label and weight columns.
    y : str or array-like
        The labels, or the name of the label column of ``X``.
    sample_weight : str, array-like or None, default=None
        The sample weights, or the name of the weight column of ``X``.

    Returns
    -------
    tuple
        ``(X, y, sample_weight)``, the named columns taken out of ``X`` (unchanged when ``y`` is not a ``str``).

    Raises
    ------
    TypeError
        If only ``sample_weight`` names a column, or ``y`` names a column of an ``X`` that is no DataFrame.
    ValueError
        If a named column is not in ``X`` or is named twice, or no feature column is left.

    Examples
    --------
    >>> frame = pd.DataFrame({"age": [30, 60], "label": ["no", "yes"]})
    >>> X, y, _ = columns_as_labels(frame, "label")
    >>> list(X.columns), list(y)
    (['age'], ['no', 'yes'])
    """
    named = {key: value for key, value in (("y", y), ("sample_weight", sample_weight)) if isinstance(value, str)}
    if "y" not in named:
        if named:
            raise TypeError("sample_weight names a column, but y does not: name both columns, e.g. fit(frame, 'label', 'weight')")
        return X, y, sample_weight
    if not isinstance(X, pd.DataFrame):
        raise TypeError(
            f"y={y!r} names a column, which needs X to be a DataFrame (or a Parquet path or a Dask DataFrame); "
            f"X is {type(X).__name__}: pass the labels as an array instead"
        )
    columns = [str(c) for c in X.columns]
    for key, name in named.items():
        if name not in columns:
            raise ValueError(unknown_name(key, name, columns, "X"))
    if len(set(named.values())) < len(named):
        raise ValueError(f"y and sample_weight name the same column {y!r}: name two different columns")
    by_name = dict(zip(columns, X.columns))
    y = X[by_name[named["y"]]].rename(named["y"])  # a Series: its name is the rule's target, as with fit(X, frame.label)
    if "sample_weight" in named:
        sample_weight = X[by_name[named["sample_weight"]]].to_numpy()
    features = X.drop(columns=[by_name[name] for name in named.values()])
    if features.shape[1] == 0:
        raise ValueError(f"X has no feature columns besides the label {named['y']!r}")
    return features, y, sample_weight


#: The Parameters section of the label checks :func:`class_labels` and :func:`binary_labels` (:func:`rulemodels.utils.fill_doc`).
_LABEL_PARAMETERS = """
Parameters
----------
y : array-like of shape (n_samples,)
    The labels (a column vector is raveled with a warning).
n_samples : int
    The number of rows of ``X``, which ``y`` must have.
stacklevel : int, default=3
    The ``stacklevel`` of the column-vector warning.
"""


@fill_doc(parameters=_LABEL_PARAMETERS)
def class_labels(y: Any, n_samples: int, *, stacklevel: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, y)``: the sorted distinct labels (at least two) and ``y`` as a 1-D array.

    Raises a ValueError that says what is wrong with ``y`` (missing, wrong
    shape or length, not class labels, one class). Any number of classes
    passes: :func:`binary_labels` is the check of the two-class learners.

    {parameters}

    Returns
    -------
    tuple of ndarray
        ``(classes, y)``: the sorted distinct labels, and ``y`` as a 1-D array.

    Raises
    ------
    ValueError
        If ``y`` is None, not 1-D, not of length ``n_samples``, or has a single class.
    """
    parsed = parse_labels(y, n_samples, stacklevel=stacklevel)
    return parsed.classes, parsed.y


@dataclass(frozen=True)
class ParsedLabels:
    """``y`` parsed once (:func:`parse_labels`): its sorted classes and its labels as a 1-D array.

    A fit parses its labels once, at its boundary, and hands this to what
    needs them (the two-class workspace, the rule-list search,
    :func:`class_weighted`), which then trust it instead of parsing ``y`` again.

    Parameters
    ----------
    classes : numpy.ndarray
        The sorted distinct labels (at least two).
    y : numpy.ndarray of shape (n_samples,)
        The labels as a 1-D array, checked (no missing label, class labels).
    """

    classes: np.ndarray
    y: np.ndarray

    @property
    def n_classes(self) -> int:
        """The number of classes."""
        return int(self.classes.shape[0])

    @cached_property
    def codes(self) -> np.ndarray:
        """Each row's class index into :attr:`classes` (computed on first use)."""
        return np.searchsorted(self.classes, self.y)

    @cached_property
    def codes_by_appearance(self) -> np.ndarray:
        """Each row's class index, the classes numbered in the order they first appear in ``y``.

        The coding a :class:`~rulemodels.data.FeatureBinarizer` given raw labels
        uses for its label-aware thresholds, so one handed these codes places
        the same thresholds.
        """
        _, first = np.unique(self.codes, return_index=True)
        rank = np.empty(self.n_classes, dtype=np.intp)
        rank[np.argsort(first)] = np.arange(self.n_classes)
        return rank[self.codes]

    def binary(self) -> np.ndarray:
        """The 0/1 labels of a two-class ``y`` (1 where ``y == classes[1]``).

        Returns
        -------
        numpy.ndarray of int8
            1 where ``y == classes[1]``, else 0.

        Raises
        ------
        ValueError
            If ``y`` does not have exactly two classes.
        """
        if self.n_classes != 2:
            kind = type_of_target(self.y)
            raise ValueError(
                f"Only binary classification is supported by a two-class learner (a TrainingWorkspace, the exact MIP): "
                f"it needs exactly two classes in y, got {self.n_classes} classes ({kind}: {self.classes[:10].tolist()}); "
                "BooleanRuleClassifier.fit on in-memory data (a DataFrame or array, without workspace=) "
                "learns an ordered rule list for more classes"
            )
        return (self.y == self.classes[1]).astype(np.int8)


def parse_labels(y: ArrayLike, n_samples: int, *, stacklevel: int = 2) -> ParsedLabels:
    """The one parse of a fit's labels: ``y`` checked as :func:`class_labels` checks it, kept as :class:`ParsedLabels`.

    Any number of classes passes (:meth:`ParsedLabels.binary` refuses more than two).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The fit's labels; a column vector is raveled, with a ``DataConversionWarning``.
    n_samples : int
        The length ``y`` must have: the number of rows of the checked ``X``.
    stacklevel : int, default=2
        Where that warning points, counted from the caller of this function (2: the caller's caller).

    Returns
    -------
    ParsedLabels
        The sorted classes and the labels.

    Raises
    ------
    ValueError
        If ``y`` is None, not 1-D, not of length ``n_samples``, has a missing label, or a single class.
    """
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    y_array = np.asarray(y)
    if y_array.ndim == 2 and y_array.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected; it is raveled to shape (n_samples,)",
            DataConversionWarning, stacklevel=stacklevel + 1,
        )
        y_array = y_array.ravel()
    if y_array.ndim != 1:
        raise ValueError(f"y must be 1-dimensional (one label per sample), got shape {y_array.shape}")
    if y_array.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but y has {y_array.shape[0]} labels")
    check_no_missing_labels(y_array)
    check_classification_targets(y_array)
    classes = np.unique(y_array)
    if classes.shape[0] == 1:
        raise ValueError(
            f"y has only 1 class ({classes[0]}): BooleanRuleClassifier learns a rule from "
            "samples of both classes"
        )
    return ParsedLabels(classes, y_array)


def count_classes(y: Any) -> int:
    """The number of distinct labels of a 1-D (or column-vector) ``y``, missing values not counted;
    0 when ``y`` is None or has another shape (the full checks then say what is wrong).

    Parameters
    ----------
    y : array-like or None
        The labels.

    Returns
    -------
    int
        The number of distinct non-missing labels (0 when ``y`` is None or not 1-D).
    """
    if y is None:
        return 0
    y_array = np.asarray(y)
    if y_array.ndim == 2 and y_array.shape[1] == 1:
        y_array = y_array.ravel()
    if y_array.ndim != 1:
        return 0
    values = pd.unique(pd.Series(y_array, dtype=object))
    return int(sum(1 for value in values if not pd.isna(value)))


@fill_doc(parameters=_LABEL_PARAMETERS)
def binary_labels(y: Any, n_samples: int, *, stacklevel: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, labels)``: the two classes in sorted order and 0/1 labels (1 = ``classes[1]``).

    Raises a ValueError that says what is wrong with ``y`` (missing, wrong
    shape or length, one class, more than two classes).

    {parameters}

    Returns
    -------
    tuple of ndarray
        ``(classes, labels)``: the two sorted classes, and int8 labels (1 where ``y == classes[1]``).

    Raises
    ------
    ValueError
        If ``y`` does not have exactly two classes.
    """
    parsed = parse_labels(y, n_samples, stacklevel=stacklevel)
    return parsed.classes, parsed.binary()


def check_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray:
    """Sample weights as a float vector of length ``n_samples``, normalised to mean 1 (ones when None).

    They must be finite and non-negative, with at least one positive; a scalar
    gives every sample that weight. Only their ratios matter (θ is a share of
    the total weight), so they are rescaled here, once, to mean 1: the LPs see
    the same numbers whatever the scale (``1e-12`` or ``1e300`` times the
    weights would otherwise meet the solver's absolute tolerances or
    overflow), and a fit's ``objective_`` is in units of an average-weight
    row. Dividing by the largest weight first keeps the sum finite.

    Parameters
    ----------
    sample_weight : array-like, scalar or None
        The weights; None gives every sample weight 1.
    n_samples : int
        The number of samples.

    Returns
    -------
    ndarray of float of shape (n_samples,)
        The weights, with mean 1.

    Raises
    ------
    ValueError
        If the weights are not 1-D of length ``n_samples``, not finite, negative, or all zero.
    """
    if sample_weight is None:
        return np.ones(n_samples)
    weights = np.asarray(sample_weight, dtype=float)
    if weights.ndim == 0:
        weights = np.full(n_samples, float(weights))
    else:
        if weights.ndim != 1:
            raise ValueError(f"sample_weight must be 1-dimensional, got shape {weights.shape}")
        if weights.shape[0] != n_samples:
            raise ValueError(f"sample_weight.shape == {weights.shape}, expected ({n_samples},)!")
    if not np.all(np.isfinite(weights)):
        raise ValueError("sample_weight must be finite: it contains NaN or infinity")
    if np.any(weights < 0):
        raise ValueError("Negative values in data passed to sample_weight: weights must be >= 0")
    if not np.any(weights > 0):
        raise ValueError("Sample weights must contain at least one non-zero number: every sample has weight zero")
    return _mean_one(weights)


def _mean_one(weights: np.ndarray) -> np.ndarray:
    """``weights`` (finite, >= 0, one > 0) rescaled to mean 1 (ones stay ones exactly)."""
    scaled = weights / weights.max()
    return scaled / scaled.mean()


def class_weighted(y: Any, sample_weight: Any, class_weight: Any, *, class_counts: Any = None) -> Any:
    """``sample_weight`` times the weight of each row's class: scikit-learn's ``class_weight``.

    ``class_weight`` None returns ``sample_weight`` as it is. A dict maps class
    labels to weights (finite, >= 0; classes it omits weigh 1; a key that is no
    class of ``y`` is an error, it is most likely a typo). ``"balanced"`` gives
    class c the weight ``n / (K n_c)``: n rows, K classes, n_c rows of class c,
    counted without ``sample_weight`` as scikit-learn does; ``class_counts``
    ({label: rows}) gives them when ``y`` holds one row per group of rows (a
    Parquet or Dask fit's distinct patterns). The product goes through the
    usual sample-weight checks afterwards, so only its ratios matter.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or ParsedLabels
        The labels, or the labels a fit parsed already (:func:`parse_labels`), which are not parsed again.
    sample_weight : array-like or None
        The sample weights (None: all 1).
    class_weight : dict, "balanced" or None
        The weight of each class.
    class_counts : dict or None, default=None
        The number of rows of each label, when ``y`` holds one row per group of rows.

    Returns
    -------
    array-like or None
        The weights multiplied by each row's class weight (``sample_weight`` unchanged when there are no class weights).

    Raises
    ------
    ValueError
        If ``y`` is not 1-D, ``sample_weight`` has the wrong shape, or ``class_weight`` is invalid.
    """
    if class_weight is None:
        return sample_weight
    if isinstance(y, ParsedLabels):
        return _class_weighted(y.classes, y.codes, sample_weight, class_weight, class_counts)
    y_array = np.asarray(y)
    if y_array.ndim == 2 and y_array.shape[1] == 1:
        y_array = y_array.ravel()
    if y_array.ndim != 1:
        raise ValueError(f"y must be 1-dimensional (one label per sample), got shape {y_array.shape}")
    check_no_missing_labels(y_array)
    classes, index = np.unique(y_array, return_inverse=True)
    return _class_weighted(classes, index, sample_weight, class_weight, class_counts)


def _class_weighted(classes: np.ndarray, index: np.ndarray, sample_weight: Any, class_weight: Any, class_counts: Any) -> np.ndarray:
    """:func:`class_weighted` on parsed labels: ``classes`` sorted, ``index`` each row's class index into them."""
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise ValueError(f"class_weight must be None, 'balanced' or a dict {{class: weight}}, got {class_weight!r}")
        if class_counts is None:
            counts = np.bincount(index, minlength=classes.shape[0]).astype(float)
        else:
            counts = np.array([float(class_counts[label]) for label in classes])
        per_class = counts.sum() / (classes.shape[0] * counts)
    else:
        known = {_plain_label(label) for label in classes}
        unknown = [key for key in class_weight if _plain_label(key) not in known]
        if unknown:
            raise ValueError(
                f"class_weight names {unknown[:5]} that are not classes of y; the classes are {classes[:10].tolist()}"
            )
        by_label = {_plain_label(key): value for key, value in class_weight.items()}
        per_class = np.array([by_label.get(_plain_label(label), 1.0) for label in classes], dtype=float)
        if not np.all(np.isfinite(per_class)) or np.any(per_class < 0):
            raise ValueError(f"class_weight values must be finite numbers >= 0, got {dict(class_weight)}")
    factors = per_class[index]
    if sample_weight is None:
        return factors
    weights = np.asarray(sample_weight, dtype=float)
    if weights.ndim == 0:
        return factors * float(weights)
    if weights.shape != factors.shape:
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected ({factors.shape[0]},)!")
    return weights * factors


def _plain_label(label: Any) -> Any:
    """A class label as a plain Python value (numpy scalars compare and hash like the Python ones they hold)."""
    return label.item() if isinstance(label, np.generic) else label
