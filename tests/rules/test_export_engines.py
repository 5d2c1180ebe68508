"""Every export predicts exactly what Rule.evaluate predicts, on every engine.

The SQL runs on SQLite, DuckDB and a real PostgreSQL server (the session
fixture ``postgres`` in conftest.py), each reading a real table whose columns
have proper types (BIGINT, DOUBLE PRECISION, BOOLEAN, TEXT, and REAL / DuckDB's
FLOAT for float32 and float16 columns; missing values NULL). The pandas query runs through ``DataFrame.eval`` and ``DataFrame.query``,
the Python module through ``exec``: its ``predict_row`` gets plain dict rows,
and csv.DictReader rows of a CSV file that the rulemodels CLI reads too.
"""

from __future__ import annotations

import csv
import itertools
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulemodels import BooleanRuleClassifier, Literal, Rule, list_datasets, load_dataset
from rulemodels.data import read_features
from rulemodels.data.binarizer import FeatureBinarizer
from rulemodels.rules import RuleList, to_python, to_query, to_sql
from rulemodels.rules._export import sql_identifier

pytestmark = pytest.mark.slow  # starts a PostgreSQL server; rules of thousands of literals on every engine

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")

# ---------------------------------------------------------------------------
# Loading a frame into each engine as a typed table
# ---------------------------------------------------------------------------

TYPES = {  # column kind -> (SQLite, DuckDB, PostgreSQL) type
    "int": ("INTEGER", "BIGINT", "BIGINT"),
    "float": ("REAL", "DOUBLE", "DOUBLE PRECISION"),
    "float32": ("REAL", "FLOAT", "REAL"),  # float32 and float16 columns: SQLite has float64 only
    "bool": ("BOOLEAN", "BOOLEAN", "BOOLEAN"),
    "text": ("TEXT", "VARCHAR", "TEXT"),
}


def column_kind(column: pd.Series) -> str:
    dtype = column.dtype
    kind = getattr(dtype, "numpy_dtype", dtype).kind if not isinstance(dtype, pd.CategoricalDtype) else "O"
    if kind in "iu":
        return "int"
    if kind == "f":
        return "float32" if getattr(dtype, "numpy_dtype", dtype).itemsize < 8 else "float"
    if kind == "b":
        return "bool"
    present = [v for v in column.to_numpy(dtype=object) if not pd.isna(v)]
    if present and all(isinstance(v, bool | np.bool_) for v in present):
        return "bool"
    assert all(isinstance(v, str) for v in present), f"test frame column {column.name!r} mixes types"
    return "text"


