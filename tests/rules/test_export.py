"""Exports (SQL, pandas query, Python module) predict exactly what Rule.evaluate predicts, on every row.

Each export runs on its own engine: the SQL through the standard library's
sqlite3 and in DuckDB (a dev dependency), the query through
``DataFrame.eval``/``query``, the Python module through ``exec`` of its source
with each row as a plain dict.
"""

from __future__ import annotations

import math
import re
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulemodels import BooleanRuleClassifier, Literal, Rule, list_datasets, load_dataset
from rulemodels.rules import to_python, to_query, to_sql
from rulemodels.rules._export import PYTHON_MISSING_TEXTS
from rulemodels.rules._kinds import ColumnKind, ColumnKindDriftWarning, conform
from tests.helpers import EXPORTS, any_rule, duckdb_predictions, sql_predictions


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


# ---------------------------------------------------------------------------
# Numbers stored as text: the Python module reads them as predict does, SQLite as the deploy guide says
# ---------------------------------------------------------------------------

#: Text cells of a number column: numbers pandas reads, texts it reads as missing, and infinities.
NUMBER_TEXTS = [
    "1", "7", "-4", " 1.5 ", "\t12.25", "1e3", "1E1", ".5", "5.", "+3", "00012", "inf", "INF", "Infinity", "-inf",
    "-Infinity", "+inf", " inf", "nan", "NaN", "NAN", "", " ", "1_000", "１２", "١٢", "0x10", "abc", "12abc", "1,5",
    "1.5.2", "true", None,
]
#: Text cells of a flag column on which predict's two readings (a CSV column of numbers, text) agree.
FLAG_TEXTS = ["1", "0", "true", "False", " 1 ", "1.0", "0.0", "abc", "", "2", None]

TEXT_POOL = [
    *[Literal("x", op, t) for t in (-5.0, 0.0, 1.5, 6.0, 11.5, 500.0) for op in ("<=", ">")],
    Literal("x", "is_nan"), Literal("x", "not_nan"), Literal("f", "is_true"), Literal("f", "is_false"),
    Literal("f", "is_nan"), Literal("f", "not_nan"),
]


def predicted(rule: Rule, frame: pd.DataFrame, columns: set[str] | None = None) -> np.ndarray:
    """What a fitted model's ``predict`` gives: the columns read as the kinds learned (numbers, a flag); only
    ``columns`` among them, if given (the others are left as text)."""
    kinds = {"x": ColumnKind("numeric"), "f": ColumnKind("flag")}
    kinds = {name: kind for name, kind in kinds.items() if columns is None or name in columns}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ColumnKindDriftWarning)
        return rule.evaluate(conform(frame, {name: kinds[name] for name in frame.columns if name in kinds}))


