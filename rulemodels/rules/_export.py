"""A learned rule as code that runs without rulemodels: SQL, a pandas query, a Python module.

Every export has the missing-value semantics of :meth:`rulemodels.rules.Literal.evaluate`,
so it predicts exactly what :meth:`rulemodels.rules.Rule.evaluate` predicts on every row:

- a missing value (SQL ``NULL``; NaN or None in pandas and Python) makes every literal
  on its column false, except ``x is missing``;
- a category not among a literal's values makes ``x == v`` and ``x in {..}`` false and
  ``x != v`` and ``x not in {..}`` true;
- an empty DNF term is true and an empty CNF clause false; a DNF without terms is
  false and a CNF without clauses true.

Each literal is written so that it is never NULL (SQL) or <NA> (pandas, also on nullable dtypes): a
threshold or category test is guarded by an explicit "present" test, so the rule is
two-valued, as the estimator's. Further promises, each checked on SQLite, DuckDB and a
real PostgreSQL server by tests/rules/test_export_engines.py:

- integer columns are compared exactly, also beyond 2**53 (a threshold ``t`` with
  ``|t| >= 2**53`` is an integer and is written as one, so no engine reads it as a float);
- a flag is tested as ``"x" = '1'`` in SQL: the quoted constant takes the column's type,
  so it is right for a BOOLEAN and for a 0/1 number column (and false on 0.5 or 2);
- a clause of thousands of literals is written as a balanced tree of groups of at most
  eight, so no engine's nesting limit is reached;
- a column name an engine cannot quote is refused with a ValueError that names it.

>>> from rulemodels.rules import Literal, Rule, to_query, to_sql
>>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("job", "in", ["a", "b"])]])
>>> print(to_sql(rule))
(("age" IS NOT NULL AND "age" + 0 > 50.0) AND ("job" IS NOT NULL AND "job" IN ('a', 'b')))
>>> print(to_query(rule))
((`age`.notna() & (`age` > 50.0)) & (`job`.notna() & (`job` in ['a', 'b'])))

This module depends on the standard library only (and on pandas, to check that pandas
can read a column name in a query): it reads the attributes of the rule values and
imports :mod:`rulemodels.rules._rule` for annotations only, so that module can import
this one for :meth:`Rule.to_sql` and the like without a cycle.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast, overload

if TYPE_CHECKING:  # annotations only: rulemodels.rules._rule imports this module for Rule.to_sql & co.
    from typing_extensions import TypeIs  # typing.TypeIs from Python 3.13 on

    from rulemodels.rules._rule import Clause, Literal, Rule
    from rulemodels.rules._rule_list import RuleList

__all__ = ["to_python", "to_query", "to_sql"]

# ---------------------------------------------------------------------------
# Constants of each language
# ---------------------------------------------------------------------------


#: Floats from this magnitude on are integers, and not every integer is a float.
_EXACT_INTEGER_FLOAT = 2.0**53


def _number(value: float | int) -> str:
    """A finite number as every target language reads it exactly against integer and float columns.

    ``repr`` (``142.0``, ``1e-05``, ``3``) below 2**53: every engine reads it as
    the same double, and comparing an integer with a double below 2**53 in
    floating point gives the exact answer. From 2**53 on, a float is an
    integer and is written as its exact digits (``1.5e+18`` is written
    ``1500000000000000000``): DuckDB reads exponent notation as DOUBLE and
    would round a BIGINT column to it, pandas would compare an int64 column
    in float64; an integer constant is compared exactly by every engine.
    """
    if isinstance(value, float) and not math.isfinite(value):  # pragma: no cover - Literal forbids it
        raise ValueError(f"cannot export the non-finite value {value!r}")
    if isinstance(value, float) and abs(value) >= _EXACT_INTEGER_FLOAT:
        return str(int(value))
    return repr(value)


def _check_text(text: str, what: str) -> None:
    """Refuse text that no SQL engine can hold: a NUL character, or a lone surrogate (not UTF-8)."""
    if "\x00" in text:
        raise ValueError(
            f"{what} {text!r} contains a NUL character, which SQL text cannot hold; "
            "rename or recode it, or use to_python"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            f"{what} {text!r} is not valid Unicode text (a lone surrogate, from decoding bytes with "
            "errors='surrogateescape'): decode the data with its real encoding, or use to_python"
        ) from None


def _sql_constant(value: object) -> str:
    """A category value as an SQL literal: strings quoted with doubled quotes, booleans as TRUE/FALSE."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        _check_text(value, "category value")
        return "'" + value.replace("'", "''") + "'"
    return _number(value)  # type: ignore[arg-type]


