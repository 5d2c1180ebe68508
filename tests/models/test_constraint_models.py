"""The domain constraints as Pyomo components: names ``pprint()`` shows, and what they hold."""

from __future__ import annotations

import io

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.models import build_clause_lp, build_hamming, build_zero_one, two_level_weights
from tests.helpers import require_backend

A = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 0], [0, 1, 0, 1]])
Y = np.array([1, 1, 1, 0, 0, 0])


def printed(model: pyo.ConcreteModel) -> str:
    out = io.StringIO()
    model.pprint(ostream=out)
    return out.getvalue()


@pytest.mark.parametrize("build", [build_zero_one, build_hamming])
def test_two_level_models_show_the_constraints_by_name(build) -> None:
    handle = build(A, Y, 2, theta=0.5, forbidden=[1, 3], max_literals=1)
    m = handle.model
    assert sorted(m.forbidden_literal.keys()) == [(1, 0), (1, 1), (3, 0), (3, 1)]
    assert sorted(m.max_literals.keys()) == [0, 1]
    text = printed(m)
    assert "forbidden_literal : w_jr = 0: feature j is forbidden" in text
    assert "max_literals : Σ_j w_jr ≤ k: at most k literals in clause r" in text
    assert "k_max : k: at most this many literals per clause" in text


@pytest.mark.parametrize("build", [build_zero_one, build_hamming])
def test_without_constraints_the_model_is_the_papers(build) -> None:
    m = build(A, Y, 2, theta=0.5).model
    assert m.find_component("forbidden_literal") is None and m.find_component("max_literals") is None


def test_the_clause_lp_shows_the_constraints_and_counts_only_literals() -> None:
    lp = build_clause_lp(A, Y, theta=0.5, forbidden=[0], max_literals=2, counted=3)
    m = lp.model
    assert list(m.forbidden_literal.keys()) == [0]
    text = printed(m)
    assert "forbidden_literal : w_j = 0" in text and "max_literals : Σ_j w_j ≤ k" in text
    # the fourth column (counted=3: the drivers' always-true feature) is not in the count
    assert {var.index() for var in pyo.expr.identify_variables(m.max_literals.body)} == {0, 1, 2}
    assert build_clause_lp(A, Y, theta=0.5).model.find_component("max_literals") is None


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="forbidden feature indices must be in 0..3"):
        build_zero_one(A, Y, 1, theta=0.5, forbidden=[4])
    with pytest.raises(ValueError, match="max_literals must be an integer >= 1"):
        build_hamming(A, Y, 1, theta=0.5, max_literals=0)


@pytest.mark.parametrize("build", [build_zero_one, build_hamming])
def test_the_solved_mip_meets_the_constraints(build) -> None:
    backend = require_backend("highs")
    free = build(A, Y, 2, theta=0.1)
    backend.solve(free.model)
    W_free, _ = two_level_weights(free.model)
    used = int(np.argmax(W_free.sum(axis=1)))
    assert W_free.sum(axis=0).max() >= 2  # the free optimum has a clause of two literals and uses feature `used`
    handle = build(A, Y, 2, theta=0.1, forbidden=[used], max_literals=1)
    backend.solve(handle.model)
    W, _ = two_level_weights(handle.model)
    W = np.round(W)
    assert W[used].sum() == 0
    assert W.sum(axis=0).max() <= 1
