"""Exact pruning: against brute force on tiny instances, by hand, through the workspace, the estimator, the protocol and the CLI."""

from __future__ import annotations

import dataclasses
import json
import logging

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
from rulemodels.algorithms.constraints import RuleConstraints
from rulemodels.algorithms.prune import prune_rule, rule_objective
from rulemodels.algorithms.training import default_binarizer
from rulemodels.cli import main
from rulemodels.rules import Clause, Literal, Rule, load_model

LITERALS = tuple(Literal(f"x{j}", "is_true") for j in range(6))
COLUMN_OF = {literal: j for j, literal in enumerate(LITERALS)}


def brute_objective(rule: Rule, A, labels, weights, theta, costs) -> float:
    """Weighted errors of ``rule.evaluate_binary`` + θ × the literals' costs, computed without the pruning code."""
    wrong = rule.evaluate_binary(A, LITERALS) != (labels == 1)
    return float(weights[wrong].sum()) + theta * sum(costs.get(lit, 1.0) for clause in rule.clauses for lit in clause.literals)


def single_removals(rule: Rule) -> list[Rule]:
    """Every rule one removal away: one whole clause, or one literal of a clause with two or more."""
    found = []
    clauses = list(rule.clauses)
    for r, clause in enumerate(clauses):
        found.append(Rule(rule.form, tuple(clauses[:r] + clauses[r + 1:])))
        if len(clause.literals) > 1:
            for k in range(len(clause.literals)):
                fewer = Clause(clause.literals[:k] + clause.literals[k + 1:])
                found.append(Rule(rule.form, tuple(clauses[:r] + [fewer] + clauses[r + 1:])))
    return found


