"""The Pyomo model layer: every builder against brute force, on every backend.

The builders (:func:`build_clause_lp`, :func:`build_zero_one`,
:func:`build_hamming`) are checked on tiny random instances (d <= 5,
n <= 12, R <= 2) whose optimum is computed by enumerating every binary W
(and w0). The numpy objectives used for the enumeration are themselves
checked against a literal, loop-based transcription of the paper's
definitions, so a mistake shared by a builder and the objectives module
would still be caught.
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
import scipy.sparse as sp

from rulemodels.models import (
    CNFProblem,
    build_clause_dual_lp,
    build_clause_lp,
    build_hamming,
    build_zero_one,
    clause_sums,
    clause_weights,
    hamming_objective,
    is_integral,
    objective_breakdown,
    rule_from_model,
    sparsity_cost,
    two_level_weights,
    unique_rows,
    zero_one_objective,
)
from rulemodels.rules import Literal
from solvers import HighsBackend, ModelChanges, get_backend
from tests.helpers import require_backend

ALL_BACKENDS = ("highs", "glpk", "cbc")
TOL = 1e-6


# ---------------------------------------------------------------------------
# Instances and brute force
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One tiny instance: data from ``seed``, R clauses, θ, and which options are on."""

    seed: int
    n_clauses: int
    theta: float
    weights: bool = False
    disable_cost: float | None = None
    costs: bool = False

    @property
    def id(self) -> str:
        parts = [f"s{self.seed}", f"R{self.n_clauses}", f"t{self.theta:g}"]
        if self.weights:
            parts.append("w")
        if self.disable_cost is not None:
            parts.append(f"c0={self.disable_cost:g}")
        if self.costs:
            parts.append("c")
        return "-".join(parts)


