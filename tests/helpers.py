"""Helpers shared by the test modules: the one module tests import besides the code under test.

Test modules import nothing from each other or from ``conftest.py``; what
several of them need lives here: the solver matrix's backend lookup, a
delegating backend for tests that count or break solves, hypothesis
strategies for rules, and the scikit-learn checks that the estimators are
expected to fail.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import os
import sqlite3
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

from rulemodels.rules import Literal, Rule, to_python, to_query, to_sql
from solvers import get_backend

#: Under CI (``CI=true``) a missing solver, PostgreSQL or psycopg fails a test instead of skipping it.
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


# ---------------------------------------------------------------------------
# The public API
# ---------------------------------------------------------------------------

#: The package faces whose ``__all__`` is the public API.
FACES = (
    "rulemodels", "rulemodels.rules", "rulemodels.data", "rulemodels.models", "rulemodels.algorithms",
    "rulemodels.experiments", "solvers",
)


def public_objects() -> Iterator[str]:
    """The qualified names of the public API, each once, in the order of the faces' ``__all__``: the classes
    and functions, and each class's public methods and properties defined in the class itself (and ``__init__``)."""
    seen: set[str] = set()
    for face in FACES:
        module = importlib.import_module(face)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            names = [f"{face}.{name}"]
            if inspect.isclass(obj):
                names += [
                    f"{face}.{name}.{member}" for member, value in vars(obj).items()
                    if (not member.startswith("_") or member == "__init__")
                    and (inspect.isfunction(value) or isinstance(value, property))
                ]
            for qualified in names:
                if qualified not in seen:
                    seen.add(qualified)
                    yield qualified


def public_object(qualified: str) -> tuple[Any, Any]:
    """The owner (the class of a method, the module of a function or class) and the object that ``qualified``
    names, looked up from its longest prefix that is an imported module."""
    parts = qualified.split(".")
    split = max(k for k in range(1, len(parts)) if ".".join(parts[:k]) in sys.modules)  # the longest module prefix
    owner: Any = None
    obj: Any = sys.modules[".".join(parts[:split])]
    for part in parts[split:]:
        owner, obj = obj, getattr(obj, part)
    return owner, obj


# ---------------------------------------------------------------------------
# Solvers
# ---------------------------------------------------------------------------


def require_backend(name: str):
    """The backend for ``name``; skip when absent locally, fail when absent in CI."""
    backend = get_backend(name, check_available=False)
    status = backend.available()
    if not status:
        message = f"solver {name} not available: {status.reason}"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return backend


