"""The HTML report of a rule (issue 30): its numbers by hand, its agreement with predict, its page self-contained."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import rulemodels
from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from rulemodels.report import render_html, report_data, report_html
from rulemodels.rules import Literal, Rule, RuleList, explain_rule, load_model, save_model


@pytest.fixture
def report_toy():
    """Five rows, a numeric x, a 0/1 flag z and a numeric w."""
    return pd.DataFrame({"x": [6.0, 1.0, 1.0, 6.0, 1.0], "z": [0, 1, 0, 0, 0], "w": [1.0, 1.0, 1.0, 0.0, 0.0]})


@pytest.fixture(scope="module")
def report_pima():
    X, y = load_dataset("pima")
    return X, y


@pytest.fixture(scope="module")
def report_pima_three(report_pima):
    """Pima with three text classes: healthy, and diabetics above / below their median glucose."""
    X, y = report_pima
    median = X["glucose"][y == 1].median()
    return X, np.where(y == 0, "healthy", np.where(X["glucose"] > median, "high", "low"))


def test_dnf_terms_fire_and_alone_decide_as_counted_by_hand():
    X = pd.DataFrame({"x": [6.0, 6.0, 1.0, 1.0], "z": [0, 1, 1, 0]})
    rule = Rule.dnf([[Literal("x", ">", 5.0)], [Literal("z", "is_true")]])
    data = report_data(rule, X, [1, 0, 1, 1])
    first, second = data.parts
    # term 1 fires on rows 0, 1 (labels 1, 0); it alone decides row 0 (term 2 fires on row 1 too)
    assert (first.fires, first.precision, first.decides, first.decides_right, first.decides_wrong) == (2, 0.5, 1, 1, 0)
    # term 2 fires on rows 1, 2 (labels 0, 1); it alone decides row 2
    assert (second.fires, second.precision, second.decides, second.decides_right, second.decides_wrong) == (2, 0.5, 1, 1, 0)
    assert data.predicted.tolist() == [1, 1, 1, 0]
    assert data.confusion.tolist() == [[0, 1], [1, 2]]
    assert data.accuracy == 0.5 and data.baseline_error == 0.25 and data.baseline_class == 1


def test_a_cnf_clause_decides_the_rows_where_it_alone_is_false(report_toy):
    rule = Rule.cnf([[Literal("x", ">", 5.0), Literal("z", "is_true")], [Literal("w", ">", 0.0)]])
    data = report_data(rule, report_toy, [1, 0, 0, 1, 0])
    first, second = data.parts
    # clause 1 is true on rows 0, 1, 3 and false on 2, 4; removing it changes row 2 only (row 4 fails clause 2 too)
    assert (first.fires, first.precision, first.fails, first.fail_precision) == (3, 2 / 3, 2, 1.0)
    assert (first.decides, first.decides_right, first.decides_wrong) == (1, 1, 0)
    # clause 2 is false on rows 3, 4; it alone decides row 3, a positive it gets wrong
    assert (second.fires, second.fails, second.fail_precision) == (3, 2, 0.5)
    assert (second.decides, second.decides_right, second.decides_wrong) == (1, 0, 1)
    page = report_html(rule, report_toy, [1, 0, 0, 1, 0])
    assert "a CNF clause decides rows by being false" in page
    assert "<em>fires</em> on the rows where it is true" in page


def test_rule_list_steps_claim_and_alone_decide_as_counted_by_hand(report_toy):
    rules = RuleList([("a", Rule.dnf([[Literal("x", ">", 5.0)]])), ("b", Rule.dnf([[Literal("z", "is_true")]]))],
                     default="c")
    labels = ["a", "b", "c", "b", "c"]
    data = report_data(rules, report_toy, labels)
    step1, step2, default = data.parts
    assert data.predicted.tolist() == ["a", "b", "c", "a", "c"] == rules.predict(report_toy).tolist()
    # step 1 claims rows 0 and 3 (one of them an a); without it both would fall to the default c
    assert (step1.fires, step1.precision, step1.decides, step1.decides_right, step1.decides_wrong) == (2, 0.5, 2, 1, 1)
    assert (step2.fires, step2.precision, step2.decides, step2.decides_right) == (1, 1.0, 1, 1)
    assert (default.fires, default.precision, default.decides) == (2, 1.0, None)
    assert data.confusion.shape == (3, 3) and data.confusion.trace() == 4


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_the_report_predicts_as_the_estimator_and_the_saved_file(form, report_pima, tmp_path):
    X, y = report_pima
    clf = BooleanRuleClassifier(form=form, n_clauses=2, theta=0.01).fit(X, y)
    data = report_data(clf, X, y)
    assert data.predicted.tolist() == clf.predict(X).tolist()
    assert data.accuracy == pytest.approx(float(np.mean(clf.predict(X) == y)))
    path = tmp_path / "rule.json"
    save_model(path, clf.rule_, (0, 1), "diabetes", list(X.columns), column_kinds=clf.binarizer_.column_kinds_)
    from_file = report_data(str(path), X, y)
    assert from_file.predicted.tolist() == load_model(path).predict(X).tolist()
    assert from_file.confusion.tolist() == data.confusion.tolist()
    assert len(data.parts) == clf.rule_.n_clauses


def test_the_report_of_a_rule_list_predicts_as_the_estimator(report_pima_three):
    X, labels = report_pima_three
    clf = BooleanRuleClassifier(theta=0.01).fit(X, labels)
    data = report_data(clf, X, labels)
    assert data.predicted.tolist() == clf.predict(X).tolist()
    assert data.confusion.shape == (3, 3) and data.confusion.sum() == len(X)
    assert [p.name for p in data.parts] == [f"step {k + 1}" for k in range(len(clf.rule_.steps))] + ["default"]
    assert sum(p.fires for p in data.parts) == len(X)  # every row is claimed by one step or the default


def test_errors_are_shown_with_predict_explain_reasons(report_pima):
    X, y = report_pima
    rule = Rule.dnf([[Literal("glucose", ">", 140.0)], [Literal("bmi", ">", 40.0)]])
    data = report_data(rule, X, y, n_examples=3)
    assert data.n_errors_by_kind["false positive"] == int(np.sum(rule.evaluate(X) & (y == 0)))
    assert data.n_errors_by_kind["false negative"] == int(np.sum(~rule.evaluate(X) & (y == 1)))
    reasons = explain_rule(rule, X)["reason"].to_numpy()
    assert len(data.errors) == 6
    for row in data.errors.itertuples():
        assert row.reason == reasons[row.row - 1]
        assert (row.kind == "false positive") == (row.predicted == 1) and row.actual != row.predicted


def test_error_by_subgroup_bins_many_numbers_and_keeps_missing_values():
    X = pd.DataFrame({"age": np.arange(100, dtype=float), "site": ["a", "b", None, "a"] * 25})
    X.loc[0, "age"] = np.nan
    rule = Rule.dnf([[Literal("age", ">", 49.0)]])
    y = (np.arange(100) > 60).astype(int)
    data = report_data(rule, X, y, by="age")
    groups = data.subgroups.set_index("group")
    assert "quantile bins" in data.subgroup_note and "missing" in groups.index
    assert int(groups["rows"].sum()) == 100 and int(groups["errors"].sum()) == int(np.sum(data.predicted != y))
    assert groups.loc["missing", "rows"] == 1
    by_site = report_data(rule, X, y, by="site").subgroups.set_index("group")
    assert list(by_site.index) == ["a", "b", "missing"] and by_site["rows"].tolist() == [50, 25, 25]
    assert "one group per value" in report_data(rule, X, y, by="site").subgroup_note


def cv_records(path):
    """A hand-made 'rulemodels cv' results file: 2 outer folds, 2 inner folds, R in {1, 2}, θ in {0.01, 0.1}."""
    records = []

    def add(r, theta, fold, test, literals, inner=None):
        records.append({
            "dataset": "toy", "algorithm": "am", "n_clauses": r, "theta": theta, "fold": fold, "n_folds": 2,
            "form": "dnf", "inner_fold": inner, "n_inner_folds": 2 if inner is not None else None,
            "key": f"R={r}|theta={theta}|fold={fold}|inner={inner}", "train_error": test - 0.05,
            "test_error": test, "n_literals": literals, "n_features": literals, "error": None,
        })

    add(1, 0.01, 0, 0.20, 6)
    add(1, 0.01, 1, 0.22, 4)
    add(1, 0.1, 0, 0.30, 2)
    add(1, 0.1, 1, 0.26, 2)
    add(2, 0.1, 0, 0.30, 3)
    add(2, 0.1, 1, 0.30, 3)
    for inner in (0, 1):  # fold 0's inner CV prefers θ = 0.1, fold 1's θ = 0.01
        add(1, 0.01, 0, 0.25, 5, inner)
        add(1, 0.1, 0, 0.20, 2, inner)
        add(1, 0.01, 1, 0.10, 5, inner)
        add(1, 0.1, 1, 0.30, 2, inner)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_the_pareto_front_of_a_cv_results_file_labels_optimistic_and_honest(report_toy, tmp_path):
    rule = Rule.dnf([[Literal("x", ">", 5.0)]])
    rule_path = tmp_path / "rule.json"
    save_model(rule_path, rule, (0, 1), "y", ["x", "z", "w"], algorithm="am", theta=0.1, n_clauses=1)
    results = cv_records(tmp_path / "cv.jsonl")
    data = report_data(str(rule_path), report_toy, [1, 0, 0, 1, 0], results=results)
    points = data.pareto["points"].set_index(["n_clauses", "theta"])
    assert points.loc[(1, 0.01), ["literals", "error"]].tolist() == pytest.approx([5.0, 0.21])
    assert points["on_front"].to_dict() == {(1, 0.01): True, (1, 0.1): True, (2, 0.1): False}
    assert points["this_setting"].to_dict() == {(1, 0.01): False, (1, 0.1): True, (2, 0.1): False}
    honest = data.pareto["honest"]
    assert len(honest) == 1  # R = 2 has no inner fits
    # fold 0 takes θ = 0.1 (test 0.30, 2 literals), fold 1 θ = 0.01 (test 0.22, 4 literals)
    assert honest.loc[0, ["error", "literals"]].tolist() == pytest.approx([0.26, 3.0])
    page = report_html(str(rule_path), report_toy, [1, 0, 0, 1, 0], results=results)
    assert "Test-fold selection (optimistic)" in page and "Honest (nested)" in page
    assert "this rule&#x27;s setting" in page and page.count("<svg") == 3


@pytest.fixture(scope="module")
def report_search():
    """BooleanRuleCV() on liver, 3 folds: a θ path of 8 values x R = 1, 2, 3, 5."""
    X, y = load_dataset("liver")
    return X, y, BooleanRuleCV(cv=3).fit(X, y)


def test_a_searchs_report_plots_error_and_literals_along_its_theta_path(report_search):
    """One line per R in each panel (the CV error, the literals), the chosen candidate ringed in both, and the table
    of the chosen R with the refit's rule at each θ it passed."""
    X, y, search = report_search
    path = search.rule_path_
    data = report_data(search, X, y)
    assert data.path is path and data.path_scoring == "accuracy"
    page = report_html(search, X, y)
    section = page[page.index('<h2 id="path">'):page.index('<h2 id="metadata">')]
    assert section.count("<svg") == 1 and section.count("<polyline") == 2 * path["n_clauses"].nunique()
    assert section.count('fill="none" stroke="#c8453a" stroke-width="2"') == 2  # the ring, in both panels
    chosen = path[path["chosen"]].iloc[0]
    assert chosen["theta"] == search.theta_ and chosen["n_clauses"] == search.n_clauses_
    same_r = path[path["n_clauses"] == chosen["n_clauses"]]
    assert section.count("<tr>") == 1 + len(same_r)
    assert f"{100 * (1 - chosen['mean_test_score']):.1f} %" in section
    walked = same_r.dropna(subset=["n_literals"])
    assert 0 < len(walked) < len(same_r)  # the refit stops at the chosen θ
    for rule in walked["rule"]:
        assert html.escape(str(rule)) in section
    assert '<h2 id="path">' not in report_html(search.best_estimator_, X, y)  # a plain fit has no path


