"""MIP polishing: never worse than its start, the exact optimum given time, the warm start really used."""

from __future__ import annotations

import logging

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.algorithms.exact import solve_exact_problem
from rulemodels.algorithms.polish import polish_rule, rule_weights
from rulemodels.models import CNFProblem, build_hamming, build_zero_one, hamming_objective, zero_one_objective
from rulemodels.rules import Clause, Literal, Rule
from solvers import Backend
from tests.helpers import DelegatingBackend, require_backend

TOL = 1e-6


def random_problem(seed: int, form: str, n: int = 40, d: int = 7) -> CNFProblem:
    """Noisy labels of a two-term DNF on random binary data, with duplicated rows (merged into groups by the MIP)."""
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (n, d))
    A[n // 2:n // 2 + 5] = A[:5]  # identical rows, some with other labels
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & (1 - A[:, 3]))).astype(int)
    y[rng.random(n) < 0.15] ^= 1
    weights = rng.uniform(0.5, 2.0, n) if seed % 2 else None
    return CNFProblem.from_binary(A, y, form=form, sample_weight=weights)


def random_rule(problem: CNFProblem, seed: int, n_clauses: int) -> Rule:
    """A rule of the problem's form with ``n_clauses`` clauses of 0-3 random literals (an empty one included)."""
    rng = np.random.default_rng(seed + 1000)
    clauses = []
    for r in range(n_clauses):
        size = 0 if r == 1 else int(rng.integers(1, 4))
        chosen = rng.choice(problem.n_features, size=size, replace=False)
        clauses.append(Clause(tuple(problem.literals[j] for j in sorted(chosen))))
    return Rule(problem.form, tuple(clauses))


def zero_one(problem: CNFProblem, rule: Rule, theta: float) -> float:
    return zero_one_objective(problem.A, problem.y, rule_weights(problem, rule), theta, sample_weight=problem.sample_weight)


@pytest.mark.parametrize("formulation", ["zero_one", "hamming"])
@pytest.mark.parametrize("disable_cost", [None, 0.5])
@pytest.mark.parametrize("seed", range(4))
def test_set_start_is_a_feasible_point_whose_objective_is_the_rules(seed, disable_cost, formulation):
    problem = random_problem(seed, "cnf")
    W = rule_weights(problem, random_rule(problem, seed, 3))
    build = build_zero_one if formulation == "zero_one" else build_hamming
    handle = build(problem.A, problem.y, 3, theta=0.7, sample_weight=problem.sample_weight, disable_cost=disable_cost)
    handle.set_start(W)
    model = handle.model
    for constraint in model.component_data_objects(pyo.Constraint, active=True):
        body = pyo.value(constraint.body)
        assert constraint.lower is None or body >= pyo.value(constraint.lower) - TOL, constraint.name
        assert constraint.upper is None or body <= pyo.value(constraint.upper) + TOL, constraint.name
    for var in model.component_data_objects(pyo.Var):
        assert var.value is not None and (var.lb is None or var.value >= var.lb) and (var.ub is None or var.value <= var.ub)
    measure = zero_one_objective if formulation == "zero_one" else hamming_objective
    expected = measure(problem.A, problem.y, W, 0.7, sample_weight=problem.sample_weight)
    assert pyo.value(model.objective) == pytest.approx(expected, abs=TOL)


def test_set_start_refuses_a_start_of_the_wrong_shape():
    problem = random_problem(0, "cnf")
    handle = build_zero_one(problem.A, problem.y, 2, theta=1.0)
    with pytest.raises(ValueError, match=r"binary W of shape \(7, 2\)"):
        handle.set_start(np.zeros((7, 3)))


def polish_case(solver: str, seed: int, form: str, n_clauses: int) -> tuple[Backend, CNFProblem, Rule]:
    """The backend, a random problem of ``form`` and a random start of ``n_clauses`` clauses for it."""
    problem = random_problem(seed, form)
    return require_backend(solver), problem, random_rule(problem, seed, n_clauses)


#: The random problems and starts of the polishing tests: three seeds of each form.
EACH_SEED_AND_FORM = pytest.mark.parametrize(("seed", "form"), [(seed, form) for form in ("dnf", "cnf") for seed in range(3)])


@EACH_SEED_AND_FORM
def test_polishing_never_returns_a_worse_objective_than_its_start(solver_name, seed, form):
    backend, problem, start = polish_case(solver_name, seed, form, 3)
    theta = 0.8
    rule, report = polish_rule(problem, start, theta, backend=backend, time_limit=20)
    start_objective = zero_one(problem, start, theta)
    assert report.start_objective == pytest.approx(start_objective)
    assert report.objective <= start_objective + TOL
    assert zero_one(problem, rule, theta) == pytest.approx(report.objective)  # the objective is the returned rule's
    assert report.polished == (rule != start)
    assert report.mip_start == (solver_name in ("highs", "cbc"))
    assert report.n_clauses == 3 and rule.form == form
    if report.bound is not None:
        assert report.bound <= report.objective + TOL
        assert report.gap >= 0