def plain(value: object, kind: str) -> object:
    """A cell as a Python value for a database driver: None for missing."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    return {"int": int, "float": float, "float32": float, "bool": bool, "text": str}[kind](value)


class Tables:
    """One frame loaded as a typed table ``data`` (with a ``__row`` column) in SQLite, DuckDB and PostgreSQL."""

    counter = itertools.count()

    def __init__(self, frame: pd.DataFrame, postgres) -> None:
        self.frame = frame
        self.n = len(frame)
        kinds = [column_kind(frame[c]) for c in frame.columns]
        rows = [
            (i, *(plain(v, k) for v, k in zip(values, kinds)))
            for i, values in enumerate(frame.itertuples(index=False, name=None))
        ]
        names = ['"__row"'] + [sql_identifier(str(c)) for c in frame.columns]
        self.pg_table = f"data_{next(self.counter)}"
        self.sqlite = sqlite3.connect(":memory:")
        self.duckdb = duckdb.connect()
        self.postgres = postgres
        for engine, connection, table in ((0, self.sqlite, "data"), (1, self.duckdb, "data"), (2, postgres, self.pg_table)):
            columns = ", ".join(f"{name} {TYPES[k][engine]}" for name, k in zip(names, ["int", *kinds]))
            connection.execute(f"CREATE TABLE {table} ({columns})")
            marks = ", ".join(["%s" if engine == 2 else "?"] * len(names))
            if engine == 2:
                with connection.cursor() as cursor:
                    cursor.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
            else:
                connection.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)

    def sql(self, rules: list[Rule], batch: int = 40) -> dict[str, np.ndarray]:
        """Each engine's value of each rule's SQL on each row: bool arrays of shape (len(rules), n)."""
        out = {}
        for name, run, table in (
            ("sqlite", lambda q: self.sqlite.execute(q).fetchall(), "data"),
            ("duckdb", lambda q: self.duckdb.execute(q).fetchall(), "data"),
            ("postgresql", lambda q: self.postgres.execute(q).fetchall(), self.pg_table),
        ):
            values = []
            for start in range(0, len(rules), batch):
                part = rules[start : start + batch]
                cases = ", ".join(f"CASE WHEN {to_sql(rule)} THEN 1 ELSE 0 END" for rule in part)
                rows = run(f'SELECT {cases} FROM {table} ORDER BY "__row"')
                assert len(rows) == self.n
                values.append(np.array(rows, dtype=int).reshape(self.n, len(part)).T)
            out[name] = np.concatenate(values).astype(bool) if values else np.zeros((0, self.n), bool)
        return out


def query_values(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    expression = to_query(rule)
    values = np.asarray(frame.eval(expression), dtype=bool)
    assert values.shape == (len(frame),), f"eval of {expression[:200]} gave shape {values.shape}"
    kept = frame.query(expression)
    assert np.array_equal(np.isin(np.arange(len(frame)), frame.index.get_indexer_for(kept.index)) if frame.index.is_unique
                          else values, values)
    assert len(kept) == values.sum()
    return values


def python_values(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    namespace: dict = {}
    exec(compile(to_python(rule), "<exported rule>", "exec"), namespace)
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
    return np.array([namespace["predict_row"](row) for row in rows], dtype=int).astype(bool)


def assert_every_engine_agrees(rules: list[Rule], frame: pd.DataFrame, tables: Tables) -> None:
    expected = np.array([rule.evaluate(frame) for rule in rules]).reshape(len(rules), len(frame))
    for engine, got in tables.sql(rules).items():
        for rule, e, g in zip(rules, expected, got):
            wrong = np.flatnonzero(e != g)
            assert wrong.size == 0, f"{engine}: SQL of {rule} differs from Rule.evaluate on rows {wrong[:10].tolist()}"
    for rule, e in zip(rules, expected):
        for name, predict in (("query", query_values), ("python", python_values)):
            wrong = np.flatnonzero(predict(rule, frame) != e)
            assert wrong.size == 0, f"{name} export of {rule} differs from Rule.evaluate on rows {wrong[:10].tolist()}"


# ---------------------------------------------------------------------------
# A frame of every column kind
# ---------------------------------------------------------------------------

BIG = 1_700_000_000_000_000_000  # nanosecond timestamps (2023): far beyond 2**53


def make_mixed_frame(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    amount = rng.normal(50, 20, n)
    amount[rng.random(n) < 0.15] = np.nan
    amount[:2] = [np.inf, -np.inf]
    purpose = rng.choice(np.array(["car", "tv", "it's new", "edu", 'say "hi"', "other"], dtype=object), n)
    purpose[rng.random(n) < 0.1] = None
    flag = rng.integers(0, 2, n).astype(float)  # a 0/1 flag with drifted values and NaN
    flag[rng.random(n) < 0.1] = np.nan
    flag[rng.random(n) < 0.05] = 0.5
    flag[rng.random(n) < 0.05] = 2.0
    flag[:3] = [-0.0, 0.9999999999999999, 1.0000000000000002]
    boolean = rng.random(n) < 0.5
    boolean_with_missing = pd.Series(boolean, dtype=object)
    boolean_with_missing[rng.random(n) < 0.1] = None
    stamp = BIG + rng.integers(0, 400, n)  # consecutive integers that float64 cannot tell apart
    stamp[:2] = [np.iinfo(np.int64).max, np.iinfo(np.int64).min]
    return pd.DataFrame({
        "amount": amount, "purpose": purpose, "flag": flag, "bool": boolean, "bool_na": boolean_with_missing,
        "code": rng.integers(0, 3, n), "stamp": stamp, "index": rng.normal(size=n),
        "line\nbreak\ttab": rng.normal(size=n),
    })


@pytest.fixture(scope="module")
def engine_mixed_frame() -> pd.DataFrame:
    return make_mixed_frame()


@pytest.fixture(scope="module")
def mixed_tables(engine_mixed_frame, postgres) -> Tables:
    return Tables(engine_mixed_frame, postgres)


STAMP_THRESHOLDS = [float(BIG + k) for k in (0, 100, 255, 399)] + [float(2**63), -float(2**63), 1.5e18, 1e300, -1e300, 0.5]

#: Literals over every column kind and op, for hand-made and random rules.
LITERAL_POOL = [
    Literal("amount", "<=", 40.0), Literal("amount", ">", 55.25), Literal("amount", "is_nan"), Literal("amount", "not_nan"),
    Literal("amount", "<=", 1e-05),
    Literal("purpose", "==", "car"), Literal("purpose", "!=", "it's new"), Literal("purpose", "in", ["tv", 'say "hi"', "zzz"]),
    Literal("purpose", "not_in", ["car", "other"]), Literal("purpose", "is_nan"), Literal("purpose", "==", "never seen"),
    Literal("flag", "is_true"), Literal("flag", "is_false"), Literal("flag", "is_nan"),
    Literal("bool", "is_true"), Literal("bool", "is_false"), Literal("bool_na", "is_true"), Literal("bool_na", "is_false"),
    Literal("bool_na", "not_nan"), Literal("code", "is_true"), Literal("code", "is_false"),
    Literal("code", "==", 2), Literal("code", "not_in", [0, 5]), Literal("index", ">", -0.5),
    Literal("line\nbreak\ttab", "<=", 0.25),
    *[Literal("stamp", op, t) for t in STAMP_THRESHOLDS for op in ("<=", ">")],
]

CONSTANT_RULES = [Rule.dnf([]), Rule.cnf([]), Rule.dnf([[]]), Rule.cnf([[]]), Rule.dnf([[], [Literal("flag", "is_true")]]),
                  Rule.cnf([[], [Literal("flag", "is_true")]])]


def test_every_literal_and_constant_rule_is_exact_on_every_engine(engine_mixed_frame, mixed_tables):
    rules = [Rule.dnf([[lit]]) for lit in LITERAL_POOL] + [Rule.cnf([[lit]]) for lit in LITERAL_POOL] + CONSTANT_RULES
    # pandas cannot quote the column with a newline: its literal is checked on the SQL engines and Python only
    quotable = [r for r in rules if "line\nbreak\ttab" not in r.features]
    assert_every_engine_agrees(quotable, engine_mixed_frame, mixed_tables)
    unquotable = [r for r in rules if "line\nbreak\ttab" in r.features]
    expected = np.array([r.evaluate(engine_mixed_frame) for r in unquotable])
    for engine, got in mixed_tables.sql(unquotable).items():
        assert np.array_equal(got, expected), engine
    assert all(np.array_equal(python_values(r, engine_mixed_frame), e) for r, e in zip(unquotable, expected))


def test_integers_beyond_2_53_are_compared_exactly_by_the_library_and_every_engine(engine_mixed_frame, mixed_tables):
    stamp = engine_mixed_frame["stamp"]
    exact = [int(v) for v in stamp]
    for t in STAMP_THRESHOLDS:
        # the library: exact integer comparison (float64 would merge BIG + k for neighbouring k)
        assert Literal("stamp", "<=", t).evaluate(engine_mixed_frame).tolist() == [x <= t for x in exact]
        assert Literal("stamp", ">", t).evaluate(engine_mixed_frame).tolist() == [x > t for x in exact]
    assert sum(x <= BIG + 100 for x in exact) != sum(float(x) <= float(BIG + 100) for x in exact)  # the case matters
    rules = [Rule.dnf([[Literal("stamp", op, t)]]) for t in STAMP_THRESHOLDS for op in ("<=", ">")]
    assert_every_engine_agrees(rules, engine_mixed_frame, mixed_tables)
    assert "1500000000000000000" in to_sql(Rule.dnf([[Literal("stamp", "<=", 1.5e18)]]))  # not 1.5e+18 (DOUBLE in DuckDB)


def test_the_binarizer_compares_integers_beyond_2_53_exactly_as_literal_evaluate(engine_mixed_frame):
    frame = engine_mixed_frame[["stamp"]].copy()
    frame["nullable"] = pd.array([None if i % 7 == 0 else v for i, v in enumerate(frame["stamp"])], dtype="Int64")
    binarizer = FeatureBinarizer(n_thresholds=40, nan="indicator").fit(frame)
    A = binarizer.transform(frame)
    for k, lit in enumerate(binarizer.literals_):
        assert np.array_equal(A[:, k].astype(bool), lit.evaluate(frame)), str(lit)
    # a threshold splits integers that float64 rounds to the same value as the threshold
    t = float(BIG + 128)
    values = [int(v) for v in frame["stamp"]]
    assert Literal("stamp", "<=", t).evaluate(frame).tolist() == [v <= t for v in values]
    assert len({float(v) for v in values if v <= t}) < sum(v <= t for v in values)


def test_flags_on_boolean_and_numeric_columns_agree_with_the_library_on_every_engine(engine_mixed_frame, mixed_tables):
    """``"x" = '1'``: PostgreSQL refused ``boolean = 1``; drifted values 0.5, 2, 1 ± 1 ulp are neither 0 nor 1."""
    flag = engine_mixed_frame["flag"]
    is_true = Literal("flag", "is_true").evaluate(engine_mixed_frame)
    assert not is_true[[1, 2]].any() and Literal("flag", "is_false").evaluate(engine_mixed_frame)[0]  # 1 ± 1 ulp, -0.0
    assert not (is_true | Literal("flag", "is_false").evaluate(engine_mixed_frame))[(flag == 0.5) | (flag == 2)].any()
    rules = [Rule.dnf([[Literal(c, op)]]) for c in ("flag", "bool", "bool_na", "code") for op in ("is_true", "is_false")]
    assert_every_engine_agrees(rules, engine_mixed_frame, mixed_tables)
    assert to_sql(rules[2]) == """("bool" IS NOT NULL AND "bool" = '1')"""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(["dnf", "cnf"]),
       clauses=st.lists(st.lists(st.sampled_from([lit for lit in LITERAL_POOL if "\n" not in lit.feature]), max_size=5),
                        max_size=5))
def test_random_rules_are_exact_on_every_engine(form, clauses, engine_mixed_frame, mixed_tables):
    assert_every_engine_agrees([Rule(form, [tuple(c) for c in clauses])], engine_mixed_frame, mixed_tables)


# ---------------------------------------------------------------------------
# pandas' nullable and pyarrow-backed dtypes (missing values are pd.NA)
# ---------------------------------------------------------------------------

#: The mixed frame's columns (but the one pandas cannot quote) as pandas' nullable dtypes and as pyarrow-backed ones.
NULLABLE_DTYPES = {
    "nullable": {"amount": "Float64", "purpose": "string", "flag": "Float64", "bool": "boolean", "bool_na": "boolean",
                 "code": "UInt8", "stamp": "Int64", "index": "Float64"},
    "pyarrow": {"amount": "double[pyarrow]", "purpose": "string[pyarrow]", "flag": "double[pyarrow]",
                "bool": "bool[pyarrow]", "bool_na": "bool[pyarrow]", "code": "int64[pyarrow]", "stamp": "int64[pyarrow]",
                "index": "double[pyarrow]"},
}


def nullable_frame(frame: pd.DataFrame, kind: str) -> pd.DataFrame:
    """``frame`` with each column of :data:`NULLABLE_DTYPES` cast: its missing values become ``pd.NA``."""
    if kind == "pyarrow":
        pytest.importorskip("pyarrow")
    dtypes = NULLABLE_DTYPES[kind]
    converted = frame[list(dtypes)].astype(dtypes)
    assert all(converted[c].isna().sum() == frame[c].isna().sum() for c in dtypes)  # the same rows are missing
    return converted


def nullable_query_values(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    """The query's value per row with ``engine="python"`` (numexpr is made for numpy dtypes): ``eval`` gives a
    boolean per row, never ``<NA>``, and ``query`` keeps exactly the rows where it is true."""
    expression = to_query(rule)
    evaluated = frame.eval(expression, engine="python")
    assert not pd.isna(evaluated).any(), f"eval of {expression[:200]} gave <NA>"
    values = np.asarray(evaluated, dtype=bool)
    kept = frame.query(expression, engine="python").index
    assert np.array_equal(frame.index.isin(kept), values)
    return values


@pytest.mark.parametrize("kind", list(NULLABLE_DTYPES))
def test_the_query_is_exact_on_nullable_and_pyarrow_columns(kind, engine_mixed_frame):
    """``(x == x)`` is ``<NA>`` on a missing value of a nullable column (``Int64``, ``string``, ``boolean``, a
    pyarrow-backed one), and so was every rule over it; each literal's test is now guarded by ``x.notna()``."""
    frame = nullable_frame(engine_mixed_frame, kind)
    pool = [lit for lit in LITERAL_POOL if lit.feature in frame.columns]
    if kind == "pyarrow":  # pyarrow cannot compare int64 with an integer beyond its range: it raises, it is not wrong
        beyond = [lit for lit in pool if lit.feature == "stamp" and not -(2**63) <= lit.value < 2**63]
        with pytest.raises(OverflowError):
            frame.eval(to_query(Rule.dnf([[beyond[0]]])), engine="python")
        pool = [lit for lit in pool if lit not in beyond]
    rules = [Rule(form, [[lit]]) for lit in pool for form in ("dnf", "cnf")] + CONSTANT_RULES
    rng = np.random.default_rng(1)
    rules += [Rule(form, [tuple(pool[i] for i in rng.integers(0, len(pool), rng.integers(1, 4)))
                          for _ in range(rng.integers(1, 4))]) for form in ("dnf", "cnf") for _ in range(40)]
    for rule in rules:
        expected = rule.evaluate(engine_mixed_frame)  # the numpy frame: NaN and None where pd.NA is
        assert np.array_equal(rule.evaluate(frame), expected), str(rule)
        wrong = np.flatnonzero(nullable_query_values(rule, frame) != expected)
        assert wrong.size == 0, f"query of {rule} differs from Rule.evaluate on rows {wrong[:10].tolist()}"


