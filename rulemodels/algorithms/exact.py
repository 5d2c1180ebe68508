"""Exact MIP mode: ground truth for small data (``solver='cbc'`` by default).

>>> from rulemodels import solve_exact                              # doctest: +SKIP
>>> result = solve_exact(X, y, n_clauses=2, theta=0.05, time_limit=60)  # doctest: +SKIP
>>> print(result.termination, result.objective, result.exact_bound, result.gap)  # doctest: +SKIP
>>> print(result.rule)                                              # doctest: +SKIP

The exact two-level MIPs grow with n × d × R and become hard quickly (a CNF
with R = 2 on 100 rows × 134 features is not proved optimal in minutes); use
them on small data, with a time limit: the incumbent comes back with termination
``time_limit`` and its gap. The MIP starts from a heuristic's rule (column
generation, :func:`heuristic_start`), offered to the solver as its first
incumbent, and a MIP stopped early never returns a worse rule (in the MIP's
objective) than that start. While it runs, the incumbent, bound and gap are
logged (and drawn in a bar on a terminal or in a notebook) by
:mod:`rulemodels.algorithms.mip_progress`, which also says how to bound a run
without time limit on more than a small problem.
"""

from __future__ import annotations

import inspect
import logging
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyomo.environ as pyo

from rulemodels import defaults
from rulemodels.algorithms.claims import checked_bound, checked_termination
from rulemodels.algorithms.mip_progress import MipReporter, advise_time_limit
from rulemodels.algorithms.polish import rule_weights
from rulemodels.algorithms.result import ExactInfo, LearnedRule, Termination
from rulemodels.data import FeatureBinarizer
from rulemodels.models import (
    CNFProblem,
    build_hamming,
    build_zero_one,
    hamming_objective,
    objective_breakdown,
    rule_from_model,
    two_level_weights,
    zero_one_objective,
)
from rulemodels.models._data import check_nonnegative
from rulemodels.rules import Clause, Literal, Rule
from rulemodels.utils import fill_doc
from solvers import Backend, SolveConfig, SolveError, TerminationCondition, get_backend

logger = logging.getLogger(__name__)

__all__ = ["ExactResult", "ExactSolveError", "heuristic_start", "prepare_problem", "solve_exact", "solve_exact_problem"]

FORMULATIONS: dict[str, Callable[..., Any]] = {"zero_one": build_zero_one, "hamming": build_hamming}


# its constructor is SolveError's, and so are the parameters that SolveError's docstring documents
@fill_doc(parameters="Parameters\n" + inspect.cleandoc(str(SolveError.__doc__)).partition("Parameters\n")[2])
class ExactSolveError(SolveError):
    """The exact MIP ended without a solution (infeasible, unbounded, time limit with no incumbent, error).

    {parameters}
    """


ExactResult = LearnedRule
"""What :func:`solve_exact` returns: the one learned-rule type, :class:`~rulemodels.algorithms.LearnedRule`
(``termination``, ``objective``, ``exact_bound``, ``gap``, ``breakdown``, ``solve``, ``model``)."""


def prepare_problem(
    X: Any, y: Any, *, form: str, n_thresholds: int | None = None, sample_weight: Any = None
) -> tuple[CNFProblem, FeatureBinarizer | None]:
    """Binarize ``X`` when needed and build the CNF problem of ``form``.

    A DataFrame with any non-binary column is binarized with
    :class:`FeatureBinarizer` (``n_thresholds`` quantile thresholds, None for
    the binarizer's default); a binary
    array or DataFrame is used as is (columns named ``x0, x1, ...`` or by the
    DataFrame's names).

    Parameters
    ----------
    X : DataFrame or binary array of shape (n, d)
        Raw features or 0/1 features.
    y : array-like of shape (n,)
        0/1 (or boolean) labels.
    form : {"dnf", "cnf"}
        The rule's form.
    n_thresholds : int or None, default=None
        Quantile thresholds per numeric column when ``X`` is binarized.
    sample_weight : array-like of shape (n,), optional
        Weights of the samples (default 1).

    Returns
    -------
    tuple
        ``(problem, binarizer)``: the CNFProblem and the fitted FeatureBinarizer (None when ``X`` was not binarized).
    """
    labels = np.asarray(y).ravel()
    if labels.dtype == bool:
        labels = labels.astype(int)
    if isinstance(X, pd.DataFrame):
        values = X.to_numpy()
        if _is_binary(values):
            literals = [Literal(str(name), "is_true") for name in X.columns]
            return CNFProblem.from_binary(values.astype(np.int8), labels, literals=literals, form=form, sample_weight=sample_weight), None
        settings: dict[str, Any] = {} if n_thresholds is None else {"n_thresholds": n_thresholds}
        binarizer = FeatureBinarizer(nan="indicator", **settings).fit(X)
        A = binarizer.transform(X)
        return CNFProblem.from_binary(A, labels, literals=binarizer.literals_, form=form, sample_weight=sample_weight), binarizer
    return CNFProblem.from_binary(X, labels, form=form, sample_weight=sample_weight), None


