"""The command line end to end: fit -> JSON -> predict, exact, and user errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, load_dataset
from rulemodels.cli import main


@pytest.fixture
def liver_csv(tmp_path):
    X, y = load_dataset("liver")
    frame = X.copy()
    frame["selector"] = np.where(y == 1, 2, 1)
    path = tmp_path / "liver.csv"
    frame.to_csv(path, index=False)
    return path, X, y


def test_fit_json_predict_matches_the_estimator(liver_csv, tmp_path, capsys):
    path, X, y = liver_csv
    rule_path = tmp_path / "rule.json"
    assert main(["fit", str(path), "--target", "selector", "--clauses", "2", "--theta", "0.02", "--out", str(rule_path)]) == 0
    out = capsys.readouterr().out
    assert "rule (selector = 2 when true):" in out
    assert "training error:" in out and "solves" in out and "model builds" in out
    document = json.loads(rule_path.read_text())
    assert document["format"] == "rulemodels.model" and document["classes"] == [1, 2]

    assert main(["predict", str(rule_path), str(path)]) == 0
    predicted = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))["prediction"].to_numpy()
    estimator = BooleanRuleClassifier(n_clauses=2, theta=0.02).fit(X, np.where(y == 1, 2, 1))
    assert np.array_equal(predicted, estimator.predict(X))


def test_predict_writes_a_file(liver_csv, tmp_path, capsys):
    path, _, _ = liver_csv
    rule_path, out_path = tmp_path / "rule.json", tmp_path / "pred.csv"
    main(["fit", str(path), "--target", "selector", "--algorithm", "scs", "--out", str(rule_path)])
    assert main(["predict", str(rule_path), str(path), "--out", str(out_path)]) == 0
    assert len(pd.read_csv(out_path)) == 345


def test_fit_a_bundled_dataset_by_name(capsys):
    assert main(["fit", "pima", "--algorithm", "scn", "--solver", "glpk", "--thresholds", "4"]) == 0
    out = capsys.readouterr().out
    assert "data: pima (768 samples" in out and "with glpk" in out


def test_fit_with_class_weight_prints_the_plain_error_beside_the_plain_baseline(capsys):
    assert main(["fit", "liver", "--class-weight", "balanced", "--clauses", "1"]) == 0
    out = capsys.readouterr().out
    _, y = load_dataset("liver")
    majority = int(np.bincount(y).argmax())
    baseline = 1 - np.bincount(y).max() / len(y)  # not the class-weighted 0.5
    assert f"baseline: {baseline:.4f} (always {majority})" in out
    assert "class weight: balanced; the error the learner minimised (class-weighted):" in out


def test_fit_with_column_generation_matches_the_estimator(capsys):
    assert main(["fit", "liver", "--algorithm", "cg", "--clauses", "2", "--form", "cnf"]) == 0
    out = capsys.readouterr().out
    X, y = load_dataset("liver")
    estimator = BooleanRuleClassifier(algorithm="cg", n_clauses=2, form="cnf").fit(X, y)
    assert "solve: cg with highs" in out
    assert str(estimator.rule_.clauses[0].literals[0]) in out


def test_exact_prints_status_bound_and_gap(capsys):
    assert main(["exact", "pima", "--sample", "25", "--clauses", "1", "--theta", "0.2", "--thresholds", "3"]) == 0
    out = capsys.readouterr().out
    assert "status: optimal" in out and "bound:" in out and "gap: 0.000 %" in out and "solver: cbc" in out


@pytest.mark.parametrize("args, message", [
    (["fit", "missing.csv", "--target", "y"], "data file 'missing.csv' not found"),
    (["fit", "LIVER", "--target", "nope"], None),
    (["fit", "pima", "--solver", "nosuchsolver"], "unknown solver 'nosuchsolver'"),
    (["predict", "missing.json", "x.csv"], "rule file 'missing.json' not found"),
])
def test_user_errors_exit_nonzero_without_traceback(args, message, capsys, tmp_path, liver_csv):
    path, _, _ = liver_csv
    args = [str(path) if a == "LIVER" else a for a in args]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulemodels: error: ") and "Traceback" not in err
    assert (message or "the target column 'nope' is not a column of the file") in err


def test_non_binary_target_needs_positive(tmp_path, capsys):
    frame = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "grade": ["x", "y", "z", "x", "y", "z"]})
    path = tmp_path / "three.csv"
    frame.to_csv(path, index=False)
    # since 2026-11-25 fit learns an ordered rule list without --positive (tests/cli/test_cli_multiclass.py); the
    # exact MIP stays binary and still needs it
    assert main(["exact", str(path), "--target", "grade"]) == 1
    assert "has 3 distinct values (x, y, z); pass --positive VALUE" in capsys.readouterr().err
    assert main(["fit", str(path), "--target", "grade", "--positive", "x", "--clauses", "1"]) == 0
    assert "grade = x when true" in capsys.readouterr().out


def test_header_only_csv_and_malformed_rule(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_text("a,b,y\n")
    assert main(["fit", str(empty), "--target", "y"]) == 1
    assert "has a header but no rows" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rulemodels.model", "version": 1, "classes": [0, 1], "rule": {"format": "rulemodels.rule", '
                   '"version": 1, "form": "dnf", "clauses": [[{"feature": "a", "op": "__import__", "value": 1}]]}}')
    assert main(["predict", str(bad), str(empty)]) == 1
    assert "unknown op" in capsys.readouterr().err


def test_debug_shows_the_traceback():
    with pytest.raises(FileNotFoundError):
        main(["--debug", "fit", "missing.csv", "--target", "y"])


@pytest.mark.parametrize("command", ["fit", "predict", "exact", "solvers"])
def test_help_everywhere(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert "usage: rulemodels" in capsys.readouterr().out


def test_cv_prints_the_grid_and_resumes(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    args = ["cv", "liver", "--algorithms", "scs", "am", "--clauses", "1-2", "--thetas", "0.01,0.1",
            "--folds", "3", "--thresholds", "3", "--results", str(results), "--backend", "sequential", "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("| scs", "| am"))]
    assert len(rows) == 4  # 2 algorithms x 2 values of R
    lines = results.read_text().splitlines()
    assert len(lines) == 2 * 2 * 2 * 3
    assert main(args) == 0  # resume: nothing recomputed, nothing duplicated
    assert results.read_text().splitlines() == lines


@pytest.mark.slow
def test_reproduce_writes_table_and_figures(tmp_path, capsys):
    out_dir = tmp_path / "results"
    args = ["reproduce", "--datasets", "liver", "--algorithms", "scs", "am", "--clauses", "1-2", "--thetas", "0.01", "0.1",
            "--folds", "3", "--thresholds", "3", "--out", str(out_dir), "--backend", "sequential", "--no-progress",
            "--inner-folds", "2", "--inner-algorithms", "scs", "tlp"]
    assert main(args) == 0
    markdown = (out_dir / "table1.md").read_text()
    assert "| liver | 2 |" in markdown and "(34.2)" in markdown  # the paper's AM number beside ours
    table = pd.read_csv(out_dir / "table1.csv")
    assert set(table["algorithm"]) == {"scs", "am"} and set(table["n_clauses"]) == {1, 2}
    for name in ("pareto_liver_am_by_R.png", "pareto_liver_by_algorithm.png"):
        assert (out_dir / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    records = pd.read_json(out_dir / "results.jsonl", lines=True)
    inner = records[records["inner_fold"].notna()]
    # inner fits only for the requested algorithms that run (tlp is not in --algorithms): 2 R x 2 θ x 3 folds x 2
    assert set(inner["algorithm"]) == {"scs"} and len(inner) == 24 and len(records) == 24 + 24
    nested = pd.read_csv(out_dir / "nested_selection.csv")
    assert list(nested["algorithm"]) == ["scs", "scs"] and sorted(nested["n_clauses"]) == [1, 2]
    assert "| liver | 1 |" in (out_dir / "nested_selection.md").read_text()
    lines = (out_dir / "results.jsonl").read_text()
    (out_dir / "table1.md").unlink()
    assert main(["reproduce", "--out", str(out_dir), "--report-only"]) == 0  # tables again, no fit
    assert (out_dir / "results.jsonl").read_text() == lines
    assert (out_dir / "table1.md").read_text() == markdown


@pytest.mark.slow
def test_reproduce_starts_from_gzipped_results(tmp_path, capsys):
    import gzip

    out_dir = tmp_path / "results"
    args = ["reproduce", "--datasets", "liver", "--algorithms", "scs", "--clauses", "1", "--thetas", "0.1",
            "--folds", "2", "--thresholds", "3", "--inner-folds", "0", "--out", str(out_dir), "--backend", "sequential",
            "--no-progress"]
    assert main(args) == 0
    plain = out_dir / "results.jsonl"
    lines = plain.read_bytes()
    (out_dir / "results.jsonl.gz").write_bytes(gzip.compress(lines))
    plain.unlink()
    assert main(args) == 0  # unpacked, nothing run again
    assert plain.read_bytes() == lines
    assert "unpacking" in capsys.readouterr().err


@pytest.mark.slow
def test_reproduce_report_only_needs_earlier_results(tmp_path, capsys):
    assert main(["reproduce", "--out", str(tmp_path), "--report-only"]) == 1
    assert "--report-only needs the results of an earlier run" in capsys.readouterr().err


def test_cv_with_nested_cv_prints_the_honest_column(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    args = ["cv", "liver", "--algorithms", "scs", "--clauses", "1", "--thetas", "0.01,0.1", "--folds", "2",
            "--thresholds", "3", "--results", str(results), "--backend", "sequential", "--no-progress", "--inner-folds", "2"]
    assert main(args) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| scs"))
    assert row.count("%") == 2  # min over θ, and the nested-CV error (not "–")
    assert len(results.read_text().splitlines()) == 2 * 2 + 2 * 2 * 2


@pytest.mark.parametrize("command", ["cv liver", "reproduce"])
def test_inner_folds_must_be_0_or_at_least_2(command, capsys):
    with pytest.raises(SystemExit) as info:  # a usage error, like fit's bad numbers: exit 2
        main([*command.split(), "--inner-folds", "1"])
    assert info.value.code == 2
    assert "argument --inner-folds: must be 0 (no nested CV) or at least 2, got '1'" in capsys.readouterr().err


def test_cv_rejects_bad_thetas(capsys):
    assert main(["cv", "liver", "--thetas", "abc"]) == 2
    assert "--thetas takes 'paper' or numbers" in capsys.readouterr().err


def test_python_dash_m_runs_the_cli():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulemodels", "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("rulemodels ")


def test_fit_polish_prints_and_saves_the_mip_bound_and_gap(liver_csv, tmp_path, capsys):
    path, X, y = liver_csv
    rule_path = tmp_path / "rule.json"
    arguments = ["fit", str(path), "--target", "selector", "--clauses", "1", "--theta", "0.02", "--thresholds", "2"]
    assert main([*arguments, "--polish", "5", "--out", str(rule_path)]) == 0
    out = capsys.readouterr().out
    assert "polish: zero_one MIP (R=1) with highs, warm-started from the rule" in out
    assert "bound " in out and "gap " in out
    polish = json.loads(rule_path.read_text())["metadata"]["polish"]
    assert polish["solver"] == "highs" and polish["mip_start"] is True
    assert polish["objective"] <= polish["start_objective"] + 1e-9
    assert polish["bound"] <= polish["objective"] + 1e-9 and polish["gap"] >= 0
    clf = BooleanRuleClassifier(n_clauses=1, theta=0.02, n_thresholds=2, polish=5).fit(X, y)
    assert polish["objective"] == pytest.approx(clf.objective_)  # the CLI fits what the estimator fits
    assert main(arguments) == 0
    assert "polish:" not in capsys.readouterr().out


def test_fit_polish_flag_alone_means_the_default_budget_and_rejects_bad_seconds(liver_csv, capsys):
    from rulemodels.cli._args import build_parser
    from rulemodels.defaults import DEFAULT_POLISH_TIME_LIMIT

    parser = build_parser(dict.fromkeys(("solvers", "fit", "predict", "export", "report", "exact", "cv", "reproduce")))
    path = str(liver_csv[0])
    assert parser.parse_args(["fit", path, "--polish"]).polish is True
    assert parser.parse_args(["fit", path, "--polish", "2.5"]).polish == 2.5
    assert parser.parse_args(["fit", path]).polish is False
    assert DEFAULT_POLISH_TIME_LIMIT > 0
    with pytest.raises(SystemExit):
        parser.parse_args(["fit", path, "--polish", "-3"])
    assert "--polish: must be a number of seconds > 0, got '-3'" in capsys.readouterr().err
