"""Time building (and first solving) the one-level clause LP as the data grows.

For n = 1,000 / 10,000 / 100,000 samples x 150 binary features, two kinds of data:

(a) ``replicated``: rows drawn with replacement from a small fixed set of
    distinct rows (like replicated Pima), so ``merge_identical=True`` (the
    default) collapses them to at most ``--distinct`` groups;
(b) ``random``: fresh random rows (density ~0.5) labelled by a planted CNF
    with 10% label noise; with 150 random features no two rows coincide, so
    the default merging merges nothing and the model grows with n.

For each case the script reports the build time of :func:`build_clause_lp`
(``time.perf_counter``), the peak Python memory of a second, identical
build traced with ``tracemalloc`` (tracing slows allocation, so the timed
build is untraced), the time of the first solve with the persistent HiGHS
backend (which includes building the HiGHS instance), the number of distinct
rows (sample groups) and the build throughput in input rows per second. It
prints a Markdown table and writes ``benchmarks/results/build.json``.

Run from the repository root::

    python benchmarks/bench_build.py
    python benchmarks/bench_build.py --sizes 1000 10000 --budget 60

A case whose estimated time (linear extrapolation from the previous size of
the same variant) exceeds ``--budget`` seconds is skipped and reported as
capped.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, write_json  # noqa: E402
from rulemodels.models import build_clause_lp  # noqa: E402
from solvers import HighsBackend  # noqa: E402

THETA = 0.01


def planted_labels(A: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """Labels of the CNF (a0 OR a1 OR a2) AND (a3 OR a4), with a fraction ``noise`` flipped."""
    y = (A[:, :3].any(axis=1) & A[:, 3:5].any(axis=1)).astype(np.int8)
    flip = rng.random(A.shape[0]) < noise
    return np.where(flip, 1 - y, y).astype(np.int8)


def make_data(variant: str, n: int, d: int, n_distinct: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if variant == "replicated":
        base = (rng.random((n_distinct, d)) < 0.5).astype(np.int8)
        base_y = planted_labels(base, rng, noise=0.10)
        picks = rng.integers(0, n_distinct, size=n)
        return base[picks], base_y[picks]
    if variant == "random":
        A = (rng.random((n, d)) < 0.5).astype(np.int8)
        return A, planted_labels(A, rng, noise=0.10)
    raise ValueError(f"unknown variant {variant!r}")


def run_case(variant: str, n: int, d: int, n_distinct: int, seed: int, measure_memory: bool) -> dict:
    A, y = make_data(variant, n, d, n_distinct, seed)
    gc.collect()
    start = time.perf_counter()
    lp = build_clause_lp(A, y, theta=THETA)
    model = lp.model
    build_s = time.perf_counter() - start

    peak_mib = None
    if measure_memory:
        gc.collect()
        tracemalloc.start()
        traced = build_clause_lp(A, y, theta=THETA)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peak_mib = peak / 2**20
        del traced
        gc.collect()

    backend = HighsBackend()
    start = time.perf_counter()
    result = backend.solve(model)
    solve_s = time.perf_counter() - start

    return {
        "variant": variant,
        "n_samples": n,
        "n_features": d,
        "n_distinct_rows": int(lp.groups.n_groups),
        "n_cover_rows": len(model.cover),
        "nnz": int(A.sum()),
        "build_s": build_s,
        "rows_per_s": n / build_s,
        "peak_build_mib": peak_mib,
        "first_solve_s": solve_s,
        "termination": result.termination.value,
        "objective": result.objective,
        "capped": False,
    }


def capped_row(variant: str, n: int, d: int, estimate: float) -> dict:
    return {
        "variant": variant, "n_samples": n, "n_features": d, "capped": True,
        "estimated_s": estimate,
    }


def markdown_table(rows: list[dict]) -> str:
    header = (
        "| data | n | distinct rows | cover rows | build (s) | rows/s | peak build memory (MiB) "
        "| first HiGHS solve (s) | status |"
    )
    lines = [header, "|" + "---|" * 9]
    for row in rows:
        if row["capped"]:
            lines.append(
                f"| {row['variant']} | {row['n_samples']:,} | - | - | - | - | - | - "
                f"| capped (estimated {row['estimated_s']:.0f} s > budget) |"
            )
            continue
        memory = "-" if row["peak_build_mib"] is None else f"{row['peak_build_mib']:.1f}"
        lines.append(
            f"| {row['variant']} | {row['n_samples']:,} | {row['n_distinct_rows']:,} | {row['n_cover_rows']:,} "
            f"| {row['build_s']:.3f} | {row['rows_per_s']:,.0f} | {memory} | {row['first_solve_s']:.3f} "
            f"| {row['termination']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--features", type=int, default=150)
    parser.add_argument("--distinct", type=int, default=500, help="distinct rows of the replicated data")
    parser.add_argument("--variants", nargs="+", default=["replicated", "random"], choices=["replicated", "random"])
    parser.add_argument("--budget", type=float, default=180.0, help="skip a case estimated to take longer (s)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc build")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "build.json")
    args = parser.parse_args(argv)

    rows: list[dict] = []
    for variant in args.variants:
        previous: tuple[int, float] | None = None
        for n in sorted(args.sizes):
            if previous is not None:
                prev_n, prev_total = previous
                estimate = prev_total * n / prev_n
                if estimate > args.budget:
                    print(f"{variant:>10} n={n:>7,}: capped (estimated {estimate:.0f} s)", flush=True)
                    rows.append(capped_row(variant, n, args.features, estimate))
                    continue
            start = time.perf_counter()
            row = run_case(variant, n, args.features, args.distinct, args.seed, not args.no_memory)
            total = time.perf_counter() - start
            row["case_total_s"] = total
            rows.append(row)
            previous = (n, total)
            print(
                f"{variant:>10} n={n:>7,}: build {row['build_s']:.3f} s, solve {row['first_solve_s']:.3f} s, "
                f"{row['n_distinct_rows']:,} distinct rows (case total {total:.1f} s)",
                flush=True,
            )

    table = markdown_table(rows)
    print()
    print(table)

    report = {
        "benchmark": "bench_build",
        "theta": THETA,
        "machine": machine(),
        "budget_s": args.budget,
        "results": rows,
        "table_markdown": table,
    }
    write_json(args.output, report)
    print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