def _is_binary(values: np.ndarray) -> bool:
    try:
        numeric = values.astype(float)
    except (TypeError, ValueError):
        return False
    return bool(np.all((numeric == 0) | (numeric == 1)))


def solve_exact(
    X: Any,
    y: Any,
    n_clauses: int,
    theta: float,
    *,
    formulation: str = "zero_one",
    form: str = "dnf",
    solver: str | Backend = "cbc",
    time_limit: float | None = None,
    mip_gap: float | None = None,
    n_thresholds: int | None = None,
    disable_cost: float | None = None,
    sample_weight: Any = None,
    warm_start: bool = True,
) -> LearnedRule:
    """Solve the exact two-level MIP and return the rule with its termination, objective, bound and gap.

    Parameters
    ----------
    X : DataFrame or binary array (n, d)
        Raw features (binarized with ``n_thresholds`` quantile thresholds) or 0/1 features.
    y : array-like (n,)
        0/1 labels; 1 is the class the rule predicts as true.
    n_clauses : int
        R, the number of clauses (terms of a DNF).
    theta : float
        Sparsity weight θ.
    formulation : {"zero_one", "hamming"}
        The 0-1 error MIP (eq. (4.14) GeneralLPFormulation, binary w) or the
        Hamming MIP (eq. (3.10) HammingFormulation).
    form : {"dnf", "cnf"}
        The rule's form (a DNF is learned as a CNF on negated data, paper section 3).
    solver : str or Backend, default="cbc"
        The MIP solver: a backend name (:func:`solvers.get_backend`) or a backend.
    time_limit : float, optional
        Seconds for the heuristic's start (``warm_start``) and the MIP together:
        the start gets at most half of them (``START_SHARE``), the MIP what the
        start left; the incumbent is returned with termination ``"time_limit"``.
    n_thresholds : int, optional
        Quantile thresholds per numeric column when ``X`` must be binarized
        (default: :class:`~rulemodels.FeatureBinarizer`'s own).
    mip_gap : float, optional
        Relative gap at which to stop.
    disable_cost : float, optional
        Allow disabling clauses with an always-true feature of this cost.
    warm_start : bool, default=True
        Start the MIP from the rule column generation learns on the same
        problem (:func:`heuristic_start`, with HiGHS): the solver gets it as its
        first incumbent, and the rule returned is never worse than it.
    sample_weight : array-like of shape (n,), optional
        Weights of the samples (default 1).

    Returns
    -------
    LearnedRule
        The rule with its termination, objective, the solver's bound (``exact_bound``) and gap.

    Raises
    ------
    ExactSolveError
        Infeasible, unbounded, or no solution found (for example a time limit
        reached before any incumbent); the message names the cause.
    SolverNotFoundError
        The solver is not installed (the message says how to install it).

    Examples
    --------
    >>> import numpy as np
    >>> from rulemodels import solve_exact
    >>> X = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> y = np.array([1, 0, 1, 0])
    >>> learned = solve_exact(X, y, n_clauses=1, theta=0.01, solver="highs")
    >>> print(learned.rule)
    (x0)
    >>> print(learned.termination)
    optimal
    """
    _check_arguments(formulation, theta, n_clauses)  # before binarizing: a typo should fail fast
    backend = get_backend(solver)  # and an unknown solver before the heuristic's start
    problem, _ = prepare_problem(X, y, form=form, n_thresholds=n_thresholds, sample_weight=sample_weight)
    started = time.perf_counter()  # with a time limit, the start's time counts against it (at most half of it)
    start = heuristic_start(
        problem, n_clauses, theta, disable_cost=disable_cost, time_limit=None if time_limit is None else time_limit * START_SHARE,
    ) if warm_start else None
    if time_limit is not None and start is not None:
        time_limit = max(time_limit - (time.perf_counter() - started), _MIN_MIP_SECONDS)
    return solve_exact_problem(
        problem, n_clauses, theta, formulation=formulation, solver=backend, time_limit=time_limit,
        mip_gap=mip_gap, disable_cost=disable_cost, start=start,
    )