def test_a_path_scored_otherwise_plots_the_score(report_search):
    X, y, search = report_search
    data = report_data(search, X, y)
    page = render_html(replace(data, path_scoring="balanced_accuracy"))
    section = page[page.index('<h2 id="path">'):page.index('<h2 id="metadata">')]
    assert "CV balanced_accuracy (mean over folds)" in section and "CV error" not in section
    chosen = search.rule_path_[search.rule_path_["chosen"]].iloc[0]
    assert f"{chosen['mean_test_score']:.4f}" in section


def test_a_results_file_without_inner_folds_says_how_to_get_the_honest_numbers(report_toy, tmp_path):
    path = cv_records(tmp_path / "cv.jsonl")
    outer = [line for line in path.read_text().splitlines() if '"inner_fold": null' in line]
    path.write_text("\n".join(outer) + "\n")
    page = report_html(Rule.dnf([[Literal("x", ">", 5.0)]]), report_toy, [1, 0, 0, 1, 0], results=path)
    assert "has no inner folds" in page and "--inner-folds 3" in page


def test_the_page_is_self_contained_printable_and_escapes_every_text(tmp_path):
    X = pd.DataFrame({"<b>dose</b>": [1.0, 5.0, 9.0, 3.0], "ward": ["<script>", "b", "a", "b"]})
    rule = Rule.dnf([[Literal("<b>dose</b>", ">", 4.0)], [Literal("ward", "==", "<script>")]])
    out = tmp_path / "report.html"
    page = report_html(rule, X, [1, 0, 1, 0], by="ward", out=out)
    assert out.read_text(encoding="utf-8") == page
    assert "<script" not in page.lower() and "&lt;script&gt;" in page and "&lt;b&gt;dose&lt;/b&gt;" in page
    assert "http://" not in page and "https://" not in page and "@import" not in page and "url(" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?//""", page) and "src=" not in page
    assert "@media print" in page and page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2


