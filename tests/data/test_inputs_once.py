"""X is checked once per fit and once per predict, by one converter, and each bad X has one message.

:func:`rulemodels.utils.to_frame` is the one check and conversion of the
features; the binarizer inside a fit or a predict takes the checked frame as it
is. The spy counts the converter's calls wherever the library imported it.

The labels likewise: a fit parses ``y`` once (:func:`rulemodels.data._inputs.parse_labels`)
into its classes and labels, and hands them to what needs them (the workspace, the
class weights, a rule list's search and binarizer), which trust them instead of
parsing ``y`` again; the binarizer's tree thresholds take them as class codes.
"""

from __future__ import annotations

import re
import sys

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import rulemodels._fitted_rule as fitted_rule
import rulemodels._rule_list_search as rule_list_search
import rulemodels.algorithms.training as training
import rulemodels.data._inputs as inputs
import rulemodels.data.binarizer as binarizer
import rulemodels.estimator as estimator_module
import rulemodels.model_selection as model_selection
import rulemodels.rules._rule as rule_module
from rulemodels import BooleanRuleClassifier
from rulemodels.data import FeatureBinarizer
from rulemodels.rules import Literal, Rule
from rulemodels.utils import _frames, to_frame

#: Modules that call the converter (imported so that the spies below find them loaded).
CALLERS = (training, inputs, binarizer, fitted_rule, rule_list_search, rule_module, estimator_module, model_selection)


def _patch_everywhere(monkeypatch, original, name, spy) -> None:
    """Put ``spy`` in place of ``original`` in every loaded module of the library that imported it as ``name``."""
    for module in [m for key, m in list(sys.modules.items()) if key.startswith("rulemodels") and m is not None]:
        if getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, spy)


@pytest.fixture
def converter_calls(monkeypatch) -> list[str]:
    """The kinds of ``X`` each call of :func:`to_frame` received (a list the test reads after its calls)."""
    calls: list[str] = []
    original = _frames.to_frame

    def spy(X, *args, **kwargs):
        calls.append(type(X).__name__)
        return original(X, *args, **kwargs)

    _patch_everywhere(monkeypatch, original, "to_frame", spy)
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


#: Every function that parses raw labels: the one parse of a fit (:func:`parse_labels`), the public parsers
#: built on it or beside it (a fit calls none of them), and the binarizer's own parse of raw labels.
LABEL_PARSERS = {
    "parse_labels": inputs, "class_labels": inputs, "binary_labels": inputs, "count_classes": inputs,
    "class_weighted": inputs, "_label_codes": binarizer,
}


@pytest.fixture
def label_parses(monkeypatch) -> list[str]:
    """The parses of raw ``y`` (:data:`LABEL_PARSERS`), in the order of their calls, wherever the library
    imported the parsers (``class_weighted`` counts only when it has class weights to apply to raw labels)."""
    calls: list[str] = []
    for name, home in LABEL_PARSERS.items():
        original = getattr(home, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            if _name != "class_weighted" or (args[2] is not None and not isinstance(args[0], inputs.ParsedLabels)):
                calls.append(_name)
            return _original(*args, **kwargs)

        _patch_everywhere(monkeypatch, original, name, spy)
    return calls


@pytest.mark.parametrize("class_weight", [None, "balanced", {"yes": 2.0}])
def test_a_two_class_fit_parses_y_once(pima_120_array_labels, label_parses, class_weight):
    X, y = pima_120_array_labels
    labels = np.where(y == 1, "yes", "no")
    BooleanRuleClassifier(algorithm="scs", n_clauses=1, class_weight=class_weight).fit(X, labels)
    # the estimator parses y once and hands the parsed labels to its workspace and the class weights; the tree
    # thresholds take the workspace's 0/1 labels (before: count_classes, class_weighted, class_labels)
    assert label_parses == ["parse_labels"]


def test_a_fit_on_a_given_workspace_parses_y_once(pima_120_array_labels, label_parses):
    X, y = pima_120_array_labels
    with training.TrainingWorkspace(X, y) as workspace:
        assert label_parses == ["parse_labels"]  # the public constructor parses y itself
        del label_parses[:]
        BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, y, workspace=workspace)
    assert label_parses == ["parse_labels"]


def test_a_multiclass_fit_parses_y_once_and_each_step_its_own_labels_once(pima_120_array_labels, label_parses):
    X, y = pima_120_array_labels
    three = np.where(X.iloc[:, 1] > X.iloc[:, 1].median(), "high", np.where(y == 1, "mid", "low"))
    model = BooleanRuleClassifier(algorithm="scs", n_clauses=1, class_order="rarest", min_literal_rows=0).fit(X, three)
    # the list's y once (its binarizer takes the parsed codes), and each step's binary fit (class_order="rarest":
    # K - 1 = 2 of them) its 0/1 labels once: its workspace takes them from the search without parsing
    assert len(model.steps_) == 2
    assert label_parses == ["parse_labels"] * 3

def test_a_binarizer_called_by_a_user_still_parses_its_labels(pima_120_array_labels, label_parses):
    X, y = pima_120_array_labels
    FeatureBinarizer(thresholds="tree").fit(X, y)
    assert label_parses == ["_label_codes"]


@pytest.mark.parametrize("weighted", [False, True])
def test_the_tree_thresholds_do_not_depend_on_which_class_is_coded_1(pima_120_array_labels, weighted):
    X, y = pima_120_array_labels
    assert y[0] == 1  # the public fit codes the first row's class 0: the classes swapped against the 0/1 labels
    weights = np.random.default_rng(0).uniform(0.1, 3.0, len(y)) if weighted else None
    frame = to_frame(X, ensure_nonempty=True)
    public = FeatureBinarizer(thresholds="tree").fit(X, np.where(y == 1, "yes", "no"), weights)  # codes by appearance
    row_weights = np.ones(len(y)) if weights is None else weights
    for codes in (y, 1 - y):  # the workspace's coding, and the classes swapped
        trusted = FeatureBinarizer(thresholds="tree")._fit(frame, codes, row_weights, check_input=False, n_classes=2)
        assert [repr(t) for t in trusted.literals_] == [repr(t) for t in public.literals_]  # bit for bit
