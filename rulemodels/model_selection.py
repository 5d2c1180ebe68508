"""Choosing the algorithm, θ, R and the rule form by cross-validation: :class:`BooleanRuleCV`."""

from __future__ import annotations

import contextlib
import inspect
import logging
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import replace
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from numpy.typing import ArrayLike
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.dummy import DummyClassifier
from sklearn.metrics import check_scoring, get_scorer_names
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from rulemodels import defaults
from rulemodels.algorithms.baseline import TrivialRuleWarning
from rulemodels.algorithms.result import LearnedRule
from rulemodels.algorithms.training import TrainingWorkspace
from rulemodels.data import check_input, class_weighted, columns_as_labels, count_classes, parse_labels
from rulemodels.data.binarizer import ColumnKindSpec
from rulemodels.estimator import BooleanRuleClassifier, _clear_fitted, _log_level
from rulemodels.utils import (
    Interval,
    Options,
    as_pandas,
    check_values,
    no_progress,
    resolve_min_rows,
    to_frame,
    track,
    validate_params,
)
from solvers import get_backend

logger = logging.getLogger(__name__)

__all__ = ["BooleanRuleCV", "choose_candidate", "minority_form", "theta_path"]

#: BooleanRuleCV's default θ values (θ as a share of the training set,
#: ``theta_unit='fraction'``): the estimator's default θ alone. Declared in
#: :mod:`rulemodels.defaults`, which says why the default grid is small.
DEFAULT_THETAS: tuple[float, ...] = defaults.DEFAULT_THETAS
#: A fine θ grid for ``BooleanRuleCV(thetas=FINE_THETAS)`` (docs/theta.md).
FINE_THETAS: tuple[float, ...] = defaults.FINE_THETAS

#: The BooleanRuleClassifier parameters BooleanRuleCV passes through unchanged.
_BASE_PARAMS: tuple[str, ...] = (
    "n_thresholds", "thresholds", "allow_disable", "disable_cost", "max_iter",
    "solver", "solver_options", "time_limit", "random_state",
    "theta_unit", "min_literal_rows", "nan", "high_cardinality", "column_kinds", "simplify", "polish", "prune",
    "class_weight", "class_order",
    *defaults.CONSTRAINT_PARAMS,
)

#: Fitted attributes of best_estimator_ that BooleanRuleCV copies (those it has).
_MIRRORED: tuple[str, ...] = (
    "rule_", "binarizer_", "classes_", "n_features_in_", "feature_names_in_", "complexity_", "target_name_", "n_iter_",
    "raw_rule_", "simplification_", "baseline_error_", "baseline_class_", "training_error_",
    "steps_", "class_order_", "order_search_",
)

#: Mean scores are rounded to this many decimals before ranking, so that means
#: which differ only by floating-point rounding count as ties.
_TIE_DECIMALS = 10


def _accepts_sample_weight(scorer: Callable[..., float]) -> bool:
    """Whether calling ``scorer`` takes ``sample_weight`` (its signature has it; every scikit-learn scorer does)."""
    return "sample_weight" in inspect.signature(scorer).parameters


def _score(scorer: Callable[..., float], estimator: Any, X: Any, y: Any, score_params: dict[str, Any]) -> float:
    """``scorer(estimator, X, y, **score_params)``, saying so when its metric refuses the sample weights."""
    try:
        return float(scorer(estimator, X, y, **score_params))
    except TypeError as exc:
        if "sample_weight" not in score_params or "sample_weight" not in str(exc):
            raise
        raise ValueError(
            f"the scorer {scorer!r} does not accept sample_weight ({exc}): use a metric that takes sample_weight, "
            "or fit BooleanRuleCV without sample_weight"
        ) from exc


_Outcome = dict  # {"score", "n_literals", "fit_time", "score_time"} of one candidate on one fold


def _rows(data: Any, rows: np.ndarray) -> Any:
    """Rows of a DataFrame, Series or array by position."""
    if hasattr(data, "iloc"):
        return data.iloc[rows]
    return np.asarray(data)[rows]


class _TestFoldBinarizer:
    """A fold's fitted binarizer that binarizes its test rows once for the scoring of every candidate.

    Set as each fold estimator's ``binarizer_`` after its fit (the fold
    estimators are scored and dropped): ``transform`` of the test fold's frame
    (the same rows and columns, as the estimator's ``predict`` passes it)
    returns the matrix computed on the first call; any other input is
    binarized as usual.
    """

    def __init__(self, binarizer: Any) -> None:
        self._binarizer = binarizer
        self._seen: tuple[Any, Any, np.ndarray] | None = None  # (index, columns, matrix) of the test rows

    def transform(self, X: Any) -> np.ndarray:
        seen = self._seen
        if (seen is not None and isinstance(X, pd.DataFrame) and X.shape[0] == seen[0].shape[0]
                and X.index.equals(seen[0]) and X.columns.equals(seen[1])):
            return seen[2]
        A = self._binarizer.transform(X)
        if isinstance(X, pd.DataFrame):
            self._seen = (X.index, X.columns, A)
        return A

    def __getattr__(self, name: str) -> Any:
        return getattr(self._binarizer, name)


def _path_ready(base: BooleanRuleClassifier) -> bool:
    """Whether column generation candidates of ``base``'s settings can share a θ path (see :func:`_fit_fold`)."""
    constrained = any(getattr(base, name) is not None for name in defaults.CONSTRAINT_PARAMS)
    return base.time_limit is None and not base.polish and not constrained


def _learn_paths(
    base: BooleanRuleClassifier, candidates: list[dict[str, Any]], workspace: TrainingWorkspace,
) -> tuple[dict[int, LearnedRule], dict[int, float]]:
    """The ``cg`` candidates' rules from one θ path per form on ``workspace``, and each one's share of the path's seconds.

    Returns ``{candidate index: LearnedRule}`` and ``{candidate index: seconds}``
    (a path's time split evenly over its candidates); empty when the
    candidates cannot share a path (:func:`_path_ready`).
    """
    if not _path_ready(base):
        return {}, {}
    learned: dict[int, LearnedRule] = {}
    seconds: dict[int, float] = {}
    spec = base._fit_spec()  # the recipe every path shares (θ in its theta_unit); its form, θ and R are the candidates'
    for form in dict.fromkeys(c["form"] for c in candidates if c["algorithm"] == "cg"):
        members = [i for i, c in enumerate(candidates) if c["algorithm"] == "cg" and c["form"] == form]
        start = time.perf_counter()
        path = workspace.learn_path(
            replace(spec, form=form), thetas=sorted({candidates[i]["theta"] for i in members}, reverse=True),
            n_clauses=sorted({candidates[i]["n_clauses"] for i in members}),
        )
        share = (time.perf_counter() - start) / len(members)
        for i in members:
            learned[i] = path[(candidates[i]["theta"], candidates[i]["n_clauses"])]
            seconds[i] = share
    return learned, seconds


