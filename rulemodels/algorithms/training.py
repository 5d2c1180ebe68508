"""One explicit workspace per training set: the work several fits on it share.

Choosing θ, R, the form or the algorithm means fitting the same training
set many times. Each of those fits would binarize the data, build the same
clause LPs and solve many of the same LPs again. A :class:`TrainingWorkspace`
does that once, for one ``(X, y, sample_weight)``, one binarization and one
solver backend, and every fit handed it re-uses it:

- the fitted :class:`~rulemodels.FeatureBinarizer` and the binary matrix;
- per form (and clause-disabling setting), a
  :class:`~rulemodels.algorithms.LPSolutionCache`: the redundancy-aware
  binarizer of that data, the persistent clause LPs and TLP relaxation on the
  backend, the set-covering clauses per θ, and the solutions of every clause
  LP solved so far, keyed by the LP's content.

Nothing is shared behind the caller's back: a workspace is an object you
build, pass and close (it is a context manager; closing releases the solver
instances), and a fit's result is exactly what it would be with a fresh
workspace, whatever else ran on it before (see
:mod:`rulemodels.algorithms.lp_cache`). :class:`~rulemodels.BooleanRuleClassifier`
builds a private one per ``fit`` unless it is given one
(``fit(X, y, workspace=ws)``); :class:`~rulemodels.BooleanRuleCV`,
``form="auto"`` and the experiment runner build one per training fold.

Examples
--------
>>> from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
>>> X, y = load_dataset("pima")
>>> with TrainingWorkspace(X, y) as ws:                                   # doctest: +SKIP
...     rules = {theta: BooleanRuleClassifier(theta=theta).fit(X, y, workspace=ws).rule_
...              for theta in (0.01, 0.1, 1.0)}
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from rulemodels import defaults
from rulemodels.algorithms.column_generation import column_generation_path
from rulemodels.algorithms.constraints import HookInfo, RuleConstraints
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.exact import START_ALGORITHMS, START_SHARE, solve_exact_problem
from rulemodels.algorithms.exact import constant_rule as _constant_rule
from rulemodels.algorithms.lp_cache import LPSolutionCache, _ClosedOnExit
from rulemodels.algorithms.polish import PolishReport, polish_build_seconds, polish_rule, rule_weights
from rulemodels.algorithms.prune import prune_rule
from rulemodels.algorithms.result import ExactInfo, FitResult, LearnedRule, Termination
from rulemodels.algorithms.rounding import tautological_clauses
from rulemodels.algorithms.run import ALGORITHMS, CG_SETTINGS, learn
from rulemodels.algorithms.spec import FitSpec, check_solver_solves
from rulemodels.algorithms.theta import paper_theta
from rulemodels.data import FeatureBinarizer, ParsedLabels, check_sample_weight, parse_labels
from rulemodels.defaults import DEFAULT_TIE_BREAK
from rulemodels.models import unique_rows
from rulemodels.models.objectives import hamming_objective, zero_one_objective
from rulemodels.models.problem import CNFProblem
from rulemodels.rules import Literal, Rule
from rulemodels.utils import as_pandas, fill_doc, resolve_min_rows, to_frame
from solvers import Backend, get_backend

logger = logging.getLogger(__name__)

__all__ = ["TrainingWorkspace", "default_binarizer"]


def default_binarizer(
    n_thresholds: int | None = None, thresholds: str | None = None, round_thresholds: bool = True,
) -> FeatureBinarizer:
    """The binarization of :class:`~rulemodels.BooleanRuleClassifier`'s defaults (missing values as their own literal).

    ``n_thresholds=None`` keeps :class:`~rulemodels.FeatureBinarizer`'s own number; ``thresholds=None`` the
    estimators' method (``defaults.DEFAULT_THRESHOLDS``: label-aware cut points). The paper protocol passes
    ``thresholds="quantile", round_thresholds=False``, the paper's binarization (the decile boundaries themselves).

    Parameters
    ----------
    n_thresholds : int or None, default=None
        Thresholds per numeric column; None keeps the binarizer's own number.
    thresholds : str or None, default=None
        Where the thresholds go; None: ``defaults.DEFAULT_THRESHOLDS``.
    round_thresholds : bool, default=True
        Passed to :class:`~rulemodels.FeatureBinarizer`.

    Returns
    -------
    FeatureBinarizer
        A new, unfitted binarizer.
    """
    settings: dict[str, Any] = {} if n_thresholds is None else {"n_thresholds": n_thresholds}
    settings["thresholds"] = defaults.DEFAULT_THRESHOLDS if thresholds is None else thresholds
    return FeatureBinarizer(nan="indicator", high_cardinality="drop", round_thresholds=round_thresholds, **settings)


def _drop_tautologies(data: WorkingData, W: np.ndarray, objective: float, algorithm: str, theta: float) -> tuple[np.ndarray, float]:
    """Drop the CNF clauses of ``W`` that one column makes true on every training row; recompute the objective.

    Such a clause (``x <= 5 OR x > 5``) is how a learner fills a clause slot
    it has no use for, the cheapest always-true clause on the training rows.
    Dropping it keeps every training prediction and lowers the sparsity cost;
    keeping it would make the rule say ``x is not missing``, a condition no
    training row supports (on a column that had no missing values it is not
    even a literal of the binary matrix). TLP and AM drop most of these
    themselves; this runs for every algorithm. Only the CNF form: in a DNF
    the same clause of the negated problem is a term no row satisfies
    (``x <= 5 AND x > 5``), which simplification removes.
    The objective is the algorithm's own (0-1 for TLP, Hamming otherwise) at
    the remaining clauses; with none left the rule is the constant True
    (objective: the weight of the negatives), which
    :meth:`TrainingWorkspace._better_constant` then compares with False.
    """
    drop = tautological_clauses(data.A, W, data.groups, allow_disable=data.allow_disable)
    if not drop:
        return W, objective
    W = np.delete(W, drop, axis=1)
    logger.info("dropped %d CNF clause(s) that one column makes true on every training row", len(drop))
    if W.shape[1] == 0:  # a CNF without clauses is True: it misclassifies every negative
        return W, float(data.weight[data.y == 0].sum())
    measure = zero_one_objective if algorithm == "tlp" else hamming_objective
    return W, measure(data.A, data.y, W, theta, sample_weight=data.weight, feature_cost=data.cost)


def _hook_caller(constraints: RuleConstraints, problem: CNFProblem) -> Callable[[Any, str], Any] | None:
    """``(handle, kind) -> model_hook(handle, HookInfo(kind, literals, form))`` for the models built on ``problem``, or None."""
    user_hook = constraints.model_hook
    if user_hook is None:
        return None
    literals, form = problem.literals, problem.form

    def call(handle: Any, kind: str) -> Any:
        logger.debug("model_hook: %s model built", kind)
        return user_hook(handle, HookInfo(kind, literals, form))

    return call


#: The last parameters and the Raises section of the two checks of a fit handed a workspace (``fill_doc``).
_CHECK_SECTIONS = """
binarizer : FeatureBinarizer
    The fit's binarization settings.
