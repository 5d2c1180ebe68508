"""Smoke tests of the benchmark scripts: they run and report consistent counts (timings are never asserted)."""

from __future__ import annotations

import gzip
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


def test_the_peer_objective_counts_uncovered_positives_negatives_per_term_and_complexity():
    import numpy as np

    from benchmarks.studies.peers_brcg import dnf_objective

    A = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 1], [1, 1, 1]])
    y = np.array([1, 1, 0, 0])
    # term {0, 1} covers rows 0 and 3, term {2} covers rows 1, 2 and 3: every positive covered;
    # negative row 2 is covered once, row 3 twice (once per term)
    objective, loss = dnf_objective(A, y, [[0, 1], [2]], lam=0.25)
    assert loss == 3
    assert objective == pytest.approx(3 + 0.25 * 4 * ((1 + 2) + (1 + 1)))
    objective, loss = dnf_objective(A, y, [], lam=0.25)  # no term: both positives are errors
    assert (objective, loss) == (2, 2)


def test_peer_table_reads_the_protocol_cells_of_both_forms_and_the_objective_comparison(tmp_path):
    from benchmarks.studies import peer_table

    summary = tmp_path / "summary.csv"
    summary.write_text(
        "dataset,algorithm,n_clauses,theta,test_error_mean,n_literals_mean,complete\n"
        "liver,bcd,2,2.0,0.3,3.4,True\nliver,am,3,1.0,0.2,9.0,False\npima,am,3,0.01,0.25,11.2,True\n",
        encoding="utf-8",
    )
    records = tmp_path / "cnf.jsonl.gz"
    rows = [{"dataset": "liver", "form": "cnf", "algorithm": "am", "n_clauses": 1, "theta": 2.0, "error": None,
             "inner_fold": None, "n_folds": 2, "test_error": error, "n_literals": literals}
            for error, literals in ((0.3, 2), (0.4, 4))]
    rows.append({**rows[0], "algorithm": "scs"})  # a cell with one of its two folds: left out
    with gzip.open(records, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)
    dnf = peer_table.protocol_cells(summary, records, "liver", "dnf")
    assert dnf == [(30.0, 3.4, "bcd R=2 θ=2 (paper units)")]  # the incomplete cell is left out
    cnf = peer_table.protocol_cells(summary, records, "liver", "cnf")
    assert cnf == [(pytest.approx(35.0), 3.0, "am R=1 θ=2 (paper units)")]
    assert peer_table._best(dnf + cnf, max_literals=3.2).startswith("35.0 (3.0; am R=1")
    assert peer_table.protocol_cells(tmp_path / "none.csv", tmp_path / "none.jsonl", "liver", "dnf") == []

    comparison = tmp_path / "objectives.json"
    assert peer_table.objectives_paragraph(comparison) == ""
    folds = [{"dataset": "pima", "fold": k, "BRCG objective": 150.0 + k, "cg objective": 140.0, "BRCG train %": 19.0,
              "cg train %": 16.0, "BRCG test %": 23.0, "cg test %": 25.0, "BRCG literals": 19.0, "cg literals": 36.0}
             for k in range(2)]
    comparison.write_text(json.dumps(folds), encoding="utf-8")
    assert "| pima | 150.5 / 140.0 | 2 of 2 | 19.0 / 16.0 | 23.0 / 25.0 | 19.0 / 36.0 |" in peer_table.objectives_paragraph(comparison)