def _learn_rule_list_paths(
    base: BooleanRuleClassifier, candidates: list[dict[str, Any]], X: Any, y: Any, sample_weight: Any,
) -> tuple[dict[int, BooleanRuleClassifier], dict[int, float]]:
    """More than two classes: the ``cg`` candidates' rule lists, one θ path per form and R, and each one's seconds.

    Returns ``{candidate index: fitted estimator}`` and ``{candidate index: seconds}``
    (a path's time split evenly over its candidates); empty when the
    candidates cannot share a path (:func:`_path_ready`). See
    :meth:`~rulemodels.BooleanRuleClassifier._fit_rule_list_path`.
    """
    if not _path_ready(base):
        return {}, {}
    groups: dict[tuple[str, int], list[int]] = {}
    for i, c in enumerate(candidates):
        if c["algorithm"] == "cg":
            groups.setdefault((c["form"], c["n_clauses"]), []).append(i)
    fitted: dict[int, BooleanRuleClassifier] = {}
    seconds: dict[int, float] = {}
    for (form, n_clauses), members in groups.items():
        start = time.perf_counter()
        estimator = clone(base).set_params(algorithm="cg", form=form, n_clauses=n_clauses)
        lists = estimator._fit_rule_list_path(X, y, sample_weight, sorted({candidates[i]["theta"] for i in members}, reverse=True))
        share = (time.perf_counter() - start) / len(members)
        for i in members:
            fitted[i] = lists[candidates[i]["theta"]]
            seconds[i] = share
    return fitted, seconds


def _fit_fold(*args: Any) -> list[_Outcome]:
    """:func:`_fit_fold_candidates` without progress bars: it runs inside BooleanRuleCV's bar (or in a worker
    process, whose stderr is the same terminal)."""
    with no_progress():
        return _fit_fold_candidates(*args)


def _fit_fold_candidates(
    base: BooleanRuleClassifier, candidates: list[dict[str, Any]], scorer: Callable[..., float],
    X: Any, y: Any, sample_weight: Any, train: np.ndarray, test: np.ndarray, weigh_scores: bool,
) -> list[_Outcome]:
    """Fit every candidate on one training fold, on one shared workspace, and score it on the test fold.

    Column generation candidates of one form share a θ path
    (:meth:`~rulemodels.TrainingWorkspace.learn_path`: one master LP re-solved
    from the largest θ to the smallest, a selection per R), unless a time
    limit, polishing or domain constraints ask for fits one by one.
    """
    X_train, y_train, X_test, y_test = _rows(X, train), _rows(y, train), _rows(X, test), _rows(y, test)
    fit_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)[train]
    score_params = {"sample_weight": np.asarray(sample_weight, dtype=float)[test]} if weigh_scores else {}
    outcomes = []
    # a workspace holds two classes; a rule list (more than two) fits its steps on workspaces of its own. The
    # workspace holds the weights the fits learn from: sample_weight times the training fold's class weights.
    # (the fold's X checked and its y parsed once here, for the workspace)
    frame = to_frame(X_train, ensure_nonempty=True)
    labels = parse_labels(y_train, frame.shape[0])
    shared = labels.n_classes <= 2
    with (TrainingWorkspace.from_checked(frame, labels, class_weighted(labels, fit_weight, base.class_weight), X=X_train,
                                         binarizer=base._make_binarizer(), solver=base.solver)
          if shared else contextlib.nullcontext()) as workspace:
        with warnings.catch_warnings():  # trivial fold rules are expected at large θ; the refit warns
            warnings.simplefilter("ignore", TrivialRuleWarning)
            paths, path_seconds = _learn_paths(base, candidates, workspace) if workspace is not None else ({}, {})
            lists, list_seconds = ({}, {}) if shared else _learn_rule_list_paths(base, candidates, X_train, y_train, fit_weight)
            path_seconds.update(list_seconds)
            # the binarizers the fold's candidates share: the test rows binarized once for all of them
            shared_binarizers = [workspace.binarizer] if workspace is not None else [lists[i].binarizer_ for i in lists]
            test_binarizers = {id(b): (b, _TestFoldBinarizer(b)) for b in shared_binarizers}  # b kept: ids stay unique
            scored: dict[tuple[str, Any], tuple[float, int]] = {}  # a path's rule met again: (score, literals)
            for i, params in enumerate(candidates):
                start = time.perf_counter()
                same = (params["form"], paths[i].rule) if i in paths else None
                if same in scored:  # the same rule on the same rows: the same fitted estimator, the same score
                    score, n_literals = scored[same]
                    outcomes.append({"score": score, "n_literals": float(n_literals), "fit_time": path_seconds[i],
                                     "score_time": time.perf_counter() - start})
                    continue
                estimator: Any  # its binarizer_ becomes the test fold's below
                if i in lists:  # a rule list of the path, fitted
                    estimator = lists[i]
                elif i in paths:
                    assert workspace is not None  # a path's rules come from the shared workspace
                    estimator = clone(base).set_params(**params)._fit_learned(X_train, y_train, fit_weight, workspace, paths[i])
                else:
                    estimator = clone(base).set_params(**params).fit(X_train, y_train, sample_weight=fit_weight, workspace=workspace)
                fitted = time.perf_counter()
                if id(estimator.binarizer_) in test_binarizers:
                    estimator.binarizer_ = test_binarizers[id(estimator.binarizer_)][1]
                score = _score(scorer, estimator, X_test, y_test, score_params)
                n_literals = estimator.rule_.n_literals
                if same is not None:
                    scored[same] = (score, n_literals)
                logger.debug(
                    "fold %s θ=%g R=%d form=%s: score %.4f, %d literal(s), rule %s",
                    params["algorithm"], params["theta"], params["n_clauses"], params["form"], score, n_literals,
                    estimator.rule_,
                )
                outcomes.append({
                    "score": score, "n_literals": float(n_literals),
                    "fit_time": fitted - start + path_seconds.get(i, 0.0), "score_time": time.perf_counter() - fitted,
                })
    return outcomes


def _majority_score(
    scorer: Callable[..., float], X: Any, y: Any, sample_weight: Any, splits: list[tuple[np.ndarray, np.ndarray]],
    weigh_scores: bool,
) -> float:
    """The mean score over ``splits`` of always predicting each training fold's majority class (by ``sample_weight``)."""
    labels = np.asarray(y)
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    placeholder = np.zeros((labels.shape[0], 1))
    scores = []
    for train, test in splits:
        dummy = DummyClassifier(strategy="most_frequent").fit(
            placeholder[train], labels[train], sample_weight=None if weights is None else weights[train],
        )
        params = {"sample_weight": weights[test]} if weigh_scores and weights is not None else {}
        scores.append(_score(scorer, dummy, placeholder[test], labels[test], params))
    return float(np.mean(scores))