@pytest.mark.parametrize("kind", list(NULLABLE_DTYPES))
def test_the_query_of_a_fitted_estimator_selects_what_predict_marks_positive_on_nullable_columns(kind):
    """An estimator fitted and predicting on a frame with ``pd.NA``: ``frame.query(clf.to_query())`` keeps exactly
    the rows ``predict`` marks as ``classes_[1]``."""
    frame = nullable_frame(make_mixed_frame(n=400, seed=3), kind)
    signal = frame["amount"].gt(45).fillna(False).to_numpy(dtype=bool) | frame["purpose"].eq("car").fillna(False).to_numpy(dtype=bool)
    y = np.where(np.random.default_rng(3).random(len(frame)) < 0.95, signal, ~signal).astype(int)
    for form in ("dnf", "cnf"):
        clf = BooleanRuleClassifier(form=form, n_clauses=2, theta=0.005).fit(frame, y)
        assert {lit.feature for lit in clf.rule_.literals} & {"amount", "purpose"}
        positive = clf.predict(frame) == clf.classes_[1]
        assert np.array_equal(nullable_query_values(clf.rule_, frame), positive), str(clf.rule_)
        assert np.array_equal(frame.eval(clf.to_query(), engine="python").to_numpy(dtype=bool), positive)


# ---------------------------------------------------------------------------
# The bundled datasets' learned rules
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list_datasets())
def test_learned_rules_of_the_bundled_datasets_are_exact_on_every_engine(name, postgres):
    X, y = load_dataset(name)
    rules = []
    for form in ("dnf", "cnf"):
        learned = BooleanRuleClassifier(algorithm="scs", form=form, n_clauses=2, theta=0.01, n_thresholds=5).fit(X, y)
        rules += [learned.rule_, learned.raw_rule_, learned.rule_.negate()]
    assert_every_engine_agrees(rules, X, Tables(X, postgres))


