"""One fit recipe: :class:`FitSpec`, built once per fit, the one path from a recipe to a rule, and the
fitted state reset in one place."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
from rulemodels.algorithms import FitSpec, RuleConstraints
from rulemodels.experiments import Task
from rulemodels.experiments.cells import run_task
from rulemodels.utils import literal_floor


def _small(n: int = 80, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.integers(0, 4, size=n)})
    y = ((X["a"] > 0.2) | (X["b"] > 1.0)).to_numpy().astype(int)
    return X, y


def test_a_fit_spec_is_frozen_and_normalised() -> None:
    spec = FitSpec(form="dnf", algorithm="cg", n_clauses=2, theta=3.0, disable_cost=0.5, constraints=RuleConstraints())
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.theta = 1.0  # type: ignore[misc]
    assert spec.disable_cost is None and spec.constraints is None  # unused without allow_disable; sets nothing
    kept = FitSpec(form="dnf", algorithm="cg", n_clauses=2, theta=3.0, allow_disable=True, disable_cost=0.5)
    assert kept.disable_cost == 0.5


def test_the_estimator_and_a_sweep_task_build_equal_recipes_for_equal_parameters() -> None:
    settings = dict(form="cnf", algorithm="am", n_clauses=3, max_iter=50, time_limit=30.0, polish=5.0)
    constraints = {"monotone": {"glucose": 1}, "forbidden_features": ["age"]}
    estimator = BooleanRuleClassifier(theta=2.0, theta_unit="sample", min_literal_rows=0, prune=False, **settings,
                                      **constraints)
    task = Task("pima", algorithm="am", n_clauses=3, theta=2.0, fold=0, n_folds=5, form="cnf", max_iter=50,
                time_limit=30.0, polish=5.0, constraints=constraints)
    assert estimator._fit_spec() == task.fit_spec()
    assert task.fit_spec().constraints == RuleConstraints.from_params(monotone={"glucose": 1}, forbidden_features=["age"])
    assert estimator.set_params(max_iter=49)._fit_spec() != task.fit_spec()  # any parameter of the recipe counts
    assert BooleanRuleClassifier(algorithm="exact", polish=True)._fit_spec().polish is None  # the MIP is not polished
    assert BooleanRuleClassifier(polish=True)._fit_spec().polish == 10.0


def test_a_fit_builds_its_recipe_once_and_learns_through_the_workspace(monkeypatch) -> None:
    built, given = [], []
    make, learn = BooleanRuleClassifier._fit_spec, TrainingWorkspace.learn

    def counting(self):
        built.append(make(self))
        return built[-1]

    def spying(self, spec=None, /, **settings):
        given.append(spec)
        return learn(self, spec, **settings)

    monkeypatch.setattr(BooleanRuleClassifier, "_fit_spec", counting)
    monkeypatch.setattr(TrainingWorkspace, "learn", spying)
    X, y = _small()
    BooleanRuleClassifier(theta=0.05).fit(X, y)
    assert len(built) == 1 and len(given) == 1
    assert given[0] == dataclasses.replace(built[0], form="dnf")  # the recipe itself, passed down

    given.clear()
    task = Task("liver", "scs", 1, 2.0, fold=0, n_folds=3, max_iter=5)
    record = run_task(task)
    assert record["error"] is None and given == [task.fit_spec()]  # the experiments take the estimator's path


def test_the_estimator_learns_what_its_recipe_learns_on_a_workspace() -> None:
    X, y = load_dataset("liver")
    estimator = BooleanRuleClassifier(algorithm="scs", n_clauses=2, theta=0.02, prune=False, simplify=False).fit(X, y)
    with TrainingWorkspace(X, y) as workspace:
        learned = workspace.learn(estimator._fit_spec())
        keywords = workspace.learn(
            form="dnf", algorithm="scs", n_clauses=2, theta=estimator.paper_theta_, allow_disable=False, disable_cost=None,
            max_iter=estimator.max_iter,
        )
        with pytest.raises(TypeError, match="either as a FitSpec or as keywords"):
            workspace.learn(estimator._fit_spec(), theta=1.0)
    assert learned.rule == keywords.rule == estimator.raw_rule_


def test_constraints_are_checked_against_the_columns_on_the_workspace() -> None:
    X, y = _small()
    spec = FitSpec.from_params({"form": "dnf", "algorithm": "cg", "n_clauses": 1, "theta": 1.0, "forbidden_features": ["zz"]})
    with TrainingWorkspace(X, y) as workspace, pytest.raises(ValueError, match="'zz'"):
        workspace.learn(spec)
    with pytest.raises(ValueError, match="'zz'"):
        BooleanRuleClassifier(forbidden_features=["zz"]).fit(X, y)
    record = run_task(Task("liver", "scs", 1, 2.0, fold=0, n_folds=3, constraints={"forbidden_features": ["zz"]}))
    assert "'zz'" in record["error"]


def test_a_path_refuses_settings_it_cannot_honour() -> None:
    X, y = _small()
    spec = FitSpec(form="dnf", algorithm="cg", n_clauses=1, theta=1.0, time_limit=5.0)
    with TrainingWorkspace(X, y) as workspace, pytest.raises(ValueError, match="no time limit"):
        workspace.learn_path(spec, thetas=[2.0, 1.0], n_clauses=[1])


def _fitted_names(estimator: BooleanRuleClassifier) -> set[str]:
    return {name for name in vars(estimator) if name.endswith("_") or name in ("_baseline", "_bucket_classes")}


def test_a_refit_with_other_parameters_leaves_no_stale_attribute(tmp_path) -> None:
    """After each refit the fitted attributes are exactly those of a fresh fit with the same parameters and data."""
    X, y = _small(60)
    three = np.where(X["c"].to_numpy() == 0, 2, y)  # three classes: a rule list
    pytest.importorskip("pyarrow")
    path = tmp_path / "rows.parquet"
    X.assign(label=y).to_parquet(path)
    fits = [
        ({"form": "auto", "cv": 2}, (X, y)),
        ({"algorithm": "exact", "n_clauses": 1}, (X.iloc[:30], y[:30])),
        ({"polish": 1.0}, (X, y)),
        ({}, (X, three)),
        ({}, (str(path), "label")),
        ({"algorithm": "scs"}, (X, y)),
    ]
    base = {"theta": 0.05, "n_clauses": 1}
    estimator = BooleanRuleClassifier(**base)
    seen = set()
    for params, data in fits:
        settings = {**base, **params}
        estimator.set_params(**{**BooleanRuleClassifier().get_params(), **settings}).fit(*data)
        fresh = BooleanRuleClassifier(**settings).fit(*data)
        assert _fitted_names(estimator) == _fitted_names(fresh), params
        seen |= _fitted_names(fresh)
    assert {"form_cv_errors_", "exact_bound_", "polish_report_", "steps_", "n_samples_seen_", "_bucket_classes"} <= seen


def test_theta_is_converted_once_per_fit_and_read_back_as_paper_theta(monkeypatch) -> None:
    import rulemodels.algorithms.training as training

    X, y = _small()
    weights = np.linspace(0.5, 2.0, len(y))
    calls = []
    convert = training.paper_theta

    def spy(*args, **kwargs):
        calls.append(args)
        return convert(*args, **kwargs)

    monkeypatch.setattr(training, "paper_theta", spy)
    model = BooleanRuleClassifier(algorithm="scs", n_clauses=1, theta=0.01).fit(X, y, sample_weight=weights)
    assert len(calls) == 1  # by TrainingWorkspace.learn; the estimator reads the result's θ
    with TrainingWorkspace(X, y, weights) as workspace:
        learned = workspace.learn(model._fit_spec())
    floor = literal_floor(len(y))  # ½ ln 80 rows of mean weight: above θ · W = 0.8 here, so the floor holds
    assert convert(0.01, workspace.sample_weight, "fraction") < floor
    expected = convert(0.01, workspace.sample_weight, "fraction", min_rows=floor, n_rows=len(y))
    assert model.paper_theta_ == learned.theta == pytest.approx(expected) == pytest.approx(floor * workspace.sample_weight.mean())
    unfloored = BooleanRuleClassifier(algorithm="scs", n_clauses=1, theta=0.01, min_literal_rows=0).fit(X, y, sample_weight=weights)
    assert unfloored.paper_theta_ == convert(0.01, workspace.sample_weight, "fraction")
