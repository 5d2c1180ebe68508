"""algorithm='cg' (column generation) against brute force and the exact MIP; its beam search; solvers; the estimator."""

from __future__ import annotations

import importlib
import itertools
from dataclasses import replace

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier
from rulemodels.algorithms import solve_exact_problem
from rulemodels.algorithms.column_generation import (
    AbsentCopies,
    BitRowSums,
    FloatRowSums,
    PairSums,
    beam_search,
    pair_sums,
    row_sums,
    run_column_generation,
)
from rulemodels.algorithms.run import CG_SETTINGS
from rulemodels.models.column_generation import build_cg_master, prepare_cg_data
from rulemodels.models.problem import CNFProblem
from solvers import HighsBackend
from tests.helpers import learn_once, require_backend

cg_module = importlib.import_module("rulemodels.algorithms.column_generation")  # the package exports a function of that name
beam_module = importlib.import_module("rulemodels.algorithms.cg_beam")
sums_module = importlib.import_module("rulemodels.algorithms.cg_sums")

EXACT_SETTINGS = replace(CG_SETTINGS, max_length=5, pricing_mip_max_nonzeros=10**9, pricing_mip_solves=10**6, selection_gap=0.0)
"""Pricing by the MIP whenever the beam finds nothing, over every clause of the 5-feature instances."""


def random_instance(seed: int, n: int = 16, d: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < 0.5).astype(np.int8)
    y = (rng.random(n) < 0.5).astype(np.int8)
    return A, y, rng.integers(1, 3, n).astype(float)


def every_clause(d: int) -> list[tuple[int, ...]]:
    return [clause for size in range(d + 1) for clause in itertools.combinations(range(d), size)]


def full_lp(columns, theta: float, clause_cost: float, R: int) -> tuple[float, bool]:
    """The master LP over every clause: its optimum, and whether its solution is integral."""
    master = build_cg_master(columns, every_clause(columns.n_features), theta=theta, clause_cost=clause_cost, max_clauses=R)
    result = HighsBackend().solve(master.model)
    values = np.concatenate([master.values(), [master.model.xi[i].value for i in master.model.P]])
    return result.objective, bool(np.all(np.abs(values - np.round(values)) < 1e-7))


def brute_force(columns, theta: float, clause_cost: float, R: int) -> float:
    clauses = every_clause(columns.n_features)
    return min(
        columns.objective(list(subset), theta, clause_cost)
        for size in range(R + 1) for subset in itertools.combinations(clauses, size)
    )


def test_cg_reaches_the_optimum_where_the_master_lp_is_integral() -> None:
    """Converged CG has the LP optimum over all clauses; where that LP is integral, CG's rule is the optimum."""
    integral = 0
    for seed in range(8):
        A, y, weight = random_instance(seed)
        columns = prepare_cg_data(A, y, sample_weight=weight)
        theta, R = 0.6, 2
        run = run_column_generation(columns, HighsBackend(), theta=theta, n_clauses=R, max_iter=200, settings=EXACT_SETTINGS)
        assert run.termination == "converged", seed
        lp, is_integral = full_lp(columns, theta, EXACT_SETTINGS.clause_cost, R)
        assert run.lp_objective == pytest.approx(lp, abs=1e-7), seed
        best = brute_force(columns, theta, EXACT_SETTINGS.clause_cost, R)
        assert run.objective >= best - 1e-9
        if is_integral:
            integral += 1
            assert run.objective == pytest.approx(best), seed
    assert integral >= 2  # the comparison above ran on several instances


