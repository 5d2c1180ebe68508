"""The 0-1 MIP's strengthening (clause order, threshold chains, conflict cuts) against brute force.

Each option, alone and all together, must leave the optimal objective of
the 0-1 error MIP (eq. (4.14) GeneralLPFormulation) unchanged: it is checked
against an enumeration of every rule of R clauses on small binarized data
with threshold chains, in both forms, with sample weights (zeros included),
feature costs, the always-true feature, forbidden features and a literal
limit.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest

from rulemodels.algorithms.exact import solve_exact_problem
from rulemodels.data import FeatureBinarizer
from rulemodels.models import CNFProblem, build_zero_one, two_level_weights, zero_one_objective
from rulemodels.models.zero_one import conflict_pairs
from tests.helpers import require_backend

TOL = 1e-6
#: The solver's own objective is off by its feasibility tolerance (HiGHS reports 5.999999 for 6).
SOLVER_TOL = 1e-5

#: Each option alone, none, and all of them (the chains are the problem's own threshold chains).
SETTINGS = {
    "plain": {"symmetry": None, "conflicts": False, "chains": False},
    "count": {"symmetry": "count", "conflicts": False, "chains": False},
    "index": {"symmetry": "index", "conflicts": False, "chains": False},
    "chains": {"symmetry": None, "conflicts": False, "chains": True},
    "conflicts": {"symmetry": None, "conflicts": True, "chains": False},
    "all": {"symmetry": "count", "conflicts": True, "chains": True},
}


@dataclass(frozen=True)
class Instance:
    """One small problem: binarized data of ``seed``, its form, R, θ and which extras are on."""

    seed: int
    form: str
    n_clauses: int
    theta: float
    weights: bool = False
    costs: bool = False
    disable_cost: float | None = None
    forbid: bool = False
    max_literals: int | None = None


INSTANCES = [
    Instance(0, "dnf", 2, 0.3),
    Instance(1, "cnf", 2, 0.3),
    Instance(2, "dnf", 2, 0.0),
    Instance(3, "cnf", 2, 0.0, weights=True),
    Instance(4, "dnf", 2, 0.2, weights=True, costs=True),
    Instance(5, "cnf", 3, 0.25, max_literals=2),
    Instance(6, "dnf", 2, 0.15, disable_cost=0.5),
    Instance(7, "cnf", 2, 0.1, forbid=True, max_literals=2),
    Instance(8, "dnf", 3, 0.05, weights=True, max_literals=1),
    Instance(9, "cnf", 1, 0.3, costs=True, disable_cost=2.0),
    Instance(10, "dnf", 2, 0.4, weights=True, forbid=True),
    Instance(11, "cnf", 2, 0.02, costs=True, weights=True, disable_cost=0.3),
]


@cache
def problem_of(instance: Instance) -> tuple[CNFProblem, dict]:
    """Two numeric columns of few values (two thresholds each, both directions: chains of two) and a repeated row pattern."""
    rng = np.random.default_rng(instance.seed)
    n = 14
    X = pd.DataFrame({"a": rng.integers(0, 9, n).astype(float), "b": rng.integers(0, 7, n).astype(float)})
    y = rng.integers(0, 2, n)
    y[:2] = (1, 0)
    X.iloc[-1], y[-1] = X.iloc[0], 1 - y[0]  # the same row with both labels: a conflict
    binarizer = FeatureBinarizer(n_thresholds=2).fit(X)
    weights = rng.choice([0.0, 0.5, 1.0, 2.0], size=n) if instance.weights else None
    problem = CNFProblem.from_binary(
        binarizer.transform(X), y, literals=binarizer.literals_, form=instance.form, sample_weight=weights,
    )
    d = problem.n_features
    options: dict = {}
    if instance.costs:
        options["feature_cost"] = rng.choice([0.5, 1.0, 2.0], size=d)
    if instance.disable_cost is not None:
        options["disable_cost"] = instance.disable_cost
    if instance.forbid:
        options["forbidden"] = [int(rng.integers(0, d))]
    if instance.max_literals is not None:
        options["max_literals"] = instance.max_literals
    return problem, options


@cache
def brute_force(instance: Instance) -> float:
    """The least objective over every rule of R clauses (a clause: any allowed feature set, or disabled)."""
    problem, options = problem_of(instance)
    A, d = problem.A.toarray().astype(bool), problem.n_features
    costs = np.asarray(options.get("feature_cost", np.ones(d)), dtype=float)
    allowed = [j for j in range(d) if j not in options.get("forbidden", [])]
    limit = options.get("max_literals", d)
    clauses = [subset for k in range(limit + 1) for subset in itertools.combinations(allowed, k)]
    outputs = [A[:, list(subset)].any(axis=1) for subset in clauses]
    prices = [instance.theta * costs[list(subset)].sum() for subset in clauses]
    if instance.disable_cost is not None:  # the always-true feature (its literals, if any, only cost more)
        outputs.append(np.ones(A.shape[0], dtype=bool))
        prices.append(instance.theta * instance.disable_cost)
    weight, labels = problem.sample_weight, problem.y.astype(bool)
    best = np.inf
    for chosen in itertools.combinations_with_replacement(range(len(outputs)), instance.n_clauses):
        predicted = np.logical_and.reduce([outputs[c] for c in chosen])
        best = min(best, float(weight @ (predicted != labels)) + sum(prices[c] for c in chosen))
    return best


def build(instance: Instance, setting: str):
    problem, options = problem_of(instance)
    flags = SETTINGS[setting]
    return build_zero_one(
        problem.A, problem.y, instance.n_clauses, theta=instance.theta, sample_weight=problem.sample_weight, **options,
        symmetry=flags["symmetry"], conflicts=flags["conflicts"], chains=problem.threshold_chains() if flags["chains"] else None,
    )


def rule_objective(instance: Instance, model) -> float:
    """The numpy objective of the model's (rounded) solution."""
    problem, options = problem_of(instance)
    W, w0 = two_level_weights(model)
    extra = {} if w0 is None else {"w0": np.round(w0), "disable_cost": instance.disable_cost}
    return zero_one_objective(
        problem.A, problem.y, np.round(W), instance.theta, sample_weight=problem.sample_weight,
        feature_cost=options.get("feature_cost"), **extra,
    )


