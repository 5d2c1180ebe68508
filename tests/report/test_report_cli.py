"""``rulemodels report``: the page from a rule file, and bad inputs refused as ``predict`` refuses them."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from rulemodels import load_dataset
from rulemodels.cli import main
from rulemodels.rules import load_model


@pytest.fixture(scope="module")
def report_liver_files(tmp_path_factory):
    """Liver as a CSV file (label column 'selector', values 1 and 2) and the DNF rule 'fit --out' saved for it."""
    directory = tmp_path_factory.mktemp("report_cli")
    X, y = load_dataset("liver")
    data = directory / "liver.csv"
    X.assign(selector=np.where(y == 1, "sick", "well")).to_csv(data, index=False)
    rule = directory / "rule.json"
    assert main(["fit", str(data), "--target", "selector", "--n-clauses", "2", "--theta", "0.01", "--out", str(rule)]) == 0
    return data, rule


def test_fit_out_stores_the_training_error_and_the_complexity(report_liver_files, capsys):
    data, rule = report_liver_files
    metadata = json.loads(rule.read_text())["metadata"]
    model = load_model(rule)
    frame = pd.read_csv(data)
    error = float(np.mean(model.predict(frame) != frame["selector"].to_numpy()))
    assert metadata["training_error"] == pytest.approx(error)
    assert metadata["complexity"] == model.rule.complexity()


def test_report_writes_the_page_and_scores_as_predict_does(report_liver_files, tmp_path, capsys):
    data, rule = report_liver_files
    capsys.readouterr()
    assert main(["predict", str(rule), str(data)]) == 0
    accuracy = re.search(r"accuracy: (\d\.\d{4})", capsys.readouterr().err).group(1)
    out = tmp_path / "report.html"
    assert main(["report", str(rule), str(data), "--by", "half-pint_drinks/day", "--out", str(out)]) == 0
    assert f"to {out}" in capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    assert f"<td>accuracy</td><td>{accuracy}</td>" in page
    assert "liver.csv (345 rows)" in page and "Error by subgroup" in page
    training = json.loads(rule.read_text())["metadata"]["training_error"]
    assert f"<td>training error (stored in the rule file)</td><td>{training:.4f}</td>" in page


def test_report_refuses_bad_inputs_with_predicts_messages_and_exit_statuses(report_liver_files, tmp_path, capsys):
    data, rule = report_liver_files
    frame = pd.read_csv(data)
    used = load_model(rule).rule.features[0]
    short = tmp_path / "short.csv"
    frame.drop(columns=[used]).to_csv(short, index=False)
    statuses = {}
    for command in (["predict", str(rule), str(short)], ["report", str(rule), str(short), "--out", str(tmp_path / "r.html")]):
        capsys.readouterr()
        statuses[command[0]] = main(command)
        assert f"the data has no column '{used}', which the rule uses" in capsys.readouterr().err
    assert statuses == {"predict": 1, "report": 1}
    assert not (tmp_path / "r.html").exists()

    unlabelled = tmp_path / "unlabelled.csv"
    frame.drop(columns=["selector"]).to_csv(unlabelled, index=False)
    assert main(["report", str(rule), str(unlabelled), "--out", str(tmp_path / "r.html")]) == 1
    assert "has no column 'selector', the target of the rule file" in capsys.readouterr().err
    other = tmp_path / "other.csv"
    frame.assign(selector=np.where(frame["selector"] == "sick", "M", "R")).to_csv(other, index=False)
    assert main(["report", str(rule), str(other), "--out", str(tmp_path / "r.html")]) == 1
    assert "learned for another target" in capsys.readouterr().err

    for out, message in ((tmp_path / "missing" / "r.html", "does not exist"), (data, "the DATA.csv this command reads"),
                         (tmp_path, "is a directory"), (data / "r.html", "is not a directory")):
        for command in ("predict", "report"):
            assert main([command, str(rule), str(data), "--out", str(out)]) == 2
            assert message in capsys.readouterr().err


def test_an_existing_out_is_replaced_whole(report_liver_files, tmp_path, capsys):
    data, rule = report_liver_files
    out = tmp_path / "report.html"
    out.write_text("an old report")
    assert main(["report", str(rule), str(data), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_report_of_a_rule_list_file(tmp_path, capsys):
    X, y = load_dataset("pima")
    X, y = X.iloc[:300], y.iloc[:300]
    median = X["glucose"][y == 1].median()
    data = tmp_path / "three.csv"
    X.assign(status=np.where(y == 0, "healthy", np.where(X["glucose"] > median, "high", "low"))).to_csv(data, index=False)
    rule = tmp_path / "list.json"
    assert main(["fit", str(data), "--target", "status", "--theta", "0.01", "--out", str(rule)]) == 0
    out = tmp_path / "report.html"
    assert main(["report", str(rule), str(data), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    model = load_model(rule)
    frame = pd.read_csv(data)
    accuracy = float(np.mean(model.predict(frame) == frame["status"].to_numpy()))
    assert f"<td>accuracy</td><td>{accuracy:.4f}</td>" in page
    assert "<th>predicted healthy</th><th>predicted high</th><th>predicted low</th>" in page
    assert "ordered rule list" in page and "<td>default</td>" in page


@pytest.mark.slow
@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("dataset", ["sonar", "liver", "pima", "parkinsons"])
def test_report_works_on_every_bundled_dataset_from_the_rule_fit_writes(dataset, form, tmp_path, capsys):
    rule = tmp_path / "rule.json"
    assert main(["fit", dataset, "--form", form, "--n-clauses", "2", "--out", str(rule)]) == 0
    out = tmp_path / "report.html"
    assert main(["report", str(rule), dataset, "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    X, y = load_dataset(dataset)
    accuracy = float(np.mean(load_model(rule).predict(X) == y.to_numpy()))
    assert f"<td>accuracy</td><td>{accuracy:.4f}</td>" in page
    assert f"A {form.upper()} rule" in page or "no clause" in page
    assert "not recorded" not in page  # fit --out stored the training error and complexity