@pytest.mark.parametrize("seed", range(6))
def test_cg_is_never_worse_than_a_single_generated_clause(seed: int) -> None:
    A, y, weight = random_instance(seed, n=40, d=8)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    for settings in (CG_SETTINGS, replace(CG_SETTINGS, selection_time_limit=0.0)):
        run = run_column_generation(columns, HighsBackend(), theta=0.5, n_clauses=3, max_iter=50, settings=settings)
        singles = [columns.objective([clause], 0.5, settings.clause_cost) for clause in run.clauses]
        assert run.objective <= min(singles) + 1e-9
        assert run.objective <= columns.objective([], 0.5, settings.clause_cost) + 1e-9
        assert len(run.selection) <= 3


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("seed", range(4))
def test_cg_with_one_clause_matches_the_exact_mip_when_the_lp_is_integral(form: str, seed: int) -> None:
    """R = 1 and no clause cost: CG's objective is the 0-1 objective, never below the exact MIP's, equal where the LP is integral."""
    A, y, weight = random_instance(seed, n=18)
    problem = CNFProblem.from_binary(A, y, form=form, sample_weight=weight)
    theta = 0.5
    settings = replace(EXACT_SETTINGS, clause_cost=0.0)
    result, _ = learn_once(problem, HighsBackend(), algorithm="cg", n_clauses=1, theta=theta, cg_settings=settings)
    exact = solve_exact_problem(problem, 1, theta, solver="highs", mip_gap=0.0)
    # CG selects at most R clauses: none is the CNF True (every row the CNF should make 0 is an error),
    # a rule the exact MIP with exactly one clause may not be able to write
    optimum = min(exact.objective, float(weight[problem.y == 0].sum()))
    assert result.objective >= optimum - 1e-9
    columns = prepare_cg_data(problem.A, problem.y, sample_weight=weight)
    _, is_integral = full_lp(columns, theta, 0.0, 1)
    if is_integral:
        assert result.objective == pytest.approx(optimum)


def test_master_is_built_once_across_rounds() -> None:
    A, y, weight = random_instance(3, n=60, d=10)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    beam_only = replace(CG_SETTINGS, pricing_mip_max_nonzeros=0, columns_per_round=1)
    backend = HighsBackend()
    run = run_column_generation(columns, backend, theta=0.3, n_clauses=3, max_iter=50, settings=beam_only)
    assert run.n_rounds > 2
    assert run.n_builds == 1 == backend.n_builds  # rounds add columns in place; the selection re-solves the same instance
    assert len(backend) == 0  # released at the end of the fit
    # above group_rows rows to cover, the master's rows are groups: still one build, whatever the clauses split
    grouped = run_column_generation(
        columns, backend, theta=0.3, n_clauses=3, max_iter=50, settings=replace(beam_only, group_rows=0),
    )
    assert grouped.n_rounds > 2 and grouped.n_builds == 1 and backend.n_builds == 2
    assert len(backend) == 0
    chosen = [grouped.clauses[k] for k in grouped.selection]
    assert grouped.objective == pytest.approx(columns.objective(chosen, 0.3, beam_only.clause_cost))
    best = min(  # the selection is the integer optimum over the clauses it generated
        columns.objective(list(subset), 0.3, beam_only.clause_cost)
        for size in range(4) for subset in itertools.combinations(grouped.clauses, size)
    )
    assert grouped.objective == pytest.approx(best, rel=1e-3)


@pytest.mark.parametrize("seed", range(5))
def test_beam_search_returns_only_clauses_with_negative_reduced_cost(seed: int) -> None:
    A, y, weight = random_instance(seed, n=50, d=12)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        mu = columns.cover_weight * rng.random(columns.cover_weight.shape[0])
        nu = -float(rng.random())
        theta = float(rng.choice([0.05, 0.5, 2.0]))
        exclude = {(0,), (1, 2)}
        found = beam_search(columns, mu, nu, theta=theta, clause_cost=1.0, width=4, max_length=4, exclude=exclude, n_best=10)
        assert [rc for rc, _ in found] == sorted(rc for rc, _ in found)
        for rc, clause in found:
            assert rc < 0
            assert rc == pytest.approx(columns.reduced_cost(clause, mu, nu, theta, 1.0))
            assert clause not in exclude and len(clause) <= 4 and list(clause) == sorted(set(clause))


@pytest.mark.parametrize("seed", range(6))
def test_beam_search_with_a_full_first_level_finds_the_best_clause_of_two_features(seed: int) -> None:
    """first_width >= d: every single feature starts the beam, so the best clause of at most two is exact."""
    A, y, weight = random_instance(seed, n=60, d=14)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    rng = np.random.default_rng(seed)
    misses = 0
    for _ in range(6):
        mu = columns.cover_weight * rng.random(columns.cover_weight.shape[0])
        nu = -float(rng.random())
        theta = float(rng.choice([0.05, 0.5]))
        exact = min(
            columns.reduced_cost(clause, mu, nu, theta, 1.0)
            for size in (0, 1, 2) for clause in itertools.combinations(range(14), size)
        )
        full = beam_search(columns, mu, nu, theta=theta, clause_cost=1.0, width=1, max_length=2, first_width=14)
        narrow = beam_search(columns, mu, nu, theta=theta, clause_cost=1.0, width=1, max_length=2)
        if exact < -1e-9:
            assert full and full[0][0] == pytest.approx(exact)
            misses += not narrow or narrow[0][0] > exact + 1e-9
        else:
            assert not full
    if seed == 0:
        assert misses > 0  # a beam of one feature misses it: the test can tell the two apart


