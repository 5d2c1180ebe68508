"""From a saved rule to production: `rulemodels export`, `predict` with probabilities and scores,
rule files checked like input, and a start-up that loads neither Pyomo nor scikit-learn."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, load_dataset
from rulemodels.cli import main
from rulemodels.rules import MAX_RULE_FILE_BYTES, RuleFormatError, load_model


@pytest.fixture(scope="module")
def credit(tmp_path_factory):
    """A small credit-like CSV with missing values and categories, and a rule file fitted on it by the CLI."""
    rng = np.random.default_rng(1)
    n = 240
    frame = pd.DataFrame({
        "duration": rng.integers(4, 60, n).astype(float),
        "checking": rng.choice(["A11", "A12", "A13", "A14"], n),
        "savings": rng.normal(100, 40, n),
    })
    frame.loc[rng.random(n) < 0.1, "savings"] = np.nan
    bad = (frame["duration"] > 30) & (frame["checking"] != "A14") | (rng.random(n) < 0.1)
    frame["risk"] = np.where(bad, "bad", "good")
    folder = tmp_path_factory.mktemp("credit")
    data = folder / "credit.csv"
    frame.to_csv(data, index=False)
    rule = folder / "rule.json"
    assert main(["fit", str(data), "--target", "risk", "--positive", "bad", "--algorithm", "scs", "--clauses", "2",
                 "--theta", "0.01", "--thresholds", "5", "--out", str(rule)]) == 0
    return data, rule, frame


def read_csv_text(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text))


def test_predict_with_proba_matches_the_estimator(credit, capsys):
    data, rule, frame = credit
    capsys.readouterr()
    assert main(["predict", str(rule), str(data), "--proba"]) == 0
    captured = capsys.readouterr()
    table = read_csv_text(captured.out)
    assert list(table.columns) == ["prediction", "probability"]
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=2, theta=0.01, n_thresholds=5)
    X, y = frame.drop(columns="risk"), (frame["risk"] == "bad").astype(int)
    clf.fit(X, y)
    assert table["prediction"].tolist() == np.where(clf.predict(X) == 1, "bad", "good").tolist()
    assert np.allclose(table["probability"].to_numpy(), clf.predict_proba(X)[:, 1], rtol=0, atol=1e-12)


def test_predict_prints_accuracy_confusion_matrix_and_baseline_when_the_label_is_there(credit, capsys):
    data, rule, frame = credit
    capsys.readouterr()
    assert main(["predict", str(rule), str(data)]) == 0
    captured = capsys.readouterr()
    predicted = read_csv_text(captured.out)["prediction"].to_numpy()
    truth = frame["risk"].to_numpy()
    accuracy = float(np.mean(predicted == truth))
    assert f"accuracy: {accuracy:.4f}" in captured.err
    tp = int(np.sum((truth == "bad") & (predicted == "bad")))
    fn = int(np.sum((truth == "bad") & (predicted == "good")))
    row = next(line for line in captured.err.splitlines() if line.startswith("actual bad"))
    assert row.split()[2:] == [str(fn), str(tp)]  # columns: predicted good, predicted bad
    majority = max(np.mean(truth == "bad"), np.mean(truth == "good"))
    assert f"baseline: {1 - majority:.4f} error of always predicting" in captured.err
    assert "accuracy" not in captured.out  # stdout stays a clean CSV


def test_predict_without_the_label_prints_no_scores_and_target_names_it(credit, tmp_path, capsys):
    data, rule, frame = credit
    renamed = tmp_path / "renamed.csv"
    frame.rename(columns={"risk": "outcome"}).to_csv(renamed, index=False)
    capsys.readouterr()
    assert main(["predict", str(rule), str(renamed)]) == 0
    assert "accuracy" not in capsys.readouterr().err
    assert main(["predict", str(rule), str(renamed), "--target", "outcome", "--out", str(tmp_path / "p.csv")]) == 0
    captured = capsys.readouterr()
    assert "accuracy:" in captured.err and captured.out == ""
    assert len(pd.read_csv(tmp_path / "p.csv")) == len(frame)


def test_proba_needs_pattern_rates_in_the_file(credit, tmp_path, capsys):
    data, rule, _ = credit
    document = json.loads(rule.read_text())
    del document["pattern_rates"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document))
    assert main(["predict", str(old), str(data)]) == 0  # still predicts
    capsys.readouterr()
    assert main(["predict", str(old), str(data), "--proba"]) == 1
    assert "has no pattern rates" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["sql", "query", "python"])
def test_export_command_writes_code_that_predicts_like_the_rule(credit, fmt, tmp_path, capsys):
    data, rule, frame = credit
    model = load_model(rule)
    expected = model.rule.evaluate(frame)
    out = tmp_path / f"rule.{fmt}"
    assert main(["export", str(rule), "--format", fmt, "--out", str(out)]) == 0
    code = out.read_text()
    assert main(["export", str(rule), "--format", fmt]) == 0
    assert capsys.readouterr().out == code  # stdout and --out agree
    if fmt == "sql":
        with sqlite3.connect(":memory:") as connection:
            frame.to_sql("data", connection, index=False)
            got = [v for (v,) in connection.execute(f"SELECT CASE WHEN {code.strip()} THEN 1 ELSE 0 END FROM data ORDER BY rowid")]
    elif fmt == "query":
        got = frame.eval(code.strip(), engine="python").tolist()
    else:
        namespace: dict = {}
        exec(code, namespace)
        got = [namespace["predict_row"](row) for row in frame.to_dict("records")]
    assert np.array_equal(np.asarray(got, dtype=bool), expected)


# -- rule files are input ----------------------------------------------------------------


def valid_document() -> dict:
    return {
        "format": "rulemodels.model", "version": 1, "target": "y", "classes": [0, 1], "features": ["a", "b"],
        "rule": {"format": "rulemodels.rule", "version": 1, "form": "dnf",
                 "clauses": [[{"feature": "a", "op": ">", "value": 1.0}]]},
        "metadata": {},
    }


def with_column_kinds(kinds: object) -> dict:
    """The change to :func:`valid_document` that gives it a rule on the text codes ``icd`` (and a column ``age``)
    and these column kinds (the column kinds' own tests: tests/rules/test_column_kinds.py)."""
    return {"features": ["icd", "age"], "column_kinds": kinds,
            "rule": {"format": "rulemodels.rule", "version": 1, "form": "dnf",
                     "clauses": [[{"feature": "icd", "op": "==", "value": "250"}]]}}


@pytest.mark.parametrize("change, field", [
    ({"classes": [1, 1]}, "'classes' must be two different labels"),
    ({"classes": [1, "1"]}, "'classes' must be two different labels"),
    ({"classes": [0, None]}, "'classes' must be a list of two JSON scalars"),
    ({"version": True}, "'version' must be one of [1, 2]"),
    ({"version": 7}, "'version' must be one of [1, 2]"),
    ({"target": [1]}, "'target' must be the label column's name"),
    ({"features": None}, "'features' must be a list of column names"),
    ({"features": ["b"]}, "'features' does not list ['a'], which the rule uses"),
    ({"features": ["a", "a"]}, "'features' lists ['a'] more than once"),
    ({"metadata": [1]}, "'metadata' must be an object"),
    ({"extra": 1}, "unexpected key(s) 'extra'"),
    ({"pattern_rates": {"patterns": [[True, False]], "n_samples": [1], "n_positive": [1], "proba": [0.5],
                        "unseen": [0.1, 0.9]}}, "'pattern_rates.patterns' must be a list of lists of 1 booleans"),
    ({"pattern_rates": {"patterns": [[True]], "n_samples": [1], "n_positive": [1], "proba": [1.5],
                        "unseen": [0.1, 0.9]}}, "'pattern_rates.proba' must be a list of 1 numbers in [0, 1]"),
    (with_column_kinds([]), "'column_kinds' must be an object"),
    (with_column_kinds({"icd": {"kind": "text"}}), "'column_kinds.icd': kind must be one of numeric, categorical, flag"),
    (with_column_kinds({"icd": {"kind": "categorical"}}), "'column_kinds.icd': a categorical column's values must be one of"),
    (with_column_kinds({"icd": {"kind": "categorical", "values": "text", "x": 1}}), "'column_kinds.icd': expected an object"),
    (with_column_kinds({"icd": "categorical"}), "'column_kinds.icd': expected an object"),
    (with_column_kinds({"age": {"kind": "numeric", "values": "text"}, "icd": {"kind": "categorical", "values": "text"}}),
     "'column_kinds.age': only a categorical column has 'values'"),
    (with_column_kinds({"icd": {"kind": "categorical", "values": "text"}, "zip": {"kind": "numeric"}}),
     "'column_kinds' names ['zip'], which 'features' does not list"),
    (with_column_kinds({"age": {"kind": "numeric"}}), "'column_kinds' has no entry for ['icd'], which the rule uses"),
    (with_column_kinds({"icd": {"kind": "numeric"}}), "'column_kinds.icd' is numeric, but the rule has the literal 'icd == 250'"),
    (with_column_kinds({"icd": {"kind": "categorical", "values": "numbers"}}),
     "says its categories are numbers, but the rule compares it with '250'"),
])
def test_every_field_of_a_rule_file_is_checked_and_named(change, field, tmp_path):
    document = {**valid_document(), **change}
    path = tmp_path / "rule.json"
    path.write_text(json.dumps(document))
    with pytest.raises(RuleFormatError) as info:
        load_model(path)
    assert str(info.value).startswith(f"'{path}': ") and field in str(info.value)


def test_a_missing_features_list_is_refused(tmp_path):
    document = valid_document()
    del document["features"]
    path = tmp_path / "rule.json"
    path.write_text(json.dumps(document))
    with pytest.raises(RuleFormatError, match="'features' must be a list"):
        load_model(path)


def test_the_valid_document_loads(tmp_path):
    path = tmp_path / "rule.json"
    path.write_text(json.dumps(valid_document()))
    model = load_model(path)
    assert model.classes == (0, 1) and model.features == ("a", "b") and model.pattern_rates is None


def test_oversized_rule_files_and_devices_are_refused_before_parsing(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_RULE_FILE_BYTES + 1))
    with pytest.raises(RuleFormatError, match="larger than 10 MiB"):
        load_model(big)
    data = tmp_path / "data.csv"
    pd.DataFrame({"a": [1.0]}).to_csv(data, index=False)
    # /dev/zero has no end: the read stops at the limit (this would hang without it)
    assert main(["predict", "/dev/zero", str(data)]) == 1
    assert "larger than 10 MiB" in capsys.readouterr().err


