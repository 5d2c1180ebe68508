"""Checked optimality claims of the exact MIP and of polishing (``docs/polishing.md``).

A MIP solver's "optimal" is reported only when the rule it returned bears it
out: the rule's objective recomputed from the data (errors + θ × literals,
with the weights, as the model defines it) equals the solver's objective, and
the solver's bound is at most it, within :data:`CLAIM_TOLERANCE`. Otherwise
the termination is ``unverified``. The objective reported is always the
recomputed one, and a bound above it is dropped.
"""

from __future__ import annotations

import logging
import math

from rulemodels.algorithms.result import Termination
from solvers import SolveResult

logger = logging.getLogger(__name__)

__all__ = ["CLAIM_TOLERANCE", "checked_bound", "checked_termination"]


#: Relative tolerance (of max(1, |objective|)) within which the solver's objective must equal the returned rule's
#: objective recomputed from the data, and its bound must not exceed it, for an "optimal" to be reported: the
#: objectives are sums of sample weights and multiples of θ, and a solver's values are off by its feasibility
#: tolerance (1e-6 in HiGHS, CBC and GLPK) at most.
CLAIM_TOLERANCE = 1e-6


def checked_termination(result: SolveResult, objective: float, what: str) -> Termination:
    """The termination to report for the MIP's own rule of ``objective`` (recomputed): ``unverified`` for a claim it contradicts.

    An ``optimal`` stands when the solver's objective equals ``objective`` and
    its bound is at most it, within :data:`CLAIM_TOLERANCE`; otherwise the
    solver's claim is not borne out by the rule it returned, and the
    termination is ``unverified``. Other terminations claim no optimum and are kept.

    Parameters
    ----------
    result : SolveResult
        The MIP solve whose rule was returned.
    objective : float
        The returned rule's objective, recomputed from the data.
    what : str
        The MIP's name in the warnings (for example ``"exact zero_one MIP"``).

    Returns
    -------
    Termination
        The solver's termination, or ``unverified`` when its "optimal" is contradicted.
    """
    termination = Termination.from_solver(result.termination)
    scale = max(1.0, abs(objective))
    solver_objective = result.objective
    agrees = solver_objective is not None and abs(solver_objective - objective) <= CLAIM_TOLERANCE * scale
    below = result.bound is None or result.bound <= objective + CLAIM_TOLERANCE * scale
    if not agrees:
        logger.warning(
            "the %s's solver reports objective %s, but the rule it returned has %.6g (recomputed from the data)%s",
            what, solver_objective, objective, ": its optimum is not reported" if result.is_optimal else "",
        )
    if not below:
        logger.warning("the %s's solver reports bound %.6g, above the returned rule's objective %.6g",
                       what, result.bound, objective)
    if result.is_optimal and not (agrees and below):
        return Termination.unverified
    return termination


def checked_bound(bound: float | None, objective: float) -> tuple[float | None, float | None]:
    """The bound and gap to report for a returned rule of ``objective``: none when the bound exceeds it (a contradiction).

    Parameters
    ----------
    bound : float or None
        The solver's bound (a lower bound of the minimisation).
    objective : float
        The returned rule's objective, recomputed from the data.

    Returns
    -------
    tuple
        ``(bound, gap)``: the bound (capped at ``objective`` within
        :data:`CLAIM_TOLERANCE`) and ``(objective − bound) / max(1e-10, |objective|)``,
        or ``(None, None)``.
    """
    if bound is None or not math.isfinite(bound):
        return None, None
    if bound > objective + CLAIM_TOLERANCE * max(1.0, abs(objective)):
        # the MIP's bound holds for rules of exactly R clauses, and a solver can be wrong: a bound above a rule at
        # hand bounds nothing that is reported
        return None, None
    bound = min(bound, objective)  # a solver's rounding (HiGHS can report 0.30000000000000004 for an optimum of 0.3)
    return bound, (objective - bound) / max(1e-10, abs(objective))