def test_the_metadata_names_the_file_its_checksum_and_what_it_does_not_record(report_toy, tmp_path):
    import hashlib

    rule = Rule.dnf([[Literal("x", ">", 5.0)]])
    path = tmp_path / "old.json"
    save_model(path, rule, (0, 1), "y", ["x"], algorithm="am", theta=0.01, n_clauses=1, solver="highs")
    facts = dict(report_data(str(path), report_toy, [1, 0, 0, 1, 0], data_name="toy.csv").facts)
    assert facts["rule file SHA-256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert facts["data"] == "toy.csv (5 rows)" and facts["algorithm"] == "am" and facts["R (clauses)"] == "1"
    assert facts["training error (stored)"] == "not recorded in the rule file"
    assert facts["complexity (stored)"] == "not recorded in the rule file"
    assert facts["solver"].startswith("highs ") and "highspy" in facts["solver"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", facts["date (UTC)"])
    save_model(path, rule, (0, 1), "y", ["x"], training_error=0.125, complexity=rule.complexity())
    facts = dict(report_data(str(path), report_toy, [1, 0, 0, 1, 0]).facts)
    assert facts["training error (stored)"] == "0.1250"
    assert facts["complexity (stored)"] == "1 clauses, 1 conditions, 1 literals, 1 features"


def test_bad_inputs_say_what_is_wrong(report_toy, tmp_path):
    rule = Rule.dnf([[Literal("dose", ">", 5.0)]])
    with pytest.raises(ValueError, match="the data has no column 'dose', which the rule uses"):
        report_data(rule, report_toy, [1, 0, 0, 1, 0])
    rule = Rule.dnf([[Literal("x", ">", 5.0)]])
    with pytest.raises(ValueError, match="learned for another target"):
        report_data(rule, report_toy, ["M", "R", "M", "M", "R"])
    with pytest.raises(ValueError, match="one label per row"):
        report_data(rule, report_toy, [1, 0])
    with pytest.raises(ValueError, match="no column 'ward' to group"):
        report_data(rule, report_toy, [1, 0, 0, 1, 0], by="ward")
    with pytest.raises(ValueError, match="not fitted"):
        report_data(BooleanRuleClassifier(), report_toy, [1, 0, 0, 1, 0])
    data = report_data(rule, report_toy, [1, 0, None, "other", 0])  # unknown labels are left out, and counted
    assert data.n_labelled == 3 and data.confusion.sum() == 3


def test_report_html_is_a_public_name():
    assert rulemodels.report_html is report_html and "report_html" in rulemodels.__all__


@pytest.mark.parametrize(("form", "constant"), [("dnf", 0), ("cnf", 1)])
def test_a_rule_without_clauses_says_what_it_predicts(report_toy, form, constant):
    data = report_data(Rule(form, ()), report_toy, [1, 0, 0, 1, 0])
    assert data.parts == [] and data.predicted.tolist() == [constant] * 5
    page = report_html(Rule(form, ()), report_toy, [1, 0, 0, 1, 0])
    assert f"This rule has no clauses: it predicts {constant} on every row." in page and page.count("<svg") == 1
