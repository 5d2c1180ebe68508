"""The HTML report of a rule: its numbers by hand, its agreement with predict, its page self-contained."""

from __future__ import annotations

import html
import importlib.metadata
import importlib.resources
import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rulemodels
from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from rulemodels.report import MAX_GROUPS, render_html, report_data, report_html
from rulemodels.rules import Literal, Rule, RuleList, explain_rule, load_model, save_model

#: How the page shows the rows with no value of a ``by`` column, and the pooled rest of its rare values.
MISSING_GROUP, OTHER_GROUP = "missing (no value)", "other values"


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
    assert "quantile bins" in data.subgroup_note and MISSING_GROUP in groups.index
    assert int(groups["rows"].sum()) == 100 and int(groups["errors"].sum()) == int(np.sum(data.predicted != y))
    assert groups.loc[MISSING_GROUP, "rows"] == 1 and groups.loc[MISSING_GROUP, "kind"] == "missing"
    assert set(groups["kind"]) == {"bin", "missing"}
    by_site = report_data(rule, X, y, by="site").subgroups.set_index("group")
    assert list(by_site.index) == ["'a'", "'b'", MISSING_GROUP] and by_site["rows"].tolist() == [50, 25, 25]
    assert by_site["value"].tolist()[:2] == ["a", "b"] and by_site["kind"].tolist() == ["value", "value", "missing"]
    assert "one group per value" in report_data(rule, X, y, by="site").subgroup_note


def subgroup_errors(data, mask):
    """The labelled rows and errors of the rows in ``mask``, counted here."""
    labelled = data.truth >= 0
    return int(np.sum(mask & labelled)), int(np.sum(mask & labelled & (data.predicted_index != data.truth)))


def test_a_real_value_named_missing_is_not_pooled_with_missing_values():
    """53 rows with the value 'missing' and 73 with no value are two groups, each with its own error."""
    rng = np.random.default_rng(39)
    status = np.array(["missing"] * 53 + [None] * 73 + ["paid"] * 74, dtype=object)
    order = rng.permutation(len(status))
    X = pd.DataFrame({"x": rng.normal(size=200), "status": status[order]})
    y = (rng.random(200) < 0.4).astype(int)
    data = report_data(Rule.dnf([[Literal("x", ">", 0.0)]]), X, y, by="status")
    groups = data.subgroups
    assert len(groups) == 3 and groups["rows"].tolist() == [53, 74, 73]
    real = groups[groups["kind"] == "value"].set_index("value")
    gone = groups[groups["kind"] == "missing"].iloc[0]
    assert real.loc["missing", "rows"] == 53 and real.loc["missing", "group"] == "'missing'" and gone["rows"] == 73
    assert gone["group"] != real.loc["missing", "group"] and groups["group"].is_unique
    for mask, row in ((X["status"].eq("missing").to_numpy(), real.loc["missing"]),
                      (X["status"].isna().to_numpy(), gone)):
        assert (int(row["labelled"]), int(row["errors"])) == subgroup_errors(data, mask)
        assert row["error"] == pytest.approx(row["errors"] / row["labelled"])
    page = render_html(data)
    assert "<td>&#x27;missing&#x27;</td>" in page and f'<em class="group">{MISSING_GROUP}</em>' in page