def test_rules_on_the_missing_indicator_of_id_like_columns_are_exact_on_every_engine(postgres):
    """An ID-like column (a coupon code, a refund number) keeps only its ``is missing`` literals: a rule over
    them predicts the same in predict, every engine and every export."""
    rng = np.random.default_rng(4)
    n = 300
    has_coupon, has_refund = rng.random(n) < 0.4, rng.random(n) < 0.5
    refund = np.full(n, np.nan)  # float with NaN, as read from a CSV file
    refund[has_refund] = rng.permutation(int(has_refund.sum())) + 10_000
    X = pd.DataFrame({
        "coupon": pd.Series([f"C{k:06d}" if h else None for k, h in enumerate(has_coupon)], dtype=object),
        "refund": refund, "age": rng.integers(18, 80, n),
    })
    y = np.where(rng.random(n) < 0.93, has_coupon & ~has_refund, ~(has_coupon & ~has_refund)).astype(int)
    rules = []
    for form in ("dnf", "cnf"):
        with pytest.warns(UserWarning, match="kept as a feature"):
            clf = BooleanRuleClassifier(form=form, n_clauses=2, theta=0.01).fit(X, y)
        assert clf.binarizer_.dropped_columns_ == ["coupon", "refund"]
        assert {"coupon", "refund"} <= set(clf.rule_.features)
        assert {lit.op for lit in clf.rule_.literals if lit.feature in ("coupon", "refund")} <= {"is_nan", "not_nan"}
        assert np.array_equal(clf.predict(X) == 1, clf.rule_.evaluate(X))
        rules += [clf.rule_, clf.raw_rule_, clf.rule_.negate()]
    assert_every_engine_agrees(rules, X, Tables(X, postgres))


