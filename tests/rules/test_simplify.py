"""Rule simplification (merges across clauses since 2026-11-27) and set literals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulemodels.rules import Literal as L
from rulemodels.rules import Rule, RuleFormatError, prefer_equality, simplify_rule
from tests.helpers import EXPORTS

# -- examples ------------------------------------------------------------------


def test_implied_thresholds_merge_into_an_interval() -> None:
    rule = Rule.dnf([[L("x", ">", 5), L("x", ">", 3), L("x", "<=", 7), L("x", "<=", 9)]])
    simplified, report = simplify_rule(rule)
    assert simplified.clauses[0].literals == (L("x", ">", 5), L("x", "<=", 7))
    assert str(simplified) == "(5.0 < x <= 7.0)"
    assert (report.n_literals_before, report.n_literals_after) == (4, 2)
    assert "became" in report.rewritten_clauses[0]


def test_contradictory_terms_are_dropped_from_a_dnf() -> None:
    dead_threshold = [L("bmi", "<=", 23.6), L("bmi", ">", 41.5)]
    dead_category = [L("purpose", "==", "A41"), L("purpose", "==", "A49")]
    dead_flag = [L("f2", "is_true"), L("f2", "is_false")]
    dead_nan = [L("bmi", "is_nan"), L("bmi", ">", 20.0)]
    rule = Rule.dnf([dead_threshold, dead_threshold, [L("f0", "is_true")], dead_category, dead_flag, dead_nan])
    simplified, report = simplify_rule(rule)
    assert str(simplified) == "(f0)"
    assert sum("never true" in line for line in report.removed_clauses) == 5


def test_always_true_clauses_are_dropped_from_a_cnf() -> None:
    tautology = [L("x", "<=", 3), L("x", ">", 2), L("x", "is_nan")]
    category = [L("c", "==", "a"), L("c", "!=", "a"), L("c", "is_nan")]
    rule = Rule.cnf([tautology, [L("y", ">", 1)], category])
    simplified, _ = simplify_rule(rule)
    assert simplified == Rule.cnf([[L("y", ">", 1)]])
    # without the missing-value literal the clause is false on missing x: kept, as 'x is not missing'
    kept, _ = simplify_rule(Rule.cnf([[L("x", "<=", 3), L("x", ">", 2)]]))
    assert kept == Rule.cnf([[L("x", "not_nan")]])


def test_duplicate_and_subsumed_clauses_are_dropped() -> None:
    a, b = L("m", "==", "hi"), L("age", ">", 30)
    dnf, report = simplify_rule(Rule.dnf([[a], [a], [a, b], [b]]))
    assert dnf == Rule.dnf([[a], [b]])
    assert any("the same as term 1" in line for line in report.removed_clauses)
    assert any("covered by" in line for line in report.removed_clauses)
    # a later, more general term removes an earlier, more specific one
    assert simplify_rule(Rule.dnf([[a, b], [a]]))[0] == Rule.dnf([[a]])
    # CNF: (a OR b) is implied by (a)
    assert simplify_rule(Rule.cnf([[a, b], [a]]))[0] == Rule.cnf([[a]])


def test_category_literals_become_set_literals() -> None:
    rule = Rule.dnf([[L("purpose", "!=", "A40"), L("purpose", "!=", "A41"), L("purpose", "!=", "A43")]])
    simplified, _ = simplify_rule(rule)
    assert str(simplified) == "(purpose not in {A40, A41, A43})"
    assert simplified.n_literals == 1 and rule.n_literals == 3
    cnf, _ = simplify_rule(Rule.cnf([[L("purpose", "==", "A49"), L("purpose", "==", "A41")]]))
    assert str(cnf) == "(purpose in {A41, A49})"
    implied, _ = simplify_rule(Rule.dnf([[L("purpose", "==", "A41"), L("purpose", "!=", "A40")]]))
    assert str(implied) == "(purpose == A41)"


def test_nothing_to_simplify_keeps_the_rule() -> None:
    rule = Rule.dnf([[L("glucose", ">", 142.0), L("bmi", ">", 29.5)], [L("age", ">", 54.0)]])
    simplified, report = simplify_rule(rule)
    assert simplified == rule and not report.changed and str(report) == "nothing to simplify"


def test_a_column_that_mixes_kinds_is_kept_as_it_is() -> None:
    rule = Rule.dnf([[L("f", "is_true"), L("f", "<=", 0.5)], [L("f", "is_true"), L("f", "<=", 0.5), L("g", "is_true")]])
    simplified, _ = simplify_rule(rule)
    assert simplified == Rule.dnf([[L("f", "is_true"), L("f", "<=", 0.5)]])


# -- merges across clauses (2026-11-27) ------------------------------------------


def test_adjacent_and_overlapping_intervals_of_two_terms_merge() -> None:
    rule = Rule.dnf([[L("a", ">", 0.526), L("a", "<=", 1.32)], [L("a", ">", 1.32)]])
    simplified, report = simplify_rule(rule)
    assert str(simplified) == "(a > 0.526)"
    assert "merged with term 2" in str(report)
    overlapping = Rule.dnf([[L("a", ">", 1.0), L("a", "<=", 3.0)], [L("a", ">", 2.0), L("a", "<=", 5.0)]])
    assert str(simplify_rule(overlapping)[0]) == "(1.0 < a <= 5.0)"
    # the rest of the merged term must imply the rest of the other: b AND the union, next to (a > 1.32)
    shared = Rule.dnf([[L("a", ">", 0.526), L("a", "<=", 1.32), L("b", "is_true")], [L("a", ">", 1.32)]])
    assert str(simplify_rule(shared)[0]) == "(a > 0.526 AND b) OR (a > 1.32)"
    # the union of two terms that do not share the rest is no term: kept
    apart = Rule.dnf([[L("a", ">", 0.526), L("a", "<=", 1.32), L("b", "is_true")], [L("a", ">", 1.32), L("c", "is_true")]])
    assert simplify_rule(apart)[0] == apart
    # a gap between the intervals: nothing to merge
    gap = Rule.dnf([[L("a", "<=", 0.5)], [L("a", ">", 1.32)]])
    assert simplify_rule(gap)[0] == gap


def test_a_clause_keeps_only_what_its_single_column_clauses_allow() -> None:
    rule = Rule.cnf([[L("u", "<=", 0.295), L("u", ">", 0.48)], [L("u", ">", 0.295)]])
    simplified, report = simplify_rule(rule)
    assert str(simplified) == "(u > 0.48)"
    assert "intersected with clause 2" in str(report)
    # a literal that another clause makes never true is dropped from its clause
    assert str(simplify_rule(Rule.cnf([[L("x", "<=", 1.0), L("b", "is_true")], [L("x", ">", 3.0)]]))[0]) == "(b) AND (x > 3.0)"
    # clauses that no row satisfies together: the rule is False
    never = Rule.cnf([[L("u", "<=", 1.0)], [L("u", ">", 1.0)], [L("b", "is_true")]])
    assert str(simplify_rule(never)[0]) == "(False)"


def test_merges_are_exact_on_missing_values() -> None:
    X = pd.DataFrame({"x": [0.0, 2.0, np.nan, 2.0], "b": [1.0, 1.0, 1.0, 0.0]})
    # (x <= 1 AND b) OR (x > 1 AND b) is false where x is missing: not b, but 'x is not missing AND b'
    dnf = Rule.dnf([[L("x", "<=", 1.0), L("b", "is_true")], [L("x", ">", 1.0), L("b", "is_true")]])
    simplified, _ = simplify_rule(dnf)
    assert str(simplified) == "(x is not missing AND b)"
    assert simplified.evaluate(X).tolist() == dnf.evaluate(X).tolist() == [True, True, False, False]
    # a missing-value cell of one term does not join an interval of another term
    with_missing = Rule.dnf([[L("x", "is_nan")], [L("x", ">", 1.0)]])
    assert simplify_rule(with_missing)[0] == with_missing
    # CNF: (x <= 1 OR x is missing) AND (x > 0.5 OR x is missing) keeps the missing rows
    cnf = Rule.cnf([[L("x", "<=", 1.0), L("x", "is_nan")], [L("x", "is_nan"), L("x", ">", 0.5)]])
    simplified, _ = simplify_rule(cnf)
    X2 = pd.DataFrame({"x": [0.0, 0.7, 2.0, np.nan]})
    assert simplified.evaluate(X2).tolist() == cnf.evaluate(X2).tolist() == [False, True, False, True]


def test_not_missing_without_an_indicator_column_evaluates_on_the_binary_matrix() -> None:
    from rulemodels.data import FeatureBinarizer

    X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "c": ["a", "b", "a", "b", "c", "a"]})
    binarizer = FeatureBinarizer(nan="indicator").fit(X)  # no missing value in training: no 'is missing' column
    assert not any(lit.op in ("is_nan", "not_nan") for lit in binarizer.literals_)
    X_new = pd.DataFrame({"x": [0.0, np.nan, 2.0, 3.0], "c": ["a", "b", None, "zz"]})
    A = binarizer.transform(X_new)
    for rule in (Rule.dnf([[L("x", "not_nan")]]), Rule.dnf([[L("x", "is_nan")]]),
                 Rule.cnf([[L("c", "not_nan")], [L("x", "not_nan"), L("c", "is_nan")]])):
        assert rule.evaluate_binary(A, binarizer.literals_).tolist() == rule.evaluate(X_new).tolist()


def test_a_two_valued_column_reads_as_an_equality() -> None:
    literals = [L("x", "==", "no"), L("x", "==", "yes"), L("x", "!=", "no"), L("x", "!=", "yes"), L("x", "is_nan"),
                L("z", "<=", 1.0), L("t", "==", "a"), L("t", "==", "b"), L("t", "==", "c"), L("t", "!=", "a")]
    rule = Rule.dnf([[L("x", "!=", "no"), L("z", "<=", 1.0)], [L("x", "!=", "yes"), L("t", "!=", "a")]])
    canonical, changes = prefer_equality(rule, literals)
    assert str(canonical) == "(x == yes AND z <= 1.0) OR (x == no AND t != a)"  # t has three categories: kept
    assert len(changes) == 2 and "x != no became x == yes" in changes[0]
    # the same on the training values and on missing values; a category unseen in training is what differs
    X = pd.DataFrame({"x": pd.Series(["yes", "no", None, "yes", "maybe"], dtype=object), "z": [0.0] * 5,
                      "t": ["b", "b", "b", "a", "b"]})
    assert canonical.evaluate(X)[:4].tolist() == rule.evaluate(X)[:4].tolist()
    assert prefer_equality(canonical, literals) == (canonical, ())


def test_the_estimator_writes_a_two_valued_column_the_same_way_whichever_literal_it_learned() -> None:
    from rulemodels import BooleanRuleClassifier

    rng = np.random.default_rng(0)
    x, z = rng.choice(["no", "yes"], 200), rng.normal(size=200)
    X, y = pd.DataFrame({"x": x, "z": z}), ((x == "yes") | (z > 1)).astype(int)
    fitted = BooleanRuleClassifier(form="dnf", algorithm="bcd", n_clauses=2).fit(X, y)
    assert "x != no" in str(fitted.raw_rule_)  # the learner's pick among two equal columns
    assert str(fitted.rule_) == "(x == yes) OR (z > 1.0)"
    assert "x != no became x == yes" in str(fitted.simplification_)
    assert fitted.rule_.evaluate(X).tolist() == fitted.raw_rule_.evaluate(X).tolist()


def test_predict_warns_of_a_category_unseen_in_training_in_a_column_read_as_an_equality() -> None:
    import warnings

    from rulemodels import BooleanRuleClassifier, UnseenCategoryWarning

    rng = np.random.default_rng(0)
    x, z = rng.choice(["no", "yes"], 200), rng.normal(size=200)
    X, y = pd.DataFrame({"x": x, "z": z}), ((x == "yes") | (z > 1)).astype(int)
    fitted = BooleanRuleClassifier(form="dnf", algorithm="bcd", n_clauses=2).fit(X, y)
    assert "x != no" in str(fitted.raw_rule_) and str(fitted.rule_) == "(x == yes) OR (z > 1.0)"
    new = pd.DataFrame({"x": ["maybe", "yes", None, "no", "maybe"], "z": [0.0] * 5})
    with pytest.warns(UnseenCategoryWarning, match=r"column 'x': 2 row\(s\) hold a category not seen in training \('maybe'\)") as caught:
        predicted = fitted.predict(new)
    assert len([w for w in caught if w.category is UnseenCategoryWarning]) == 1  # once per column and call
    assert "x == 'yes'" in str(caught[0].message) and "x != 'no'" in str(caught[0].message)
    # the rewrite stays: the new category makes x == yes false, where the learned x != no was true
    assert predicted.tolist() == [0, 1, 0, 0, 0]
    assert fitted.raw_rule_.evaluate(new).tolist() == [True, True, False, False, True]
    for method in (fitted.predict_proba, fitted.explain):
        with pytest.warns(UnseenCategoryWarning, match="column 'x'"):
            method(new)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnseenCategoryWarning)
        fitted.predict(new.iloc[1:4])  # the categories seen in training and a missing value: no warning
        BooleanRuleClassifier(form="dnf", algorithm="bcd", n_clauses=2, simplify=False).fit(X, y).predict(new)


# -- set literals ----------------------------------------------------------------


def test_set_literals_evaluate_with_missing_and_unseen_values() -> None:
    X = pd.DataFrame({"p": ["A41", "A49", "A40", None, "new"]})
    assert L("p", "in", ["A49", "A41"]).evaluate(X).tolist() == [True, True, False, False, False]
    assert L("p", "not_in", ["A49", "A41"]).evaluate(X).tolist() == [False, False, True, False, True]
    assert L("p", "in", ["A41", "A49"]).negate() == L("p", "not_in", ("A49", "A41"))


def test_set_literals_round_trip_through_json_as_version_2() -> None:
    rule = Rule.dnf([[L("p", "in", ["A41", "A49"]), L("x", ">", 1.5)]])
    data = rule.to_dict()
    assert data["version"] == 2 and data["clauses"][0][0]["value"] == ["A41", "A49"]
    assert Rule.from_json(rule.to_json()) == rule
    assert Rule.dnf([[L("x", ">", 1.5)]]).to_dict()["version"] == 1  # no set literal: readable by older releases
    with pytest.raises(RuleFormatError, match=r"clauses\[0\]\[0\].value: op 'in' needs a list"):
        Rule.from_dict({"format": "rulemodels.rule", "version": 2, "form": "dnf",
                        "clauses": [[{"feature": "p", "op": "in", "value": "A41"}]]})


def test_set_literals_are_rejected_when_empty_or_not_a_collection() -> None:
    with pytest.raises(ValueError, match="at least one category"):
        L("p", "in", [])
    with pytest.raises(TypeError, match="collection of categories"):
        L("p", "in", "A41")


def test_set_literals_evaluate_on_binarized_data() -> None:
    from rulemodels.data import FeatureBinarizer

    X = pd.DataFrame({"p": ["a", "b", "c", None, "a"], "x": [1.0, 2.0, 3.0, 4.0, np.nan]})
    binarizer = FeatureBinarizer(nan="indicator").fit(X)
    X_new = pd.DataFrame({"p": ["a", "b", "zzz", None, "c"], "x": [1.0, np.nan, 3.0, 4.0, 2.0]})
    rule = Rule.cnf([[L("p", "in", ["a", "c"]), L("x", ">", 3.0)], [L("p", "not_in", ["b"])]])
    raw = rule.evaluate(X_new)
    binary = rule.evaluate_binary(binarizer.transform(X_new), binarizer.literals_)
    assert raw.tolist() == binary.tolist()


def test_threshold_text_is_short_but_the_value_exact() -> None:
    noisy = 20.200000000000003
    assert str(L("x", "<=", noisy)) == "x <= 20.2"
    assert L("x", "<=", noisy).value == noisy
    big = 123456789012.0 + 0.2495
    assert str(L("t", ">", big)) == "t > 123456789012.249"  # 15 significant digits
    assert str(L("t", ">", big)) != str(L("t", ">", big + 0.001))


# -- the property: simplification never changes a prediction --------------------

THRESHOLDS = (-1.0, 0.0, 0.5, 2.0, 3.0)
CATEGORIES = ("a", "b", "c", 1)


def _literals() -> st.SearchStrategy[L]:
    threshold = st.builds(L, st.just("x"), st.sampled_from(("<=", ">")), st.sampled_from(THRESHOLDS))
    category = st.builds(L, st.just("c"), st.sampled_from(("==", "!=")), st.sampled_from(CATEGORIES))
    category_set = st.builds(L, st.just("c"), st.sampled_from(("in", "not_in")),
                             st.lists(st.sampled_from(CATEGORIES), min_size=1, max_size=3))
    flag = st.builds(L, st.just("f"), st.sampled_from(("is_true", "is_false")))
    mixed = st.builds(L, st.just("f"), st.sampled_from(("<=", ">")), st.sampled_from((0.0, 0.5)))  # f: flag and threshold
    missing = st.builds(L, st.sampled_from(("x", "c", "f")), st.sampled_from(("is_nan", "not_nan")))
    return st.one_of(threshold, category, category_set, flag, mixed, missing)


def _rules() -> st.SearchStrategy[Rule]:
    clauses = st.lists(st.lists(_literals(), min_size=0, max_size=5), min_size=0, max_size=5)
    return st.builds(Rule, st.sampled_from(("cnf", "dnf")), clauses)


def _frames() -> st.SearchStrategy[pd.DataFrame]:
    x = st.sampled_from((-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 4.0, math.inf, -math.inf, math.nan))
    c = st.sampled_from(("a", "b", "c", "unseen", 1, None))
    f = st.sampled_from((0.0, 1.0, 0.5, 2.0, math.nan))
    row = st.tuples(x, c, f)
    return st.lists(row, min_size=1, max_size=25).map(
        lambda rows: pd.DataFrame({"x": [r[0] for r in rows], "c": pd.Series([r[1] for r in rows], dtype=object),
                                   "f": [r[2] for r in rows]})
    )


def _simplified_exactly(rule: Rule, X: pd.DataFrame) -> Rule:
    """``simplify_rule(rule)``, checked to predict exactly as ``rule`` on ``X`` and to be a fixed point."""
    simplified, _ = simplify_rule(rule)
    assert simplified.evaluate(X).tolist() == rule.evaluate(X).tolist()
    assert simplify_rule(simplified)[0] == simplified  # a fixed point
    return simplified


@settings(max_examples=300, deadline=None)
@given(rule=_rules(), X=_frames())
def test_simplified_rule_predicts_exactly_as_the_raw_rule(rule: Rule, X: pd.DataFrame) -> None:
    simplified = _simplified_exactly(rule, X)
    assert simplified.n_clauses <= rule.n_clauses
    assert simplified.n_conditions <= rule.n_conditions
    assert Rule.from_json(simplified.to_json()) == simplified


def _interval(bounds: tuple[float | None, float | None]) -> list[L]:
    low, high = bounds
    return ([L("x", ">", low)] if low is not None else []) + ([L("x", "<=", high)] if high is not None else [])


def _category(op_value: tuple[str, object]) -> list[L]:
    op, value = op_value
    return [L("c", op, [value] if op in ("in", "not_in") else value)]


def _interval_rules() -> st.SearchStrategy[Rule]:
    """Rules whose clauses are intervals and category sets on two columns: what the merges across clauses meet."""
    bound = st.none() | st.sampled_from(THRESHOLDS)
    interval = st.tuples(bound, bound).map(_interval)
    categories = st.tuples(st.sampled_from(("==", "!=", "in", "not_in")), st.sampled_from(CATEGORIES)).map(_category)
    extra = st.lists(st.sampled_from((L("x", "is_nan"), L("x", "not_nan"), L("f", "is_true"), L("c", "is_nan"))),
                     max_size=1)
    clause = st.tuples(interval, st.one_of(categories, st.just([])), extra).map(lambda parts: parts[0] + parts[1] + parts[2])
    return st.builds(Rule, st.sampled_from(("cnf", "dnf")), st.lists(clause, min_size=1, max_size=4))


@settings(max_examples=300, deadline=None)
@given(rule=_interval_rules(), X=_frames())
def test_merged_clauses_predict_exactly_as_the_raw_rule(rule: Rule, X: pd.DataFrame) -> None:
    simplified = _simplified_exactly(rule, X)
    assert simplified.n_literals <= rule.n_literals
    negated, _ = simplify_rule(rule.negate())  # the other form of the same clauses
    assert negated.evaluate(X).tolist() == rule.negate().evaluate(X).tolist()


@settings(max_examples=60, deadline=None)
@given(rule=st.one_of(_rules(), _interval_rules()), X=_frames())
def test_exports_of_the_simplified_rule_predict_as_the_raw_rule(rule: Rule, X: pd.DataFrame) -> None:
    """The estimator's exports (SQL, pandas query, Python) are of ``rule_``, the simplified rule."""
    simplified, _ = simplify_rule(rule)
    expected = rule.evaluate(X)
    for name, predict in EXPORTS.items():
        got = predict(simplified, X)
        assert got.tolist() == expected.tolist(), f"{name} export of {simplified} (from {rule}) differs"
