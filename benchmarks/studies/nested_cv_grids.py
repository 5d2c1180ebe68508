"""Honest error against the size of BooleanRuleCV's grid: why the default grid is small (BooleanRuleCV's defaults of 2026-11-25).

Reads the JSON files that ``benchmarks/studies/nested_cv.py`` wrote for several grids
(10 outer folds ``StratifiedKFold(10, shuffle=True, random_state=0)`` unless a
row says another seed, inner folds with ``random_state=0``, 9 thresholds) and writes one table:
the honest nested-CV error % (mean literals) of each grid per dataset, with
``selection="best"`` and ``"1se"``, and the median search time per outer
fold. The commands that made each file are listed in ``GRIDS``.

    python benchmarks/studies/nested_cv_grids.py      # writes benchmarks/studies/results/nested_cv_grids.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import read_json  # noqa: E402

RESULTS = Path(__file__).parent / "results"
FINE = "0.001 0.002 0.003 0.005 0.007 0.01 0.02 0.05"
#: (file under results/, grid, candidates per search, the nested_cv.py arguments that wrote it).
GRIDS: list[tuple[str, str, int, str]] = [
    ("nested_cv.json", "**default**: cg × θ 0.005 × R 2 × both forms, 10 inner folds (default selection: 1se)", 2, ""),
    ("nested_cv_grids/cg_default_5folds.json.gz", "the same grid, 5 inner folds (the default until 2026-11-25, commit aeebee4)", 2,
     "--inner-folds 5"),
    ("nested_cv_grids/cg_default_repeated3.json.gz", "the same grid, 5 inner folds × 3 repeats", 2, "--inner-folds 5 --cv-repeats 3"),
    ("nested_cv_grids/cg_default_outer_seed1_10folds.json.gz", "default, **outer split seed 1**", 2, "--outer-seed 1"),
    ("nested_cv_grids/cg_default_outer_seed1_5folds.json.gz", "5 inner folds, **outer split seed 1**", 2,
     "--outer-seed 1 --inner-folds 5"),
    ("nested_cv_grids/cg_default_outer_seed2_10folds.json.gz", "default, **outer split seed 2**", 2, "--outer-seed 2"),
    ("nested_cv_grids/cg_default_outer_seed2_5folds.json.gz", "5 inner folds, **outer split seed 2**", 2,
     "--outer-seed 2 --inner-folds 5"),
    ("nested_cv_grids/cg_default_outer_seed3_10folds.json.gz", "default, **outer split seed 3** (run after the default was fixed)",
     2, "--outer-seed 3"),
    *[(f"nested_cv_grids/cg_R2_4_outer_seed{seed}.json.gz",
       f"cg × θ 0.005 × R 2, 4 × both forms, 10 inner folds, **outer split seed {seed}** (more clauses for sonar: not kept)",
       4, f"--outer-seed {seed} --algorithms cg --thetas 0.005 --n-clauses 2 4") for seed in (1, 2)],
    *[(f"nested_cv_grids/cg_2theta_R2_10_outer_seed{seed}.json.gz",
       f"cg × θ 0.001, 0.005 × R 2, 10 × both forms, 10 inner folds, **outer split seed {seed}** (BRCG-like long rules: not kept)",
       8, f"--outer-seed {seed} --algorithms cg --thetas 0.001 0.005 --n-clauses 2 10") for seed in (1, 2)],
    ("nested_cv_grids/cg_R2-3.json.gz", "cg × θ 0.005 × R 2-3 × both forms, 5 inner folds", 4,
     "--inner-folds 5 --algorithms cg --thetas 0.005 --n-clauses 2 3"),
    ("nested_cv_grids/cg_3theta_R2.json.gz", "cg × θ 0.002, 0.005, 0.01 × R 2 × both forms, 5 inner folds", 6,
     "--inner-folds 5 --algorithms cg --thetas 0.002 0.005 0.01 --n-clauses 2"),
    ("nested_cv_grids/cg_bcd_R2.json.gz", "cg, bcd × θ 0.005 × R 2 × both forms, 5 inner folds", 4,
     "--inner-folds 5 --algorithms cg bcd --thetas 0.005 --n-clauses 2"),
    ("nested_cv_am_bcd_grid.json", "earlier default: am, bcd × 8 θ × R 1-3 × both forms, 5 inner folds", 96,
     f"--inner-folds 5 --algorithms am bcd --thetas {FINE} --n-clauses 1 2 3"),
    ("nested_cv_grids/am_bcd_96_repeated3.json.gz", "the same, inner CV 5 folds × 3 repeats", 96,
     f"--inner-folds 5 --algorithms am bcd --thetas {FINE} --n-clauses 1 2 3 --cv-repeats 3 --datasets sonar pima"),
    ("nested_cv_with_cg.json", "am, bcd, cg × 8 θ × R 1-3 × both forms, 5 inner folds", 144,
     f"--inner-folds 5 --algorithms am bcd cg --thetas {FINE} --n-clauses 1 2 3 --datasets sonar parkinsons"),
]
DATASETS = ("liver", "parkinsons", "pima", "sonar")
#: BRCG's best over its sweep, test-fold selected (the product owner's table of 2026-11-24).
BRCG_BEST = {"liver": 31.6, "parkinsons": 8.7, "pima": 23.4, "sonar": 22.1}


def _cell(summary: list[dict[str, Any]], dataset: str, selection: str) -> str:
    rows = [r for r in summary if r["dataset"] == dataset and r["selection"] == selection]
    return f"{rows[0]['error %']:.1f} ({rows[0]['literals']:.1f})" if rows else "–"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "nested_cv_grids.md")
    args = parser.parse_args(argv)
    header = ["grid", "candidates", *[f"{d} {s}" for s in ("best", "1se") for d in DATASETS], "search s (median)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    commands = []
    for name, grid, candidates, command in GRIDS:
        report = read_json(RESULTS / name)
        summary = report["summary"]
        median = statistics.median(fold["search_seconds"] for fold in report["folds"])
        cells = [_cell(summary, d, f"honest {s}") for s in ("best", "1se") for d in DATASETS]
        lines.append("| " + " | ".join([grid, str(candidates), *cells, f"{median:.1f}"]) + " |")
        commands.append(f"- {grid}: `python benchmarks/studies/nested_cv.py {command}`".rstrip() + f" (`results/{name}`)")
    brcg = ["BRCG best of its sweep (test-fold selected, optimistic)", "",
            *[f"{BRCG_BEST[d]:.1f}" for d in DATASETS], *[""] * len(DATASETS), ""]
    lines.append("| " + " | ".join(brcg) + " |")
    text = (
        "# Honest nested-CV error against the size of BooleanRuleCV's grid\n\n"
        "Written by `benchmarks/studies/nested_cv_grids.py` from the files of `benchmarks/studies/nested_cv.py`. Error % (mean "
        "literals) on the 10 outer folds `StratifiedKFold(10, shuffle=True, random_state=0)` (BRCG's folds; the "
        "rows marked 'outer split seed 1/2/3' use `random_state=1/2/3`; BRCG on those splits, fold by fold: "
        "`docs/results/peers.md`); "
        "everything chosen on the training fold by inner CV (its folds in the grid column); 'best' and '1se' "
        "are `selection`. Search seconds: one "
        "search on one outer training fold (runs of 1 or 2 jobs on a 2-core machine; the earlier default's "
        "figure was measured with 2 jobs side by side).\n\n" + "\n".join(lines) + "\n\nCommands:\n\n"
        + "\n".join(commands) + "\n"
    )
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