def heuristic_start(
    problem: CNFProblem, n_clauses: int, theta: float, *, disable_cost: float | None = None, time_limit: float | None = None,
) -> Rule:
    """The best rule of column generation and AM (with HiGHS) on ``problem``, by the 0-1 objective: the exact MIP's start.

    At most ``n_clauses`` clauses, over the problem's literals, in its form;
    θ in the paper's units, as the MIP's. The heuristics (:data:`START_ALGORITHMS`)
    take seconds where the MIP takes minutes, and the better of their rules is
    usually close to the optimum.

    Parameters
    ----------
    problem : CNFProblem
        The prepared problem (its literals, labels, weights and form).
    n_clauses : int
        The most clauses R of the rule.
    theta : float
        The sparsity weight θ (the cost of one literal).
    disable_cost : float or None, default=None
        The cost ``c_0`` of the always-true feature, which lets a clause be disabled; None: no such feature.
    time_limit : float or None, default=None
        Seconds (the exact fit's share for its start), shared equally between the heuristics; each stops
        with its best rule so far at its share; None: no limit.

    Returns
    -------
    Rule
        The better rule of the heuristics, in the problem's form over its literals.
    """
    from rulemodels.algorithms.data import WorkingData
    from rulemodels.algorithms.lp_cache import LPSolutionCache
    from rulemodels.algorithms.run import learn

    data = WorkingData.from_problem(problem, allow_disable=disable_cost is not None, disable_cost=disable_cost)
    best: tuple[float, Rule] | None = None
    started = time.perf_counter()
    for k, algorithm in enumerate(START_ALGORITHMS):  # each gets an equal share of what is left of time_limit
        left = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.0) / (len(START_ALGORITHMS) - k)
        cache = LPSolutionCache(data, get_backend(defaults.DEFAULT_SOLVER))
        result = learn(cache, algorithm=algorithm, n_clauses=n_clauses, theta=theta, max_iter=defaults.DEFAULT_MAX_ITER, time_limit=left)
        W, w0 = data.split(result.W)
        rule = problem.rule_from_weights(W, w0)
        objective = zero_one_objective(
            problem.A, problem.y, W, theta, sample_weight=problem.sample_weight, w0=w0, disable_cost=disable_cost or 0.0,
        )
        logger.debug("exact MIP start: %s's rule has objective %.6g", algorithm, objective)
        if best is None or objective < best[0] - _TOLERANCE * max(1.0, abs(objective)):
            best = (objective, rule)
    assert best is not None
    return best[1]