def _python_constant(value: object) -> str:
    """A category value as a Python (and pandas query) literal."""
    if isinstance(value, bool | str):
        return repr(value)
    return _number(value)  # type: ignore[arg-type]


def sql_identifier(name: str) -> str:
    """A column name as a quoted SQL identifier (standard SQL: double quotes, doubled inside).

    Any text is quoted (newlines, tabs and quotes included) except the empty
    name, which standard SQL forbids (``""`` is an error in PostgreSQL and a
    string constant in SQLite), a NUL character and a lone surrogate.
    """
    if name == "":
        raise ValueError(
            "a column name is empty (''), which SQL cannot name: rename the column "
            "(e.g. X.rename(columns={'': 'unnamed'})) before learning, or use to_python"
        )
    _check_text(name, "column name")
    return '"' + name.replace('"', '""') + '"'


def query_identifier(name: str) -> str:
    """A column name quoted with backticks for ``DataFrame.query``/``eval``.

    pandas cannot read every name between backticks: a backtick, control
    characters (newline, carriage return, tab, NUL, ...), line separators, and
    characters that Python rewrites in names (NFKC: ``µ``, ``ª``, ...) give a
    query that fails or reads another column. Such a name is refused with a
    ValueError; the check runs the quoted name through ``DataFrame.eval``.
    """
    if "`" in name:
        raise ValueError(
            f"column name {name!r} contains a backtick, which pandas' query syntax cannot quote; "
            "rename the column, or use to_sql or to_python"
        )
    if not _pandas_reads_name(name):
        raise ValueError(
            f"column name {name!r} cannot be quoted in a pandas query: pandas cannot read it between "
            "backticks (control characters such as newline, carriage return, tab or NUL, line separators, "
            "and characters Python rewrites in names such as 'µ' cannot be quoted); rename the column "
            "before learning, or use to_sql or to_python"
        )
    return f"`{name}`"


@functools.lru_cache(maxsize=4096)
def _pandas_reads_name(name: str) -> bool:
    """Whether ``DataFrame.eval`` reads the backtick-quoted ``name`` as that column."""
    import pandas as pd

    frame = pd.DataFrame({name: [1.0, math.nan]})
    quoted = f"`{name}`"
    try:
        values = frame.eval(f"{quoted} == {quoted}", engine="python")
    except Exception:
        return False
    return [bool(v) for v in values] == [True, False]


# ---------------------------------------------------------------------------
# SQL
# ---------------------------------------------------------------------------


def _sql_literal(lit: Literal, cast: bool = True) -> str:
    column = sql_identifier(lit.feature)
    present = f"{column} IS NOT NULL"
    op, value = lit.op, lit.value
    if op == "is_nan":
        return f"({column} IS NULL)"
    if op == "not_nan":
        return f"({present})"
    if op in ("<=", ">"):
        # compared as numbers also where the column holds text (SQLite's CSV .import stores every column as
        # TEXT, and would compare '1249.8' > 800.0 as text): "+ 0" makes SQLite read the text as a number, and
        # keeps a number column's own type (exact integers beyond 2**53) in every engine
        number = f"{column} + 0" if cast else column
        test = f"{number} {op} {_number(value)}"  # type: ignore[arg-type]
    elif op in ("is_true", "is_false"):
        # A quoted constant takes the column's type: TRUE/FALSE for a BOOLEAN column
        # (PostgreSQL refuses boolean = 1), the number 1/0 for a numeric one.
        test = f"{column} = '{1 if op == 'is_true' else 0}'"
    elif op in ("==", "!="):
        test = f"{column} {'=' if op == '==' else '<>'} {_sql_constant(value)}"
    else:  # in, not_in
        members = ", ".join(_sql_constant(v) for v in _members(value))
        test = f"{column} {'IN' if op == 'in' else 'NOT IN'} ({members})"
    return f"({present} AND {test})"


