"""Checked optimality claims: a warm start cannot corrupt a solve, a claimed optimum is borne out by its rule,
a MIP stopped at its limit falls back to the better constant, and never returns worse than its start."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rulemodels import load_dataset
from rulemodels.algorithms.claims import CLAIM_TOLERANCE, checked_bound
from rulemodels.algorithms.exact import (
    constant_rule,
    heuristic_start,
    prepare_problem,
    solve_exact,
    solve_exact_problem,
)
from rulemodels.algorithms.polish import polish_rule, rule_weights
from rulemodels.models import zero_one_objective
from rulemodels.rules import Clause, Rule
from solvers import HighsBackend, SolveConfig, TerminationCondition, get_backend
from tests.helpers import DelegatingBackend, require_backend, tiny_data
from tests.helpers import exact_brute_force as brute_force

TOL = 1e-6


def pima_problem():
    """The problem where HiGHS, started from the rule below, reported objective 1.8 and returned the start (1.9).

    Pima, 50 rows (the study ``benchmarks/studies/exact_claims.py``, seed 12), DNF, 9 thresholds, R = 3,
    θ = 0.002 × 50. HiGHS logged "MIP start solution is feasible in the reduced space: objective value is 1.8".
    """
    X, y = load_dataset("pima")
    rows = np.sort(np.random.default_rng(2033136463).choice(len(X), size=50, replace=False))
    problem, _ = prepare_problem(X.iloc[rows], np.asarray(y)[rows], form="dnf", n_thresholds=9)
    literal = {str(lit): lit for lit in problem.literals}
    names = [
        ["pregnancies > 0.0", "glucose > 127.0", "skin_thickness > 22.0"],
        ["skin_thickness <= 0.0", "bmi > 28.0", "age <= 42.0", "age > 29.0"],
        ["pregnancies <= 1.0", "bmi > 43.0"],
    ]
    start = Rule("dnf", tuple(Clause(tuple(literal[name] for name in clause)) for clause in names))
    return problem, start, 0.1


def objective_of(problem, rule, theta):
    return zero_one_objective(problem.A, problem.y, rule_weights(problem, rule), theta, sample_weight=problem.sample_weight)


def test_a_highs_warm_start_does_not_corrupt_the_solve():
    """Before: HiGHS's objective (1.8) was not the objective of the solution it returned (the start, 1.9)."""
    require_backend("highs")
    problem, start, theta = pima_problem()
    assert objective_of(problem, start, theta) == pytest.approx(1.9)
    result = solve_exact_problem(problem, 3, theta, solver="highs", time_limit=2.0, start=start)
    assert result.solve.objective == pytest.approx(objective_of(problem, result.rule, theta), abs=TOL)
    assert result.objective == pytest.approx(objective_of(problem, result.rule, theta), abs=TOL)
    assert result.objective <= 1.9 + TOL
    assert result.exact_bound is None or result.exact_bound <= result.objective + TOL


def test_the_highs_backend_returns_the_solution_whose_objective_it_reports():
    """At the backend: the model's objective at the loaded values is the objective HiGHS reports."""
    require_backend("highs")
    import pyomo.environ as pyo

    from rulemodels.models import build_zero_one

    problem, start, theta = pima_problem()
    handle = build_zero_one(problem.A, problem.y, 3, theta=theta, sample_weight=problem.sample_weight)
    handle.set_start(rule_weights(problem, start))
    result = HighsBackend().solve(handle.model, config=SolveConfig(time_limit=1.0, mip_start=True))
    assert result.has_solution
    assert result.objective == pytest.approx(pyo.value(handle.model.objective), abs=TOL)


def test_polishing_from_the_corrupting_start_reports_a_consistent_result():
    require_backend("highs")
    problem, start, theta = pima_problem()
    rule, report = polish_rule(problem, start, theta, backend=get_backend("highs"), time_limit=2.0)
    assert report.objective == pytest.approx(objective_of(problem, rule, theta), abs=TOL)
    assert report.objective <= report.start_objective
    assert report.bound is None or report.bound <= report.objective + TOL