def solve_exact_problem(
    problem: CNFProblem,
    n_clauses: int,
    theta: float,
    *,
    formulation: str = "zero_one",
    solver: str | Backend = "cbc",
    time_limit: float | None = None,
    mip_gap: float | None = None,
    disable_cost: float | None = None,
    feature_cost: Any = None,
    forbidden: Any = None,
    max_literals: int | None = None,
    model_hook: Callable[[Any], Any] | None = None,
    start: Rule | None = None,
) -> LearnedRule:
    """:func:`solve_exact` on an already prepared :class:`CNFProblem`.

    ``start`` (a rule of the problem's form over its literals, e.g.
    :func:`heuristic_start`'s) is offered to the solver as its first incumbent
    (HiGHS, CBC; GLPK starts cold, padded to ``n_clauses`` by repeating a
    clause). A proven optimum is returned as the MIP's answer; a MIP stopped
    at a limit returns the better of its incumbent and the start, or the
    start when it found no solution of its own, so never a worse rule than
    the start; a solver error is still an :class:`ExactSolveError` (a start
    with more clauses than ``n_clauses``, or one that breaks ``forbidden``,
    ``max_literals`` or a ``model_hook``, is not used).

    The domain constraints are constraints of the MIP, so the
    rule is optimal among the rules that meet them (``docs/constraints.md``):
    ``feature_cost`` (c_j, default 1), ``forbidden`` (feature indices,
    constraint ``forbidden_literal[j, r]``), ``max_literals`` (constraint
    ``max_literals[r]``); ``model_hook(handle)`` is called on the built model
    before the solve and may add constraints on ``w``.

    Parameters
    ----------
    problem : CNFProblem
        The prepared problem.
    n_clauses : int
        R, the number of clauses.
    theta : float
        Sparsity weight θ.
    formulation : {"zero_one", "hamming"}, default="zero_one"
        The 0-1 error MIP or the Hamming MIP.
    solver : str or Backend, default="cbc"
        The solver backend.
    time_limit : float, optional
        Seconds; the incumbent is returned with termination ``"time_limit"``.
    mip_gap : float, optional
        Relative gap at which to stop.
    disable_cost : float, optional
        Allow disabling clauses with an always-true feature of this cost.
    feature_cost : array-like of shape (d,), optional
        The feature costs ``c_j`` (default 1).
    forbidden : sequence of int, optional
        Feature indices no clause may use.
    max_literals : int, optional
        At most this many literals per clause.
    model_hook : callable, optional
        Called with the built model handle before the solve.
    start : Rule, optional
        A rule offered to the solver as its first incumbent.

    Returns
    -------
    LearnedRule
        The rule with its termination, objective, bound and gap.

    Raises
    ------
    ExactSolveError
        If the MIP ends without a solution and no start rule can stand in for it.
    """
    _check_arguments(formulation, theta)
    backend = get_backend(solver)
    build = FORMULATIONS[formulation]
    handle = build(
        problem.A, problem.y, n_clauses, theta=theta, sample_weight=problem.sample_weight, disable_cost=disable_cost,
        feature_cost=feature_cost, forbidden=forbidden, max_literals=max_literals,
    )
    if model_hook is not None:
        model_hook(handle)
    if not getattr(backend.capabilities, "continuous", True):  # CP-SAT: integer variables only, the same optimum
        handle.make_errors_integer()
    model = handle.model
    W_start = _usable_start(problem, start, n_clauses, forbidden, max_literals, model_hook)
    offered = W_start is not None and bool(getattr(backend.capabilities, "mip_start", False))
    if W_start is not None:
        handle.set_start(W_start)
    logger.info(
        "exact %s MIP: %d samples (%d distinct), %d features, R=%d; solving with %s%s",
        formulation, problem.n_samples, handle.groups.n_groups, problem.n_features, n_clauses, backend.name,
        " from the start rule" if offered else "",
    )
    large = advise_time_limit(handle.groups.n_groups, problem.n_features, time_limit)
    # incumbent, bound and gap as the solve goes
    with MipReporter("exact MIP", time_limit, large=large) as progress:
        try:
            config = SolveConfig(time_limit=time_limit, mip_gap=mip_gap, mip_start=offered)
            result = backend.solve(model, config=config, progress=progress)
        finally:
            backend.release(model)  # solved once: nothing to keep on the backend
    scorer = _Scorer(formulation, problem, theta, disable_cost, feature_cost)
    # the rules that stand in for the MIP's when it stops early: the start (its own W: a repeated clause would
    # count twice) and, without a model hook (whose constraints a constant may break), the two constant rules
    usable = start is not None and (W_start is not None or _meets_limits(problem, start, n_clauses, forbidden, max_literals, model_hook))
    fallbacks = [start] if usable and start is not None else []
    if model_hook is None:
        fallbacks += [constant_rule(problem.form, True), constant_rule(problem.form, False)]
    fallbacks = [rule for rule in fallbacks if rule.clauses or formulation == "zero_one"]  # no Hamming cost without a clause
    scored = [(scorer(rule_weights(problem, rule)), rule) for rule in fallbacks]
    fallback_objective, fallback = min(scored, key=lambda pair: pair[0]) if scored else (math.inf, None)
    # a limit reached (CBC's "intermediateNonInteger" is "feasible" with fractional values only, so no solution)
    stopped_early = result.termination in (
        TerminationCondition.time_limit, TerminationCondition.iteration_limit, TerminationCondition.feasible,
    )
    termination = Termination.from_solver(result.termination)
    if not result.has_solution and stopped_early and fallback is not None:
        # a limit reached before any incumbent; a solver error or crash is still an error
        logger.warning(
            "the exact %s MIP stopped (%s) without a solution of its own: returning %s", formulation,
            result.termination.value, "its start rule" if fallback is start else "the better constant rule",
        )
        rule, objective = fallback, fallback_objective
        breakdown = scorer.breakdown(rule_weights(problem, rule))
    elif result.termination in _INFEASIBLE and W_start is not None and fallback is not None:
        # every rule meeting the limits is a feasible point of the MIP, and the start is one: the claim is false
        logger.warning(
            "the exact %s MIP's solver reports %s, but its start rule is feasible: returning %s (termination unverified)",
            formulation, result.termination.value, "its start rule" if fallback is start else "the better constant rule",
        )
        termination = Termination.unverified
        rule, objective = fallback, fallback_objective
        breakdown = scorer.breakdown(rule_weights(problem, rule))
    else:
        try:
            result.raise_for_status(f"the exact {formulation} MIP")
        except SolveError as exc:
            raise ExactSolveError(str(exc), result=result) from None
        _round_binaries(model)
        rule = rule_from_model(handle, problem)
        breakdown = objective_breakdown(handle)
        objective = scorer(*two_level_weights(model))  # the returned rule's objective, recomputed from the data
        termination = checked_termination(result, objective, f"exact {formulation} MIP")
        # a proven optimum is the MIP's answer over rules of exactly R clauses (a rule of fewer may beat it), but a
        # rule of R clauses that beats it contradicts it; a MIP stopped early never returns worse than its fallback
        beaten = fallback is not None and fallback_objective < objective - _TOLERANCE * max(1.0, abs(objective))
        if beaten and fallback is not None and (termination != "optimal" or len(fallback.clauses) == n_clauses):
            logger.info("the MIP's rule (objective %.6g, %s) is worse than %s (%.6g): keeping it", objective, termination,
                        "its start" if fallback is start else "the better constant rule", fallback_objective)
            if termination == "optimal":
                termination = Termination.unverified
            rule, objective = fallback, fallback_objective
            breakdown = scorer.breakdown(rule_weights(problem, rule))
    bound, gap = checked_bound(result.bound, objective)
    if termination == "optimal":
        gap = 0.0 if gap is None else gap
    return LearnedRule(
        rule=rule,
        objective=objective,
        history=[objective],
        n_iter=1,
        termination=termination,
        n_solves=1,
        n_builds=1,
        solver_seconds=float(result.wall_time),
        exact=ExactInfo(bound=bound, gap=gap, breakdown=breakdown, solve=result, model=model),
    )


