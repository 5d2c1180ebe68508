"""Ground truth: how far is each heuristic from the proven optimum of the 0-1 objective?

**Samples.** Random subsamples (``--rows``, ``--samples`` of each) of each
bundled dataset (``--datasets``), 9 quantile thresholds, the default θ (0.002 ×
rows in the paper's units, the exact MIP's), R in ``--R``, both forms. On each,

- every heuristic (SCS, SCN, TLP, BCD, AM, cg; :func:`rulemodels.algorithms.learn`
  on the problem's LP cache, HiGHS, as :func:`~rulemodels.algorithms.exact.heuristic_start`
  runs them), and each of their rules polished (:func:`~rulemodels.algorithms.polish.polish_rule`,
  HiGHS, ``--polish-seconds``);
- the exact 0-1 MIP with ``--solver`` (CP-SAT: the engine that proves these),
  started from the best of those rules, ``--proof-limit`` seconds.

Every objective is recomputed by :func:`rulemodels.models.zero_one_objective`
from the same A, y, weights and θ (weighted errors + θ × literals), so every
number is comparable. A sample whose proof does not finish (termination other
than ``optimal``, ``unverified`` included) has no optimum and no gaps; an
"optimum" above a heuristic's rule is recorded as contradicted, never used.

**Engines** (``--engines N``): N random small problems (40-80 rows, R = 1-3,
both forms, integer row weights 1-3), each solved by every available backend
cold and warm (from :func:`heuristic_start`), and polished by each from the
same start, ``--engine-limit`` seconds each; the runs are audited as in
``exact_claims.py``: a claimed optimum (or bound) above another run's proven
optimum, or an objective that is not its rule's, is a disagreement.

Records are appended to JSONL files (resumable: a sample or problem already
there is skipped). ``--report`` writes ``results/ground_truth.md`` and the
figure ``docs/results/ground_truth_gaps.png`` from the records alone. Run
niced from the repository root::

    nice python benchmarks/studies/ground_truth.py --samples 3 --rows 40 --R 2 --proof-limit 60
    nice python benchmarks/studies/ground_truth.py --engines 40 --engine-limit 4
    python benchmarks/studies/ground_truth.py --report

The issue's full grid: ``--samples 20 --rows 40 60 100 --R 1 2 3`` (hours).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.studies.exact_claims import (  # noqa: E402
    DATASETS,
    TOLERANCE,
    audit,
    build_problem,
    rule_objective,
    run_exact,
    run_polish,
)

RESULTS = REPO / "benchmarks" / "studies" / "results"
RECORDS = RESULTS / "ground_truth.jsonl"
ENGINE_RECORDS = RESULTS / "engine_agreement.jsonl"
PAGE = RESULTS / "ground_truth.md"
FIGURE = REPO / "docs" / "results" / "ground_truth_gaps.png"
HEURISTICS = ("scs", "scn", "tlp", "bcd", "am", "cg")
ENGINES = ("highs", "cbc", "glpk", "cpsat", "scip")


def sample_spec(dataset: str, n_rows: int, sample: int, R: int, form: str) -> dict[str, Any]:
    """The sample ``sample`` of ``n_rows`` rows of ``dataset`` (the same rows for every R and form)."""
    rows_seed = int(np.random.default_rng([DATASETS.index(dataset), n_rows, sample]).integers(2**31))
    key = f"{dataset}-{n_rows}-{sample}-R{R}-{form}"
    return {"key": key, "dataset": dataset, "n_rows": n_rows, "sample": sample, "R": R, "form": form, "rows_seed": rows_seed}


def run_heuristic(problem: Any, algorithm: str, R: int, theta: float) -> tuple[Any, dict[str, Any]]:
    """``algorithm``'s rule on ``problem`` (HiGHS LPs, the default iteration cap) and its record."""
    from rulemodels import defaults
    from rulemodels.algorithms.data import WorkingData
    from rulemodels.algorithms.lp_cache import LPSolutionCache
    from rulemodels.algorithms.run import learn
    from solvers import get_backend

    began = time.perf_counter()
    data = WorkingData.from_problem(problem)
    cache = LPSolutionCache(data, get_backend(defaults.DEFAULT_SOLVER))
    result = learn(cache, algorithm=algorithm, n_clauses=R, theta=theta, max_iter=defaults.DEFAULT_MAX_ITER)
    rule = problem.rule_from_weights(*data.split(result.W))
    return rule, {"objective": rule_objective(problem, rule, theta), "rule": str(rule), "seconds": time.perf_counter() - began}