class DelegatingBackend:
    """Implements the backend protocol by passing every call to ``inner``; subclasses override ``solve``."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = inner.name
        self.capabilities = inner.capabilities

    def available(self):
        return self.inner.available()

    def version(self):
        return self.inner.version()

    def route(self) -> str:
        return f"test wrapper around {self.inner.route()}"

    def release(self, model: Any) -> None:
        self.inner.release(model)

    def solve(self, model: Any, **kwargs: Any):
        return self.inner.solve(model, **kwargs)


# ---------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------

#: The scikit-learn estimator checks that BooleanRuleClassifier and BooleanRuleCV fail, and why.
EXPECTED_FAILED_CHECKS = {
    "check_sample_weight_equivalence_on_dense_data": (
        "the quantile thresholds are computed from the training rows themselves, so repeating a row "
        "(instead of weighting it) moves the thresholds and changes the literals"
    ),
}


# ---------------------------------------------------------------------------
# Hypothesis strategies for rules (defined where hypothesis is installed: the
# oldest-versions lane, bash dev.sh test-oldest, installs pytest only)
# ---------------------------------------------------------------------------

try:
    from hypothesis import strategies as st
except ImportError:
    st = None

if st is not None:

    def any_rule(literals: st.SearchStrategy[Literal]) -> st.SearchStrategy[Rule]:
        """A CNF or DNF of up to 4 clauses of up to 4 literals drawn from ``literals``."""
        clauses = st.lists(st.lists(literals, max_size=4), max_size=4)
        return st.builds(Rule, st.sampled_from(("cnf", "dnf")), clauses)


    @st.composite
    def raw_literal(draw: st.DrawFn) -> Literal:
        """A literal over the columns of ``raw_frame``: one of every kind."""
        kind = draw(st.sampled_from(("num", "cat", "flag", "nan")))
        if kind == "num":
            return Literal("num", draw(st.sampled_from(("<=", ">"))), draw(st.integers(-1, 5)))
        if kind == "cat":
            return Literal("cat", draw(st.sampled_from(("==", "!="))), draw(st.sampled_from("abcz")))
        if kind == "flag":
            return Literal("flag", draw(st.sampled_from(("is_true", "is_false"))))
        return Literal("num", draw(st.sampled_from(("is_nan", "not_nan"))))


    @st.composite
    def raw_frame(draw: st.DrawFn) -> pd.DataFrame:
        """Complete raw data (no missing values) with numeric, category and flag columns."""
        n = draw(st.integers(1, 30))
        return pd.DataFrame(
            {
                "num": draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)),
                "cat": draw(st.lists(st.sampled_from("abc"), min_size=n, max_size=n)),
                "flag": draw(st.lists(st.sampled_from((0, 1)), min_size=n, max_size=n)),
            }
        )


def learn_once(problem, backend, *, algorithm="am", n_clauses=2, theta=0.01, max_iter=100, allow_disable=False,
               disable_cost=None, **options):
    """One driver run on an LP-solution cache of its own: ``(FitResult, WorkingData)``.

    The tests' stand-in for the removed ``learn_cnf``: the library's
    :func:`~rulemodels.algorithms.learn` takes every setting explicitly, the
    values here are the estimator's defaults.
    """
    from rulemodels.algorithms import LPSolutionCache, WorkingData, learn

    data = WorkingData.from_problem(problem, allow_disable=allow_disable, disable_cost=disable_cost)
    with LPSolutionCache(data, backend) as cache:
        result = learn(cache, algorithm=algorithm, n_clauses=n_clauses, theta=theta, max_iter=max_iter, **options)
    return result, data


# ---------------------------------------------------------------------------
# Data read in chunks (Parquet, Dask)
# ---------------------------------------------------------------------------


def mixed_frame(n: int = 1500, seed: int = 0) -> tuple[pd.DataFrame, Any]:
    """A frame with numeric (continuous, integer with ties, 0/1 flag), text and category columns, missing
    values in three of them, and noisy 0/1 labels of a two-term rule over them."""
    import numpy as np

    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "a": rng.normal(size=n),
        "b": rng.integers(0, 40, n).astype(float),
        "flag": rng.integers(0, 2, n),
        "colour": rng.choice(["red", "green", "blue"], n).astype(object),
        "grade": pd.Categorical(rng.choice(["A", "B", "C", "D"], n)),
        "d": rng.normal(size=n).round(2),
    })
    frame.loc[rng.random(n) < 0.1, "d"] = np.nan
    frame.loc[rng.random(n) < 0.05, "colour"] = None
    frame.loc[rng.random(n) < 0.05, "b"] = np.nan
    y = (((frame["a"] > 0.3) & (frame["colour"] != "red")) | (frame["b"] < 8) | (frame["grade"] == "D") & (frame["flag"] == 1))
    y = np.where(rng.random(n) < 0.1, ~y.to_numpy(), y.to_numpy()).astype(int)
    return frame, y


def write_parquet_parts(frame: pd.DataFrame, directory: Any, *, n_files: int = 3, row_group_size: int = 200) -> Any:
    """``frame`` written as ``n_files`` Parquet files (in row order) of ``row_group_size``-row groups into ``directory``."""
    import numpy as np

    directory.mkdir(parents=True, exist_ok=True)
    for k, rows in enumerate(np.array_split(np.arange(len(frame)), n_files)):
        frame.iloc[rows].to_parquet(directory / f"part-{k:03d}.parquet", row_group_size=row_group_size, index=False)
    return directory


def broken_constraints(rule, *, monotone=None, forbidden=(), max_literals=None) -> list[str]:
    """The test's own reading of the constraints: every literal of ``rule`` that breaks one, and every clause too long."""
    rising, falling = (">", "is_true"), ("<=", "is_false")
    found = []
    for clause in rule.clauses:
        if max_literals is not None and len(clause.literals) > max_literals:
            found.append(f"{len(clause.literals)} literals in {clause}")
        for literal in clause.literals:
            if literal.feature in forbidden:
                found.append(f"forbidden {literal}")
            sign = (monotone or {}).get(literal.feature)
            if sign == 1 and literal.op in falling or sign == -1 and literal.op in rising:
                found.append(f"against the direction: {literal}")
    return found