def sqlite_reading(text: str | None) -> float | None:
    """SQLite's ``text + 0`` as the deploy guide states it: the longest number at the start (after spaces), else 0."""
    if text is None:
        return None
    found = re.match(r"[ \t]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text, re.ASCII)
    return float(found.group(1)) if found else 0.0


def sqlite_values(rule: Rule, texts: list, recipe: bool) -> np.ndarray:
    """The SQL of ``rule`` on a table whose column ``x`` is TEXT (as ``.import`` makes it), or, with ``recipe``,
    a NUMERIC column cleaned by the deploy guide's statements."""
    column_type = "NUMERIC" if recipe else "TEXT"
    with sqlite3.connect(":memory:") as connection:
        connection.execute(f'CREATE TABLE data (i INTEGER, "x" {column_type})')
        connection.executemany("INSERT INTO data VALUES (?, ?)", list(enumerate(texts)))
        if recipe:
            connection.execute("""UPDATE data SET "x" = 9e999 WHERE lower("x") IN ('inf', '+inf', 'infinity', '+infinity')""")
            connection.execute("""UPDATE data SET "x" = -9e999 WHERE lower("x") IN ('-inf', '-infinity')""")
            connection.execute("""UPDATE data SET "x" = NULL WHERE typeof("x") = 'text'""")
        query = f"SELECT CASE WHEN {to_sql(rule)} THEN 1 ELSE 0 END FROM data ORDER BY i"
        return np.array([v for (v,) in connection.execute(query)], dtype=bool)


def python_rows(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    namespace: dict = {}
    exec(to_python(rule), namespace)
    return np.array([namespace["predict_row"](row) for row in frame.to_dict("records")], dtype=bool)


def test_the_filed_text_numbers_are_read_by_the_python_module_as_predict_reads_them():
    """float() read '1_000' as 1000 and '１２' as 12, which predict reads as missing."""
    X = pd.DataFrame({"x": np.tile(np.arange(20.0), 3)})
    y = (X["x"] > 9).astype(int)
    clf = BooleanRuleClassifier(theta=0.01).fit(X, y)
    (learned,) = clf.rule_.literals
    assert learned.op == ">" and 9 <= learned.value < 10
    texts = pd.DataFrame({"x": pd.Series(["1_000", "１２", "12", "inf", "INF", "Infinity", "-inf", " 15 ", "1e3"], dtype=object)})
    with pytest.warns(ColumnKindDriftWarning, match="treated as missing"):
        expected = clf.predict(texts) == 1
    assert expected.tolist() == [False, False, True, True, True, True, False, True, True]
    assert python_rows(clf.rule_, texts).tolist() == expected.tolist()
    namespace: dict = {}
    exec(to_python(Rule.dnf([[Literal("x", "is_nan")]])), namespace)  # no threshold: text is a category
    exec(to_python(Rule.dnf([[Literal("x", "is_nan"), Literal("x", "<=", 1.0)], [Literal("x", "is_nan")]])), namespace)
    assert [namespace["predict_row"]({"x": t}) for t in ("1_000", "１２", "nan", "2")] == [1, 1, 1, 0]


def test_sqlite_reads_infinity_text_as_0_and_the_guide_s_recipe_reads_it_as_predict():
    """SQLite's ``'inf' + 0`` is 0: on a TEXT column ``x > -5`` holds on '-inf' and ``x > 6`` fails on 'Infinity'."""
    rule = Rule.dnf([[Literal("x", ">", -5.0), Literal("x", "<=", 6.0)]])
    texts = ["inf", "INF", "Infinity", "-inf", "1_000", "１２", "nan", "abc", "", "3"]
    frame = pd.DataFrame({"x": pd.Series(texts, dtype=object)})
    expected = predicted(rule, frame)
    assert expected.tolist() == [False] * 9 + [True]
    as_text = sqlite_values(rule, texts, recipe=False)
    assert as_text.tolist() == [True] * 10  # the documented readings: every text but '1_000' (1) and '3' is 0
    assert np.array_equal(sqlite_values(rule, texts, recipe=True), expected)


@settings(max_examples=60, deadline=None)
@given(rule=any_rule(st.sampled_from(TEXT_POOL)),
       cells=st.lists(st.tuples(st.sampled_from(NUMBER_TEXTS), st.sampled_from(FLAG_TEXTS)), min_size=1, max_size=25))
@pytest.mark.slow
def test_random_rules_on_text_cells_match_predict_in_python_and_the_documented_reading_in_sqlite(rule, cells):
    frame = pd.DataFrame({"x": pd.Series([c[0] for c in cells], dtype=object),
                          "f": pd.Series([c[1] for c in cells], dtype=object)})
    # the module knows a column is a number or a flag from the rule's threshold and flag literals; a column
    # that the rule only tests with "is missing" is read as text, and only the missing texts are missing there
    tested = {lit.feature for lit in rule.literals if lit.op not in ("is_nan", "not_nan")}
    as_text = frame.apply(lambda column: column if column.name in tested else column.map(
        lambda v: None if v is None or v.lstrip() in PYTHON_MISSING_TEXTS else v))
    assert np.array_equal(python_rows(rule, frame), predicted(rule, as_text, tested))
    number_rule = Rule(rule.form, [tuple(lit for lit in clause.literals if lit.feature == "x") for clause in rule.clauses])
    texts = frame["x"].tolist()
    # SQLite on a TEXT column: each cell read as the guide says (not as predict); with the recipe, as predict
    as_sqlite = pd.DataFrame({"x": [sqlite_reading(t) for t in texts]}, dtype=float)
    assert np.array_equal(sqlite_values(number_rule, texts, recipe=False), number_rule.evaluate(as_sqlite))
    assert np.array_equal(sqlite_values(number_rule, texts, recipe=True), predicted(number_rule, frame[["x"]]))