def test_the_instances_have_chains_and_conflicts():
    """The checks below would be empty if the data had no chain or no conflict to cut."""
    for instance in INSTANCES:
        problem, _ = problem_of(instance)
        assert len(problem.threshold_chains()) == 4  # a <= t, a > t, b <= t, b > t: two thresholds each
        handle = build(instance, "all")
        if not instance.weights:
            assert handle.model.find_component("conflict") is not None, instance


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("instance", INSTANCES, ids=[f"i{k}" for k in range(len(INSTANCES))])
def test_each_option_keeps_the_brute_force_optimum(instance, setting):
    backend = require_backend("highs")
    handle = build(instance, setting)
    result = backend.solve(handle.model, mip_gap=0.0)
    assert result.is_optimal, result
    assert result.objective == pytest.approx(brute_force(instance), abs=SOLVER_TOL)
    assert rule_objective(instance, handle.model) == pytest.approx(brute_force(instance), abs=TOL)


@pytest.mark.parametrize("solver", ["cbc", "glpk"])
@pytest.mark.parametrize("instance", INSTANCES[::3], ids=[f"i{k}" for k in range(0, len(INSTANCES), 3)])
def test_all_options_keep_the_optimum_on_the_shell_solvers(instance, solver):
    backend = require_backend(solver)
    handle = build(instance, "all")
    result = backend.solve(handle.model, mip_gap=0.0)
    assert result.is_optimal, result
    assert rule_objective(instance, handle.model) == pytest.approx(brute_force(instance), abs=TOL)