def test_a_real_value_named_like_the_pooled_rest_or_the_missing_group_stays_apart():
    """More than MAX_GROUPS values: the rare ones are pooled; real values 'other values' and 'missing (no value)'
    (and a hostile one) stay groups of their own, and the page escapes them."""
    frequent = [f"v{k:02d}" for k in range(MAX_GROUPS - 3)]
    values = [v for v in frequent for _ in range(10)] + [OTHER_GROUP] * 9 + [MISSING_GROUP] * 8
    values += ["<b>x</b>"] * 7 + [f"rare{k}" for k in range(6)] + [None] * 4
    X = pd.DataFrame({"x": np.linspace(-1, 1, len(values)), "kind": values})
    y = (np.arange(len(values)) % 3 == 0).astype(int)
    data = report_data(Rule.dnf([[Literal("x", ">", 0.0)]]), X, y, by="kind")
    groups = data.subgroups
    assert groups["group"].is_unique and int(groups["rows"].sum()) == len(values)
    real = groups[groups["kind"] == "value"].set_index("value")
    assert len(real) == MAX_GROUPS and real.loc[OTHER_GROUP, "rows"] == 9 and real.loc[MISSING_GROUP, "rows"] == 8
    pooled = groups[groups["kind"] == "other"].iloc[0]
    assert pooled["rows"] == 6 and pooled["group"].startswith(OTHER_GROUP) and "6 rarer values" in pooled["group"]
    assert groups[groups["kind"] == "missing"]["rows"].tolist() == [4]
    assert groups["kind"].tolist()[-2:] == ["other", "missing"]
    column = X["kind"]
    for value, row in real.iterrows():
        assert (int(row["labelled"]), int(row["errors"])) == subgroup_errors(data, column.eq(value).to_numpy())
    rare = column.str.startswith("rare").fillna(False).to_numpy(dtype=bool)
    assert (int(pooled["labelled"]), int(pooled["errors"])) == subgroup_errors(data, rare)
    page = render_html(data)
    assert "<b>x</b>" not in page and "&#x27;&lt;b&gt;x&lt;/b&gt;&#x27;" in page
    assert f"<td>&#x27;{OTHER_GROUP}&#x27;</td>" in page and f'<em class="group">{OTHER_GROUP} (6 rarer values)</em>' in page


def test_a_rare_class_gets_balanced_accuracy_and_recall_and_precision_per_class():
    """3 % positives; the scores match sklearn.metrics, in the data and on the page."""
    from sklearn.metrics import balanced_accuracy_score, precision_score, recall_score

    rng = np.random.default_rng(3)
    X = pd.DataFrame({"x": rng.normal(size=1000)})
    y = np.zeros(1000, dtype=int)
    y[rng.choice(1000, 30, replace=False)] = 1
    X.loc[y == 1, "x"] += 1.5
    data = report_data(Rule.dnf([[Literal("x", ">", 1.2)]]), X, y)
    predicted = data.predicted_index
    scores = data.class_scores.set_index("class")
    assert data.balanced_accuracy == pytest.approx(balanced_accuracy_score(y, predicted))
    assert scores["recall"].tolist() == pytest.approx(list(recall_score(y, predicted, average=None)))
    assert scores["precision"].tolist() == pytest.approx(list(precision_score(y, predicted, average=None)))
    assert scores["rows"].tolist() == [970, 30] and scores.loc[1, "share"] == pytest.approx(0.03)
    assert data.unequal_classes and 0.5 < data.balanced_accuracy < data.accuracy
    page = render_html(data)
    assert f"{data.balanced_accuracy:.4f}" in page and "balanced accuracy" in page and "The classes are unequal" in page
    for recall, precision in zip(scores["recall"], scores["precision"]):
        assert f"<td class=\"num\">{100 * recall:.1f} %</td><td class=\"num\">{100 * precision:.1f} %</td>" in page


def test_a_rule_lists_scores_per_class_match_sklearn(report_pima_three):
    from sklearn.metrics import balanced_accuracy_score, precision_score, recall_score

    X, labels = report_pima_three
    rules = RuleList([("high", Rule.dnf([[Literal("glucose", ">", 150.0)]])),
                      ("low", Rule.dnf([[Literal("bmi", ">", 45.0)]]))], "healthy")
    data = report_data(rules, X, labels)
    predicted = data.predicted.astype(str)
    order = [str(c) for c in data.classes]
    assert data.balanced_accuracy == pytest.approx(balanced_accuracy_score(labels, predicted))
    scores = data.class_scores
    assert scores["recall"].tolist() == pytest.approx(list(recall_score(labels, predicted, labels=order, average=None)))
    assert scores["precision"].tolist() == pytest.approx(
        list(precision_score(labels, predicted, labels=order, average=None, zero_division=np.nan)), nan_ok=True)
    assert not report_data(Rule.dnf([[Literal("x", ">", 5.0)]]), pd.DataFrame({"x": [6.0, 1.0, 1.0, 6.0]}),
                           [1, 0, 0, 1]).unequal_classes


