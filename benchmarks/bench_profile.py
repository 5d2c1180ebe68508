"""Where the protocol's time goes on one dataset, by kind of work.

Runs the units (one per fold) of the paper's protocol for one dataset in
this process, one after the other, under :mod:`cProfile`, and splits the
profiled time into:

- **data**: loading the CSV and splitting the folds;
- **binarization**: ``FeatureBinarizer.fit`` and ``transform`` (the
  training rows once per fold, the test rows once per fold);
- **model build**: the Pyomo model builders and the HiGHS backend's
  compilation to standard form (``LinearStandardFormCompiler`` and loading
  into highspy);
- **solver**: time inside HiGHS (highspy's ``run``, ``startSolve`` and
  ``wait``);
- **Python around the solver**, in four parts: the HiGHS backend's own
  work per solve (pushing changed costs and bounds, reading the solution),
  the ``set_*`` functions that keep the Pyomo model's Params equal to what
  is solved, the SCN redundancy-aware rounding, and everything else (the
  BCD/AM drivers, objective evaluations in numpy, set covering, evaluating
  rules, records).

cProfile slows Python code (not HiGHS), so the shares overstate the Python
parts somewhat; the unprofiled wall time of the same units is printed
beside them. Run from the repository root::

    python benchmarks/bench_profile.py --dataset pima
    python benchmarks/bench_profile.py --dataset sonar --folds 3
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402
from rulemodels.experiments import PAPER_THETAS, make_grid  # noqa: E402
from rulemodels.experiments.cells import make_units, run_unit  # noqa: E402

ALGORITHMS = ["scs", "scn", "bcd", "am"]

#: (name, predicate on a profiled function's (file, name)); each is timed cumulatively, outermost calls only.
MEASURED = [
    ("data", lambda file, name: name in {"_load_task_data", "split_indices"} and "experiments" in file),
    ("binarization", lambda file, name: name in {"fit", "transform", "_fit", "_transform"} and file.endswith("binarizer.py")
     and "data" in file),
    ("builders", lambda file, name: name.startswith("build_") and "models" in file),
    ("compile", lambda file, name: name == "_compile" and file.endswith("highs.py")),
    ("backend solve", lambda file, name: name == "solve" and file.endswith(("solvers/highs.py", "solvers\\highs.py"))),
    ("HiGHS", lambda file, name: name in {"highspy.run", "highspy.startSolve", "highspy.wait"}),
    ("Param updates", lambda file, name: name in {"set_sample_weight", "set_theta", "set_feature_cost", "parameter_changes"}
     and "models" in file),
    ("rounding", lambda file, name: name == "binarize" and file.endswith("rounding.py")),
]


def _measured_times(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds per :data:`MEASURED` entry, counting only calls not made from within the same entry."""
    totals = {name: 0.0 for name, _ in MEASURED}
    members: dict[tuple, str] = {}
    for key in stats.stats:  # type: ignore[attr-defined]
        file, _, name = key
        for entry, matches in MEASURED:
            if matches(file, _method_name(name)):
                members[key] = entry
                break
    for key, entry in members.items():
        _, _, _, cumulative, callers = stats.stats[key]  # type: ignore[attr-defined]
        outer = sum(timing[3] for caller, timing in callers.items() if members.get(caller) != entry)
        totals[entry] += outer if callers else cumulative
    return totals


def _parts(measured: dict[str, float], total: float) -> dict[str, float]:
    """The disjoint parts of the table (the backend's own time excludes HiGHS and compiling)."""
    parts = {
        "data (load CSV, split folds)": measured["data"],
        "binarization (FeatureBinarizer fit + transform)": measured["binarization"],
        "model build (Pyomo builders + compile to highspy)": measured["builders"] + measured["compile"],
        "solver (inside HiGHS)": measured["HiGHS"],
        "backend around HiGHS (push changes, read the solution)":
            max(measured["backend solve"] - measured["HiGHS"] - measured["compile"], 0.0),
        "Param updates (set_* keep the Pyomo model in sync)": measured["Param updates"],
        "rounding (SCN redundancy-aware binarization)": measured["rounding"],
    }
    parts["other Python (drivers, objectives, set cover, records)"] = max(total - sum(parts.values()), 0.0)
    return parts


def _method_name(name: str) -> str:
    """A C function's profile name as ``package.function``; Python function names unchanged.

    ``<built-in method highspy._core.run>`` → ``highspy.run``;
    ``<method 'run' of 'highspy._core._Highs' objects>`` → ``highspy.run``.
    """
    if name.startswith("<built-in method "):
        dotted = name[len("<built-in method "):-1].split(".")
        return f"{dotted[0]}.{dotted[-1]}"
    if name.startswith("<method '"):
        _, method, _, owner, _ = name.split("'", 4)
        return f"{owner.split('.')[0]}.{method}"
    return name


def profile_dataset(dataset: str, folds: int) -> dict:
    tasks = make_grid([dataset], ALGORITHMS, range(1, 6), PAPER_THETAS, n_folds=10, solver="highs", n_thresholds=9)
    units = [unit for unit in make_units(tasks) if unit.tasks[0].fold < folds]
    start = time.perf_counter()
    for unit in units:
        run_unit(unit)
    plain = time.perf_counter() - start

    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for unit in units:
        run_unit(unit)
    profiler.disable()
    profiled = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    parts = _parts(_measured_times(stats), profiled)
    rows = [
        {"part": part, "profiled s": seconds, "share": seconds / profiled}
        for part, seconds in parts.items()
    ]
    rows.append({"part": "total", "profiled s": profiled, "share": 1.0})
    return {"dataset": dataset, "folds": folds, "fits": sum(len(unit) for unit in units),
            "wall s (not profiled)": plain, "wall s (profiled)": profiled, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="pima")
    parser.add_argument("--folds", type=int, default=10, help="profile the first K folds of the 10-fold protocol")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "profile.json")
    args = parser.parse_args(argv)
    result = profile_dataset(args.dataset, args.folds)
    print(f"{args.dataset}: {result['fits']} fits, {result['wall s (not profiled)']:.1f} s without the profiler, "
          f"{result['wall s (profiled)']:.1f} s with it (one process)")
    print(markdown_table(result["rows"], {"profiled s": 1, "share": 3}))
    write_json(args.out, {"machine": machine(), **result})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