@pytest.mark.parametrize("solver", ["highs", "cbc"])
@EACH_SEED_AND_FORM
def test_polishing_with_enough_time_reaches_the_exact_optimum(solver, seed, form):
    backend, problem, start = polish_case(solver, seed, form, 2)
    theta = 0.8
    exact = solve_exact_problem(problem, 2, theta, solver=backend, time_limit=60)
    assert exact.termination == "optimal"
    rule, report = polish_rule(problem, start, theta, backend=backend, time_limit=60)
    assert report.termination == "optimal"
    assert report.objective == pytest.approx(exact.objective, abs=TOL)
    assert report.start_objective > exact.objective + TOL  # the random start is not optimal: polishing did the work
    assert report.polished
    assert report.gap == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_time_limit_too_short_for_the_mip_returns_the_start(solver):
    """With 1e-9 s the MIP alone finds no integer solution; the start comes back, not an error."""
    backend = require_backend(solver)
    problem = random_problem(0, "dnf", n=80, d=12)
    start = Rule("dnf", (Clause((problem.literals[1],)), Clause((problem.literals[2], problem.literals[3]))))
    rule, report = polish_rule(problem, start, 1.0, backend=backend, time_limit=1e-9)
    assert rule == start
    assert not report.polished
    assert report.termination == "time_limit"
    assert report.objective == pytest.approx(zero_one(problem, start, 1.0))


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_the_backend_keeps_the_start_as_incumbent_and_finds_nothing_without_it(solver):
    backend = require_backend(solver)
    problem = random_problem(0, "dnf", n=80, d=12)
    W = np.zeros((12, 2))
    W[1, 0] = W[2, 1] = W[3, 1] = 1
    expected = zero_one_objective(problem.A, problem.y, W, 1.0)
    started = build_zero_one(problem.A, problem.y, 2, theta=1.0)
    started.set_start(W)
    result = backend.solve(started.model, time_limit=1e-9, mip_start=True)
    assert result.has_solution and result.objective == pytest.approx(expected)
    assert np.array_equal(np.round([[started.model.w[j, r].value for r in range(2)] for j in range(12)]), W)
    cold = build_zero_one(problem.A, problem.y, 2, theta=1.0)
    result = backend.solve(cold.model, time_limit=1e-9)
    values = np.array([var.value for var in cold.model.w.values()], dtype=float) if result.has_solution else None
    # no solution (HiGHS), or CBC's LP relaxation at its stop (fractional): never the start
    assert values is None or not np.array_equal(values.reshape(12, 2), W)


def test_rules_polishing_cannot_start_from_are_refused_with_the_reason():
    problem = random_problem(0, "dnf")
    highs = require_backend("highs")
    with pytest.raises(ValueError, match="literal 'age' of the rule is not a column"):
        polish_rule(problem, Rule("dnf", (Clause((Literal("age", "is_true"),)),)), 1.0, backend=highs, time_limit=1)
    with pytest.raises(ValueError, match="the rule is a CNF but the problem learns a DNF"):
        polish_rule(problem, Rule("cnf", (Clause((problem.literals[0],)),)), 1.0, backend=highs, time_limit=1)
    with pytest.raises(ValueError, match="no clause"):
        polish_rule(problem, Rule("dnf", ()), 1.0, backend=highs, time_limit=1)


@pytest.mark.parametrize("seed", range(2))
def test_hamming_polishing_compares_by_the_hamming_objective(seed):
    problem = random_problem(seed, "dnf")
    start = random_rule(problem, seed, 2)
    rule, report = polish_rule(problem, start, 0.8, backend=require_backend("highs"), time_limit=20, formulation="hamming")
    measure = lambda r: hamming_objective(
        problem.A, problem.y, rule_weights(problem, r), 0.8, sample_weight=problem.sample_weight,
    )
    assert report.formulation == "hamming"
    assert report.start_objective == pytest.approx(measure(start))
    assert report.objective == pytest.approx(measure(rule)) and report.objective <= report.start_objective + TOL


class NoStartBackend(DelegatingBackend):
    """The real backend, never offered a start (as GLPK): CBC then stops at its limit with its LP relaxation's values."""

    def solve(self, model, **kwargs):
        return self.inner.solve(model, **{**kwargs, "mip_start": False})


def test_a_fractional_solution_at_the_time_limit_is_not_read_as_a_rule(caplog):
    backend = NoStartBackend(require_backend("cbc"))
    problem = random_problem(0, "dnf", n=80, d=12)
    start = Rule("dnf", (Clause((problem.literals[1],)), Clause((problem.literals[2], problem.literals[3]))))
    with caplog.at_level(logging.INFO, logger="rulemodels.algorithms.polish"):
        rule, report = polish_rule(problem, start, 1.0, backend=backend, time_limit=1e-9)
    # the backend no longer loads CBC's fractional values (test_solver_faults); polishing would refuse them too
    assert report.termination == "feasible"
    assert rule == start and not report.polished
    assert report.objective == pytest.approx(zero_one(problem, start, 1.0))