def minority_form(y: ArrayLike, sample_weight: ArrayLike | None = None) -> str:
    """The form whose clauses describe the smaller of two classes: ``"dnf"`` when the positive class is the smaller.

    The positive class is the larger label (``classes_[1]``). A DNF's terms
    describe the rows it predicts positive and a CNF is the negation of a
    DNF of the other class, so a rule is shortest when it describes the
    smaller class; RIPPER learns its rules for the minority class for the
    same reason. Ties go to DNF.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Two class labels.
    sample_weight : array-like of shape (n_samples,), optional
        Row weights (not the class weights: "smaller" is said of the data).

    Returns
    -------
    {"dnf", "cnf"}
        ``"cnf"`` when the positive class has more than half of the (weighted) rows, else ``"dnf"`` (a tie
        at exactly half goes to DNF).

    Examples
    --------
    >>> minority_form([0, 0, 0, 1]), minority_form([0, 1, 1, 1])
    ('dnf', 'cnf')
    """
    labels = np.asarray(y)
    _, index = np.unique(labels, return_inverse=True)
    weight = np.ones(labels.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    totals = np.bincount(index.ravel(), weights=weight, minlength=2)
    return "cnf" if totals[-1] > totals.sum() / 2 else "dnf"


def theta_path(
    y: Any, sample_weight: Any = None, *, n_thetas: int = defaults.DEFAULT_N_THETAS,
    ratio: float = defaults.THETA_PATH_RATIO, clause_cost: float = defaults.CG_CLAUSE_COST,
    min_rows: float | str = defaults.DEFAULT_SEARCH_MIN_LITERAL_ROWS,
) -> tuple[float, ...]:
    """A θ path scaled to the data (θ as a share of the training weight), largest first, as ``LassoCV``'s alphas.

    The path runs from the θ at which no rule pays for itself down to
    ``ratio`` times it, in ``n_thetas`` steps equally spaced on a log scale,
    and never below ``min_rows`` rows' share of the weight:

    * ``θ_max = m / (1 + c_0)``: a clause of one literal costs
      ``θ (1 + c_0)`` of the weight (``c_0``, ``clause_cost``, the cost of a
      clause itself), and can correct at most ``m``, the weight share of the
      smaller side (for two classes the minority class; for more, the largest
      ``min(p_k, 1 - p_k)`` over the classes), so at ``θ ≥ θ_max`` the
      constant rule is optimal;
    * ``θ_min = max(ratio · θ_max, c / n)``: a literal must correct at least
      ``c`` rows (``min_rows``; ``"auto"``: ½ ln n,
      :func:`rulemodels.utils.literal_floor`, the estimators' floor in rows,
      ``docs/theta.md``).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    sample_weight : array-like of shape (n_samples,), optional
        Row weights (class weights already applied).
    n_thetas : int, default=8
        Number of θ values (>= 1; fewer when the range collapses).
    ratio : float, default=0.01
        ``θ_min / θ_max`` before the one-row floor (in (0, 1]).
    clause_cost : float, default=1.0
        ``c_0``.
    min_rows : float or "auto", default=0
        ``c``, the least cost of a literal in rows; the path never goes
        below one row (``BooleanRuleCV`` passes its ``min_literal_rows``;
        ``"auto"``: ½ ln n).

    Returns
    -------
    tuple of float
        Distinct θ values, largest first.

    Examples
    --------
    >>> [round(t, 4) for t in theta_path([0] * 90 + [1] * 10, n_thetas=4)]
    [0.05, 0.0292, 0.0171, 0.01]
    """
    labels = np.asarray(y)
    weight = np.ones(labels.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    _, index = np.unique(labels, return_inverse=True)
    totals = np.bincount(index.ravel(), weights=weight)
    shares = totals / totals.sum()
    minority = float(np.max(np.minimum(shares, 1.0 - shares)))
    largest = minority / (1.0 + clause_cost)
    n_rows = labels.shape[0]
    smallest = min(max(ratio * largest, max(resolve_min_rows(min_rows, n_rows), 1.0) / n_rows), largest)
    if n_thetas <= 1 or smallest >= largest:
        return (largest,)
    values = np.geomspace(largest, smallest, int(n_thetas))
    return tuple(dict.fromkeys(float(v) for v in values))


def _grid_values(name: str, values: Any, kind: str) -> list[Any]:
    """Validate one grid parameter (a scalar or a non-empty sequence) and return its distinct values.

    ``kind`` is ``"theta"``, ``"n_clauses"``, ``"form"`` or ``"algorithm"``: each value is
    checked by that parameter's one rule (:data:`rulemodels.utils.PARAMETERS`; a grid's forms
    are ``'dnf'``/``'cnf'``, not ``'auto'``). Raises an ``InvalidParameterError`` (a ValueError)
    that names the parameter and says what to pass.
    """
    examples = {
        "theta": "thetas=(0.01, 0.1, 1.0)", "n_clauses": "n_clauses=(1, 2, 3)", "form": "forms=('cnf', 'dnf')",
        "algorithm": "algorithms=('am', 'bcd')",
    }
    items = [values] if isinstance(values, (str, Real)) else list(np.asarray(values, dtype=object).ravel())
    check_values(
        name, items, kind, owner="BooleanRuleCV", example=examples[kind],
        constraints=[Options(defaults.FORMS)] if kind == "form" else None,
    )
    if kind in ("form", "algorithm"):
        return list(dict.fromkeys(items))  # distinct, in the order given
    if kind == "theta":
        return sorted({float(t) for t in items}, reverse=True)  # largest θ (sparsest rule) first
    return sorted({int(r) for r in items})  # type: ignore[arg-type]  # fewest clauses first (checked above)


def choose_candidate(results: dict[str, Any], selection: str = defaults.DEFAULT_CV_SELECTION) -> tuple[int, float]:
    """The index of the candidate ``selection`` picks from ``results`` (``cv_results_``), and its score bar.

    ``"best"``: the first candidate of rank 1 (the best mean test score; ties go to the
    candidate listed first, the simplest). ``"1se"``, the one-standard-error rule (Hastie,
    Tibshirani and Friedman, *The Elements of Statistical Learning*, 2nd ed., section 7.10):
    the bar is the best mean score minus its standard error over the folds
    (``std_test_score`` with ``ddof=1`` divided by the square root of the number of folds),
    and among the candidates whose mean reaches the bar the one with the fewest mean literals
    over the folds is picked (then the higher mean score, then the one listed first). The
    best mean is itself a noisy maximum over many candidates; any candidate within one
    standard error of it is as good as far as the folds can tell, and the shorter rule is
    the one that is read and deployed. The bar of ``"best"`` is the best mean. ``results``
    needs ``mean_test_score``, ``mean_n_literals`` and the ``split{k}_test_score``
    columns (so a subset of the candidates, e.g. one form's, can be chosen from too).

    Parameters
    ----------
    results : dict of str to array-like
        The cross-validation results (``cv_results_``, or a subset of its candidates).
    selection : {"best", "1se"}, default=DEFAULT_CV_SELECTION
        How to choose: the best mean test score, or the one-standard-error rule.

    Returns
    -------
    index : int
        The position of the chosen candidate in ``results``.
    bar : float
        The score bar: the best mean test score (``"best"``), or it minus its standard error (``"1se"``).

    Raises
    ------
    ValueError
        If ``selection`` is neither ``"best"`` nor ``"1se"``.
    """
    means = np.asarray(results["mean_test_score"], dtype=float)
    rounded = np.where(np.isnan(means), -np.inf, np.round(means, _TIE_DECIMALS))
    best = int(np.argmax(rounded))  # the first of the best (rank 1 of rank_test_score)
    if selection == "best" or np.isnan(means[best]):
        return best, float(means[best])
    if selection != "1se":
        raise ValueError(f"selection must be one of {defaults.CV_SELECTIONS}, got {selection!r}")
    n_splits = sum(1 for key in results if key.startswith("split") and key.endswith("_test_score"))
    folds = np.array([results[f"split{k}_test_score"][best] for k in range(n_splits)], dtype=float)
    error = float(np.std(folds, ddof=1) / np.sqrt(n_splits)) if n_splits > 1 else 0.0
    error = error if np.isfinite(error) else 0.0  # a fold without a score: no margin
    bar = float(np.round(means[best] - error, _TIE_DECIMALS))
    within = np.flatnonzero(rounded >= bar)
    literals = np.asarray(results["mean_n_literals"], dtype=float)[within]
    order = np.lexsort((within, -means[within], np.round(literals, _TIE_DECIMALS)))  # last key sorts first
    return int(within[order[0]]), bar


def _best_estimator_has(attr: str) -> Callable[[Any], bool]:
    """For ``available_if``: the fitted best estimator (or, before fit, BooleanRuleClassifier) has ``attr``."""

    def check(self: BooleanRuleCV) -> bool:
        if hasattr(self, "best_estimator_"):
            return hasattr(self.best_estimator_, attr)
        return hasattr(BooleanRuleClassifier, attr)

    return check


class BooleanRuleCV(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Boolean rule classifier with the algorithm, θ, R and form chosen by cross-validation.

    Like :class:`sklearn.linear_model.LogisticRegressionCV`: ``fit`` runs a
    grid search over ``algorithms`` × ``thetas`` × ``n_clauses`` × ``forms`` of
    :class:`~rulemodels.BooleanRuleClassifier` fits, keeps the grid and every
    fold's score in ``cv_results_`` (in the layout of
    :class:`sklearn.model_selection.GridSearchCV`), and refits the chosen
    parameters on all of ``X, y``. ``predict``, ``score``, ``predict_proba``
    and ``explain`` use that refitted rule. Each training fold is binarized
    once and gets one :class:`~rulemodels.TrainingWorkspace` that every
    candidate on it shares, so a grid costs much less than its candidates
    fitted one by one (with the same rules).

    **The default search is a θ path** (``thetas="auto"``), as
    :class:`sklearn.linear_model.LassoCV` searches a path of alphas: column
    generation in the form that describes the smaller class (``forms="minority"``:
    DNF when the positive class is the smaller, else CNF) at ``n_thetas`` values
    of θ scaled to the data
    (:func:`theta_path`: from the θ at which no clause pays for itself down to
    a hundredth of it, never below one row's share) × R = 1, 2, 3, 5
    (``n_clauses="auto"``; R = 2 with more than two classes, where each
    candidate is a rule list), on 5 folds. On each training fold one master LP
    serves the whole path (:meth:`~rulemodels.TrainingWorkspace.learn_path`:
    built at the largest θ, re-solved in place at each smaller one with every
    clause generated so far, and its selection made once per R), so the 32
    candidates cost about one path per fold; the refit runs the same path on
    all rows, so the chosen rule is the one the folds scored, and keeps the
    path in ``rule_path_`` (θ, R, literals, training error and CV score of
    each candidate of the chosen form). With more than two classes each
    candidate is a rule list, and the lists of all θ are grown together on
    each fold: every class tried at a step is fitted once for the θ values
    whose lists have left the same rows, along one θ path
    (a :meth:`~rulemodels.TrainingWorkspace.learn_path` per class tried); the
    refit grows them so on all rows. These defaults were chosen on 14
    real two-class tables of 870-10,000 rows (``benchmarks/studies/real_tables.py``,
    ``docs/theta.md``). The folds and the fits are deterministic: the same
    data give the same rule on every run and on a busy or idle machine.

    **How the choice is made.** The candidates are ordered from the simplest
    rule to the most complex: fewest clauses first, then largest θ first, then
    ``algorithms`` and ``forms`` in the order given. Each candidate gets the
    mean of its test-fold scores (``mean_test_score``). Means are rounded to 10
    decimals, so values that differ only by floating-point rounding are ties,
    and ranked (``rank_test_score``, 1 = best, tied candidates share a rank).
    With ``selection="best"`` (the default) the chosen candidate,
    ``best_index_``, is the *first* candidate of rank 1, i.e. among tied best
    means the one with the fewest clauses, then the largest θ, then the
    algorithm and form listed first. With ``selection="1se"`` it is the one
    with the fewest mean literals over the folds among those whose mean score
    is within one standard error of the best mean (the *one-standard-error
    rule*; ties: higher mean, then listed first); ``selection_bar_`` is that
    bound. On the real tables (thousands of rows, the θ path) "1se" chose
    rules of about one literal and was behind "best" wherever there was signal;
    on the four bundled datasets (two candidates, 10 folds) it had been the
    better one (docs/theta.md). See :func:`choose_candidate`.

    Parameters
    ----------
    algorithms : str or sequence of str, default=("cg",)
        Algorithms to try (``defaults.DEFAULT_SEARCH_ALGORITHMS``; any
        ``algorithm`` of :class:`~rulemodels.BooleanRuleClassifier`).
    thetas : "auto", float or sequence of float, default="auto"
        θ values to try (each >= 0): with ``theta_unit="fraction"`` the share
        of the training rows a literal must fix to be kept (see
        :class:`~rulemodels.BooleanRuleClassifier`), so larger θ gives
        sparser rules. ``"auto"``: ``n_thetas`` values of :func:`theta_path`
        on the (class-weighted) training labels. ``FINE_THETAS`` (this module)
        is a fixed grid (docs/theta.md).
    n_thetas : int, default=8
        Length of the ``"auto"`` θ path (``defaults.DEFAULT_N_THETAS``).
    n_clauses : "auto", int or sequence of int, default="auto"
        Numbers of clauses R to try (each >= 1). ``"auto"``: 1, 2, 3 and 5
        (``defaults.DEFAULT_SEARCH_N_CLAUSES``) with two classes; with more,
        the estimator's R (2), since every candidate is then a rule list.
    forms : {"minority", "dnf", "cnf"} or sequence of "dnf" and "cnf", default="minority"
        Rule forms to try. ``"minority"`` (``defaults.DEFAULT_FORMS``): the
        form whose clauses describe the smaller class, as RIPPER learns its
        rules for the minority class: a DNF when the positive class
        (``classes_[1]``) holds at most half of the sample weight, else a CNF
        (a CNF of the positive class is a DNF of the other); with more than
        two classes, DNF. On the four bundled datasets this is the form of
        BRCG's best setting on every one (``docs/theta.md``). ``("dnf",
        "cnf")`` lets the search choose the form (each form is a path of its
        own: twice the time).
    selection : {"best", "1se"}, default="best"
        How the candidate is chosen from the CV scores (see above): the
        best mean score, or the fewest literals within one standard error of
        the best mean score (``defaults.DEFAULT_CV_SELECTION``).
    cv : int, cross-validation generator or iterable of splits, default=5
        An int (or None, meaning 5: ``defaults.DEFAULT_SEARCH_CV``) uses
        ``StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)``
        (``random_state=None``: seed 0, the same folds on every run);
        anything else goes through :func:`sklearn.model_selection.check_cv`.
        Every candidate is scored on the same splits.
    scoring : str, callable or None, default="accuracy"
        A scikit-learn scorer name (``"balanced_accuracy"``, ``"f1"``, ...) or
        a callable ``scorer(estimator, X, y)``; higher is better. None means
        the estimator's ``score`` (accuracy).
    n_jobs : int or None, default=None
        Folds to run in parallel (joblib; None means 1, -1 all cores); each
        fold's candidates run together on that fold's workspace.
    refit : bool, default=True
        Refit the chosen parameters on all of ``X, y`` (``best_estimator_``).
        With False only the search is run: ``cv_results_``, ``best_index_``,
        ``best_params_``, ``best_score_``, ``theta_``, ``n_clauses_`` and
        ``form_`` are set, and ``predict`` is unavailable.
    random_state : int, RandomState or None, default=None
        Shuffles the folds when ``cv`` is an int (None: with seed 0, so that
        the same data give the same folds and the same rule on every run;
        pass another seed for other folds); also passed to every
        :class:`~rulemodels.BooleanRuleClassifier` (whose algorithms are
        deterministic).
    verbose : bool or int, default=False
        Log the search through the ``rulemodels`` logger (never printed):
        INFO gives the grid, each candidate's mean score and the choice;
        2 adds every fold's rule (DEBUG). Configure logging (e.g.
        ``logging.basicConfig(level=logging.INFO)``) to see the messages.
        With ``n_jobs`` > 1 the per-fold messages are emitted in the worker
        processes. Unless ``verbose=-1``, a progress bar of the fold fits
        (count, rate, ETA) is drawn after two seconds on a terminal or in a
        Jupyter notebook, and nothing in a pipe (:mod:`rulemodels.utils`);
        the fits inside it draw no bars of their own.
    n_thresholds, thresholds, allow_disable, disable_cost, max_iter, solver, solver_options, time_limit, \
