"""The scip backend: brute-force optima of the exact MIP, determinism, a wrong start, the time limit, its statuses."""

from __future__ import annotations

import logging

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.algorithms.exact import prepare_problem, solve_exact_problem
from rulemodels.models import build_zero_one, zero_one_objective
from solvers import TerminationCondition, get_backend, registry
from solvers import scip as scip_module
from tests.helpers import require_backend


def random_problem(seed: int, n: int, d: int, form: str, weighted: bool):
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (n, d))
    y = rng.integers(0, 2, n)
    weights = rng.choice([0.5, 1.0, 2.0], size=n) if weighted else None
    problem, _ = prepare_problem(A, y, form=form, sample_weight=weights)
    return problem


def brute_force(problem, R: int, theta: float) -> float:
    A, y = problem.A.toarray(), problem.y
    d = A.shape[1]
    best = np.inf
    for code in range(2 ** (d * R)):
        W = np.array([(code >> k) & 1 for k in range(d * R)], float).reshape(d, R)
        best = min(best, zero_one_objective(A, y, W, theta, sample_weight=problem.sample_weight))
    return float(best)


@pytest.mark.parametrize("R", [1, 2])
@pytest.mark.parametrize("form", ["cnf", "dnf"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_zero_one_mip_equals_brute_force_and_highs(seed, form, R):
    scip = require_backend("scip")
    problem = random_problem(seed, 14, 4, form, weighted=seed != 0)
    theta = 0.4
    expected = brute_force(problem, R, theta)
    solved = solve_exact_problem(problem, R, theta, solver=scip)
    assert solved.termination == "optimal"
    assert solved.objective == pytest.approx(expected, abs=1e-6)
    assert solved.exact_bound == pytest.approx(expected, abs=1e-6)  # SCIP's default gap is 0: a proof
    assert solve_exact_problem(problem, R, theta, solver="highs").objective == pytest.approx(expected, abs=1e-6)


def zero_one_model(seed: int = 3, n: int = 30, d: int = 6, R: int = 2):
    problem = random_problem(seed, n, d, "cnf", weighted=True)
    return build_zero_one(problem.A, problem.y, R, theta=0.3, sample_weight=problem.sample_weight)


def test_two_solves_give_identical_solution_values():
    scip = require_backend("scip")
    handle = zero_one_model()
    variables = list(handle.model.component_data_objects(pyo.Var))
    first = scip.solve(handle.model)
    values = first.values(variables)
    second_model = zero_one_model().model
    second = scip.solve(second_model)
    assert first.termination is second.termination is TerminationCondition.optimal
    np.testing.assert_array_equal(values, second.values(list(second_model.component_data_objects(pyo.Var))))
    assert scip.solve(handle.model).objective == first.objective


def test_a_wrong_start_is_not_offered_and_does_not_change_the_optimum(caplog):
    scip = require_backend("scip")
    cold = scip.solve(zero_one_model().model)
    handle = zero_one_model()
    for var in handle.model.component_data_objects(pyo.Var):
        var.set_value(0.0)  # w = 0 and ψ = 0: every positive sample is misclassified at no cost, infeasible
    with caplog.at_level(logging.WARNING, logger="solvers.scip"):
        warm = scip.solve(handle.model, mip_start=True)
    assert warm.extra["start"].startswith("not offered: constraint pos_error")
    assert "no feasible solution" in caplog.text
    assert warm.termination is TerminationCondition.optimal
    assert warm.objective == pytest.approx(cold.objective, abs=1e-9)


def test_a_feasible_start_is_kept_and_is_the_incumbent_at_a_tiny_node_limit():
    scip = require_backend("scip")
    handle = zero_one_model(seed=4, n=40, d=8)
    W = np.zeros((len(handle.model.J), len(handle.model.R)))
    W[0, 0] = W[1, 1] = 1
    handle.set_start(W)
    start_objective = pyo.value(handle.model.objective)
    result = scip.solve(handle.model, mip_start=True, options={"limits/nodes": 1, "presolving/maxrounds": 0})
    assert result.extra["start"] == "offered, kept"
    assert result.has_solution and result.objective <= start_objective + 1e-9


def test_time_limit_ends_with_a_solution_and_a_gap():
    scip = require_backend("scip")
    handle = zero_one_model(seed=5, n=200, d=24, R=3)
    handle.set_start(np.zeros((len(handle.model.J), len(handle.model.R))))
    seen = []
    result = scip.solve(handle.model, time_limit=0.5, mip_start=True, progress=seen.append)
    assert result.termination is TerminationCondition.time_limit
    assert result.has_solution and result.objective is not None
    assert result.bound is not None and result.bound <= result.objective + 1e-9
    assert seen[0].event == "start" and seen[-1].event == "end"
    assert seen[-1].incumbent == pytest.approx(result.objective)
    assert any(report.event == "incumbent" for report in seen)


def test_every_scip_status_maps_to_a_termination_and_an_unknown_one_is_logged(caplog):
    expected = {
        "optimal": "optimal", "gaplimit": "optimal", "timelimit": "time_limit", "infeasible": "infeasible",
        "unbounded": "unbounded", "inforunbd": "infeasible_or_unbounded", "userinterrupt": "interrupted",
        "nodelimit": "iteration_limit", "sollimit": "feasible", "memlimit": "error",
    }
    for status, termination in expected.items():
        assert scip_module.map_status(status).value == termination
    with caplog.at_level(logging.WARNING, logger="solvers.scip"):
        assert scip_module.map_status("unknown") is TerminationCondition.unknown
        assert scip_module.map_status("a new status") is TerminationCondition.unknown
    assert caplog.text.count("treating it as 'unknown'") == 2


def test_unbounded_lp_is_reported():
    scip = require_backend("scip")
    model = pyo.ConcreteModel()
    model.x = pyo.Var(domain=pyo.NonNegativeReals)
    model.obj = pyo.Objective(expr=-model.x)
    result = scip.solve(model)
    assert result.termination in (TerminationCondition.unbounded, TerminationCondition.infeasible_or_unbounded)
    assert not result.has_solution


def test_without_pyscipopt_it_is_unavailable_with_the_install_hint(monkeypatch):
    monkeypatch.setattr(scip_module, "_availability", lambda: (False, "the Python package 'pyscipopt' is not installed"))
    backend = get_backend("scip", check_available=False)
    assert not backend.available() and backend.version() is None
    with pytest.raises(registry.SolverNotFoundError, match=r"solver 'scip' not available .*rulemodels\[scip\]"):
        get_backend("scip")


def test_column_generation_refuses_a_backend_without_duals(pima_200):
    from rulemodels import BooleanRuleClassifier

    require_backend("scip")
    X, y = pima_200
    with pytest.raises(ValueError, match="duals, which solver 'scip' does not give"):
        BooleanRuleClassifier(algorithm="cg", solver="scip", n_clauses=1).fit(X.iloc[:60], y.iloc[:60])


def test_a_start_scip_itself_refuses_is_not_kept_and_the_optimum_is_unchanged(monkeypatch, caplog):
    scip = require_backend("scip")
    cold = scip.solve(zero_one_model().model)
    handle = zero_one_model()
    for var in handle.model.component_data_objects(pyo.Var):
        var.set_value(0.0)
    monkeypatch.setattr(scip_module, "start_violation", lambda model: None)  # past our own check: SCIP's checkSol decides
    with caplog.at_level(logging.WARNING, logger="solvers.scip"):
        warm = scip.solve(handle.model, mip_start=True)
    assert warm.extra["start"] == "offered, refused by scip"
    assert "scip refused the MIP start" in caplog.text
    assert warm.termination is TerminationCondition.optimal
    assert warm.objective == pytest.approx(cold.objective, abs=1e-9)


def test_a_maximisation_is_solved_in_its_own_sense():
    scip = require_backend("scip")
    model = pyo.ConcreteModel()
    model.x = pyo.Var(range(3), domain=pyo.Binary)
    model.cap = pyo.Constraint(expr=model.x[0] + model.x[1] + model.x[2] <= 2)
    model.obj = pyo.Objective(expr=3 * model.x[0] + 2 * model.x[1] + 5 * model.x[2] + 1, sense=pyo.maximize)
    result = scip.solve(model)
    assert result.objective == pytest.approx(9.0) and result.bound == pytest.approx(9.0)
    assert [model.x[i].value for i in range(3)] == pytest.approx([1, 0, 1])
