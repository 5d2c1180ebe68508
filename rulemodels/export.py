"""A learned rule as code that runs without rulemodels: SQL, a pandas query, a Python module.

Every export has the missing-value semantics of :meth:`rulemodels.rules.Literal.evaluate`,
so it predicts exactly what :meth:`rulemodels.rules.Rule.evaluate` predicts on every row:

- a missing value (SQL ``NULL``; NaN or None in pandas and Python) makes every literal
  on its column false, except ``x is missing``;
- a category not among a literal's values makes ``x == v`` and ``x in {..}`` false and
  ``x != v`` and ``x not in {..}`` true;
- an empty DNF term is true and an empty CNF clause false; a DNF without terms is
  false and a CNF without clauses true.

Each literal is written so that it is never NULL (SQL) or NaN-dependent (pandas): a
threshold or category test is guarded by an explicit "present" test, so the rule is
two-valued, as the estimator's.

>>> from rulemodels.rules import Literal, Rule
>>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("job", "in", ["a", "b"])]])
>>> print(to_sql(rule))
(("age" IS NOT NULL AND "age" > 50.0) AND ("job" IS NOT NULL AND "job" IN ('a', 'b')))
>>> print(to_query(rule))
((`age` > 50.0) & ((`job` == `job`) & (`job` in ['a', 'b'])))

This module depends on the standard library and :mod:`rulemodels.rules` only.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rulemodels.rules import Clause, Literal, Rule

__all__ = ["to_python", "to_query", "to_sql"]

# ---------------------------------------------------------------------------
# Constants of each language
# ---------------------------------------------------------------------------


def _number(value: float | int) -> str:
    """A finite number as every target language reads it (``repr``: ``142.0``, ``1e-05``, ``3``)."""
    if isinstance(value, float) and not math.isfinite(value):  # pragma: no cover - Literal forbids it
        raise ValueError(f"cannot export the non-finite value {value!r}")
    return repr(value)


def _sql_constant(value: object) -> str:
    """A category value as an SQL literal: strings quoted with doubled quotes, booleans as TRUE/FALSE."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return _number(value)  # type: ignore[arg-type]


def _python_constant(value: object) -> str:
    """A category value as a Python (and pandas query) literal."""
    if isinstance(value, bool | str):
        return repr(value)
    return _number(value)  # type: ignore[arg-type]


def sql_identifier(name: str) -> str:
    """A column name as a quoted SQL identifier (standard SQL: double quotes, doubled inside)."""
    if "\x00" in name:
        raise ValueError(f"column name {name!r} contains a NUL character, which SQL identifiers cannot hold")
    return '"' + name.replace('"', '""') + '"'


def query_identifier(name: str) -> str:
    """A column name quoted with backticks for ``DataFrame.query``/``eval``."""
    if "`" in name:
        raise ValueError(
            f"column name {name!r} contains a backtick, which pandas' query syntax cannot quote; "
            "rename the column, or use to_sql or to_python"
        )
    return f"`{name}`"


# ---------------------------------------------------------------------------
# SQL
# ---------------------------------------------------------------------------


def _sql_literal(lit: Literal) -> str:
    column = sql_identifier(lit.feature)
    present = f"{column} IS NOT NULL"
    op, value = lit.op, lit.value
    if op == "is_nan":
        return f"({column} IS NULL)"
    if op == "not_nan":
        return f"({present})"
    if op in ("<=", ">"):
        test = f"{column} {op} {_number(value)}"  # type: ignore[arg-type]
    elif op in ("is_true", "is_false"):
        test = f"{column} = {1 if op == 'is_true' else 0}"
    elif op in ("==", "!="):
        test = f"{column} {'=' if op == '==' else '<>'} {_sql_constant(value)}"
    else:  # in, not_in
        members = ", ".join(_sql_constant(v) for v in value)  # type: ignore[union-attr]
        test = f"{column} {'IN' if op == 'in' else 'NOT IN'} ({members})"
    return f"({present} AND {test})"


def to_sql(rule: Rule) -> str:
    """The rule as a boolean SQL expression over double-quoted column identifiers.

    It never evaluates to NULL: every literal is false where its column is NULL
    (except ``IS NULL`` for ``x is missing``), as in :meth:`Rule.evaluate`. The
    syntax is standard SQL (``IS NULL``, ``IN``, ``<>``, ``TRUE``/``FALSE``), read
    by SQLite (3.23+), DuckDB and PostgreSQL. Use it in a ``WHERE`` clause, or as
    ``CASE WHEN <expr> THEN 1 ELSE 0 END``. Missing values must be stored as NULL
    (pandas' ``to_sql`` writes NaN as NULL).
    """
    return _combine(rule, _sql_literal, and_=" AND ", or_=" OR ", true="TRUE", false="FALSE")


# ---------------------------------------------------------------------------
# pandas query
# ---------------------------------------------------------------------------


