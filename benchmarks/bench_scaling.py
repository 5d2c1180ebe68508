"""Growth with the number of rows: where one AM fit's time and memory go, in both forms, up to 1,000,000 rows.

For each n in ``--sizes`` (default 10,000 / 100,000 / 1,000,000), each data
kind in ``--kinds`` (:func:`rulemodels.make_rule_data`: ``numeric``, 8
correlated columns and a noisy 3-clause label, 144 binary features;
``mixed``, a credit-like table with categories and missing values) and each
form (DNF, CNF), one ``BooleanRuleClassifier(algorithm="am", n_clauses=3,
theta=0.01)`` fit (θ as a share of the rows, the estimator's default unit;
9 thresholds) runs in a fresh subprocess, so that every model is built and the
peak RSS is that fit's. A cell reports:

* binarize s: ``FeatureBinarizer`` fit + transform (the training workspace's);
* distinct patterns: distinct (binary row, label) pairs, what the clause LPs
  see at most after merging identical rows;
* LP, LP rows x cols, build s: the side of the clause LP the engine chose and
  its size, and the time to build it (measured after the fit on the same
  data through :meth:`~rulemodels.algorithms.LPSolutionCache.clause_model`,
  the engine's own path; not counted in the peak RSS);
* solve s: the fit's summed LP solve time (``solver_seconds_``), with its LP
  solves and AM iterations;
* fit s: binarization + the fit, as a user's ``fit`` call sees it;
* train error: the rule's error on all rows (``training_error_``);
* peak RSS MiB: the subprocess's peak resident memory at the end of the fit.

A cell still running after ``--timeout`` seconds (default 900) is killed
with its process group and recorded as ``timeout``. The report (with the
machine block) goes to ``--out`` (default ``benchmarks/results/scaling_1m.json``)
and a Markdown table to stdout; ``--verbose`` shows each fit's iteration log
on stderr. ``--quick`` runs 1,000 and 10,000 rows only (written to
``scaling_quick.json``, so that it never overwrites the curve).

Run from the repository root::

    python benchmarks/bench_scaling.py                   # the full curve (about an hour)
    python benchmarks/bench_scaling.py --quick
    python benchmarks/bench_scaling.py --sizes 100000 --kinds numeric --forms cnf --verbose
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, peak_rss_mib, write_json  # noqa: E402

SIZES = [10_000, 100_000, 1_000_000]
QUICK_SIZES = [1_000, 10_000]
KINDS = ["numeric", "mixed"]
FORMS = ["dnf", "cnf"]
N_CLAUSES = 3
THETA = 0.01
N_THRESHOLDS = 9
DEFAULT_TIMEOUT = 900.0
DEFAULT_OUT = REPO / "benchmarks" / "results" / "scaling_1m.json"
QUICK_OUT = REPO / "benchmarks" / "results" / "scaling_quick.json"  # so that a quick run never overwrites the curve
_MARK = "SCALING-CELL "  # prefix of the child's one result line on stdout


def measure_cell(n: int, kind: str, form: str, *, seed: int = 0, verbose: bool = False, algorithm: str = "am") -> dict[str, Any]:
    """One fit (AM unless ``algorithm``) on ``make_rule_data(n, kind=kind)`` in ``form``, with where its time and memory went.

    See the module docstring. For ``cg`` the clause-LP columns are left empty (it solves a master LP and a final selection).
    """
    import logging

    from rulemodels import BooleanRuleClassifier, TrainingWorkspace, make_rule_data
    from rulemodels.algorithms import LPSolutionCache
    from rulemodels.algorithms.training import default_binarizer

    if verbose:
        logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    X, y = make_rule_data(n, kind=kind, random_state=seed)
    clf = BooleanRuleClassifier(
        algorithm=algorithm, n_clauses=N_CLAUSES, theta=THETA, form=form, n_thresholds=N_THRESHOLDS, verbose=verbose,
    )
    start = time.perf_counter()
    with TrainingWorkspace(X, y, binarizer=default_binarizer(N_THRESHOLDS), solver=clf.solver) as workspace:
        clf.fit(X, y, workspace=workspace)
        fit_seconds = time.perf_counter() - start
        peak = peak_rss_mib()
        row: dict[str, Any] = {
            "kind": kind,
            "n": n,
            "form": form.upper(),
            "status": "ok",
            "binary features": int(workspace.A.shape[1]),
            "distinct patterns": workspace.n_patterns,
            "binarize s": workspace.binarize_seconds,
        }
        formulation, size, build_seconds = "cg master", None, None
        if algorithm != "cg":
            # the fit's own working data (no second dense copy of the rows)
            data = workspace.lp_cache(form, allow_disable=clf.allow_disable, disable_cost=clf.disable_cost).data
            with LPSolutionCache(data, workspace.backend) as cache:  # the engine's build, timed on its own
                formulation = cache.formulation("auto")
                build_start = time.perf_counter()
                if formulation == "cuts":  # the cutting-plane master (its size: w, the hinge variables, no cut yet)
                    lp, _ = cache.cut_model(cache, clf.paper_theta_)
                else:
                    lp, _ = cache.clause_model(formulation, clf.paper_theta_, data.weight)
                build_seconds = time.perf_counter() - build_start
                size = f"{lp.model.nconstraints()} x {lp.model.nvariables()}"
    row.update({
        "algorithm": algorithm,
        "LP": formulation,
        "LP rows x cols": size,
        "build s": build_seconds,
        "solve s": clf.solver_seconds_,
        "LP solves": clf.n_solves_,
        "iterations": clf.n_iter_,
        "fit s": fit_seconds,
        "train error": clf.training_error_,
        "literals": clf.rule_.n_literals,
        "peak RSS MiB": peak,
    })
    return row


def run_cell(n: int, kind: str, form: str, *, timeout: float, seed: int = 0, verbose: bool = False,
             algorithm: str = "am") -> dict[str, Any]:
    """:func:`measure_cell` in a fresh subprocess (its own process group), killed after ``timeout`` seconds."""
    command = [sys.executable, str(Path(__file__).resolve()), "--cell", str(n), kind, form, "--seed", str(seed),
               "--algorithm", algorithm]
    if verbose:
        command.append("--verbose")
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the child and anything it started
        process.communicate()
        return {"kind": kind, "n": n, "form": form.upper(), "status": f"timeout ({timeout:g} s)",
                "fit s": time.perf_counter() - started}
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)  # Ctrl-C: leave no orphan behind
        process.communicate()
        raise
    results = [line[len(_MARK):] for line in stdout.splitlines() if line.startswith(_MARK)]
    if process.returncode != 0 or not results:
        return {"kind": kind, "n": n, "form": form.upper(), "status": f"failed (exit {process.returncode})"}
    return json.loads(results[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=None, help=f"rows (default {SIZES})")
    parser.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES} (unless --sizes is given)")
    parser.add_argument("--kinds", "--kind", nargs="+", choices=KINDS, default=KINDS)
    parser.add_argument("--forms", nargs="+", choices=FORMS, default=FORMS)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per cell before it is killed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--algorithm", choices=["am", "bcd", "cg"], default="am", help="the algorithm fitted (default am)")
    parser.add_argument("--verbose", action="store_true", help="show each fit's iteration log on stderr")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"default {DEFAULT_OUT.name} (scaling_1m_ALGORITHM.json for another algorithm); {QUICK_OUT.name} with --quick")
    parser.add_argument("--cell", nargs=3, metavar=("N", "KIND", "FORM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cell:
        n, kind, form = args.cell
        row = measure_cell(int(n), kind, form, seed=args.seed, verbose=args.verbose, algorithm=args.algorithm)
        print(_MARK + json.dumps(row, default=float), flush=True)
        return 0
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    rows = []
    for n in sizes:
        for kind in args.kinds:
            for form in args.forms:
                row = run_cell(n, kind, form, timeout=args.timeout, seed=args.seed, verbose=args.verbose,
                               algorithm=args.algorithm)
                rows.append(row)
                print(f"n={n} {kind} {form.upper()}: {row['status']}, fit {row.get('fit s', float('nan')):.1f} s, "
                      f"peak {row.get('peak RSS MiB', float('nan')):.0f} MiB", file=sys.stderr, flush=True)
    settings = {"algorithm": args.algorithm, "n_clauses": N_CLAUSES, "theta": THETA, "theta_unit": "fraction",
                "n_thresholds": N_THRESHOLDS, "seed": args.seed, "timeout s": args.timeout}
    columns = list(dict.fromkeys(key for row in sorted(rows, key=len, reverse=True) for key in row))
    table = [{column: row.get(column, "") for column in columns} for row in rows]  # timed-out cells have fewer keys
    print(markdown_table(table, {"binarize s": 2, "build s": 2, "solve s": 1, "fit s": 1, "train error": 4,
                                "peak RSS MiB": 0}))
    default = DEFAULT_OUT if args.algorithm == "am" else DEFAULT_OUT.with_name(f"scaling_1m_{args.algorithm}.json")
    out = args.out or (QUICK_OUT if args.quick else default)
    write_json(out, {"machine": machine(), "settings": settings, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