def solve_sample(spec: dict[str, Any], solver: str, proof_limit: float, polish_seconds: float) -> dict[str, Any]:
    """One sample's record: each heuristic's objective, polished and not, and the exact MIP's."""
    from rulemodels import defaults

    problem = build_problem(spec)
    theta = defaults.DEFAULT_THETA * spec["n_rows"]
    heuristics: dict[str, dict[str, Any]] = {}
    best: tuple[float, Any] | None = None
    for algorithm in HEURISTICS:
        rule, record = run_heuristic(problem, algorithm, spec["R"], theta)
        heuristics[algorithm] = record
        if rule.clauses:
            heuristics[f"{algorithm}+polish"] = run_polish(problem, spec, rule, theta, polish_seconds)
        else:  # nothing to polish (no clause): the rule is its own polish
            heuristics[f"{algorithm}+polish"] = {**record, "termination": "skipped"}
        if best is None or record["objective"] < best[0]:  # the MIP's start: the best heuristic's rule
            best = (record["objective"], rule)
    assert best is not None
    exact = run_exact(problem, spec, solver, best[1], theta, proof_limit)
    record = {**spec, "theta": theta, "features": int(problem.n_features), "solver": solver,
              "proof_limit": proof_limit, "polish_seconds": polish_seconds, "heuristics": heuristics, "exact": exact}
    return complete(record, problem)


def complete(record: dict[str, Any], problem: Any = None) -> dict[str, Any]:
    """Add to ``record`` what its optimum over rules of *at most* R clauses needs: the proofs with fewer clauses, the constants.

    The exact MIP's rules have exactly R clauses (a rule of fewer is written
    with a repeated clause, whose literals are paid twice); a heuristic may
    return fewer (a clause dropped or merged). The optimum over at most R
    clauses is the least of the MIPs' with R' = 1..R clauses and of the two
    constant rules, and is proven when each of those MIPs is.
    """
    from rulemodels.algorithms.exact import constant_rule

    if "fewer" in record and "constants" in record:
        return record
    problem = build_problem(record) if problem is None else problem
    record["fewer"] = {
        str(R): run_exact(problem, {**record, "R": R}, record["solver"], None, record["theta"], record["proof_limit"])
        for R in range(1, record["R"])
    }
    record["constants"] = [rule_objective(problem, constant_rule(record["form"], value), record["theta"]) for value in (False, True)]
    return record


def optimum(record: dict[str, Any]) -> float | None:
    """The sample's proven optimum (recomputed), or None: no proof, or one a heuristic's rule contradicts."""
    proofs = [record["exact"], *record.get("fewer", {}).values()]
    if any("error" in run or run.get("termination") != "optimal" for run in proofs):
        return None
    value = min([float(run["recomputed"]) for run in proofs] + list(record.get("constants", [])))
    found = [heuristic_objective(run) for run in record["heuristics"].values()]
    if any(objective is not None and objective < value - TOLERANCE * max(1.0, abs(value)) for objective in found):
        return None
    return value


def contradicted(record: dict[str, Any]) -> bool:
    """True when the exact MIPs claim optima whose least some heuristic's rule beats."""
    proofs = [record["exact"], *record.get("fewer", {}).values()]
    return all("error" not in run and run.get("termination") == "optimal" for run in proofs) and optimum(record) is None


def exactly_r_beaten(record: dict[str, Any]) -> bool:
    """True when some heuristic's rule (of fewer clauses) is below the proven optimum of the MIP with exactly R clauses."""
    exact = record["exact"]
    if "error" in exact or exact.get("termination") != "optimal":
        return False
    value = float(exact["recomputed"])
    found = [heuristic_objective(run) for run in record["heuristics"].values()]
    return any(objective is not None and objective < value - TOLERANCE * max(1.0, abs(value)) for objective in found)


