"""HiGHS, GLPK and CBC learn the same rule (docs/solvers.md).

Two causes made them differ, each covered here: degenerate clause LPs with
several optimal vertices (fixed by the tie-break costs ε_j of the clause LP)
and solver noise in the last digits of the same vertex, which reordered the
redundancy-aware rounding (fixed by snapping w before rounding).
"""

from __future__ import annotations

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, simple_binarize, snap
from rulemodels.defaults import DEFAULT_TIE_BREAK, SOLVER_INDEPENDENT_TIE_BREAK
from rulemodels.models import build_clause_dual_lp, build_clause_lp, tie_break_costs
from solvers import get_backend

SOLVERS = ("highs", "glpk", "cbc")


def _tied_instance(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """12 rows, 4 random features and three copies (columns 4, 6 copy 0; column 5 copies 1): every optimum has twins."""
    rng = np.random.default_rng(seed)
    B = (rng.random((12, 4)) < 0.5).astype(int)
    A = np.hstack([B, B[:, [0, 1]], B[:, [0]]])
    y = (B[:, 0] | B[:, 1]).astype(int)
    y[rng.integers(0, 12, 2)] ^= 1
    return A, y


def _solve(A: np.ndarray, y: np.ndarray, solver: str, scale: float, dual: bool = False) -> np.ndarray:
    build = build_clause_dual_lp if dual else build_clause_lp
    lp = build(A, y, theta=0.5, tie_break=tie_break_costs(A.shape[1], scale))
    result = get_backend(solver).solve(lp.model)
    result.raise_for_status("the tied clause LP")
    return snap(lp.weights() if dual else result.values(lp.w_vars))


def test_tied_clause_lps_have_several_optimal_vertices_that_the_solvers_pick_differently():
    """Without the tie-break the three solvers return different optimal w on most of these LPs (same objective)."""
    disagreements = 0
    for seed in range(10):
        A, y = _tied_instance(seed)
        found = {tuple(_solve(A, y, solver, 0.0)) for solver in SOLVERS}
        disagreements += len(found) > 1
    assert disagreements >= 3  # 9 of 10 with the HiGHS, GLPK 5.0 and CBC 2.10.8 installed here


@pytest.mark.parametrize("dual", [False, True], ids=["primal", "dual"])
@pytest.mark.parametrize("seed", range(10))
def test_with_the_tie_break_every_solver_returns_the_same_vertex_with_the_lowest_copies(seed, dual):
    A, y = _tied_instance(seed)
    found = [_solve(A, y, solver, SOLVER_INDEPENDENT_TIE_BREAK, dual) for solver in SOLVERS]
    for other in found[1:]:
        np.testing.assert_array_equal(found[0], other)
    w = found[0]
    assert w[4] == 0 and w[6] == 0 and w[5] == 0  # the copies cost more than the originals 0 and 1
    # the tie-break only chooses among optima: w is optimal for the LP without it (eq. (2.1), unit weights, θ = 0.5)
    plain = build_clause_lp(A, y, theta=0.5)
    get_backend("highs").solve(plain.model)
    sums = A @ w
    objective = np.maximum(0.0, 1.0 - sums[y == 1]).sum() + sums[y == 0].sum() + 0.5 * w.sum()
    assert objective == pytest.approx(float(plain.model.objective()), abs=1e-9)


def test_the_tie_break_is_in_the_models_params_and_printed():
    A, y = _tied_instance(0)
    lp = build_clause_lp(A, y, theta=0.5, tie_break=tie_break_costs(A.shape[1], 1e-3))
    assert [lp.model.epsilon[j].value for j in lp.model.J] == pytest.approx([1e-3 * (j + 1) / 7 for j in range(7)])
    changes = lp.parameter_changes()["objective"][1]
    np.testing.assert_allclose(changes[-7:], [float(lp.model.neg_cost[j].value) + 0.5 + 1e-3 * (j + 1) / 7 for j in range(7)])
    lp.set_tie_break(np.zeros(7))
    assert lp.parameter_changes()["objective"][1][-7:] == pytest.approx([float(lp.model.neg_cost[j].value) + 0.5 for j in range(7)])


def test_tie_break_costs_are_increasing_small_and_zero_when_off():
    eps = tie_break_costs(300, 1e-3)
    assert eps[0] > 0 and np.all(np.diff(eps) > 0) and eps[-1] == pytest.approx(1e-3)
    assert np.min(np.diff(eps)) > 1e-7  # above the solvers' optimality tolerances
    assert not tie_break_costs(5, 0.0).any()
    with pytest.raises(ValueError, match="tie_break"):
        tie_break_costs(5, -1.0)


def test_solver_noise_does_not_change_the_rounding():
    """GLPK returned 0.2 as 0.2000000000001: the simple threshold kept it (the solver-independent mode snaps it)."""
    noisy = np.array([0.2 + 1e-12, 0.2 - 1e-12, 1 - 1e-12])
    assert simple_binarize(noisy, 0.2, snap_noise=True).tolist() == [0.0, 0.0, 1.0]
    assert simple_binarize(noisy, 0.2).tolist() == [1.0, 0.0, 1.0]  # the default rounds the values as given
    A = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]])
    binarizer = RedundancyAwareBinarizer(A, ["a", "a", "b", "b"])
    w = np.array([0.5, 0.5, 0.5, 0.5])

    def cost(current, columns, options):
        return np.zeros(options.shape[1])  # every candidate ties: order and l1 distance decide

    plain = binarizer.binarize(w, cost, snap_noise=True)
    for noise in ([1e-12, 0, 0, 0], [0, 0, 1e-12, -1e-12], [-1e-13, 1e-13, 0, 1e-12]):
        np.testing.assert_array_equal(binarizer.binarize(w + np.array(noise), cost, snap_noise=True), plain)


@pytest.mark.parametrize(
    ("dataset", "n_clauses", "theta"),
    [
        ("liver", 2, 0.5),  # differed by a tied LP vertex (CBC)
        ("sonar", 1, 0.5),  # differed by solver noise in one LP solution (GLPK, CBC)
    ],
)
def test_highs_glpk_and_cbc_learn_the_same_am_rule_on_bundled_data(dataset, n_clauses, theta):
    X, y = load_dataset(dataset)
    rules = {}
    for solver in SOLVERS:
        model = BooleanRuleClassifier(algorithm="am", n_clauses=n_clauses, theta=theta, theta_unit="sample", solver=solver)
        with TrainingWorkspace(X, y, solver=solver, tie_break=SOLVER_INDEPENDENT_TIE_BREAK) as workspace:
            rules[solver] = (str(model.fit(X, y, workspace=workspace).rule_), model.objective_)
    assert rules["glpk"] == rules["highs"]
    assert rules["cbc"] == rules["highs"]


def test_a_workspace_can_pose_the_lps_without_the_tie_break():
    X, y = load_dataset("liver")
    with TrainingWorkspace(X, y) as workspace:  # the default: the LPs as the paper poses them
        cache = workspace.lp_cache("dnf", allow_disable=False, disable_cost=None)
        assert DEFAULT_TIE_BREAK == 0.0 and not cache.data.tie_break.any()
    with TrainingWorkspace(X, y, tie_break=SOLVER_INDEPENDENT_TIE_BREAK) as workspace:
        cache = workspace.lp_cache("dnf", allow_disable=False, disable_cost=None)
        assert cache.data.tie_break[-1] == pytest.approx(SOLVER_INDEPENDENT_TIE_BREAK)
