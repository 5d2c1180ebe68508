"""The ``cpsat`` backend (OR-Tools CP-SAT): optima against HiGHS, CBC and brute force, exact scaling, determinism, starts."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.algorithms.exact import prepare_problem, solve_exact_problem
from rulemodels.algorithms.polish import polish_rule, rule_weights
from rulemodels.cli import main
from rulemodels.models import build_hamming, build_zero_one, hamming_objective, two_level_weights, zero_one_objective
from solvers import CpSatBackend, SolverNotFoundError, TerminationCondition, get_backend
from solvers import cpsat as cpsat_module
from tests.helpers import require_backend

TOL = 1e-9
OBJECTIVES = {"zero_one": zero_one_objective, "hamming": hamming_objective}
BUILDERS = {"zero_one": build_zero_one, "hamming": build_hamming}


@pytest.fixture
def cpsat() -> CpSatBackend:
    return require_backend("cpsat")


def integer_models() -> dict[str, pyo.ConcreteModel]:
    """Small integer models with fractional coefficients, negative bounds, equalities, a maximisation and a constant."""
    knapsack = pyo.ConcreteModel()
    knapsack.I = pyo.RangeSet(0, 5)
    values, weights = [0.5, 0.4, 0.3, 0.61, 0.125, 1 / 3], [2, 3, 1, 4, 2, 3]
    knapsack.x = pyo.Var(knapsack.I, domain=pyo.Binary)
    knapsack.cap = pyo.Constraint(expr=sum(weights[i] * knapsack.x[i] for i in knapsack.I) <= 7)
    knapsack.obj = pyo.Objective(expr=sum(values[i] * knapsack.x[i] for i in knapsack.I) + 0.25, sense=pyo.maximize)

    general = pyo.ConcreteModel()
    general.x = pyo.Var(bounds=(-4, 6), domain=pyo.Integers)
    general.y = pyo.Var(bounds=(0, 9), domain=pyo.Integers)
    general.z = pyo.Var(domain=pyo.Binary)
    general.c1 = pyo.Constraint(expr=0.5 * general.x + 1.5 * general.y <= 7.25)  # rows scaled by their denominator
    general.c2 = pyo.Constraint(expr=general.x - general.y + 3 * general.z == 1)
    general.c3 = pyo.Constraint(expr=(-2, general.x + general.y, 8))  # a range: two rows
    general.obj = pyo.Objective(expr=-0.7 * general.x - 1.1 * general.y + 0.05 * general.z - 3)
    return {"knapsack": knapsack, "general": general}


@pytest.mark.parametrize("which", ["knapsack", "general"])
@pytest.mark.parametrize("other", ["highs", "cbc"])
def test_integer_models_reach_the_optimum_of_highs_and_cbc(cpsat, which, other):
    reference = require_backend(other).solve(integer_models()[which])
    model = integer_models()[which]
    result = cpsat.solve(model)
    assert result.termination is TerminationCondition.optimal and result.has_solution
    assert result.objective == pytest.approx(reference.objective, abs=1e-9)
    # the reported objective is the Pyomo objective of the solution loaded, and the bound proves it
    assert result.objective == pytest.approx(pyo.value(model.obj), abs=1e-12)
    assert result.bound == pytest.approx(result.objective, abs=1e-9)
    assert result.solver_name == "cpsat" and result.solver_version == cpsat.version()


def test_the_objective_scale_is_the_least_common_denominator():
    scaling = cpsat_module._scale_objective(np.array([0.5, 0.4, 1 / 3, 2.0, 0.0]), np.ones(5))
    assert scaling.exact and scaling.scale == 30
    assert scaling.coefficients == [15, 12, 10, 60, 0]


def test_an_objective_without_exact_scale_is_rounded_with_a_bound_that_stays_a_bound(cpsat):
    model = pyo.ConcreteModel()
    model.I = pyo.RangeSet(0, 4)
    model.x = pyo.Var(model.I, domain=pyo.Binary)
    costs = [math.pi, -math.e, math.sqrt(2), -1 / 7, 0.1]  # pi, e, sqrt 2: no small denominator
    model.one = pyo.Constraint(expr=sum(model.x[i] for i in model.I) >= 2)
    model.obj = pyo.Objective(expr=sum(costs[i] * model.x[i] for i in model.I))
    result = cpsat.solve(model)
    best = min(sum(c * b for c, b in zip(costs, bits)) for bits in itertools.product((0, 1), repeat=5) if sum(bits) >= 2)
    assert result.objective == pytest.approx(best, abs=1e-12)
    assert result.objective == pytest.approx(pyo.value(model.obj), abs=1e-12)
    assert result.bound <= result.objective
    assert result.objective - result.bound < 1e-9  # the rounding error bound E is tiny at scale 2**k
    assert result.termination in (TerminationCondition.optimal, TerminationCondition.feasible)


def random_case(seed: int, n: int = 12, d: int = 4, weighted: bool = False):
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (n, d))
    y = rng.integers(0, 2, n)
    y[0], y[1] = 1, 0
    weights = rng.choice([0.5, 1.0, 2.0, 0.3], size=n) if weighted else None
    return A, y, weights


def brute_force(problem, formulation: str, R: int, theta: float) -> float:
    A, y = problem.A.toarray(), problem.y
    best = math.inf
    for bits in itertools.product((0, 1), repeat=A.shape[1] * R):
        W = np.array(bits, float).reshape(A.shape[1], R)
        best = min(best, OBJECTIVES[formulation](A, y, W, theta, sample_weight=problem.sample_weight))
    return float(best)


@pytest.mark.parametrize("formulation", ["zero_one", "hamming"])
@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize(("R", "seed", "weighted"), [(1, 0, False), (2, 1, True), (2, 2, False), (1, 3, True)])
def test_exact_mip_reaches_the_brute_force_optimum(cpsat, formulation, form, R, seed, weighted):
    A, y, weights = random_case(seed, weighted=weighted)
    problem, _ = prepare_problem(A, y, form=form, sample_weight=weights)
    theta = 0.15
    result = solve_exact_problem(problem, R, theta, formulation=formulation, solver=cpsat)
    assert result.termination == "optimal"
    assert result.objective == pytest.approx(brute_force(problem, formulation, R, theta), abs=1e-9)
    W, w0 = two_level_weights(result.model)
    # the solver's objective is the rule's, recomputed from the data, and the bound proves it
    recomputed = OBJECTIVES[formulation](problem.A, problem.y, W, theta, sample_weight=problem.sample_weight)
    assert result.solve.objective == pytest.approx(recomputed, abs=1e-9)
    assert result.solve.bound == pytest.approx(result.solve.objective, abs=1e-9)


def test_the_error_variables_are_made_integer_only_for_the_mip():
    A, y, _ = random_case(0)
    for builder in BUILDERS.values():
        handle = builder(A, y, 2, theta=0.1)
        handle.make_errors_integer()
        continuous = [v.name for v in handle.model.component_data_objects(pyo.Var) if not v.is_integer()]
        assert continuous == []
        relaxed = builder(A, y, 2, theta=0.1, relax=True)
        relaxed.make_errors_integer()
        assert any(not v.is_integer() for v in relaxed.model.component_data_objects(pyo.Var))


def exact_model(seed: int = 5, n: int = 40, d: int = 8, R: int = 2):
    A, y, _ = random_case(seed, n=n, d=d)
    handle = build_zero_one(A, y, R, theta=0.5)
    handle.make_errors_integer()
    return handle


def test_two_solves_of_the_same_model_give_the_same_solution(cpsat):
    """This model has many optima: CP-SAT's free-running portfolio (``interleave_search`` False) returned 4
    different optimal rules in 6 solves of it; the default (interleaved, seeded, 2 workers) returns one."""
    solutions = []
    for _ in range(3):
        A, y, _ = random_case(3, n=30, d=10)
        handle = build_zero_one(A, y, 3, theta=0.0)
        handle.make_errors_integer()
        result = cpsat.solve(handle.model)
        assert result.termination is TerminationCondition.optimal
        solutions.append((result.objective, [v.value for v in handle.model.component_data_objects(pyo.Var)]))
    assert solutions[0] == solutions[1] == solutions[2]


def test_an_infeasible_hint_changes_no_result(cpsat):
    cold_handle = exact_model()
    cold = cpsat.solve(cold_handle.model)
    handle = exact_model()
    handle.set_start(np.ones((len(handle.model.J), len(handle.model.R))))
    for var in handle.model.psi.values():
        var.set_value(0)  # every error said 0: no feasible point
    handle.model.beta[next(iter(handle.model.beta))].set_value(7)  # outside its bounds: not hinted
    hinted = cpsat.solve(handle.model, mip_start=True)
    assert hinted.termination is TerminationCondition.optimal
    assert hinted.objective == pytest.approx(cold.objective, abs=1e-9)
    assert hinted.objective == pytest.approx(pyo.value(handle.model.objective), abs=1e-9)


def test_progress_reports_better_incumbents_from_the_hint_on_and_the_end(cpsat):
    """Whether CP-SAT calls back with an incumbent depends on where it finds one (one of three solves of
    this model reported one: the others solved it in presolve), so what is asserted holds either way: no
    reported incumbent is worse than the hinted start, each is better than the last, and the end is the result."""
    handle = exact_model()
    handle.set_start(np.zeros((len(handle.model.J), len(handle.model.R))))
    start_objective = pyo.value(handle.model.objective)
    events = []
    result = cpsat.solve(handle.model, mip_start=True, progress=events.append)
    incumbents = [e.incumbent for e in events if e.event == "incumbent"]
    assert all(incumbent <= start_objective + TOL for incumbent in incumbents)
    assert result.termination is TerminationCondition.optimal and result.objective <= start_objective + TOL
    assert incumbents == sorted(incumbents, reverse=True)  # each better than the last
    assert events[0].event == "start" and events[-1].event == "end"
    assert events[-1].incumbent == result.objective and events[-1].bound == result.bound


def test_a_deterministic_limit_stops_with_the_hinted_solution(cpsat):
    handle = exact_model(seed=7, n=120, d=16, R=3)
    handle.set_start(np.zeros((len(handle.model.J), len(handle.model.R))))
    start_objective = pyo.value(handle.model.objective)
    result = cpsat.solve(handle.model, mip_start=True, time_limit=60, options={"max_deterministic_time": 0.01})
    assert result.termination is TerminationCondition.time_limit
    assert result.has_solution and result.objective <= start_objective + TOL
    assert result.bound is not None and result.bound <= result.objective + TOL
    assert result.objective == pytest.approx(pyo.value(handle.model.objective), abs=1e-9)


def test_a_wall_clock_time_limit_stops_the_search(cpsat):
    """A wall-clock limit stops wherever the machine got to: on a loaded machine CP-SAT may not have reached
    a solution in 0.5 s (its presolve alone can take that), so what is asserted is what holds either way
    (the deterministic limit above is the reproducible stop, and it asserts the solution)."""
    handle = exact_model(seed=7, n=200, d=24, R=3)
    handle.set_start(np.zeros((len(handle.model.J), len(handle.model.R))))
    start_objective = pyo.value(handle.model.objective)
    result = cpsat.solve(handle.model, mip_start=True, time_limit=0.5)
    assert result.termination is TerminationCondition.time_limit
    assert result.wall_time < 30  # stopped, not run to a proof (which takes minutes here)
    if result.has_solution:
        assert result.gap is not None and result.gap > 0 and result.objective <= start_objective + TOL
    else:
        assert result.objective is None


def test_continuous_variables_are_refused_with_their_names(cpsat):
    A, y, _ = random_case(0)
    handle = build_zero_one(A, y, 2, theta=0.1)  # psi and beta are continuous until make_errors_integer
    with pytest.raises(ValueError, match=r"continuous: psi\[.*Declare them integer.*highs, cbc or glpk"):
        cpsat.solve(handle.model)


def test_a_constraint_that_cannot_be_scaled_exactly_is_refused(cpsat):
    model = pyo.ConcreteModel()
    model.x = pyo.Var(domain=pyo.Binary)
    model.c = pyo.Constraint(expr=math.pi * model.x <= 3)
    model.obj = pyo.Objective(expr=model.x)
    with pytest.raises(ValueError, match="constraint c has coefficients"):
        cpsat.solve(model)


def test_infeasible_and_options(cpsat):
    model = integer_models()["general"]
    model.c4 = pyo.Constraint(expr=model.x >= 7 - 2 * model.z - 2)  # with c2, c3: nothing is left
    model.c5 = pyo.Constraint(expr=model.y >= 9)
    result = cpsat.solve(model)
    assert result.termination is TerminationCondition.infeasible and not result.has_solution
    with pytest.raises(ValueError, match="CP-SAT has no parameter 'no_such_parameter'"):
        cpsat.solve(integer_models()["knapsack"], options={"no_such_parameter": 1})


def test_unavailable_without_ortools(monkeypatch):
    monkeypatch.setattr(cpsat_module, "cp_model_available", False)
    status = CpSatBackend().available()
    assert not status and "pip install ortools" in status.reason
    with pytest.raises(SolverNotFoundError, match=r"solver 'cpsat' not available .*pip install ortools"):
        get_backend("cpsat")


def test_polishing_with_cpsat_reaches_the_brute_force_optimum(cpsat):
    A, y, weights = random_case(4, weighted=True)
    problem, _ = prepare_problem(A, y, form="dnf", sample_weight=weights)
    W = np.zeros((problem.n_features, 2))
    W[0, 0] = 1
    start = problem.rule_from_weights(W, None)
    theta = 0.2
    rule, report = polish_rule(problem, start, theta, backend=cpsat, time_limit=60)
    assert report.mip_start and report.termination == "optimal"
    assert report.objective == pytest.approx(brute_force(problem, "zero_one", 2, theta), abs=1e-9)
    recomputed = zero_one_objective(problem.A, problem.y, rule_weights(problem, rule), theta, sample_weight=problem.sample_weight)
    assert recomputed == pytest.approx(report.objective, abs=1e-9)


def test_heuristic_algorithms_refuse_cpsat_before_any_work(tmp_path, capsys):
    from rulemodels import BooleanRuleClassifier

    X, y, _ = random_case(0)
    with pytest.raises(ValueError, match=r"'cpsat' solves integer programs only, and algorithm 'cg' solves LPs"):
        BooleanRuleClassifier(algorithm="cg", solver="cpsat").fit(X, y)
    argv = ["fit", str(tmp_path / "absent.csv"), "--target", "y", "--solver", "cpsat", "--algorithm", "tlp"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "algorithm 'tlp' solves LPs" in err and "--solver highs" in err and "absent" not in err


def test_exact_command_and_solvers_command_with_cpsat(capsys):
    require_backend("cpsat")
    assert main(["exact", "liver", "--sample", "25", "--solver", "cpsat", "--time-limit", "120"]) == 0
    out = capsys.readouterr().out
    assert "status: optimal" in out and "solver: cpsat" in out and "gap: 0.000 %" in out
    assert main(["solvers"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("cpsat"))
    assert row.split()[1:3] == ["yes", CpSatBackend().version()] and "ortools" in row
