"""One termination vocabulary: the drivers' reasons and a MIP solver's, as one str enum that reads as its word."""

from __future__ import annotations

import dataclasses
import json
import logging

import pytest

from rulemodels.algorithms import FitResult, LearnedRule, Termination
from rulemodels.rules import Rule
from solvers import TerminationCondition

#: the words FitResult.termination held before the enum (the drivers' six)
DRIVER_WORDS = ("converged", "no_improvement", "cycle", "max_iter", "time_limit", "single_pass")


#: the words the checked claims of the exact mode and polishing added (a claimed optimum the recomputation contradicts)
CLAIM_WORDS = ("unverified",)


def test_the_members_are_the_old_words():
    assert {member.value for member in Termination} == {
        *DRIVER_WORDS, *CLAIM_WORDS, *(c.value for c in TerminationCondition)
    }
    for word in DRIVER_WORDS:
        member = Termination(word)
        assert member == word and str(member) == word and f"{member}" == word and f"{member:>12}" == f"{word:>12}"
        assert json.dumps({"termination": member}) == json.dumps({"termination": word})
        assert logging.LogRecord("rulemodels", logging.INFO, "", 0, "%s", (member,), None).getMessage() == word


def test_every_solver_condition_has_its_member():
    for condition in TerminationCondition:
        assert Termination.from_solver(condition) == condition.value
    assert Termination.from_solver(TerminationCondition.time_limit) is Termination.time_limit


def test_results_hold_the_enum_whatever_they_were_given():
    fit = FitResult(W=None, objective=0.0, termination="cycle")  # type: ignore[arg-type]
    assert fit.termination is Termination.cycle and FitResult(W=None, objective=0.0).termination is Termination.single_pass
    learned = LearnedRule(rule=Rule("dnf", ()), objective=0.0, termination="optimal")  # type: ignore[arg-type]
    assert learned.termination is Termination.optimal
    with pytest.raises(ValueError, match="'finished' is not a valid Termination"):
        LearnedRule(rule=Rule("dnf", ()), objective=0.0, termination="finished")  # type: ignore[arg-type]


def test_a_drivers_result_is_frozen_and_replaced_not_mutated():
    fit = FitResult(W=None, objective=1.0, n_iter=3, termination="cycle")  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.n_solves = 4  # type: ignore[misc]
    counted = dataclasses.replace(fit, n_solves=4, solver_seconds=0.5)
    assert (counted.n_solves, counted.n_iter, counted.termination) == (4, 3, Termination.cycle) and fit.n_solves == 0
    with pytest.raises(TypeError):
        FitResult(None, 1.0, [1.0])  # type: ignore[misc]  # the run fields are keyword-only, as in LearnedRule