#: relative tolerance of "strictly better" when the MIP's rule is compared with its start
_TOLERANCE = 1e-9

#: The least seconds the MIP of ``solve_exact`` is given when its start used the whole time limit.
_MIN_MIP_SECONDS = 0.01

#: The share of an exact fit's time limit its start heuristic may use (the MIP gets what the start left).
START_SHARE = 0.5


def _usable_start(
    problem: CNFProblem, start: Rule | None, n_clauses: int, forbidden: Any, max_literals: int | None,
    model_hook: Callable[[Any], Any] | None,
) -> np.ndarray | None:
    """The start's binary W (d, n_clauses), padded by repeating a clause; None when it cannot be a start."""
    if start is None or model_hook is not None or not start.clauses or len(start.clauses) > n_clauses:
        return None
    try:
        W = rule_weights(problem, start)
    except ValueError:  # another form, or a literal that is no column of the problem
        return None
    if forbidden is not None and len(forbidden) and W[np.asarray(forbidden, dtype=int)].any():
        return None
    if max_literals is not None and W.sum(axis=0).max() > max_literals:
        return None
    repeats = [W[:, -1:]] * (n_clauses - W.shape[1])  # a CNF clause twice is the same rule (its literals cost twice)
    return np.hstack([W, *repeats]) if repeats else W


