"""X is checked once per fit and once per predict, by one converter, and each bad X has one message (issue 41).

:func:`rulemodels.utils.to_frame` is the one check and conversion of the
features; the binarizer inside a fit or a predict takes the checked frame as it
is. The spy counts the converter's calls wherever the library imported it.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import rulemodels.algorithms.training as training
import rulemodels.data._inputs as inputs
import rulemodels.data.binarizer as binarizer
import rulemodels.estimator as estimator
import rulemodels.rules._rule as rule_module
from rulemodels import BooleanRuleClassifier
from rulemodels.data import FeatureBinarizer
from rulemodels.rules import Literal, Rule
from rulemodels.utils import _frames, to_frame

#: Every module that calls the converter, by the name it imported it under.
CALLERS = (training, inputs, binarizer, estimator, rule_module)


@pytest.fixture
def converter_calls(monkeypatch) -> list[str]:
    """The kinds of ``X`` each call of :func:`to_frame` received (a list the test reads after its calls)."""
    calls: list[str] = []

    def spy(X, *args, **kwargs):
        calls.append(type(X).__name__)
        return _frames.to_frame(X, *args, **kwargs)

    for module in CALLERS:
        monkeypatch.setattr(module, "to_frame", spy)
    return calls


@pytest.mark.parametrize("kind", ["frame", "array"])
def test_a_fit_and_a_predict_check_x_once_each(pima_120_array_labels, converter_calls, kind):
    X, y = pima_120_array_labels
    data = X if kind == "frame" else X.to_numpy()
    model = BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(data, y)
    assert 1 <= len(converter_calls) <= 2, converter_calls  # the bound; today exactly one
    del converter_calls[:]
    predicted = model.predict(data)
    assert len(converter_calls) == 1 and predicted.shape == (len(X),)


def test_a_rule_checks_x_once_for_all_its_literals(converter_calls):
    rule = Rule.dnf([[Literal("a", ">", 1.0), Literal("b", "==", "x")], [Literal("a", "<=", 0.0)]])
    values = rule.evaluate(pd.DataFrame({"a": [2.0, 0.0, 0.5], "b": ["x", "y", "x"]}))
    assert values.tolist() == [True, True, False] and len(converter_calls) == 1


def test_a_binarizer_called_by_a_user_still_checks_its_input(converter_calls):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    FeatureBinarizer(n_thresholds=2).fit(frame).transform(frame)
    assert len(converter_calls) == 2  # fit and transform: each public call checks X


def _fit(X):
    return BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, np.array([0, 1, 0, 1]))


def _predict(X):
    frame = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 0.0]})
    return BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(frame.to_numpy(), np.array([0, 1, 0, 1])).predict(X)


def _evaluate(X):
    return Rule.cnf([[Literal("a", ">", 1.0)]]).evaluate(X)


def _binarize(X):
    return FeatureBinarizer().fit(X)


ENTRY_POINTS = {"estimator.fit": _fit, "predict": _predict, "Rule.evaluate": _evaluate, "FeatureBinarizer.fit": _binarize}

BAD_INPUTS = [
    # (what, X, error, the one message)
    ("sparse", sp.csr_matrix(np.eye(4, 2)), TypeError,
     "X is a sparse matrix, which is not supported: pass a dense array (X.toarray()) or a DataFrame"),
    ("1-D", np.zeros(4), ValueError,
     "Expected 2D array, got 1D array instead. Reshape your data with array.reshape(-1, 1) for a single feature "
     "or array.reshape(1, -1) for a single sample"),
    ("3-D", np.zeros((4, 2, 1)), ValueError,
     "Expected 2D array, got 3D array instead: pass a DataFrame or an array of shape (n_samples, n_features)"),
    ("duplicate names", pd.DataFrame(np.zeros((4, 2)), columns=["a", "a"]), ValueError,
     "column names ['a'] appear more than once (after conversion to str); rename the columns so each is unique"),
]


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize(("what", "X", "error", "message"), BAD_INPUTS, ids=[case[0] for case in BAD_INPUTS])
def test_each_bad_x_has_one_message_whichever_entry_point_receives_it(entry, what, X, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        ENTRY_POINTS[entry](X)


def test_the_converter_keeps_a_frame_and_names_an_array():
    frame = pd.DataFrame({1: [1, 2], "b": ["x", "y"]}, index=[10, 20])
    out = to_frame(frame)
    assert list(out.columns) == ["1", "b"] and list(out.index) == [10, 20] and list(frame.columns) == [1, "b"]
    assert out["b"].tolist() == ["x", "y"]
    assert list(to_frame(np.zeros((2, 3))).columns) == ["x0", "x1", "x2"]
    assert list(to_frame(np.zeros((2, 2)), ["p", "q"]).columns) == ["p", "q"]
    objects = np.array([[1, "a"], [2, "b"]], dtype=object)
    assert to_frame(objects, infer_objects=True)["x0"].dtype == np.int64
    assert to_frame(objects)["x0"].dtype == object
    assert to_frame(np.zeros((0, 2))).shape == (0, 2)  # a rule evaluates on no rows
    with pytest.raises(ValueError, match=r"^Found array with 0 sample\(s\) \(shape=\(0, 2\)\) while a minimum of 1 is required\.$"):
        to_frame(np.zeros((0, 2)), ensure_nonempty=True)
