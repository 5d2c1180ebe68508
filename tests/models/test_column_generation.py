"""Column generation's master LP and pricing MIP (rulemodels.models.column_generation) against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.algorithms.column_generation import as_model_changes
from rulemodels.models.column_generation import build_cg_master, build_cg_pricing, prepare_cg_data
from rulemodels.models.problem import CNFProblem
from solvers import HighsBackend


def random_instance(seed: int, n: int = 14, d: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < 0.45).astype(np.int8)
    y = (rng.random(n) < 0.5).astype(np.int8)
    weight = rng.integers(1, 4, n).astype(float)
    return A, y, weight


def all_clauses(d: int, max_length: int) -> list[tuple[int, ...]]:
    return [clause for size in range(max_length + 1) for clause in itertools.combinations(range(d), size)]


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("seed", range(4))
def test_master_objective_is_the_rules_errors_evaluated_the_projects_way(form: str, seed: int) -> None:
    """A selection's master objective = rows the CNF should make 0 it does not + per failing clause on the others.

    Checked against the rule the selection becomes (``CNFProblem.rule_from_weights``)
    evaluated on the original binary data with ``Rule.evaluate_binary``; where every row
    the CNF should make 1 fails at most one clause, that is the rule's weighted 0-1 error.
    """
    A, y, weight = random_instance(seed)
    problem = CNFProblem.from_binary(A, y, form=form, sample_weight=weight)
    columns = prepare_cg_data(problem.A, problem.y, sample_weight=weight)
    theta, clause_cost = 0.7, 1.0
    rng = np.random.default_rng(seed)
    clauses = all_clauses(A.shape[1], 2)
    for _ in range(20):
        chosen = [clauses[k] for k in rng.choice(len(clauses), size=rng.integers(1, 4), replace=False)]
        W = np.zeros((A.shape[1], len(chosen)))
        for r, clause in enumerate(chosen):
            W[list(clause), r] = 1
        rule = problem.rule_from_weights(W)
        predicted = rule.evaluate_binary(A, problem.literals)
        # in the CNF view: clause r fails on row i when no feature of it is present
        fails = np.stack([~problem.A.toarray()[:, list(clause)].astype(bool).any(axis=1) for clause in chosen], axis=1)
        should_be_one = problem.y == 1
        cost_rows = np.where(should_be_one, fails.sum(axis=1), ~fails.any(axis=1)).astype(float)
        literals = sum(len(clause) for clause in chosen)
        expected = float(weight @ cost_rows) + theta * (literals + clause_cost * len(chosen))
        assert columns.objective(chosen, theta, clause_cost) == pytest.approx(expected)
        errors = predicted != (y == 1)
        if fails[should_be_one].sum(axis=1).max(initial=0) <= 1:
            assert columns.objective(chosen, theta, clause_cost) == pytest.approx(
                float(weight @ errors) + theta * (literals + clause_cost * len(chosen))
            )
        else:
            assert columns.objective(chosen, theta, clause_cost) >= float(weight @ errors) + theta * literals - 1e-9


def lp_objective(master, backend, changes=None) -> float:
    result = backend.solve(master.model, changes=changes)
    result.raise_for_status("the master LP")
    return float(result.objective)


@pytest.mark.parametrize("R", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_the_grouped_master_is_the_row_master_with_rows_grouped(seed: int, R: int) -> None:
    """One row per group of rows the same clauses fail on: the row master's LP optimum, in place as clauses split groups.

    Its duals, shared by each group's rows in proportion to their weights, are
    optimal for the row-by-row LP (complementary slackness on every w_k), and
    its integer program is the brute-force optimum.
    """
    A, y, weight = random_instance(seed, n=40, d=5)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    rng = np.random.default_rng(seed)
    pool = all_clauses(5, 3)
    clauses = [pool[k] for k in rng.choice(len(pool), size=10, replace=False)]
    theta, clause_cost = 0.3, 1.0
    grouped = build_cg_master(columns, clauses[:2], theta=theta, clause_cost=clause_cost, max_clauses=R, group_rows=True)
    rows = build_cg_master(columns, clauses[:2], theta=theta, clause_cost=clause_cost, max_clauses=R)
    assert len(grouped.model.P) < len(rows.model.P) == columns.cover_rows.shape[0]
    assert grouped.model.P.doc.startswith("groups of rows to cover")
    on_groups, on_rows = HighsBackend(), HighsBackend()
    assert lp_objective(grouped, on_groups) == pytest.approx(lp_objective(rows, on_rows))
    n_groups = len(grouped.model.P)
    for batch in (clauses[2:5], clauses[5:10]):
        changes = grouped.add_clauses(batch)
        assert lp_objective(grouped, on_groups, as_model_changes(changes)) == pytest.approx(
            lp_objective(rows, on_rows, as_model_changes(rows.add_clauses(batch)))
        )
        mu, nu = grouped.duals()
        assert np.all(mu >= 0) and np.all(mu <= columns.cover_weight + 1e-9)
        for k, clause in enumerate(grouped.clauses):
            value = grouped.model.w[k].value
            rc = columns.reduced_cost(clause, mu, nu, theta, clause_cost)
            if value < 1 - 1e-7:
                assert rc >= -1e-6, (clause, value, rc)
            if value > 1e-7:
                assert rc <= 1e-6, (clause, value, rc)
    assert len(grouped.model.P) > n_groups  # the clauses split groups, and the in-place solves agreed with the rows'
    assert on_groups.n_builds == 1 == on_rows.n_builds
    fresh = build_cg_master(columns, grouped.clauses, theta=theta, clause_cost=clause_cost, max_clauses=R, group_rows=True)
    assert lp_objective(fresh, HighsBackend()) == pytest.approx(lp_objective(grouped, on_groups))
    on_groups.solve(grouped.model, changes=as_model_changes(grouped.set_integer(True)), mip_gap=0.0)
    best = min(
        columns.objective(list(subset), theta, clause_cost)
        for size in range(R + 1) for subset in itertools.combinations(grouped.clauses, size)
    )
    chosen = [grouped.clauses[k] for k in grouped.selection()]
    assert len(chosen) <= R
    assert columns.objective(chosen, theta, clause_cost) == pytest.approx(best)
    assert pyo.value(grouped.model.objective) == pytest.approx(best)


@pytest.mark.parametrize("group_rows", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_a_grown_master_model_says_what_the_solver_was_told(seed: int, group_rows: bool) -> None:
    """After clauses join (splitting groups), the Pyomo model is the master over all its clauses, term by term.

    ``add_clauses`` appends to the objective and rewrites only the touched
    ``cover`` rows: the model read afresh (a new backend compiles it) has the
    in-place LP optimum, its objective is ω_i ξ_i over P plus each clause's
    cost times w_k, and each ``cover`` row holds ξ_i and the w_k of exactly
    the clauses that fail on every row of element i.
    """
    from pyomo.repn import generate_standard_repn

    A, y, weight = random_instance(seed, n=40, d=5)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    rng = np.random.default_rng(seed)
    pool = all_clauses(5, 3)
    clauses = [pool[k] for k in rng.choice(len(pool), size=12, replace=False)]
    master = build_cg_master(columns, clauses[:2], theta=0.3, clause_cost=1.0, max_clauses=2, group_rows=group_rows)
    backend = HighsBackend()
    lp_objective(master, backend)
    for batch in (clauses[2:6], clauses[6:12]):
        in_place = lp_objective(master, backend, as_model_changes(master.add_clauses(batch)))
    m = master.model
    assert lp_objective(master, HighsBackend()) == pytest.approx(in_place)
    repn = generate_standard_repn(m.objective.expr, compute_values=True)
    coefficient = {id(var): c for var, c in zip(repn.linear_vars, repn.linear_coefs)}
    assert len(coefficient) == len(m.P) + len(m.K)
    for i in m.P:
        assert coefficient[id(m.xi[i])] == pytest.approx(pyo.value(m.weight[i]))
    for k in m.K:
        assert coefficient[id(m.w[k])] == pytest.approx(master.clause_cost(k))
    # the rows to cover, by the clauses that fail on them, weigh what the elements of P with those w_k in their row weigh
    fails = np.column_stack([columns.fails(clause)[0] for clause in master.clauses])
    by_rows: dict[tuple[int, ...], float] = {}
    for row, weight_i in zip(fails, columns.cover_weight):
        key = tuple(np.flatnonzero(row).tolist())
        by_rows[key] = by_rows.get(key, 0.0) + float(weight_i)
    column_of = {id(m.w[k]): k for k in m.K}
    by_elements: dict[tuple[int, ...], float] = {}
    for i in m.P:
        body = generate_standard_repn(m.cover[i].body)
        assert id(m.xi[i]) in {id(var) for var in body.linear_vars} and m.cover[i].lower == 1
        key = tuple(sorted(column_of[id(var)] for var in body.linear_vars if id(var) != id(m.xi[i])))
        by_elements[key] = by_elements.get(key, 0.0) + pyo.value(m.weight[i])
        if group_rows:  # one element holds every row of its pattern
            assert by_elements[key] == pytest.approx(by_rows[key])
    assert by_elements.keys() == by_rows.keys()
    assert all(by_elements[key] == pytest.approx(by_rows[key]) for key in by_rows)
    size = generate_standard_repn(m.size.body)
    assert [id(var) for var in size.linear_vars] == [id(m.w[k]) for k in m.K]


@pytest.mark.parametrize("seed", range(3))
def test_integer_master_over_all_clauses_is_the_brute_force_optimum(seed: int) -> None:
    A, y, weight = random_instance(seed, d=4)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    clauses = all_clauses(4, 4)
    theta, clause_cost, R = 0.4, 1.0, 2
    master = build_cg_master(columns, clauses, theta=theta, clause_cost=clause_cost, max_clauses=R)
    backend = HighsBackend()
    backend.solve(master.model, changes=as_model_changes(master.set_integer(True)), mip_gap=0.0)
    found = columns.objective([master.clauses[k] for k in master.selection()], theta, clause_cost)
    best = min(
        columns.objective(list(subset), theta, clause_cost)
        for size in range(R + 1) for subset in itertools.combinations(clauses, size)
    )
    assert found == pytest.approx(best)
    assert pyo.value(master.model.objective) == pytest.approx(found)


def test_adding_clauses_never_rebuilds_the_master_and_matches_a_fresh_build() -> None:
    A, y, weight = random_instance(7, n=30, d=6)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    clauses = all_clauses(6, 2)
    master = build_cg_master(columns, clauses[:3], theta=0.5, clause_cost=1.0, max_clauses=2)
    backend = HighsBackend()
    changes = None
    for start in range(3, len(clauses), 5):
        result = backend.solve(master.model, changes=changes)
        fresh = HighsBackend().solve(build_cg_master(columns, master.clauses, theta=0.5, clause_cost=1.0, max_clauses=2).model)
        assert result.objective == pytest.approx(fresh.objective, abs=1e-9)
        changes = as_model_changes(master.add_clauses(clauses[start:start + 5] + clauses[:1]))  # a clause already there
        assert len(changes.new_columns.variables) == len(clauses[start:start + 5])  # is not added again
    assert backend.n_builds == 1
    assert len(master.clauses) == len(clauses)


@pytest.mark.parametrize("aggregate", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_pricing_mip_returns_the_clause_of_least_reduced_cost(aggregate: bool, seed: int) -> None:
    """The pricing MIP's optimum + θ c_0 − ν is the numpy reduced cost of its clause, and the least over all clauses."""
    A, y, weight = random_instance(seed, n=20, d=6)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    theta, clause_cost, D = 0.3, 1.0, 3
    pricing = build_cg_pricing(columns, theta=theta, clause_cost=clause_cost, max_length=D, aggregate=aggregate)
    backend = HighsBackend()
    rng = np.random.default_rng(seed)
    for _ in range(3):
        mu = columns.cover_weight * rng.random(columns.cover_weight.shape[0])
        nu = -float(rng.random())
        result = backend.solve(pricing.model, changes=as_model_changes(pricing.set_duals(mu, nu)), mip_gap=0.0)
        clause = pricing.clause()
        reduced = columns.reduced_cost(clause, mu, nu, theta, clause_cost)
        assert result.objective + pricing.constant() == pytest.approx(reduced, abs=1e-7)
        best = min(columns.reduced_cost(c, mu, nu, theta, clause_cost) for c in all_clauses(6, D))
        assert reduced == pytest.approx(best, abs=1e-7)
    assert backend.n_builds == 1


def test_models_print_like_the_method() -> None:
    import io

    A, y, weight = random_instance(0)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    master = build_cg_master(columns, [(0,), (1, 2)], theta=0.5, clause_cost=1.0, max_clauses=2)
    out = io.StringIO()
    master.model.pprint(ostream=out)
    text = out.getvalue()
    assert "ξ_i + Σ_{k: i ∈ F_k} w_k ≥ 1" in text and "Σ_k w_k ≤ R" in text and "DGW master" in text
    pricing = build_cg_pricing(columns, theta=0.5, clause_cost=1.0, max_length=3)
    out = io.StringIO()
    pricing.model.pprint(ostream=out)
    assert "δ_i ≤ 1 − z_j" in out.getvalue() and "μ_i" in out.getvalue()


def test_master_refuses_no_clause() -> None:
    A, y, weight = random_instance(0)
    with pytest.raises(ValueError, match="at least one clause"):
        build_cg_master(prepare_cg_data(A, y), [], theta=0.5, clause_cost=1.0, max_clauses=2)