@pytest.mark.parametrize("kind", ["integer", "few", "float"])
def test_pair_sums_are_the_row_sums_of_each_single_feature_clause(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row f of pair_sums is the sums over the rows where feature f is absent, whatever the blocks of rows."""
    rng = np.random.default_rng(11)
    absent = rng.random((300, 9)) < 0.6
    weight = _weights(rng, 300, kind)
    features = [4, 0, 7]
    expected = np.array([FloatRowSums(absent, weight).sums(np.flatnonzero(absent[:, f])) for f in features])
    assert np.allclose(pair_sums(absent, weight, features), expected, rtol=1e-12, atol=1e-12)
    monkeypatch.setattr(sums_module, "PAIR_BLOCK_VALUES", 9 * 7)  # blocks of 7 rows
    assert np.allclose(pair_sums(absent, weight, features), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["integer", "few", "float"])
def test_pair_sums_of_fixed_weights_are_computed_once_only_where_they_are_exact(
    kind: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PairSums gives pair_sums' numbers (bit for bit with integer weights, from one product of every feature)."""
    rng = np.random.default_rng(5)
    absent = rng.random((200, 11)) < 0.55
    weight = _weights(rng, 200, kind)
    calls = []
    compute = sums_module.pair_sums
    monkeypatch.setattr(sums_module, "pair_sums", lambda *args: calls.append(args[2]) or compute(*args))
    pairs = PairSums(absent, weight)
    for features in ([3, 0, 9], [10], [0, 3]):
        expected = compute(absent, weight, features)
        if kind == "integer":
            assert np.array_equal(pairs.rows(features), expected)
        else:
            np.testing.assert_allclose(pairs.rows(features), expected, rtol=1e-12, atol=1e-12)
    assert len(calls) == (1 if kind == "integer" else 3)
    monkeypatch.setattr(sums_module, "PAIR_CACHE_VALUES", 10 * 10)  # d x d above it: each call computes its own
    calls.clear()
    big = PairSums(absent, np.round(weight))
    big.rows([1]), big.rows([2])
    assert len(calls) == 2


def test_float_row_sums_leave_out_the_rows_of_weight_zero() -> None:
    rng = np.random.default_rng(2)
    absent = rng.random((50, 4)) < 0.5
    weight = np.where(rng.random(50) < 0.6, 0.0, rng.random(50))
    sums = FloatRowSums(absent, weight)
    rows = sums.every_row()
    assert np.array_equal(rows, np.flatnonzero(weight > 0)) and 0 < rows.shape[0] < 50
    np.testing.assert_allclose(sums.sums(rows), weight @ absent, rtol=1e-12)
    assert np.array_equal(sums.narrow(rows, 1), np.flatnonzero((weight > 0) & absent[:, 1]))


def test_float_row_sums_from_copies_are_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The float copy and the by-feature layout made once per fit give the sums and sets of the 0/1 matrix, exactly."""
    rng = np.random.default_rng(5)
    for trial in range(40):
        n, d = int(rng.integers(1, 300)), int(rng.integers(1, 40))
        absent = rng.random((n, d)) < rng.random()
        weight = np.where(rng.random(n) < 0.5, 0.0, rng.random(n))
        plain, copied = FloatRowSums(absent, weight), FloatRowSums(absent, weight, AbsentCopies.of(absent))
        rows = plain.every_row()
        for _ in range(4):
            assert np.array_equal(plain.sums(rows), copied.sums(rows)), trial  # bit for bit, not approximately
            assert plain.total(rows) == copied.total(rows)
            j = int(rng.integers(d))
            narrowed = plain.narrow(rows, j)
            assert np.array_equal(narrowed, copied.narrow(rows, j)), trial
            rows = narrowed
    monkeypatch.setattr(sums_module, "FLOAT_COPY_VALUES", 99)
    assert AbsentCopies.of(np.zeros((10, 10), dtype=bool)) is None  # above the cap: the sets made float one at a time
    assert AbsentCopies.of(np.zeros((9, 11), dtype=bool)) is not None


@pytest.mark.parametrize("seed", range(4))
def test_beam_search_with_copies_finds_the_same_clauses(seed: int) -> None:
    A, y, weight = random_instance(seed, n=120, d=14)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    copies = AbsentCopies.of(columns.cover_absent)
    rng = np.random.default_rng(seed)
    clauses = 0
    for _ in range(4):
        mu = columns.cover_weight * rng.random(columns.cover_weight.shape[0])
        nu = -float(rng.random())
        theta = float(rng.choice([0.05, 0.5, 2.0]))
        for first_width in (0, 14):
            settings = dict(theta=theta, clause_cost=1.0, width=3, max_length=4, n_best=10, first_width=first_width)
            found = beam_search(columns, mu, nu, **settings)
            assert found == beam_search(columns, mu, nu, cover_copies=copies, **settings)
            clauses += len(found)
    assert clauses > 0  # the searches found clauses to compare


def test_the_beam_keeps_the_stable_order_of_the_lowest_reduced_costs() -> None:
    """_smallest(values, k) is np.argsort(values, kind="stable")[:k], ties (and inf) in index order."""
    rng = np.random.default_rng(3)
    for trial in range(500):  # below and above the size where the partition takes over
        n = int(rng.integers(1, 60)) if trial % 2 else int(rng.integers(290, 700))
        k = int(rng.integers(1, 70)) if trial % 3 else int(rng.integers(1, n + 10))
        values = rng.integers(0, 4, n).astype(float) if trial % 4 < 2 else rng.random(n)
        values[rng.random(n) < 0.2] = np.inf
        assert np.array_equal(beam_module._smallest(values, k), np.argsort(values, kind="stable")[:k]), trial


def test_the_wide_fallback_search_makes_beam_only_cg_exact_over_clauses_of_two_features() -> None:
    """With clauses of at most two features, beam-only CG ends at the LP optimum over all of them (the fallback is exact).

    Without the fallback (fallback_width=0) the narrow beam gives up above that optimum on some instances.
    With the default count (``fallback_searches``), at most that many wide searches run at each θ of a path.
    """
    misses = 0
    for seed in range(8):
        A, y, weight = random_instance(seed, n=80, d=12)
        columns = prepare_cg_data(A, y, sample_weight=weight)
        settings = replace(
            CG_SETTINGS, max_length=2, beam_width=1, pricing_mip_max_nonzeros=0, stall_rounds=10**6, fallback_searches=10**6,
        )
        pairs = [clause for clause in every_clause(12) if len(clause) <= 2]
        master = build_cg_master(columns, pairs, theta=0.5, clause_cost=1.0, max_clauses=2)
        optimum = HighsBackend().solve(master.model).objective
        wide = run_column_generation(columns, HighsBackend(), theta=0.5, n_clauses=2, max_iter=500, settings=settings)
        assert wide.lp_objective == pytest.approx(optimum, rel=1e-7, abs=1e-7)
        narrow = run_column_generation(
            columns, HighsBackend(), theta=0.5, n_clauses=2, max_iter=500, settings=replace(settings, fallback_width=0),
        )
        assert narrow.lp_objective >= optimum - 1e-7
        misses += narrow.lp_objective > optimum + 1e-6
    assert misses > 0
    widths: list[int] = []
    real = cg_module.beam_search

    def counted(*args, **kwargs):
        widths.append(kwargs.get("first_width", 0))
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cg_module, "beam_search", counted)
        path = cg_module.run_column_generation_path(
            columns, HighsBackend(), thetas=[0.5, 0.2, 0.05], n_clauses=[2], max_iter=500,
            settings=replace(settings, fallback_searches=1),
        )
    assert len(path) == 3
    assert 1 <= sum(width > 1 for width in widths) <= 3  # one wide search per θ at most
    assert all(width in (0, 12) for width in widths)  # every feature on a wide first level (fallback_width=None)


def test_cg_rounds_stop_when_the_master_lp_stalls(caplog: pytest.LogCaptureFixture) -> None:
    """stall_rounds LPs in a row without a lower objective end the rounds; the degenerate rounds change nothing.

    Labels independent of the features, 30 % positive: the master LP stays at the
    constant rule while the beam search keeps pricing clauses of negative reduced cost.
    """
    rng = np.random.default_rng(0)
    A = (rng.random((600, 40)) < 0.3).astype(np.int8)
    y = (rng.random(600) < 0.3).astype(np.int8)
    columns = prepare_cg_data(A, y)
    beam_only = replace(CG_SETTINGS, pricing_mip_max_nonzeros=0)
    patient = run_column_generation(
        columns, HighsBackend(), theta=0.5, n_clauses=2, max_iter=300, settings=replace(beam_only, stall_rounds=10**6),
    )
    with caplog.at_level("INFO", logger=cg_module.logger.name):
        stalled = run_column_generation(
            columns, HighsBackend(), theta=0.5, n_clauses=2, max_iter=300, settings=replace(beam_only, stall_rounds=3),
        )
    assert stalled.termination == "no_improvement"
    assert stalled.n_rounds < patient.n_rounds / 5
    assert stalled.objective == pytest.approx(patient.objective)
    lps = [float(message.split()[2]) for message in (record.getMessage() for record in caplog.records)
           if message.split()[:1] == ["CG"] and message.split()[1].isdigit()]
    assert len(lps) == stalled.n_rounds
    best = min(lps[:-3])
    assert all(lp >= best - 1e-9 for lp in lps[-3:])  # the last three LPs did not go below the best before them


def test_pricing_mips_are_counted_not_timed() -> None:
    """At most pricing_mip_solves pricing MIPs per fit; none: the beam search alone prices (no pricing model)."""
    A, y, weight = random_instance(4, n=30, d=8)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    built: list[str] = []
    settings = replace(EXACT_SETTINGS, stall_rounds=10**6)
    none = run_column_generation(
        columns, HighsBackend(), theta=0.05, n_clauses=3, max_iter=100, settings=replace(settings, pricing_mip_solves=0),
        model_hook=lambda handle, kind: built.append(kind),
    )
    assert built == ["cg_master"] and none.termination == "no_improvement"
    built.clear()
    one = run_column_generation(
        columns, HighsBackend(), theta=0.05, n_clauses=3, max_iter=100, settings=replace(settings, pricing_mip_solves=1),
        model_hook=lambda handle, kind: built.append(kind),
    )
    assert built == ["cg_master", "cg_pricing"]
    assert one.n_solves - none.n_solves <= one.n_rounds - none.n_rounds + 1
    exact = run_column_generation(columns, HighsBackend(), theta=0.05, n_clauses=3, max_iter=100, settings=settings)
    assert exact.termination == "converged"  # every pricing MIP solved to optimality, none of them timed


def _weights(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    if kind == "integer":  # counts of identical samples, the first pricing's duals (with zeros: rows left out)
        return rng.integers(0, 4, n).astype(float)
    if kind == "few":  # the grouped master's duals: a handful of fractions
        return rng.choice([0.0, 0.3, 1 / 3, 2.5], n)
    return rng.random(n)


@pytest.mark.parametrize("kind", ["integer", "few", "distinct"])
def test_row_sums_by_bits_equal_the_float_products_on_every_row_set(kind: str) -> None:
    """Both routes give the same sums on the same (narrowed) row sets: bit for bit where the weights are integers."""
    rng = np.random.default_rng(7)
    for trial in range(60):
        n, d = int(rng.integers(0, 400)), int(rng.integers(1, 15))
        absent = rng.random((n, d)) < rng.random()
        weight = _weights(rng, n, kind)
        floats, bits = row_sums(absent, weight, "float"), row_sums(absent, weight, "bits")
        assert isinstance(floats, FloatRowSums) and isinstance(bits, BitRowSums)
        float_rows, bit_rows = floats.every_row(), bits.every_row()
        for _ in range(4):
            expected = weight @ (absent & np.isin(np.arange(n), float_rows)[:, None])
            if kind == "integer":
                assert np.array_equal(bits.sums(bit_rows), floats.sums(float_rows)), trial
                assert bits.total(bit_rows) == floats.total(float_rows), trial
            np.testing.assert_allclose(bits.sums(bit_rows), expected, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(floats.sums(float_rows), expected, rtol=1e-12, atol=1e-12)
            assert bits.total(bit_rows) == pytest.approx(floats.total(float_rows), rel=1e-12, abs=1e-12)
            j = int(rng.integers(d))
            float_rows, bit_rows = floats.narrow(float_rows, j), bits.narrow(bit_rows, j)


def test_row_sums_counts_bits_only_when_the_weights_take_few_values() -> None:
    rng = np.random.default_rng(0)
    absent = rng.random((1000, 6)) < 0.5
    assert isinstance(row_sums(absent, np.ones(1000)), BitRowSums)
    assert isinstance(row_sums(absent, rng.integers(1, 4, 1000).astype(float)), BitRowSums)
    assert isinstance(row_sums(absent, rng.random(1000)), FloatRowSums)  # 1000 distinct weights
    assert isinstance(row_sums(absent, np.zeros(1000)), BitRowSums)  # nothing to add: all sums 0
    assert np.array_equal(row_sums(absent, np.zeros(1000)).sums(row_sums(absent, np.zeros(1000)).every_row()), np.zeros(6))
    with pytest.raises(ValueError, match="route"):
        row_sums(absent, np.ones(1000), "dense")


@pytest.mark.parametrize("seed", range(4))
def test_beam_search_finds_the_same_clauses_by_either_route(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Integer duals and weights: the bit counts are the float products' numbers, so the search takes the same path."""
    A, y, weight = random_instance(seed, n=300, d=12)
    columns = prepare_cg_data(A, y, sample_weight=weight)
    rng = np.random.default_rng(seed)
    for _ in range(4):
        mu = columns.cover_weight * rng.integers(0, 2, columns.cover_weight.shape[0])
        nu = -float(rng.integers(0, 3))
        theta = float(rng.choice([0.05, 0.5, 2.0]))
        found = {}
        for route, per_value in (("float", 10**9), ("bits", 0)):
            monkeypatch.setattr(sums_module, "BIT_ROWS_PER_VALUE", per_value)
            found[route] = beam_search(columns, mu, nu, theta=theta, clause_cost=1.0, width=4, max_length=4, n_best=10)
        assert found["bits"] == found["float"]


@pytest.mark.parametrize("name", ["cbc", "glpk"])
def test_cg_gives_the_same_objective_with_highs_and_shell_solvers(name: str) -> None:
    backend = require_backend(name)
    A, y, weight = random_instance(5, n=30, d=6)
    problem = CNFProblem.from_binary(A, y, form="dnf", sample_weight=weight)
    settings = replace(EXACT_SETTINGS, max_length=6)
    with_highs, _ = learn_once(problem, HighsBackend(), algorithm="cg", n_clauses=2, theta=0.5, cg_settings=settings)
    with_other, _ = learn_once(problem, backend, algorithm="cg", n_clauses=2, theta=0.5, cg_settings=settings)
    assert with_other.objective == pytest.approx(with_highs.objective)
    assert with_other.termination == with_highs.termination == "converged"


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("allow_disable", [False, True])
def test_estimator_learns_with_cg(pima_200, form: str, allow_disable: bool) -> None:
    X, y = pima_200
    clf = BooleanRuleClassifier(algorithm="cg", form=form, n_clauses=2, allow_disable=allow_disable).fit(X, y)
    assert clf.rule_.form == form
    assert len(clf.rule_.clauses) <= 2
    assert clf.termination_ in ("converged", "no_improvement", "max_iter")
    baseline = max(np.mean(y), 1 - np.mean(y))
    assert clf.score(X, y) > baseline  # a rule that beats the majority class on its training rows
    np.testing.assert_array_equal(clf.predict(X), clf.rule_.evaluate(X).astype(int) if set(np.unique(y)) == {0, 1} else clf.predict(X))


class _FirstSolveGetsNoTime(HighsBackend):
    """HiGHS whose first solve (column generation's first master LP) gets no time at all, as a fit's time limit
    on a loaded machine can leave it: the real solver really stops, before any feasible solution."""

    def __init__(self) -> None:
        super().__init__()
        self.solves = 0

    def _solve(self, model, config, *args):
        self.solves += 1
        if self.solves == 1:
            config = replace(config, time_limit=1e-12)
        return super()._solve(model, config, *args)


def test_a_master_lp_stopped_by_the_fit_time_limit_keeps_the_clauses_so_far():
    """A fit's time limit that stops the first master LP before it has a solution ends the rounds (time_limit);
    the selection from the clauses so far (the local search, no MIP once the deadline has passed) is the rule.
    It was a SolveError ("the column generation master LP ... failed"), seen as a failing CLI fit under load."""
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("liver")
    rules = []
    for _ in range(2):
        backend = _FirstSolveGetsNoTime()
        with pytest.warns(UserWarning, match="the time limit was reached"):
            clf = BooleanRuleClassifier(n_clauses=2, n_thresholds=3, time_limit=1e-6, solver=backend).fit(X, y)
        assert clf.termination_ == "time_limit"
        assert backend.solves == 1  # the master LP only: no pricing, and no selection MIP after the deadline
        assert clf.training_error_ <= clf.baseline_error_  # at worst the better constant
        rules.append(str(clf.rule_))
    assert rules[0] == rules[1]  # the clauses so far and a deterministic selection: the same rule again
