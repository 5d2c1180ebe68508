"""The scikit-learn estimator: :class:`BooleanRuleClassifier`."""

from __future__ import annotations

import contextlib
import logging
import warnings
from numbers import Integral, Real
from typing import Any, Iterator

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from rulemodels.algorithms import ALGORITHMS, learn_cnf
from rulemodels.algorithms.pool import default_pool
from rulemodels.baseline import majority_baseline, warn_if_trivial
from rulemodels.data import FeatureBinarizer
from rulemodels.data.binarizer import check_unique_column_names
from rulemodels.exact import solve_exact_problem
from rulemodels.explain import explain_rule
from rulemodels.models.problem import CNFProblem
from rulemodels.probability import PatternRates
from rulemodels.simplify import SimplifyReport, simplify_rule
from rulemodels.theta import THETA_UNITS, paper_theta

logger = logging.getLogger(__name__)

__all__ = ["BooleanRuleClassifier", "DEFAULT_THETA", "PAPER_SETTINGS"]

#: Default θ (``theta_unit='fraction'``): a literal must fix DEFAULT_THETA of the
#: training weight to be kept. Measured in docs/theta.md.
DEFAULT_THETA = 0.005

#: The estimator settings that reproduce the paper's protocol: θ in the paper's
#: units (misclassified samples) and the rule exactly as learned (no simplification),
#: so ``rule_.n_literals`` is the paper's literal count.
PAPER_SETTINGS: dict[str, Any] = {"theta_unit": "sample", "simplify": False}


@contextlib.contextmanager
def _log_level(verbose: bool | int) -> Iterator[None]:
    """Lower the ``rulemodels`` logger to INFO (DEBUG for verbose >= 2) for the duration of a fit."""
    if not verbose:
        yield
        return
    package_logger = logging.getLogger("rulemodels")
    previous = package_logger.level
    package_logger.setLevel(logging.DEBUG if int(verbose) >= 2 else logging.INFO)
    try:
        yield
    finally:
        package_logger.setLevel(previous)


def _check_input(X: Any) -> None:
    """Reject sparse matrices, non-2-D arrays and duplicate column names with clear messages.

    Missing values are handled by the binarizer (``nan``); infinite values are
    ordinary numbers (``x <= t`` is False for +inf and True for -inf).
    """
    if sp.issparse(X):
        raise TypeError("sparse input is not supported by BooleanRuleClassifier: pass a dense array or a DataFrame")
    if not isinstance(X, pd.DataFrame):
        array = np.asarray(X)
        if array.ndim != 2:
            raise ValueError(f"Expected 2D array, got {array.ndim}D array instead. Reshape your data (X.reshape(-1, 1) for one feature)")
    else:
        check_unique_column_names(X.columns)


def _check_no_missing_labels(y: np.ndarray) -> None:
    """Raise when labels are missing (None, NaN): a rule is learned from labelled rows only."""
    missing = np.flatnonzero(np.asarray(pd.isna(y), dtype=bool))
    if missing.size:
        shown = ", ".join(map(str, missing[:5])) + (", ..." if missing.size > 5 else "")
        raise ValueError(
            f"y has {missing.size} missing label(s) (None or NaN) at row(s) {shown}: drop those rows "
            "first, e.g. keep = y.notna(); X, y = X[keep], y[keep]"
        )


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
        raise ValueError(f"{prefix}: X has column(s) {_shorten(unexpected)} not seen in fit; select the fitted ones with X[clf.feature_names_in_]")
    raise ValueError(f"{prefix}: X has the fitted columns in a different order; reorder them with X[clf.feature_names_in_]")


def _shorten(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(name) for name in names[:limit])
    return f"[{shown}{', ...' if len(names) > limit else ''}]"


def _warn_time_limit(rule: Any) -> None:
    """A ``ConvergenceWarning``: the fit stopped at ``time_limit`` with the best rule found so far."""
    trivial = " before any clause was learned: the rule is trivial" if rule.n_literals == 0 else ""
    warnings.warn(
        f"the time limit was reached{trivial}; rule_ is the best rule found so far "
        "(termination_='time_limit'); raise time_limit for a better rule",
        ConvergenceWarning, stacklevel=5,  # the caller of fit (through _fit_problem and sklearn's fit wrapper)
    )


