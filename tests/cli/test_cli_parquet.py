"""The command line on Parquet data: fit and predict read it in batches, cv and exact read it whole."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from rulemodels.cli import main
from tests.helpers import mixed_frame, write_parquet_parts

pytest.importorskip("pyarrow")

FIT = ["--algorithm", "am", "--n-clauses", "3", "--theta", "0.01", "--thresholds", "quantile"]  # Parquet: quantiles


@pytest.fixture
def csv_and_parquet(tmp_path):
    frame, y = mixed_frame(n=1200, seed=4)
    frame = frame.assign(label=y)
    frame.to_csv(tmp_path / "data.csv", index=False)
    frame.to_parquet(tmp_path / "data.parquet", row_group_size=250, index=False)
    write_parquet_parts(frame, tmp_path / "parts")
    return tmp_path


@pytest.mark.parametrize("source", ["data.parquet", "parts"])
def test_fit_and_predict_on_parquet_match_the_csv_route(csv_and_parquet, capsys, source):
    d = csv_and_parquet
    assert main(["fit", str(d / "data.csv"), "--target", "label", *FIT, "--out", str(d / "csv.json")]) == 0
    csv_out = capsys.readouterr().out
    assert main(["fit", str(d / source), "--target", "label", *FIT, "--out", str(d / "pq.json")]) == 0
    parquet_out = capsys.readouterr().out
    assert "1200 samples as" in parquet_out and "distinct patterns" in parquet_out
    rule_line = [line for line in csv_out.splitlines() if line.startswith("  ")][0]
    assert rule_line in parquet_out.splitlines()
    error_line = [line for line in csv_out.splitlines() if line.startswith("training error")][0]
    assert error_line in parquet_out.splitlines()
    assert json.loads((d / "pq.json").read_text()) == json.loads((d / "csv.json").read_text())

    assert main(["predict", str(d / "pq.json"), str(d / source), "--proba", "--out", str(d / "pq.csv")]) == 0
    parquet_err = capsys.readouterr().err
    assert main(["predict", str(d / "csv.json"), str(d / "data.csv"), "--proba", "--out", str(d / "csv.csv")]) == 0
    csv_err = capsys.readouterr().err
    assert (d / "pq.csv").read_text() == (d / "csv.csv").read_text()
    assert len(pd.read_csv(d / "pq.csv")) == 1200
    assert parquet_err.split("\n", 1)[1] == csv_err.split("\n", 1)[1]  # the same scores (after the 'wrote' line)


def test_parquet_errors_exit_as_csv_errors_do(csv_and_parquet, capsys):
    d = csv_and_parquet
    assert main(["fit", str(d / "none.parquet"), "--target", "label"]) == 1
    assert "not found: give a Parquet file" in capsys.readouterr().err
    assert main(["fit", str(d / "data.parquet"), "--target", "nolabel"]) == 1
    assert "the target column 'nolabel' is not a column of the file (did you mean 'label'?)" in capsys.readouterr().err
    assert main(["fit", str(d / "data.parquet")]) == 1
    assert "--target is required for Parquet data" in capsys.readouterr().err
    assert main(["fit", str(d / "data.parquet"), "--target", "label", "--positive", "1"]) == 2
    assert "--positive is for CSV files" in capsys.readouterr().err
    assert main(["fit", str(d / "data.parquet"), "--target", "label", "--categorical", "b"]) == 2
    assert "--categorical is for CSV files" in capsys.readouterr().err
    (d / "broken.parquet").write_text("a,label\n1,0\n")
    assert main(["fit", str(d / "broken.parquet"), "--target", "label"]) == 1
    assert "could not be read as Parquet" in capsys.readouterr().err
    pd.DataFrame({"x": [1.0, 2.0, 3.0], "label": [0, 1, 2]}).to_parquet(d / "three.parquet")
    assert main(["fit", str(d / "three.parquet"), "--target", "label"]) == 1
    assert "has 3 distinct value(s)" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("source", ["small.parquet", "small_parts"])
def test_cv_and_exact_read_parquet_whole_like_the_csv(tmp_path, capsys, source):
    """The commands that need every row in memory read Parquet whole: the same results as from the CSV."""
    frame, y = mixed_frame(n=120, seed=5)
    frame = frame.assign(label=y)
    frame.to_csv(tmp_path / "small.csv", index=False)
    frame.to_parquet(tmp_path / "small.parquet", index=False)
    write_parquet_parts(frame, tmp_path / "small_parts")

    def run(*args: str) -> str:
        assert main(list(args)) == 0
        return capsys.readouterr().out

    exact = ["--target", "label", "--sample", "40", "--clauses", "1", "--theta", "0.05", "--thresholds", "3"]
    parquet_out, csv_out = run("exact", str(tmp_path / source), *exact), run("exact", str(tmp_path / "small.csv"), *exact)
    assert parquet_out.splitlines()[1:-1] == csv_out.splitlines()[1:-1]  # all but the file name and the seconds
    assert "status: optimal" in parquet_out

    cv = ["--target", "label", "--algorithms", "scs", "--clauses", "1", "--thetas", "0.05", "--folds", "2",
          "--backend", "sequential", "--no-progress"]
    parquet_out = run("cv", str(tmp_path / source), *cv, "--results", str(tmp_path / "pq.jsonl"))
    csv_out = run("cv", str(tmp_path / "small.csv"), *cv, "--results", str(tmp_path / "csv.jsonl"))
    assert "scs" in parquet_out and parquet_out == csv_out
    records = [json.loads(line) for line in (tmp_path / "pq.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(record["error"] is None and record["test_error"] is not None for record in records)
    assert all(record["data_sha256"] for record in records)


def test_fit_and_predict_on_a_directory_whose_files_differ_in_columns(tmp_path, capsys):
    """A column absent from one file: the same rule file and predictions in either order of the files, and a
    warning naming the file and the column; numbers in one file and text in another: refused, naming both."""
    frame, y = mixed_frame(n=1200, seed=4)
    table = frame.assign(label=y)
    with_b, without_b = table.iloc[:600], table.iloc[600:].drop(columns="b")
    predictions = {}
    for name, first, second in (("with_first", with_b, without_b), ("without_first", without_b, with_b)):
        (tmp_path / name).mkdir()
        first.to_parquet(tmp_path / name / "part-0.parquet", index=False)
        second.to_parquet(tmp_path / name / "part-1.parquet", index=False)
        lacking = tmp_path / name / ("part-1.parquet" if name == "with_first" else "part-0.parquet")
        assert main(["fit", str(tmp_path / name), "--target", "label", *FIT, "--out", str(tmp_path / f"{name}.json")]) == 0
        err = capsys.readouterr().err
        warning = f"rulemodels: warning: column 'b' of the Parquet data '{tmp_path / name}' is absent from 1 of its 2 files"
        assert f"{warning} ('{lacking}')" in err
        assert main(["predict", str(tmp_path / f"{name}.json"), str(tmp_path / name), "--out", str(tmp_path / f"{name}.csv")]) == 0
        assert "column 'b'" in capsys.readouterr().err
        predictions[name] = pd.read_csv(tmp_path / f"{name}.csv")["prediction"].to_numpy()
    assert json.loads((tmp_path / "with_first.json").read_text()) == json.loads((tmp_path / "without_first.json").read_text())
    rows = [*range(600, 1200), *range(600)]  # the rows of 'without_first' in the order of 'with_first'
    assert predictions["with_first"].tolist() == predictions["without_first"][pd.Series(rows).argsort()].tolist()

    (tmp_path / "mixed").mkdir()
    table.iloc[:600].to_parquet(tmp_path / "mixed" / "part-0.parquet", index=False)
    table.iloc[600:].assign(b="text").to_parquet(tmp_path / "mixed" / "part-1.parquet", index=False)
    for command in (["fit", str(tmp_path / "mixed"), "--target", "label", *FIT],
                    ["predict", str(tmp_path / "with_first.json"), str(tmp_path / "mixed")]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert f"column 'b' of the Parquet data '{tmp_path / 'mixed'}' has types that no one type holds" in err
        assert f"string in '{tmp_path / 'mixed' / 'part-1.parquet'}'" in err