# -- start-up: no Pyomo, no scikit-learn -------------------------------------------------

HEAVY = ("pyomo", "sklearn", "highspy")


def imported_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has imported after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_help_imports_neither_pyomo_nor_scikit_learn():
    code = "from rulemodels.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    assert imported_after(code).isdisjoint(HEAVY)
    for command in ("fit", "cv", "predict", "export"):
        code = f"from rulemodels.cli import main\ntry:\n    main(['{command}', '--help'])\nexcept SystemExit:\n    pass"
        assert imported_after(code).isdisjoint(HEAVY), command


def test_predict_and_export_import_neither_pyomo_nor_scikit_learn(credit):
    data, rule, _ = credit
    code = (
        "import contextlib, io\nfrom rulemodels.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        f"    assert main(['predict', {str(rule)!r}, {str(data)!r}, '--proba', '--explain']) == 0\n"
        f"    assert main(['export', {str(rule)!r}, '--format', 'python']) == 0"
    )
    assert imported_after(code).isdisjoint(HEAVY)


def test_import_rulemodels_is_lazy_but_every_public_name_is_there():
    import rulemodels

    assert imported_after("import rulemodels").isdisjoint(HEAVY)
    for name in rulemodels.__all__:
        assert getattr(rulemodels, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        rulemodels.nope  # noqa: B018


def test_python_m_rulemodels_help_shows_no_heavy_import_in_importtime():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "rulemodels", "--help"],
                          capture_output=True, text=True, check=True)
    imported = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines() if "|" in line}
    assert "argparse" in imported and imported.isdisjoint(HEAVY)