@pytest.mark.parametrize("instance", INSTANCES[:6], ids=[f"i{k}" for k in range(6)])
def test_solve_exact_problem_with_a_start_keeps_the_optimum(instance):
    """The exact mode builds the MIP with the builder's defaults (conflict cuts, no clause order, no chains)."""
    problem, options = problem_of(instance)
    chains = problem.threshold_chains()
    W = np.zeros((problem.n_features, instance.n_clauses))
    W[chains[0], 0] = 1  # a whole chain in the first clause, a short clause ahead of it: breaks both cuts
    W[[c[0] for c in chains[:1]], -1] = 1
    if instance.n_clauses > 1:
        W[:, 0], W[:, -1] = W[:, -1].copy(), W[:, 0].copy()
    forbidden = options.get("forbidden", [])
    W[forbidden] = 0
    start = problem.rule_from_weights(W)
    result = solve_exact_problem(
        problem, instance.n_clauses, instance.theta, solver="highs", start=start,
        **{key: value for key, value in options.items() if key != "disable_cost"},
        disable_cost=options.get("disable_cost"),
    )
    assert result.termination == "optimal"
    assert result.objective == pytest.approx(brute_force(instance), abs=TOL)
    model = result.exact.model
    assert model.find_component("chain_literal") is None and model.find_component("clause_order") is None
    if not instance.weights:  # the repeated row of both labels, both of weight 1
        assert model.find_component("conflict") is not None


@pytest.mark.parametrize("instance", INSTANCES[:6], ids=[f"i{k}" for k in range(6)])
def test_a_start_that_breaks_the_cuts_is_conformed_and_the_optimum_kept(instance):
    """set_start makes a start that breaks the clause order and a chain cut meet them; the solve keeps the optimum."""
    problem, options = problem_of(instance)
    chains = problem.threshold_chains()
    handle = build(instance, "all")
    W = np.zeros((problem.n_features, instance.n_clauses))
    W[chains[1], -1] = 1  # a whole chain in the last clause, and nothing before it: breaks both cuts when R > 1
    W[options.get("forbidden", [])] = 0
    handle.set_start(W)
    assert violations(handle.model) == []
    result = require_backend("highs").solve(handle.model, mip_gap=0.0, mip_start=True)
    assert result.is_optimal
    assert rule_objective(instance, handle.model) == pytest.approx(brute_force(instance), abs=TOL)


def violations(model) -> list[str]:
    """The constraints the model's current values break (beyond 1e-9)."""
    broken = []
    for constraint in model.component_data_objects(pyo.Constraint, active=True):
        value = pyo.value(constraint.body)
        if constraint.has_lb() and value < pyo.value(constraint.lower) - 1e-9:
            broken.append(constraint.name)
        if constraint.has_ub() and value > pyo.value(constraint.upper) + 1e-9:
            broken.append(constraint.name)
    return broken


@pytest.mark.parametrize("seed", range(8))
def test_conform_keeps_the_predictions_and_lowers_no_cost(seed):
    instance = INSTANCES[seed]
    problem, options = problem_of(instance)
    handle = build(instance, "all")
    rng = np.random.default_rng(seed)
    forbidden = options.get("forbidden", [])
    for _ in range(20):
        W = (rng.random((problem.n_features, instance.n_clauses)) < 0.4).astype(float)
        W[forbidden] = 0
        if "max_literals" in options:
            W[:, W.sum(axis=0) > options["max_literals"]] = 0
        w0 = rng.integers(0, 2, instance.n_clauses).astype(float) if "disable_cost" in options else None
        conformed, conformed_w0 = handle.conform(W, w0)
        before = problem.predict_work(W, w0)
        np.testing.assert_array_equal(problem.predict_work(conformed, conformed_w0 if w0 is not None else None), before)
        assert conformed.sum() <= W.sum()
        handle.set_start(W, w0)
        assert violations(handle.model) == []  # the start is feasible for every cut