def to_sql(rule: Rule | RuleList, *, cast: bool = True) -> str:
    """The rule as a boolean SQL expression over double-quoted column identifiers.

    It never evaluates to NULL: every literal is false where its column is NULL
    (except ``IS NULL`` for ``x is missing``), as in :meth:`Rule.evaluate`. The
    syntax is standard SQL (``IS NULL``, ``IN``, ``<>``, ``TRUE``/``FALSE``), read
    by SQLite (3.23+), DuckDB and PostgreSQL (all three tested). Use it in a
    ``WHERE`` clause, or as ``CASE WHEN <expr> THEN 1 ELSE 0 END``. With
    ``cast=True`` (the default) a threshold compares ``"x" + 0``: a number
    column keeps its type (integers stay exact), and SQLite reads numbers
    stored as text (a CSV file loaded with its ``.import``, which makes every
    column TEXT) as numbers, as :meth:`Rule.evaluate` does, where it would
    otherwise compare them as text (DuckDB and PostgreSQL refuse to compare
    text with a number: an error, never a silent disagreement). SQLite reads
    a text cell as the number at its start, 0 if none: ``'inf'``, ``'nan'``
    and ``'abc'`` as 0, ``'1_000'`` as 1, where ``predict`` reads infinity,
    missing and missing; the deployment guide gives the statements that store
    such cells as ``predict`` reads them.
    ``cast=False`` writes ``"x" > 50.0``, which an index on ``x`` can serve,
    for tables whose numeric columns have numeric types. Missing values must be
    stored as NULL: pandas' ``to_sql`` writes NaN as NULL, but ``.import``
    stores an empty cell as ``''``, which SQLite casts to 0; set them to NULL
    first (``UPDATE t SET x = NULL WHERE x = ''`` for each column). A flag
    ``"x" = '1'`` on a SQLite column declared without a type compares text and is false.

    Parameters
    ----------
    rule : Rule or RuleList
        The rule to write; a rule list becomes a ``CASE WHEN ... END`` expression.
    cast : bool, default=True
        Compare thresholds on ``"x" + 0`` (see above); False compares ``"x"`` itself.

    Returns
    -------
    str
        The SQL expression; for a rule list, a ``CASE WHEN ... END`` expression giving the class label.

    Examples
    --------
    >>> from rulemodels.rules import Literal, Rule, to_sql
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("bmi", "<=", 30.0)]])
    >>> to_sql(rule)
    '(("age" IS NOT NULL AND "age" + 0 > 50.0) AND ("bmi" IS NOT NULL AND "bmi" + 0 <= 30.0))'
    >>> to_sql(rule, cast=False)
    '(("age" IS NOT NULL AND "age" > 50.0) AND ("bmi" IS NOT NULL AND "bmi" <= 30.0))'
    """
    if _is_rule_list(rule):
        return _rule_list_sql(rule, cast)
    return _combine(rule, functools.partial(_sql_literal, cast=cast), and_=" AND ", or_=" OR ", true="TRUE", false="FALSE")


def _is_rule_list(rule: Rule | RuleList) -> TypeIs[RuleList]:
    """Whether ``rule`` is a :class:`~rulemodels.rules.RuleList` (read by its attributes: no import of the class)."""
    return hasattr(rule, "steps") and hasattr(rule, "default")


def _members(value: object) -> tuple[object, ...]:
    """The categories of a set literal's value (``in``/``not_in``), which :class:`Literal` stores as a tuple."""
    return cast("tuple[object, ...]", value)


def _sql_label(label: object) -> str:
    """A class label as an SQL constant: text quoted (quotes doubled), numbers as numbers, booleans TRUE/FALSE."""
    if isinstance(label, str):
        _check_text(label, "class label")
    return _sql_constant(label)


def _rule_list_sql(rules: RuleList, cast: bool) -> str:
    """``CASE WHEN <rule 1> THEN <class 1> ... ELSE <default> END``: each step rule is the two-valued
    expression of :func:`to_sql`, so a NULL never falls through to another branch than in ``predict``."""
    default = _sql_label(rules.default)
    if not rules.steps:
        return default
    whens = " ".join(f"WHEN {to_sql(rule, cast=cast)} THEN {_sql_label(label)}" for label, rule in rules.steps)
    return f"CASE {whens} ELSE {default} END"


