"""Exports (SQL, pandas query, Python module) predict exactly what Rule.evaluate predicts, on every row.

Each export runs on its own engine: the SQL through the standard library's
sqlite3 and in DuckDB (a dev dependency), the query through
``DataFrame.eval``/``query``, the Python module through ``exec`` of its source
with each row as a plain dict.
"""

from __future__ import annotations

import math
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulemodels import BooleanRuleClassifier, Literal, Rule, list_datasets, load_dataset
from rulemodels.rules import to_python, to_query, to_sql
from tests.helpers import EXPORTS, duckdb_predictions, sql_predictions


def assert_exports_match(rule: Rule, frame: pd.DataFrame, exports=EXPORTS) -> None:
    expected = rule.evaluate(frame)
    for name, predict in exports.items():
        got = predict(rule, frame)
        wrong = np.flatnonzero(got != expected)
        assert wrong.size == 0, f"{name} export of {rule} differs from Rule.evaluate on rows {wrong[:10].tolist()}"


@pytest.fixture(scope="module")
def mixed_frame() -> pd.DataFrame:
    """Numbers with NaN and infinity, categories with None/NaN and unseen values, flags, integer codes."""
    rng = np.random.default_rng(0)
    n = 300
    amount = rng.normal(50, 20, n)
    amount[rng.random(n) < 0.15] = np.nan
    amount[:2] = [np.inf, -np.inf]
    purpose = rng.choice(np.array(["car", "tv", "it's new", "edu", "other"], dtype=object), n)
    purpose[rng.random(n) < 0.1] = None
    purpose[rng.random(n) < 0.05] = np.nan
    flag = rng.integers(0, 2, n).astype(float)
    flag[rng.random(n) < 0.1] = np.nan
    code = rng.integers(1, 5, n)
    return pd.DataFrame({
        "amount": amount, "purpose": purpose, "flag": flag, "code": code,
        'odd "name" col': rng.normal(size=n), "age": rng.integers(18, 80, n).astype(float),
    })


MIXED_RULES = [
    Rule.dnf([[Literal("amount", ">", 45.5), Literal("purpose", "==", "car")], [Literal("flag", "is_true")]]),
    Rule.dnf([[Literal("purpose", "!=", "tv"), Literal("amount", "<=", 60.0)], [Literal("amount", "is_nan")]]),
    Rule.cnf([[Literal("purpose", "in", ["car", "it's new"]), Literal("flag", "is_false")],
              [Literal("amount", "not_nan"), Literal("code", "==", 3)]]),
    Rule.cnf([[Literal("purpose", "not_in", ["edu", "unseen value"])], [Literal('odd "name" col', "<=", 0.1)]]),
    Rule.dnf([[Literal("purpose", "is_nan")], [Literal("code", "!=", 2), Literal("age", ">", 40.0)]]),
    Rule.dnf([[Literal("purpose", "==", "never seen")]]),  # a category no row has
    Rule.dnf([]), Rule.cnf([]), Rule.dnf([[]]), Rule.cnf([[]]),  # constant rules
    Rule.cnf([[Literal("amount", "<=", 1e-05)], [Literal("code", "in", [1, 2])]]),
]


@pytest.mark.parametrize("rule", MIXED_RULES, ids=str)
def test_exports_match_evaluate_with_missing_values_and_categories(rule, mixed_frame):
    assert_exports_match(rule, mixed_frame)


@pytest.mark.parametrize("rule", MIXED_RULES, ids=str)
def test_sql_export_matches_in_duckdb(rule, mixed_frame):
    assert np.array_equal(duckdb_predictions(rule, mixed_frame), rule.evaluate(mixed_frame))


def threshold_rules(X: pd.DataFrame) -> list[Rule]:
    """Hand-made rules over the dataset's first columns at their quartiles (both forms, both ops)."""
    columns = list(X.columns[:4])
    q = {c: X[c].quantile([0.25, 0.5, 0.75]).tolist() for c in columns}
    a, b, c, d = columns
    return [
        Rule.dnf([[Literal(a, ">", q[a][1]), Literal(b, "<=", q[b][2])], [Literal(c, ">", q[c][2])]]),
        Rule.cnf([[Literal(a, "<=", q[a][0]), Literal(d, ">", q[d][1])], [Literal(b, ">", q[b][0])]]),
    ]