def test_peer_table_pairs_the_honest_default_with_brcg_fold_by_fold(tmp_path):
    from benchmarks.studies import peer_table

    def fold(k: int, error: float) -> dict:
        return {"dataset": "pima", "fold": k, "chosen": {"honest 1se": {"error": error, "n_literals": 2}}}

    nested = {"folds": [fold(0, 20.0), fold(1, 30.0), fold(2, 25.0)]}
    records = [{"dataset": "pima", "fold": k, "form": form, "lambda": 0.001, "error": error}
               for form, errors in (("dnf", (22.0, 27.0, 25.0)), ("cnf", (19.0, 28.0, 24.0))) for k, error in enumerate(errors)]
    records.append({"dataset": "pima", "fold": 0, "form": "cnf", "lambda": 0.01, "error": 0.0})  # one fold only: not a setting
    (row,) = peer_table.paired_differences([(0, nested, {"records": records})], "honest 1se")
    # defaults (DNF): differences -2, +3, 0: mean +1/3, standard error = sample sd / sqrt(3)
    se = ((((-2 - 1 / 3) ** 2 + (3 - 1 / 3) ** 2 + (0 - 1 / 3) ** 2) / 2) ** 0.5) / 3**0.5
    assert row["BRCG defaults (DNF, λ 0.001)"] == f"24.7 %; +0.3 ± {se:.1f}; 1 / 1"
    # the best setting is CNF (mean 23.67 < 24.67); differences +1, +2, +1
    assert row["BRCG's best setting run here (optimistic)"] == "CNF, λ 0.001: 23.7 %; +1.3 ± 0.3; 0 / 3"
    assert (row["outer split"], row["folds"], row["honest BooleanRuleCV() of 2026-11-25"]) == ("random_state=0", 3, "25.0 %")

    # a second split: each split's row, then all folds pooled (the best setting chosen over all of them)
    other = [{**record, "error": record["error"] + (10.0 if record["form"] == "cnf" else 0.0)} for record in records]
    rows = peer_table.paired_differences([(0, nested, {"records": records}), (1, nested, {"records": other})], "honest 1se")
    assert [(r["outer split"], r["folds"]) for r in rows] == [("random_state=0", 3), ("random_state=1", 3), ("all", 6)]
    assert rows[1]["BRCG's best setting run here (optimistic)"].startswith("DNF, λ 0.001: 24.7 %")  # CNF is 28.7 % over both
    assert rows[2]["BRCG defaults (DNF, λ 0.001)"].startswith("24.7 %; +0.3 ± ")
    assert rows[2]["BRCG defaults (DNF, λ 0.001)"].endswith("; 2 / 2")

    nested_path, brcg_path = tmp_path / "nested.json.gz", tmp_path / "brcg.json"
    assert peer_table.paired_paragraph([(0, nested_path, brcg_path)], "honest 1se") == ""  # no files: no table
    with gzip.open(nested_path, "wt", encoding="utf-8") as handle:
        json.dump(nested, handle)
    brcg_path.write_text(json.dumps({"records": records}), encoding="utf-8")
    assert "| pima | random_state=0 | 3 | 25.0 % | 24.7 %; +0.3" in peer_table.paired_paragraph([(0, nested_path, brcg_path)], "honest 1se")


def test_the_peers_page_shows_the_committed_records(tmp_path, capsys):
    """docs/results/peers.md is what peer_table.py writes from the committed records; --check fails on any other text."""
    from benchmarks.studies import peer_table

    assert peer_table.main(["--check"]) == 0, "run python benchmarks/studies/peer_table.py\n" + capsys.readouterr().out
    page = tmp_path / "peers.md"
    page.write_text(peer_table.PAGE.read_text(encoding="utf-8").replace("20.6 (9.7)", "20.5 (9.7)", 1), encoding="utf-8")
    assert peer_table.main(["--check", "--out", str(page)]) == 1
    assert "+| sonar | dnf |" in capsys.readouterr().out