# ---------------------------------------------------------------------------
# pandas query
# ---------------------------------------------------------------------------


def _query_literal(lit: Literal) -> str:
    column = query_identifier(lit.feature)
    # True exactly where a value is present: NaN, None, NaT and pd.NA are missing. Every test is guarded by it, since
    # a comparison with pd.NA (a nullable or pyarrow-backed column) is pd.NA, which `False &` turns into False
    present = f"{column}.notna()"
    op, value = lit.op, lit.value
    if op == "is_nan":
        return f"{column}.isna()"
    if op == "not_nan":
        return present
    if op in ("<=", ">"):
        return f"({present} & ({column} {op} {_number(value)}))"  # type: ignore[arg-type]
    if op in ("is_true", "is_false"):
        return f"({present} & ({column} == {1 if op == 'is_true' else 0}))"
    if op == "==":
        return f"({present} & ({column} == {_python_constant(value)}))"
    if op == "!=":
        return f"({present} & ({column} != {_python_constant(value)}))"
    members = "[" + ", ".join(_python_constant(v) for v in _members(value)) + "]"
    if op == "in":
        return f"({present} & ({column} in {members}))"
    return f"({present} & ({column} not in {members}))"


@overload
def to_query(rule: Rule) -> str: ...
@overload
def to_query(rule: RuleList) -> dict[object, str]: ...
def to_query(rule: Rule | RuleList) -> str | dict[object, str]:
    """The rule as an expression for ``pandas.DataFrame.query`` and ``DataFrame.eval``.

    ``frame.query(rule.to_query())`` keeps the rows where the rule is true and
    ``frame.eval(rule.to_query())`` is the rule's value per row. Column names are
    quoted with backticks; ``x.notna()`` tests that a value is present and
    guards every other test of ``x``, so a missing value (NaN, None, NaT, or
    the ``pd.NA`` of a nullable ``Int64``, ``Float64``, ``boolean`` or
    ``string`` column or of a pyarrow-backed one) makes it false, and the
    expression is ``True`` or ``False`` on every row, never ``<NA>``. A
    constant (a rule or clause without literals) is ``index.duplicated() |
    ~index.duplicated()`` (true on every row) or its ``&`` (false): a boolean
    per row whatever the index holds (NaN, pd.NA, a MultiIndex), also when a
    column is named ``index``. With nullable or pyarrow-backed columns pass
    ``engine="python"``: pandas' numexpr engine (its default when numexpr is
    installed) is made for numpy dtypes.

    Parameters
    ----------
    rule : Rule or RuleList
        The rule to write; a rule list gives ``{class: expression}``.

    Returns
    -------
    str or dict
        The expression (a ``str``); for a rule list, a dict from each class label to the
        expression of the rows predicted that class.

    Examples
    --------
    >>> import pandas as pd
    >>> from rulemodels.rules import Literal, Rule, to_query
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("bmi", "<=", 30.0)]])
    >>> to_query(rule)
    '((`age`.notna() & (`age` > 50.0)) & (`bmi`.notna() & (`bmi` <= 30.0)))'
    >>> frame = pd.DataFrame({"age": [60, 40], "bmi": [25.0, 25.0]})
    >>> frame.eval(to_query(rule)).tolist()
    [True, False]
    """
    if _is_rule_list(rule):
        return _rule_list_queries(rule)
    return _combine(rule, _query_literal, and_=" & ", or_=" | ", true=_QUERY_TRUE, false=_QUERY_FALSE)


def _rule_list_queries(rules: RuleList) -> dict[object, str]:
    """One expression per class of a rule list, in the list's order (steps, then the default).

    A pandas expression is a boolean per row and cannot give a label, so a list
    is exported as ``{class: expression}``: the expression of step k is "no
    earlier step holds and step k's rule holds", the default's "no step holds".
    Every row satisfies exactly one of them, the one of the class ``predict``
    gives it: ``frame.query(queries[c])`` selects the rows predicted ``c``, and
    ``np.select([frame.eval(q) for q in queries.values()], list(queries))`` is
    ``predict``.
    """
    rules_text = [to_query(rule) for rule in rules.rules]
    queries: dict[object, str] = {}
    for k, (label, _) in enumerate(rules.steps):
        queries[label] = _join([f"~{text}" for text in rules_text[:k]] + [rules_text[k]], " & ")
    queries[rules.default] = _join([f"~{text}" for text in rules_text], " & ") if rules_text else _QUERY_TRUE
    return queries