def test_defaults_module_imports_nothing():
    """rulemodels.defaults is read by the CLI's parser: importing it loads no other module than the solver names it re-exports
    (``solvers.defaults``, standard library only), so no numpy, pandas, ..."""
    code = "import sys, rulemodels\nbefore = set(sys.modules)\nimport rulemodels.defaults\nprint(sorted(set(sys.modules) - before))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['rulemodels.defaults', 'solvers.defaults']"
    assert imported_after("import rulemodels.defaults, rulemodels.utils").isdisjoint({*HEAVY, "numpy", "pandas"})


def test_help_imports_neither_numpy_nor_pandas():
    for command in ("", "fit", "cv", "reproduce", "exact"):
        argv = f"['{command}', '--help']" if command else "['--help']"
        code = f"from rulemodels.cli import main\ntry:\n    main({argv})\nexcept SystemExit:\n    pass"
        assert imported_after(code).isdisjoint({*HEAVY, "numpy", "pandas"}), command


def test_the_cli_defaults_are_the_defaults_module_and_the_estimators():
    from rulemodels import BooleanRuleClassifier, defaults
    from rulemodels.cli import build_parser

    fit = build_parser().parse_args(["fit", "pima"])
    estimator = BooleanRuleClassifier()
    for name in ("n_clauses", "theta", "form", "solver", "n_thresholds", "thresholds", "max_iter", "algorithm", "nan",
                 "high_cardinality"):
        assert getattr(fit, name) == getattr(defaults, f"DEFAULT_{name.upper()}") == getattr(estimator, name), name
    cv = build_parser().parse_args(["cv", "pima"])
    assert cv.n_clauses == list(defaults.DEFAULT_N_CLAUSES_GRID) and cv.folds == defaults.DEFAULT_FOLDS
    assert build_parser().parse_args(["exact", "pima"]).solver == defaults.EXACT_SOLVER