def _as_frame(X: Any, columns: list[str] | None = None) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        frame = X.copy()
        frame.columns = [str(c) for c in frame.columns]
        return frame
    array = np.asarray(X)
    if array.ndim != 2:
        raise ValueError(f"Expected 2D array, got {array.ndim}D array instead: reshape your data")
    names = columns if columns is not None else [f"x{j}" for j in range(array.shape[1])]
    return pd.DataFrame(array, columns=names)


class BooleanRuleClassifier(ClassifierMixin, BaseEstimator):
    """Interpretable two-level Boolean rule (DNF or CNF) classifier.

    Learns a rule ``ŷ = OR_r AND_{j in C_r} a_j`` (DNF) or
    ``ŷ = AND_r OR_{j in C_r} a_j`` (CNF) over literals such as
    ``glucose > 142.0`` by minimising accuracy cost + ``θ × (number of
    literals)`` (Su, Wei, Varshney, Malioutov). Raw features are binarized by
    quantile thresholds (:class:`~rulemodels.data.FeatureBinarizer`).

    Parameters
    ----------
    form : {"dnf", "cnf", "auto"}, default="dnf"
        Rule form; a DNF is learned as a CNF on negated features and labels.
        ``"auto"`` fits both on the folds of ``cv`` and keeps the one with the
        lower mean inner-CV error (ties: DNF), then refits it on all of X.
    n_clauses : int, default=2
        R, the number of clauses (terms of a DNF); TLP and AM return fewer when
        a clause would duplicate another or be constant on the training data.
    theta : float, default=0.005
        Sparsity weight θ >= 0, the cost of one literal. With
        ``theta_unit='fraction'`` it is a share of the training set: a literal
        is kept only if it lowers the (weighted) training error rate by more
        than θ, so θ = 0.005 means "fix at least 0.5 % of the rows" whatever n.
        The learner's (paper's) θ is ``θ × Σ sample_weight`` (``paper_theta_``);
        see :mod:`rulemodels.theta` and ``docs/theta.md``.
    theta_unit : {"fraction", "sample"}, default="fraction"
        ``"sample"``: ``theta`` is the paper's θ, the cost of one literal in
        misclassified samples (its effect then depends on n); used to
        reproduce the paper (:data:`PAPER_SETTINGS`).
    algorithm : {"am", "bcd", "tlp", "scs", "scn", "exact"}, default="am"
        Alternating minimization, block coordinate descent, two-level LP
        relaxation, set covering with simple / redundancy-aware binarization,
        or the exact 0-1 error MIP (small data only).
    n_thresholds : int, default=9
        Quantile thresholds per numeric column (9 = deciles).
    nan : {"indicator", "error"}, default="indicator"
        Missing values (NaN, None) in X. ``"indicator"``: a missing value
        makes every other literal on its column false (``x <= t``, ``x > t``,
        ``x == v``, ``x != v``, ...), and columns with missing values in
        training get ``x is missing`` / ``x is not missing`` literals; the same
        holds in ``predict``, in :meth:`Rule.evaluate` and in saved rules.
        ``"error"``: refuse missing values.
    high_cardinality : {"drop", "keep"}, default="drop"
        Text columns with (nearly) one distinct value per row (IDs, dates as
        text) are left out with an ``IDLikeColumnWarning``; ``"keep"`` makes
        them categories (see :class:`~rulemodels.data.FeatureBinarizer`).
    simplify : bool, default=True
        Simplify the learned rule without changing any prediction
        (:func:`rulemodels.simplify.simplify_rule`): implied literals dropped,
        thresholds merged into intervals, category literals merged into sets,
        dead, always-true, duplicate and implied clauses dropped. ``rule_`` is
        the simplified rule, ``raw_rule_`` the learned one.
    allow_disable : bool, default=False
        Let the learner disable clauses (always-true feature, paper section 3).
    disable_cost : float, default=0.5
        Cost of the always-true feature, in literals.
    max_iter : int, default=100
        Iteration cap of BCD and AM.
    solver : str, default="highs"
        Solver backend name (``highs``, ``glpk``, ``cbc`` or any Pyomo solver).
    solver_options : dict, default=None
        Native solver options passed to every solve.
    time_limit : float, default=None
        Seconds for the whole fit: BCD/AM stop with the best rule so far
        (``termination_ = "time_limit"``, with a ``ConvergenceWarning``); the
        exact MIP returns its incumbent.
    cv : int or cross-validation splitter, default=5
        Inner folds of ``form="auto"`` (unused otherwise). An int means
        ``StratifiedKFold(cv)``, shuffled with ``random_state`` when one is given.
    random_state : int, RandomState or None, default=None
        Shuffles the inner folds of ``form="auto"``; the algorithms themselves
        are deterministic.
    verbose : bool or int, default=False
        Log progress (INFO; DEBUG with 2) through the ``rulemodels`` logger.

    Attributes
    ----------
    rule_ : Rule
        The rule over the original column names (true = ``classes_[1]``),
        simplified when ``simplify=True``.
    raw_rule_ : Rule
        The rule as the learner produced it; ``raw_rule_.n_literals`` is the
        paper's literal count. Predicts exactly as ``rule_``.
    simplification_ : rulemodels.simplify.SimplifyReport
        What the simplification removed (``str`` of it is one line).
    baseline_error_ : float
        Weighted training error of always predicting the majority class
        (``classes_[baseline_class_]``); a ``TrivialRuleWarning`` says when
        ``training_error_`` is no lower, or the rule predicts one class for
        every training row.
    baseline_class_ : int
        Index into ``classes_`` of the majority class.
    training_error_ : float
        Weighted training error of ``rule_``.
    paper_theta_ : float
        The θ the learner used, in the paper's units (see ``theta``).
    classes_ : ndarray of shape (2,)
    binarizer_ : FeatureBinarizer
    n_features_in_ : int
    feature_names_in_ : ndarray of str (only for DataFrame input)
    n_iter_ : int
        BCD/AM iterations executed (the last one may find no improvement); 1 for SCS, SCN, TLP and exact.
    history_ : list of float
        Objective after the initialisation and after each accepted iteration
        (the Hamming objective for SC/BCD/AM).
    objective_ : float
    termination_ : str
        Why the algorithm stopped.
    n_solves_, n_builds_ : int
        LP/MIP solves and model builds of this fit. Both can be 0 when
        earlier fits in this process on the same data built the models and
        solved the same LPs (see ``n_reused_``).
    n_reused_ : int
        Clause-LP solutions this fit re-used instead of solving: repeated
        LPs within the fit, or LPs an earlier fit on the same data solved
        (:mod:`rulemodels.algorithms.pool`).
    form_ : {"dnf", "cnf"}
        The form learned (the chosen one with ``form="auto"``).
    form_cv_errors_ : dict (only with ``form="auto"``)
        ``{"dnf": [...], "cnf": [...]}``, the inner-CV error of each fold.
    complexity_ : dict
        ``{"n_clauses": ..., "n_literals": ..., "n_conditions": ..., "n_features": ...}``
        of ``rule_``: clauses, literals (a set literal counts once), conditions
        as printed (an interval ``3 < x <= 7`` counts once) and distinct source
        features. The paper's count is ``raw_rule_.n_literals``.
    pattern_rates_ : rulemodels.probability.PatternRates
        The training positive rate per pattern of clause outputs, behind
        :meth:`predict_proba` (``pattern_rates_.to_frame()`` shows it).
    target_name_ : str or None
        The name of ``y`` when it was a named pandas Series (used by ``str``).

    Examples
    --------
    >>> from rulemodels import BooleanRuleClassifier, load_dataset
    >>> X, y = load_dataset("pima")
    >>> clf = BooleanRuleClassifier(n_clauses=2, theta=0.01).fit(X, y)   # doctest: +SKIP
    >>> print(clf)                                                       # doctest: +SKIP
    diabetes = 1 when (glucose > 167.0 AND blood_pressure <= 88.0) OR (glucose > 102.0 AND bmi > 28.2 AND ...)
    >>> clf.explain(X.iloc[:1])["reason"].iloc[0]                        # doctest: +SKIP
    'term 2 holds: glucose > 102.0 (glucose = 148) AND bmi > 28.2 (bmi = 33.6) AND ...'
    >>> clf.predict_proba(X.iloc[:1])                                    # doctest: +SKIP
    array([[0.346, 0.654]])
    """

    _parameter_constraints: dict = {
        "form": [StrOptions({"dnf", "cnf", "auto"})],
        "n_clauses": [Interval(Integral, 1, None, closed="left")],
        "theta": [Interval(Real, 0, None, closed="left")],
        "theta_unit": [StrOptions(set(THETA_UNITS))],
        "algorithm": [StrOptions({*ALGORITHMS, "exact"})],
        "n_thresholds": [Interval(Integral, 1, None, closed="left")],
        "nan": [StrOptions({"indicator", "error"})],
        "high_cardinality": [StrOptions({"drop", "keep"})],
        "simplify": ["boolean"],
        "allow_disable": ["boolean"],
        "disable_cost": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "solver": [str, object],
        "solver_options": [dict, None],
        "time_limit": [Interval(Real, 0, None, closed="neither"), None],
        "cv": [Interval(Integral, 2, None, closed="left"), "cv_object"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        *,
        form: str = "dnf",
        n_clauses: int = 2,
        theta: float = DEFAULT_THETA,
        theta_unit: str = "fraction",
        algorithm: str = "am",
        n_thresholds: int = 9,
        nan: str = "indicator",
        high_cardinality: str = "drop",
        simplify: bool = True,
        allow_disable: bool = False,
        disable_cost: float = 0.5,
        max_iter: int = 100,
        solver: Any = "highs",
        solver_options: dict | None = None,
        time_limit: float | None = None,
        cv: Any = 5,
        random_state: Any = None,
        verbose: bool | int = False,
    ):
        self.form = form
        self.n_clauses = n_clauses
        self.theta = theta
        self.theta_unit = theta_unit
        self.algorithm = algorithm
        self.n_thresholds = n_thresholds
        self.nan = nan
        self.high_cardinality = high_cardinality
        self.simplify = simplify
        self.allow_disable = allow_disable
        self.disable_cost = disable_cost
        self.max_iter = max_iter
        self.solver = solver
        self.solver_options = solver_options
        self.time_limit = time_limit
        self.cv = cv
        self.random_state = random_state
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> "BooleanRuleClassifier":
        """Learn the rule from features ``X`` (raw or binary) and binary labels ``y``."""
        _check_input(X)
        validate_data(self, X, skip_check_array=True)
        frame = _as_frame(X)
        if frame.shape[0] == 0:
            raise ValueError("Found array with 0 sample(s) (shape=(0, %d)) while a minimum of 1 is required." % frame.shape[1])
        labels = self._binary_labels(y, frame.shape[0])
        weights = _check_sample_weight(sample_weight, np.empty((frame.shape[0], 0)))
        self.target_name_ = str(y.name) if isinstance(y, pd.Series) and y.name is not None else None
        pool = default_pool()
        backend = pool.backend(self.solver)
        with _log_level(self.verbose):
            self.binarizer_ = self._make_binarizer().fit(frame)
            A = self.binarizer_.transform(frame)
            if A.shape[1] == 0:
                raise ValueError("every feature is constant: there is nothing to learn a rule from")
            if self.form == "auto":
                self.form_ = self._choose_form(frame, labels, weights)
            else:
                self.form_ = self.form
                self.__dict__.pop("form_cv_errors_", None)  # from an earlier fit with form="auto"
            problem = CNFProblem.from_binary(A, labels, literals=self.binarizer_.literals_, form=self.form_, sample_weight=weights)
            self.paper_theta_ = paper_theta(self.theta, weights, self.theta_unit)  # issue 20: θ scale
            self._fit_problem(problem, backend, pool)
            self._finish_rule(labels, weights)  # issue 20: simplification, baseline, trivial-rule warning
            clause_values = self.rule_.clause_outputs_binary(A, self.binarizer_.literals_)
            self.pattern_rates_ = PatternRates.fit(clause_values, self.rule_.reduce(clause_values), labels, weights)
            self.training_error_ = warn_if_trivial(
                self.rule_.reduce(clause_values), labels, weights, self._baseline, self.classes_, stacklevel=3,
            )
        self.complexity_ = self.rule_.complexity()
        return self

    def _make_binarizer(self) -> FeatureBinarizer:
        """The unfitted binarizer of this estimator: every binarizer setting it uses, in one place."""
        return FeatureBinarizer(n_thresholds=self.n_thresholds, nan=self.nan, high_cardinality=self.high_cardinality)

    def _finish_rule(self, labels: np.ndarray, weights: np.ndarray) -> None:
        """Keep the learned rule as ``raw_rule_``, simplify it into ``rule_``, and compute the baseline."""
        self.raw_rule_ = self.rule_
        if self.simplify:
            self.rule_, self.simplification_ = simplify_rule(self.raw_rule_)
        else:
            self.simplification_ = SimplifyReport(self.raw_rule_.n_literals, self.raw_rule_.n_literals)
        self._baseline = majority_baseline(labels, weights)
        self.baseline_error_ = self._baseline.error
        self.baseline_class_ = self._baseline.label

    def _choose_form(self, frame: pd.DataFrame, labels: np.ndarray, weights: np.ndarray) -> str:
        """``form='auto'``: the form with the lower inner-CV error (weighted misclassification rate); ties go to DNF.

        Fills ``form_cv_errors_ = {"dnf": [...], "cnf": [...]}`` (one error per fold).
        """
        splitter = self.cv
        if isinstance(splitter, Integral):
            splitter = StratifiedKFold(n_splits=splitter, shuffle=self.random_state is not None, random_state=self.random_state)
        splitter = check_cv(splitter, labels, classifier=True)
        errors: dict[str, list[float]] = {"dnf": [], "cnf": []}
        for k, (train, test) in enumerate(splitter.split(frame, labels)):
            for form in errors:
                inner = clone(self).set_params(form=form, verbose=False)
                inner.fit(frame.iloc[train], labels[train], sample_weight=weights[train])
                wrong = inner.predict(frame.iloc[test]) != labels[test]
                errors[form].append(float(np.average(wrong, weights=weights[test])))
            logger.info("form='auto', fold %d: inner-CV error dnf %.4f, cnf %.4f", k + 1, errors["dnf"][-1], errors["cnf"][-1])
        self.form_cv_errors_ = errors
        chosen = "cnf" if np.mean(errors["cnf"]) < np.mean(errors["dnf"]) else "dnf"
        logger.info("form='auto' chose %s (mean inner-CV error dnf %.4f, cnf %.4f)", chosen, np.mean(errors["dnf"]), np.mean(errors["cnf"]))
        return chosen

    def _binary_labels(self, y: Any, n_samples: int) -> np.ndarray:
        if y is None:
            raise ValueError("requires y to be passed, but the target y is None")
        y_array = np.asarray(y)
        if y_array.ndim == 2 and y_array.shape[1] == 1:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected; it is raveled to shape (n_samples,)",
                DataConversionWarning, stacklevel=3,
            )
            y_array = y_array.ravel()
        if y_array.ndim != 1:
            raise ValueError(f"y must be 1-dimensional (one label per sample), got shape {y_array.shape}")
        if y_array.shape[0] != n_samples:
            raise ValueError(f"X has {n_samples} samples but y has {y_array.shape[0]} labels")
        _check_no_missing_labels(y_array)
        check_classification_targets(y_array)
        self.classes_ = np.unique(y_array)
        if self.classes_.shape[0] == 1:
            raise ValueError(
                f"y has only 1 class ({self.classes_[0]}): BooleanRuleClassifier learns a rule from "
                "samples of both classes"
            )
        if self.classes_.shape[0] != 2:
            kind = type_of_target(y_array)
            count = self.classes_.shape[0]
            raise ValueError(
                f"Only binary classification is supported: BooleanRuleClassifier needs exactly two classes in y, "
                f"got {count} class{'' if count == 1 else 'es'} ({kind}: {self.classes_[:10].tolist()}); "
                "for more classes wrap it in sklearn.multiclass.OneVsRestClassifier"
            )
        return (y_array == self.classes_[1]).astype(np.int8)

    def _fit_problem(self, problem: CNFProblem, backend: Any, pool: Any) -> None:
        if self.algorithm == "exact":
            exact = solve_exact_problem(
                problem, self.n_clauses, self.paper_theta_, solver=backend, time_limit=self.time_limit,
                disable_cost=self.disable_cost if self.allow_disable else None,
            )
            self.rule_ = exact.rule
            self.objective_ = float(exact.objective)
            self.history_ = [self.objective_]
            self.n_iter_ = 1
            self.termination_ = exact.status
            if self.termination_ == "time_limit":
                _warn_time_limit(self.rule_)
            self.n_solves_ = 1
            self.n_builds_ = 1
            self.n_reused_ = 0
            self.exact_bound_ = exact.bound
            return
        result, data = learn_cnf(
            problem, backend, algorithm=self.algorithm, n_clauses=self.n_clauses, theta=self.paper_theta_,
            allow_disable=self.allow_disable, disable_cost=self.disable_cost, max_iter=self.max_iter,
            time_limit=self.time_limit, solver_options=self.solver_options, pool=pool,
        )
        W, w0 = data.split(result.W)
        self.rule_ = problem.rule_from_weights(W, w0)
        self.objective_ = float(result.objective)
        self.history_ = list(result.history)
        self.n_iter_ = int(result.n_iter)
        self.termination_ = result.stop_reason
        self.n_solves_ = int(result.n_solves)
        self.n_builds_ = int(result.n_builds)
        self.n_reused_ = int(result.n_cache_hits)
        if self.termination_ == "time_limit":
            _warn_time_limit(self.rule_)
        logger.info("learned %s rule: %s (%s after %d iterations)", self.form_.upper(), self.rule_, self.termination_, self.n_iter_)

    def _frame_for_predict(self, X: Any) -> pd.DataFrame:
        check_is_fitted(self)
        _check_input(X)
        if isinstance(X, pd.DataFrame) and hasattr(self, "feature_names_in_"):
            _check_columns_as_in_fit([str(c) for c in X.columns], list(self.feature_names_in_))
        validate_data(self, X, skip_check_array=True, reset=False)
        names = list(self.feature_names_in_) if hasattr(self, "feature_names_in_") else None
        frame = _as_frame(X, names)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but {type(self).__name__} is expecting {self.n_features_in_} features as input")
        return frame

    def _clause_values(self, X: Any) -> np.ndarray:
        """The rule's clause outputs (n, R) on ``X``."""
        frame = self._frame_for_predict(X)
        return self.rule_.clause_outputs_binary(self.binarizer_.transform(frame), self.binarizer_.literals_)

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the rule is true, ``classes_[0]`` elsewhere."""
        clause_values = self._clause_values(X)  # checks that the estimator is fitted
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
        ``pattern_rates_.to_frame()``; see :mod:`rulemodels.probability`.

        ``predict`` stays the rule's Boolean output, so ``predict_proba(X)[:, 1] >= 0.5``
        may disagree with it on patterns where the rule is mostly wrong. The estimate is
        in-sample: use ``CalibratedClassifierCV`` for out-of-sample calibration.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``.
        """
        clause_values = self._clause_values(X)
        positive = self.pattern_rates_.predict(clause_values, self.rule_.reduce(clause_values))
        return np.column_stack([1.0 - positive, positive])

    def explain(self, X: Any) -> pd.DataFrame:
        """Why the rule decided each row: the deciding clauses and the literals that made them.

        A DNF's positive row is explained by the terms that fired (all their
        literals); a negative row by, for each term, the literals that failed. A
        CNF's positive row by, for each clause, the literals that held; a negative
        row by the clauses that failed (all their literals). See
        :func:`rulemodels.explain.explain_rule`.

        Returns
        -------
        pandas.DataFrame
            Indexed like ``X``: ``prediction``, ``rule_value``, ``clauses`` (a list of
            ``{"clause": r, "holds": bool, "literals": [...]}``, r 1-based) and
            ``reason`` (readable text with the row's values).
        """
        frame = self._frame_for_predict(X)
        return explain_rule(self.rule_, frame, self.classes_)

    def __str__(self) -> str:
        """The rule, for the positive class: ``outcome = 1 when (glucose > 142.0 AND ...) OR (...)``.

        Before ``fit``, the parameter repr, as for any scikit-learn estimator.
        """
        if not hasattr(self, "rule_"):
            return super().__repr__()
        target = f"{self.target_name_} = {self.classes_[1]}" if self.target_name_ else f"class {self.classes_[1]}"
        return f"{target} when {self.rule_}"

    def __repr__(self, N_CHAR_MAX: int = 700) -> str:
        """scikit-learn's parameter repr; once fitted, followed by ``# <the rule for the positive class>``."""
        text = super().__repr__(N_CHAR_MAX)
        return f"{text}  # {self}" if hasattr(self, "rule_") else text

    def __sklearn_tags__(self):  # noqa: ANN204
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.nan == "indicator"
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.classifier_tags.multi_class = False
        return tags