# -- every export of a rule, run on its engine (tests/rules/test_export.py, test_simplify.py) --------------


def sql_predictions(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    with sqlite3.connect(":memory:") as connection:
        frame.reset_index(drop=True).rename_axis("row_id").to_sql("data", connection, index=True)
        query = f'SELECT CASE WHEN {to_sql(rule)} THEN 1 ELSE 0 END FROM data ORDER BY "row_id"'
        return np.array([value for (value,) in connection.execute(query)], dtype=bool)


def duckdb_predictions(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    duckdb = __import__("duckdb")
    data = frame.reset_index(drop=True).copy()
    for column in data.columns:  # DuckDB keeps NaN as a float value: missing values are NULL in SQL
        if data[column].dtype.kind == "f":
            data[column] = data[column].astype(object).where(data[column].notna(), None)
    connection = duckdb.connect()
    connection.register("data", data)
    rows = connection.execute(f"SELECT CASE WHEN {to_sql(rule)} THEN 1 ELSE 0 END FROM data").fetchall()
    return np.array([value for (value,) in rows], dtype=bool)


def query_predictions(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    expression = to_query(rule)
    values = np.asarray(frame.eval(expression, engine="python"), dtype=bool)
    if values.ndim == 0:
        values = np.full(len(frame), bool(values))
    kept = frame.query(expression, engine="python").index
    assert np.array_equal(frame.index.isin(kept), values)  # query keeps exactly the rows eval calls true
    return values


def python_predictions(rule: Rule, frame: pd.DataFrame) -> np.ndarray:
    namespace: dict = {}
    exec(compile(to_python(rule), "<exported rule>", "exec"), namespace)
    assert namespace["FEATURES"] == rule.features
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")  # plain values, None for missing
    raw = frame.to_dict("records")  # with NaN floats as pandas gives them
    with_none = np.array([namespace["predict_row"](row) for row in rows], dtype=int)
    with_nan = np.array([namespace["predict_row"](row) for row in raw], dtype=int)
    assert np.array_equal(with_none, with_nan)
    assert set(np.unique(with_none)) <= {0, 1}
    return with_none.astype(bool)


EXPORTS = {"sql": sql_predictions, "query": query_predictions, "python": python_predictions}


# The exact MIP's tiny problems and their brute-force optima (tests/algorithms/test_exact*.py)


def tiny_data(seed: int = 0, n: int = 10, d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (n, d))
    y = rng.integers(0, 2, n)
    y[0], y[1] = 1, 0
    return A, y


@functools.cache
def exact_brute_force(seed: int, form: str, formulation: str, R: int, theta: float, weighted: bool, disable_cost) -> float:
    """The exact MIP tests' brute force: the optimum of the CNF objective on the working data of ``form`` (negated for a DNF)."""
    from rulemodels.algorithms.exact import prepare_problem
    from rulemodels.models import hamming_objective, zero_one_objective

    A, y = tiny_data(seed)
    weights = sample_weights(seed) if weighted else None
    problem, _ = prepare_problem(A, y, form=form, sample_weight=weights)
    A_work, y_work = problem.A.toarray(), problem.y
    objective = {"zero_one": zero_one_objective, "hamming": hamming_objective}[formulation]
    w0_choices = [None] if disable_cost is None else [np.array(b, float) for b in itertools.product((0, 1), repeat=R)]
    best = np.inf
    for bits in itertools.product((0, 1), repeat=A.shape[1] * R):
        W = np.array(bits, float).reshape(A.shape[1], R)
        for w0 in w0_choices:
            extra = {} if w0 is None else {"w0": w0, "disable_cost": disable_cost}
            best = min(best, objective(A_work, y_work, W, theta, sample_weight=weights, **extra))
    return float(best)


def sample_weights(seed: int) -> np.ndarray:
    rng = np.random.default_rng(100 + seed)
    weights = rng.choice([0.0, 0.5, 1.0, 2.0], size=10)
    weights[2] = 0.0
    return weights
