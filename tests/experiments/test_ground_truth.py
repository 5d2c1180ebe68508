"""The ground-truth study (benchmarks/studies/ground_truth.py): its page is its committed records', and it runs end to end."""

from __future__ import annotations

import copy
import logging

import pytest

from benchmarks.studies import ground_truth


def test_the_committed_page_is_the_committed_records():
    records, engine_records = ground_truth.read(ground_truth.RECORDS), ground_truth.read(ground_truth.ENGINE_RECORDS)
    assert records and engine_records
    assert ground_truth.PAGE.read_text() == ground_truth.render(records, engine_records), (
        "run python benchmarks/studies/ground_truth.py --report"
    )
    assert ground_truth.FIGURE.exists()


def test_a_tiny_sample_is_proven_and_every_heuristic_measured_against_it(tmp_path):
    out, page, picture = tmp_path / "gt.jsonl", tmp_path / "gt.md", tmp_path / "gt.png"
    argv = ["--datasets", "liver", "--rows", "14", "--samples", "1", "--R", "1", "--forms", "dnf",
            "--proof-limit", "30", "--polish-seconds", "2", "--out", str(out), "--engine-out", str(tmp_path / "none.jsonl"),
            "--page", str(page), "--figure", str(picture)]
    assert ground_truth.main(argv) == 0
    # the logging it quiets while it solves is back (left off, it hid the shell solvers' failures from later tests)
    assert logging.root.manager.disable == logging.NOTSET
    (record,) = ground_truth.read(out)
    best = ground_truth.optimum(record)
    assert record["exact"]["termination"] == "optimal" and best is not None
    names = {name for algorithm in ground_truth.HEURISTICS for name in (algorithm, f"{algorithm}+polish")}
    assert set(record["heuristics"]) == names and record["fewer"] == {} and len(record["constants"]) == 2
    for run in record["heuristics"].values():
        assert ground_truth.heuristic_objective(run) >= best - 1e-9
    gaps = ground_truth.gaps([record])
    assert set(gaps) == names and all(absolute >= 0 for values in gaps.values() for absolute, _ in values)
    assert "| cg+polish | 1 |" in page.read_text() and picture.stat().st_size > 0
    # resumable: the sample is not solved again
    assert ground_truth.main(argv) == 0 and len(ground_truth.read(out)) == 1


def test_an_optimum_a_heuristic_beats_is_contradicted_not_used():
    record = {"exact": {"termination": "optimal", "recomputed": 5.0, "seconds": 1.0},
              "heuristics": {"am": {"objective": 6.0}, "cg": {"objective": 5.0}}}
    assert ground_truth.optimum(record) == 5.0 and not ground_truth.contradicted(record)
    assert ground_truth.gaps([record])["am"] == [(1.0, pytest.approx(0.2))]
    beaten = copy.deepcopy(record)
    beaten["heuristics"]["cg"]["objective"] = 4.5
    assert ground_truth.optimum(beaten) is None and ground_truth.contradicted(beaten)
    # the optimum is over at most R clauses: a proof with fewer clauses, or a constant, may be lower
    fewer = {**copy.deepcopy(beaten), "fewer": {"1": {"termination": "optimal", "recomputed": 4.5}}, "constants": [7.0, 8.0]}
    assert ground_truth.optimum(fewer) == 4.5 and not ground_truth.contradicted(fewer) and ground_truth.exactly_r_beaten(fewer)
    assert ground_truth.optimum({**fewer, "constants": [4.0, 8.0]}) == 4.0
    assert ground_truth.optimum({**fewer, "fewer": {"1": {"termination": "time_limit", "recomputed": 4.5}}}) is None
    stopped = copy.deepcopy(record)
    stopped["exact"]["termination"] = "unverified"
    assert ground_truth.optimum(stopped) is None and not ground_truth.contradicted(stopped) and ground_truth.gaps([stopped]) == {}


def test_engines_that_finish_agree_on_a_small_weighted_problem():
    spec = {"seed": 0, "dataset": "liver", "n_rows": 14, "R": 1, "form": "cnf", "rows_seed": 3, "weighted": True}
    record = ground_truth.solve_engines(spec, ["highs", "cpsat"], 30.0)
    assert {run["termination"] for run in record["runs"].values()} == {"optimal"}
    values = [run["recomputed"] for run in record["runs"].values()]
    assert max(values) - min(values) <= 1e-9
    disagreements, counts = ground_truth.engine_summary([record])
    assert disagreements == [] and counts["proven"] == counts["several"] == 1
    # a bound above another engine's proven optimum is a disagreement
    record["runs"]["highs_cold"]["bound"] = values[0] + 1.0
    assert any("bound" in line for line in ground_truth.engine_summary([record])[0])