@pytest.mark.parametrize("command, new, old", [
    (["fit", "pima"], ["--n-clauses", "3", "--n-thresholds", "4"], ["--clauses", "3", "--thresholds", "4"]),
    (["fit", "pima"], ["--high-cardinality", "keep"], ["--keep-id-columns"]),
    (["exact", "pima"], ["--n-clauses", "1", "--n-thresholds", "3"], ["--clauses", "1", "--thresholds", "3"]),
    (["cv", "pima"], ["--n-clauses", "1-3", "--n-thresholds", "5"], ["--clauses", "1-3", "--thresholds", "5"]),
    (["reproduce"], ["--n-clauses", "2", "--n-thresholds", "5"], ["--clauses", "2", "--thresholds", "5"]),
])
def test_flags_are_named_after_the_parameters_and_the_old_spellings_still_work(command, new, old, capsys):
    from rulemodels.cli import build_parser

    renamed, aliased, default = (vars(build_parser().parse_args([*command, *flags])) for flags in (new, old, []))
    assert renamed == aliased != default
    assert all(flag not in build_parser().format_help() for flag in ("--clauses", "--thresholds", "--keep-id-columns"))
    with pytest.raises(SystemExit):
        build_parser().parse_args([command[0], "--help"])
    shown = capsys.readouterr().out
    assert "--n-clauses" in shown and "--clauses " not in shown and "--keep-id-columns" not in shown


def test_builtin_solver_names_in_help_match_the_registry():
    from rulemodels.defaults import BUILTIN_SOLVERS
    from solvers import registered_backends

    assert set(BUILTIN_SOLVERS) <= set(registered_backends())
    assert list(BUILTIN_SOLVERS) == [name for name in registered_backends() if name in BUILTIN_SOLVERS]


def test_repr_html_of_a_rule_and_a_fitted_estimator():
    from rulemodels import Literal, Rule

    rule = Rule.dnf([[Literal("a<b", ">", 1.0), Literal("c", "==", "<x>")], [Literal("d", "is_nan")]])
    markup = rule._repr_html_()
    assert markup.count("<tr><td>") == 2 and "term 2" in markup and "OR" in markup
    assert "a&lt;b &gt; 1.0" in markup and "&lt;x&gt;" in markup and "<x>" not in markup
    assert "2 clauses, 3 conditions, 3 literals, 3 features" in markup
    X, y = load_dataset("liver")
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=2, n_thresholds=3)
    assert clf._repr_html_().startswith("<pre>")  # not fitted: its parameters
    clf.fit(X, y)
    markup = clf._repr_html_()
    assert f"training error: {clf.training_error_:.4f}" in markup and "baseline:" in markup
    assert markup.count("<tr><td>") == clf.rule_.n_clauses
    bundle = clf._repr_mimebundle_()  # Jupyter asks for this first (scikit-learn defines one)
    assert bundle["text/html"] == markup and bundle["text/plain"] == repr(clf)


def test_repr_html_of_a_fitted_boolean_rule_cv():
    from rulemodels import BooleanRuleCV

    X, y = load_dataset("liver")
    search = BooleanRuleCV(algorithms="scs", thetas=[0.005], n_clauses=[1, 2], cv=2, n_thresholds=3)
    assert "not fitted" in search._repr_html_()
    search.fit(X, y)
    markup = search._repr_mimebundle_()["text/html"]
    assert markup.startswith(search.best_estimator_._repr_html_()) and f"R={search.n_clauses_}" in markup