def narrow(X: pd.DataFrame, precision: str) -> pd.DataFrame:
    """``X`` with its float columns in ``precision`` (``float32``, ``float16``)."""
    return X.astype({name: precision for name in X.columns if X[name].dtype.kind == "f"})


@pytest.mark.parametrize("precision", ["float32", "float16"])
@pytest.mark.parametrize("name", list_datasets())
def test_learned_rules_on_float32_and_float16_columns_are_exact_on_every_engine(name, precision, postgres):
    """DuckDB (FLOAT), PostgreSQL (REAL) and pandas compare such a column in its own precision, ``predict`` and
    SQLite in float64: a threshold printed as 0.4 split the rows showing 0.4 differently."""
    X, y = load_dataset(name)
    X = narrow(X, precision)
    rules = []
    for form in ("dnf", "cnf"):
        learned = BooleanRuleClassifier(algorithm="scs", form=form, n_clauses=2, theta=0.01, n_thresholds=5).fit(X, y)
        rules += [learned.rule_, learned.raw_rule_, learned.rule_.negate()]
    assert_every_engine_agrees(rules, X, Tables(X, postgres))


def make_narrow_frame(n: int = 300, seed: int = 5) -> tuple[pd.DataFrame, np.ndarray]:
    """Columns of float32 and float16 numbers in every container: numpy (with NaN), pandas' nullable Float32
    and Arrow's float and halffloat; a label that follows the tenths of the first column. (``DataFrame.eval``
    of a comparison gives pandas' NA where a nullable column is missing, which ``query_values`` cannot read.)"""
    rng = np.random.default_rng(seed)
    tenths = rng.integers(0, 30, n) / 10
    y = ((tenths > 1.45) ^ (rng.random(n) < 0.1)).astype(int)
    small = rng.normal(0, 0.01, n)
    small[rng.random(n) < 0.1] = np.nan
    return pd.DataFrame({
        "tenths32": tenths.astype(np.float32),
        "tenths16": tenths.astype(np.float16),
        "small32": small.astype(np.float32),
        "nullable": pd.Series(rng.normal(5, 3, n).astype(np.float32), dtype="Float32"),
        "arrow32": pd.Series(rng.choice([0.1, 0.2, 0.3, 0.4, 1.3, 2.7], n).astype(np.float32),
                             dtype=pd.ArrowDtype(pa.float32())),
        "arrow16": pd.Series(rng.normal(0, 50, n).astype(np.float16), dtype=pd.ArrowDtype(pa.float16())),
    }), y


@pytest.fixture(scope="module")
def narrow_frame_pool(postgres) -> tuple[pd.DataFrame, Tables, list[Literal]]:
    frame, y = make_narrow_frame()
    pool = []
    for placement in ("quantile", "tree"):
        for rounding in (True, False):
            binarizer = FeatureBinarizer(
                n_thresholds=6, thresholds=placement, round_thresholds=rounding, nan="indicator",
            ).fit(frame, y)
            pool += [lit for lit in binarizer.literals_ if lit.op in ("<=", ">")]
    return frame, Tables(frame, postgres), list(dict.fromkeys(pool))


def test_every_threshold_on_narrow_columns_is_exact_on_every_engine(narrow_frame_pool):
    frame, tables, pool = narrow_frame_pool
    assert {lit.feature for lit in pool} == set(frame.columns)
    assert_every_engine_agrees([Rule.dnf([[lit]]) for lit in pool], frame, tables)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(["dnf", "cnf"]),
       picks=st.lists(st.lists(st.integers(0, 10_000), min_size=1, max_size=4), min_size=1, max_size=4))