class ForgedObjective(DelegatingBackend):
    """Solves with HiGHS, then reports another objective (and bound) than the solution's: a solver's false claim."""

    def __init__(self, shift: float, bound_shift: float = 0.0):
        super().__init__(HighsBackend())
        self.shift, self.bound_shift = shift, bound_shift

    def solve(self, model, **kwargs):
        result = self.inner.solve(model, **kwargs)
        return dataclasses.replace(result, objective=result.objective + self.shift, bound=result.bound + self.bound_shift)


@pytest.mark.parametrize("shift, bound_shift", [(-0.5, -0.5), (0.0, 0.5)])
def test_a_claimed_optimum_that_its_rule_contradicts_is_not_reported_optimal(shift, bound_shift):
    require_backend("highs")
    A, y = tiny_data(0)
    honest = solve_exact(A, y, n_clauses=2, theta=0.3, solver="highs", warm_start=False)
    assert honest.termination == "optimal"
    forged = solve_exact(A, y, n_clauses=2, theta=0.3, solver=ForgedObjective(shift, bound_shift), warm_start=False)
    assert forged.solve.termination.value == "optimal"  # the solver's claim
    assert forged.termination == "unverified"
    assert forged.objective == pytest.approx(honest.objective, abs=TOL)  # the recomputed objective, not the solver's
    if bound_shift > 0:  # a bound above the returned rule's objective bounds nothing
        assert forged.exact_bound is None and forged.gap is None
    else:
        assert forged.exact_bound <= forged.objective


class StoppedWithFractionalValues(DelegatingBackend):
    """Solves with HiGHS, then reports what CBC reports when its limit stops it before an integer solution
    ("intermediateNonInteger", which is ``feasible`` with only fractional values, so no solution loaded)."""

    def __init__(self):
        super().__init__(HighsBackend())

    def solve(self, model, **kwargs):
        result = self.inner.solve(model, **kwargs)
        return dataclasses.replace(
            result, termination=TerminationCondition.feasible, has_solution=False, objective=None,
            message="intermediateNonInteger",
        )


def test_a_mip_stopped_before_an_integer_solution_returns_the_better_fallback():
    """CBC stopped at its limit with fractional values only (a cold 3 s solve of a 40-row sonar problem in the
    engine study): the exact mode raised ``ExactSolveError``; it now returns the better constant rule."""
    require_backend("highs")
    A, y = tiny_data(0)
    result = solve_exact(A, y, n_clauses=2, theta=0.3, solver=StoppedWithFractionalValues(), warm_start=False)
    constants = [constant_rule("dnf", value) for value in (True, False)]
    assert str(result.rule) in {str(rule) for rule in constants}
    assert result.termination == "feasible"


def test_checked_bound_drops_a_bound_above_the_objective_and_caps_rounding():
    assert checked_bound(1.0, 0.9) == (None, None)
    assert checked_bound(0.3 + 1e-12, 0.3) == (0.3, 0.0)
    assert checked_bound(0.5, 1.0) == (0.5, 0.5)
    assert checked_bound(None, 1.0) == (None, None)
    assert CLAIM_TOLERANCE <= 1e-6


def test_glpk_stopped_at_a_tiny_limit_from_a_constant_start_returns_the_better_constant():
    """It exited with "no feasible solution" when the start was the constant rule (GLPK takes no start)."""
    require_backend("glpk")
    X, y = load_dataset("pima")
    rows = np.sort(np.random.default_rng(0).choice(len(X), size=300, replace=False))
    problem, _ = prepare_problem(X.iloc[rows], np.asarray(y)[rows], form="dnf", n_thresholds=9)
    theta = 0.002 * 300
    constants = [constant_rule("dnf", True), constant_rule("dnf", False)]
    best_constant = min(objective_of(problem, rule, theta) for rule in constants)
    result = solve_exact_problem(problem, 2, theta, solver="glpk", time_limit=0.2, start=constants[1])
    assert result.termination in ("time_limit", "optimal")
    assert result.objective <= best_constant + TOL
    assert result.objective == pytest.approx(objective_of(problem, result.rule, theta), abs=TOL)


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_mip_stopped_at_its_limit_is_never_worse_than_its_start(solver):
    require_backend(solver)
    X, y = load_dataset("liver")
    rows = np.sort(np.random.default_rng(1).choice(len(X), size=200, replace=False))
    problem, _ = prepare_problem(X.iloc[rows], np.asarray(y)[rows], form="cnf", n_thresholds=9)
    theta = 0.002 * 200
    start = heuristic_start(problem, 2, theta)
    start_objective = objective_of(problem, start, theta)
    result = solve_exact_problem(problem, 2, theta, solver=solver, time_limit=0.05, start=start)
    assert result.objective <= start_objective + TOL
    assert result.objective == pytest.approx(objective_of(problem, result.rule, theta), abs=TOL)


