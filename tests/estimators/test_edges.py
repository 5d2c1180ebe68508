"""Small edges: the users' labels in warnings, "did you mean" for unknown columns,
``fit(frame, "label")`` for in-memory frames, a clean ``dir(rulemodels)`` with the warning
classes exported, and argument types checked at ``save_model``/``load_model``."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import rulemodels
from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset, load_model, save_model
from rulemodels.cli import main


@pytest.fixture(scope="module")
def labelled_liver() -> pd.DataFrame:
    X, y = load_dataset("liver")
    frame = X.copy()
    frame["label"] = np.where(np.asarray(y) == 1, "yes", "no")
    return frame


def test_fit_on_a_frame_with_the_label_named_is_the_fit_on_x_and_y(labelled_liver) -> None:
    frame = labelled_liver
    X, y = frame.drop(columns="label"), frame["label"]
    by_name = BooleanRuleClassifier(algorithm="cg").fit(frame, "label")
    by_arrays = BooleanRuleClassifier(algorithm="cg").fit(X, y)
    assert str(by_name.rule_) == str(by_arrays.rule_)
    assert list(by_name.feature_names_in_) == list(X.columns)
    assert list(by_name.classes_) == ["no", "yes"]
    np.testing.assert_array_equal(by_name.predict(X), by_arrays.predict(X))
    # the label column names the target, as frame["label"] does: "label = yes when ...", not "class yes when ..."
    assert by_name.target_name_ == by_arrays.target_name_ == "label"
    assert str(by_name) == str(by_arrays) and str(by_name).startswith("label = yes when")


def test_fit_on_a_frame_with_label_and_weight_named(labelled_liver) -> None:
    frame = labelled_liver.assign(w=np.where(labelled_liver["label"] == "yes", 2.0, 1.0))
    X, y, w = frame.drop(columns=["label", "w"]), frame["label"], frame["w"]
    by_name = BooleanRuleClassifier(algorithm="cg").fit(frame, "label", "w")
    by_arrays = BooleanRuleClassifier(algorithm="cg").fit(X, y, w)
    assert str(by_name.rule_) == str(by_arrays.rule_) and "w" not in by_name.feature_names_in_


def test_cv_fit_on_a_frame_with_the_label_named(labelled_liver) -> None:
    frame = labelled_liver
    grid = {"thetas": (0.02,), "n_clauses": (1, 2), "cv": 3}
    by_name = BooleanRuleCV(**grid).fit(frame, "label")
    by_arrays = BooleanRuleCV(**grid).fit(frame.drop(columns="label"), frame["label"])
    assert str(by_name.rule_) == str(by_arrays.rule_)
    assert "label" not in by_name.feature_names_in_
    assert by_name.best_estimator_.target_name_ == "label"


@pytest.mark.parametrize(
    ("X", "y", "w", "error", "message"),
    [
        ("frame", "lable", None, ValueError, r"y 'lable' is not a column of X \(did you mean 'label'\?\)"),
        ("frame", "label", "wieght", ValueError, r"sample_weight 'wieght' is not a column of X"),
        ("frame", "label", "label", ValueError, r"name the same column"),
        ("array", "label", None, TypeError, r"needs X to be a DataFrame .* pass the labels as an array"),
        ("frame", None, "label", TypeError, r"sample_weight names a column, but y does not"),
    ],
)
def test_named_columns_are_checked(labelled_liver, X, y, w, error, message) -> None:
    data = labelled_liver if X == "frame" else labelled_liver.drop(columns="label").to_numpy()
    if y is None:
        y = labelled_liver["label"]
    with pytest.raises(error, match=message):
        BooleanRuleClassifier().fit(data, y, w)


def test_a_wrong_target_gets_a_did_you_mean(tmp_path, capsys) -> None:
    path = tmp_path / "data.csv"
    pd.DataFrame({"age": [1, 2, 3, 4], "Outcome": [0, 1, 0, 1]}).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome"]) == 1
    err = capsys.readouterr().err
    assert "the target column 'outcome' is not a column of the file (did you mean 'Outcome'?)" in err


def test_rule_list_warnings_name_the_users_labels() -> None:
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=300)})
    y = np.array([0, 1, 2])[np.minimum(rng.geometric(0.8, 300) - 1, 2)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BooleanRuleClassifier(theta=0.2).fit(X, y)
    messages = [str(w.message) for w in caught if issubclass(w.category, rulemodels.TrivialRuleWarning)]
    assert messages and all("np.int64" not in m for m in messages), messages
    assert "majority class 0 " in messages[0]


def test_dir_shows_public_names_and_the_warnings_are_exported() -> None:
    names = dir(rulemodels)
    assert names == sorted(rulemodels.__all__)
    assert not {"Any", "TYPE_CHECKING", "importlib", "annotations"} & set(names)
    for name in ("TrivialRuleWarning", "TimeLimitWarning", "IDLikeColumnWarning", "HeaderLooksLikeDataWarning",
                 "ColumnKindDriftWarning", "AllMissingColumnWarning"):
        assert issubclass(getattr(rulemodels, name), UserWarning), name
    assert not {"importlib", "Any"} & set(dir(rulemodels.data))


def test_save_and_load_model_check_their_argument_types(tmp_path, labelled_liver) -> None:
    clf = BooleanRuleClassifier(algorithm="cg").fit(labelled_liver, "label")
    path = tmp_path / "model.json"
    features = list(clf.feature_names_in_)
    with pytest.raises(TypeError, match=r"save_model: path must be the file to write's path .* got Rule"):
        save_model(clf.rule_, path, clf.classes_, "label", features)
    with pytest.raises(TypeError, match=r"a fitted estimator: pass its rule, clf.rule_"):
        save_model(path, clf, clf.classes_, "label", features)
    with pytest.raises(TypeError, match=r"classes must be a sequence"):
        save_model(path, clf.rule_, "label", clf.classes_, features)
    with pytest.raises(TypeError, match=r"features must be a list of column names"):
        save_model(path, clf.rule_, clf.classes_, "label", 3)
    with pytest.raises(TypeError, match=r"load_model: path must be the file to read's path"):
        load_model(clf.rule_)
    assert not path.exists()
    save_model(path, clf.rule_, clf.classes_, "label", features)
    assert str(load_model(path).rule) == str(clf.rule_)