def test_random_rules_on_narrow_columns_are_exact_on_every_engine(form, picks, narrow_frame_pool):
    frame, tables, pool = narrow_frame_pool
    clauses = [tuple(pool[k % len(pool)] for k in clause) for clause in picks]
    assert_every_engine_agrees([Rule(form, clauses)], frame, tables)


# ---------------------------------------------------------------------------
# Constants, long clauses, names
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("index", [
    pd.Index([0.0, np.nan, 2.0]), pd.Index([1, pd.NA, 2], dtype="Int64"),
    pd.MultiIndex.from_tuples([(1, "a"), (np.nan, "b"), (2, None)]), pd.Index([5, 5, 5]),
], ids=["nan", "pd.NA", "multiindex", "duplicates"])
@pytest.mark.parametrize("index_column", [None, [np.nan, 1.0, 2.0]], ids=["plain", "column named index"])
def test_query_constants_hold_whatever_the_index_and_columns(index, index_column):
    """``(index == index)`` was false on a NaN index label and compared a column named ``index``."""
    frame = pd.DataFrame({"x": [1.0, np.nan, 3.0]}, index=index)
    if index_column is not None:
        frame["index"] = index_column
    for rule in CONSTANT_RULES[:4]:
        expected = rule.evaluate(frame)
        assert np.asarray(frame.eval(to_query(rule)), dtype=bool).tolist() == expected.tolist(), str(rule)
        assert len(frame.query(to_query(rule))) == expected.sum()
    assert frame.query(to_query(Rule.dnf([[Literal("x", ">", 2.0)], []]))).shape[0] == 3


@pytest.fixture(scope="module")
def long_frame(postgres):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"x": rng.normal(size=60), "k": rng.integers(0, 2_000, 60), "f": rng.integers(0, 2, 60)})
    frame.loc[::9, "x"] = np.nan
    return frame, Tables(frame, postgres)


def long_rules(n: int = 5_000) -> list[Rule]:
    """A DNF term, a CNF clause and a DNF of ``n`` literals each, none constant on ``long_frame``."""
    half = n // 2
    mostly_true = ([Literal("x", ">", -10.0 - j / n) for j in range(half)]
                   + [Literal("k", "<=", float(2_000 + j)) for j in range(n - half - 1)] + [Literal("f", "is_true")])
    mostly_false = ([Literal("x", ">", 10.0 + j / n) for j in range(half)]
                    + [Literal("k", ">", float(2_000 + j)) for j in range(n - half - 1)] + [Literal("f", "is_true")])
    return [Rule.dnf([mostly_true]), Rule.cnf([mostly_false]), Rule.dnf([[lit] for lit in mostly_false])]


def test_clauses_of_thousands_of_literals_work_on_every_engine(long_frame):
    """A flat chain hit pandas' RecursionError (~400 literals) and SQLite's depth limit (1,000)."""
    frame, tables = long_frame
    rules = long_rules()
    values = [rule.evaluate(frame) for rule in rules]
    assert all(len(rule.literals) == 5_000 and 0 < v.sum() < len(frame) for rule, v in zip(rules, values))
    assert_every_engine_agrees(rules, frame, tables)
    assert to_sql(rules[0]).count("(") < 3 * 5_000 + 2_000  # groups, not one parenthesis per literal


NAMES_ALL_ENGINES = ["a b", "x'y", 'q"uote', "ünï€ødé", "#", "1st", "SELECT", "index"]
NAMES_SQL_ONLY = ["new\nline", "car\rriage", "tab\tbed", "bell\x07", "esc\x1b", "sep\u2028", "micro\u00b5"]


def test_awkward_column_names_are_quoted_or_refused(postgres):
    rng = np.random.default_rng(4)
    names = NAMES_ALL_ENGINES + NAMES_SQL_ONLY
    frame = pd.DataFrame({name: rng.normal(size=20) for name in names})
    frame.iloc[::5, 0] = np.nan
    tables = Tables(frame, postgres)
    rules = [Rule.dnf([[Literal(name, ">", 0.0), Literal(names[0], "not_nan")]]) for name in names]
    expected = np.array([rule.evaluate(frame) for rule in rules])
    for engine, got in tables.sql(rules).items():
        assert np.array_equal(got, expected), engine
    for rule, e in zip(rules, expected):
        assert np.array_equal(python_values(rule, frame), e)
    for rule, e, name in zip(rules, expected, names):
        if name in NAMES_ALL_ENGINES:
            assert np.array_equal(query_values(rule, frame), e), name
        else:  # pandas cannot read them between backticks: refused, naming the column and the way out
            with pytest.raises(ValueError, match="cannot be quoted in a pandas query") as caught:
                to_query(rule)
            assert repr(name) in str(caught.value) and "to_sql or to_python" in str(caught.value)