_QUERY_TRUE = "(index.duplicated() | ~index.duplicated())"
_QUERY_FALSE = "(index.duplicated() & ~index.duplicated())"


# ---------------------------------------------------------------------------
# Shared structure
# ---------------------------------------------------------------------------


#: Most operands joined flat by one connective; longer lists become groups of groups.
_GROUP = 8


def _combine(rule: Rule, literal: Callable[[Literal], str], *, and_: str, or_: str, true: str, false: str) -> str:
    """Join the rule's literals with the connectives of one language."""
    inner, outer = (and_, or_) if rule.form == "dnf" else (or_, and_)
    empty_clause, empty_rule = (true, false) if rule.form == "dnf" else (false, true)
    if not rule.clauses:
        return empty_rule
    return _join([_clause(clause, literal, inner, empty_clause) for clause in rule.clauses], outer)


def _clause(clause: Clause, literal: Callable[[Literal], str], joiner: str, empty: str) -> str:
    if not clause.literals:
        return empty
    return _join([literal(lit) for lit in clause.literals], joiner)


def _join(items: Sequence[str], joiner: str) -> str:
    """``items`` joined by ``joiner`` as a balanced tree: flat groups of at most :data:`_GROUP`.

    A flat ``a AND b AND c ...`` is parsed as a chain as deep as it is long:
    SQLite stops at depth 1000, pandas' evaluator recurses once per operand
    (RecursionError near 400). Groups of groups keep the depth logarithmic
    (5,000 operands: 5 levels), and lists of up to eight read as before.
    """
    if len(items) == 1:
        return items[0]
    while len(items) > _GROUP:
        items = [_join(items[i : i + _GROUP], joiner) for i in range(0, len(items), _GROUP)]
    return "(" + joiner.join(items) + ")"


# ---------------------------------------------------------------------------
# Python module
# ---------------------------------------------------------------------------