def _query_literal(lit: Literal) -> str:
    column = query_identifier(lit.feature)
    present = f"({column} == {column})"  # False exactly where the value is missing (NaN, None, NaT)
    op, value = lit.op, lit.value
    if op == "is_nan":
        return f"({column} != {column})"
    if op == "not_nan":
        return present
    if op in ("<=", ">"):
        return f"({column} {op} {_number(value)})"  # type: ignore[arg-type]  # NaN compares False
    if op in ("is_true", "is_false"):
        return f"({column} == {1 if op == 'is_true' else 0})"
    if op == "==":
        return f"({column} == {_python_constant(value)})"
    if op == "!=":
        return f"({present} & ({column} != {_python_constant(value)}))"
    members = "[" + ", ".join(_python_constant(v) for v in value) + "]"  # type: ignore[union-attr]
    if op == "in":
        return f"({present} & ({column} in {members}))"
    return f"({present} & ({column} not in {members}))"


def to_query(rule: Rule) -> str:
    """The rule as an expression for ``pandas.DataFrame.query`` and ``DataFrame.eval``.

    ``frame.query(rule.to_query())`` keeps the rows where the rule is true and
    ``frame.eval(rule.to_query())`` is the rule's value per row. Column names are
    quoted with backticks; ``x == x`` tests that a value is present (NaN and None
    are not equal to themselves). A rule without literals compares the frame's
    ``index`` with itself. Missing values must be NaN or None (not pandas' nullable
    ``pd.NA``, which a boolean mask cannot hold).
    """
    return _combine(rule, _query_literal, and_=" & ", or_=" | ", true="(index == index)", false="(index != index)")


# ---------------------------------------------------------------------------
# Shared structure
# ---------------------------------------------------------------------------


def _combine(rule: Rule, literal: Callable[[Literal], str], *, and_: str, or_: str, true: str, false: str) -> str:
    """Join the rule's literals with the connectives of one language."""
    inner, outer = (and_, or_) if rule.form == "dnf" else (or_, and_)
    empty_clause, empty_rule = (true, false) if rule.form == "dnf" else (false, true)
    if not rule.clauses:
        return empty_rule
    parts = [_clause(clause, literal, inner, empty_clause) for clause in rule.clauses]
    return parts[0] if len(parts) == 1 else "(" + outer.join(parts) + ")"


def _clause(clause: Clause, literal: Callable[[Literal], str], joiner: str, empty: str) -> str:
    if not clause.literals:
        return empty
    items = [literal(lit) for lit in clause.literals]
    return items[0] if len(items) == 1 else "(" + joiner.join(items) + ")"


# ---------------------------------------------------------------------------
# Python module
# ---------------------------------------------------------------------------

_PYTHON_HEADER = '''"""A two-level Boolean rule exported by rulemodels: no dependencies.

RULE is the rule as rulemodels prints it. predict_row(row) is 1 where the
rule is true, 0 elsewhere. A missing value (None, NaN, pandas' NA) makes every test on its column false, except
"is missing"; a category not listed makes "==" and "in" false, "!=" and
"not in" true.
"""

from typing import Mapping

RULE = {text!r}
FEATURES = {features!r}


def _missing(value):
    """None, NaN (any float type) and pandas' NA or NaT."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except (TypeError, ValueError):  # pandas' NA refuses bool()
        return True


def _number(value):
    return float(value)


def predict_row(row: Mapping[str, object]) -> int:
    """1 if the rule is true on ``row`` (a mapping from column name to value), else 0."""
'''


def _python_literal(lit: Literal) -> str:
    value = f"row[{lit.feature!r}]"
    present = f"not _missing({value})"
    op = lit.op
    if op == "is_nan":
        return f"_missing({value})"
    if op == "not_nan":
        return present
    if op in ("<=", ">"):
        return f"({present} and _number({value}) {op} {_number(lit.value)})"  # type: ignore[arg-type]
    if op in ("is_true", "is_false"):
        return f"({present} and _number({value}) == {1 if op == 'is_true' else 0})"
    if op in ("==", "!="):
        return f"({present} and {value} {op} {_python_constant(lit.value)})"
    members = "(" + "".join(f"{_python_constant(v)}, " for v in lit.value).rstrip() + ")"  # type: ignore[union-attr]
    return f"({present} and {value} {'in' if op == 'in' else 'not in'} {members})"


def to_python(rule: Rule) -> str:
    """The source of a dependency-free Python module defining ``predict_row(row) -> int``.

    ``row`` is any mapping from column name to value (a ``dict``, a
    ``csv.DictReader`` row with numbers as text, ``frame.iloc[i].to_dict()``, a
    ``pandas.Series``); thresholds convert the value with ``float``. The module
    also defines ``FEATURES``, the columns it reads.
    """
    source = _PYTHON_HEADER.format(text=f"{rule.form.upper()}: {rule}", features=rule.features)
    body = _combine(rule, _python_literal, and_=" and ", or_=" or ", true="True", false="False")
    return source + f"    return int({body})\n"