def make_data(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n in [6, 12], d in [2, 5], both classes present, some duplicated rows."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 13))
    d = int(rng.integers(2, 6))
    A = (rng.random((n, d)) < rng.uniform(0.3, 0.7)).astype(int)
    y = rng.integers(0, 2, n)
    y[0], y[1] = 1, 0
    # duplicate a couple of rows (sometimes with the same label, sometimes not)
    A[-1] = A[0]
    A[-2] = A[1]
    y[-2] = int(rng.integers(0, 2))
    return A, y


@cache
def case_data(case: Case) -> dict:
    A, y = make_data(case.seed)
    rng = np.random.default_rng(1000 + case.seed)
    kwargs: dict = {}
    if case.weights:
        weights = rng.choice([0.0, 0.5, 1.0, 2.5], size=len(y))
        weights[0] = 0.0  # a positive sample removed
        weights[1] = 0.0  # a negative sample removed
        kwargs["sample_weight"] = weights
    if case.costs:
        kwargs["feature_cost"] = rng.choice([0.5, 1.0, 2.0], size=A.shape[1])
    if case.disable_cost is not None:
        kwargs["disable_cost"] = case.disable_cost
    return {"A": A, "y": y, "kwargs": kwargs}


CASES = [
    Case(0, 1, 0.3),
    Case(1, 2, 0.3),
    Case(2, 2, 0.0),
    Case(3, 1, 1.5, weights=True),
    Case(4, 2, 0.05, weights=True),
    Case(5, 1, 0.75, disable_cost=0.5),
    Case(6, 2, 0.3, disable_cost=3.0),
    Case(7, 2, 0.2, weights=True, costs=True),
    Case(8, 1, 0.4, weights=True, disable_cost=1.0, costs=True),
    Case(9, 2, 0.6, weights=True, disable_cost=0.25, costs=True),
]
CASE_IDS = [case.id for case in CASES]


def binary_matrices(d: int, R: int):
    for bits in itertools.product((0, 1), repeat=d * R):
        yield np.array(bits, dtype=float).reshape(d, R)


@cache
def brute_force(case: Case, which: str) -> float:
    """min over all binary W (and w0) of the numpy objective ``which``."""
    data = case_data(case)
    A, y, kwargs = data["A"], data["y"], dict(data["kwargs"])
    R = 1 if which == "clause" else case.n_clauses
    objective = zero_one_objective if which == "zero_one" else hamming_objective
    disable_cost = kwargs.pop("disable_cost", None)
    w0_choices = [None] if disable_cost is None else [np.array(b, float) for b in itertools.product((0, 1), repeat=R)]
    best = np.inf
    for W in binary_matrices(A.shape[1], R):
        for w0 in w0_choices:
            extra = {} if w0 is None else {"w0": w0, "disable_cost": disable_cost}
            best = min(best, objective(A, y, W, case.theta, **kwargs, **extra))
    return float(best)


def build(which: str, case: Case, **options):
    data = case_data(case)
    kwargs = {**data["kwargs"], **options}
    if which == "clause":
        return build_clause_lp(data["A"], data["y"], theta=case.theta, **kwargs)
    builder = build_zero_one if which == "zero_one" else build_hamming
    return builder(data["A"], data["y"], case.n_clauses, theta=case.theta, **kwargs)


def solve(backend, handle, changes=None) -> float:
    """Solve the model of a builder's handle; its objective."""
    result = backend.solve(handle.model, mip_gap=0.0, changes=changes)
    assert result.is_optimal, result
    assert result.has_solution
    return result.objective


# ---------------------------------------------------------------------------
# The numpy objectives against the paper's definitions
# ---------------------------------------------------------------------------


def paper_objectives(A, y, W, theta, weights, costs, w0, c0):
    """Loop-based transcription of eqs. StdFormulation and HammingFormulation."""
    n, d = A.shape
    R = W.shape[1]
    zero_one = hamming = 0.0
    for i in range(n):
        outputs = []
        sums = []
        for r in range(R):
            s = sum(A[i, j] * W[j, r] for j in range(d)) + (w0[r] if w0 is not None else 0)
            sums.append(s)
            outputs.append(s >= 1)
        predicted = all(outputs)
        zero_one += weights[i] * (predicted != bool(y[i]))
        if y[i] == 1:
            hamming += weights[i] * sum(max(0.0, 1.0 - s) for s in sums)
        else:
            hamming += weights[i] * min(sums)
    sparsity = sum(costs[j] * W[j, r] for j in range(d) for r in range(R))
    if w0 is not None:
        sparsity += c0 * sum(w0)
    return zero_one + theta * sparsity, hamming + theta * sparsity


@pytest.mark.parametrize("seed", range(6))
def test_numpy_objectives_match_paper_definitions(seed):
    rng = np.random.default_rng(seed)
    n, d, R = 9, 4, 1 + seed % 3
    A = rng.integers(0, 2, (n, d))
    y = rng.integers(0, 2, n)
    weights = rng.choice([0.0, 1.0, 2.0, 0.5], size=n)
    costs = rng.uniform(0.5, 2.0, size=d)
    for _ in range(10):
        W = rng.integers(0, 2, (d, R)).astype(float)
        w0 = rng.integers(0, 2, R).astype(float) if seed % 2 else None
        c0 = 0.7
        extra = {"w0": w0, "disable_cost": c0} if w0 is not None else {}
        want_zero_one, want_hamming = paper_objectives(A, y, W, 0.3, weights, costs, w0, c0)
        got_zero_one = zero_one_objective(A, y, W, 0.3, sample_weight=weights, feature_cost=costs, **extra)
        got_hamming = hamming_objective(A, y, W, 0.3, sample_weight=weights, feature_cost=costs, **extra)
        assert got_zero_one == pytest.approx(want_zero_one, abs=1e-9)
        assert got_hamming == pytest.approx(want_hamming, abs=1e-9)
        # sparse A gives the same values
        assert zero_one_objective(sp.csr_matrix(A), y, W, 0.3, sample_weight=weights, feature_cost=costs, **extra) == (
            pytest.approx(got_zero_one)
        )


def test_clause_sums_and_sparsity_cost():
    A = np.array([[1, 0, 1], [0, 0, 0], [1, 1, 1]])
    W = np.array([[1, 0], [1, 1], [0, 1]])
    np.testing.assert_array_equal(clause_sums(A, W), [[1, 1], [0, 0], [2, 2]])
    np.testing.assert_array_equal(clause_sums(A, W, np.array([1, 0])), [[2, 1], [1, 0], [3, 2]])
    np.testing.assert_array_equal(clause_sums(A, W[:, 0]), [[1], [0], [2]])
    assert sparsity_cost(W, 0.5) == pytest.approx(0.5 * 4)
    assert sparsity_cost(W, 0.5, [1, 2, 3], np.array([1, 1]), 10.0) == pytest.approx(0.5 * (1 + 2 * 2 + 3 + 20))


# ---------------------------------------------------------------------------
# 1. Exact models == brute force, on every backend
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("which", "objective"), [("zero_one", zero_one_objective), ("hamming", hamming_objective)], ids=["zero_one", "hamming"],
)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_two_level_mip_matches_brute_force(backend, case, which, objective):
    model = build(which, case)
    assert solve(backend, model) == pytest.approx(brute_force(case, which), abs=TOL)
    # the solution itself scores its objective under the numpy definition
    W, w0 = two_level_weights(model.model)
    W, w0 = np.round(W), None if w0 is None else np.round(w0)
    data = case_data(case)
    kwargs = dict(data["kwargs"])
    extra = {"w0": w0, "disable_cost": kwargs.pop("disable_cost")} if w0 is not None else {}
    assert objective(data["A"], data["y"], W, case.theta, **kwargs, **extra) == pytest.approx(
        brute_force(case, which), abs=TOL
    )


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_integer_clause_lp_matches_brute_force(backend, case):
    model = build("clause", case, integer=True)
    assert solve(backend, model) == pytest.approx(brute_force(case, "clause"), abs=TOL)


def test_one_level_is_hamming_with_one_clause(backend):
    """Paper: with R = 1 the Hamming formulation is the one-level formulation."""
    case = CASES[3]
    clause = solve(backend, build("clause", case, integer=True))
    assert case.n_clauses == 1
    hamming = solve(backend, build("hamming", case))
    assert clause == pytest.approx(hamming, abs=TOL)


# ---------------------------------------------------------------------------
# 2. Relaxations bound the MIPs from below
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES[::2], ids=CASE_IDS[::2])
def test_relaxations_are_lower_bounds(backend, case):
    pairs = [
        (build("zero_one", case, relax=True), build("zero_one", case, relax=False)),
        (build("hamming", case, relax=True), build("hamming", case, relax=False)),
        (build("clause", case, integer=False), build("clause", case, integer=True)),
    ]
    for relaxed, exact in pairs:
        lp = solve(backend, relaxed)
        mip = solve(backend, exact)
        assert -TOL <= lp <= mip + TOL, (relaxed.model.name, lp, mip)


def test_tlp_relaxation_is_strictly_weaker_somewhere():
    """TLP can be fractional: on XOR-like data its bound is below the MIP (the test can fail if relax is ignored)."""
    backend = require_backend("highs")
    A = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
    y = np.array([1, 1, 0, 0])
    lp = solve(backend, build_zero_one(A, y, 2, theta=0.01, relax=True))
    mip = solve(backend, build_zero_one(A, y, 2, theta=0.01, relax=False))
    assert lp < mip - 1e-3