def test_long_class_labels_are_shown_whole_in_the_confusion_chart():
    """A class label is never cut: wrapped over lines in the SVG, whole in its tooltip and in the tables."""
    long = "patients readmitted within thirty days of discharge"
    unbroken = "x" * 60
    rules = RuleList([(long, Rule.dnf([[Literal("x", ">", 5.0)]])), (unbroken, Rule.dnf([[Literal("z", "==", 1)]]))],
                     "no")
    X = pd.DataFrame({"x": [6.0, 1.0, 1.0, 6.0, 1.0], "z": [0, 1, 0, 0, 0]})
    page = report_html(rules, X, [long, unbroken, "no", long, "no"])
    chart = page[page.index('aria-label="confusion matrix"'):]
    chart = chart[:chart.index("</svg>")]
    for label in (long, unbroken):
        assert chart.count(f"<title>{label}</title>") == 2  # as a column and as a row
        texts = re.findall(r"<text[^>]*><title>" + re.escape(label) + r"</title>(.*?)</text>", chart)
        for text in texts:
            lines = re.findall(r"<tspan[^>]*>(.*?)</tspan>", text)
            assert "".join(lines).replace(" ", "") == label.replace(" ", "") and len(lines) > 1
        assert f"<td>{label}</td>" in page.replace("<wbr>", "")


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
    # the refit stops at the chosen θ: it walked the θ values down to it, not below
    assert 0 < len(walked) <= len(same_r) and list(walked["theta"]) == [t for t in same_r["theta"] if t >= search.theta_]
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
    assert facts["rulemodels"] == rulemodels.__version__ == importlib.metadata.version("rulemodels")
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


def test_the_groups_shown_are_the_modules_names(capsys):
    from rulemodels import report
    from rulemodels.cli import main

    assert (report.MISSING_GROUP, report.OTHER_GROUP) == (MISSING_GROUP, OTHER_GROUP)
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert f"beyond the {MAX_GROUPS} most frequent values" in " ".join(capsys.readouterr().out.split())


#: The committed example report (docs/examples/make_report_example.py writes it) and the rule file it shows.
DOCS = Path(__file__).resolve().parents[2] / "docs"


def _style_sheet() -> str:
    return importlib.resources.files("rulemodels.report").joinpath("report.css").read_text(encoding="utf-8")


def test_the_page_style_is_the_package_style_sheet_alone(report_toy):
    """The CSS is one package file, put whole into the page's <style>; no module of the report writes CSS itself."""
    css = _style_sheet()
    assert "@media print" in css and "border-collapse" in css
    page = report_html(Rule.dnf([[Literal("x", ">", 5.0)]]), report_toy, [1, 0, 0, 1, 0])
    assert page.count("<style>") == 1 and f"<style>\n{css}</style>" in page
    package = Path(rulemodels.report.__file__).parent
    assert sorted(path.name for path in package.glob("*.py")) == ["__init__.py", "_data.py", "_figures.py", "_html.py"]
    assert not [path.name for path in package.glob("*.py") if "border-collapse" in path.read_text(encoding="utf-8")]


def _metadata_rows(page: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><td>([^<]*)</td><td>(.*?)</td></tr>", page.split('<h2 id="metadata">')[1]))


def test_the_committed_example_report_is_what_the_code_writes_today(report_pima):
    """docs/report_example.html is generated output: rendering its rule file again gives the same page (its style
    sheet included), apart from what depends on the run (the date, the versions, the rule file's path) and the
    Pareto section (it needs the example's cv run). Run docs/examples/make_report_example.py when this fails."""
    committed = (DOCS / "report_example.html").read_text(encoding="utf-8")
    X, y = report_pima
    page = report_html(str(DOCS / "examples" / "pima_rule.json"), X, y, by="age", data_name="pima")
    before_pareto = committed.split('<h2 id="pareto">')[0]
    assert before_pareto == page.split('<h2 id="metadata">')[0]
    assert f"<style>\n{_style_sheet()}</style>" in before_pareto
    varies = ("date (UTC)", "rulemodels", "solver", "rule file")
    expected, shown = _metadata_rows(committed), _metadata_rows(page)
    assert set(expected) == set(shown) and "rule file SHA-256" in shown
    assert {k: v for k, v in expected.items() if k not in varies} == {k: v for k, v in shown.items() if k not in varies}