solver : str or Backend
    The fit's solver.

Raises
------
RuntimeError
    If the workspace was closed.
ValueError
    If the binarizer settings, the solver or the training data differ from the workspace's.
"""

#: Relative margin of "strictly better" between two objectives of an exact fit (its MIP's rule, its start, a constant).
_BETTER = 1e-9

#: The refusal of a fit handed a workspace built from other data.
_OTHER_DATA = (
    "the workspace was built from other training data than this fit's X, y and sample_weight: "
    "a workspace serves fits on exactly the data it was built from"
)


def _as_spec(spec: FitSpec | None, settings: dict[str, Any], **path: Any) -> FitSpec:
    """``spec``, or the recipe of the keyword ``settings`` (with the θ path's ``path`` fields) when it is None."""
    if spec is None:
        return FitSpec(**{**path, **settings})
    if settings:
        raise TypeError(f"pass the fit's settings either as a FitSpec or as keywords, not both (got {sorted(settings)} too)")
    return spec


class TrainingWorkspace(_ClosedOnExit):
    """Everything the fits on one training set share (see the module docstring).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        Raw (or binary) training features; a polars or pyarrow DataFrame is
        converted to pandas once (:func:`rulemodels.utils.as_pandas`).
    y : array-like of shape (n_samples,)
        Two-class labels.
    sample_weight : array-like of shape (n_samples,), optional
        Weights of the rows (default 1), normalised to mean 1.
    binarizer : FeatureBinarizer, optional
        The binarization settings (an unfitted binarizer; it is cloned and
        fitted on ``X``); default :func:`default_binarizer`, the estimator's
        defaults. A fit handed the workspace must use the same settings.
    fit_binarizer : bool, default=True
        False: ``binarizer`` is already fitted and is used as it is (the one
        fitted from the summaries of data read in chunks,
        :func:`rulemodels.data.read_stream`, whose ``X`` holds one row per
        distinct pattern: refitting on those rows would change the thresholds).
    binary : ndarray of shape (n_samples, d), optional
        With ``fit_binarizer=False``: ``X`` already transformed by that
        binarizer (a rule list's step on rows of data binarized once), used as
        the binary matrix instead of transforming ``X`` again.
    n_rows : int, optional
        The number of rows ``X`` stands for, when each of its rows is a group
        of identical rows and ``sample_weight`` holds the groups' summed
        weights (:func:`rulemodels.data.read_stream`): the weights are then
        normalised to mean 1 over those rows instead of over the groups, so
        the clause LPs, θ and the objectives are those of the fit on the rows.
    solver : str or Backend, default=DEFAULT_SOLVER
        The backend every LP of the workspace is solved with.
    tie_break : float, default=DEFAULT_TIE_BREAK
        Scale of the clause LPs' deterministic tie-break (in mean sample
        weights; :func:`~rulemodels.models.tie_break_costs`); 0 poses the
        LPs without it, as the paper does (solvers may then differ, ``docs/solvers.md``).

    Attributes
    ----------
    frame : DataFrame
        ``X`` with string column names.
    classes : ndarray of shape (2,)
        The two classes of ``y``, sorted; rules are true for ``classes[1]``.
    labels : ndarray of int8
        1 where ``y == classes[1]``.
    sample_weight : ndarray of float
    binarizer : FeatureBinarizer
        Fitted on ``X``.
    A : ndarray of shape (n_samples, d)
        The binary matrix; column k is ``literals[k]``.
    literals : tuple of Literal
    backend : Backend
    binarize_seconds : float
        Wall time of fitting the binarizer and transforming ``X``.

    Raises
    ------
    ValueError
        If ``X`` has no rows, ``binary``/``binarizer`` does not fit, no feature is left, or one class has all weight.

    Examples
    --------
    >>> from rulemodels import TrainingWorkspace, load_dataset
    >>> X, y = load_dataset("pima")
    >>> workspace = TrainingWorkspace(X, y)
    >>> workspace.classes.tolist(), workspace.A.shape == (len(X), len(workspace.literals))
    ([0, 1], True)
    """

    def __init__(
        self,
        X: Any,
        y: Any,
        sample_weight: Any = None,
        *,
        binarizer: FeatureBinarizer | None = None,
        solver: str | Backend = defaults.DEFAULT_SOLVER,
        tie_break: float = DEFAULT_TIE_BREAK,
        fit_binarizer: bool = True,
        binary: Any = None,
        n_rows: int | None = None,
    ):
        X = as_pandas(X)  # a polars or pyarrow DataFrame: converted here, once, with its names and dtypes
        frame = to_frame(X, ensure_nonempty=True)  # the one check of X in a fit: the binarizer trusts the frame
        self._build(
            X, frame, parse_labels(y, frame.shape[0]), sample_weight, binarizer=binarizer, solver=solver,
            tie_break=tie_break, fit_binarizer=fit_binarizer, binary=binary, n_rows=n_rows,
        )

    @classmethod
    def from_checked(
        cls,
        frame: pd.DataFrame,
        labels: ParsedLabels,
        sample_weight: np.ndarray | None = None,
        *,
        X: object = None,
        binarizer: FeatureBinarizer | None = None,
        solver: str | Backend = defaults.DEFAULT_SOLVER,
        tie_break: float = DEFAULT_TIE_BREAK,
        fit_binarizer: bool = True,
        binary: np.ndarray | None = None,
        n_rows: int | None = None,
    ) -> TrainingWorkspace:
        """The workspace of features and labels a fit checked and parsed already: nothing is checked or parsed again.

        The trusted path of :class:`~rulemodels.BooleanRuleClassifier` (and of
        the searches built on it), which checks ``X`` and parses ``y`` once
        at the boundary of its fit; the constructor is the same with the checks.

        Parameters
        ----------
        frame : pandas.DataFrame
            ``X`` as :func:`rulemodels.utils.to_frame` returned it (``ensure_nonempty=True``).
        labels : ParsedLabels
            ``y`` as :func:`rulemodels.data.parse_labels` returned it, of two classes.
        sample_weight : ndarray of shape (n_samples,), optional
            The row weights (checked and normalised here, as by the constructor).
        X : DataFrame or array-like, optional
            The object ``frame`` was converted from, which fits handed the
            workspace may pass as their ``X`` (default: ``frame``).
        binarizer, solver, tie_break, fit_binarizer, binary, n_rows
            As for the constructor.

        Returns
        -------
        TrainingWorkspace
            The workspace.

        Raises
        ------
        ValueError
            If ``labels`` do not have two classes, ``binary``/``binarizer`` does not fit, no feature is left,
            or one class has all weight.
        """
        workspace = cls.__new__(cls)
        workspace._build(
            frame if X is None else X, frame, labels, sample_weight, binarizer=binarizer, solver=solver,
            tie_break=tie_break, fit_binarizer=fit_binarizer, binary=binary, n_rows=n_rows,
        )
        return workspace

    def _build(
        self, X: Any, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: Any, *, binarizer: FeatureBinarizer | None,
        solver: str | Backend, tie_break: float, fit_binarizer: bool, binary: Any, n_rows: int | None,
    ) -> None:
        """The constructor's work on the checked frame and the parsed labels."""
        self.frame = frame
        self.tie_break = float(tie_break)
        self._X = X
        self.classes, self.labels = labels.classes, labels.binary()
        self.sample_weight = check_sample_weight(sample_weight, self.frame.shape[0])
        #: The training rows (for groups of rows, the rows they stand for): the n of a floor in rows.
        self.n_rows = float(self.frame.shape[0] if n_rows is None else n_rows)
        if n_rows is not None:  # groups of rows: mean 1 over the rows (unit weights: the group sizes, exactly)
            summed = np.asarray(sample_weight, dtype=float)
            self.sample_weight = summed * (float(n_rows) / float(summed.sum()))
        started = time.perf_counter()
        if fit_binarizer:
            self.binarizer = clone(binarizer) if binarizer is not None else default_binarizer()
            # labels and weights, parsed and checked above: label-aware thresholds (the 0/1 labels are the class
            # codes; which class is 0 does not change a two-class Gini impurity, so nor the thresholds)
            self.binarizer._fit(self.frame, self.labels, self.sample_weight, check_input=False, n_classes=2)
        else:
            if binarizer is None:
                raise ValueError("fit_binarizer=False needs the fitted binarizer to use (binarizer=...)")
            check_is_fitted(binarizer, "literals_")
            self.binarizer = binarizer
        if binary is not None and (fit_binarizer or binary.shape != (self.frame.shape[0], len(self.binarizer.literals_))):
            raise ValueError(
                f"binary= must be X transformed by the fitted binarizer (fit_binarizer=False), of shape "
                f"({self.frame.shape[0]}, {len(self.binarizer.literals_)}), got shape {binary.shape} with fit_binarizer={fit_binarizer}"
            )
        self.A = self.binarizer._transform(self.frame, check_input=False) if binary is None else binary
        self.binarize_seconds = time.perf_counter() - started
        self._n_patterns: int | None = None
        if self.A.shape[1] == 0:
            weighted = np.unique(self.labels[self.sample_weight > 0])
            if weighted.size < 2:  # label-aware thresholds see the rows of positive weight only
                raise ValueError(
                    f"only one class has rows of positive weight ({self.classes[weighted].tolist()}): a rule needs "
                    "both classes; give the other class's rows a positive sample_weight"
                )
            dropped = list(getattr(self.binarizer, "dropped_columns_", []))
            if dropped:
                raise ValueError(
                    f"no feature is left to learn a rule from: the ID-like column(s) {dropped[:10]} were left out "
                    "(one value per row, or row numbers) and the others are constant; high_cardinality='keep' "
                    "(CLI: --high-cardinality keep) keeps them"
                )
            raise ValueError("every feature is constant: there is nothing to learn a rule from")
        self.literals: tuple[Literal, ...] = tuple(self.binarizer.literals_)
        self._column_of = {literal: k for k, literal in enumerate(self.literals)}
        self.backend = get_backend(solver)
        self._problems: dict[tuple[str, Any], CNFProblem] = {}
        self._caches: dict[tuple[str, bool, float, Any], LPSolutionCache] = {}
        self.closed = False

    # -- lifetime ---------------------------------------------------------
    def close(self) -> None:
        """Release the solver instances of every model and drop the stored work."""
        for cache in self._caches.values():
            cache.close()
        self._caches.clear()
        self.closed = True

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self._caches)} problem(s)"
        return (
            f"TrainingWorkspace({self.frame.shape[0]} samples, {self.frame.shape[1]} columns -> {self.A.shape[1]} literals, "
            f"solver={self.backend.name!r}, {state})"
        )

    # -- what it shares ---------------------------------------------------
    def problem(self, form: str, constraints: RuleConstraints | None = None) -> CNFProblem:
        """The CNF problem of ``form`` (``"dnf"`` negates features and labels).

        With ``constraints`` that forbid literals (forbidden columns, monotone
        directions), the problem over the allowed literals only: how the
        heuristics honour them (:meth:`CNFProblem.restrict`).

        Parameters
        ----------
        form : {"dnf", "cnf"}
            The rule's form.
        constraints : RuleConstraints or None, default=None
            The domain constraints; None: every literal.

        Returns
        -------
        CNFProblem
            The CNF problem of ``form``.
        """
        full = self._problems.get((form, None))
        if full is None:
            full = CNFProblem.from_binary(self.A, self.labels, literals=self.literals, form=form, sample_weight=self.sample_weight)
            self._problems[(form, None)] = full
        allowed = self._allowed(constraints)
        if allowed is None:
            return full
        key = (form, allowed.tobytes())
        problem = self._problems.get(key)
        if problem is None:
            problem = full.restrict(allowed)
            self._problems[key] = problem
        return problem

    def _allowed(self, constraints: RuleConstraints | None) -> np.ndarray | None:
        """The mask of allowed literals, or None when every literal is allowed; a ValueError when none is."""
        if constraints is None or not (constraints.monotone or constraints.forbidden):
            return None
        allowed = constraints.allowed(self.literals)
        if allowed.all():
            return None
        if not allowed.any():
            raise ValueError(
                "the constraints (forbidden_features, monotone) forbid every literal of the data: nothing is left to learn "
                "a rule from; forbid fewer columns"
            )
        return allowed

    def lp_cache(
        self, form: str, *, allow_disable: bool, disable_cost: float | None, constraints: RuleConstraints | None = None,
    ) -> LPSolutionCache:
        """The shared LP work for one form, clause-disabling setting and set of constraints (built on first use).

        Its LPs are solved with the workspace's solver, or with the default
        solver (HiGHS) when that one takes integer programs only (``cpsat``,
        whose workspace learns with ``algorithm="exact"`` only: its start rule
        is learned here).

        Parameters
        ----------
        form : {"dnf", "cnf"}
            The rule's form.
        allow_disable : bool
            Let the learner disable clauses.
        disable_cost : float or None
            Cost of the always-true feature, in literals.
        constraints : RuleConstraints or None, default=None
            The domain constraints; None: none.

        Returns
        -------
        LPSolutionCache
            The cache of that form, setting and constraints, shared by later calls.

        Raises
        ------
        RuntimeError
            If the workspace was closed.
        """
        if self.closed:
            raise RuntimeError("this TrainingWorkspace was closed: build a new one for further fits")
        active = constraints if constraints is not None and constraints.active else None
        key = (
            form, bool(allow_disable), float(disable_cost) if allow_disable else 0.0,  # type: ignore[arg-type]  # None fails as before
            None if active is None else active.key,
        )
        cache = self._caches.get(key)
        if cache is None:
            problem = self.problem(form, constraints)
            hook = None
            if active is not None:
                constraints = active
                cost = constraints.literal_costs(problem.literals)
                data = WorkingData.from_problem(
                    problem, allow_disable=allow_disable, disable_cost=disable_cost, tie_break=self.tie_break,
                    feature_cost=cost,
                    max_literals=constraints.max_literals,
                )
                hook = _hook_caller(constraints, problem)
            else:
                data = WorkingData.from_problem(
                    problem, allow_disable=allow_disable, disable_cost=disable_cost, tie_break=self.tie_break,
                )
            # a solver of integer programs only (cpsat) solves the MIPs; the exact fit's start rule solves LPs with HiGHS
            lp_backend = self.backend if getattr(self.backend.capabilities, "continuous", True) else get_backend(defaults.DEFAULT_SOLVER)
            cache = LPSolutionCache(data, lp_backend, model_hook=hook)
            self._caches[key] = cache
        return cache

    def transform(self, X: Any) -> np.ndarray:
        """The binary matrix of other rows (a test fold) with this workspace's binarizer.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The rows to binarize.

        Returns
        -------
        ndarray
            The binary matrix of ``X``.
        """
        return self.binarizer.transform(X)

    def learn(self, spec: FitSpec | None = None, /, **settings: Any) -> LearnedRule:
        """Learn one rule on this training set by the recipe ``spec`` (the parameters of ``BooleanRuleClassifier``).

        ``spec`` (:class:`~rulemodels.algorithms.FitSpec`) holds every setting
        of the fit; ``learn(form=..., algorithm=..., ...)`` builds it from the
        keywords (``FitSpec(**settings)``). Its θ is converted to the
        learner's (paper's) θ by its ``theta_unit`` on this workspace's weights
        (the result's ``theta``), and its constraints' columns are checked against the training columns,
        here, for every caller.

        ``polish``: seconds of MIP polishing after the heuristic (None: none;
        :func:`~rulemodels.algorithms.polish.polish_rule` with the exact
        ``polish_formulation`` MIP), building the MIP included: a budget below
        the estimated cost of building it skips polishing
        (:func:`~rulemodels.algorithms.polish.polish_build_seconds`; the
        report's ``built`` is False). The result's ``polish`` reports it and its
        ``objective`` is then that MIP's objective of the returned rule. The
        exact algorithm is not polished.

        ``constraints`` (:class:`~rulemodels.algorithms.constraints.RuleConstraints`):
        the domain constraints (``docs/constraints.md``), honoured by every algorithm
        (``docs/constraints.md``): the heuristics learn on the allowed
        literals only, with the costs and the literal budget in their models
        and at rounding; the exact MIP and polishing hold them as constraints.
        The returned rule is checked against them (a RuntimeError if it broke
        one: a bug, never a silent violation). Without costs and hook (the
        objective is then the unconstrained one), a heuristic also fits
        without the constraints and keeps that rule when it meets them with
        an objective no higher: a constraint the free rule already meets
        changes nothing (the counters are those of both fits; with a
        ``time_limit`` the free fit gets the time the constrained one left).

        ``prune`` (off by default, so that a call without it, such as the
        paper protocol's experiments, returns the algorithm's rule as the
        paper learns it): after the algorithm (and after polishing), remove
        greedily the literal or clause whose removal gives the lowest 0-1
        training objective, weighted errors + ``theta`` × literal costs
        (eq. (3.7) StdFormulation, the costs of ``constraints``), as long as
        it is no higher than the current one
        (:func:`~rulemodels.algorithms.prune.prune_rule`). Exact on the
        training rows, so it never raises that objective; a rule left
        constant on them becomes the better constant. The result's ``prune``
        reports it; when something was removed, its ``objective`` is the 0-1
        objective of the pruned rule. Removal keeps the built-in constraints
        (forbidden, monotone, literal budget, costs); with a ``model_hook``,
        whose constraints are unknown here, pruning is skipped.

        Parameters
        ----------
        spec : FitSpec, optional
            The recipe of the fit (positional only); without it, ``settings``.
        **settings
            The fields of :class:`~rulemodels.algorithms.FitSpec` as keywords
            (``form``, ``algorithm``, ``n_clauses``, ``theta`` required; ``theta``
            in the learner's units unless ``theta_unit`` says otherwise), when
            no ``spec`` is given.

        Returns
        -------
        LearnedRule
            The learned rule with its objective and the fit's statistics.

        Raises
        ------
        TypeError
            If both ``spec`` and keyword settings are given.
        ValueError
            If the constraints name a column the training data lacks, or forbid every literal.
        """
        spec = self._resolved(_as_spec(spec, settings))
        check_solver_solves(spec.algorithm, self.backend)
        learned = self._learn_checked(spec)
        if not spec.prune:
            return learned
        if spec.constraints is not None and spec.constraints.model_hook is not None:
            logger.info("pruning skipped: the model_hook's constraints are unknown to it")
            return learned
        return self._prune(learned, spec.theta, spec.constraints)

    def _resolved(self, spec: FitSpec) -> FitSpec:
        """``spec`` with the learner's θ on this workspace's weights, its constraints checked against the columns."""
        if spec.constraints is not None:
            spec.constraints.check_columns(list(self.frame.columns), self.literals)
        return replace(spec, theta=self._learner_theta(spec, spec.theta), theta_unit="sample")

    def _learner_theta(self, spec: FitSpec, theta: float) -> float:
        """The learner's θ of ``theta`` in ``spec``'s unit on these weights, at least ``spec.min_literal_rows`` rows."""
        floor = resolve_min_rows(spec.min_literal_rows, self.n_rows)
        return paper_theta(theta, self.sample_weight, spec.theta_unit, min_rows=floor, n_rows=self.n_rows)

    def _prune(self, learned: LearnedRule, theta: float, constraints: RuleConstraints | None) -> LearnedRule:
        """``learned`` with its rule pruned (:func:`~rulemodels.algorithms.prune.prune_rule`) and a :class:`PruneReport`."""
        rule = learned.rule
        costs = {} if constraints is None or not constraints.costs else dict(
            zip(self.literals, constraints.literal_costs(self.literals), strict=True)
        )
        pruned, report = prune_rule(rule, self.A, self._column_of, self.labels, self.sample_weight, theta, literal_cost=costs)
        if not report.pruned:
            return replace(learned, prune=report)
        pruned, objective = self._better_constant(pruned, report.objective)
        if constraints is not None:
            broken = constraints.violations(pruned)
            if broken:  # removal cannot break them: a bug
                raise RuntimeError(f"pruning broke the constraints ({'; '.join(broken)}): please report this bug")
        # counted on the returned rule: the better constant may have dropped what pruning left
        report = replace(
            report, n_literals=rule.n_literals - pruned.n_literals,
            n_clauses=max(report.n_clauses, len(rule.clauses) - len(pruned.clauses)), objective=objective,
        )
        logger.info(
            "pruned %d literal(s) and %d clause(s) that did not pay for themselves: objective (weighted training errors "
            "+ theta x literals) %.6g -> %.6g", report.n_literals, report.n_clauses, report.objective_before, objective,
        )
        return replace(learned, rule=pruned, objective=objective, clause_columns=self._clause_columns(pruned), prune=report)

    def _learn_checked(self, spec: FitSpec) -> LearnedRule:
        """:meth:`learn` without pruning: the algorithm's rule, checked against the constraints (``spec`` resolved)."""
        constraints, algorithm = spec.constraints, spec.algorithm
        self._allowed(constraints)  # a ValueError when the constraints forbid every literal, whatever the algorithm
        started = time.perf_counter()
        learned = self._learn(spec)
        if constraints is None:
            return learned
        broken = constraints.violations(learned.rule)
        if broken:
            raise RuntimeError(f"the {algorithm} fit broke its constraints ({'; '.join(broken)}): please report this bug")
        remaining = None if spec.time_limit is None else spec.time_limit - (time.perf_counter() - started)
        if algorithm != "exact" and not constraints.costs and constraints.model_hook is None and (remaining is None or remaining > 0):
            # Same objective, smaller feasible set: the unconstrained heuristic's rule, when it meets the
            # constraints, is a candidate too (the heuristics' paths change with their LPs even where the
            # constraints do not bind), so a constraint the free rule already meets changes nothing.
            # Within the fit's time limit: the free fit gets what the constrained one left.
            free = self._learn(replace(spec, time_limit=remaining, constraints=None))
            counters: dict[str, Any] = {
                "n_solves": learned.n_solves + free.n_solves, "n_builds": learned.n_builds + free.n_builds,
                "n_reused": learned.n_reused + free.n_reused, "solver_seconds": learned.solver_seconds + free.solver_seconds,
            }
            tolerance = 1e-9 * max(1.0, abs(float(learned.objective or 0.0)))
            if not constraints.violations(free.rule) and float(free.objective or 0.0) <= float(learned.objective or 0.0) + tolerance:
                logger.info(
                    "the unconstrained %s rule meets the constraints and is no worse (objective %.6g vs %.6g): keeping it",
                    algorithm, free.objective, learned.objective,
                )
                return replace(free, **counters)
            return replace(learned, **counters)
        return learned

    def _exact_settings(self, problem: CNFProblem, constraints: RuleConstraints | None, kind: str) -> dict[str, Any]:
        """The keyword arguments that put ``constraints`` into an exact MIP on the full ``problem``."""
        if constraints is None:
            return {}
        allowed = constraints.allowed(problem.literals)
        settings: dict[str, Any] = {
            "feature_cost": constraints.literal_costs(problem.literals),
            "forbidden": np.flatnonzero(~allowed),
            "max_literals": constraints.max_literals,
        }
        hook = _hook_caller(constraints, problem)
        if hook is not None:
            settings["model_hook"] = lambda handle: hook(handle, kind)
        return settings

    def _learn(self, spec: FitSpec) -> LearnedRule:
        """One rule of the algorithm of ``spec`` (resolved: the learner's θ, active constraints or None)."""
        form, algorithm, theta, constraints = spec.form, spec.algorithm, spec.theta, spec.constraints
        if form not in ("dnf", "cnf"):
            raise ValueError(f"form must be 'dnf' or 'cnf' here, got {form!r}")
        problem = self.problem(form)
        if algorithm == "exact":
            # the MIP starts from the default heuristic's rule on this training set, and never returns a worse one
            # when it stops early (not with a model_hook: the hook is written for the MIP, and may not suit the heuristic);
            # with a time limit, the start's time counts against it (at most half of it), and the MIP gets what the
            # start left
            started = time.perf_counter()
            start_limit = None if spec.time_limit is None else spec.time_limit * START_SHARE
            best_start = None if constraints is not None and constraints.model_hook is not None else self._best_start(
                problem, spec, start_limit,
            )
            start = None if best_start is None else best_start[1]
            remaining = None if spec.time_limit is None else spec.time_limit - (time.perf_counter() - started)
            if start is not None and remaining is not None and remaining < polish_build_seconds(problem.A, spec.n_clauses):
                return self._start_only(problem, start, remaining, spec)
            exact = solve_exact_problem(
                problem, spec.n_clauses, theta, solver=self.backend, time_limit=remaining,
                disable_cost=spec.disable_cost if spec.allow_disable else None, start=start,
                **self._exact_settings(problem, constraints, "exact"),
            )
            mip_objective = float(exact.objective or 0.0)
            rule, objective = self._no_worse_than_a_constant(*self._better_constant(exact.rule, mip_objective))
            if best_start is not None and not spec.allow_disable and best_start[0] < objective - _BETTER * max(1.0, abs(objective)):
                # the R-clause MIP cannot write a rule of fewer clauses without paying a clause's literals twice
                logger.info("the exact MIP's rule (objective %.6g) is worse than its start's (%.6g): returning the start",
                            objective, best_start[0])
                objective, rule = best_start
            termination, bound, gap = exact.termination, exact.exact_bound, exact.gap
            if objective < mip_objective - _BETTER * max(1.0, abs(mip_objective)):
                # a rule the MIP over rules of exactly R clauses does not hold (fewer clauses, a constant): its proof
                # and its bound are not this rule's, so it is returned as a solution without them
                termination = Termination("feasible") if termination == "optimal" else termination
                bound, gap = None, None
            return LearnedRule(
                rule=rule, objective=objective, history=[objective], n_iter=1,
                termination=termination, n_solves=1, n_builds=1, n_reused=0, solver_seconds=exact.solver_seconds,
                exact=ExactInfo(bound=bound, gap=gap), clause_columns=self._clause_columns(rule),
                theta=theta,
            )
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)} or 'exact', got {algorithm!r}")
        cache = self.lp_cache(form, allow_disable=spec.allow_disable, disable_cost=spec.disable_cost, constraints=constraints)
        result = learn(
            cache, algorithm=algorithm, n_clauses=spec.n_clauses, theta=theta, max_iter=spec.max_iter,
            time_limit=spec.time_limit, solver_options=spec.solver_options,
        )
        return self._learned(cache, result, spec)

    def _best_start(self, problem: CNFProblem, spec: FitSpec, time_limit: float | None) -> tuple[float, Rule]:
        """The better rule (by the 0-1 objective at the fit's θ) of the heuristics of ``START_ALGORITHMS``, and its objective.

        ``time_limit`` (seconds, or None) is shared between them, each getting an equal share of what is left.
        The LPs are solved by the fit's solver (HiGHS for one of integer programs only, ``cpsat``); column
        generation needs LP duals, so with a solver that gives none (``scip``) the start is AM's rule alone.
        """
        capabilities = self.backend.capabilities
        lp_duals = getattr(capabilities, "duals", True) or not getattr(capabilities, "continuous", True)
        algorithms = [algorithm for algorithm in START_ALGORITHMS if lp_duals or algorithm != "cg"]
        costs = None if spec.constraints is None else spec.constraints.literal_costs(problem.literals)
        best: tuple[float, Rule] | None = None
        started = time.perf_counter()
        for k, algorithm in enumerate(algorithms):
            left = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.0) / (len(algorithms) - k)
            rule = self._learn(replace(spec, algorithm=algorithm, time_limit=left, polish=None)).rule
            objective = float(zero_one_objective(
                problem.A, problem.y, rule_weights(problem, rule), spec.theta, sample_weight=problem.sample_weight,
                feature_cost=costs,
            ))
            if best is None or objective < best[0] - 1e-9 * max(1.0, abs(objective)):
                best = (objective, rule)
        assert best is not None
        return best

    def _start_only(self, problem: CNFProblem, start: Rule, remaining: float, spec: FitSpec) -> LearnedRule:
        """The exact fit's start rule, when what its time limit left cannot build the MIP (termination ``"time_limit"``)."""
        logger.info(
            "exact MIP skipped: the %.3g s its start heuristic left of the time limit cannot build it (about %.2g s); "
            "returning the start rule (termination time_limit)", max(remaining, 0.0),
            polish_build_seconds(problem.A, spec.n_clauses),
        )
        costs = None if spec.constraints is None else spec.constraints.literal_costs(problem.literals)
        objective = float(zero_one_objective(
            problem.A, problem.y, rule_weights(problem, start), spec.theta, sample_weight=problem.sample_weight,
            feature_cost=costs,
        ))
        rule, objective = self._no_worse_than_a_constant(*self._better_constant(start, objective))
        return LearnedRule(
            rule=rule, objective=objective, history=[objective], n_iter=0, termination=Termination.time_limit,
            n_solves=0, n_builds=0, n_reused=0, solver_seconds=0.0, exact=ExactInfo(bound=None, gap=None),
            clause_columns=self._clause_columns(rule), theta=spec.theta,
        )

    def learn_path(
        self, spec: FitSpec | None = None, /, *, thetas: Sequence[float], n_clauses: Sequence[int], **settings: Any,
    ) -> dict[tuple[float, int], LearnedRule]:
        """Column generation along a θ path on this training set: ``(θ, R) -> LearnedRule`` for every θ and R.

        One master LP serves the whole path (see
        :func:`~rulemodels.algorithms.column_generation.run_column_generation_path`):
        it is built at the largest θ and re-solved in place at each smaller one
        with every clause generated so far, and the integer selection is solved
        once per R. The path costs little more than its smallest θ alone. Each
        rule goes through what :meth:`learn` does to a learned rule (CNF
        tautologies dropped, a rule constant on the training rows made the
        better constant). No wall-clock limit and no domain constraints: fit
        those one θ at a time with :meth:`learn`. Model builds are counted on
        the first entry of the path (the largest θ, the smallest R). The
        recipe's form, clause disabling, ``max_iter`` (the most rounds of
        column generation at each θ), solver options and ``prune`` (each rule
        pruned as :meth:`learn` does) hold; its algorithm, θ and R are the
        path's.

        Parameters
        ----------
        spec : FitSpec, optional
            The recipe (positional only); without it, ``settings``.
        thetas : sequence of float
            The sparsity weights θ of the path, in the recipe's ``theta_unit``
            (the keyword form's default, ``"sample"``: the learner's, paper's
            θ), each converted once on this workspace's weights as by
            :meth:`learn`; the returned keys hold them as given and each
            rule's ``theta`` the converted value.
        n_clauses : sequence of int
            The numbers of clauses R.
        **settings
            Without ``spec``: ``form``, ``allow_disable``, ``disable_cost``,
            ``max_iter``, and optionally ``solver_options`` and ``prune``
            (fields of :class:`~rulemodels.algorithms.FitSpec`).

        Returns
        -------
        dict
            ``(θ, R) -> LearnedRule`` for every θ and R.

        Raises
        ------
        ValueError
            If the form is not ``'dnf'`` or ``'cnf'``, or the recipe has a time limit, polishing or constraints.
        TypeError
            If both ``spec`` and keyword settings are given.
        """
        spec = _as_spec(spec, settings, algorithm="cg", n_clauses=min(n_clauses), theta=max(thetas))
        form = spec.form
        if form not in ("dnf", "cnf"):
            raise ValueError(f"form must be 'dnf' or 'cnf' here, got {form!r}")
        if spec.time_limit is not None or spec.polish is not None or spec.constraints is not None:
            raise ValueError(
                "a θ path has no time limit, polishing or domain constraints: fit those one θ at a time with "
                "TrainingWorkspace.learn"
            )
        check_solver_solves("cg", self.backend)
        learner = {theta: self._learner_theta(spec, theta) for theta in thetas}
        cache = self.lp_cache(form, allow_disable=spec.allow_disable, disable_cost=spec.disable_cost)
        results = column_generation_path(
            cache.data, cache.backend, thetas=list(dict.fromkeys(learner.values())), n_clauses=n_clauses,
            max_iter=spec.max_iter, settings=CG_SETTINGS, solver_options=spec.solver_options, model_hook=cache.model_hook,
        )
        learned = {
            key: self._learned(cache, result, replace(spec, algorithm="cg", theta=key[0], theta_unit="sample"))
            for key, result in results.items()
        }
        if spec.prune:
            learned = {key: self._prune(rule, key[0], None) for key, rule in learned.items()}
        return {(theta, r): learned[(learner[theta], r)] for theta in thetas for r in n_clauses}

    def _learned(self, cache: LPSolutionCache, result: FitResult, spec: FitSpec) -> LearnedRule:
        """A driver's clause matrix on ``cache`` as the learned rule (rounding checks, the better constant, polishing)."""
        form, algorithm, theta, constraints = spec.form, spec.algorithm, spec.theta, spec.constraints
        problem = self.problem(form)
        W_full, objective = result.W, float(result.objective)
        if cache.model_hook is not None and W_full.shape[1]:
            broken = cache.hook_violations(W_full)
            if broken:
                logger.warning(
                    "the %s rule, rounded from its LPs, breaks the model_hook's constraint(s) %s: the heuristics' rounding "
                    "knows only the built-in constraints; use algorithm='exact' or polish for the hook's to hold "
                    "(docs/constraints.md)", algorithm, ", ".join(broken[:5]),
                )
        if form == "cnf":
            W_full, objective = _drop_tautologies(cache.data, W_full, objective, algorithm, theta)
        W, w0 = cache.data.split(W_full)
        learned_on = self.problem(form, constraints)  # the allowed literals' problem under constraints
        rule, objective = self._better_constant(learned_on.rule_from_weights(W, w0), objective)
        history = list(result.history)
        if history and objective < history[-1]:
            history.append(objective)
        report = None
        if spec.polish is not None:
            rule, objective, report = self._polish(
                problem, rule, theta, seconds=spec.polish, formulation=spec.polish_formulation,
                disable_cost=spec.disable_cost if spec.allow_disable else None, constraints=constraints,
            )
        return LearnedRule(
            rule=rule, objective=objective, history=history,
            n_iter=int(result.n_iter), termination=result.termination, n_solves=int(result.n_solves),
            n_builds=int(result.n_builds), n_reused=int(result.n_reused), solver_seconds=float(result.solver_seconds),
            clause_columns=self._clause_columns(rule),
            polish=report, theta=theta,
        )

    def _polish(
        self, problem: CNFProblem, rule: Rule, theta: float, *, seconds: float, formulation: str, disable_cost: float | None,
        constraints: RuleConstraints | None = None,
    ) -> tuple[Rule, float, PolishReport | None]:
        """The heuristic's ``rule`` polished by the exact MIP (see :mod:`rulemodels.algorithms.polish`), its objective, the report.

        A rule without clauses (a constant the MIP with R >= 1 clauses may not
        express) is returned as it is, with its 0-1 objective (its weighted
        error) and no report. The polished rule goes through the same check as
        every learned rule: a rule constant on the training rows becomes the
        better constant, which never raises the objective.
        """
        if not rule.clauses:
            logger.info("polishing skipped: the rule %s has no clause (R = 0)", rule)
            values = rule.evaluate_binary(self.A, self.literals)
            return rule, float(self.sample_weight[values != (self.labels == 1)].sum()), None
        polished, report = polish_rule(
            problem, rule, theta, backend=self.backend, time_limit=seconds, formulation=formulation, disable_cost=disable_cost,
            budget=seconds, **self._exact_settings(problem, constraints, "polish"),
        )
        polished, objective = self._better_constant(polished, report.objective)
        return polished, objective, report

    def _better_constant(self, rule: Rule, objective: float) -> tuple[Rule, float]:
        """The learned rule, or the better constant when the rule is constant on the training rows.

        A rule without literals is a constant, and which one depends only on how
        the learner reads an empty clause (an empty DNF term is True, a DNF
        without terms False; a CNF mirrored): with a large θ every algorithm
        returns the constant its form reads an empty clause as, whatever the
        labels say. A rule with literals that is constant on the training rows
        costs θ per literal for no change in any training prediction. Either
        way, the constant with the lower weighted training error is returned
        (ties keep the rule's own value), as a rule without literals, with its
        objective (its weighted error: no literal costs anything).
        """
        values = rule.evaluate_binary(self.A, self.literals)
        if values.any() and not values.all():
            return rule, objective
        error = self._constant_errors()
        value = bool(values[0])
        best = value if error[value] <= error[not value] else not value
        if rule.n_literals == 0 and best == value:
            return rule, objective
        constant = _constant_rule(rule.form, best)
        logger.info(
            "the learned rule %s is constant (%s) on the training rows; returning the constant %s: "
            "weighted training error %.6g (always %s: %.6g)",
            rule, value, constant, error[best], not best, error[not best],
        )
        return constant, error[best]

    def _constant_errors(self) -> dict[bool, float]:
        """The weighted training error of the constant rules: ``{True: ..., False: ...}``."""
        positive = self.labels == 1
        return {True: float(self.sample_weight[~positive].sum()), False: float(self.sample_weight[positive].sum())}

    def _no_worse_than_a_constant(self, rule: Rule, objective: float) -> tuple[Rule, float]:
        """``rule``, or the constant of lower weighted training error when that is strictly below ``objective``.

        The exact MIP with R clauses cannot always write a constant (a CNF is
        True only when every clause is), and a MIP stopped at its time limit may
        hold a worse incumbent: the estimator never returns a rule worse than
        always predicting one class.
        """
        error = self._constant_errors()
        best = min(error, key=lambda value: (error[value], not value))
        if error[best] >= objective - 1e-9 * max(1.0, abs(objective)):
            return rule, objective
        logger.info("the exact MIP's rule (objective %.6g) is worse than always predicting %s (%.6g): returning the constant",
                    objective, best, error[best])
        return _constant_rule(rule.form, best), error[best]

    def _clause_columns(self, rule: Rule) -> tuple[np.ndarray, ...]:
        column_of = self._column_of
        return tuple(np.array([column_of[literal] for literal in clause.literals], dtype=np.intp) for clause in rule.clauses)

    # -- checks for fits handed this workspace -------------------------------
    @fill_doc(settings=_CHECK_SECTIONS)
    def check_fit_inputs(self, X: Any, y: Any, sample_weight: Any, binarizer: FeatureBinarizer, solver: Any) -> None:
        """Raise a ValueError unless a fit on ``(X, y, sample_weight)`` with these settings may use this workspace.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The fit's training features.
        y : array-like of shape (n_samples,)
            The fit's labels.
        sample_weight : array-like of shape (n_samples,) or None
            The fit's sample weights.
        {settings}
        """
        self._check_settings(binarizer, solver)
        if not self._same_data(X, y, sample_weight):
            raise ValueError(_OTHER_DATA)

    @fill_doc(settings=_CHECK_SECTIONS)
    def check_parsed_inputs(
        self, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: np.ndarray | None, binarizer: FeatureBinarizer,
        solver: str | Backend,
    ) -> None:
        """:meth:`check_fit_inputs` for a fit that checked ``X`` (:meth:`frame_of`) and parsed ``y`` already.

        Parameters
        ----------
        frame : pandas.DataFrame
            The fit's features as :meth:`frame_of` returned them.
        labels : ParsedLabels
            The fit's labels as :func:`rulemodels.data.parse_labels` returned them.
        sample_weight : array-like of shape (n_samples,) or None
            The fit's sample weights (with its class weights applied).
        {settings}
        """
        self._check_settings(binarizer, solver)
        same = (frame is self.frame or self._same_frame(frame)) and self._same_labels(labels.y)
        if not (same and self._same_weights(sample_weight)):
            raise ValueError(_OTHER_DATA)

    def frame_of(self, X: object) -> pd.DataFrame:
        """``X`` checked (:func:`rulemodels.utils.to_frame`), or the workspace's frame when ``X`` is what it was built from.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            A fit's training features.

        Returns
        -------
        pandas.DataFrame
            ``X`` as a checked frame (the workspace's own when ``X`` is the object it was built from).

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D table with unique column names and at least one row.
        """
        return self.frame if X is self._X or X is self.frame else to_frame(X, ensure_nonempty=True)

    def _check_settings(self, binarizer: FeatureBinarizer, solver: Any) -> None:
        """Raise unless the workspace is open and was built with ``binarizer``'s settings and ``solver``."""
        if self.closed:
            raise RuntimeError("this TrainingWorkspace was closed: build a new one for further fits")
        wanted = binarizer.get_params()
        if self.binarizer.get_params() != wanted:
            raise ValueError(
                f"the workspace was built with binarizer settings {self.binarizer.get_params()} but this fit asks for "
                f"{wanted}: build the workspace with binarizer=FeatureBinarizer(...) of the estimator's settings "
                "(n_thresholds, thresholds, nan, high_cardinality)"
            )
        name = solver if isinstance(solver, str) else getattr(solver, "name", solver)
        if isinstance(name, str) and name.strip().lower() != self.backend.name:
            raise ValueError(
                f"the workspace solves with {self.backend.name!r} but this fit asks for solver={name!r}: "
                "build the workspace with the same solver"
            )

    def _same_data(self, X: Any, y: Any, sample_weight: Any) -> bool:
        if X is not self._X and not self._same_frame(to_frame(X)):
            return False
        return self._same_labels(np.asarray(y).ravel()) and self._same_weights(sample_weight)

    def _same_frame(self, frame: pd.DataFrame) -> bool:
        if frame.shape != self.frame.shape or list(frame.columns) != list(self.frame.columns):
            return False
        return bool(frame.reset_index(drop=True).equals(self.frame.reset_index(drop=True)))

    def _same_labels(self, labels: np.ndarray) -> bool:
        return labels.shape[0] == self.labels.shape[0] and np.array_equal(labels == self.classes[1], self.labels.astype(bool))

    def _same_weights(self, sample_weight: Any) -> bool:
        weights = check_sample_weight(sample_weight, self.labels.shape[0])
        return bool(np.array_equal(weights, self.sample_weight))

    @property
    def n_samples(self) -> int:
        """Number of rows of the training data ``X`` (the groups of identical rows, for data read in chunks)."""
        return int(self.frame.shape[0])

    @property
    def n_patterns(self) -> int:
        """Number of distinct (binary row, label) pairs: the weighted rows the clause LPs see at most.

        Counted on first use (0.25 s on 1,000,000 rows x 144 literals), so
        that a fit that does not report it pays nothing.
        """
        if self._n_patterns is None:
            first, _ = unique_rows(np.concatenate([np.asarray(self.A) != 0, self.labels[:, None] == 1], axis=1))
            self._n_patterns = int(first.shape[0])
        return self._n_patterns

    def binarization_summary(self) -> str:
        """One line on the binarization: rows, columns, binary features, distinct patterns and seconds (for the log).

        Returns
        -------
        str
            The line.
        """
        return (
            f"binarized {self.n_samples} rows x {self.frame.shape[1]} columns into {self.A.shape[1]} binary features, "
            f"{self.n_patterns} distinct (pattern, label) rows, in {self.binarize_seconds:.2f} s"
        )
