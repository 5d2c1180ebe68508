"""Smoke tests of the benchmark scripts: they run and report consistent counts (timings are never asserted)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks import bench_protocol, bench_scaling


def test_protocol_benchmark_runs_a_fold_subset_and_scales_its_estimate(tmp_path, capsys):
    out = tmp_path / "protocol.json"
    assert bench_protocol.main(
        ["--solvers", "highs", "--datasets", "liver", "--folds", "4", "--only-folds", "1", "--thetas", "1",
         "--out", str(out)]
    ) == 0
    report = json.loads(out.read_text())
    (row,) = report["rows"]
    assert row["fits"] == 4 * 5 * 1 * 1 and row["failed"] == 0  # algorithms × R × θ × one fold
    assert row["wall s (all folds, est.)"] == pytest.approx(4 * row["wall s"])
    assert row["models built"] >= 1 and row["LP solves"] >= row["models built"]
    assert 0.0 <= row["AM R=3 best test error"] <= 1.0
    assert "| highs | liver |" in capsys.readouterr().out


def test_scaling_benchmark_reports_the_formulation_and_both_forms():
    row = bench_scaling.measure_one(300)
    assert row["n"] == 300 and row["LP"] == "primal" and row["binary features"] > 0
    for form in ("DNF", "CNF"):
        assert row[f"AM {form} LP solves"] >= 1 and 0.0 <= row[f"AM {form} train error"] < 0.5


def test_replicated_pima_repeats_rows_exactly():
    X, y = bench_scaling.replicated_pima(2000)
    assert len(X) == len(y) == 2000
    assert X.drop_duplicates().shape[0] <= 768
    assert np.array_equal(X.iloc[768:1536].to_numpy(), X.iloc[:768].to_numpy())


@pytest.mark.slow
def test_profile_benchmark_splits_the_profiled_time_into_parts_that_add_up():
    from benchmarks import bench_profile

    result = bench_profile.profile_dataset("liver", folds=1)
    parts = {row["part"]: row["profiled s"] for row in result["rows"]}
    total = parts.pop("total")
    assert result["fits"] == 4 * 5 * 18  # algorithms × R × θ of one fold
    assert sum(parts.values()) == pytest.approx(total)
    assert parts["solver (inside HiGHS)"] > 0 and parts["model build (Pyomo builders + compile to highspy)"] > 0
    assert parts["rounding (SCN redundancy-aware binarization)"] > 0  # SCN ran and was found in the profile