_INFEASIBLE = (TerminationCondition.infeasible, TerminationCondition.infeasible_or_unbounded)

#: The heuristics whose better rule (by the 0-1 objective) starts the exact MIP (:func:`heuristic_start`).
START_ALGORITHMS = ("cg", "am")


def _meets_limits(
    problem: CNFProblem, rule: Rule, n_clauses: int, forbidden: Any, max_literals: int | None, model_hook: Any,
) -> bool:
    """Whether ``rule`` is a rule of the problem with at most ``n_clauses`` clauses that meets the literal limits."""
    if model_hook is not None or len(rule.clauses) > n_clauses:
        return False
    try:
        W = rule_weights(problem, rule)
    except ValueError:
        return False
    if forbidden is not None and len(forbidden) and W[np.asarray(forbidden, dtype=int)].any():
        return False
    return not (max_literals is not None and W.shape[1] and W.sum(axis=0).max() > max_literals)


class _Scorer:
    """The MIP's objective (and its two parts) of a binary W, evaluated with numpy.

    Also the objective reported for the MIP's own rounded solution: the
    solver's value can be off by its feasibility tolerance (HiGHS reports
    2.999999 when a ψ is 0.9999997), so it is recomputed from the binary W.
    """

    def __init__(self, formulation: str, problem: CNFProblem, theta: float, disable_cost: float | None, feature_cost: Any) -> None:
        self.objective = zero_one_objective if formulation == "zero_one" else hamming_objective
        self.problem, self.theta, self.disable_cost, self.feature_cost = problem, theta, disable_cost or 0.0, feature_cost

    def __call__(self, W: np.ndarray, w0: np.ndarray | None = None, theta: float | None = None) -> float:
        problem = self.problem
        return self.objective(
            problem.A, problem.y, W, self.theta if theta is None else theta, sample_weight=problem.sample_weight, w0=w0,
            disable_cost=self.disable_cost, feature_cost=self.feature_cost,
        )

    def breakdown(self, W: np.ndarray) -> dict[str, float]:
        total, accuracy = self(W), self(W, theta=0.0)
        return {"accuracy": accuracy, "sparsity": total - accuracy, "total": total}


def constant_rule(form: str, value: bool) -> Rule:
    """The rule of ``form`` without literals that is ``value`` on every row.

    A DNF without terms is False and one empty term True; a CNF without
    clauses is True and one empty clause False.
    """
    empty_clause_value = form == "dnf"
    return Rule(form, (Clause(()),) if value == empty_clause_value else ())


def _check_arguments(formulation: str, theta: float, n_clauses: int | None = None) -> None:
    if n_clauses is not None and (isinstance(n_clauses, bool) or not isinstance(n_clauses, int | np.integer) or n_clauses < 1):
        raise ValueError(f"n_clauses must be an integer >= 1, got {n_clauses!r}")
    if formulation not in FORMULATIONS:
        raise ValueError(f"formulation must be one of {sorted(FORMULATIONS)}, got {formulation!r}")
    check_nonnegative("theta", theta)


def _round_binaries(model: pyo.ConcreteModel) -> None:
    """Snap binary variables to exact 0/1 (solvers return values like 0.9999999)."""
    for var in model.component_data_objects(pyo.Var):
        if var.is_binary() and var.value is not None:
            var.set_value(round(var.value), skip_validation=True)
