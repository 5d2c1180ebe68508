"""Smoke tests of the benchmark scripts: they run and report consistent counts (timings are never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

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


@pytest.mark.parametrize(("kind", "form"), [("numeric", "dnf"), ("mixed", "cnf")])
def test_scaling_cell_reports_where_the_fit_went(kind, form):
    row = bench_scaling.measure_cell(400, kind, form)
    assert (row["kind"], row["n"], row["form"], row["status"]) == (kind, 400, form.upper(), "ok")
    assert 1 < row["distinct patterns"] <= 400 and row["binary features"] > 0
    assert row["LP"] in ("primal", "dual") and row["build s"] > 0
    assert row["LP solves"] >= 1 and 0 < row["solve s"] < row["fit s"]
    assert 0 < row["binarize s"] < row["fit s"]
    assert 0.0 <= row["train error"] < 0.5 and row["peak RSS MiB"] > 0


@pytest.mark.slow
def test_scaling_benchmark_runs_each_cell_in_a_subprocess_and_writes_its_report(tmp_path, capsys):
    out = tmp_path / "scaling.json"
    assert bench_scaling.main(["--sizes", "300", "--kinds", "numeric", "--forms", "dnf", "cnf", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["machine"]["cpus"] >= 1 and report["settings"]["n_clauses"] == 3
    assert [(row["n"], row["form"], row["status"]) for row in report["rows"]] == [(300, "DNF", "ok"), (300, "CNF", "ok")]
    assert "| numeric | 300 | DNF | ok |" in capsys.readouterr().out


def test_a_scaling_cell_past_its_timeout_is_killed_and_recorded(tmp_path):
    seed = 918273  # marks this test's child in the process table
    row = bench_scaling.run_cell(1000, "numeric", "dnf", timeout=0.05, seed=seed)
    assert row["status"] == "timeout (0.05 s)" and row["n"] == 1000
    marker = b"--seed\x00" + str(seed).encode()  # argv entries are NUL-separated in /proc/PID/cmdline
    alive = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker in cmdline.read_bytes():
                alive.append(cmdline.parent.name)
        except OSError:
            continue  # the process ended while we looked
    assert alive == []


def test_profile_benchmark_splits_the_profiled_time_into_parts_that_add_up():
    from benchmarks import bench_profile

    result = bench_profile.profile_dataset("liver", folds=1)
    parts = {row["part"]: row["profiled s"] for row in result["rows"]}
    total = parts.pop("total")
    assert result["fits"] == 4 * 5 * 18  # algorithms × R × θ of one fold
    assert sum(parts.values()) == pytest.approx(total)
    assert parts["solver (inside HiGHS)"] > 0 and parts["model build (Pyomo builders + compile to highspy)"] > 0
    assert parts["rounding (SCN redundancy-aware binarization)"] > 0  # SCN ran and was found in the profile
