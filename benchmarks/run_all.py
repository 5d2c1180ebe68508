"""Run every benchmark in turn and print their tables (JSON copies go to benchmarks/results/).

Run from the repository root on an otherwise idle machine::

    python benchmarks/run_all.py            # everything (over an hour on 2 cores: the scaling curve goes to 1,000,000 rows)
    python benchmarks/run_all.py --quick    # minutes: no protocol runs, sizes up to 10,000

``docs/benchmarks.md`` quotes the tables of one such run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks import bench_build, bench_fit, bench_protocol, bench_resolve, bench_scaling  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the protocol runs and the 100,000-row cases")
    args = parser.parse_args(argv)
    steps = [
        ("clause-LP re-solve: modeling layer vs highspy", bench_resolve.main, []),
        ("one AM and one BCD fit", bench_fit.main, []),
        ("scaling with n", bench_scaling.main, ["--quick"] if args.quick else []),
        ("clause-LP build", bench_build.main, ["--sizes", "1000", "10000"] if args.quick else []),
    ]
    if not args.quick:
        steps.append(("paper protocol, highs", bench_protocol.main, ["--solvers", "highs"]))
        # The shell solvers take about an hour for all ten folds: one fold, scaled ×10.
        steps.append(("paper protocol, glpk and cbc (one fold of ten)", bench_protocol.main,
                      ["--solvers", "glpk", "cbc", "--only-folds", "1",
                       "--out", str(REPO / "benchmarks" / "results" / "protocol_shell.json")]))
    for title, run, arguments in steps:
        print(f"\n## {title}\n", flush=True)
        start = time.perf_counter()
        run(arguments)
        print(f"\n({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
