"""MIP polishing: the exact two-level MIP, warm-started from a heuristic's rule, with a time limit.

The heuristics (SCS/SCN, TLP, BCD, AM, and any other that returns a rule)
stop at a local optimum of their own objective. Polishing hands their rule to
the exact MIP as a starting incumbent (:meth:`TwoLevelModel.set_start`, then
``Backend.solve(..., mip_start=True)``) and lets a MIP solver improve it
within a time budget. The rule returned is the better of the two by one
objective, the MIP's own: by default the 0-1 training objective of the
exact 0-1 error MIP (eq. (4.14) GeneralLPFormulation),

    Σ_i ω_i |ŷ_i − y_i| + θ Σ_r Σ_j c_j w_jr   (weighted training errors + θ × literals),

so polishing never returns a rule with a worse objective than its start,
and the MIP's proven bound says how far from optimal (over rules with as
many clauses) the returned rule can be. The MIP has R = the start's number
of clauses. Polishing knows nothing of the heuristic: it takes a
:class:`~rulemodels.Rule` over the problem's literals (``docs/polishing.md``).

HiGHS and CBC take the start; GLPK has none, so its MIP starts from nothing
and may find no solution within the budget: the start rule then comes back.

The seconds of polishing cover building the MIP as well as solving it. On
large data building the MIP (Pyomo's model, then the solver's copy) takes
seconds of its own, so the MIP is built only when the budget can pay for it:
:func:`polish_build_seconds` estimates the building from the model's size
(its nonzeros), and a budget below that estimate skips polishing (the start
comes back, with a report whose ``built`` is False and termination
``"time_limit"``). The solve gets what building left of the budget.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulemodels.algorithms.claims import checked_bound, checked_termination
from rulemodels.algorithms.mip_progress import MipReporter
from rulemodels.algorithms.result import Termination
from rulemodels.models import (
    CNFProblem,
    build_hamming,
    build_zero_one,
    hamming_objective,
    is_integral,
    two_level_weights,
    zero_one_objective,
)
from rulemodels.rules import Rule
from solvers import Backend, SolveConfig

logger = logging.getLogger(__name__)

__all__ = ["BUILD_SECONDS_PER_NONZERO", "PolishReport", "polish_build_seconds", "polish_rule", "rule_weights"]

#: Seconds to build one nonzero of a polishing (or exact) MIP, Pyomo's model and the solver's copy of it (about
#: 2 s for R = 1 on 2,000 rows of 216 binary features, half of them true; a loaded machine builds slower): the
#: estimate :func:`polish_build_seconds` compares with a budget before building.
BUILD_SECONDS_PER_NONZERO = 1e-5

#: The least seconds a built MIP's solve is given when building took (nearly) the whole budget.
MIN_SOLVE_SECONDS = 0.01

_BUILDERS: dict[str, Callable[..., Any]] = {"zero_one": build_zero_one, "hamming": build_hamming}
_OBJECTIVES = {"zero_one": zero_one_objective, "hamming": hamming_objective}


@dataclass(frozen=True)
class PolishReport:
    """What polishing did.

    Parameters
    ----------
    polished : bool
        Whether the MIP found a rule with a strictly lower objective than the start (and it was returned).
    start_objective : float
        The MIP's objective (the 0-1 objective by default) of the heuristic's rule.
    objective : float
        The MIP's objective of the returned rule (``<= start_objective``).
    bound : float or None
        The MIP solver's proven lower bound on that objective over all rules with
        ``n_clauses`` clauses (None when the solver proved none); capped at
        ``objective``, which solvers can overshoot by their tolerance.
    gap : float or None
        ``(objective − bound) / max(1e-10, |objective|)``: how much better than the
        returned rule a rule with ``n_clauses`` clauses can be at most, relative to it
        (0: proved optimal).
    termination : Termination
        Why the MIP stopped (its solver's reason: ``"optimal"``, ``"time_limit"``...; :meth:`Termination.from_solver`).
    n_clauses : int
        R of the MIP (the start's number of clauses).
    formulation : str
        ``"zero_one"`` or ``"hamming"``.
    solver : str
        The name of the MIP solver's backend.
    mip_start : bool
        Whether the solver was offered the start (False with GLPK).
    seconds : float
        Wall time of the MIP solve (loading the model into the solver included).
    built : bool
        Whether the MIP was built and solved; False when the budget was below
        the estimated cost of building it (:func:`polish_build_seconds`): the
        start is returned, with termination ``"time_limit"``.
    build_seconds : float
        Wall time of building the Pyomo model (0 when not built).
    """

    polished: bool
    start_objective: float
    objective: float
    bound: float | None
    gap: float | None
    termination: Termination
    n_clauses: int
    formulation: str
    solver: str
    mip_start: bool
    seconds: float
    built: bool = True
    build_seconds: float = 0.0


def rule_weights(problem: CNFProblem, rule: Rule) -> np.ndarray:
    """The binary CNF weights W (d, R) of ``rule`` on ``problem``: ``W[j, r] = 1`` when literal j is in clause r.

    The inverse of :meth:`CNFProblem.rule_from_weights` for a rule of the problem's
    form over its literals (a DNF term's literals are the columns of the negated
    problem's clause, paper section 3).

    Parameters
    ----------
    problem : CNFProblem
        The problem the rule was learned on (its literals are the columns of W).
    rule : Rule
        A rule of the problem's form over its literals.

    Returns
    -------
    numpy.ndarray of shape (d, R)
        The 0/1 weights, one column per clause of ``rule``, in its order.

    Raises
    ------
    ValueError
        If the rule's form is not the problem's, or a literal of it is not a column of the problem.
    """
    if rule.form != problem.form:
        raise ValueError(f"the rule is a {rule.form.upper()} but the problem learns a {problem.form.upper()}")
    column_of = {literal: j for j, literal in enumerate(problem.literals)}
    W = np.zeros((problem.n_features, len(rule.clauses)))
    for r, clause in enumerate(rule.clauses):
        for literal in clause.literals:
            j = column_of.get(literal)
            if j is None:
                raise ValueError(f"literal '{literal}' of the rule is not a column of the problem: polish a rule learned on it")
            W[j, r] = 1.0
    return W


def polish_build_seconds(A: Any, n_clauses: int) -> float:
    """The estimated seconds to build the exact two-level MIP with ``n_clauses`` clauses on the binary rows ``A``.

    Proportional to the model's size: each clause has a constraint term per
    true entry of ``A`` and per row, and a variable per feature
    (:data:`BUILD_SECONDS_PER_NONZERO` each). It counts, it does not time:
    the same data give the same estimate on a busy and an idle machine.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d)
        The binary features of the MIP's rows.
    n_clauses : int
        R, the MIP's number of clauses.

    Returns
    -------
    float
        The estimated seconds.
    """
    n_rows, n_features = A.shape
    nonzeros = int(A.nnz) if hasattr(A, "nnz") else int(np.count_nonzero(A))
    return BUILD_SECONDS_PER_NONZERO * max(1, n_clauses) * (nonzeros + n_rows + n_features)


def polish_rule(
    problem: CNFProblem,
    rule: Rule,
    theta: float,
    *,
    backend: Backend,
    time_limit: float,
    formulation: str = "zero_one",
    disable_cost: float | None = None,
    mip_gap: float | None = None,
    feature_cost: Any = None,
    forbidden: Any = None,
    max_literals: int | None = None,
    model_hook: Callable[[Any], Any] | None = None,
    budget: float | None = None,
) -> tuple[Rule, PolishReport]:
    """Warm-start the exact MIP from ``rule`` and return the better rule with a :class:`PolishReport`.

    Parameters
    ----------
    problem : CNFProblem
        The training problem the rule was learned on.
    rule : Rule
        The start, of the problem's form, over its literals, with at least one clause.
    theta : float
        θ in the paper's units (the learner's).
    backend : Backend
        The MIP solver; the start is offered when ``backend.capabilities.mip_start``.
    time_limit : float
        Seconds for the MIP's solve.
    formulation : {"zero_one", "hamming"}
        The exact MIP, and so the objective the two rules are compared by.
    disable_cost : float, optional
        The MIP may disable clauses (always-true feature of this cost), as the learner could.
    mip_gap : float, optional
        Relative gap at which the MIP stops (the backend's default otherwise).
    feature_cost, forbidden, max_literals : optional
        The domain constraints (``docs/constraints.md``) as the MIP's
        costs c_j and constraints ``forbidden_literal[j, r]``, ``max_literals[r]``;
        the start must meet them (a rule learned under them does).
    model_hook : callable, optional
        Called with the built MIP's handle before the solve; may add constraints on ``w``.
    budget : float, optional
        Seconds for building the MIP and solving it (the estimator's
        ``polish``). Below the estimated cost of building it
        (:func:`polish_build_seconds`) the MIP is not built and ``rule`` comes
        back (the report's ``built`` is False, its termination
        ``"time_limit"``); otherwise the solve gets what building left, at
        most ``time_limit``. None: the MIP is built, and solved for ``time_limit``.

    Returns
    -------
    (Rule, PolishReport)
        The MIP's rule when its objective is strictly lower than the start's
        (by more than 1e-9 relative), else ``rule`` itself.
    """
    if formulation not in _BUILDERS:
        raise ValueError(f"formulation must be one of {sorted(_BUILDERS)}, got {formulation!r}")
    if not rule.clauses:
        raise ValueError("the rule has no clause: a MIP with R = 0 clauses has nothing to polish")
    W_start = rule_weights(problem, rule)
    objective_of = _OBJECTIVES[formulation]

    def objective(W: np.ndarray, w0: np.ndarray | None) -> float:
        return objective_of(
            problem.A, problem.y, W, theta, sample_weight=problem.sample_weight, w0=w0, disable_cost=disable_cost or 0.0,
            feature_cost=feature_cost,
        )

    start_objective = objective(W_start, None)
    n_clauses = W_start.shape[1]
    estimate = polish_build_seconds(problem.A, n_clauses)
    if budget is not None and budget < estimate:
        logger.info(
            "polishing skipped: %.3g s cannot build the %s MIP (R=%d, %d rows x %d features: about %.2g s to build); "
            "keeping the start (termination time_limit)", budget, formulation, n_clauses, *problem.A.shape, estimate,
        )
        return rule, PolishReport(
            polished=False, start_objective=start_objective, objective=start_objective, bound=None, gap=None,
            termination=Termination.time_limit, n_clauses=n_clauses, formulation=formulation, solver=backend.name,
            mip_start=False, seconds=0.0, built=False,
        )
    building = time.perf_counter()
    handle = _BUILDERS[formulation](
        problem.A, problem.y, n_clauses, theta=theta, sample_weight=problem.sample_weight, disable_cost=disable_cost,
        feature_cost=feature_cost, forbidden=forbidden, max_literals=max_literals,
    )
    if model_hook is not None:
        model_hook(handle)
    if not getattr(backend.capabilities, "continuous", True):  # CP-SAT: integer variables only, the same optimum
        handle.make_errors_integer()
    offered = bool(getattr(backend.capabilities, "mip_start", False))
    handle.set_start(W_start)
    build_seconds = time.perf_counter() - building
    solve_seconds = time_limit if budget is None else max(min(time_limit, budget - build_seconds), MIN_SOLVE_SECONDS)
    # incumbent, bound and gap when it runs for seconds
    with MipReporter("polishing MIP", solve_seconds) as progress:
        try:
            config = SolveConfig(time_limit=solve_seconds, mip_gap=mip_gap, mip_start=offered)
            result = backend.solve(handle.model, config=config, progress=progress)
        finally:
            backend.release(handle.model)
    best_rule, best_objective, polished = rule, start_objective, False
    W, w0 = two_level_weights(handle.model) if result.has_solution else (None, None)
    if W is not None and not is_integral(W if w0 is None else np.concatenate([W.ravel(), w0])):
        # CBC stopped by its time limit before any integer solution reports its LP relaxation's values
        logger.info(
            "polishing: the %s MIP stopped (%s) with a fractional solution; keeping the start", backend.name, result.termination.value,
        )
        W = None
    termination = Termination.from_solver(result.termination)
    if W is not None:
        W, w0 = np.round(W), None if w0 is None else np.round(w0)  # solvers return 0.9999999 for 1
        found = objective(W, w0)
        termination = checked_termination(result, found, f"polishing {formulation} MIP")  # "optimal" only when borne out
        if found < start_objective - 1e-9 * max(1.0, abs(start_objective)):
            best_rule, best_objective, polished = problem.rule_from_weights(W, w0), found, True
    elif result.is_optimal:  # an optimum claimed without an integral solution to bear it out
        termination = Termination.unverified
    bound, gap = checked_bound(result.bound, best_objective)
    if termination == "optimal" and gap is None:
        termination = Termination.unverified
    report = PolishReport(
        polished=polished, start_objective=start_objective, objective=best_objective, bound=bound, gap=gap,
        termination=termination, n_clauses=n_clauses, formulation=formulation,
        solver=backend.name, mip_start=offered, seconds=float(result.wall_time), build_seconds=build_seconds,
    )
    logger.info(
        "polishing (%s MIP, R=%d, %s%s, %g s, %.2g of them building): objective %.6g -> %.6g%s, bound %s, gap %s (%s)",
        formulation, n_clauses, backend.name, " warm-started" if offered else " without a start", time_limit, build_seconds,
        start_objective, best_objective, " (improved)" if polished else " (start kept)",
        "none" if bound is None else f"{bound:.6g}", "none" if gap is None else f"{gap:.4f}", report.termination,
    )
    return best_rule, report