def test_chains_must_be_nested():
    A = np.array([[1, 0, 1], [0, 1, 1], [0, 1, 0]])
    y = np.array([1, 0, 1])
    with pytest.raises(ValueError, match="not nested"):
        build_zero_one(A, y, 2, theta=0.1, chains=[[0, 1]])
    with pytest.raises(ValueError, match="distinct features"):
        build_zero_one(A, y, 2, theta=0.1, chains=[[0, 0]])
    with pytest.raises(ValueError, match="symmetry must be one of"):
        build_zero_one(A, y, 2, theta=0.1, symmetry="lexicographic")
    handle = build_zero_one(A, y, 2, theta=0.1, chains=[[2, 0], [1]])  # [0] ⊂ [0, 2] holds; one member: no chain
    assert [list(handle.model.chain[h]) for h in handle.model.H] == [[0, 2]]


@pytest.mark.parametrize("form", ["cnf", "dnf"])
def test_threshold_chains_are_one_column_one_direction_nested(form):
    problem, _ = problem_of(Instance(0, form, 2, 0.1))
    chains = problem.threshold_chains()
    dense = problem.A.toarray()
    for chain in chains:
        literals = [problem.literals[j] for j in chain]
        assert len({(lit.feature, lit.op) for lit in literals}) == 1
        for small, large in zip(chain, chain[1:]):
            assert np.all(dense[:, small] <= dense[:, large])
    # a "<=" chain runs from the smallest threshold up in a CNF (x <= t grows with t) and down in a DNF (x > t)
    ups = [[problem.literals[j].value for j in chain] for chain in chains if problem.literals[chain[0]].op == "<="]
    assert all(values == sorted(values, reverse=form == "dnf") for values in ups)


def test_conflict_pairs_are_contained_rows_of_positive_weight():
    A = np.array([[1, 0, 1], [1, 1, 1], [1, 0, 1], [0, 1, 0], [1, 0, 0]])
    y = np.array([1, 0, 0, 1, 0])
    handle = build_zero_one(A, y, 1, theta=0.1, merge_identical=False)
    weight = np.ones(5)
    # positive 0 = {0, 2} is within negatives 1 and 2; positive 3 = {1} within negative 1
    assert sorted(conflict_pairs(handle.groups, weight)) == [(0, 1), (0, 2), (3, 1)]
    weight[2] = 0.0
    assert sorted(conflict_pairs(handle.groups, weight)) == [(0, 1), (3, 1)]
    # feature 1 forbidden: positive 3 has no allowed feature, so every negative contains it
    assert sorted(conflict_pairs(handle.groups, np.ones(5), forbidden=[1])) == [(0, 1), (0, 2), (3, 1), (3, 2), (3, 4)]


def pprint_text(model) -> str:
    stream = io.StringIO()
    model.pprint(ostream=stream)
    return stream.getvalue()


def test_pprint_names_the_cuts_and_tlp_stays_the_papers():
    problem, _ = problem_of(INSTANCES[0])
    chains = problem.threshold_chains()
    default = pprint_text(build_zero_one(problem.A, problem.y, 2, theta=0.1).model)
    assert "conflict :" in default and "clause_order" not in default and "chain" not in default  # the measured default
    text = pprint_text(build_zero_one(problem.A, problem.y, 2, theta=0.1, chains=chains, symmetry="count").model)
    for name in ("clause_order :", "o :", "chain :", "chain_literal :", "H :", "conflict :", "conflict_pairs :",
                 "Σ_j o_j w_jr ≥ Σ_j o_j w_j,r+1", "Σ_{j ∈ H_h} w_jr ≤ 1", "ψ_i + ψ_k ≥ 1"):
        assert name in text, name
    tlp = pprint_text(build_zero_one(problem.A, problem.y, 2, theta=0.1, relax=True).model)
    assert "clause_order" not in tlp and "conflict" not in tlp
    one = pprint_text(build_zero_one(problem.A, problem.y, 1, theta=0.1, symmetry="count").model)
    assert "clause_order" not in one  # one clause: nothing to order