# ---------------------------------------------------------------------------
# 3. The backends agree
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["zero_one", "hamming", "clause", "zero_one_tlp", "clause_lp"])
@pytest.mark.parametrize("case", [CASES[1], CASES[6], CASES[9]], ids=[CASES[1].id, CASES[6].id, CASES[9].id])
def test_backends_agree(which, case):
    options = {"zero_one_tlp": {"relax": True}, "clause_lp": {"integer": False}, "clause": {"integer": True}}.get(which, {})
    kind = which.split("_tlp")[0].replace("clause_lp", "clause")
    objectives = {}
    for name in ALL_BACKENDS:
        backend = require_backend(name)
        objectives[name] = solve(backend, build(kind, case, **options))
    reference = objectives["highs"]
    for value in objectives.values():
        assert value == pytest.approx(reference, abs=TOL), objectives


# ---------------------------------------------------------------------------
# 4. Persistent re-solves of one clause LP
# ---------------------------------------------------------------------------


def resolve_rounds(n: int, d: int, seed: int):
    """(sample_weight, theta, feature_cost) settings, applied in order."""
    rng = np.random.default_rng(seed)
    weights = np.ones(n)
    theta = 0.1
    costs = np.ones(d)
    rounds = []
    for k in range(6):
        if k in (0, 3, 5):
            weights = rng.choice([0.0, 0.5, 1.0, 3.0], size=n)
            if k == 3:
                weights[: n // 2] = 0.0  # remove half the samples
        if k in (1, 4):
            theta = float(rng.choice([0.0, 0.4, 1.2]))
        if k in (2, 5):
            costs = rng.uniform(0.2, 2.0, size=d)
        rounds.append((weights.copy(), theta, costs.copy()))
    # and back to the start (weights on every sample again)
    rounds.append((np.ones(n), 0.1, np.ones(d)))
    return rounds


@pytest.mark.parametrize("variant", ["lp", "mip", "mip_disable"])
def test_persistent_resolve_matches_fresh_model(backend, solver_name, variant):
    rng = np.random.default_rng(26)  # every round changes the optimum on this instance
    A, y = rng.integers(0, 2, (10, 5)), rng.integers(0, 2, 10)
    A = np.vstack([A, A[:3]])  # duplicated rows: weights are summed per group
    y = np.concatenate([y, y[:3]])
    options = {"integer": variant != "lp", "disable_cost": 0.5 if variant == "mip_disable" else None}
    model = build_clause_lp(A, y, theta=0.1, **options)
    solve(backend, model)
    fresh_backend = get_backend(solver_name)
    rounds = resolve_rounds(len(y), A.shape[1], seed=3)
    for weights, theta, costs in rounds:
        model.set_sample_weight(weights)
        model.set_theta(theta)
        model.set_feature_cost(costs)
        persistent = solve(backend, model, ModelChanges(**model.parameter_changes()))  # only the Params' numbers changed
        fresh_model = build_clause_lp(A, y, theta=theta, sample_weight=weights, feature_cost=costs, **options)
        fresh = solve(fresh_backend, fresh_model)
        assert persistent == pytest.approx(fresh, abs=TOL), (weights, theta, costs)
        if variant != "lp":
            extra = {"w0": np.zeros(1), "disable_cost": 0.5} if variant == "mip_disable" else {}
            best = min(
                hamming_objective(A, y, W, theta, sample_weight=weights, feature_cost=costs, **extra)
                for W in binary_matrices(A.shape[1], 1)
            )
            if variant == "mip_disable":
                best = min(best, hamming_objective(A, y, np.zeros((A.shape[1], 1)), theta, sample_weight=weights,
                                                   feature_cost=costs, w0=np.ones(1), disable_cost=0.5))
            assert persistent == pytest.approx(best, abs=TOL)
    if isinstance(backend, HighsBackend):
        assert backend.n_builds == 1
        assert backend.n_solves == len(rounds) + 1


def _pyomo_way_data():
    rng = np.random.default_rng(11)
    A = rng.integers(0, 2, (14, 6))
    y = rng.integers(0, 2, 14)
    y[:2] = 1
    return A, y


@pytest.mark.parametrize("side", ["primal", "dual"])
def test_params_changed_the_pyomo_way_are_resolved_in_place(side):
    """``lp.model.theta = 3.0`` and ``lp.model.weight[p] = 2.0`` (plain Pyomo), then an in-place HiGHS re-solve.

    The handle reads the changes from the Params themselves, so the re-solve
    gives the solution of a fresh build with those values. It failed when
    ``parameter_changes`` read numpy copies kept beside the model: the
    persistent instance silently solved the old problem.
    """
    A, y = _pyomo_way_data()
    build = build_clause_dual_lp if side == "dual" else build_clause_lp
    backend = get_backend("highs")
    lp = build(A, y, theta=0.1, merge_identical=False)
    solve(backend, lp)
    before = lp.weights()
    p = next(iter(lp.model.P))  # merge_identical=False: group p is sample p
    lp.model.theta = 3.0
    lp.model.weight[p] = 2.0
    resolved = solve(backend, lp, ModelChanges(**lp.parameter_changes()))
    assert backend.n_builds == 1  # re-solved in place, not rebuilt
    weights = np.ones(len(y))
    weights[p] = 2.0
    fresh_lp = build(A, y, theta=3.0, sample_weight=weights, merge_identical=False)
    fresh = solve(get_backend("highs"), fresh_lp)
    assert resolved == pytest.approx(fresh, abs=TOL)
    np.testing.assert_allclose(lp.weights(), fresh_lp.weights(), atol=TOL)
    assert not np.allclose(before, fresh_lp.weights(), atol=TOL)  # the change matters: ignoring it would fail


@pytest.mark.parametrize("side", ["primal", "dual"])
@pytest.mark.parametrize("disable", [False, True])
def test_reweight_gives_what_set_sample_weight_then_parameter_changes_give(side, disable):
    """The BCD/AM fast path (numbers used as stored) equals storing the weights and reading every Param back.

    θ and c0 are changed the Pyomo way in between, so a fast path that skipped
    reading them would differ; ``c`` is given as stored by set_feature_cost.
    """
    rng = np.random.default_rng(5)
    A, y = _pyomo_way_data()
    build = build_clause_dual_lp if side == "dual" else build_clause_lp
    options = {"disable_cost": 0.5} if disable else {}
    fast = build(A, y, theta=0.1, **options)
    slow = build(A, y, theta=0.1, **options)
    costs = rng.uniform(0.5, 2.0, A.shape[1])
    for lp in (fast, slow):
        lp.set_feature_cost(costs)
        lp.model.theta = 0.7
        if disable:
            lp.model.c0 = 0.25
    for _ in range(3):
        weights = rng.uniform(0.0, 2.0, len(y)) * rng.integers(0, 2, len(y))
        got = fast.reweight(weights, feature_cost=costs)
        slow.set_sample_weight(weights)
        expected = slow.parameter_changes()
        assert got.keys() == expected.keys()
        for key in expected:
            for part_got, part_expected in zip(got[key][1:], expected[key][1:]):
                np.testing.assert_array_equal(part_got, part_expected)  # the same float operations: bit-identical
        np.testing.assert_array_equal(fast.reweight(weights)["objective" if side == "primal" else "constraint_bounds"][-1],
                                      expected["objective" if side == "primal" else "constraint_bounds"][-1])
        assert [p.value for p in fast.model.component_data_objects(pyo.Param)] == \
            [p.value for p in slow.model.component_data_objects(pyo.Param)]  # and the Params hold the same numbers


def test_theta_changed_the_pyomo_way_is_resolved_in_place_two_level():
    A, y = _pyomo_way_data()
    backend = get_backend("highs")
    tlp = build_zero_one(A, y, 2, theta=0.1, relax=True)
    before = solve(backend, tlp)
    tlp.model.theta = 3.0
    resolved = solve(backend, tlp, ModelChanges(**tlp.sparsity_changes()))
    assert backend.n_builds == 1
    fresh = solve(get_backend("highs"), build_zero_one(A, y, 2, theta=3.0, relax=True))
    assert resolved == pytest.approx(fresh, abs=TOL)
    assert abs(before - fresh) > 1e-3


def test_no_side_car_attributes_on_built_models():
    """Every number and list a handle uses lives in the model's components or on the handle, none beside the model."""
    A, y = _pyomo_way_data()
    handles = [
        build_clause_lp(A, y, theta=0.1, disable_cost=0.5),
        build_clause_dual_lp(A, y, theta=0.1, disable_cost=0.5),
        build_zero_one(A, y, 2, theta=0.1, disable_cost=0.5),
        build_hamming(A, y, 2, theta=0.1),
    ]
    for handle in handles:
        fresh = pyo.ConcreteModel(name=handle.model.name)
        extra = {name for name in vars(handle.model) if name.startswith("_")} - set(vars(fresh))
        assert not extra, (handle.model.name, sorted(extra))


def test_set_sample_weight_updates_params():
    A = np.array([[1, 0], [1, 0], [0, 1], [1, 1], [1, 1]])
    y = np.array([1, 1, 1, 0, 0])
    lp = build_clause_lp(A, y, theta=0.01, disable_cost=1.0)
    model = lp.model
    lp.set_sample_weight([2.0, 0.5, 0.0, 1.0, 3.0])
    # positives: rows 0 and 1 are one group (weight 2.5), row 2 its own group (0)
    assert sorted(pyo.value(model.weight[p]) for p in model.P) == [0.0, 2.5]
    assert [pyo.value(model.neg_cost[j]) for j in model.J] == [4.0, 4.0]
    assert pyo.value(model.neg_weight_total) == 4.0
    with pytest.raises(ValueError, match="sample_weight has 2 entries but A has 5 samples"):
        lp.set_sample_weight([1.0, 1.0])
    with pytest.raises(ValueError, match="non-negative"):
        lp.set_sample_weight([1.0, -1.0, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="theta must be a finite number >= 0"):
        lp.set_theta(-0.1)
    with pytest.raises(ValueError, match="feature_cost has 3 entries but A has 2 features"):
        lp.set_feature_cost([1.0, 1.0, 1.0])


# ---------------------------------------------------------------------------
# 5. Merging identical samples
# ---------------------------------------------------------------------------


def duplicated_data():
    rng = np.random.default_rng(5)
    base = rng.integers(0, 2, (5, 4))
    labels = np.array([1, 1, 0, 0, 1])
    picks = rng.integers(0, 5, size=12)
    A, y = base[picks], labels[picks]
    # the same row with both labels
    A = np.vstack([A, base[0]])
    y = np.concatenate([y, [0]])
    weights = rng.choice([0.0, 1.0, 2.0], size=len(y))
    return A, y, weights


@pytest.mark.parametrize("which", ["clause_lp", "clause", "zero_one", "hamming", "zero_one_tlp"])
def test_merge_identical_keeps_the_optimum(backend, which):
    A, y, weights = duplicated_data()
    objectives = []
    for merge in (True, False):
        kwargs = {"theta": 0.3, "sample_weight": weights, "merge_identical": merge}
        if which.startswith("clause"):
            model = build_clause_lp(A, y, integer=which == "clause", **kwargs)
        elif which.startswith("zero_one"):
            model = build_zero_one(A, y, 2, relax=which == "zero_one_tlp", **kwargs)
        else:
            model = build_hamming(A, y, 2, **kwargs)
        objectives.append(solve(backend, model))
    assert objectives[0] == pytest.approx(objectives[1], abs=TOL)


def test_merge_identical_model_sizes():
    A, y, weights = duplicated_data()
    distinct_pos = {tuple(row) for row, label in zip(A, y) if label == 1}
    distinct_neg = {tuple(row) for row, label in zip(A, y) if label == 0}
    assert len(distinct_pos) < (y == 1).sum()  # the data really has duplicates

    merged_lp = build_clause_lp(A, y, theta=0.01, sample_weight=weights)
    merged, unmerged = merged_lp.model, build_clause_lp(A, y, theta=0.01, sample_weight=weights, merge_identical=False).model
    assert len(merged.cover) == len(distinct_pos)
    assert len(unmerged.cover) == int((y == 1).sum())
    # the summed weight of each positive group
    for p in merged.P:
        pattern = tuple(merged_lp.groups.patterns[p].toarray().ravel())
        members = [i for i in range(len(y)) if y[i] == 1 and tuple(A[i]) == pattern]
        assert pyo.value(merged.weight[p]) == pytest.approx(weights[members].sum())
    # neg_cost is the weighted column count over negatives either way
    expected = (weights[y == 0][:, None] * A[y == 0]).sum(axis=0)
    for model in (merged, unmerged):
        np.testing.assert_allclose([pyo.value(model.neg_cost[j]) for j in model.J], expected)

    zero_one = build_zero_one(A, y, 2, theta=0.01).model
    assert len(zero_one.pos_error) == 2 * len(distinct_pos)
    assert len(zero_one.neg_error) == len(distinct_neg)
    hamming = build_hamming(A, y, 2, theta=0.01).model
    assert len(hamming.assign_one) == len(distinct_neg)
    assert len(hamming.xi_def) == 2 * len(distinct_pos)
    assert len(hamming.eta_def) == 2 * len(distinct_neg)


# ---------------------------------------------------------------------------
# 6. Model components
# ---------------------------------------------------------------------------


def pprint_text(model) -> str:
    stream = io.StringIO()
    model.pprint(ostream=stream)
    return stream.getvalue()


def test_pprint_names_the_paper_symbols():
    A, y = make_data(3)
    clause = pprint_text(build_clause_lp(A, y, theta=0.01, disable_cost=1.0).model)
    for text in ("w :", "xi :", "theta :", "w0 :", "ξ", "θ", "eq. (2.1) OneLevelFormulation",
                 "(2.2) OneLevelFormulationPositiveSamples", "(2.3) OneLevelFormulationNegativeSamples",
                 "(2.4) OneLevelFormulationWj", "neg_cost :"):
        assert text in clause, text
    zero_one = pprint_text(build_zero_one(A, y, 2, theta=0.01).model)
    for text in ("w :", "psi :", "beta :", "theta :", "ψ", "β", "θ", "eq. (4.14) GeneralLPFormulation", "beta_def :",
                 "R : clauses r = 0..R-1"):
        assert text in zero_one, text
    hamming = pprint_text(build_hamming(A, y, 2, theta=0.01).model)
    for text in ("w :", "xi :", "eta :", "z :", "η", "eq. (3.10) HammingFormulation", "(3.11) HammingFormulationCostNegative",
                 "(3.9) def-r0", "bigM :", "xi_def :", "eta_def :", "R : clauses r = 0..R-1"):
        assert text in hamming, text
    # one kind of component per name: neg_cost is a Param wherever it exists; the clause set is R, as in the paper
    assert "neg_cost :" not in hamming and "K :" not in hamming and "K :" not in zero_one
    assert build_zero_one(A, y, 1, theta=0.01, relax=True).model.name == "tlp"
    assert build_zero_one(A, y, 1, theta=0.01).model.name == "zero_one_mip"


def test_variable_domains():
    A, y = make_data(4)
    for relax in (False, True):
        for model in (build_zero_one(A, y, 2, theta=0.01, relax=relax, disable_cost=1.0).model,
                      build_hamming(A, y, 2, theta=0.01, relax=relax, disable_cost=1.0).model):
            for var in [*model.w.values(), *model.w0.values(), *getattr(model, "z", {}).values()]:
                if relax:
                    assert var.domain is pyo.UnitInterval and not var.is_binary()
                    assert (var.lb, var.ub) == (0, 1)
                else:
                    assert var.domain is pyo.Binary and var.is_binary()
        clause = build_clause_lp(A, y, theta=0.01, integer=not relax, disable_cost=1.0).model
        for var in [*clause.w.values(), clause.w0]:
            assert var.domain is (pyo.UnitInterval if relax else pyo.Binary)
        assert all(v.domain is pyo.NonNegativeReals for v in clause.xi.values())
    zero_one = build_zero_one(A, y, 2, theta=0.01).model
    assert all(v.domain is pyo.NonNegativeReals for v in zero_one.psi.values())
    assert all((v.lb, v.ub) == (0, 1) for v in zero_one.beta.values())


@pytest.mark.parametrize("n_clauses", [1, 2, 3])
def test_beta_def_has_one_row_per_nonzero_of_negatives(n_clauses):
    rng = np.random.default_rng(n_clauses)
    A = rng.integers(0, 2, (12, 5))
    A[3] = 0  # a negative with no nonzero gets no row
    y = rng.integers(0, 2, 12)
    y[3] = 0
    model = build_zero_one(A, y, n_clauses, theta=0.01, merge_identical=False).model
    assert len(model.beta_def) == int(A[y == 0].sum()) * n_clauses
    for i, j, r in model.beta_def:
        assert y[i] == 0 and A[i, j] == 1 and 0 <= r < n_clauses
    merged = build_zero_one(A, y, n_clauses, theta=0.01).model
    distinct = {tuple(row) for row, label in zip(A, y) if label == 0}
    assert len(merged.beta_def) == sum(sum(row) for row in distinct) * n_clauses
    assert not hasattr(model, "beta_def0")
    disabled = build_zero_one(A, y, n_clauses, theta=0.01, merge_identical=False, disable_cost=1.0).model
    assert len(disabled.beta_def0) == int((y == 0).sum()) * n_clauses


def test_hamming_big_m_is_the_row_sum():
    A, y = make_data(6)
    for disable in (None, 1.0):
        model = build_hamming(A, y, 2, theta=0.01, merge_identical=False, disable_cost=disable).model
        for i in model.N:
            assert pyo.value(model.bigM[i]) == A[i].sum() + (disable is not None)


def test_builders_accept_sparse_and_dataframe_input():
    backend = require_backend("highs")
    A, y = make_data(7)
    dense = solve(backend, build_zero_one(A, y, 2, theta=0.2))
    assert solve(backend, build_zero_one(sp.csr_matrix(A), y, 2, theta=0.2)) == pytest.approx(dense, abs=TOL)
    assert solve(backend, build_zero_one(pd.DataFrame(A), pd.Series(y), 2, theta=0.2)) == pytest.approx(dense, abs=TOL)
    assert solve(backend, build_zero_one(A.astype(bool), y.astype(bool), 2, theta=0.2)) == pytest.approx(dense, abs=TOL)


# ---------------------------------------------------------------------------
# 7. CNFProblem and reading rules
# ---------------------------------------------------------------------------


def test_from_binary_negates_for_dnf():
    A, y = make_data(8)
    weights = np.linspace(0.0, 2.0, len(y))
    dnf = CNFProblem.from_binary(A, y, form="dnf", sample_weight=weights)
    np.testing.assert_array_equal(dnf.A.toarray(), 1 - A)
    np.testing.assert_array_equal(dnf.y, 1 - y)
    np.testing.assert_array_equal(dnf.sample_weight, weights)
    cnf = CNFProblem.from_binary(A, y, form="cnf")
    np.testing.assert_array_equal(cnf.A.toarray(), A)
    np.testing.assert_array_equal(cnf.y, y)
    assert cnf.literals == tuple(Literal(f"x{j}", "is_true") for j in range(A.shape[1]))
    assert (cnf.n_samples, cnf.n_features) == A.shape
    with pytest.raises(ValueError, match="form must be 'cnf' or 'dnf'"):
        CNFProblem.from_binary(A, y, form="both")
    with pytest.raises(ValueError, match="literals given for"):
        CNFProblem.from_binary(A, y, literals=[Literal("a", "is_true")])


@pytest.mark.parametrize("form", ["cnf", "dnf"])
@pytest.mark.parametrize("seed", range(5))
def test_rule_from_weights_evaluates_like_the_working_cnf(form, seed):
    rng = np.random.default_rng(seed)
    n, d, R = 12, 5, 3
    A = rng.integers(0, 2, (n, d))
    y = rng.integers(0, 2, n)
    literals = [Literal(f"f{j}", ">", float(j)) for j in range(d)]
    problem = CNFProblem.from_binary(A, y, literals=literals, form=form)
    for _ in range(20):
        W = (rng.random((d, R)) < 0.35).astype(float)
        w0 = rng.integers(0, 2, R).astype(float) if rng.random() < 0.5 else None
        rule = problem.rule_from_weights(W, w0)
        assert rule.form == form
        work = problem.predict_work(W, w0)
        got = rule.evaluate_binary(A, literals)
        expected = ~work if form == "dnf" else work
        np.testing.assert_array_equal(got, expected)
        kept = R if w0 is None else int(R - w0.sum())
        assert rule.n_clauses == kept
        assert rule.n_literals == int(W[:, w0 == 0].sum() if w0 is not None else W.sum())
    with pytest.raises(ValueError, match="W has 2 rows but the problem has 5 features"):
        problem.rule_from_weights(np.ones((2, 1)))


def test_rule_from_weights_empty_and_disabled_clauses():
    A = np.array([[1, 0], [0, 1], [0, 0]])
    y = np.array([1, 0, 1])
    dnf = CNFProblem.from_binary(A, y, form="dnf")
    literals = dnf.literals
    # an empty CNF clause is constant 0: the DNF term is constant 1 ("(True)")
    rule = dnf.rule_from_weights(np.zeros((2, 1)))
    assert str(rule) == "(True)"
    assert rule.evaluate_binary(A, literals).all()
    # every clause disabled: the DNF is the empty disjunction, False
    rule = dnf.rule_from_weights(np.ones((2, 2)), w0=np.array([1.0, 1.0]))
    assert rule.n_clauses == 0
    assert not rule.evaluate_binary(A, literals).any()
    cnf = CNFProblem.from_binary(A, y, form="cnf")
    rule = cnf.rule_from_weights(np.array([[1.0, 0.0], [0.0, 1.0]]), w0=np.array([0.0, 1.0]))
    assert str(rule) == "(x0)"


def test_rule_from_model_reads_solved_models(backend):
    A, y = make_data(9)
    for form in ("cnf", "dnf"):
        problem = CNFProblem.from_binary(A, y, form=form)
        for model in (
            build_zero_one(problem.A, problem.y, 2, theta=0.2, disable_cost=0.5),
            build_hamming(problem.A, problem.y, 2, theta=0.2),
            build_clause_lp(problem.A, problem.y, theta=0.2, integer=True),
        ):
            solve(backend, model)
            rule = rule_from_model(model, problem)
            if model.model.find_component("R") is None:
                W, w0 = clause_weights(model)[:, None], None
            else:
                W, w0 = two_level_weights(model.model)
            W, w0 = np.round(W), None if w0 is None else np.round(w0)
            work = problem.predict_work(W, w0)
            got = rule.evaluate_binary(A, problem.literals)
            np.testing.assert_array_equal(got, ~work if form == "dnf" else work)


def test_rule_from_model_rejects_fractional_and_unsolved():
    A, y = make_data(10)
    problem = CNFProblem.from_binary(A, y, form="cnf")
    handle = build_zero_one(problem.A, problem.y, 2, theta=0.01, relax=True)
    model = handle.model
    with pytest.raises(ValueError, match="has no value: solve the model first"):
        rule_from_model(handle, problem)
    for var in model.w.values():
        var.set_value(0.0)
    next(iter(model.w.values())).set_value(0.5)
    with pytest.raises(ValueError, match="fractional"):
        rule_from_model(handle, problem)
    clause = build_clause_lp(problem.A, problem.y, theta=0.01, disable_cost=1.0)
    for var in clause.model.w.values():
        var.set_value(1.0)
    clause.model.w0.set_value(0.3)
    with pytest.raises(ValueError, match="fractional"):
        rule_from_model(clause, problem)
    clause.model.w0.set_value(0.0)
    assert rule_from_model(clause, problem).n_literals == A.shape[1]
    assert is_integral(np.array([0.0, 1.0, 1 - 1e-9]))
    assert not is_integral(np.array([0.0, 0.5]))


# ---------------------------------------------------------------------------
# 8. Objective breakdown and input validation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["zero_one", "hamming", "clause", "zero_one_tlp"])
def test_objective_breakdown_sums_to_the_objective(backend, which):
    case = CASES[9]
    options = {"relax": True} if which == "zero_one_tlp" else {"integer": True} if which == "clause" else {}
    model = build(which.replace("_tlp", ""), case, **options)
    objective = solve(backend, model)
    breakdown = objective_breakdown(model)
    assert set(breakdown) == {"accuracy", "sparsity", "total"}
    assert breakdown["total"] == pytest.approx(breakdown["accuracy"] + breakdown["sparsity"])
    assert breakdown["total"] == pytest.approx(objective, abs=TOL)
    assert breakdown["total"] == pytest.approx(pyo.value(model.model.objective), abs=TOL)
    if which in ("zero_one", "hamming"):
        W, w0 = (np.round(x) for x in two_level_weights(model.model))
        data = case_data(case)
        kwargs = dict(data["kwargs"])
        c0 = kwargs.pop("disable_cost")
        expected_sparsity = sparsity_cost(W, case.theta, kwargs["feature_cost"], w0, c0)
        assert breakdown["sparsity"] == pytest.approx(expected_sparsity, abs=TOL)
        objective_fn = zero_one_objective if which == "zero_one" else hamming_objective
        accuracy = objective_fn(data["A"], data["y"], W, 0.0, sample_weight=kwargs["sample_weight"], w0=w0)
        assert breakdown["accuracy"] == pytest.approx(accuracy, abs=TOL)


def test_objective_breakdown_needs_a_solution():
    A, y = make_data(1)
    with pytest.raises(ValueError, match="No value for uninitialized|has no value"):
        objective_breakdown(build_clause_lp(A, y, theta=0.01))


BUILDERS = {
    "clause_lp": lambda A, y, **kw: build_clause_lp(A, y, theta=0.01, **kw),
    "zero_one": lambda A, y, **kw: build_zero_one(A, y, 2, theta=0.01, **kw),
    "hamming": lambda A, y, **kw: build_hamming(A, y, 2, theta=0.01, **kw),
}


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_input_validation(name):
    builder = BUILDERS[name]
    A = np.array([[1, 0], [0, 1], [1, 1]])
    y = np.array([1, 0, 1])
    with pytest.raises(ValueError, match=r"A must be binary \(0/1\); found the value .*2"):
        builder(np.array([[1, 2], [0, 1], [1, 1]]), y)
    with pytest.raises(ValueError, match="A must be binary"):
        builder(sp.csr_matrix(np.array([[1.0, 0.5], [0, 1], [1, 1]])), y)
    with pytest.raises(ValueError, match="A must be a 2-D binary matrix"):
        builder(np.array([1, 0, 1]), y)
    with pytest.raises(ValueError, match="at least one sample and one feature"):
        builder(np.zeros((0, 2)), np.zeros(0))
    with pytest.raises(ValueError, match="A must hold 0/1 numbers"):
        builder(np.array([["a", "b"], ["c", "d"], ["e", "f"]], dtype=object), y)
    with pytest.raises(ValueError, match="y has 2 labels but A has 3 samples"):
        builder(A, np.array([1, 0]))
    with pytest.raises(ValueError, match="y must hold 0/1 labels"):
        builder(A, np.array([1, 2, 0]))
    with pytest.raises(ValueError, match="sample_weight must be finite and non-negative"):
        builder(A, y, sample_weight=[1.0, -0.5, 1.0])
    with pytest.raises(ValueError, match="sample_weight must be finite and non-negative"):
        builder(A, y, sample_weight=[1.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="sample_weight has 2 entries but A has 3 samples"):
        builder(A, y, sample_weight=[1.0, 1.0])
    with pytest.raises(ValueError, match="feature_cost has 3 entries but A has 2 features"):
        builder(A, y, feature_cost=[1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="feature_cost must be finite and non-negative"):
        builder(A, y, feature_cost=[1.0, -1.0])


@pytest.mark.parametrize("builder", [build_zero_one, build_hamming], ids=["zero_one", "hamming"])
@pytest.mark.parametrize("n_clauses", [0, -1, 1.5, True, "2"])
def test_n_clauses_validation(builder, n_clauses):
    A = np.array([[1, 0], [0, 1]])
    y = np.array([1, 0])
    with pytest.raises(ValueError, match="n_clauses must be an integer >= 1"):
        builder(A, y, n_clauses, theta=0.01)


def test_single_class_data_builds_and_solves():
    backend = require_backend("highs")
    A = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    for y in (np.ones(3), np.zeros(3)):
        model = build_zero_one(A, y, 1, theta=0.1)
        assert solve(backend, model) == pytest.approx(
            min(zero_one_objective(A, y, W, 0.1) for W in binary_matrices(3, 1)), abs=TOL
        )
        assert solve(backend, build_hamming(A, y, 1, theta=0.1)) == pytest.approx(
            min(hamming_objective(A, y, W, 0.1) for W in binary_matrices(3, 1)), abs=TOL
        )


@pytest.mark.parametrize("builder", ["clause", "zero_one", "hamming"])
@pytest.mark.parametrize("name, value", [("theta", -1.0), ("theta", float("nan")), ("disable_cost", -2.0)])
def test_builders_reject_negative_or_nan_theta_and_disable_cost(builder, name, value):
    from rulemodels.models import build_clause_lp, build_hamming, build_zero_one

    A = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    y = [1, 0, 1]
    kwargs = {"theta": 0.1, "disable_cost": None, name: value}
    with pytest.raises(ValueError, match=f"{name} must be a finite number >= 0"):
        if builder == "clause":
            build_clause_lp(A, y, **kwargs)
        elif builder == "zero_one":
            build_zero_one(A, y, 1, **kwargs)
        else:
            build_hamming(A, y, 1, **kwargs)


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int8, np.int64, float])
@pytest.mark.parametrize("order", ["C", "F"])
def test_dense_binary_input_becomes_the_csr_matrix_scipy_would_make(dtype, order):
    """as_binary_csr builds the CSR of a dense 0/1 matrix from the positions of its ones: scipy's matrix, exactly."""
    from rulemodels.models._data import as_binary_csr

    rng = np.random.default_rng(2)
    for shape in [(1, 1), (7, 3), (150, 23), (40, 1)]:
        A = np.asarray((rng.random(shape) < 0.4).astype(dtype), order=order)
        made = as_binary_csr(A)
        expected = sp.csr_matrix(A.astype(np.int8))
        expected.eliminate_zeros()
        expected.sort_indices()
        assert made.dtype == np.int8 and made.has_canonical_format and made.shape == shape
        for part in ("indptr", "indices", "data"):
            assert getattr(made, part).dtype == getattr(expected, part).dtype
            np.testing.assert_array_equal(getattr(made, part), getattr(expected, part))
        # negate (the DNF's De Morgan step): the CSR of 1 - A, from the dense matrix and from its CSR alike
        complement = sp.csr_matrix((1 - A.astype(np.int8)).astype(np.int8))
        complement.eliminate_zeros()
        complement.sort_indices()
        for source in (A, made):
            negated = as_binary_csr(source, negate=True)
            assert negated.dtype == np.int8 and negated.has_canonical_format
            for part in ("indptr", "indices", "data"):
                np.testing.assert_array_equal(getattr(negated, part), getattr(complement, part))
    with pytest.raises(ValueError, match=r"found the value nan"):
        as_binary_csr(np.array([[0.0, 1.0], [np.nan, 2.0]]))
    with pytest.raises(ValueError, match=r"found the value -1"):
        as_binary_csr(np.array([[0, 1], [1, -1]]))


def test_unique_rows_are_numpys_unique_rows_in_its_order() -> None:
    """unique_rows packs each row into bytes: the same first rows, inverse and pattern order as np.unique(axis=0)."""
    rng = np.random.default_rng(0)
    for trial in range(200):
        n, d = int(rng.integers(1, 120)), int(rng.integers(1, 70))
        matrix = rng.random((n, d)) < rng.random()
        if trial % 3 == 0:  # repeated rows
            matrix = matrix[rng.integers(0, max(1, n // 4), n)]
        _, first, inverse = np.unique(matrix, axis=0, return_index=True, return_inverse=True)
        got_first, got_inverse = unique_rows(matrix)
        assert np.array_equal(got_first, first) and np.array_equal(got_inverse, inverse.ravel()), trial
    first, inverse = unique_rows(np.zeros((4, 0), dtype=bool))
    assert first.tolist() == [0] and inverse.tolist() == [0, 0, 0, 0]