_PYTHON_HEADER = """\"\"\"A two-level Boolean rule exported by rulemodels: no dependencies.

RULE is the rule as rulemodels prints it. predict_row(row) is 1 where the
rule is true, 0 elsewhere; row maps column names to values: Python or numpy
values (a dict, a pandas Series) or CSV text (csv.DictReader).

A missing value (None, NaN, pandas' NA, or a text in MISSING_TEXTS: the empty
cell and the texts the rulemodels CLI reads as missing) makes every test on
its column false, except "is missing". Text is read as the CLI reads a CSV
cell: leading spaces skipped, numbers parsed as pandas parses them (integers
exactly; '1_000' or full-width digits are no number), True/False as 1/0 for
flags; in a column tested as a number or a flag, text that is no number is
missing, as rulemodels' predict reads it. A category not listed makes "==" and "in" false, "!=" and
"not in" true. Remove texts from MISSING_TEXTS if they are real values in
your data (e.g. the category "NA").
\"\"\"

from typing import Mapping

RULE = {text!r}
FEATURES = {features!r}
MISSING_TEXTS = frozenset({missing!r})


def _missing(value):
    \"\"\"None, NaN (any float type), pandas' NA or NaT, or a missing-value text.\"\"\"
    if value is None:
        return True
    if isinstance(value, str):
        return value.lstrip() in MISSING_TEXTS
    try:
        return bool(value != value)
    except (TypeError, ValueError):  # pandas' NA refuses bool()
        return True


def _number(value, column):
    \"\"\"A present value as a number; integers stay exact (no float rounding beyond 2**53).

    Text is read by _text_number; text that is not a number is NaN, which
    makes every threshold and flag test on it false, as "is missing" is true
    (_no_number): rulemodels' predict reads such text as missing.
    \"\"\"
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        number = _text_number(value)
        return float("nan") if number is None else number
    index = getattr(type(value), "__index__", None)  # numpy integers: exactly
    if index is not None:
        try:
            return index(value)
        except TypeError:
            pass
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError("column %r: %r is not a number" % (column, value)) from None


#: The characters that pandas skips around a number (C's isspace): not other Unicode spaces.
_SPACES = " \\t\\n\\v\\f\\r"


def _text_number(text):
    \"\"\"The number a text spells as pandas reads it (pd.to_numeric, read_csv), None if none.

    A number is ASCII: an optional sign, digits with an optional decimal point,
    an optional exponent (e or E, optional sign, digits), with ASCII
    whitespace around it; or inf / infinity in any case, with an optional
    sign and no space. Not numbers: '1_000', '1,000', full-width or other
    non-ASCII digits, '0x10', 'nan', ' inf'. Integers stay exact.
    \"\"\"
    word = text[1:] if text[:1] in ("+", "-") else text
    if word.lower() in ("inf", "infinity"):
        return float("-inf") if text[:1] == "-" else float("inf")
    text = text.strip(_SPACES)
    sign = text[:1] if text[:1] in ("+", "-") else ""
    mantissa, mark, exponent = text[len(sign):].lower().partition("e")
    if sign == "+":  # pandas also reads spaces after the exponent mark when the number has a "+" sign
        exponent = exponent.lstrip(_SPACES)
    whole, point, fraction = mantissa.partition(".")
    digits = (whole + fraction).isascii() and (whole + fraction).isdigit()
    power = exponent[1:] if exponent[:1] in ("+", "-") else exponent
    if not digits or (mark and not (power.isascii() and power.isdigit())):
        return None
    if not point and not mark:
        return int(sign + whole)
    return float(sign + mantissa + mark + exponent)


def _flag(value, column):
    \"\"\"A present value of a flag as a number: the texts true and false (any case) are 1 and 0.\"\"\"
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return int(value.strip().lower() == "true")
    return _number(value, column)


def _no_number(value, column, flag=False):
    \"\"\"Whether a value of a number (or flag) column is missing, or text that is not a number.

    rulemodels' predict reads such text as missing: "is missing" is true on it.
    \"\"\"
    if _missing(value):
        return True
    number = _flag(value, column) if flag else _number(value, column)
    return number != number


def _member(value, members):
    \"\"\"Whether a present value is one of the categories; text also matches the finite number it spells.\"\"\"
    if not isinstance(value, str):
        return value in members
    text = value.lstrip()
    if text in members:
        return True
    try:
        number = float(text)
    except ValueError:
        return False
    if number != number or number in (float("inf"), float("-inf")):
        return False
    return (int(number) if number.is_integer() else number) in members


def predict_row(row: Mapping[str, object]) -> int:
    \"\"\"1 if the rule is true on ``row`` (a mapping from column name to value), else 0.\"\"\"
"""

#: The texts the rulemodels CLI reads as missing by default: pandas' defaults and ``?``
#: (rulemodels.data.DEFAULT_NA_VALUES); csv.DictReader gives them as text.
PYTHON_MISSING_TEXTS: tuple[str, ...] = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null", "?",
)


def _python_literal(lit: Literal, kinds: dict[str, str] | None = None) -> str:
    """``lit`` as a Python expression; ``kinds`` maps a column the rule tests as a number or a flag to
    ``"number"`` or ``"flag"`` (:func:`_number_columns`): there, text that is no number is missing."""
    value = f"row[{lit.feature!r}]"
    present = f"not _missing({value})"
    op = lit.op
    kind = (kinds or {}).get(lit.feature)
    if op in ("is_nan", "not_nan") and kind is not None:
        flag = ", flag=True" if kind == "flag" else ""
        return f"{'' if op == 'is_nan' else 'not '}_no_number({value}, {lit.feature!r}{flag})"
    if op == "is_nan":
        return f"_missing({value})"
    if op == "not_nan":
        return present
    number = f"_number({value}, {lit.feature!r})"
    if op in ("<=", ">"):
        return f"({present} and {number} {op} {_number(lit.value)})"  # type: ignore[arg-type]
    if op in ("is_true", "is_false"):
        return f"({present} and _flag({value}, {lit.feature!r}) == {1 if op == 'is_true' else 0})"
    members = [lit.value] if op in ("==", "!=") else list(lit.value)  # type: ignore[call-overload]
    listed = "(" + "".join(f"{_python_constant(v)}, " for v in members).rstrip() + ")"
    negation = "not " if op in ("!=", "not_in") else ""
    return f"({present} and {negation}_member({value}, {listed}))"


