"""The scikit-learn estimator: :class:`BooleanRuleClassifier`."""

from __future__ import annotations

import contextlib
import logging
import sys
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import replace
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils.validation import validate_data

from rulemodels import defaults
from rulemodels._fitted_rule import _FittedRuleMixin
from rulemodels._rule_list_search import fit_rule_list, fit_rule_list_path
from rulemodels.algorithms import FitSpec, LearnedRule, TrainingWorkspace
from rulemodels.algorithms.baseline import majority_baseline, warn_if_trivial, warn_thin_literals
from rulemodels.algorithms.constraints import RuleConstraints
from rulemodels.algorithms.spec import check_solver_solves
from rulemodels.data import (
    FeatureBinarizer,
    ParsedLabels,
    class_weighted,
    columns_as_labels,
    is_stream_input,
    parse_labels,
    read_stream,
)
from rulemodels.data.binarizer import ColumnKindSpec
from rulemodels.rules import (
    PatternRates,
    Rule,
    RuleList,
    SimplifyReport,
    prefer_equality,
    simplify_rule,
)
from rulemodels.utils import (
    PARAMETERS,
    Interval,
    as_pandas,
    no_progress,
    progress_bar,
    resolve_min_rows,
    showing_progress,
    to_frame,
    validate_params,
)
from solvers import get_backend

logger = logging.getLogger(__name__)

__all__ = ["BooleanRuleClassifier", "DEFAULT_THETA", "PAPER_SETTINGS"]

#: Default θ (``theta_unit='fraction'``): a literal must fix DEFAULT_THETA of the
#: training weight to be kept. Measured in docs/theta.md; declared in :mod:`rulemodels.defaults`.
DEFAULT_THETA = defaults.DEFAULT_THETA

#: The estimator settings that reproduce the paper's protocol: θ in the paper's
#: units (misclassified samples) with no floor in rows, and the rule exactly as learned
#: (no simplification), so ``rule_.n_literals`` is the paper's literal count.
PAPER_SETTINGS: dict[str, Any] = {"theta_unit": "sample", "simplify": False, "min_literal_rows": 0}


@contextlib.contextmanager
def _log_level(verbose: bool | int) -> Iterator[None]:
    """Lower the ``rulemodels`` logger to INFO (DEBUG for verbose >= 2) for the duration of a fit.

    ``verbose=-1`` turns the progress bars off as well
    (:func:`rulemodels.utils.showing_progress`); otherwise they are drawn
    after two seconds on a terminal or in a notebook.
    """
    with showing_progress(int(verbose) >= 0):
        if int(verbose) <= 0:
            yield
            return
        package_logger = logging.getLogger("rulemodels")
        previous = package_logger.level
        package_logger.setLevel(logging.DEBUG if int(verbose) >= 2 else logging.INFO)
        try:
            yield
        finally:
            package_logger.setLevel(previous)


def _target_name(y: Any) -> str | None:
    """The name of the labels' column: that of a pandas or (named) polars Series, None for an array or a list."""
    if isinstance(y, pd.Series):
        return None if y.name is None else str(y.name)
    polars = sys.modules.get("polars")  # a polars Series exists only once polars is imported
    if polars is not None and isinstance(y, polars.Series) and y.name:
        return str(y.name)
    return None


#: The fitted attributes whose names do not end in ``_``: the baseline behind the warnings, a rule list's step classes,
#: the two-valued columns the rule reads as equalities (``{column: (a, b)}``; predict warns of a third category).
_PRIVATE_FITTED: tuple[str, ...] = ("_baseline", "_bucket_classes", "_equality_columns")


def _rewritten_columns(raw: Rule, canonical: Rule) -> dict[str, tuple[Any, Any]]:
    """``{column: (a, b)}`` for each ``x != a`` (or ``x not in {a}``) of ``raw`` that
    :func:`~rulemodels.rules.prefer_equality` wrote as ``x == b`` in ``canonical`` (literal by literal, in place)."""
    out: dict[str, tuple[Any, Any]] = {}
    for old_clause, new_clause in zip(raw.clauses, canonical.clauses):
        for old, new in zip(old_clause.literals, new_clause.literals):
            if old != new:
                excluded = old.value if old.op == "!=" else old.value[0]  # type: ignore[index]
                out.setdefault(old.feature, (excluded, new.value))
    return out


def _clear_fitted(estimator: Any, private: tuple[str, ...] = ()) -> None:
    """Delete the fitted attributes of ``estimator``: scikit-learn's (names ending in ``_``) and those of ``private``."""
    for name in [name for name in vars(estimator) if name.endswith("_") and not name.startswith("__")] + list(private):
        estimator.__dict__.pop(name, None)


def _warn_time_limit(rule: Any) -> None:
    """A ``ConvergenceWarning``: the fit stopped at ``time_limit`` with the best rule found so far."""
    trivial = " before any clause was learned: the rule is trivial" if rule.n_literals == 0 else ""
    warnings.warn(
        f"the time limit was reached{trivial}; rule_ is the best rule found so far "
        "(termination_='time_limit'); raise time_limit for a better rule",
        ConvergenceWarning, stacklevel=5,  # the caller of fit (through _set_learned and _fit_on)
    )