def test_every_benchmark_script_starts_as_its_docstring_says_from_any_directory(tmp_path):
    """``python benchmarks/X.py --help`` (and ``benchmarks/studies/X.py``) from another directory, no PYTHONPATH.

    Each finds ``benchmarks._common``, the studies from one folder deeper.
    """
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2] / "benchmarks"
    timing = sorted(p for p in root.glob("*.py") if not p.name.startswith("_"))
    studies = sorted(p for p in (root / "studies").glob("*.py") if not p.name.startswith("_"))
    assert len(timing) > 5 and len(studies) > 5
    scripts = timing + studies
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    running = [(script, subprocess.Popen([sys.executable, str(script), "--help"], cwd=tmp_path, env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
               for script in scripts]
    failed = []
    try:
        for script, process in running:
            out, err = process.communicate(timeout=300)
            if process.returncode != 0 or "usage:" not in out:
                failed.append(f"{script.name}: exit {process.returncode}: {err.strip().splitlines()[-1:]}")
    finally:  # none left behind, should one hang
        for _, process in running:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert not failed, failed


@pytest.mark.parametrize("folder", ["benchmarks", "benchmarks/studies"])
def test_each_benchmark_folder_readme_has_one_line_per_script_with_its_command(folder):
    """Timing scripts in ``benchmarks/``, studies in ``benchmarks/studies/``: each README lists its own, no more."""
    import re

    root = Path(__file__).resolve().parents[2] / folder
    scripts = {p.name for p in root.glob("*.py") if not p.name.startswith("_")}
    rows = re.findall(r"^\| `([\w.]+\.py)` \|(.*)$", (root / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert sorted(name for name, _ in rows) == sorted(scripts)
    for name, rest in rows:
        assert f"benchmarks/{'studies/' if folder.endswith('studies') else ''}{name}" in rest, f"{name}: no command"


def _real_table_records() -> list[dict]:
    """Five folds of AER/HMDA (two classes) and MASS/fgl (multiclass), for rm_cv, tree, brcg and tree_ovr."""
    cells = {  # (table, method): (error, balanced error, literals, fit seconds) on every fold
        ("AER/HMDA", "rm_cv"): (0.10, 0.30, 3, 1.0), ("AER/HMDA", "tree"): (0.095, 0.25, 12, 0.1),
        ("AER/HMDA", "brcg"): (0.11, 0.35, 4, 3.0), ("MASS/fgl", "rm_cv"): (0.40, 0.5, 6, 12.0),
        ("MASS/fgl", "tree"): (0.30, 0.4, 11, 0.05), ("MASS/fgl", "tree_ovr"): (0.37, 0.45, 30, 0.1),
    }
    records = []
    for (table, method), (error, balanced, literals, seconds) in cells.items():
        for fold in range(5):
            records.append({
                "table": table, "method": method, "estimator": method, "fold": fold, "params": {}, "commit": "abc1234",
                "n_rows": 2380 if table == "AER/HMDA" else 214, "majority_error": 0.12 if table == "AER/HMDA" else 0.64,
                "error": error + (0.01 if fold == 0 else 0.0), "balanced_error": balanced, "literals": literals,
                "fit_seconds": seconds, "rule": f"{table} rule" + (" (busy)" if fold == 3 and method == "rm_cv" else ""),
            })
    return records


def test_real_tables_report_averages_folds_and_checks_the_targets(tmp_path):
    from benchmarks.studies import real_tables

    records = _real_table_records()
    cells = real_tables.summarize(records)
    hmda = cells[("AER/HMDA", "rm_cv")]
    assert (hmda.folds, hmda.failed) == (5, 0)
    assert hmda.error == pytest.approx(0.102) and hmda.literals == 3 and hmda.seconds == 1.0
    assert real_tables.majority_errors(records) == {"AER/HMDA": pytest.approx(0.12), "MASS/fgl": pytest.approx(0.64)}

    rows = {row["target"]: row for row in real_tables.targets(records, "rm_cv")}
    brcg = rows["test error at or below brcg's (14 two-class tables)"]
    assert (brcg["measured"], brcg["met"]) == ("1 of 1 compared", "no (incomplete)")
    tree = rows["test error within 1.0 point of tree's on every table"]
    assert tree["measured"] == "1 of 2" and tree["tables missing it"] == "MASS/fgl (+10.0)"  # HMDA: +0.7 points
    size = rows["at most 1/3 of tree's conditions on every table"]
    assert size["measured"] == "1 of 2" and size["tables missing it"] == "MASS/fgl (6.0 vs 11.0)"  # 3 <= 12 / 3
    assert rows["mean fit seconds at most brcg's or under 2 s"]["tables missing it"] == "MASS/fgl (12.0 s)"
    assert rows["mean fit seconds at most 10 s on tables up to 10,000 rows"]["measured"] == "1 of 2"
    assert rows["rm_cv beats the majority class where tree does"]["measured"] == "2 of 2"
    assert rows["rm_classifier beats the majority class where tree does"]["measured"] == "0 of 0"
    multi = rows["multiclass: test error within 2 points of tree_ovr's"]
    assert (multi["measured"], multi["tables missing it"]) == ("0 of 1", "MASS/fgl (+3.0)")

    records.append({**records[0], "fold": 0, "method": "ripper", "estimator": "ripper", "failed": "ValueError: no"})
    text = real_tables.report(records, "rm_cv")
    assert "| AER/HMDA | 2380 | 12.0 | 10.2 | 9.7 | failed | 11.2 |" in text  # majority, rm_cv, tree, ripper, brcg
    assert "| MASS/fgl | 214 | 64.0 | 40.2 | 30.2 | 37.2 |" in text
    assert "| AER/HMDA | ripper | ValueError: no |" in text

    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert real_tables.main(["--report", "--results", str(path)]) == 0
    assert (tmp_path / "run.md").read_text(encoding="utf-8") == text


def test_real_tables_compare_rules_finds_the_folds_whose_rule_text_differs(tmp_path, capsys):
    from benchmarks.studies import real_tables

    busy = _real_table_records()
    idle = [{**r, "rule": r["rule"].replace(" (busy)", "")} for r in busy]
    same, different = real_tables.compare_rules(busy, idle, "rm_cv")
    assert len(same) == 8 and different == [("AER/HMDA", 3), ("MASS/fgl", 3)]
    assert real_tables.compare_rules(busy, busy, "tree") == ([(t, k) for t in ("AER/HMDA", "MASS/fgl") for k in range(5)], [])
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path, records in ((a, busy), (b, idle)):
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert real_tables.main(["--compare-rules", str(a), str(b)]) == 1
    assert "rm_cv: 8 of 10 (table, fold) pairs learned the same rule text" in capsys.readouterr().out