def heuristic_objective(run: dict[str, Any]) -> float | None:
    """A heuristic run's recomputed objective (None for an error)."""
    if "error" in run:
        return None
    return float(run["recomputed"] if "recomputed" in run else run["objective"])


def gaps(records: list[dict[str, Any]]) -> dict[str, list[tuple[float, float]]]:
    """Per heuristic (and polished heuristic), ``(absolute, relative)`` gaps to the proven optimum of each proven sample."""
    out: dict[str, list[tuple[float, float]]] = {}
    for record in records:
        best = optimum(record)
        if best is None:
            continue
        for name, run in record["heuristics"].items():
            value = heuristic_objective(run)
            if value is None:
                continue
            absolute = max(value - best, 0.0)
            out.setdefault(name, []).append((absolute, absolute / best if best > 0 else 0.0))
    return out


def read(path: Path) -> list[dict[str, Any]]:
    """The records of a JSONL file (none when it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def order(names: list[str]) -> list[str]:
    """The heuristics in :data:`HEURISTICS` order, each followed by its polished run."""
    ranked = [name for algorithm in HEURISTICS for name in (algorithm, f"{algorithm}+polish")]
    return [name for name in ranked if name in names] + sorted(set(names) - set(ranked))


def engine_summary(records: list[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    """The disagreements of the cross-engine records and the counts (problems, proven, per-run optimal)."""
    lines: list[str] = []
    finished: dict[str, int] = {}
    for record in records:
        found = audit(record)
        where = f"seed {record['seed']} ({record['dataset']}, {record['n_rows']} rows, R={record['R']}, {record['form']}, weighted)"
        lines += [f"{where}: {kind}: {line}" for kind in ("wrong", "mismatch") for line in found[kind]]
        for name, run in record["runs"].items():
            finished[name] = finished.get(name, 0) + (run.get("termination") == "optimal")
    errors = [f"seed {record['seed']} {name}: {run['error']}"
              for record in records for name, run in record["runs"].items() if "error" in run]
    proven = sum(any(run.get("termination") == "optimal" for run in record["runs"].values()) for record in records)
    several = sum(sum(run.get("termination") == "optimal" for run in record["runs"].values()) >= 2 for record in records)
    return lines, {"problems": len(records), "proven": proven, "several": several, "finished": finished, "errors": errors}


def render(records: list[dict[str, Any]], engine_records: list[dict[str, Any]]) -> str:
    """The markdown page of the records."""
    proven = [record for record in records if optimum(record) is not None]
    table_gaps = gaps(records)
    lines = [
        "# Ground truth: each heuristic's gap to the proven optimum",
        "",
        "Written by `python benchmarks/studies/ground_truth.py --report` from `ground_truth.jsonl` and "
        "`engine_agreement.jsonl`; do not edit by hand.",
        "",
        f"{len(records)} samples, {len(proven)} with a proven optimum over the rules of at most R clauses "
        f"({sum(contradicted(r) for r in records)} contradicted by a heuristic's rule). "
        "Objective: weighted errors + θ × literals (θ = 0.002 × rows), recomputed from the data for every rule. "
        "The optimum is the least of the exact MIPs' with R' = 1..R clauses (each proven by "
        + ", ".join(sorted({r["solver"] for r in records}) or ["—"])
        + ") and of the two constant rules: the MIP's rules have exactly R clauses, and on "
        f"{sum(exactly_r_beaten(r) for r in records)} samples a heuristic's rule of fewer clauses is below the proven "
        "optimum of the MIP with exactly R.",
        "",
    ]
    if records:
        sizes = sorted({(r["dataset"], r["n_rows"], r["R"], r["form"]) for r in records})
        per = {}
        for dataset, n_rows, R, form in sizes:
            group = [r for r in records if (r["dataset"], r["n_rows"], r["R"], r["form"]) == (dataset, n_rows, R, form)]
            seconds = [r["exact"]["seconds"] for r in group if optimum(r) is not None]
            per[(dataset, n_rows, R, form)] = (len(group), sum(optimum(r) is not None for r in group),
                                               max(seconds) if seconds else None)
        lines += ["| dataset | rows | R | form | samples | proven | slowest proof (s) |", "|---|---|---|---|---|---|---|"]
        for (dataset, n_rows, R, form), (count, done, slowest) in per.items():
            lines.append(f"| {dataset} | {n_rows} | {R} | {form} | {count} | {done} | "
                         + ("—" if slowest is None else f"{slowest:.1f}") + " |")
        lines.append("")
    lines += ["| heuristic | samples | at the optimum | median gap | mean gap | max gap | median relative gap | max relative gap |",
              "|---|---|---|---|---|---|---|---|"]
    for name in order(list(table_gaps)):
        values = table_gaps[name]
        absolute = np.array([a for a, _ in values])
        relative = np.array([r for _, r in values])
        at = np.mean([a <= TOLERANCE * max(1.0, a) for a in absolute])
        lines.append(f"| {name} | {len(values)} | {at:.0%} | {np.median(absolute):.3g} | {absolute.mean():.3g} | "
                     f"{absolute.max():.3g} | {np.median(relative):.0%} | {relative.max():.0%} |")
    lines += ["", "Gap: the heuristic's objective − the optimum, in the objective's units (rows: errors + θ × literals); "
              "relative: divided by the optimum, which is small (a few rows) on these samples.", ""]
    disagreements, counts = engine_summary(engine_records)
    lines += ["## Engine agreement", ""]
    if engine_records:
        lines += [
            f"{counts['problems']} random problems (40-80 rows, R = 1-3, both forms, row weights 1-3), "
            f"{counts['proven']} with an optimum proven by some run, {counts['several']} by two runs or more; "
            f"{len(disagreements)} disagreements.",
            "",
            "| run | proved optimal |",
            "|---|---|",
        ]
        lines += [f"| {name} | {count} |" for name, count in sorted(counts["finished"].items())]
        lines += [""] + [f"- {line}" for line in disagreements] + ([""] if disagreements else [])
        lines += [f"Runs that ended in an error (no rule, so not audited): {len(counts['errors'])}.", ""]
        lines += [f"- {line}" for line in counts["errors"]] + ([""] if counts["errors"] else [])
    else:
        lines += ["No records.", ""]
    return "\n".join(lines).rstrip() + "\n"


def figure(records: list[dict[str, Any]], path: Path) -> None:
    """The strip plot of the gaps (objective units) per heuristic, polished and not."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table_gaps = gaps(records)
    names = order(list(table_gaps))
    fig, ax = plt.subplots(figsize=(8, 3.6), dpi=110)
    rng = np.random.default_rng(0)
    for k, name in enumerate(names):
        values = np.array([a for a, _ in table_gaps[name]])
        ax.scatter(k + rng.uniform(-0.18, 0.18, len(values)), values, s=12, alpha=0.6,
                   color="tab:orange" if name.endswith("+polish") else "tab:blue")
        ax.plot([k - 0.3, k + 0.3], [np.median(values)] * 2, color="black", lw=1.5)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_ylabel("gap to the proven optimum\n(errors + θ × literals, rows)")
    n = sum(optimum(r) is not None for r in records)
    ax.set_title(f"Heuristics against proven optima ({n} samples; bar: median)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def engine_problem(seed: int) -> dict[str, Any]:
    """The cross-engine problem of ``seed``: dataset, 40-80 rows, R = 1-3, form, weighted."""
    rng = np.random.default_rng([53, seed])
    return {"seed": seed, "dataset": DATASETS[int(rng.integers(len(DATASETS)))], "n_rows": int(rng.integers(40, 81)),
            "R": int(rng.integers(1, 4)), "form": "dnf" if rng.random() < 0.5 else "cnf",
            "rows_seed": int(rng.integers(2**31)), "weighted": True}


def solve_engines(spec: dict[str, Any], engines: list[str], time_limit: float) -> dict[str, Any]:
    """Every engine cold, warm and polishing on one problem."""
    from rulemodels import defaults
    from rulemodels.algorithms.exact import heuristic_start

    problem = build_problem(spec)
    theta = defaults.DEFAULT_THETA * spec["n_rows"]
    start = heuristic_start(problem, spec["R"], theta)
    runs: dict[str, dict[str, Any]] = {}
    for engine in engines:
        runs[f"{engine}_cold"] = run_exact(problem, spec, engine, None, theta, time_limit)
        runs[f"{engine}_warm"] = run_exact(problem, spec, engine, start, theta, time_limit)
        if start.clauses:
            runs[f"polish_{engine}"] = run_polish(problem, spec, start, theta, time_limit, solver=engine)
    return {**spec, "theta": theta, "start_objective": rule_objective(problem, start, theta), "time_limit": time_limit, "runs": runs}


def available_engines(names: list[str]) -> list[str]:
    """The engines of ``names`` whose backend is installed."""
    from solvers import get_backend

    found = []
    for name in names:
        try:
            if get_backend(name).available():
                found.append(name)
        except Exception:  # not installed: left out, and the report's counts say which ran
            continue
    return found


def write_report(records_path: Path, engine_path: Path, page: Path, figure_path: Path | None) -> str:
    """Write the page (and the figure) from the records; the page's text."""
    records, engine_records = read(records_path), read(engine_path)
    text = render(records, engine_records)
    page.write_text(text)
    if figure_path is not None:
        figure(records, figure_path)
    return text


def main(argv: list[str] | None = None) -> int:
    """Run the study (or only ``--report``); the logging it quiets while it solves is restored after."""
    try:
        return _main(argv)
    finally:
        logging.disable(logging.NOTSET)  # a caller (a test) keeps its warnings


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--rows", nargs="+", type=int, default=[40])
    parser.add_argument("--samples", type=int, default=0, help="samples of each size (0: none)")
    parser.add_argument("--R", nargs="+", type=int, default=[2])
    parser.add_argument("--forms", nargs="+", default=["dnf", "cnf"])
    parser.add_argument("--solver", default="cpsat", help="the engine of the proofs")
    parser.add_argument("--proof-limit", type=float, default=60.0)
    parser.add_argument("--polish-seconds", type=float, default=5.0)
    parser.add_argument("--engines", type=int, default=0, help="cross-engine problems (0: none)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--engine-limit", type=float, default=4.0)
    parser.add_argument("--engine-names", nargs="+", default=list(ENGINES))
    parser.add_argument("--out", type=Path, default=RECORDS)
    parser.add_argument("--engine-out", type=Path, default=ENGINE_RECORDS)
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument("--figure", type=Path, default=FIGURE)
    parser.add_argument("--report", action="store_true", help="only write the page and the figure from the records")
    args = parser.parse_args(argv)
    if not args.report:
        logging.disable(logging.WARNING)  # the MIPs' progress and the starts' notices
        args.out.parent.mkdir(parents=True, exist_ok=True)
        done = {record["key"] for record in read(args.out)}
        for n_rows in args.rows:
            for sample in range(args.samples):
                for dataset in args.datasets:
                    for R in args.R:
                        for form in args.forms:
                            spec = sample_spec(dataset, n_rows, sample, R, form)
                            if spec["key"] in done:
                                continue
                            record = solve_sample(spec, args.solver, args.proof_limit, args.polish_seconds)
                            best = optimum(record)
                            print(f"{spec['key']}: {record['exact'].get('termination', record['exact'].get('error'))} "
                                  f"{record['exact'].get('seconds', 0):.1f} s, optimum {best}", flush=True)
                            with args.out.open("a") as stream:
                                stream.write(json.dumps(record) + "\n")
        records = read(args.out)
        if any("fewer" not in record or "constants" not in record for record in records):
            args.out.write_text("".join(json.dumps(complete(record)) + "\n" for record in records))
        if args.engines:
            engines = available_engines(args.engine_names)
            done_seeds = {record["seed"] for record in read(args.engine_out)}
            for seed in range(args.first_seed, args.first_seed + args.engines):
                if seed in done_seeds:
                    continue
                record = solve_engines(engine_problem(seed), engines, args.engine_limit)
                found = audit(record)
                print(f"engines seed {seed}: " + ("; ".join(found["wrong"] + found["mismatch"]) or "ok"), flush=True)
                with args.engine_out.open("a") as stream:
                    stream.write(json.dumps(record) + "\n")
    text = write_report(args.out, args.engine_out, args.page, args.figure)
    print(text)
    disagreements, _ = engine_summary(read(args.engine_out))
    return 1 if disagreements or any(contradicted(r) for r in read(args.out)) else 0


if __name__ == "__main__":
    sys.exit(main())