theta_unit, min_literal_rows, nan, high_cardinality, column_kinds, simplify, polish, prune, class_weight, class_order, monotone, \
forbidden_features, feature_costs, max_literals_per_clause, model_hook
        Passed to every :class:`~rulemodels.BooleanRuleClassifier` (see it for
        their meaning). ``min_literal_rows`` is 0 here (no floor), not
        ``BooleanRuleClassifier``'s ``"auto"`` (½ ln n): a floor in rows
        guards a θ that no held-out rows checked, and the search chooses θ
        on held-out rows along a path that goes down to one row's share
        (:func:`theta_path`), as ``LassoCV``'s path of alphas has no floor
        but its ratio; set ``"auto"`` to floor the search too. ``time_limit`` applies to each fit, and so does
        ``polish`` (one MIP per fit of the search: slow, off by default)
        and ``prune`` (exact pruning of each fit's rule, on by default);
        the domain constraints hold in every fit (``docs/constraints.md``).
        Every decision about a column's kind that depends on the rows is
        made once, on all the rows given to :meth:`fit`, and every fold and
        the refit use it, as a scikit-learn ``Pipeline`` carries its steps'
        decisions into each fold: whether a column is numeric, a 0/1 flag or
        categorical (text, number or mixed categories;
        ``best_estimator_.column_kinds``, which keeps the kinds
        ``column_kinds`` gives), and, with ``high_cardinality="drop"``, which
        columns are ID-like (one ``IDLikeColumnWarning`` per column;
        ``best_estimator_.high_cardinality`` lists them). So ``best_score_``
        scores the model that is returned. Thresholds and categories are
        learned in each fit, as any model parameter.
        ``class_weight="balanced"`` is computed on each training fold; the
        test folds are scored with ``sample_weight`` only (pair it with
        ``scoring="balanced_accuracy"`` to score the classes alike).
        With more than two classes every candidate is an ordered rule list
        (``class_order`` orders its steps) and the folds' fits do not share a
        workspace (each step fit builds its own).

    Attributes
    ----------
    cv_results_ : dict of ndarray
        As :attr:`sklearn.model_selection.GridSearchCV.cv_results_` for one
        metric: ``params``, ``param_theta``, ``param_n_clauses``,
        ``param_form``, ``param_algorithm``, ``split{k}_test_score``, ``mean_test_score``,
        ``std_test_score``, ``rank_test_score`` (from the rounded means, see
        above), ``mean_fit_time``, ``std_fit_time``, ``mean_score_time``,
        ``std_score_time``, plus the rule sizes of the fold fits:
        ``split{k}_n_literals``, ``mean_n_literals``, ``std_n_literals``.
        Candidates are in the simplest-first order described above.
    best_index_ : int
        Index of the chosen candidate in ``cv_results_``.
    best_params_ : dict
        ``{"algorithm": ..., "form": ..., "n_clauses": ..., "theta": ...}`` of the chosen candidate.
    best_score_ : float
        Its mean test score (with ``selection="1se"`` not necessarily the highest).
    baseline_score_ : float
        The mean test score, on the same folds and with the same scorer, of
        always predicting each training fold's majority class. When
        ``best_score_`` is not above it, ``fit`` warns with a
        :class:`~rulemodels.TrivialRuleWarning`: the chosen rule explains
        nothing the folds can confirm.
    selection_bar_ : float
        The lowest mean score ``selection`` accepted: the best mean minus its
        standard error (``"1se"``), or the best mean (``"best"``).
    best_estimator_ : BooleanRuleClassifier
        The chosen parameters refitted on all data (only with ``refit=True``).
        A column generation candidate that the folds learned on a θ path is
        refitted on that path (its rule is the path's at the chosen θ and R,
        which may differ from a fit at that θ alone).
    rule_path_ : pandas.DataFrame
        With ``refit=True`` and a θ path: one row per candidate of the chosen
        form (columns ``theta``, ``n_clauses``, ``form``, ``mean_test_score``,
        ``std_test_score``, ``mean_n_literals`` of the CV, and of the path on
        all rows ``n_literals``, ``training_error``, ``rule``, and ``chosen``;
        with more than two classes, of the chosen form and R, and the rule is
        the rule list),
        to see error and size against θ. The refit walks the path down to the
        chosen θ only: below it the path columns, ``rule`` included, are NaN.
    algorithm_ : str
    theta_ : float
    n_clauses_ : int
    form_ : str
        The chosen algorithm, θ, R and form.
    rule_ : Rule
        ``best_estimator_.rule_`` (only with ``refit=True``); likewise
        ``raw_rule_``, ``simplification_``, ``baseline_error_``,
        ``baseline_class_`` and ``training_error_``.
    binarizer_ : FeatureBinarizer
        ``best_estimator_.binarizer_`` (only with ``refit=True``).
    complexity_ : dict
        ``best_estimator_.complexity_`` (only with ``refit=True`` and when
        the estimator provides it).
    n_iter_ : int
        ``best_estimator_.n_iter_``, iterations of the refit (only with ``refit=True``).
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only for DataFrame input with string column names.
    n_splits_ : int
        Number of CV folds.
    refit_time_ : float
        Seconds spent refitting (0.0 with ``refit=False``).
    scorer_ : callable
        The scorer used for ``mean_test_score``.

    See Also
    --------
    BooleanRuleClassifier : the estimator with fixed algorithm, θ, R and form.
    choose_candidate : the choice from ``cv_results_``.
    sklearn.model_selection.GridSearchCV : the layout of ``cv_results_``.

    Examples
    --------
    >>> from rulemodels import BooleanRuleCV, load_dataset
    >>> X, y = load_dataset("pima")
    >>> clf = BooleanRuleCV()                                        # doctest: +SKIP
    >>> clf.fit(X, y).best_params_                                   # doctest: +SKIP
    >>> print(clf.rule_)                                             # doctest: +SKIP
    >>> clf.cv_results_["mean_test_score"]                           # doctest: +SKIP
    """

    _parameter_constraints: dict = {
        "algorithms": ["array-like", Options(defaults.ALGORITHMS)],
        "thetas": ["array-like", Real, Options({"auto"})],
        "n_thetas": [Interval(Integral, 1, None, closed="left")],
        "n_clauses": ["array-like", Integral, Options({"auto"})],
        "forms": ["array-like", Options((*defaults.FORMS, "minority"))],
        "cv": ["cv_object"],
        "scoring": [Options(set(get_scorer_names())), callable, None],
        "n_jobs": [Integral, None],
        "refit": ["boolean"],
        "verbose": ["verbose"],
        "selection": [Options(defaults.CV_SELECTIONS)],
        **{name: BooleanRuleClassifier._parameter_constraints[name] for name in _BASE_PARAMS},
    }

    def __init__(
        self,
        *,
        algorithms: Any = defaults.DEFAULT_SEARCH_ALGORITHMS,
        thetas: Any = "auto",
        n_thetas: int = defaults.DEFAULT_N_THETAS,
        n_clauses: Any = "auto",
        forms: Any = defaults.DEFAULT_FORMS,
        cv: Any = defaults.DEFAULT_SEARCH_CV,
        scoring: Any = "accuracy",
        n_jobs: int | None = None,
        refit: bool = True,
        random_state: Any = None,
        verbose: bool | int = False,
        selection: str = defaults.DEFAULT_CV_SELECTION,
        n_thresholds: int = defaults.DEFAULT_N_THRESHOLDS,
        thresholds: str = defaults.DEFAULT_THRESHOLDS,
        allow_disable: bool = defaults.DEFAULT_ALLOW_DISABLE,
        disable_cost: float = defaults.DEFAULT_DISABLE_COST,
        max_iter: int = defaults.DEFAULT_MAX_ITER,
        solver: Any = defaults.DEFAULT_SOLVER,
        solver_options: dict | None = None,
        time_limit: float | None = None,
        theta_unit: str = defaults.DEFAULT_THETA_UNIT,
        min_literal_rows: float | str = defaults.DEFAULT_SEARCH_MIN_LITERAL_ROWS,
        nan: str = defaults.DEFAULT_NAN,
        high_cardinality: str | list[str] = defaults.DEFAULT_HIGH_CARDINALITY,
        column_kinds: Mapping[str, ColumnKindSpec] | None = None,
        simplify: bool = defaults.DEFAULT_SIMPLIFY,
        polish: Any = defaults.DEFAULT_POLISH,
        prune: bool = defaults.DEFAULT_PRUNE,
        class_weight: Any = defaults.DEFAULT_CLASS_WEIGHT,
        class_order: str = defaults.DEFAULT_CLASS_ORDER,
        monotone: dict | None = defaults.DEFAULT_MONOTONE,
        forbidden_features: Any = defaults.DEFAULT_FORBIDDEN_FEATURES,
        feature_costs: dict | None = defaults.DEFAULT_FEATURE_COSTS,
        max_literals_per_clause: int | None = defaults.DEFAULT_MAX_LITERALS_PER_CLAUSE,
        model_hook: Any = defaults.DEFAULT_MODEL_HOOK,
    ):
        self.algorithms = algorithms
        self.thetas = thetas
        self.n_thetas = n_thetas
        self.n_clauses = n_clauses
        self.forms = forms
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.random_state = random_state
        self.verbose = verbose
        self.selection = selection
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.allow_disable = allow_disable
        self.disable_cost = disable_cost
        self.max_iter = max_iter
        self.solver = solver
        self.solver_options = solver_options
        self.time_limit = time_limit
        self.theta_unit = theta_unit
        self.min_literal_rows = min_literal_rows
        self.nan = nan
        self.high_cardinality = high_cardinality
        self.column_kinds = column_kinds
        self.simplify = simplify
        self.polish = polish
        self.prune = prune
        self.class_weight = class_weight
        self.class_order = class_order
        self.monotone = monotone
        self.forbidden_features = forbidden_features
        self.feature_costs = feature_costs
        self.max_literals_per_clause = max_literals_per_clause
        self.model_hook = model_hook

    def _thetas(self, y: Any, sample_weight: Any) -> Any:
        """``thetas``, or for ``"auto"`` the data-scaled path of :func:`theta_path` (on the class-weighted rows)."""
        if isinstance(self.thetas, str) and self.thetas == "auto":
            weights = class_weighted(np.asarray(y), sample_weight, self.class_weight)
            return theta_path(y, weights, n_thetas=self.n_thetas, min_rows=self.min_literal_rows)
        return self.thetas

    def _n_clauses(self, y: Any) -> Any:
        """``n_clauses``, or for ``"auto"``: R = 1, 2, 3, 5 with two classes; R = 2 with more (see the class docstring)."""
        if isinstance(self.n_clauses, str) and self.n_clauses == "auto":
            return defaults.DEFAULT_SEARCH_N_CLAUSES if y is None or count_classes(y) <= 2 else (defaults.DEFAULT_N_CLAUSES,)
        return self.n_clauses

    def _forms(self, y: Any, sample_weight: Any = None) -> Any:
        """``forms``, or for ``"minority"`` the form that describes the smaller class (DNF before ``y`` is known)."""
        if not (isinstance(self.forms, str) and self.forms == "minority"):
            return self.forms
        if y is None or count_classes(y) != 2:
            return ("dnf",)
        return (minority_form(y, sample_weight),)

    def _candidates(self, thetas: Any = None, y: Any = None, sample_weight: Any = None) -> list[dict[str, Any]]:
        """The grid as a list of parameter dicts, simplest first (fewest clauses, largest θ, algorithms and forms in order)."""
        algorithms = _grid_values("algorithms", self.algorithms, "algorithm")
        thetas = _grid_values("thetas", self.thetas if thetas is None else thetas, "theta")
        n_clauses = _grid_values("n_clauses", self._n_clauses(y), "n_clauses")
        forms = _grid_values("forms", self._forms(y, sample_weight), "form")
        return [
            {"algorithm": a, "form": f, "n_clauses": r, "theta": t}
            for r in n_clauses for t in thetas for a in algorithms for f in forms
        ]

    def _base_estimator(self) -> BooleanRuleClassifier:
        return BooleanRuleClassifier(**{name: getattr(self, name) for name in _BASE_PARAMS})

    @staticmethod
    def _decided_columns(base: BooleanRuleClassifier, X: Any) -> BooleanRuleClassifier:
        """``base`` with its column kinds and ID-like columns decided once, on all the rows of ``X``, for every
        fold and the refit.

        A column's kind depends on the rows too (a column of 0, 1 and a few 2s is a flag in a fold without a 2;
        a text column with a few numbers has text categories in a fold without them): the kinds
        (:meth:`~rulemodels.data.FeatureBinarizer.decide_column_kinds`, which keeps those ``column_kinds``
        gives) are passed as ``column_kinds``.

        Whether a column is ID-like depends on the rows (a unique integer column fills a smaller share of its
        range in a training fold than in all the rows; a text column is more nearly unique in a fold): decided
        in each fit, a column could be kept in the folds and left out of the refit, and ``best_score_`` would
        score another model than the one returned. The decision
        (:meth:`~rulemodels.data.FeatureBinarizer.id_like_columns`, one ``IDLikeColumnWarning`` per
        column) is passed as the list ``high_cardinality`` that every fit's binarizer reads, as a
        scikit-learn ``Pipeline`` carries the decisions of its steps. ``'keep'``, or a list, is a decision
        already.
        """
        base = base.set_params(column_kinds=base._make_binarizer().decide_column_kinds(X))
        if base.high_cardinality != "drop":
            return base
        return base.set_params(high_cardinality=base._make_binarizer().id_like_columns(X))

    def _splitter(self) -> Any:
        if self.cv is None or isinstance(self.cv, Integral):
            n_splits = defaults.DEFAULT_SEARCH_CV if self.cv is None else int(self.cv)
            # the same folds on every run: random_state=None shuffles with seed 0 (pass another seed for other folds)
            seed = defaults.DEFAULT_SEED if self.random_state is None else self.random_state
            return StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
        return self.cv

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BooleanRuleCV:
        """Search the grid by cross-validation, then (``refit=True``) refit the best on all of ``X, y``.

        Each training fold gets one :class:`~rulemodels.TrainingWorkspace`,
        shared by every candidate (algorithm, θ, R, form) fitted on it: the fold is
        binarized once and the candidates share clause LPs, set-covering
        starts and LP solutions. Each candidate's rule is the one it would
        learn alone.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Raw or binary features, as for :class:`~rulemodels.BooleanRuleClassifier`:
            a polars or pyarrow DataFrame is converted to pandas once, here.
        y : array-like of shape (n_samples,), or str
            Class labels (more than two: ordered rule lists), or the name of
            the label column of the DataFrame ``X`` (``fit(frame, "label")``).
        sample_weight : array-like of shape (n_samples,), or str, default=None
            Passed to every fit (each fold fit gets its training rows'
            weights) and to the scorer on the test rows when it takes
            ``sample_weight`` (every built-in scorer does), so the CV scores
            are weighted too. When ``y`` names a column, the name of a weight
            column of ``X`` (taken out of the features too).

        Returns
        -------
        self : BooleanRuleCV
            The fitted search (``best_estimator_`` refitted on all of ``X`` when ``refit=True``).

        Raises
        ------
        ValueError
            If ``y`` is None, or ``thetas`` or ``n_clauses`` is a string other than ``'auto'``.
        """
        _clear_fitted(self)  # nothing stale from an earlier fit
        validate_params(self)
        get_backend(self.solver)  # a misspelled or missing solver fails here, before any pass over the data
        X = as_pandas(X)  # a polars or pyarrow DataFrame: converted here, once, for every fold and the refit
        for name, example in (("thetas", "thetas=(0.01, 0.1)"), ("n_clauses", "n_clauses=(1, 2, 3)")):
            if isinstance(getattr(self, name), str) and getattr(self, name) != "auto":
                raise ValueError(f"{name} must be 'auto' or a sequence of values (e.g. {example}), got {getattr(self, name)!r}")
        self._candidates(defaults.DEFAULT_THETAS)  # the other grid parameters, checked before the data
        X, y, sample_weight = columns_as_labels(X, y, sample_weight)  # fit(frame, "label"), as BooleanRuleClassifier
        if y is None:
            raise ValueError("requires y to be passed, but the target y is None")
        check_classification_targets(y)  # before the splitter sees y; the fits check the rest
        candidates = self._candidates(self._thetas(y, sample_weight), y, sample_weight)
        check_input(X)
        base = self._decided_columns(self._base_estimator(), X)
        scorer = check_scoring(base, scoring=self.scoring)
        splits = list(check_cv(self._splitter(), y, classifier=True).split(X, y))
        with _log_level(self.verbose):
            logger.info(
                "BooleanRuleCV: searching %d candidate(s): algorithms %s, θ in %s, R in %s, forms %s, on %d folds",
                len(candidates), list(dict.fromkeys(c["algorithm"] for c in candidates)),
                sorted({c["theta"] for c in candidates}), sorted({c["n_clauses"] for c in candidates}),
                list(dict.fromkeys(c["form"] for c in candidates)), len(splits),
            )
            weigh_scores = sample_weight is not None and _accepts_sample_weight(scorer)
            jobs = [
                delayed(_fit_fold)(base, candidates, scorer, X, y, sample_weight, train, test, weigh_scores)
                for train, test in splits
            ]
            outcomes = Parallel(n_jobs=self.n_jobs, return_as="generator")(jobs)
            folds = list(track(outcomes, len(splits) * len(candidates), "BooleanRuleCV", "fit", step=len(candidates)))
            self.cv_results_ = self._results(candidates, folds)
            self.n_splits_ = len(splits)
            self.scorer_ = scorer
            self.best_index_, self.selection_bar_ = choose_candidate(self.cv_results_, self.selection)
            self.best_params_ = dict(self.cv_results_["params"][self.best_index_])
            self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
            self.theta_ = float(self.best_params_["theta"])
            self.n_clauses_ = int(self.best_params_["n_clauses"])
            self.form_ = str(self.best_params_["form"])
            self.algorithm_ = str(self.best_params_["algorithm"])
            for i, params in enumerate(self.cv_results_["params"]):
                logger.info(
                    "%s θ=%g R=%d form=%s: mean score over %d folds %.4f ± %.4f, %.1f literal(s), rank %d",
                    params["algorithm"], params["theta"], params["n_clauses"], params["form"], self.n_splits_,
                    self.cv_results_["mean_test_score"][i],
                    self.cv_results_["std_test_score"][i], self.cv_results_["mean_n_literals"][i],
                    self.cv_results_["rank_test_score"][i],
                )
            logger.info(
                "chose %s θ=%g R=%d form=%s (mean score %.4f, %.1f literal(s); %s rule, bar %.4f)", self.algorithm_,
                self.theta_, self.n_clauses_, self.form_, self.best_score_,
                self.cv_results_["mean_n_literals"][self.best_index_], self.selection, self.selection_bar_,
            )
            self.baseline_score_ = _majority_score(scorer, X, y, sample_weight, splits, weigh_scores)
            trivial = not self.best_score_ > self.baseline_score_ + 1e-12
            if trivial:
                warnings.warn(
                    f"the chosen candidate's cross-validated score {self.best_score_:.4f} is no better than "
                    f"{self.baseline_score_:.4f}, that of always predicting the training fold's majority class on the "
                    f"same folds: the rule explains nothing the folds can confirm (best_score_, baseline_score_); "
                    "collect more rows or more informative columns, or try class_weight='balanced' with "
                    "scoring='balanced_accuracy' when a class is rare",
                    TrivialRuleWarning, stacklevel=2,
                )
            self.refit_time_ = 0.0
            if self.refit:
                start = time.perf_counter()
                with warnings.catch_warnings():
                    if trivial:  # said once, above, in the terms of the cross-validation
                        warnings.simplefilter("ignore", TrivialRuleWarning)
                    self.best_estimator_ = self._refit(base, candidates, X, y, sample_weight)
                self.refit_time_ = time.perf_counter() - start
                self._mirror(self.best_estimator_)
                logger.info("refitted on all %d samples in %.2f s: %s", np.asarray(y).shape[0], self.refit_time_, self.rule_)
            else:
                validate_data(self, X, skip_check_array=True)
                self.classes_ = np.unique(np.asarray(y))
        return self

    def _refit(
        self, base: BooleanRuleClassifier, candidates: list[dict[str, Any]], X: Any, y: Any, sample_weight: Any,
    ) -> BooleanRuleClassifier:
        """The chosen candidate fitted on all rows, the way the folds fitted it; ``rule_path_`` for a θ path.

        A column generation candidate that the folds learned on a θ path is
        refitted on the same path over all rows (every θ of the grid, its form),
        so that the rule is the one the cross-validation scored; the path's
        rules, training errors and CV scores are kept in ``rule_path_``.
        """
        best = clone(base).set_params(**self.best_params_)
        if self.best_params_["algorithm"] != "cg" or not _path_ready(base):
            return best.fit(X, y, **({} if sample_weight is None else {"sample_weight": sample_weight}))
        frame = to_frame(X, ensure_nonempty=True)
        labels = parse_labels(y, frame.shape[0])
        if labels.n_classes > 2:  # the rule lists' path down to the chosen θ (each list depends on the θ above it only)
            members = [i for i, c in enumerate(candidates) if c["algorithm"] == "cg" and c["form"] == self.form_
                       and c["n_clauses"] == self.n_clauses_]
            walked = [i for i in members if candidates[i]["theta"] >= self.theta_]
            chain, _ = _learn_rule_list_paths(base, [candidates[i] for i in walked], X, y, sample_weight)
            lists = {walked[position]: fitted for position, fitted in chain.items()}
            self.rule_path_ = self._path_frame(candidates, members, {
                i: (fitted.raw_rule_.n_literals, fitted.training_error_, str(fitted.raw_rule_)) for i, fitted in lists.items()
            })
            return lists[self.best_index_]
        weights = class_weighted(labels, sample_weight, base.class_weight)
        members = [i for i, c in enumerate(candidates) if c["algorithm"] == "cg" and c["form"] == self.form_]
        # the path down to the chosen θ: a θ's rule depends only on the θ before it on the path
        walked = [i for i in members if candidates[i]["theta"] >= self.theta_]
        with TrainingWorkspace.from_checked(
            frame, labels, weights, X=X, binarizer=base._make_binarizer(), solver=base.solver,
        ) as workspace:
            paths, _ = _learn_paths(base, [candidates[i] for i in walked], workspace)
            learned = {walked[position]: entry for position, entry in paths.items()}
            best._fit_learned(X, y, sample_weight, workspace, learned[self.best_index_])
            on_path = {}
            for i, entry in learned.items():
                wrong = entry.rule.evaluate_binary(workspace.A, workspace.literals) != (workspace.labels == 1)
                on_path[i] = (entry.rule.n_literals, float(np.average(wrong, weights=workspace.sample_weight)), str(entry.rule))
        self.rule_path_ = self._path_frame(candidates, members, on_path)
        return best

    def _path_frame(
        self, candidates: list[dict[str, Any]], members: list[int], on_path: dict[int, tuple[int, float, str]],
    ) -> pd.DataFrame:
        """``rule_path_``: each member candidate's CV scores and, where the refit walked, ``(literals, training error, rule)``."""
        rows = []
        for i in members:
            n_literals, training_error, rule = on_path.get(i, (np.nan, np.nan, None))
            rows.append({
                "theta": candidates[i]["theta"], "n_clauses": candidates[i]["n_clauses"], "form": self.form_,
                "mean_test_score": float(self.cv_results_["mean_test_score"][i]),
                "std_test_score": float(self.cv_results_["std_test_score"][i]),
                "mean_n_literals": float(self.cv_results_["mean_n_literals"][i]),
                "n_literals": n_literals, "training_error": training_error, "rule": rule, "chosen": i == self.best_index_,
            })
        return pd.DataFrame(rows)

    @staticmethod
    def _results(candidates: list[dict[str, Any]], folds: list[list[_Outcome]]) -> dict[str, Any]:
        """``cv_results_`` in GridSearchCV's layout for one metric, plus the rule sizes, ranked with ties."""
        n_splits = len(folds)
        results: dict[str, Any] = {}
        for field_name, key in (("fit_time", "fit_time"), ("score_time", "score_time")):
            values = np.array([[fold[i][field_name] for fold in folds] for i in range(len(candidates))], dtype=float)
            results[f"mean_{key}"] = values.mean(axis=1)
            results[f"std_{key}"] = values.std(axis=1)
        for name in ("algorithm", "form", "n_clauses", "theta"):
            results[f"param_{name}"] = np.ma.MaskedArray([c[name] for c in candidates], mask=False, dtype=object)
        results["params"] = [dict(c) for c in candidates]
        for field_name, prefix, suffix in (("score", "split", "_test_score"), ("n_literals", "split", "_n_literals")):
            values = np.array([[fold[i][field_name] for fold in folds] for i in range(len(candidates))], dtype=float)
            for k in range(n_splits):
                results[f"{prefix}{k}{suffix}"] = values[:, k]
            label = "test_score" if field_name == "score" else "n_literals"
            results[f"mean_{label}"] = values.mean(axis=1)
            results[f"std_{label}"] = values.std(axis=1)
        means = np.asarray(results["mean_test_score"], dtype=float)
        rounded = np.where(np.isnan(means), -np.inf, np.round(means, _TIE_DECIMALS))
        results["rank_test_score"] = rankdata(-rounded, method="min").astype(np.int32)
        return results

    def _mirror(self, best: BooleanRuleClassifier) -> None:
        for name in _MIRRORED:
            if hasattr(best, name):
                setattr(self, name, getattr(best, name))

    def predict(self, X: Any) -> np.ndarray:
        """Predict with the refitted best rule (``best_estimator_.predict``).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows to predict, as in :meth:`BooleanRuleClassifier.predict`.

        Returns
        -------
        ndarray of shape (n_samples,)
            The class ``best_estimator_.predict`` gives each row.
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    @available_if(_best_estimator_has("predict_proba"))
    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities of the refitted best rule (``best_estimator_.predict_proba``).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the estimator was fitted on.

        Returns
        -------
        numpy.ndarray of shape (n_samples, n_classes)
            Each row's probability of each class of ``classes_``.
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    @available_if(_best_estimator_has("explain"))
    def explain(self, X: Any) -> Any:
        """Why the refitted best rule decided each row (``best_estimator_.explain``).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows, with the columns the estimator was fitted on.

        Returns
        -------
        pandas.DataFrame
            ``best_estimator_.explain(X)``: indexed like ``X``, each row's prediction, rule value, clauses and reason.
        """
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.explain(X)

    def __str__(self) -> str:
        """The refitted best rule (``str(best_estimator_)``), or a note that there is none yet."""
        if hasattr(self, "best_estimator_"):
            return str(self.best_estimator_)
        if hasattr(self, "best_params_"):
            return f"{type(self).__name__} (refit=False; best parameters {self.best_params_})"
        return f"{type(self).__name__} (not fitted)"

    def _repr_html_(self) -> str:
        """For notebooks: the refitted best rule as the estimator shows it, with the chosen algorithm, θ, R and form."""
        import html

        if not hasattr(self, "best_estimator_"):
            return f"<pre>{html.escape(str(self))}</pre>"
        chosen = html.escape(f"chosen by {self.n_splits_}-fold CV: {self.algorithm_}, θ={self.theta_:g}, R={self.n_clauses_}, "
                             f"form={self.form_} (mean score {self.best_score_:.4f})")
        return f"{self.best_estimator_._repr_html_()}<p>{chosen}</p>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        """What Jupyter shows (it asks for this before ``_repr_html_``)."""
        return {"text/plain": repr(self), "text/html": self._repr_html_()}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.nan == "indicator"
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.classifier_tags.multi_class = True  # more than two classes: an ordered rule list
        return tags
