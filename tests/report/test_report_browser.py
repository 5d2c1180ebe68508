"""The report and the notebook view opened in a real browser: headless Chromium (tests/chromium.py).

Each page must render without console errors, request nothing but its own
file, show the rule's text, and draw figures that are not blank in the
screenshot. Skipped with an install hint when Chromium is missing, except
under CI.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from rulemodels.cli import main
from rulemodels.report import report_html
from tests.chromium import Browser, require_chromium

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report_browser():
    """One headless Chromium for the module; its process group is gone after the module."""
    browser = Browser(require_chromium())
    with browser:
        yield browser
    with pytest.raises(ProcessLookupError):  # no orphans: nothing of its process group is left
        os.killpg(browser.group, 0)


def check_page(visit, texts: list[str], n_figures: int) -> None:
    assert visit.errors == []
    assert visit.requests == [visit.url], "the page requested something besides itself"
    for text in texts:
        assert text in visit.text
    assert visit.image.size[0] > 0 and len(visit.image.getcolors(maxcolors=1 << 20) or []) > 20, "a blank screenshot"
    figures = [box for box in visit.boxes if box[2] > 10 and box[3] > 10]
    assert len(figures) == n_figures
    for box in figures:
        assert visit.region_colours(box) > 3, f"the figure at {box} is blank in the screenshot"


def test_the_report_renders_with_its_figures_and_requests_nothing(report_browser, tmp_path, capsys):
    rule = tmp_path / "rule.json"
    assert main(["fit", "pima", "--n-clauses", "2", "--theta", "0.01", "--out", str(rule)]) == 0
    results = tmp_path / "cv.jsonl"
    assert main(["cv", "pima", "--algorithms", "am", "--n-clauses", "1-2", "--thetas", "0.005", "0.02",
                 "--folds", "2", "--inner-folds", "2", "--results", str(results), "--no-progress", "--jobs", "1"]) == 0
    out = tmp_path / "report.html"
    assert main(["report", str(rule), "pima", "--results", str(results), "--by", "age", "--out", str(out)]) == 0
    visit = report_browser.visit(out)
    X, y = load_dataset("pima")
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01).fit(X, y)
    first_term = clf.rule_.clauses[0].to_str("dnf").strip("()")
    check_page(visit, ["The rule", first_term, "How good it is on pima", "Where it errs", "Error by subgroup",
                       "test-fold selection (optimistic)", "Honest (nested)", "rule file SHA-256"], n_figures=3)


def test_a_rule_list_report_renders(report_browser, tmp_path):
    X, y = load_dataset("pima")
    median = X["glucose"][y == 1].median()
    labels = np.where(y == 0, "healthy", np.where(X["glucose"] > median, "high", "low"))
    clf = BooleanRuleClassifier(theta=0.01).fit(X, labels)
    out = tmp_path / "list.html"
    report_html(clf, X, labels, data_name="pima, three classes", out=out)
    visit = report_browser.visit(out)
    check_page(visit, ["ordered rule list", "ELSE class = ", "predicted high", "default"], n_figures=2)


def test_a_searchs_report_renders_its_theta_path(report_browser, tmp_path):
    X, y = load_dataset("liver")
    search = BooleanRuleCV(cv=3).fit(X, y)
    out = tmp_path / "search.html"
    report_html(search, X, y, data_name="liver", out=out)
    visit = report_browser.visit(out)
    check_page(visit, ["Along the θ path", "CV error (mean over folds)", "chosen (best mean CV score)", "R = 5"],
               n_figures=3)


@pytest.mark.parametrize("classes", [2, 3])
def test_the_estimators_notebook_view_renders(report_browser, tmp_path, classes):
    X, y = load_dataset("pima")
    labels = y if classes == 2 else np.where(y == 0, "healthy", np.where(X["age"] > 40, "older", "younger"))
    clf = BooleanRuleClassifier(theta=0.02).fit(X, labels)
    page = tmp_path / "view.html"
    page.write_text(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>{clf._repr_html_()}</body></html>",
                    encoding="utf-8")
    visit = report_browser.visit(page)
    expected = str(clf.rule_.rules[0]) if classes == 3 else clf.rule_.clauses[0].to_str("dnf").strip("()")
    check_page(visit, [expected, "training error", "baseline"], n_figures=0)


def test_the_browser_checks_catch_errors_requests_and_blank_figures(report_browser, tmp_path):
    """The checks above are not vacuous: a script error, a request for another URL and a blank figure are seen."""
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><body><p>rule text</p>"
        '<svg width="200" height="100"><rect width="200" height="100" fill="#ffffff"/></svg>'
        '<img src="https://example.invalid/figure.png" width="10" height="10">'
        "<script>console.error('boom'); undefined_name();</script></body></html>",
        encoding="utf-8",
    )
    visit = report_browser.visit(page)
    assert any("boom" in error for error in visit.errors) and any("undefined_name" in e for e in visit.errors)
    assert "https://example.invalid/figure.png" in visit.requests
    assert visit.region_colours(visit.boxes[0]) == 1 and "rule text" in visit.text


def test_without_chromium_the_tests_skip_with_a_hint_but_fail_under_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="bash dev.sh setup"):
        require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="Debian package chromium"):
        require_chromium()


#: Every SVG text drawn inside its figure, and no element wider than the page (the figures scale down to fit).
LAYOUT_PROBE = """JSON.stringify({
  outside: Array.from(document.querySelectorAll('svg text')).filter(t => {
    const s = t.ownerSVGElement.getBoundingClientRect(), r = t.getBoundingClientRect();
    return r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1;
  }).map(t => t.textContent),
  page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
  svgText: Array.from(document.querySelectorAll('svg text')).map(t => t.textContent).join('|'),
})"""


def test_long_labels_and_values_are_shown_whole_and_nothing_overflows(report_browser, tmp_path):
    """Long class labels wrap inside the confusion chart, long subgroup values wrap in their table cells."""
    import json

    import pandas as pd

    from rulemodels.rules import Literal, Rule, RuleList

    long = "patients readmitted within thirty days of discharge"
    unbroken = "W" * 90
    rules = RuleList([(long, Rule.dnf([[Literal("x", ">", 5.0)]])), (unbroken, Rule.dnf([[Literal("z", "==", 1)]]))],
                     "no")
    X = pd.DataFrame({"x": [6.0, 1.0, 1.0, 6.0, 1.0], "z": [0, 1, 0, 0, 0], "ward": ["Q" * 150, "a", None, "a", "b"]})
    out = tmp_path / "long.html"
    report_html(rules, X, [long, unbroken, "no", long, "no"], by="ward", data_name="D" * 120, out=out)
    visit = report_browser.visit(out)
    layout = json.loads(report_browser.evaluate(LAYOUT_PROBE))
    for label in (long, unbroken):
        assert label.replace(" ", "") in layout["svgText"].replace(" ", ""), "a label is cut in a figure"
    assert layout["outside"] == [], "SVG text drawn outside its figure"
    assert layout["page"] <= layout["view"], "the page is wider than the window: something overflows"
    check_page(visit, ["'" + "Q" * 150 + "'", "missing (no value)", "balanced accuracy"], n_figures=2)