@pytest.mark.parametrize("name, message", [("", "empty"), ("nul\x00", "NUL"), ("bad\udc80", "not valid Unicode")])
def test_sql_refuses_names_no_engine_can_hold(name, message):
    with pytest.raises(ValueError, match=message):
        to_sql(Rule.dnf([[Literal(name, ">", 1.0)]]))
    if name:  # the same text as a category value
        with pytest.raises(ValueError, match=message):
            to_sql(Rule.dnf([[Literal("c", "==", name)]]))
    # an object Index: with pyarrow installed pandas stores column names as Arrow strings, which refuse surrogates
    frame = pd.DataFrame([[2.0], [0.0], [None]], columns=pd.Index([name], dtype=object))
    assert np.array_equal(python_values(Rule.dnf([[Literal(name, ">", 1.0)]]), frame), [True, False, False])


# ---------------------------------------------------------------------------
# The Python module on csv.DictReader rows, as the CLI reads the same file
# ---------------------------------------------------------------------------

CSV_TEXT = """amount,flag,num_flag,purpose,stamp,code
12.5,True,1,car,1700000000000000001,250
,False,0,,1700000000000000002,251
NA,True,,tv,1700000000000000003,
?,,1,"it's",1700000000000000000,250
null,False,0,car,1699999999999999999,252
n/a,True,1.0,edu,1700000000000000100,
NaN,False,0.0,tv,1700000000000000099,251
 7,True,1,car,1700000000000000001,250
3e1,False,0,other,1700000000000000002,253
-4,True,1,car,1700000000000000003,250
"""


def csv_rules() -> list[Rule]:
    t = float(1_700_000_000_000_000_001)
    return [
        Rule.dnf([[Literal("amount", ">", 10.0)], [Literal("flag", "is_true"), Literal("purpose", "!=", "car")]]),
        Rule.cnf([[Literal("num_flag", "is_false"), Literal("amount", "is_nan")], [Literal("purpose", "not_in", ["tv"])]]),
        Rule.dnf([[Literal("stamp", "<=", t)], [Literal("purpose", "is_nan")]]),
        Rule.dnf([[Literal("stamp", ">", t), Literal("flag", "is_false")], [Literal("num_flag", "is_true")]]),
        Rule.dnf([[Literal("code", "==", 250)], [Literal("code", "in", [252, 253]), Literal("amount", "<=", 0.0)]]),
        Rule.cnf([[Literal("code", "!=", 251)], [Literal("code", "not_nan")]]),
    ]


def test_python_export_on_csv_dictreader_rows_predicts_what_the_cli_predicts(tmp_path):
    """'True'/'False' flags, empty and NA-like cells, big integers as text (39 of 300 rows differed)."""
    path = tmp_path / "data.csv"
    path.write_text(CSV_TEXT)
    frame = read_features(path)  # what `rulemodels predict` and SavedModel.predict read
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    for rule in csv_rules():
        namespace: dict = {}
        exec(to_python(rule), namespace)
        got = [namespace["predict_row"](row) for row in rows]
        assert got == rule.evaluate(frame).astype(int).tolist(), str(rule)


def test_python_export_on_a_larger_csv_matches_the_cli(tmp_path):
    frame = make_mixed_frame(300, seed=7).drop(columns=["line\nbreak\ttab", "bool"])
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)  # NaN and None as empty cells, booleans as True/False
    read = read_features(path)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    pool = [lit for lit in LITERAL_POOL if lit.feature in read.columns]
    rules = [Rule.dnf([[lit]]) for lit in pool] + [Rule.dnf([pool[i : i + 3] for i in range(0, len(pool), 3)])]
    for rule in rules:
        namespace: dict = {}
        exec(to_python(rule), namespace)
        got = np.array([namespace["predict_row"](row) for row in rows], dtype=bool)
        wrong = np.flatnonzero(got != rule.evaluate(read))
        assert wrong.size == 0, f"{rule}: rows {wrong[:10].tolist()}"


def test_python_export_keeps_integers_exact_and_reads_other_text_as_missing():
    namespace: dict = {}
    exec(to_python(Rule.dnf([[Literal("n", "<=", float(2**53))], [Literal("n", "is_nan")]])), namespace)
    predict_row = namespace["predict_row"]
    assert predict_row({"n": 2**53 + 1}) == 0 and predict_row({"n": np.int64(2**53 + 1)}) == 0
    assert predict_row({"n": str(2**53 + 1)}) == 0 and predict_row({"n": str(2**53)}) == 1
    assert predict_row({"n": "abc"}) == 1  # not a number: missing, as predict reads it
    with pytest.raises(ValueError, match="'n': <object.*> is not a number"):
        predict_row({"n": object()})


# ---------------------------------------------------------------------------
# Rule lists (more than two classes): CASE WHEN ... THEN class ... ELSE default END
# ---------------------------------------------------------------------------


def list_sql_labels(rules: RuleList, tables: Tables) -> dict[str, list]:
    """Each engine's class for each row, from ``SELECT <CASE expression>``."""
    out = {}
    for name, run, table in (
        ("sqlite", lambda q: tables.sqlite.execute(q).fetchall(), "data"),
        ("duckdb", lambda q: tables.duckdb.execute(q).fetchall(), "data"),
        ("postgresql", lambda q: tables.postgres.execute(q).fetchall(), tables.pg_table),
    ):
        rows = run(f'SELECT {to_sql(rules)} FROM {table} ORDER BY "__row"')
        assert len(rows) == tables.n
        out[name] = [row[0] for row in rows]
    return out