class BooleanRuleClassifier(_FittedRuleMixin, ClassifierMixin, BaseEstimator):
    """Interpretable two-level Boolean rule (DNF or CNF) classifier.

    Learns a rule ``ŷ = OR_r AND_{j in C_r} a_j`` (DNF) or
    ``ŷ = AND_r OR_{j in C_r} a_j`` (CNF) over literals such as
    ``glucose > 142.0`` by minimising accuracy cost + ``θ × (number of
    literals)`` (Su, Wei, Varshney, Malioutov). Raw features are binarized by
    quantile thresholds (:class:`~rulemodels.data.FeatureBinarizer`).

    More than two classes: ``fit`` learns an **ordered rule list**
    (:class:`~rulemodels.rules.RuleList`), one step per class and a default
    class: a row gets the class of the first step whose rule holds on it, else
    the default. Step k is a binary rule (this estimator's settings, each
    parameter passed unchanged: form, algorithm, θ, R, ...) learned on the rows
    no earlier step claimed, true for its class; θ with ``theta_unit='fraction'``
    is a share of those rows, ``time_limit`` and ``polish`` are budgets for the
    whole list (each binary fit gets an equal share of what is left), and
    ``form="auto"`` chooses the form of each step. The order and the default are
    chosen by ``class_order``. Every binary fit of a step shares one binarizer,
    fitted on all the rows. ``algorithm="exact"`` stays binary (the exact MIP
    learns one rule) and refuses more than two classes; so do Parquet and Dask
    input and ``workspace=``.

    Parameters
    ----------
    form : {"dnf", "cnf", "auto"}, default="dnf"
        Rule form; a DNF is learned as a CNF on negated features and labels.
        ``"auto"`` fits both on the folds of ``cv`` and keeps the one with the
        lower mean inner-CV error (ties: DNF), then refits it on all of X.
    n_clauses : int, default=2
        R, the number of clauses (terms of a DNF); TLP and AM return fewer when
        a clause would duplicate another or be constant on the training data.
    theta : float, default=0.002
        Sparsity weight θ >= 0, the cost of one literal. With
        ``theta_unit='fraction'`` it is a share of the training set: a literal
        is kept only if it lowers the (weighted) training error rate by more
        than θ, so θ = 0.002 means "fix at least 0.2 % of the rows" whatever n
        (with ``algorithm="cg"`` a clause costs θ more: one literal alone must
        fix 0.4 %). The default was chosen on real tables of 900-10,000 rows
        (``benchmarks/studies/results/real_tables.md``); :class:`~rulemodels.BooleanRuleCV`
        chooses θ along a path scaled to the data.
        The learner's (paper's) θ is ``θ × Σ sample_weight`` (``paper_theta_``);
        see :mod:`rulemodels.algorithms.theta` and ``docs/theta.md``.
    theta_unit : {"fraction", "sample"}, default="fraction"
        ``"sample"``: ``theta`` is the paper's θ, the cost of one literal in
        misclassified samples (its effect then depends on n); used to
        reproduce the paper (:data:`PAPER_SETTINGS`).
    min_literal_rows : float or "auto", default="auto"
        A floor in rows under θ: a literal costs at least this many training
        rows (of mean weight), whatever ``theta`` and ``theta_unit`` say.
        ``"auto"``: ½ ln n on n training rows (2.6 rows on 200 rows, 3.5 on
        1,000, 6.1 on 200,000), the Bayesian information criterion's price of
        one parameter counted in misclassified rows, so that no literal fits
        a handful of rows on small data; it binds below about 1,900 rows at
        the default θ, where θ·n is smaller. With ``thresholds="tree"`` it is
        also the least number of rows a cut leaves on each side. 0: no floor
        (the paper's objective; :data:`PAPER_SETTINGS`). See
        ``docs/theta.md``, "A floor in rows".
    algorithm : {"cg", "am", "bcd", "tlp", "scs", "scn", "exact"}, default="cg"
        Column generation (Dash, Günlük & Wei 2018; the default: as accurate as
        AM on the real tables and several times faster), alternating
        minimization, block coordinate descent, two-level LP relaxation, set
        covering with simple / redundancy-aware binarization, or the exact 0-1
        error MIP (small data only).
    n_thresholds : int, default=9
        Thresholds per numeric column, at most (9 quantiles = deciles).
    thresholds : {"quantile", "tree", "quantile+tree"}, default="tree"
        Where a numeric column's thresholds go. ``"quantile"``: its
        ``n_thresholds`` quantiles (no labels). ``"tree"``: the cut points of a
        one-column classification tree (Gini) with at most ``n_thresholds + 1``
        leaves, fitted on the training labels (and weights): thresholds where
        the classes change, e.g. around a rare class confined to a tail that
        deciles cannot isolate. ``"quantile+tree"``: both. A Parquet or Dask
        fit places the same cuts from per-class counts of each value kept in
        its first pass (``docs/large_data.md``).
    nan : {"indicator", "error"}, default="indicator"
        Missing values (NaN, None) in X. ``"indicator"``: a missing value
        makes every other literal on its column false (``x <= t``, ``x > t``,
        ``x == v``, ``x != v``, ...), and columns with missing values in
        training get ``x is missing`` / ``x is not missing`` literals; the same
        holds in ``predict``, in :meth:`Rule.evaluate` and in saved rules.
        ``"error"``: refuse missing values.
    high_cardinality : {"drop", "keep"} or list of str, default="drop"
        ID-like columns have their values left out with an
        ``IDLikeColumnWarning``: text with (nearly) one distinct value per row
        (IDs, dates as text), and numbers that look like row numbers (at least
        20 distinct integers, one per row, filling at least half of their
        range); a column with missing values keeps its ``x is missing``
        literal. ``"keep"`` uses them; a list names the ID-like columns, a
        decision made already (:class:`~rulemodels.BooleanRuleCV` makes it once
        on all its rows and passes it to its folds and its refit; see
        :class:`~rulemodels.data.FeatureBinarizer`).
    column_kinds : dict of str to ColumnKind or str, default=None
        The kind of each named column (numeric, a 0/1 flag, categorical),
        a decision made already instead of one judged from the training rows
        (:meth:`FeatureBinarizer.decide_column_kinds
        <rulemodels.data.FeatureBinarizer.decide_column_kinds>`):
        :class:`~rulemodels.BooleanRuleCV` decides it once on all its rows
        and passes it to its folds and its refit, so that a column of 0, 1
        and a few 2s is not a flag in one fold and numeric in another. None
        judges every column from the rows (see
        :class:`~rulemodels.data.FeatureBinarizer`).
    simplify : bool, default=True
        Simplify the learned rule without changing any prediction, missing
        values included (:func:`rulemodels.rules.simplify_rule`): implied literals dropped,
        thresholds merged into intervals, category literals merged into sets,
        dead, always-true, duplicate and implied clauses dropped, intervals of
        one column merged across terms (``(0.5 < a <= 1.3) OR (a > 1.3)`` is
        ``a > 0.5``) and a clause's literals that other clauses rule out
        dropped (``(u <= 0.3 OR u > 0.5) AND (u > 0.3)`` is ``u > 0.5``).
        Before that, a column with two categories ``a`` and ``b`` in
        training reads as ``x == b``, never ``x != a``
        (:func:`rulemodels.rules.prefer_equality`): the learner saw them as
        one column; they agree on ``a``, ``b`` and missing values, and only a
        category unseen in training, which makes ``x != a`` true, makes
        ``x == b`` false (``predict``, ``predict_proba`` and ``explain`` warn of
        such a category with an ``UnseenCategoryWarning`` naming the column).
        ``rule_`` is the simplified rule, ``raw_rule_`` the learned one.
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
        Wall-clock seconds for the algorithm: the heuristic stops with the
        best rule so far (``termination_ = "time_limit"``, with a
        ``ConvergenceWarning``); ``algorithm="exact"`` spends at most half of
        them on its start heuristic and the rest on building and solving the
        MIP (returning its incumbent, or the start when what is left cannot
        build the MIP). Binarizing the data and polishing (``polish``) are not
        counted. A rule list (more than two classes) shares it out among its
        binary fits and, once it is spent, tries one class per step. None
        (the default): no wall-clock limit, so the same data give the same
        rule on a busy and an idle machine.
    polish : bool or float, default=False
        MIP polishing after the heuristic (any ``algorithm`` but ``"exact"``):
        the exact 0-1 error MIP with R = the learned rule's clauses is
        warm-started from the learned rule (HiGHS, CBC; GLPK starts cold) and
        runs for this many seconds (``True``: 10 s,
        ``defaults.DEFAULT_POLISH_TIME_LIMIT``); the rule with the lower 0-1
        training objective (weighted training errors + θ × literals) is kept,
        so polishing never makes that objective worse. The seconds cover
        building the MIP and solving it, after the ``time_limit``: when they
        are below the estimated cost of building it (from its size),
        polishing is skipped (``polish_report_.built`` is False, its
        termination ``"time_limit"``). A rule list shares the seconds out
        among its binary fits. See ``polished_``, ``polish_bound_``,
        ``polish_gap_`` and ``docs/polishing.md``.
    prune : bool, default=True
        Exact pruning after the algorithm (and after polishing): remove, one
        at a time, the literal or whole clause whose removal gives the lowest
        0-1 training objective (weighted training errors + θ × literals, with
        ``feature_costs``), as long as it is no higher than before; a rule
        left constant on the training rows becomes the better constant. It
        never raises that objective, and removal keeps every built-in
        constraint; it is skipped with a ``model_hook`` (whose constraints it
        cannot know). See ``prune_report_`` and ``docs/theta.md``. False: the
        algorithm's rule as the paper learns it (the paper protocol's
        experiments never prune).
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplied into ``sample_weight`` as in
        scikit-learn: ``{label: weight}`` (classes left out weigh 1), or
        ``"balanced"``, ``n / (n_classes × rows of the class)``, which makes
        each class weigh the same in the accuracy cost. ``training_error_``,
        ``baseline_error_`` and θ (a share of the total weight) are then in
        these weights; ``score`` is not.
    class_order : {"error", "rarest"}, default="error"
        More than two classes only: how the rule list orders its steps.
        ``"error"``: greedily, at each step every class not yet placed is
        fitted on the rows no earlier step claimed, and the one whose step
        gives the lowest weighted training error, counting the rest of the
        rows as predicted by the best default among the classes left, is kept
        (``K(K+1)/2 - 1`` binary fits for K classes; ``order_search_`` holds
        each step's errors). ``"rarest"``: the rarest class (by weight) first,
        the most frequent last as the default (``K - 1`` fits).
    monotone : dict, default=None
        ``{column: +1 | -1}``: with +1 the rule may use the column only
        through literals that make it true for more rows as the value grows
        (``x > t``), with -1 only the reverse (``x <= t``), in a DNF and a CNF
        alike; ``x is missing`` / ``x is not missing`` stay allowed (a missing
        value is not in the column's order). Numeric and 0/1 columns only.
        Every algorithm honours it, and the domain constraints below
        (``docs/constraints.md``).
    forbidden_features : list of str, default=None
        Columns the rule must not use at all (protected attributes, costly tests).
    feature_costs : dict, default=None
        ``{column: cost >= 0}``: each literal of the column costs ``cost × θ``
        instead of θ (0: free); other columns cost 1.
    max_literals_per_clause : int, default=None
        At most this many literals in every clause (term of a DNF).
    model_hook : callable, default=None
        For Pyomo users: ``model_hook(handle, info)`` is called once on every
        Pyomo model the fit builds, before its first solve, and may add
        constraints on ``handle.model.w``; ``info``
        (:class:`rulemodels.algorithms.constraints.HookInfo`) says which model
        (``info.kind``) and which literal each feature index is
        (``info.literals``). Exact in the ``exact`` MIP and in polishing; the
        LP heuristics hold it in their LPs, but their rounding knows only the
        constraints above (a warning names a hook constraint the rounded rule
        breaks; ``docs/constraints.md``).
    cv : int or cross-validation splitter, default=5
        Inner folds of ``form="auto"`` (unused otherwise). An int means
        ``StratifiedKFold(cv)``, shuffled with ``random_state`` when one is given.
    random_state : int, RandomState or None, default=None
        Shuffles the inner folds of ``form="auto"``; the algorithms themselves
        are deterministic.
    verbose : bool or int, default=False
        Log progress (INFO; DEBUG with 2) through the ``rulemodels`` logger.
        Whatever it is, long work (more than two seconds: iterations, rule
        list steps, the exact MIP's incumbent and bound) shows a progress bar
        on a terminal or in a Jupyter notebook, never in a pipe or a log file;
        ``verbose=-1`` turns the bars off too (the user guide's command-line page, "Progress and verbosity").

    Attributes
    ----------
    rule_ : Rule or RuleList
        The rule over the original column names (true = ``classes_[1]``),
        simplified when ``simplify=True``; with more than two classes the
        ordered rule list of the simplified step rules.
    raw_rule_ : Rule
        The rule as the learner produced it; ``raw_rule_.n_literals`` is the
        paper's literal count. Predicts exactly as ``rule_``.
    simplification_ : rulemodels.rules.SimplifyReport
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
    classes_ : ndarray of shape (n_classes,)
    steps_ : list of BooleanRuleClassifier (only with more than two classes)
        The fitted binary estimator of each step (its rule true for the step's
        class, learned on the rows earlier steps left), in the list's order.
    class_order_ : list (only with more than two classes)
        The classes in the list's order: the step classes, then the default.
    order_search_ : list of dict (only with more than two classes)
        For each step of ``class_order="error"``, ``{class: weighted training
        error}`` of every class tried there (empty with ``"rarest"``).
    class_rates_ : rulemodels.rules.ClassRates (only with more than two classes)
        Training class frequencies per step bucket, behind :meth:`predict_proba`.
    binarizer_ : FeatureBinarizer
    n_features_in_ : int
    feature_names_in_ : ndarray of str (only for DataFrame input)
    n_iter_ : int
        BCD/AM iterations executed (the last one may find no improvement); 1 for SCS, SCN, TLP and exact.
    history_ : list of float
        Objective after the initialisation and after each accepted iteration
        (the Hamming objective for SC/BCD/AM).
    objective_ : float
        The algorithm's objective at the rule; with ``polish``, or when
        pruning removed something, the 0-1 objective (weighted training
        errors + paper θ × literals) of the rule returned.
    polished_ : bool (only with ``polish``)
        Whether the polishing MIP found a better rule than the heuristic (``rule_`` is then the MIP's).
    polish_bound_, polish_gap_ : float or None (only with ``polish``)
        The MIP's proven lower bound on the 0-1 objective of any rule with as
        many clauses, and ``(objective_ − polish_bound_) / objective_``: how far
        ``rule_`` can at most be from optimal (0: proved optimal; None when the
        solver proved no bound, or the rule had no clause to polish).
    polish_report_ : PolishReport or None (only with ``polish``)
        Everything polishing reported (start objective, termination, solver,
        seconds; :class:`rulemodels.algorithms.polish.PolishReport`).
    prune_report_ : PruneReport or None
        What pruning did (literals and clauses removed, the 0-1 objective
        before and after; :class:`rulemodels.algorithms.prune.PruneReport`);
        None with ``prune=False`` or a ``model_hook``.
    termination_ : str
        Why the algorithm stopped. A rule list's: the worst of its binary
        fits' (kept or not), in the order of
        :func:`rulemodels.algorithms.result.worst_termination`, and
        ``"time_limit"`` when the time limit cut its search short.
    n_solves_, n_builds_ : int
        LP/MIP solves and model builds of this fit. Both can be 0 when the
        fit was handed a ``workspace`` on which earlier fits built the
        models and solved the same LPs (see ``n_reused_``).
    n_reused_ : int
        Clause-LP solutions (and set-covering clauses) this fit re-used
        instead of solving: repeated LPs within the fit, or LPs an earlier
        fit on the same workspace solved (:mod:`rulemodels.algorithms.training`).
    solver_seconds_ : float
        Wall time of this fit's LP/MIP solves (polishing not included): the
        rest of the fit's time is binarization, model building and Python.
    form_ : {"dnf", "cnf"}
        The form learned (the chosen one with ``form="auto"``).
    form_cv_errors_ : dict (only with ``form="auto"``)
        ``{"dnf": [...], "cnf": [...]}``, the inner-CV error of each fold.
    complexity_ : dict
        ``{"n_clauses": ..., "n_literals": ..., "n_conditions": ..., "n_features": ...}``
        of ``rule_``: clauses, literals (a set literal counts once), conditions
        as printed (an interval ``3 < x <= 7`` counts once) and distinct source
        features. The paper's count is ``raw_rule_.n_literals``.
    pattern_rates_ : rulemodels.rules.PatternRates
        The training positive rate per pattern of clause outputs, behind
        :meth:`predict_proba` (``pattern_rates_.to_frame()`` shows it).
    target_name_ : str or None
        The name of ``y`` when it was a named pandas Series (used by ``str``).
    n_samples_seen_, n_patterns_ : int (only for Parquet or Dask input)
        The rows read, and the distinct (binary pattern, label) groups the
        rule was learned from (``docs/large_data.md``); ``training_error_``
        is that of all the rows.
    sampled_thresholds_ : list of str (only for Parquet or Dask input)
        The numeric columns with more distinct values than
        ``rulemodels.defaults.STREAM_EXACT_DISTINCT`` whose thresholds come
        from a uniform sample (approximate: its quantiles, or with label-aware
        ``thresholds`` the cuts placed from its per-class weights); empty when
        every threshold is the one of the in-memory fit.

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

    # fitted attributes set across methods (declared for type checkers; not set until fit)
    rule_: Rule
    raw_rule_: Rule
    _baseline: Any
    simplification_: SimplifyReport
    form_: str
    n_iter_: int
    n_solves_: int
    n_builds_: int
    n_reused_: int
    solver_seconds_: float
    objective_: float
    paper_theta_: float
    termination_: str

    _parameter_constraints: dict = {
        **PARAMETERS,  # the rules of the shared parameters (theta, n_clauses, ...), declared once
        "cv": [Interval(Integral, 2, None, closed="left"), "cv_object"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        *,
        form: str = defaults.DEFAULT_FORM,
        n_clauses: int = defaults.DEFAULT_N_CLAUSES,
        theta: float = defaults.DEFAULT_THETA,
        theta_unit: str = defaults.DEFAULT_THETA_UNIT,
        min_literal_rows: float | str = defaults.DEFAULT_MIN_LITERAL_ROWS,
        algorithm: str = defaults.DEFAULT_ALGORITHM,
        n_thresholds: int = defaults.DEFAULT_N_THRESHOLDS,
        thresholds: str = defaults.DEFAULT_THRESHOLDS,
        nan: str = defaults.DEFAULT_NAN,
        high_cardinality: str | list[str] = defaults.DEFAULT_HIGH_CARDINALITY,
        column_kinds: Mapping[str, ColumnKindSpec] | None = None,
        simplify: bool = defaults.DEFAULT_SIMPLIFY,
        allow_disable: bool = defaults.DEFAULT_ALLOW_DISABLE,
        disable_cost: float = defaults.DEFAULT_DISABLE_COST,
        max_iter: int = defaults.DEFAULT_MAX_ITER,
        solver: Any = defaults.DEFAULT_SOLVER,
        solver_options: dict | None = None,
        time_limit: float | None = None,
        polish: bool | float = defaults.DEFAULT_POLISH,
        prune: bool = defaults.DEFAULT_PRUNE,
        class_weight: Any = defaults.DEFAULT_CLASS_WEIGHT,
        class_order: str = defaults.DEFAULT_CLASS_ORDER,
        monotone: dict | None = defaults.DEFAULT_MONOTONE,
        forbidden_features: Any = defaults.DEFAULT_FORBIDDEN_FEATURES,
        feature_costs: dict | None = defaults.DEFAULT_FEATURE_COSTS,
        max_literals_per_clause: int | None = defaults.DEFAULT_MAX_LITERALS_PER_CLAUSE,
        model_hook: Any = defaults.DEFAULT_MODEL_HOOK,
        cv: Any = defaults.DEFAULT_CV,
        random_state: Any = None,
        verbose: bool | int = False,
    ):
        self.form = form
        self.n_clauses = n_clauses
        self.theta = theta
        self.theta_unit = theta_unit
        self.min_literal_rows = min_literal_rows
        self.algorithm = algorithm
        self.n_thresholds = n_thresholds
        self.thresholds = thresholds
        self.nan = nan
        self.high_cardinality = high_cardinality
        self.column_kinds = column_kinds
        self.simplify = simplify
        self.allow_disable = allow_disable
        self.disable_cost = disable_cost
        self.max_iter = max_iter
        self.solver = solver
        self.solver_options = solver_options
        self.time_limit = time_limit
        self.polish = polish
        self.prune = prune
        self.class_weight = class_weight
        self.class_order = class_order
        self.monotone = monotone
        self.forbidden_features = forbidden_features
        self.feature_costs = feature_costs
        self.max_literals_per_clause = max_literals_per_clause
        self.model_hook = model_hook
        self.cv = cv
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *, workspace: TrainingWorkspace | None = None) -> BooleanRuleClassifier:
        """Learn the rule from features ``X`` (raw or binary) and binary labels ``y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features), path, or Dask DataFrame
            A pandas DataFrame, or a polars (eager, or a ``LazyFrame``,
            collected) or pyarrow DataFrame, or any object with
            ``__arrow_c_stream__`` or ``__dataframe__``: converted to pandas
            once, with its column names and dtypes (needs pyarrow; see
            :func:`rulemodels.utils.as_pandas`). A path (str or
            os.PathLike) to a Parquet file or a directory of them is read
            in record batches; a Dask DataFrame partition by
            partition, on the workers of the active ``distributed`` client.
            Both are collapsed to weighted distinct binary patterns, with the
            same result as the in-memory fit on the same rows, label-aware
            thresholds included (placed from per-class counts of each value;
            ``docs/large_data.md``; needs the ``large`` extra: pyarrow, dask). A directory whose files
            differ in columns or types is read under their unified schema (a
            column absent from a file is missing in its rows, with a
            ``ParquetSchemaWarning``; types no one type holds are refused);
            empty files and empty Dask partitions are skipped.
        y : array-like of shape (n_samples,), or str
            Class labels (strings or numbers; more than two classes learn an
            ordered rule list, see the class docstring), or the name of the
            label column of ``X`` (a DataFrame, a Parquet path or a Dask
            DataFrame): ``fit(frame, "label")`` learns from the other columns.
            For a Dask DataFrame also an aligned Dask Series.
        sample_weight : array-like of shape (n_samples,), or str, optional
            Multiplied by ``class_weight``. When ``y`` names a column, the name
            of a weight column of ``X`` (taken out of the features too); for a
            Dask DataFrame also an aligned Dask Series.
        workspace : TrainingWorkspace, optional
            The shared work of several fits on this same ``(X, y,
            sample_weight)`` (binarizer, models, LP solutions), built with
            this estimator's binarization settings and solver; the result is
            the same as without it. Without one, the fit builds its own and
            releases it before returning.

        Returns
        -------
        self : BooleanRuleClassifier
            The fitted estimator.

        Raises
        ------
        ValueError
            If ``workspace`` is given with Parquet or Dask data, or with ``y`` of more than two classes.
        """
        self._reset_fitted()
        validate_params(self)
        spec = self._fit_spec()  # the recipe, built once for this fit
        # the solver resolved (a SolverNotFoundError for a misspelled or missing one) before any pass over the data;
        # a given workspace has its own, which check_fit_inputs compares with this one by name
        backend = get_backend(self.solver) if workspace is None else self.solver
        stream = is_stream_input(X)  # a Parquet path or a Dask DataFrame: read in chunks (docs/large_data.md)
        if stream and workspace is not None:
            raise ValueError("workspace= is for in-memory data: a fit on a Parquet path or a Dask DataFrame builds its own")
        check_solver_solves(spec.algorithm, backend if workspace is None else workspace.backend)
        if stream:
            return self._fit_stream(X, y, sample_weight, spec, backend)
        X = as_pandas(X)  # a polars or pyarrow DataFrame: converted here, once, with its names and dtypes
        X, y, sample_weight = columns_as_labels(X, y, sample_weight)  # fit(frame, "label"), as for Parquet and Dask
        # X checked first (scikit-learn's order: an empty X is refused as such), then y parsed, each once for the fit
        frame = to_frame(X, ensure_nonempty=True) if workspace is None else workspace.frame_of(X)
        labels = parse_labels(y, frame.shape[0], stacklevel=2)
        if labels.n_classes > 2:
            if workspace is not None:
                raise ValueError(
                    "workspace= holds a two-class problem, but y has more than two classes: fit without workspace= "
                    "(BooleanRuleClassifier then learns an ordered rule list, each step on a workspace of its own)"
                )
            with _log_level(self.verbose):
                return fit_rule_list(self, X, frame, labels, sample_weight, _target_name(y))
        if workspace is None:
            with TrainingWorkspace.from_checked(
                frame, labels, class_weighted(labels, sample_weight, self.class_weight), X=X,
                binarizer=self._make_binarizer(), solver=backend,
            ) as own:
                return self._fit_on(own, X, y, spec)
        return self._fit_on(self._checked_workspace(workspace, frame, labels, sample_weight), X, y, spec)

    def _checked_workspace(
        self, workspace: TrainingWorkspace, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: Any,
    ) -> TrainingWorkspace:
        """``workspace``, once it is checked to hold this fit's data and settings (``class_weight`` applied here)."""
        weights = class_weighted(labels, sample_weight, self.class_weight)
        workspace.check_parsed_inputs(frame, labels, weights, self._make_binarizer(), self.solver)
        return workspace

    def _fit_spec(self) -> FitSpec:
        """The recipe of a fit with this estimator's parameters (θ in ``theta_unit``, polishing in seconds)."""
        return FitSpec.from_params(self.get_params())

    def _reset_fitted(self) -> None:
        """Forget every fitted attribute (those ending in ``_``, and the private ones a fit sets): nothing stale
        from an earlier fit survives a refit with other parameters or other data."""
        _clear_fitted(self, _PRIVATE_FITTED)

    def _fit_learned(self, X: Any, y: Any, sample_weight: Any, workspace: TrainingWorkspace, learned: LearnedRule) -> BooleanRuleClassifier:
        """Fit with a rule already learned on ``workspace`` (a θ path's entry): everything a fit does but the learning.

        ``learned`` must come from ``workspace`` with this estimator's form,
        algorithm, θ and R (:meth:`TrainingWorkspace.learn_path`); the fitted
        attributes are then those of a fit that learned it.
        """
        self._reset_fitted()
        validate_params(self)
        frame = workspace.frame_of(X)
        labels = parse_labels(y, frame.shape[0], stacklevel=3)
        return self._fit_on(self._checked_workspace(workspace, frame, labels, sample_weight), X, y, self._fit_spec(), learned)

    def _fit_stream(self, X: Any, y: Any, sample_weight: Any, spec: FitSpec, backend: Any) -> BooleanRuleClassifier:
        """Fit on a Parquet path or a Dask DataFrame: the fit on its weighted distinct patterns.

        :func:`rulemodels.data.read_stream` reads the data in two passes (the
        binarizer from per-column summaries, then the distinct (binary pattern,
        label) groups with summed weights); the ordinary fit then runs on one
        row per group with the binarizer as fitted. The clause LPs group
        identical rows anyway, so this is the fit on all the rows: the
        weights are normalised over the rows (``n_rows``), the tie-break is
        converted to the mean weight of a group, and ``training_error_`` and
        ``objective_`` are those of all the rows.
        """
        if self.form == "auto":
            raise ValueError(
                "form='auto' needs the rows for its inner cross-validation, which a Parquet or Dask fit does not keep: "
                "fit form='dnf' and form='cnf' and compare them on held-out data"
            )
        with _log_level(self.verbose):  # a log line per pass at verbose
            data = read_stream(X, y, sample_weight, binarizer=self._make_binarizer(), class_weight=self.class_weight)
        # The tie-break is in units of the mean weight of a workspace row, here a group of n_samples / n_patterns rows.
        tie_break = defaults.DEFAULT_TIE_BREAK * data.n_patterns / data.n_samples
        frame = to_frame(data.X, ensure_nonempty=True)
        labels = parse_labels(data.y, frame.shape[0])
        weights = class_weighted(labels, data.sample_weight, self.class_weight, class_counts=data.class_counts)
        with TrainingWorkspace.from_checked(
            frame, labels, weights, X=data.X, binarizer=data.binarizer, solver=backend, tie_break=tie_break,
            fit_binarizer=False, n_rows=data.n_samples,
        ) as workspace:
            self._fit_on(workspace, data.X, data.y, spec)
        self.n_samples_seen_ = data.n_samples
        self.n_patterns_ = data.n_patterns
        self.sampled_thresholds_ = list(data.approximate)
        logger.info("fitted on %d rows as %d distinct patterns", data.n_samples, data.n_patterns)
        return self

    def _fit_rule_list_path(self, X: Any, y: Any, sample_weight: Any, thetas: Any) -> dict[float, BooleanRuleClassifier]:
        """Rule lists for every θ of ``thetas`` at once, ``{θ: fitted clone}`` (:func:`rulemodels._rule_list_search.fit_rule_list_path`)."""
        self._reset_fitted()
        frame = to_frame(X, ensure_nonempty=True)
        labels = parse_labels(y, frame.shape[0], stacklevel=3)
        with _log_level(self.verbose):
            return fit_rule_list_path(self, X, frame, labels, sample_weight, thetas, _target_name(y))

    def _make_binarizer(self) -> FeatureBinarizer:
        """The (unfitted) binarizer of this estimator's settings: the one place they are read."""
        return FeatureBinarizer(
            n_thresholds=self.n_thresholds, thresholds=self.thresholds, nan=self.nan, high_cardinality=self.high_cardinality,
            min_leaf_rows=self.min_literal_rows, column_kinds=self.column_kinds,
        )

    def _fit_on(
        self, workspace: TrainingWorkspace, X: Any, y: Any, spec: FitSpec, learned: LearnedRule | None = None,
    ) -> BooleanRuleClassifier:
        """The fit on ``workspace`` by the recipe ``spec`` (the form chosen first with ``form="auto"``), or with
        the rule ``learned`` already learned on it; then the fitted attributes."""
        validate_data(self, X, skip_check_array=True)
        self.classes_ = workspace.classes
        self.target_name_ = _target_name(y)
        with _log_level(self.verbose):
            if logger.isEnabledFor(logging.INFO):  # counting the distinct patterns is a pass over the rows
                logger.info("%s", workspace.binarization_summary())
            self.binarizer_ = workspace.binarizer
            self.form_ = self._choose_form(workspace) if self.form == "auto" else self.form
            spec = replace(spec, form=self.form_)
            labels, weights = workspace.labels, workspace.sample_weight
            if learned is None:
                learned = workspace.learn(spec)  # the one path from a recipe to a rule (the experiments take it too)
            assert learned.theta is not None  # learn and learn_path set it: the fit's θ as the learner's, converted once
            self.paper_theta_ = learned.theta
            self._set_learned(learned, spec)
            self._finish_rule(labels, weights, spec.constraints)  # simplification and baseline
            clause_values = self.rule_.clause_outputs_binary(workspace.A, workspace.literals)
            self.pattern_rates_ = PatternRates.fit(clause_values, self.rule_.reduce(clause_values), labels, weights)
            self.training_error_ = warn_if_trivial(  # the caller of fit (through _fit_on; warn_if_trivial adds its own)
                self.rule_.reduce(clause_values), labels, weights, self._baseline, self.classes_, stacklevel=3,
            )
            warn_thin_literals(  # a kept literal that rests on fewer rows than the floor (docs/theta.md)
                self.raw_rule_, workspace.A, workspace.literals, weights, workspace.n_rows,
                resolve_min_rows(self.min_literal_rows, workspace.n_rows), stacklevel=3,
            )
        self.complexity_ = self.rule_.complexity()
        return self

    def _finish_rule(self, labels: np.ndarray, weights: np.ndarray, constraints: RuleConstraints | None = None) -> None:
        """Keep the learned rule as ``raw_rule_``, simplify it into ``rule_``, and compute the baseline.

        Simplification only removes or merges literals of one column (never
        against a monotone direction: the union or intersection of rising
        literals rises), so a simplified rule meets the constraints the
        learned one met; should it not, the learned rule is kept as ``rule_``
        (it predicts the same), so a returned rule never breaks them.

        Before simplifying, a column with two categories in training reads as
        an equality (:func:`rulemodels.rules.prefer_equality`: ``x != no`` as
        ``x == yes``, the same column of the binary matrix, which the learner
        picked by a tie), so every fit writes such a column the same way.
        """
        self.raw_rule_ = self.rule_
        self._equality_columns: dict[str, tuple[Any, Any]] = {}
        if self.simplify:
            canonical, equalities = prefer_equality(self.raw_rule_, self.binarizer_.literals_)
            self._equality_columns = _rewritten_columns(self.raw_rule_, canonical)
            self.rule_, report = simplify_rule(canonical)
            self.simplification_ = SimplifyReport(
                self.raw_rule_.n_literals, self.rule_.n_literals, report.removed_clauses,
                equalities + report.rewritten_clauses,
            )
            broken = [] if constraints is None else constraints.violations(self.rule_)
            if broken:
                logger.warning("the simplified rule broke the constraints (%s); keeping the learned rule", "; ".join(broken))
                self.rule_ = self.raw_rule_
                self.simplification_ = SimplifyReport(self.raw_rule_.n_literals, self.raw_rule_.n_literals)
                self._equality_columns = {}
        else:
            self.simplification_ = SimplifyReport(self.raw_rule_.n_literals, self.raw_rule_.n_literals)
        self._baseline = majority_baseline(labels, weights)
        self.baseline_error_ = self._baseline.error
        self.baseline_class_ = self._baseline.label

    def _choose_form(self, workspace: TrainingWorkspace) -> str:
        """``form='auto'``: the form with the lower inner-CV error (weighted misclassification rate); ties go to DNF.

        Each inner fold gets one workspace, shared by the DNF and the CNF fit.
        Fills ``form_cv_errors_ = {"dnf": [...], "cnf": [...]}`` (one error per fold).
        """
        frame, labels, weights = workspace.frame, workspace.labels, workspace.sample_weight
        splitter = self.cv
        if isinstance(splitter, Integral):
            splitter = StratifiedKFold(n_splits=splitter, shuffle=self.random_state is not None, random_state=self.random_state)
        splitter = check_cv(splitter, labels, classifier=True)
        errors: dict[str, list[float]] = {"dnf": [], "cnf": []}
        bar = progress_bar(2 * splitter.get_n_splits(frame, labels), "form='auto'", "fit")  # drawn after two seconds
        for k, (train, test) in enumerate(splitter.split(frame, labels)):
            X_train = frame.iloc[train]
            with TrainingWorkspace(
                X_train, labels[train], weights[train], binarizer=self._make_binarizer(), solver=workspace.backend,
            ) as inner_workspace:
                for form in errors:
                    inner = clone(self).set_params(form=form, verbose=False)
                    with no_progress():  # inside this bar
                        inner.fit(X_train, labels[train], sample_weight=weights[train], workspace=inner_workspace)
                    bar.update(1)
                    wrong = inner.predict(frame.iloc[test]) != labels[test]
                    errors[form].append(float(np.average(wrong, weights=weights[test])))
            logger.info("form='auto', fold %d: inner-CV error dnf %.4f, cnf %.4f", k + 1, errors["dnf"][-1], errors["cnf"][-1])
        bar.close()
        self.form_cv_errors_ = errors
        chosen = "cnf" if np.mean(errors["cnf"]) < np.mean(errors["dnf"]) else "dnf"
        logger.info("form='auto' chose %s (mean inner-CV error dnf %.4f, cnf %.4f)", chosen, np.mean(errors["dnf"]), np.mean(errors["cnf"]))
        return chosen

    def _set_learned(self, learned: LearnedRule, spec: FitSpec) -> None:
        self.rule_ = learned.rule
        self.objective_ = float(learned.objective) if learned.objective is not None else float("nan")
        self.history_ = list(learned.history)
        self.n_iter_ = int(learned.n_iter)
        self.termination_ = learned.termination
        self.n_solves_ = int(learned.n_solves)
        self.n_builds_ = int(learned.n_builds)
        self.n_reused_ = int(learned.n_reused)
        self.solver_seconds_ = float(learned.solver_seconds)
        if spec.algorithm == "exact":
            self.exact_bound_ = learned.exact_bound
        if spec.polish is not None:
            report = learned.polish
            self.polish_report_ = report
            self.polished_ = bool(report is not None and report.polished)
            self.polish_bound_ = None if report is None else report.bound
            self.polish_gap_ = None if report is None else report.gap
        self.prune_report_ = learned.prune
        if self.termination_ == "time_limit":
            _warn_time_limit(self.rule_)
        logger.info("learned %s rule: %s (%s after %d iterations)", self.form_.upper(), self.rule_, self.termination_, self.n_iter_)

    def __str__(self) -> str:
        """The rule, for the positive class: ``outcome = 1 when (glucose > 142.0 AND ...) OR (...)``.

        Before ``fit``, the parameter repr, as for any scikit-learn estimator.
        """
        if not hasattr(self, "rule_"):
            return super().__repr__()
        if isinstance(self.rule_, RuleList):
            return self.rule_.to_text(self.target_name_ or "class")
        target = f"{self.target_name_} = {self.classes_[1]}" if self.target_name_ else f"class {self.classes_[1]}"
        return f"{target} when {self.rule_}"

    def __repr__(self, N_CHAR_MAX: int = 700) -> str:
        """scikit-learn's parameter repr; once fitted, followed by ``# <the rule for the positive class>``."""
        text = super().__repr__(N_CHAR_MAX)
        return f"{text}  # {str(self).replace(chr(10), ' ')}" if hasattr(self, "rule_") else text

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.nan == "indicator"
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.classifier_tags.multi_class = True  # more than two classes: an ordered rule list
        return tags