def random_instance(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    A = rng.integers(0, 2, (n, len(LITERALS)))
    labels = rng.integers(0, 2, n)
    weights = rng.uniform(0.1, 3.0, n) if seed % 3 else np.ones(n)
    form = "dnf" if seed % 2 else "cnf"
    clauses = []
    for _ in range(int(rng.integers(1, 4))):
        size = int(rng.integers(1, 4))
        clauses.append(Clause(tuple(LITERALS[j] for j in rng.choice(len(LITERALS), size, replace=False))))
    theta = float(rng.choice([0.0, 0.05, 0.3, 1.0, 2.5]))
    costs = {} if seed % 4 else {lit: float(rng.choice([0.0, 0.5, 1.0, 3.0])) for lit in LITERALS}
    return A, labels, weights, Rule(form, tuple(clauses)), theta, costs


@pytest.mark.parametrize("seed", range(300))
def test_pruned_rule_is_a_local_optimum_by_brute_force(seed: int) -> None:
    A, labels, weights, rule, theta, costs = random_instance(seed)
    pruned, report = prune_rule(rule, A, COLUMN_OF, labels, weights, theta, literal_cost=costs)
    before = brute_objective(rule, A, labels, weights, theta, costs)
    after = brute_objective(pruned, A, labels, weights, theta, costs)
    assert report.objective_before == pytest.approx(before, abs=1e-9)
    assert report.objective == pytest.approx(after, abs=1e-9)
    assert after <= before + 1e-9
    assert report.n_literals == rule.n_literals - pruned.n_literals
    assert report.n_clauses == len(rule.clauses) - len(pruned.clauses)
    assert report.pruned == (pruned != rule)
    for clause in pruned.clauses:  # only removals: every clause of the pruned rule is a subset of one of the rule's
        assert any(set(clause.literals) <= set(original.literals) for original in rule.clauses)
    for neighbour in single_removals(pruned):  # the greedy stopped: every single removal raises the objective strictly
        assert brute_objective(neighbour, A, labels, weights, theta, costs) > after


def test_theta_zero_removes_only_what_changes_no_prediction() -> None:
    A = np.array([[1, 1, 0], [1, 0, 0], [0, 1, 1], [0, 0, 1]])
    labels = np.array([1, 1, 0, 0])
    literals = tuple(LITERALS[:3])
    rule = Rule("dnf", (Clause((literals[0], literals[1])), Clause((literals[0],))))  # the first term adds nothing
    pruned, report = prune_rule(rule, A, COLUMN_OF, labels, np.ones(4), 0.0)
    assert pruned == Rule("dnf", (Clause((literals[0],)),))
    assert report.objective == report.objective_before == 0.0


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_literal_fixing_one_row_goes_when_theta_outweighs_that_row(form: str) -> None:
    # x0 separates the classes but for one negative row, which x1 alone fixes; the rule x0 AND x1
    # (DNF), or its mirror (NOT x0) OR (NOT x1) read as a CNF over the negated columns.
    n = 20
    A = np.zeros((n, 2), dtype=int)
    A[:10, 0] = 1
    A[:, 1] = 1
    A[9, 1] = 0  # the one row x1 fixes
    labels = np.r_[np.ones(9, dtype=int), np.zeros(11, dtype=int)]
    if form == "cnf":  # a CNF of the negated columns predicting the negative class
        A, labels = 1 - A, 1 - labels
    rule = Rule(form, (Clause((LITERALS[0], LITERALS[1])),))
    weights = np.ones(n)
    kept, report = prune_rule(rule, A, COLUMN_OF, labels, weights, 0.5)
    assert kept == rule and not report.pruned and report.objective_before == pytest.approx(1.0)  # 0 errors + 2 × 0.5
    pruned, report = prune_rule(rule, A, COLUMN_OF, labels, weights, 2.0)
    assert pruned == Rule(form, (Clause((LITERALS[0],)),))
    assert (report.n_literals, report.n_clauses) == (1, 0)
    assert report.objective_before == pytest.approx(4.0) and report.objective == pytest.approx(3.0)  # 1 error + 2 × 1


def test_pruning_many_weighted_rows_matches_brute_force() -> None:
    rng = np.random.default_rng(7)
    n = 200_000
    A = rng.integers(0, 2, (n, len(LITERALS)))
    labels = ((A[:, 0] & A[:, 1]) | A[:, 2]).astype(int)
    labels[rng.random(n) < 0.1] ^= 1
    weights = rng.uniform(0.5, 1.5, n)
    rule = Rule("dnf", (Clause(LITERALS[:3]), Clause((LITERALS[2], LITERALS[4])), Clause((LITERALS[5],))))
    pruned, report = prune_rule(rule, A, COLUMN_OF, labels, weights, 500.0)
    after = brute_objective(pruned, A, labels, weights, 500.0, {})
    assert report.objective == pytest.approx(after, rel=1e-12)
    assert report.objective < report.objective_before
    assert all(brute_objective(r, A, labels, weights, 500.0, {}) > after for r in single_removals(pruned))


# -- through the workspace -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pima_workspace():
    X, y = load_dataset("pima")
    with TrainingWorkspace(X, y, binarizer=default_binarizer(thresholds="quantile")) as workspace:  # as measured
        yield workspace


def learn(workspace, **settings):
    base = {"form": "dnf", "algorithm": "am", "n_clauses": 3, "theta": 0.005 * workspace.n_samples,
            "allow_disable": False, "disable_cost": None, "max_iter": 100}
    return workspace.learn(**{**base, **settings})


@pytest.mark.parametrize(("form", "algorithm"), [("dnf", "am"), ("cnf", "am"), ("cnf", "cg"), ("dnf", "tlp")])
def test_workspace_prune_never_raises_the_objective(pima_workspace, form: str, algorithm: str, caplog) -> None:
    theta = 0.005 * pima_workspace.n_samples
    plain = learn(pima_workspace, form=form, algorithm=algorithm)
    with caplog.at_level(logging.INFO, logger="rulemodels.algorithms.training"):
        pruned = learn(pima_workspace, form=form, algorithm=algorithm, prune=True)
    assert plain.prune is None and pruned.prune is not None
    args = (pima_workspace.A, pima_workspace.literals, pima_workspace.labels, pima_workspace.sample_weight, theta)
    before = rule_objective(plain.rule, *args)
    after = rule_objective(pruned.rule, *args)
    assert pruned.prune.objective_before == pytest.approx(before)
    assert after == pytest.approx(pruned.prune.objective) and after <= before + 1e-9
    assert pruned.rule.n_literals <= plain.rule.n_literals
    assert pruned.prune.n_literals == plain.rule.n_literals - pruned.rule.n_literals
    logged = [r for r in caplog.records if r.getMessage().startswith("pruned ")]
    assert len(logged) == (1 if pruned.prune.pruned else 0)
    if pruned.prune.pruned:
        assert pruned.objective == pytest.approx(after)
        assert [list(c) for c in pruned.clause_columns] == [
            [pima_workspace.literals.index(lit) for lit in clause.literals] for clause in pruned.rule.clauses
        ]


def test_am_on_pima_prunes_something(pima_workspace) -> None:
    # measured: AM's DNF with R = 3 keeps a term that does not pay for its literals at θ = 0.5 % of the rows
    assert learn(pima_workspace, prune=True).prune.n_literals > 0


def test_pruning_keeps_the_constraints_and_honours_costs(pima_workspace) -> None:
    constraints = RuleConstraints.from_params(
        monotone={"glucose": 1, "age": 1}, forbidden_features=["insulin"], feature_costs={"bmi": 3.0, "diabetes_pedigree": 0.0},
        max_literals_per_clause=2,
    )
    theta = 0.005 * pima_workspace.n_samples
    costs = dict(zip(pima_workspace.literals, constraints.literal_costs(pima_workspace.literals), strict=True))
    for form in ("dnf", "cnf"):
        plain = learn(pima_workspace, form=form, constraints=constraints)
        pruned = learn(pima_workspace, form=form, constraints=constraints, prune=True)
        assert constraints.violations(plain.rule) == [] and constraints.violations(pruned.rule) == []
        args = (pima_workspace.A, pima_workspace.literals, pima_workspace.labels, pima_workspace.sample_weight, theta)
        before = rule_objective(plain.rule, *args, literal_cost=costs)
        assert pruned.prune.objective_before == pytest.approx(before)
        assert rule_objective(pruned.rule, *args, literal_cost=costs) <= before + 1e-9


def test_pruning_runs_after_polishing_on_the_polished_objective(pima_workspace) -> None:
    polished = learn(pima_workspace, form="cnf", n_clauses=2, polish=2.0)
    pruned = learn(pima_workspace, form="cnf", n_clauses=2, polish=2.0, prune=True)
    assert polished.polish is not None and pruned.polish is not None
    if pruned.polish.objective == pytest.approx(polished.polish.objective):  # the same polished rule (a time limit may differ)
        assert pruned.prune.objective_before == pytest.approx(polished.objective)
    assert pruned.prune.objective <= pruned.prune.objective_before + 1e-9
    assert pruned.objective == pytest.approx(pruned.prune.objective)


def test_a_model_hook_skips_pruning(pima_workspace) -> None:
    constraints = RuleConstraints.from_params(model_hook=lambda handle, info: None)
    plain = learn(pima_workspace, constraints=constraints)
    hooked = learn(pima_workspace, constraints=constraints, prune=True)
    assert hooked.prune is None and hooked.rule == plain.rule


# -- the estimator, the protocol, the command line ---------------------------------------------------------


def test_estimator_prunes_by_default_and_not_with_prune_false() -> None:
    X, y = load_dataset("pima")
    # no floor in rows: AM at θ = 0.002 keeps literals that do not pay for themselves, and pruning removes them
    pruned = BooleanRuleClassifier(algorithm="am", n_clauses=3, form="dnf", min_literal_rows=0).fit(X, y)
    plain = BooleanRuleClassifier(algorithm="am", n_clauses=3, form="dnf", min_literal_rows=0, prune=False).fit(X, y)
    assert plain.prune_report_ is None and pruned.prune_report_.pruned
    with TrainingWorkspace(X, y) as workspace:
        args = (workspace.A, workspace.literals, workspace.labels, workspace.sample_weight, pruned.paper_theta_)
        before = rule_objective(plain.raw_rule_, *args)
        after = rule_objective(pruned.raw_rule_, *args)
    assert pruned.prune_report_.objective_before == pytest.approx(before)
    assert after == pytest.approx(pruned.objective_) and after < before
    assert pruned.raw_rule_.n_literals < plain.raw_rule_.n_literals


def test_the_experiment_protocol_does_not_prune(monkeypatch) -> None:
    from rulemodels.experiments import Task, run_task

    calls = []
    original = TrainingWorkspace.learn

    def spy(self, spec):
        learned = original(self, spec)
        calls.append((spec, learned, original(self, dataclasses.replace(spec, prune=True))))
        return learned

    monkeypatch.setattr(TrainingWorkspace, "learn", spy)
    record = run_task(Task("pima", "am", 3, 3.5, fold=0, n_folds=10))
    assert record["error"] is None
    (spec, learned, pruned), = calls
    assert not spec.prune
    assert record["rule"] == learned.rule.to_json() and learned.prune is None
    assert pruned.prune.pruned and pruned.rule.to_json() != record["rule"]  # pruning would have changed this cell


def test_cli_fit_prunes_unless_no_prune(tmp_path, capsys) -> None:
    literals = {}
    for flag in ([], ["--no-prune"]):
        out = tmp_path / f"rule{len(flag)}.json"
        assert main(["fit", "pima", "--algorithm", "am", "--clauses", "3", "--form", "dnf", "--min-literal-rows", "0", *flag,
                     "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        meta = json.loads(out.read_text())["metadata"]["prune"]
        literals[bool(flag)] = load_model(out).rule.n_literals
        if flag:
            assert meta == {"enabled": False} and "prune:" not in printed
        else:
            assert meta["enabled"] and meta["n_literals"] > 0 and meta["objective"] < meta["objective_before"]
            assert "prune: removed" in printed
    assert literals[False] < literals[True]