@pytest.mark.parametrize("name", list_datasets())
def test_exports_match_evaluate_on_the_bundled_datasets(name):
    X, y = load_dataset(name)
    learned = BooleanRuleClassifier(algorithm="scs", n_clauses=2, theta=0.01, n_thresholds=5).fit(X, y)
    for rule in [learned.rule_, learned.raw_rule_, *threshold_rules(X)]:
        assert_exports_match(rule, X)
    # the estimator's exports are its rule's, true for classes_[1], as its predictions
    assert learned.to_sql() == learned.rule_.to_sql() and learned.to_query() == learned.rule_.to_query()
    assert np.array_equal(sql_predictions(learned.rule_, X), learned.predict(X) == learned.classes_[1])


def test_the_sql_quotes_names_and_strings_and_is_never_null():
    rule = Rule.dnf([[Literal('a "b"', "==", "it's")]])
    assert to_sql(rule) == '("a ""b""" IS NOT NULL AND "a ""b""" = \'it\'\'s\')'
    with sqlite3.connect(":memory:") as connection:
        connection.execute('CREATE TABLE t ("a ""b""" TEXT)')
        connection.executemany("INSERT INTO t VALUES (?)", [("it's",), (None,), ("x",)])
        values = [v for (v,) in connection.execute(f"SELECT {to_sql(rule)} FROM t ORDER BY rowid")]
    assert values == [1, 0, 0]  # NULL row: false, not NULL


def test_query_refuses_a_backtick_in_a_column_name():
    with pytest.raises(ValueError, match="backtick"):
        to_query(Rule.dnf([[Literal("a`b", ">", 1.0)]]))


def test_python_export_reads_csv_text_rows_and_missing_keys_fail_loudly():
    rule = Rule.dnf([[Literal("x", ">", 2.5), Literal("c", "in", ["a", "b"])]])
    namespace: dict = {}
    exec(to_python(rule), namespace)
    predict_row = namespace["predict_row"]
    assert predict_row({"x": "3.5", "c": "a"}) == 1  # csv.DictReader gives text: thresholds use float()
    assert predict_row({"x": 3.5, "c": None}) == 0 and predict_row({"x": math.nan, "c": "a"}) == 0
    assert predict_row({"x": pd.NA, "c": "b"}) == 0
    with pytest.raises(KeyError):
        predict_row({"c": "a"})
    assert "import" not in to_python(rule).replace("from typing import Mapping", "")  # no dependency


#: Literals over every column and op of the mixed frame, for random rules.
LITERAL_POOL = [
    Literal("amount", "<=", 40.0), Literal("amount", ">", 55.25), Literal("amount", "is_nan"), Literal("amount", "not_nan"),
    Literal("purpose", "==", "car"), Literal("purpose", "!=", "it's new"), Literal("purpose", "in", ["tv", "edu", "zzz"]),
    Literal("purpose", "not_in", ["car", "other"]), Literal("purpose", "is_nan"), Literal("flag", "is_true"),
    Literal("flag", "is_false"), Literal("code", "==", 2), Literal("code", "not_in", [1, 4]),
    Literal('odd "name" col', ">", -0.5), Literal("age", "<=", 33.0),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(["dnf", "cnf"]),
       clauses=st.lists(st.lists(st.sampled_from(LITERAL_POOL), max_size=4), max_size=4))
@pytest.mark.slow
def test_random_rules_export_to_the_same_predictions(form, clauses, mixed_frame):
    rule = Rule(form, [tuple(c) for c in clauses])
    assert_exports_match(rule, mixed_frame)
    assert np.array_equal(duckdb_predictions(rule, mixed_frame), rule.evaluate(mixed_frame))
