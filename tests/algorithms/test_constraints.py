"""Domain constraints: monotone columns, forbidden columns, costs, a literal budget and the model hook.

The property test checks the final rules of every algorithm and form against
the constraints with its own reading of them (column and operator of each
literal), not with :meth:`RuleConstraints.violations`.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
from rulemodels.algorithms import ALGORITHMS, default_binarizer, solve_exact_problem
from rulemodels.algorithms.constraints import HookInfo, RuleConstraints, literal_direction
from rulemodels.algorithms.lp_cache import LPSolutionCache
from rulemodels.algorithms.rounding import limit_literals
from rulemodels.models import CNFProblem, zero_one_objective
from rulemodels.rules import Literal
from tests.helpers import broken_constraints as broken
from tests.helpers import require_backend

PROPERTY = settings(deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
EVERY_ALGORITHM = (*ALGORITHMS, "exact")


# ---------------------------------------------------------------------------
# the mask over literals
# ---------------------------------------------------------------------------


def test_literal_directions() -> None:
    assert literal_direction(Literal("x", ">", 1.0)) == 1
    assert literal_direction(Literal("x", "is_true")) == 1
    assert literal_direction(Literal("x", "<=", 1.0)) == -1
    assert literal_direction(Literal("x", "is_false")) == -1
    assert literal_direction(Literal("x", "is_nan")) == 0
    assert literal_direction(Literal("x", "==", "a")) is None


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_the_mask_is_on_the_literals_of_the_rule_that_comes_out(form: str) -> None:
    """A DNF is learned on negated columns, but each column still stands for the same literal of the output rule."""
    literals = (Literal("x", "<=", 1.0), Literal("x", ">", 1.0), Literal("x", "is_nan"), Literal("z", ">", 0.0))
    A = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 1]])
    problem = CNFProblem.from_binary(A, [1, 0, 1], literals=literals, form=form)
    constraints = RuleConstraints.from_params(monotone={"x": 1}, forbidden_features=["z"])
    assert constraints.allowed(problem.literals).tolist() == [False, True, True, False]
    restricted = problem.restrict(constraints.allowed(problem.literals))
    assert restricted.literals == (Literal("x", ">", 1.0), Literal("x", "is_nan"))
    np.testing.assert_array_equal(restricted.A.toarray(), problem.A.toarray()[:, [1, 2]])
    W = np.array([[1.0], [1.0]])
    assert {str(lit) for clause in restricted.rule_from_weights(W).clauses for lit in clause.literals} == {"x > 1.0", "x is missing"}


def test_limit_literals_keeps_the_largest_lp_values() -> None:
    clause = np.array([1.0, 1.0, 1.0, 0.0, 1.0])
    w_lp = np.array([0.4, 0.9, 0.4, 0.0, 1.0])
    assert limit_literals(clause, w_lp, 2, 5).tolist() == [0, 1, 0, 0, 1]
    assert limit_literals(clause, w_lp, 3, 5).tolist() == [1, 1, 0, 0, 1]  # the tie 0.4 / 0.4 goes to the lower index
    assert limit_literals(clause, w_lp, 2, 4).tolist() == [1, 1, 0, 0, 1]  # the always-true feature (index 4) is no literal
    assert limit_literals(clause, w_lp, None, 5) is clause


# ---------------------------------------------------------------------------
# never violated: every algorithm, both forms
# ---------------------------------------------------------------------------

COLUMNS = ("a", "b", "c", "flag")


@st.composite
def constrained_fits(draw: st.DrawFn) -> dict:
    """Small mixed data (three numeric columns, a 0/1 flag, missing values in one) and random constraints."""
    n = draw(st.integers(24, 48), label="n")
    seed = draw(st.integers(0, 2**16), label="seed")
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({name: rng.normal(size=n).round(2) for name in COLUMNS[:3]})
    X["flag"] = rng.integers(0, 2, size=n)
    X.loc[rng.random(n) < 0.15, "c"] = np.nan
    y = (X["a"].fillna(0) + 0.5 * X["b"] - 0.7 * X["flag"] + rng.normal(scale=0.7, size=n) > 0).astype(int)
    y.iloc[:2] = [0, 1]
    forbidden = draw(st.lists(st.sampled_from(COLUMNS), max_size=2, unique=True), label="forbidden")
    free = [name for name in COLUMNS if name not in forbidden]
    monotone = draw(st.dictionaries(st.sampled_from(free), st.sampled_from([1, -1]), max_size=3), label="monotone")
    costs = draw(st.dictionaries(st.sampled_from(COLUMNS), st.sampled_from([0.0, 0.5, 3.0]), max_size=2), label="costs")
    max_literals = draw(st.sampled_from([None, 1, 2]), label="max_literals")
    allow_disable = draw(st.booleans(), label="allow_disable")
    return {
        "X": X, "y": y, "monotone": monotone, "forbidden": forbidden, "costs": costs, "max_literals": max_literals,
        "allow_disable": allow_disable,
    }


@pytest.mark.slow
@settings(PROPERTY, max_examples=12)
@given(case=constrained_fits())
def test_a_learned_rule_never_violates_its_constraints(case: dict) -> None:
    require_backend("highs")
    X, y = case["X"], case["y"]
    params = dict(
        monotone=case["monotone"] or None, forbidden_features=case["forbidden"] or None,
        feature_costs=case["costs"] or None, max_literals_per_clause=case["max_literals"],
        n_clauses=2, theta=0.02, n_thresholds=3, max_iter=10, allow_disable=case["allow_disable"],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # trivial rules are fine here
        with TrainingWorkspace(X, y, binarizer=default_binarizer(3)) as ws:
            for algorithm, form in itertools.product(EVERY_ALGORITHM, ("dnf", "cnf")):
                clf = BooleanRuleClassifier(algorithm=algorithm, form=form, **params).fit(X, y, workspace=ws)
                for rule in (clf.rule_, clf.raw_rule_):
                    assert broken(
                        rule, monotone=case["monotone"], forbidden=case["forbidden"], max_literals=case["max_literals"],
                    ) == [], f"{algorithm} {form}: {rule}"
            clf = BooleanRuleClassifier(algorithm="am", form="dnf", polish=5.0, **params).fit(X, y, workspace=ws)
            assert broken(clf.rule_, monotone=case["monotone"], forbidden=case["forbidden"], max_literals=case["max_literals"]) == []


@pytest.mark.slow
@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_budget_of_one_literal_holds_where_the_unconstrained_rule_has_more(form: str) -> None:
    require_backend("highs")
    X, y = load_dataset("pima")
    free = BooleanRuleClassifier(form=form, algorithm="tlp", n_clauses=2, theta=0.002).fit(X, y)
    assert max(len(c.literals) for c in free.raw_rule_.clauses) > 1  # else the test shows nothing
    for algorithm in ("tlp", "am", "cg"):
        clf = BooleanRuleClassifier(form=form, algorithm=algorithm, n_clauses=2, theta=0.002, max_literals_per_clause=1).fit(X, y)
        assert broken(clf.raw_rule_, max_literals=1) == [], (algorithm, clf.raw_rule_)


# ---------------------------------------------------------------------------
# a constraint the unconstrained rule already meets changes nothing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("algorithm", [pytest.param(a, marks=pytest.mark.slow) if a == "tlp" else a for a in ALGORITHMS])
def test_monotone_in_the_direction_the_rule_already_uses_changes_nothing(algorithm: str, form: str) -> None:
    require_backend("highs")
    X, y = load_dataset("pima")
    free = BooleanRuleClassifier(algorithm=algorithm, form=form, n_clauses=2, theta=0.01).fit(X, y)
    directions: dict[str, set] = {}
    for clause in free.raw_rule_.clauses:
        for literal in clause.literals:
            directions.setdefault(literal.feature, set()).add(literal_direction(literal))
    monotone = {column: signs.pop() for column, signs in directions.items() if len(signs) == 1 and signs != {0}}
    assert monotone, free.raw_rule_  # some column is used in one direction only: the test constrains it
    constrained = BooleanRuleClassifier(algorithm=algorithm, form=form, n_clauses=2, theta=0.01, monotone=monotone).fit(X, y)
    assert constrained.rule_ == free.rule_
    assert constrained.objective_ == pytest.approx(free.objective_)


def test_monotone_against_the_rule_changes_it() -> None:
    require_backend("highs")
    X, y = load_dataset("pima")
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01, monotone={"glucose": -1}).fit(X, y)
    assert broken(clf.rule_, monotone={"glucose": -1}) == []
    assert "glucose" not in str(clf.rule_)  # glucose <= t only hurts a rule for diabetes = 1


# ---------------------------------------------------------------------------
# exact: the optimum among the rules that meet the constraints
# ---------------------------------------------------------------------------


def test_exact_with_constraints_equals_brute_force() -> None:
    backend = require_backend("highs")
    rng = np.random.default_rng(3)
    A = rng.integers(0, 2, size=(14, 4))
    y = (A[:, 0] | A[:, 1]) & (1 - A[:, 3])
    y[:2] = [0, 1]
    literals = tuple(Literal(f"x{j}", "is_true") for j in range(4))
    problem = CNFProblem.from_binary(A, y, literals=literals, form="cnf")
    cost = np.array([1.0, 2.0, 1.0, 0.5])
    forbidden, max_literals, theta, R = [1], 1, 0.4, 2
    exact = solve_exact_problem(
        problem, R, theta, solver=backend, feature_cost=cost, forbidden=forbidden, max_literals=max_literals,
    )
    best = np.inf
    for bits in itertools.product([0, 1], repeat=4 * R):
        W = np.array(bits, dtype=float).reshape(4, R)
        if W[forbidden].any() or (W.sum(axis=0) > max_literals).any():
            continue
        best = min(best, zero_one_objective(problem.A, problem.y, W, theta, feature_cost=cost))
    assert exact.objective == pytest.approx(best)
    unconstrained = solve_exact_problem(problem, R, theta, solver=backend, feature_cost=cost)
    assert unconstrained.objective < best - 1e-9  # the constraints bind on this instance
    for clause in exact.rule.clauses:
        assert len(clause.literals) <= max_literals and Literal("x1", "is_true") not in clause.literals


# ---------------------------------------------------------------------------
# costs
# ---------------------------------------------------------------------------


def _two_predictors(n: int = 120) -> tuple[pd.DataFrame, np.ndarray]:
    """``good`` predicts y exactly; ``fair`` misses two rows; ``noise`` is noise."""
    rng = np.random.default_rng(0)
    good = rng.integers(0, 2, size=n)
    fair = good.copy()
    fair[:2] = 1 - fair[:2]
    return pd.DataFrame({"good": good, "fair": fair, "noise": rng.integers(0, 2, size=n)}), good


@pytest.mark.parametrize("algorithm", ["am", "bcd", "tlp", "scn", "cg", "exact"])
@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_costly_column_is_used_less_and_a_free_one_more(algorithm: str, form: str) -> None:
    require_backend("highs")
    X, y = _two_predictors()
    columns = lambda clf: {lit.feature for clause in clf.rule_.clauses for lit in clause.literals}
    settings_ = dict(algorithm=algorithm, form=form, n_clauses=1, theta=0.005)
    assert columns(BooleanRuleClassifier(**settings_).fit(X, y)) == {"good"}
    # a literal of 'good' now costs 10 x 0.6 = 6 rows, more than 'fair''s 2 errors: the rule must flip
    assert columns(BooleanRuleClassifier(feature_costs={"good": 10.0}, **settings_).fit(X, y)) == {"fair"}
    # at θ = 0.6 (72 rows per literal) no literal pays for itself (it fixes about 60 rows) ... unless it is free
    # (CG also charges every clause c_0 = CG_CLAUSE_COST literals: a free literal's clause still costs 72)
    expensive = {**settings_, "theta": 0.6, "feature_costs": {"good": 10.0}}
    assert columns(BooleanRuleClassifier(**expensive).fit(X, y)) == set()
    free = {**expensive, "feature_costs": {"fair": 0.0, "good": 10.0}}
    assert columns(BooleanRuleClassifier(**free).fit(X, y)) == (set() if algorithm == "cg" else {"fair"})


# ---------------------------------------------------------------------------
# model_hook
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_model_hook_constraint_is_honoured_by_the_exact_mip(form: str) -> None:
    require_backend("highs")
    X, y = _two_predictors(60)
    settings_ = dict(algorithm="exact", form=form, n_clauses=1, theta=0.005)
    free = BooleanRuleClassifier(**settings_).fit(X, y)
    used = [lit for clause in free.rule_.clauses for lit in clause.literals]
    assert [lit.feature for lit in used] == ["good"]
    calls = []

    def hook(handle, info: HookInfo) -> None:
        calls.append(info.kind)
        m = handle.model
        j = info.index(used[0])
        m.user_ban = pyo.Constraint(list(m.R), rule=lambda model, r: model.w[j, r] == 0)

    clf = BooleanRuleClassifier(model_hook=hook, **settings_).fit(X, y)
    assert calls == ["exact"]
    assert used[0] not in [lit for clause in clf.rule_.clauses for lit in clause.literals]
    assert clf.rule_.n_literals > 0  # it found another rule, not a constant


@pytest.mark.parametrize(("algorithm", "kinds"), [("am", ["clause_lp"]), ("scs", ["clause_lp"]), ("tlp", ["tlp"]), ("cg", ["cg_master"])])
def test_model_hook_is_called_once_per_built_model_not_per_solve(algorithm: str, kinds: list[str]) -> None:
    require_backend("highs")
    X, y = load_dataset("pima")
    calls: list[tuple[str, int, str]] = []

    def hook(handle, info: HookInfo) -> None:
        calls.append((info.kind, len(info.literals), info.form))

    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, theta=0.01, model_hook=hook).fit(X, y)
    assert [kind for kind, _, _ in calls][: len(kinds)] == kinds
    assert len([c for c in calls if c[0] == kinds[0]]) == 1
    if algorithm != "tlp":  # TLP solves its one model once
        assert clf.n_solves_ > len(calls)  # re-solves did not call it again
    assert all(n == len(clf.binarizer_.literals_) and form == "dnf" for _, n, form in calls)


def test_a_literal_budget_makes_the_engine_use_the_primal() -> None:
    require_backend("highs")
    X, y = load_dataset("pima")
    with TrainingWorkspace(X, y) as ws:
        cache = ws.lp_cache("dnf", allow_disable=False, disable_cost=None, constraints=RuleConstraints(max_literals=2))
        assert isinstance(cache, LPSolutionCache)
        assert cache.formulation("auto") == "primal"
        with pytest.raises(ValueError, match="formulation='dual' cannot hold max_literals_per_clause"):
            cache.formulation("dual")
        unconstrained = ws.lp_cache("dnf", allow_disable=False, disable_cost=None)
        assert unconstrained is not cache and unconstrained.formulation("dual") == "dual"


def test_a_rounded_rule_is_checked_against_the_hooks_constraints() -> None:
    """The heuristics' rounding knows only the built-in constraints: the hook's are checked on the result."""
    require_backend("highs")
    X, y = load_dataset("pima")
    banned = Literal("glucose", ">", 147.0)

    def hook(handle, info: HookInfo) -> None:
        if info.kind == "clause_lp":
            handle.model.no_glucose = pyo.Constraint(expr=handle.model.w[info.index(banned)] == 0)

    with TrainingWorkspace(X, y, binarizer=default_binarizer(thresholds="quantile")) as ws:  # glucose > 147.0: a decile
        cache = ws.lp_cache("dnf", allow_disable=False, disable_cost=None, constraints=RuleConstraints(model_hook=hook))
        ws.learn(form="dnf", algorithm="scs", n_clauses=1, theta=5.0, allow_disable=False, disable_cost=None, max_iter=1,
                 constraints=RuleConstraints(model_hook=hook))
        literals = ws.problem("dnf").literals
        W = np.zeros((len(literals), 2))
        W[literals.index(banned), 1] = 1.0
        assert cache.hook_violations(W) == ["no_glucose"]
        W[:, 1] = 0.0
        W[literals.index(Literal("bmi", ">", 41.5)), 0] = 1.0
        assert cache.hook_violations(W) == []