def list_query_labels(rules: RuleList, frame: pd.DataFrame) -> list:
    """The class of each row from the per-class pandas expressions; each row must satisfy exactly one."""
    queries = to_query(rules)
    assert list(queries) == list(rules.classes)
    masks = np.array([np.asarray(frame.eval(text), dtype=bool) for text in queries.values()]).reshape(len(queries), len(frame))
    assert (masks.sum(axis=0) == 1).all(), "every row satisfies exactly one class's expression"
    for label, text in queries.items():  # DataFrame.query keeps the rows of that class
        kept = frame.reset_index(drop=True).query(text)
        assert np.array_equal(np.sort(kept.index.to_numpy()), np.flatnonzero(masks[list(queries).index(label)]))
    return [list(queries)[k] for k in masks.argmax(axis=0)]


def list_python_labels(rules: RuleList, frame: pd.DataFrame) -> list:
    namespace: dict = {}
    exec(compile(to_python(rules), "<exported rule list>", "exec"), namespace)
    assert namespace["CLASSES"] == list(rules.classes)
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
    return [namespace["predict_row"](row) for row in rows]


def assert_every_engine_agrees_on_lists(lists: list[RuleList], frame: pd.DataFrame, tables: Tables,
                                        expected: list[list] | None = None) -> None:
    """Every export of every list gives ``predict``'s class (label and type) on every row."""
    for k, rules in enumerate(lists):
        want = [label.item() if hasattr(label, "item") else label for label in
                (rules.predict(frame) if expected is None else expected[k])]
        got = {**list_sql_labels(rules, tables), "query": list_query_labels(rules, frame), "python": list_python_labels(rules, frame)}
        for engine, labels in got.items():
            wrong = [i for i, (w, g) in enumerate(zip(want, labels)) if w != g or type(w) is not type(g)]
            assert not wrong, f"{engine}: export of\n{rules}\ndiffers from predict on rows {wrong[:10]}: " \
                              f"{[(want[i], labels[i]) for i in wrong[:3]]}"


#: The literal pool without the column pandas cannot quote (its SQL and Python exports are tested above).
LIST_POOL = [lit for lit in LITERAL_POOL if lit.feature != "line\nbreak\ttab"]


def test_rule_lists_with_text_and_integer_labels_are_exact_on_every_engine(engine_mixed_frame, mixed_tables):
    pool = LIST_POOL
    lists = [
        RuleList([("it's", Rule.dnf([[pool[0]], [pool[5]]])), ('say "b"', Rule.cnf([[pool[2], pool[11]]]))], default="c"),
        RuleList([(2, Rule.dnf([[pool[1], pool[14]]])), (0, Rule.cnf([[pool[7]], [pool[16], pool[3]]]))], default=1),
        RuleList([(np.int64(7), Rule.dnf([]))], default=np.int64(-3)),  # a step that never holds
        RuleList([("first", Rule.cnf([])), ("never", Rule.dnf([[pool[0]]]))], default="nor"),  # claims every row
        RuleList([], default="only"),
        RuleList([(k, Rule.dnf([[lit]])) for k, lit in enumerate(pool[20:28])], default=99),
    ]
    assert_every_engine_agrees_on_lists(lists, engine_mixed_frame, mixed_tables)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["dnf", "cnf"]), st.lists(st.lists(st.sampled_from(LIST_POOL), max_size=3), max_size=3)),
                      max_size=4),
       text=st.booleans())
def test_random_rule_lists_are_exact_on_every_engine(steps, text, engine_mixed_frame, mixed_tables):
    labels = [f"class '{k}'" if text else k for k in range(len(steps) + 1)]
    rules = RuleList([(label, Rule(form, clauses)) for label, (form, clauses) in zip(labels, steps)], default=labels[-1])
    assert_every_engine_agrees_on_lists([rules], engine_mixed_frame, mixed_tables)


def three_classes(X: pd.DataFrame, y: pd.Series) -> np.ndarray:
    """The positive class split in two by the first column's median among the positives (the task of benchmarks/studies/multiclass.py)."""
    column = X.iloc[:, 0]
    median = column[y == 1].median()
    return np.where(y == 0, 0, np.where(column > median, 2, 1))


@pytest.mark.parametrize("name", list_datasets())
def test_learned_rule_lists_of_the_bundled_datasets_are_exact_on_every_engine(name, postgres):
    X, y = load_dataset(name)
    y3 = three_classes(X, y)
    fitted = [
        BooleanRuleClassifier(algorithm="scs", form=form, n_clauses=2, theta=0.01, n_thresholds=5).fit(X, labels)
        for form, labels in (("dnf", y3), ("cnf", np.array(["neg", "low", "high"], dtype=object)[y3]))
    ]
    for clf in fitted:
        assert isinstance(clf.rule_, RuleList) and clf.rule_.steps  # a list that decides something
    assert_every_engine_agrees_on_lists(
        [clf.rule_ for clf in fitted], X, Tables(X, postgres), expected=[list(clf.predict(X)) for clf in fitted],
    )