def _number_columns(rules: Sequence[Rule]) -> dict[str, str]:
    """The columns that ``rules`` test with a flag (``"flag"``) or a threshold (``"number"``) literal.

    rulemodels' ``predict`` reads such a column as numbers: text that is not a number is missing
    there, also for ``x is missing``; on other columns, text is a category.
    """
    kinds: dict[str, str] = {}
    for rule in rules:
        for lit in rule.literals:
            if lit.op in ("is_true", "is_false"):
                kinds[lit.feature] = "flag"
            elif lit.op in ("<=", ">"):
                kinds.setdefault(lit.feature, "number")
    return kinds


def to_python(rule: Rule | RuleList) -> str:
    """The source of a dependency-free Python module defining ``predict_row(row) -> int``.

    ``row`` is any mapping from column name to value: a ``dict``, a
    ``csv.DictReader`` row (text: read as the rulemodels CLI reads the same CSV
    file, so the module predicts what ``rulemodels predict`` predicts on it),
    ``frame.iloc[i].to_dict()``, a ``pandas.Series``. Integers are compared
    exactly. The module also defines ``FEATURES``, the columns it reads, and
    ``MISSING_TEXTS``, the texts that mean missing (see its docstring).

    Parameters
    ----------
    rule : Rule or RuleList
        The rule to write; for a rule list ``predict_row`` returns the class label.

    Returns
    -------
    str
        The source of the module.

    Examples
    --------
    >>> from rulemodels.rules import Literal, Rule, to_python
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("bmi", "<=", 30.0)]])
    >>> namespace = {}
    >>> exec(to_python(rule), namespace)
    >>> namespace["FEATURES"]
    ('age', 'bmi')
    >>> namespace["predict_row"]({"age": 60, "bmi": 25.0}), namespace["predict_row"]({"age": "40", "bmi": "25"})
    (1, 0)
    """
    if _is_rule_list(rule):
        return _rule_list_python(rule)
    source = _PYTHON_HEADER.format(
        text=f"{rule.form.upper()}: {rule}", features=rule.features, missing=PYTHON_MISSING_TEXTS,
    )
    literal = functools.partial(_python_literal, kinds=_number_columns([rule]))
    body = _combine(rule, literal, and_=" and ", or_=" or ", true="True", false="False")
    return source + f"    return int({body})\n"


_PYTHON_LIST_DOC = """\"\"\"An ordered rule list exported by rulemodels: no dependencies.

RULE is the list as rulemodels prints it. predict_row(row) returns the class
of the first step whose rule is true on row, and the default class when none
is; CLASSES lists the classes it can return (steps in order, then the
default). row maps column names to values: Python or numpy values (a dict, a
pandas Series) or CSV text (csv.DictReader).
"""


def _rule_list_python(rules: RuleList) -> str:
    """The dependency-free module of a rule list: the helpers of :func:`to_python`, ``predict_row`` returning a label."""
    binary_doc_end = _PYTHON_HEADER.index("A missing value")
    source = _PYTHON_LIST_DOC + _PYTHON_HEADER[binary_doc_end:].format(
        text=str(rules), features=rules.features, missing=PYTHON_MISSING_TEXTS,
    ).replace("RULE = ", f"CLASSES = {[*rules.classes]!r}\nRULE = ", 1)
    source = source.replace(
        "def predict_row(row: Mapping[str, object]) -> int:\n"
        "    \"\"\"1 if the rule is true on ``row`` (a mapping from column name to value), else 0.\"\"\"\n",
        "def predict_row(row: Mapping[str, object]):\n"
        "    \"\"\"The class of ``row`` (a mapping from column name to value): that of the first step whose rule holds, "
        "else the default.\"\"\"\n",
    )
    lines = []
    literal = functools.partial(_python_literal, kinds=_number_columns(rules.rules))
    for label, rule in rules.steps:
        body = _combine(rule, literal, and_=" and ", or_=" or ", true="True", false="False")
        lines.append(f"    if {body}:\n        return {_python_constant(label)}\n")
    lines.append(f"    return {_python_constant(rules.default)}\n")
    return source + "".join(lines)
