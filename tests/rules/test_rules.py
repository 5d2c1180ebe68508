"""Tests for rulemodels.rules: literals, clauses and two-level rules as values."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rulemodels.rules import VALID_OPS, Clause, Literal, Rule, RuleFormatError
from tests.helpers import any_rule, raw_frame, raw_literal

# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

FLAGS = ("f0", "f1", "f2", "f3")

_json_scalars = st.one_of(
    st.text(max_size=8),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
)


@st.composite
def any_literal(draw: st.DrawFn) -> Literal:
    """Any valid literal, with arbitrary names and values (for serialization)."""
    feature = draw(st.text(min_size=1, max_size=10))
    op = draw(st.sampled_from(VALID_OPS))
    if op in ("<=", ">"):
        value = draw(st.floats(allow_nan=False, allow_infinity=False))
    elif op in ("==", "!="):
        value = draw(_json_scalars)
    elif op in ("in", "not_in"):
        value = draw(st.lists(_json_scalars, min_size=1, max_size=4))
    else:
        value = None
    return Literal(feature, op, value)


flag_literals = st.builds(
    Literal, st.sampled_from(FLAGS), st.sampled_from(("is_true", "is_false"))
)


def binary_matrix(n_cols: int) -> st.SearchStrategy[np.ndarray]:
    return st.integers(1, 25).flatmap(
        lambda n: arrays(np.uint8, (n, n_cols), elements=st.integers(0, 1))
    )


def python_truth(lit: Literal, row: np.ndarray) -> bool:
    """Truth of a flag literal ``f<k>`` on one row of a 0/1 matrix, by hand."""
    bit = int(row[FLAGS.index(lit.feature)])
    return bit == 1 if lit.op == "is_true" else bit == 0


def python_rule(rule: Rule, row: np.ndarray) -> bool:
    """Direct, row-by-row evaluation of the Boolean formula."""
    if rule.form == "dnf":
        return any(all(python_truth(lit, row) for lit in c.literals) for c in rule.clauses)
    return all(any(python_truth(lit, row) for lit in c.literals) for c in rule.clauses)


FLAG_COLUMNS = [Literal(f, "is_true") for f in FLAGS]

# ---------------------------------------------------------------------------
# Literal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "text"),
    [
        (Literal("glucose", "<=", 142), "glucose <= 142.0"),
        (Literal("glucose", ">", 142.0), "glucose > 142.0"),
        (Literal("bmi", ">", np.float64(29.5)), "bmi > 29.5"),
        (Literal("color", "==", "red"), "color == red"),
        (Literal("color", "!=", "red"), "color != red"),
        (Literal("smoker", "is_true"), "smoker"),
        (Literal("smoker", "is_false"), "not smoker"),
        (Literal("bmi", "is_nan"), "bmi is missing"),
        (Literal("bmi", "not_nan"), "bmi is not missing"),
    ],
)
def test_literal_str(literal: Literal, text: str) -> None:
    assert str(literal) == text


@pytest.mark.parametrize(
    ("op", "negated"),
    [("<=", ">"), ("==", "!="), ("is_true", "is_false"), ("is_nan", "not_nan")],
)
def test_literal_negate_is_an_involution(op: str, negated: str) -> None:
    value = 1.0 if op in ("<=", "==") else None
    lit = Literal("x", op, value)
    assert lit.negate() == Literal("x", negated, value)
    assert lit.negate().negate() == lit


def test_literal_normalizes_numpy_scalars_for_equality_and_hashing() -> None:
    a = Literal("x", "<=", np.float32(0.5))
    b = Literal("x", "<=", 0.5)
    assert a == b and hash(a) == hash(b)
    assert type(Literal("x", "<=", np.int64(3)).value) is float
    assert type(Literal("x", "==", np.int64(3)).value) is int
    same = {Literal("x", "<=", 1), Literal("x", "<=", 1.0), Literal("x", "<=", np.float64(1))}
    assert len(same) == 1


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (("x", "eval", 1), ValueError, r"unknown op 'eval'; expected one of '<=', '>'"),
        (("x", "<=", None), ValueError, r"op '<=' needs a value"),
        (("x", "<=", "3"), TypeError, r"op '<=' needs a numeric threshold; got str"),
        (("x", "<=", True), TypeError, r"needs a numeric threshold; got bool"),
        (("x", ">", float("nan")), ValueError, r"needs a finite value"),
        (("x", "==", None), ValueError, r"op '==' needs a value"),
        (("x", "==", [1]), TypeError, r"must be str, int, float or bool; got list"),
        (("x", "is_true", 1), ValueError, r"op 'is_true' takes no value"),
        ((3, "is_true", None), TypeError, r"feature must be a column name \(str\); got int"),
    ],
)
def test_literal_validation(args: tuple, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        Literal(*args)


def test_literal_evaluate_each_op_and_missing_values() -> None:
    X = pd.DataFrame(
        {
            "x": [1.0, 2.0, np.nan, np.inf],
            "c": ["a", "b", None, "a"],  # default string dtype ('str' in pandas 3)
            "f": [1, 0, np.nan, 1],
        }
    )
    expected = {
        Literal("x", "<=", 1.5): [True, False, False, False],
        Literal("x", ">", 1.5): [False, True, False, True],
        Literal("c", "==", "a"): [True, False, False, True],
        Literal("c", "!=", "a"): [False, True, False, False],
        Literal("f", "is_true"): [True, False, False, True],
        Literal("f", "is_false"): [False, True, False, False],
        Literal("x", "is_nan"): [False, False, True, False],
        Literal("x", "not_nan"): [True, True, False, True],
    }
    for lit, values in expected.items():
        result = lit.evaluate(X)
        assert result.dtype == bool
        assert result.tolist() == values, str(lit)


def test_literal_evaluate_is_not_its_negation_on_missing_rows() -> None:
    # Documented three-valued behaviour: both a threshold literal and its
    # negation are False where the value is missing.
    X = pd.DataFrame({"x": [np.nan]})
    lit = Literal("x", "<=", 0.0)
    assert not lit.evaluate(X)[0] and not lit.negate().evaluate(X)[0]


@pytest.mark.parametrize("dtype", [object, "string", "string[pyarrow]"])
def test_text_numbers_are_read_by_evaluate_as_predict_reads_them(dtype) -> None:
    """Text a number to ``pd.to_numeric`` (as ``predict`` reads it) is that number; text that Python's
    ``float`` reads but ``pd.to_numeric`` does not (``'1_000'``, full-width digits) is refused, not read as
    a number ``predict`` would not see."""
    lit = Literal("x", "<=", 20.0)
    X = pd.DataFrame({"x": pd.Series([" 3", "25", "inf", "-Infinity", "1e1", None], dtype=dtype)})
    assert lit.evaluate(X).tolist() == [True, False, False, True, True, False]
    for text in ("1_000", "\uff11\uff12"):
        X = pd.DataFrame({"x": pd.Series(["3", text], dtype=dtype)})
        with pytest.raises(ValueError, match=rf"column 'x' has non-numeric values .*e\.g\. {text!r}.*pd\.to_numeric"):
            lit.evaluate(X)


def test_literal_evaluate_threshold_on_text_column_raises() -> None:
    X = pd.DataFrame({"c": ["a", "b"]})
    with pytest.raises(ValueError, match=r"column 'c' has non-numeric values"):
        Literal("c", "<=", 1.0).evaluate(X)


def test_literal_is_hashable_and_immutable() -> None:
    lit = Literal("x", "<=", 1.0)
    assert {lit: 1}[Literal("x", "<=", 1)] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        lit.op = ">"  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Clause and Rule structure
# ---------------------------------------------------------------------------

A_ = Literal("a", "is_true")
B_ = Literal("b", "<=", 2.0)
C_ = Literal("c", "==", "red")


def test_clause_removes_duplicates_keeping_first_occurrence() -> None:
    clause = Clause([B_, A_, B_, Literal("b", "<=", 2), A_])
    assert clause.literals == (B_, A_)
    assert len(clause) == 2 and list(clause) == [B_, A_]


def test_clause_rejects_non_literals() -> None:
    with pytest.raises(TypeError, match="Clause literals must be Literal objects; got str"):
        Clause(["a > 1"])
    with pytest.raises(TypeError, match="iterable of Literal objects; got a single Literal"):
        Clause(A_)  # type: ignore[arg-type]


def test_rule_validates_form() -> None:
    with pytest.raises(ValueError, match=r"unknown rule form 'CNF'; expected 'cnf' or 'dnf'"):
        Rule("CNF", ())


def test_rule_accepts_iterables_and_is_hashable_and_immutable() -> None:
    rule = Rule("dnf", [[A_, B_], (C_,)])
    assert rule.clauses == (Clause((A_, B_)), Clause((C_,)))
    assert rule == Rule.dnf([[A_, B_], [C_]])
    assert hash(rule) == hash(Rule.dnf([[A_, B_], [C_]]))
    assert len({rule, Rule.dnf([[A_, B_], [C_]]), rule.negate()}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.form = "cnf"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.clauses[0].literals = ()  # type: ignore[misc]


def test_rule_str() -> None:
    rule = Rule.dnf(
        [[Literal("glucose", ">", 142.0), Literal("bmi", ">", 29.5)], [Literal("age", ">", 54.0)]]
    )
    assert str(rule) == "(glucose > 142.0 AND bmi > 29.5) OR (age > 54.0)"
    assert str(rule.negate()) == "(glucose <= 142.0 OR bmi <= 29.5) AND (age <= 54.0)"
    assert str(Rule.cnf([[A_, C_], [Literal("d", "is_nan")]])) == "(a OR c == red) AND (d is missing)"


@pytest.mark.parametrize(
    ("rule", "text", "value"),
    [
        (Rule("dnf", ()), "False", False),
        (Rule("cnf", ()), "True", True),
        (Rule("dnf", [Clause()]), "(True)", True),
        (Rule("cnf", [Clause()]), "(False)", False),
        (Rule("dnf", [Clause(), [A_]]), "(True) OR (a)", True),
        (Rule("cnf", [Clause(), [A_]]), "(False) AND (a)", False),
    ],
)
def test_empty_rules_and_clauses(rule: Rule, text: str, value: bool) -> None:
    X = pd.DataFrame({"a": [0, 1, 0]})
    assert str(rule) == text
    assert rule.evaluate(X).tolist() == [value] * 3
    A = X.to_numpy()
    assert rule.evaluate_binary(A, [A_]).tolist() == [value] * 3


def test_complexity() -> None:
    rule = Rule.dnf([[A_, B_, Literal("b", ">", 5.0)], [A_], []])
    assert rule.n_clauses == 3
    assert rule.n_literals == 4
    assert rule.n_features == 2
    assert rule.features == ("a", "b")
    assert rule.literals == (A_, B_, Literal("b", ">", 5.0))
    assert rule.complexity() == {"n_clauses": 3, "n_literals": 4, "n_conditions": 4, "n_features": 2}
    assert Rule("cnf", ()).complexity() == {"n_clauses": 0, "n_literals": 0, "n_conditions": 0, "n_features": 0}
    interval = Rule.dnf([[Literal("b", ">", 1.0), Literal("b", "<=", 5.0)]])
    assert (interval.n_literals, interval.n_conditions, str(interval)) == (2, 1, "(1.0 < b <= 5.0)")


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(rule=any_rule(flag_literals), A=binary_matrix(len(FLAGS)))
def test_evaluate_binary_matches_python_evaluation(rule: Rule, A: np.ndarray) -> None:
    expected = [python_rule(rule, row) for row in A]
    assert rule.evaluate_binary(A, FLAG_COLUMNS).tolist() == expected
    assert rule.evaluate_binary(sp.csr_matrix(A), FLAG_COLUMNS).tolist() == expected
    X = pd.DataFrame(A, columns=list(FLAGS))
    assert rule.evaluate(X).tolist() == expected
    outputs = rule.clause_outputs_binary(A, FLAG_COLUMNS)
    assert outputs.shape == (A.shape[0], rule.n_clauses)
    assert np.array_equal(outputs, rule.clause_outputs(X))


@settings(max_examples=150, deadline=None)
@given(rule=any_rule(flag_literals), A=binary_matrix(len(FLAGS)))
def test_de_morgan_negation_binary(rule: Rule, A: np.ndarray) -> None:
    negated = rule.negate()
    assert negated.form != rule.form
    assert negated.negate() == rule
    value = rule.evaluate_binary(A, FLAG_COLUMNS)
    assert np.array_equal(negated.evaluate_binary(A, FLAG_COLUMNS), ~value)
    # With the negated literals as the columns, both rules are served through 1 - A.
    negated_columns = [lit.negate() for lit in FLAG_COLUMNS]
    assert np.array_equal(negated.evaluate_binary(1 - A, negated_columns), ~value)


@settings(max_examples=150, deadline=None)
@given(rule=any_rule(raw_literal()), X=raw_frame())
def test_de_morgan_negation_raw(rule: Rule, X: pd.DataFrame) -> None:
    assert np.array_equal(rule.negate().evaluate(X), ~rule.evaluate(X))


@settings(max_examples=100, deadline=None)
@given(rule=any_rule(raw_literal()), X=raw_frame())
def test_evaluate_binary_matches_raw_evaluation(rule: Rule, X: pd.DataFrame) -> None:
    # Columns hold only the "positive" half of each op pair, so negated
    # literals exercise the 1 - A[:, k] lookup.
    columns = list(dict.fromkeys(
        lit if lit.op in ("<=", "==", "is_true", "is_nan") else lit.negate()
        for lit in rule.literals
    ))
    A = np.column_stack([lit.evaluate(X) for lit in columns]) if columns else np.zeros(
        (len(X), 0), dtype=np.uint8
    )
    assert np.array_equal(rule.evaluate_binary(A, columns), rule.evaluate(X))


def test_evaluate_binary_missing_literal_raises() -> None:
    rule = Rule.dnf([[Literal("x", "<=", 1.0)]])
    message = (r"literal 'x <= 1.0' is not a column of the binary matrix, "
               r"and neither is its negation 'x > 1.0'")
    with pytest.raises(ValueError, match=message):
        rule.evaluate_binary(np.ones((2, 1)), [Literal("x", "<=", 2.0)])


def test_evaluate_binary_shape_mismatch_raises() -> None:
    with pytest.raises(ValueError, match=r"A has shape \(2, 3\) but 1 literals were given"):
        Rule.dnf([[A_]]).evaluate_binary(np.ones((2, 3)), [A_])


def test_evaluate_missing_column_raises() -> None:
    rule = Rule.cnf([[Literal("zzz", ">", 0.0)]])
    with pytest.raises(ValueError, match=r"rule uses column 'zzz' which is not in the data; "
                                         r"columns are \['a', 'b'\]"):
        rule.evaluate(pd.DataFrame({"a": [1], "b": [2]}))


def test_evaluate_matches_str_column_names_and_arrays() -> None:
    rule = Rule.dnf([[Literal("0", ">", 1.0)], [Literal("x1", "is_true")]])
    assert rule.evaluate(pd.DataFrame({0: [0.0, 2.0], "x1": [1, 0]})).tolist() == [True, True]
    on_array = Rule.dnf([[Literal("x0", ">", 1.0)], [Literal("x1", "is_true")]])
    array = np.array([[2.0, 0], [0.0, 1], [0.0, 0]])
    assert on_array.evaluate(array).tolist() == [True, True, False]


# ---------------------------------------------------------------------------
# Serialization
# ---------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(rule=any_rule(any_literal()), indent=st.sampled_from((None, 2)))
def test_json_round_trip_is_identity(rule: Rule, indent: int | None) -> None:
    text = rule.to_json(indent=indent)
    back = Rule.from_json(text)
    assert back == rule
    assert str(back) == str(rule)
    assert Rule.from_dict(json.loads(text)) == rule
    assert json.loads(text)["format"] == "rulemodels.rule"


def test_to_dict_format() -> None:
    rule = Rule.dnf([[Literal("glucose", ">", 142.0), Literal("smoker", "is_true")]])
    assert rule.to_dict() == {
        "format": "rulemodels.rule",
        "version": 1,
        "form": "dnf",
        "clauses": [
            [
                {"feature": "glucose", "op": ">", "value": 142.0},
                {"feature": "smoker", "op": "is_true", "value": None},
            ]
        ],
    }


def _doc(clauses: object = None, **top: object) -> str:
    data = {"format": "rulemodels.rule", "version": 1, "form": "dnf",
            "clauses": [[{"feature": "a", "op": "<=", "value": 1.0}]] if clauses is None
            else clauses}
    data.update(top)
    return json.dumps(data)


def _lit(**fields: object) -> list:
    base = {"feature": "a", "op": "<=", "value": 1.0}
    base.update(fields)
    return [[{"feature": "b", "op": "is_true"}], [{k: v for k, v in base.items() if v != "DROP"}]]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("not json", r"^invalid JSON at line 1 column 1"),
        ('{"format": ', r"^invalid JSON at line 1"),
        ('{"value": NaN}', r"invalid JSON: NaN is not a standard JSON value"),
        ("[]", r"^rule: expected an object with keys format, version, form, clauses; got list"),
        (json.dumps({"format": "rulemodels.rule", "version": 1, "clauses": []}),
         r"^rule: missing key 'form'"),
        (_doc(extra=1), r"^rule: unexpected key\(s\) 'extra'"),
        (_doc(format="other"), r"^format: expected 'rulemodels.rule', got 'other'"),
        (_doc(version=3), r"^version: unsupported version 3; this release reads versions 1, 2"),
        (_doc(version=True), r"^version: unsupported version True"),
        (_doc(form="xnf"), r"^form: unknown form 'xnf'; expected 'cnf' or 'dnf'"),
        (_doc(clauses={"a": 1}), r"^clauses: expected a list of clauses, got dict"),
        (_doc(clauses=["a"]), r"^clauses\[0\]: expected a list of literals, got str"),
        (_doc(clauses=[[], [1]]), r"^clauses\[1\]\[0\]: expected an object with keys feature, op"),
        (_doc(clauses=_lit(op="eval")),
         r"^clauses\[1\]\[0\]\.op: unknown op 'eval'; expected one of '<=', '>', '==', '!='"),
        (_doc(clauses=_lit(op="DROP")), r"^clauses\[1\]\[0\]: missing key 'op'"),
        (_doc(clauses=_lit(feature="DROP")), r"^clauses\[1\]\[0\]: missing key 'feature'"),
        (_doc(clauses=_lit(feature=3)), r"^clauses\[1\]\[0\]\.feature: expected a string, got int"),
        (_doc(clauses=_lit(colour="red")), r"^clauses\[1\]\[0\]: unexpected key\(s\) 'colour'"),
        (_doc(clauses=_lit(value=[1])),
         r"^clauses\[1\]\[0\]\.value: expected a JSON scalar \(string, number, boolean or null\), "
         r"got list"),
        (_doc(clauses=_lit(value={"x": 1})), r"^clauses\[1\]\[0\]\.value: expected a JSON scalar"),
        (_doc(clauses=_lit(value="DROP")), r"^clauses\[1\]\[0\]\.value: op '<=' needs a value"),
        (_doc(clauses=_lit(value=None)), r"^clauses\[1\]\[0\]\.value: op '<=' needs a value"),
        (_doc(clauses=_lit(op="==", value=None)),
         r"^clauses\[1\]\[0\]\.value: op '==' needs a value"),
        (_doc(clauses=_lit(value="1.0")),
         r"^clauses\[1\]\[0\]\.value: op '<=' needs a numeric threshold; got str"),
        (_doc(clauses=_lit(op="is_true", value=1)),
         r"^clauses\[1\]\[0\]\.value: op 'is_true' takes no value"),
    ],
)
def test_from_json_rejects_malformed_input(text: str, match: str) -> None:
    with pytest.raises(RuleFormatError, match=match):
        Rule.from_json(text)


def test_rule_format_error_is_a_value_error() -> None:
    assert issubclass(RuleFormatError, ValueError)
    with pytest.raises(ValueError):
        Rule.from_dict({"format": "rulemodels.rule"})


def test_from_json_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="from_json expects JSON text"):
        Rule.from_json({"format": "rulemodels.rule"})  # type: ignore[arg-type]


def test_from_json_never_evaluates_code() -> None:
    # A feature name that looks like code is just a name.
    text = _doc(clauses=[[{"feature": "__import__('os').system('x')", "op": "is_true"}]])
    rule = Rule.from_json(text)
    assert rule.features == ("__import__('os').system('x')",)
