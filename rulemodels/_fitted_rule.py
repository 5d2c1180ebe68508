"""What a fitted :class:`~rulemodels.BooleanRuleClassifier` does with its rule: predict, explain, export, show.

The estimator's other half: :mod:`rulemodels.estimator` learns the rule and sets
the fitted attributes (``rule_``, ``binarizer_``, ``classes_``, ...); the methods
here only read them. ``predict`` and ``predict_proba`` check ``X`` once
(:func:`rulemodels.utils.to_frame`) and hand the checked frame to the fitted
binarizer's trusted path.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted, validate_data

from rulemodels._rule_list_search import _step_values
from rulemodels.data import is_stream_input, stream_map
from rulemodels.rules import (
    ColumnKindDriftWarning,
    Literal,
    RuleList,
    UnseenCategoryWarning,
    conform,
    explain_rule,
    explain_rule_list,
)
from rulemodels.utils import as_pandas, to_frame

if TYPE_CHECKING:
    from rulemodels.data import FeatureBinarizer
    from rulemodels.rules import ClassRates, PatternRates, Rule

__all__: list[str] = []


def _check_columns_as_in_fit(columns: list[str], fitted: list[str]) -> None:
    """Raise a ValueError naming the missing, unexpected or reordered columns of a predict-time DataFrame.

    The message starts like scikit-learn's own check, so code that matches on it keeps working,
    and says how to fix the frame.
    """
    if columns == fitted:
        return
    prefix = "The feature names should match those that were passed during fit"
    present, expected = set(columns), set(fitted)
    missing = [name for name in fitted if name not in present]
    unexpected = [name for name in columns if name not in expected]
    if missing:
        raise ValueError(f"{prefix}: X lacks column(s) {_shorten(missing)} seen in fit; pass every column the estimator was fitted on")
    if unexpected:
        raise ValueError(
            f"{prefix}: X has column(s) {_shorten(unexpected)} not seen in fit; "
            "select the fitted ones with X[clf.feature_names_in_]"
        )
    raise ValueError(f"{prefix}: X has the fitted columns in a different order; reorder them with X[clf.feature_names_in_]")


def _warn_unseen_categories(frame: pd.DataFrame, columns: dict[str, tuple[Any, Any]], binarizer: FeatureBinarizer,
                            stacklevel: int) -> None:
    """One :class:`~rulemodels.rules.UnseenCategoryWarning` per column of ``columns`` (``{column: (a, b)}``: the
    two categories it took in training, the rule's ``x != a`` written ``x == b``) where ``frame`` holds another
    category."""
    if not columns:
        return
    kinds = getattr(binarizer, "column_kinds_", {})
    with warnings.catch_warnings():  # the binarizer warns of a drifted kind itself, once
        warnings.simplefilter("ignore", ColumnKindDriftWarning)
        read = conform(frame[list(columns)], {name: kinds[name] for name in columns if name in kinds})
    for name, (a, b) in columns.items():
        unseen = Literal(name, "not_in", (a, b)).evaluate(read[[name]])
        if not unseen.any():
            continue
        values = pd.unique(read[name][unseen])
        shown = ", ".join(repr(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")
        warnings.warn(
            f"column {name!r}: {int(unseen.sum())} row(s) hold a category not seen in training ({shown}); {name!r} "
            f"took only {a!r} and {b!r} in training, so the rule reads it as an equality ({name} == {b!r} for the "
            f"learned {name} != {a!r}; raw_rule_ is the rule as learned), and a new category makes that equality "
            "false where the learned inequality was true",
            UnseenCategoryWarning, stacklevel=stacklevel,
        )


def _shorten(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(name) for name in names[:limit])
    return f"[{shown}{', ...' if len(names) > limit else ''}]"


class _FittedRuleMixin:
    """predict, predict_proba, explain, the exports and the notebook display of a fitted rule (or rule list)."""

    # the fitted attributes these methods read (set by BooleanRuleClassifier.fit)
    rule_: Rule
    binarizer_: FeatureBinarizer
    classes_: np.ndarray
    pattern_rates_: PatternRates
    class_rates_: ClassRates
    _bucket_classes: np.ndarray
    feature_names_in_: np.ndarray
    n_features_in_: int
    target_name_: str | None
    form_: str
    baseline_class_: int
    baseline_error_: float
    training_error_: float
    n_iter_: int
    termination_: str
    algorithm: str

    def _frame_for_predict(self, X: Any, stacklevel: int = 4) -> pd.DataFrame:
        """``X`` checked against the fit, as a DataFrame; warns of new categories in the columns the rule reads as
        equalities (``stacklevel``: the warning's, 4 from ``predict`` through ``_clause_values``)."""
        frame = self._checked_frame(X)
        _warn_unseen_categories(frame, getattr(self, "_equality_columns", {}), self.binarizer_, stacklevel + 1)
        return frame

    def _checked_frame(self, X: Any) -> pd.DataFrame:
        check_is_fitted(self)
        X = as_pandas(X)  # a polars or pyarrow DataFrame: converted here, once, with its names and dtypes
        frame = to_frame(X)  # the one check of X in a predict: the binarizer trusts the frame
        if isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):
            _check_columns_as_in_fit(list(frame.columns), list(self.feature_names_in_))
        validate_data(self, X, skip_check_array=True, reset=False)
        if not isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):  # an array: the fitted names
            frame = frame.set_axis(list(self.feature_names_in_), axis=1)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {frame.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input"
            )
        return frame

    def _buckets(self, X: Any) -> np.ndarray:
        """Rule list: the claiming step of each row of ``X`` (0-based; the number of steps for the default)."""
        frame = self._frame_for_predict(X)
        rules: Any = self.rule_  # a RuleList (more than two classes)
        return RuleList.first_true(_step_values(rules, self.binarizer_._transform(frame, check_input=False), self.binarizer_.literals_))

    def _clause_values(self, X: Any) -> np.ndarray:
        """The rule's clause outputs (n, R) on ``X``."""
        frame = self._frame_for_predict(X)
        return self.rule_.clause_outputs_binary(self.binarizer_._transform(frame, check_input=False), self.binarizer_.literals_)

    def _predict_stream(self, X: Any, method: Any, meta: Any) -> Any:
        """``method`` on a Parquet path (batch by batch: a numpy array) or a Dask DataFrame (lazy, per partition)."""
        if not hasattr(self, "feature_names_in_"):
            raise ValueError(
                "this estimator was fitted on an array without column names: predict on a DataFrame or array, "
                "not on Parquet or Dask data"
            )
        return stream_map(X, method, list(self.feature_names_in_), meta=meta)

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the rule is true, ``classes_[0]`` elsewhere.

        On a Parquet path the batches are read one at a time (a numpy array);
        on a Dask DataFrame the result is a lazy Dask Series (``.compute()`` it).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features), path or Dask DataFrame
            The rows to predict, with the columns seen in ``fit``; or a Parquet file or directory, or a Dask
            DataFrame, read in chunks.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class of each row (for data read in chunks, the chunks' predictions).
        """
        if is_stream_input(X):
            check_is_fitted(self)
            return self._predict_stream(X, self.predict, pd.Series(self.classes_[:0]))
        check_is_fitted(self)
        if isinstance(self.rule_, RuleList):
            return self.classes_[self._bucket_classes[self._buckets(X)]]
        clause_values = self._clause_values(X)
        fired = self.rule_.reduce(clause_values)
        return self.classes_[fired.astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities from the training rows that share each row's pattern of clause outputs.

        For a row whose clause values are ``v = (v_1, ..., v_R)``, the positive-class
        probability is ``(positives + 1) / (rows + 2)`` over the training rows with the
        same ``v`` (Laplace smoothing; weighted counts with ``sample_weight``). Patterns
        that contradict the rule (a positive-rule pattern rarer in positives than a
        negative-rule one) are pooled, so no row the rule calls positive gets a lower
        probability than a row it calls negative; a pattern never seen in training gets
        the rate of all rows with the same rule output. The table is
        ``pattern_rates_.to_frame()``; see :class:`rulemodels.rules.PatternRates`.

        ``predict`` stays the rule's Boolean output, so ``predict_proba(X)[:, 1] >= 0.5``
        may disagree with it on patterns where the rule is mostly wrong. The estimate is
        in-sample: use ``CalibratedClassifierCV`` for out-of-sample calibration.

        With more than two classes, the probabilities of the rows each step of the
        rule list claims (and of the default's rows): the training class frequencies
        there, ``(count + 1) / (rows + K)`` (:class:`rulemodels.rules.ClassRates`).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features), path or Dask DataFrame
            The rows to predict, with the columns seen in ``fit``; or a Parquet file or directory, or a Dask
            DataFrame, read in chunks.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``. On a Parquet path the batches
            are read one at a time; on a Dask DataFrame it is a lazy Dask
            DataFrame with the columns ``classes_``.
        """
        if is_stream_input(X):
            check_is_fitted(self)
            return self._predict_stream(X, self.predict_proba, pd.DataFrame({c: pd.Series(dtype=float) for c in self.classes_}))
        check_is_fitted(self)
        if isinstance(self.rule_, RuleList):
            return self.class_rates_.predict(self._buckets(X))
        clause_values = self._clause_values(X)
        positive = self.pattern_rates_.predict(clause_values, self.rule_.reduce(clause_values))
        return np.column_stack([1.0 - positive, positive])

    def explain(self, X: Any) -> pd.DataFrame:
        """Why the rule decided each row: the deciding clauses and the literals that made them.

        A DNF's positive row is explained by the terms that fired (all their
        literals); a negative row by, for each term, the literals that failed. A
        CNF's positive row by, for each clause, the literals that held; a negative
        row by the clauses that failed (all their literals). See
        :func:`rulemodels.rules.explain_rule`.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows to explain, with the columns seen in ``fit``.

        Returns
        -------
        pandas.DataFrame
            Indexed like ``X``: ``prediction``, ``rule_value``, ``clauses`` (a list of
            ``{"clause": r, "holds": bool, "literals": [...]}``, r 1-based) and
            ``reason`` (readable text with the row's values). With more than two
            classes: ``prediction``, ``step`` (the claiming step, 1-based; the
            number of steps + 1 for the default), ``clauses`` and ``reason``
            (:func:`rulemodels.rules.explain_rule_list`).
        """
        frame = self._frame_for_predict(X, stacklevel=3)
        # predict reads the columns by their fitted kinds in binarizer_.transform; explain reads the rule's columns
        kinds = getattr(self.binarizer_, "column_kinds_", {})
        frame = conform(frame, {name: kinds[name] for name in self.rule_.features if name in kinds})
        if isinstance(self.rule_, RuleList):
            return explain_rule_list(self.rule_, frame)
        return explain_rule(self.rule_, frame, tuple(self.classes_))

    def to_sql(self, *, cast: bool = True) -> str:
        """The fitted rule as a NULL-aware SQL expression, true for ``classes_[1]`` (:meth:`Rule.to_sql`); a rule
        list as ``CASE WHEN <step 1> THEN <class> ... ELSE <default> END`` (:func:`rulemodels.rules.to_sql`;
        ``cast``: thresholds on ``"x" + 0``, so numbers stored as text in SQLite compare as numbers).

        Parameters
        ----------
        cast : bool, default=True
            Compare thresholds on ``"x" + 0``, so numbers stored as text (SQLite) compare as numbers.

        Returns
        -------
        str
            The SQL expression of the fitted rule (or rule list).
        """
        check_is_fitted(self)
        return self.rule_.to_sql(cast=cast)

    def to_query(self) -> Any:
        """The fitted rule as a ``DataFrame.query`` expression, true for ``classes_[1]`` (:meth:`Rule.to_query`); a
        rule list as ``{class: expression}``, each row true in exactly the expression of its predicted class
        (:func:`rulemodels.rules.to_query`).

        Returns
        -------
        str or dict
            The expression of the fitted rule; for a rule list, ``{class: expression}``.
        """
        check_is_fitted(self)
        return self.rule_.to_query()

    def to_python(self) -> str:
        """A dependency-free module whose ``predict_row`` is 1 for ``classes_[1]`` (:meth:`Rule.to_python`); for a
        rule list, ``predict_row`` returns the class label.

        Returns
        -------
        str
            The source of the module.
        """
        check_is_fitted(self)
        return self.rule_.to_python()

    def _repr_html_(self) -> str:
        """For notebooks: the fitted rule as a table of clauses, with complexity, training error and baseline."""
        import html

        from rulemodels.rules import rule_html, rule_list_html

        if not hasattr(self, "rule_"):
            return f"<pre>{html.escape(repr(self))}</pre>"
        majority = self.classes_[self.baseline_class_]
        facts = {
            "training error": f"{self.training_error_:.4f}",
            "baseline": f"{self.baseline_error_:.4f} (always {majority})",
            "algorithm": f"{self.algorithm}, {self.n_iter_} iterations ({self.termination_})",
        }
        if isinstance(self.rule_, RuleList):
            target = self.target_name_ or "class"
            return rule_list_html(self.rule_, title=f"{target}: ordered rule list ({self.form_.upper()} steps)", facts=facts)
        target = f"{self.target_name_} = {self.classes_[1]}" if self.target_name_ else f"class {self.classes_[1]}"
        return rule_html(self.rule_, title=f"{target} when true ({self.form_.upper()})", facts=facts)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        """What Jupyter shows (it asks for this before ``_repr_html_``): the text repr and :meth:`_repr_html_`."""
        return {"text/plain": repr(self), "text/html": self._repr_html_()}