def test_the_exact_start_is_the_better_of_column_generation_and_am():
    require_backend("highs")
    from rulemodels.algorithms.data import WorkingData
    from rulemodels.algorithms.lp_cache import LPSolutionCache
    from rulemodels.algorithms.run import learn

    X, y = load_dataset("pima")
    problem, _ = prepare_problem(X.iloc[:150], np.asarray(y)[:150], form="dnf", n_thresholds=9)
    theta = 0.002 * 150
    found = []
    for algorithm in ("cg", "am"):
        data = WorkingData.from_problem(problem)
        result = learn(LPSolutionCache(data, get_backend("highs")), algorithm=algorithm, n_clauses=2, theta=theta, max_iter=100)
        W, w0 = data.split(result.W)
        found.append(zero_one_objective(problem.A, problem.y, W, theta, sample_weight=problem.sample_weight))
    start = heuristic_start(problem, 2, theta)
    assert objective_of(problem, start, theta) == pytest.approx(min(found), abs=TOL)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_exact_results_equal_brute_force_with_and_without_a_start(seed, solver):
    """Small random problems: the warm-started and the cold MIP prove the brute-force optimum, and say so honestly."""
    require_backend(solver)
    form = "dnf" if seed % 2 else "cnf"
    R = 1 + seed % 2
    A, y = tiny_data(seed)
    truth = brute_force(seed, form, "zero_one", R, 0.3, False, None)
    for warm_start in (True, False):
        result = solve_exact(A, y, n_clauses=R, theta=0.3, form=form, solver=solver, warm_start=warm_start)
        assert result.termination == "optimal"
        assert result.objective == pytest.approx(truth, abs=TOL)
        assert result.solve.objective == pytest.approx(truth, abs=1e-5)
        assert result.exact_bound <= result.objective


def test_the_exact_fit_is_never_worse_than_its_best_heuristic_and_claims_no_proof_it_does_not_have():
    """40 rows of parkinsons (found by ``benchmarks/studies/ground_truth.py``), CNF, R = 2: AM's one-clause rule
    has objective 0.16, and the MIP over rules of exactly two clauses proves 0.32 (it cannot write one clause
    without paying a clause's literals twice). The exact fit returned 0.32 as "optimal"; it now returns AM's
    rule, as "feasible" and without the MIP's bound, which is a bound over two-clause rules only."""
    from rulemodels import BooleanRuleClassifier

    X, y = load_dataset("parkinsons")
    rows = np.sort(np.random.default_rng(1907332768).choice(len(X), size=40, replace=False))
    X, y = X.iloc[rows], np.asarray(y)[rows]
    common = dict(form="cnf", n_clauses=2, thresholds="quantile", n_thresholds=9, min_literal_rows=0, prune=False)
    heuristics = [BooleanRuleClassifier(algorithm=name, **common).fit(X, y).objective_ for name in ("am", "cg")]
    exact = BooleanRuleClassifier(algorithm="exact", **common).fit(X, y)
    assert exact.objective_ <= min(heuristics) + TOL
    if exact.objective_ < 0.32 - TOL:  # a rule the two-clause MIP does not hold: no proof, no bound
        assert exact.termination_ == "feasible" and exact.exact_bound_ is None
