"""The ``rulemodels`` command line.

Results go to stdout; errors go to stderr with a non-zero exit status and no
traceback unless ``--debug`` is given. Only this module configures logging
and prints.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

__all__ = ["main", "build_parser"]

#: The estimator's default θ (rulemodels.estimator.DEFAULT_THETA), repeated so the
#: CLI parser is built without importing the estimator (a test checks they agree).
DEFAULT_THETA = 0.005

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """A user-facing error: printed as ``rulemodels: error: <message>``."""


def _cmd_solvers(args: argparse.Namespace) -> int:
    """Print every registered backend: availability (and why not), versions, persistence and route."""
    from solvers import describe_backends

    rows = describe_backends(tuple(args.extra))
    header = ("solver", "available", "version", "persistent", "packages", "route", "note")
    table = [
        (
            row.name,
            "yes" if row.available else "no",
            row.version or "-",
            "yes" if row.persistent else "no",
            ", ".join(f"{package} {version}" for package, version in row.packages.items()) or "-",
            row.route or "-",
            "" if row.available else f"{row.reason}; {row.install_hint}",
        )
        for row in rows
    ]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *table)]
    for line in (header, *table):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip())
    return EXIT_OK


def _add_csv_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-header", action="store_true", help="the CSV file has no header row: columns are named x0, x1, ...")
    parser.add_argument("--sep", default=",", help="the CSV field separator (default: ,)")
    parser.add_argument(
        "--na-values", default="?", metavar="LIST",
        help="comma-separated cell texts read as missing, besides empty, NA, NaN, null, n/a (default: ?)",
    )


def _csv_options(args: argparse.Namespace) -> Any:
    from rulemodels.io import CSVOptions

    na_values = tuple(v for v in args.na_values.split(",") if v != "")
    return CSVOptions(header=not args.no_header, sep=args.sep, na_values=na_values)


def _add_data_arguments(parser: argparse.ArgumentParser, *, estimator: bool = True) -> None:
    parser.add_argument("data", metavar="DATA", help="a CSV file, or a bundled dataset name (sonar, liver, pima, parkinsons)")
    parser.add_argument(
        "--target",
        help="the label column (required for a CSV file): its name, or its 0-based index (-1: the last column)",
    )
    parser.add_argument("--positive", help="the label value of the positive class (required if the target has more than two values)")
    _add_csv_arguments(parser)
    if estimator:
        parser.add_argument(
            "--nan", choices=("indicator", "error"), default="indicator",
            help="missing values: 'indicator' (default) makes a column's literals false where it is missing and adds "
                 "'x is missing' literals; 'error' refuses them",
        )
        parser.add_argument(
            "--keep-id-columns", action="store_true",
            help="keep text columns with one distinct value per row (IDs, dates as text) as categories; "
                 "by default they are left out with a warning",
        )


def _add_rule_arguments(parser: argparse.ArgumentParser, *, solver: str, forms: tuple[str, ...] = ("dnf", "cnf")) -> None:
    from solvers import registered_backends

    parser.add_argument("--clauses", type=_positive_int, default=2, help="R, the number of clauses (default: 2)")
    parser.add_argument(
        "--theta", type=_nonnegative_float, default=DEFAULT_THETA,
        help=f"sparsity weight θ: the share of the training rows a literal must fix to be kept (default: {DEFAULT_THETA:g})",
    )
    auto = " ('auto': the one with the lower 5-fold inner-CV error)" if "auto" in forms else ""
    parser.add_argument("--form", choices=forms, default="dnf", help=f"rule form{auto} (default: dnf)")
    parser.add_argument(
        "--solver", default=solver,
        help=f"solver backend: {', '.join(registered_backends())}, or any Pyomo solver name (default: {solver})",
    )
    parser.add_argument("--thresholds", type=_positive_int, default=9, help="quantile thresholds per numeric column (default: 9)")
    parser.add_argument("--time-limit", type=_positive_float, default=None, help="seconds for the whole fit or solve")


def _fit_estimator(args: argparse.Namespace, algorithm: str):
    from rulemodels import BooleanRuleClassifier
    from rulemodels.io import load_data

    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    clf = BooleanRuleClassifier(
        form=args.form, n_clauses=args.clauses, theta=args.theta, algorithm=algorithm, n_thresholds=args.thresholds,
        allow_disable=args.allow_disable, max_iter=args.max_iter,
        solver=args.solver, time_limit=args.time_limit, verbose=args.verbose,
        nan=args.nan, high_cardinality="keep" if args.keep_id_columns else "drop",
    )
    start = time.perf_counter()
    clf.fit(data.X, data.y)
    return data, clf, time.perf_counter() - start


def _print_rule_summary(data, clf, seconds: float) -> None:
    complexity = clf.rule_.complexity()
    error = float(np.mean(clf.predict(data.X) != data.y))
    print(f"data: {data.source} ({data.X.shape[0]} samples, {data.X.shape[1]} features, {int(data.y.sum())} positive)")
    if hasattr(clf, "form_cv_errors_"):
        errors = {form: float(np.mean(values)) for form, values in clf.form_cv_errors_.items()}
        print(f"form: {clf.form_} (--form auto; mean inner-CV error dnf {errors['dnf']:.4f}, cnf {errors['cnf']:.4f})")
    print(f"rule ({data.target} = {data.classes[1]} when true):")
    print(f"  {clf.rule_}")
    if clf.simplification_.changed:
        print(f"simplified: {clf.simplification_}")
    majority = data.classes[clf.baseline_class_]
    print(f"training error: {error:.4f}  (accuracy {1 - error:.4f}); baseline: {clf.baseline_error_:.4f} (always {majority})")
    print(
        f"complexity: {complexity['n_clauses']} clauses, {complexity['n_conditions']} conditions as printed, "
        f"{clf.raw_rule_.n_literals} literals as learned, {complexity['n_features']} distinct features"
    )
    print(
        f"solve: {clf.algorithm} with {clf.solver}, {clf.n_iter_} iterations ({clf.termination_}), "
        f"{clf.n_solves_} solves, {clf.n_builds_} model builds, objective {clf.objective_:.6g}, {seconds:.2f} s"
    )


def _cmd_fit(args: argparse.Namespace) -> int:
    """Learn a rule, print it with its training error, complexity and solve statistics."""
    from rulemodels.io import save_model

    data, clf, seconds = _fit_estimator(args, args.algorithm)
    _print_rule_summary(data, clf, seconds)
    if args.out:
        save_model(
            args.out, clf.rule_, data.classes, data.target, list(data.X.columns),
            algorithm=args.algorithm, theta=args.theta, n_clauses=args.clauses, solver=args.solver,
        )
        print(f"saved to {args.out}")
    return EXIT_OK


def _cmd_predict(args: argparse.Namespace) -> int:
    """Apply a saved rule to a CSV file; write one prediction per row (and its reason with --explain)."""
    from rulemodels.io import load_model, read_features

    model = load_model(args.rule)
    frame = read_features(args.data, _csv_options(args))
    if args.explain:
        predictions = model.explain(frame)[["prediction", "reason"]]
    else:
        predictions = pd.DataFrame({"prediction": model.predict(frame)})
    if args.out:
        predictions.to_csv(args.out, index=False)
        print(f"wrote {len(predictions)} predictions to {args.out}", file=sys.stderr)
    else:
        predictions.to_csv(sys.stdout, index=False)
    return EXIT_OK


def _cmd_exact(args: argparse.Namespace) -> int:
    """Solve the exact MIP and print status, objective, bound, gap and the rule."""
    from rulemodels.exact import solve_exact
    from rulemodels.io import load_data

    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    X, y = data.X, data.y
    if args.sample is not None and args.sample < len(X):
        rows = np.random.default_rng(args.seed).choice(len(X), size=args.sample, replace=False)
        X, y = X.iloc[np.sort(rows)], y[np.sort(rows)]
    result = solve_exact(  # solve_exact takes the paper's θ: --theta is a share of the rows, as in fit
        X, y, n_clauses=args.clauses, theta=args.theta * len(X), formulation=args.formulation, form=args.form,
        solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap, n_thresholds=args.thresholds,
    )
    gap = "-" if result.gap is None else f"{100 * result.gap:.3f} %"
    bound = "-" if result.bound is None else f"{result.bound:.6g}"
    print(
        f"data: {data.source} ({len(X)} samples), {args.formulation} MIP, R={args.clauses}, theta={args.theta:g} "
        f"(the paper's θ: {args.theta * len(X):g})"
    )
    print(f"status: {result.status}")
    print(f"objective: {result.objective:.6g}  (accuracy {result.breakdown['accuracy']:.6g}, sparsity {result.breakdown['sparsity']:.6g})")
    print(f"bound: {bound}  gap: {gap}")
    print(f"solver: {result.solve.solver_name} {result.solve.solver_version}, {result.solve.wall_time:.2f} s")
    print(f"rule ({data.target} = {data.classes[1]} when true):")
    print(f"  {result.rule}")
    return EXIT_OK


def _at_least(minimum: float, kind: type, what: str, *, strict: bool = False) -> Callable[[str], Any]:
    """An argparse ``type`` that parses ``kind`` and rejects values below ``minimum`` (argparse names the flag).

    With ``strict`` the value must be above ``minimum``.
    """

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        in_range = value > minimum if strict else value >= minimum
        if not (in_range and math.isfinite(value)):  # also rejects NaN and infinity
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        return value

    return parse


_positive_int = _at_least(1, int, "an integer >= 1")
_nonnegative_float = _at_least(0.0, float, "a number >= 0")
_positive_float = _at_least(0.0, float, "a number > 0", strict=True)


def _parse_clauses(text: str) -> list[int]:
    """``"1-5"`` -> [1, 2, 3, 4, 5]; ``"2"`` -> [2]; ``"1,3"`` -> [1, 3]."""
    values: list[int] = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-", 1)
            values.extend(range(int(low), int(high) + 1))
        else:
            values.append(int(part))
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"clauses must be positive integers like 2, 1-5 or 1,3; got {text!r}")
    return sorted(set(values))


def _parse_thetas(values: list[str]) -> list[float]:
    from rulemodels.experiments import PAPER_THETAS

    if values == ["paper"]:
        return list(PAPER_THETAS)
    try:
        thetas = [float(v) for value in values for v in value.split(",")]
    except ValueError:
        raise CommandError(f"--thetas takes 'paper' or numbers, got {' '.join(values)}") from None
    if any(t < 0 for t in thetas):
        raise CommandError("--thetas must be >= 0")
    return thetas


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--folds", type=int, default=10, help="stratified CV folds (default: 10)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers (default: 2)")
    parser.add_argument("--backend", choices=("joblib", "dask", "sequential"), default="joblib", help="where tasks run (default: joblib)")
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask), e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _run_grid(tasks: list, results_path: Path, args: argparse.Namespace):
    from rulemodels.experiments import run_experiments

    print(f"{len(tasks)} tasks; results in {results_path} (re-run the same command to resume)", file=sys.stderr)
    return run_experiments(
        tasks, results_path, backend=args.backend, n_jobs=args.jobs, scheduler=args.scheduler,
        progress=not args.no_progress and sys.stderr.isatty(),
    )


def _check_inner_folds(inner_folds: int) -> None:
    if inner_folds < 0 or inner_folds == 1:
        raise CommandError(f"--inner-folds must be 0 (no nested CV) or at least 2, got {inner_folds}")


def _cmd_cv(args: argparse.Namespace) -> int:
    """Cross-validate a grid of algorithms x R x theta on one dataset."""
    from rulemodels.experiments import make_grid, nested_cv_selection, table1
    from rulemodels.io import is_bundled_dataset

    dataset = args.data if is_bundled_dataset(args.data) else _cv_csv(args)
    _check_inner_folds(args.inner_folds)
    tasks = make_grid(
        [dataset], args.algorithms, args.clauses, _parse_thetas(args.thetas), n_folds=args.folds,
        inner_folds=args.inner_folds, form=args.form, n_thresholds=args.thresholds, solver=args.solver,
        max_iter=args.max_iter,
    )
    results = _run_grid(tasks, Path(args.results), args)
    table = table1(results, require_complete=False)
    nested = nested_cv_selection(results)
    merged = table.merge(nested[["dataset", "algorithm", "n_clauses", "nested_test_error"]], on=["dataset", "algorithm", "n_clauses"], how="left")
    print("| algorithm | R | min mean test error over θ | at θ | mean literals | test error, θ chosen by nested CV |")
    print("|---|---|---|---|---|---|")
    for row in merged.itertuples():
        honest = "–" if pd.isna(row.nested_test_error) else f"{100 * row.nested_test_error:.1f} %"
        print(
            f"| {row.algorithm} | {row.n_clauses} | {100 * row.test_error:.1f} % | {row.theta:g} | "
            f"{row.n_literals:.1f} | {honest} |"
        )
    baseline = _cv_baseline(args, args.folds)
    print(f"baseline: {100 * baseline:.1f} % mean test error of always predicting the majority class of each training fold")
    if not args.inner_folds:
        print("(the minimum over θ picks θ on the test folds; add --inner-folds 3 to choose θ by nested CV)")
    failed = int(results["error"].notna().sum()) if "error" in results else 0
    if failed:
        print(f"{failed} tasks failed; see the 'error' field in {args.results}", file=sys.stderr)
    return EXIT_OK


def _cv_csv(args: argparse.Namespace) -> Any:
    """The CSV of ``cv`` as the experiment runner reads it (header row, ',' separator, the target by name).

    When --no-header, --sep, --na-values or a target index ask for another
    reading, the data is read here and written once, as the runner reads it,
    to RESULTS.data.csv beside the results file (a new file: the user's CSV is
    never written).
    """
    from rulemodels.experiments import CSVData
    from rulemodels.io import CSVOptions, load_data, read_features

    options = _csv_options(args)
    target = args.target
    columns = [str(c) for c in read_features(args.data, options).columns] if target is not None else []
    if options == CSVOptions() and (target is None or target in columns):
        return CSVData(args.data, target, args.positive)
    data = load_data(args.data, target, args.positive, options)
    frame = read_features(args.data, options)
    copy = Path(f"{args.results}.data.csv")
    if not copy.exists():
        frame.to_csv(copy, index=False)
        print(f"read {args.data} as {copy} (header row, ',' separator) for the runner", file=sys.stderr)
    return CSVData(str(copy), data.target, args.positive, name=Path(args.data).stem)


def _cv_baseline(args: argparse.Namespace, n_folds: int) -> float:
    """Mean test-fold error of the majority class of each training fold (the folds of the runner)."""
    from sklearn.model_selection import StratifiedKFold

    from rulemodels.baseline import majority_baseline
    from rulemodels.io import load_data

    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    errors = []
    for train, test in StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=0).split(data.X, data.y):
        label = majority_baseline(data.y[train], np.ones(len(train))).label
        errors.append(float(np.mean(data.y[test] != label)))
    return float(np.mean(errors))


def _unpack_results(out: Path) -> None:
    """Start from OUT/results.jsonl.gz (how docs/results is committed) when OUT/results.jsonl is missing."""
    plain, packed = out / "results.jsonl", out / "results.jsonl.gz"
    if plain.exists() or not packed.is_file():
        return
    import gzip
    import shutil

    print(f"unpacking {packed} to {plain} (finished tasks are not run again)", file=sys.stderr)
    partial = plain.with_suffix(".jsonl.partial")
    with gzip.open(packed, "rb") as source, open(partial, "wb") as target:
        shutil.copyfileobj(source, target)
    partial.replace(plain)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    """Run the paper's protocol and write Table 1, nested selection and Pareto fronts to --out."""
    from rulemodels.experiments import (
        make_grid, nested_cv_selection, plot_pareto, read_results, summarize, table1, table1_markdown,
    )

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    _unpack_results(out)
    if args.report_only:
        if not (out / "results.jsonl").is_file():
            raise FileNotFoundError(f"--report-only needs the results of an earlier run: {out / 'results.jsonl'} does not exist")
        results = read_results(out / "results.jsonl")
    else:
        _check_inner_folds(args.inner_folds)
        thetas = _parse_thetas(args.thetas)
        settings = dict(
            n_folds=args.folds, form="dnf", n_thresholds=args.thresholds, solver=args.solver,
            max_iter=args.max_iter, time_limit=args.time_limit,
        )
        tasks = make_grid(args.datasets, args.algorithms, args.clauses, thetas, **settings)
        nested_algorithms = [a for a in args.algorithms if a in args.inner_algorithms]
        if args.inner_folds and nested_algorithms:
            inner_grid = make_grid(args.datasets, nested_algorithms, args.clauses, thetas, inner_folds=args.inner_folds, **settings)
            tasks += [task for task in inner_grid if task.is_inner]
        results = _run_grid(tasks, out / "results.jsonl", args)
    ok = results[results["error"].isna()] if "error" in results else results
    # Only cells with every fold: an unfinished run shows no half-averaged numbers.
    table = table1(ok, require_complete=True)
    table.to_csv(out / "table1.csv", index=False)
    (out / "table1.md").write_text(table1_markdown(table) + "\n")
    nested = nested_cv_selection(ok)
    nested.to_csv(out / "nested_selection.csv", index=False)
    (out / "nested_selection.md").write_text(table1_markdown(nested, value="nested_test_error") + "\n")
    summary = summarize(ok)
    summary.to_csv(out / "summary.csv", index=False)
    summary = summary[summary["complete"]]
    if importlib.util.find_spec("matplotlib") is None:
        print("rulemodels: warning: the Pareto figures were not written: they need matplotlib "
              "(pip install 'rulemodels[plot]')", file=sys.stderr)
    else:
        for dataset in sorted(set(summary["dataset"])):
            for algorithm in ("am", "bcd"):
                if algorithm in set(summary[summary["dataset"] == dataset]["algorithm"]):
                    plot_pareto(summary, dataset, "n_clauses", out / f"pareto_{dataset}_{algorithm}_by_R.png", algorithm=algorithm)
            largest_r = int(summary[summary["dataset"] == dataset]["n_clauses"].max())
            plot_pareto(summary, dataset, "algorithm", out / f"pareto_{dataset}_by_algorithm.png", n_clauses=largest_r)
    print("Minimal mean test error over θ, % (the paper's Table 1 in brackets):\n")
    print(table1_markdown(table))
    if len(nested):
        print("Test error with θ chosen by nested CV on the training folds, % (the paper's number in brackets):\n")
        print(table1_markdown(nested, value="nested_test_error"))
    print(f"\n{len(results)} tasks ({len(results) - len(ok)} failed) in {time.perf_counter() - start:.0f} s; wrote {out}/")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    from rulemodels import __version__

    parser = argparse.ArgumentParser(
        prog="rulemodels",
        description="Learn interpretable two-level Boolean rules (CNF/DNF) with Pyomo and LP/MIP solvers.",
    )
    parser.add_argument("--version", action="version", version=f"rulemodels {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logging")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress (INFO level)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    solvers_parser = commands.add_parser(
        "solvers",
        help="list the solver backends, whether they are available, their versions",
        description="List each registered solver backend: available (or why not), version, persistent.",
    )
    solvers_parser.add_argument(
        "extra", nargs="*", default=[], help="other Pyomo solver names to check (e.g. gurobi scip)"
    )
    solvers_parser.set_defaults(handler=_cmd_solvers)

    fit = commands.add_parser("fit", help="learn a rule and print it", description="Learn a two-level Boolean rule and print it.")
    _add_data_arguments(fit)
    fit.add_argument("--algorithm", choices=("am", "bcd", "tlp", "scs", "scn", "exact"), default="am", help="learning algorithm (default: am)")
    _add_rule_arguments(fit, solver="highs", forms=("dnf", "cnf", "auto"))
    fit.add_argument("--max-iter", type=_positive_int, default=100, help="iteration cap of BCD and AM (default: 100)")
    fit.add_argument("--allow-disable", action="store_true", help="let the learner switch clauses off")
    fit.add_argument("--out", help="save the rule (JSON) to this file, for 'rulemodels predict'")
    fit.set_defaults(handler=_cmd_fit)

    predict = commands.add_parser("predict", help="apply a saved rule to a CSV file", description="Apply a saved rule to a CSV file.")
    predict.add_argument("rule", metavar="RULE.json", help="a file written by 'rulemodels fit --out'")
    predict.add_argument("data", metavar="DATA.csv", help="CSV file with the rule's feature columns")
    _add_csv_arguments(predict)
    predict.add_argument("--out", help="write the predictions CSV here (default: stdout)")
    predict.add_argument(
        "--explain", action="store_true",
        help="add a 'reason' column: the clauses that decided each row and the literals that made them",
    )
    predict.set_defaults(handler=_cmd_predict)

    exact = commands.add_parser(
        "exact", help="solve the exact MIP (ground truth for small data)",
        description="Solve the exact two-level MIP; prints status, objective, bound and gap.",
    )
    _add_data_arguments(exact, estimator=False)
    _add_rule_arguments(exact, solver="cbc")
    exact.add_argument("--formulation", choices=("zero_one", "hamming"), default="zero_one", help="MIP formulation (default: zero_one)")
    exact.add_argument("--mip-gap", type=float, default=None, help="relative gap at which to stop")
    exact.add_argument("--sample", type=int, default=None, help="solve on a random subsample of this many rows")
    exact.add_argument("--seed", type=int, default=0, help="seed of --sample (default: 0)")
    exact.set_defaults(handler=_cmd_exact)

    cv = commands.add_parser("cv", help="cross-validate a grid of algorithms, R and θ", description="Cross-validate a grid on one dataset (resumable).")
    _add_data_arguments(cv, estimator=False)
    cv.add_argument("--algorithms", nargs="+", choices=("am", "bcd", "tlp", "scs", "scn"), default=["am", "bcd"])
    cv.add_argument("--clauses", type=_parse_clauses, default=[1, 2, 3], help="R values, e.g. 2, 1-5 or 1,3 (default: 1-3)")
    cv.add_argument("--thetas", nargs="+", default=["paper"], help="'paper' (the 18 θ of the paper) or numbers")
    cv.add_argument("--form", choices=("dnf", "cnf"), default="dnf")
    cv.add_argument("--thresholds", type=int, default=9)
    cv.add_argument("--max-iter", type=int, default=100)
    cv.add_argument("--solver", default="highs", help="solver backend (default: highs)")
    cv.add_argument("--results", default="cv_results.jsonl", help="results file (JSON lines; resumable)")
    cv.add_argument(
        "--inner-folds", type=int, default=0, metavar="J",
        help="also choose θ by nested CV with J inner folds per training fold (about J times more fits; default: 0, off)",
    )
    _add_run_arguments(cv)
    cv.set_defaults(handler=_cmd_cv)

    reproduce = commands.add_parser(
        "reproduce", help="run the paper's protocol (Table 1, Figures 1-3)",
        description="Stratified 10-fold CV, 18 θ, R = 1..5, DNF: writes Table 1 beside the paper's numbers and Pareto fronts.",
    )
    reproduce.add_argument("--datasets", nargs="+", default=["sonar", "liver", "pima", "parkinsons"])
    reproduce.add_argument("--algorithms", nargs="+", choices=("scs", "scn", "tlp", "bcd", "am"), default=["scs", "scn", "tlp", "bcd", "am"])
    reproduce.add_argument("--clauses", type=_parse_clauses, default=[1, 2, 3, 4, 5], help="R values (default: 1-5)")
    reproduce.add_argument("--thetas", nargs="+", default=["paper"])
    reproduce.add_argument("--thresholds", type=int, default=9)
    reproduce.add_argument("--max-iter", type=int, default=100)
    reproduce.add_argument("--time-limit", type=float, default=None, help="seconds per fit")
    reproduce.add_argument("--solver", default="highs")
    reproduce.add_argument("--out", default="docs/results", help="output directory (default: docs/results)")
    reproduce.add_argument(
        "--inner-folds", type=int, default=3, metavar="J",
        help="inner folds of the nested CV that chooses θ honestly (default: 3; 0 turns it off)",
    )
    reproduce.add_argument(
        "--inner-algorithms", nargs="+", choices=("scs", "scn", "tlp", "bcd", "am"), default=["scs", "scn", "bcd", "am"],
        help="algorithms that get the nested CV (default: all but tlp, whose inner fits would double the run's time)",
    )
    reproduce.add_argument(
        "--report-only", action="store_true",
        help="run nothing: write the tables and figures from the results already in OUT/results.jsonl (e.g. of an unfinished run)",
    )
    _add_run_arguments(reproduce)
    reproduce.set_defaults(handler=_cmd_reproduce)
    return parser


def _configure_logging(args: argparse.Namespace) -> None:
    level = logging.DEBUG if args.debug else logging.INFO if args.verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def _print_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None, line: str | None = None) -> None:
    """Warnings as one line on stderr (``rulemodels: warning: ...``), without the source location."""
    print(f"rulemodels: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rulemodels`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            return handler(args)
    except KeyboardInterrupt:
        print("rulemodels: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of our stdout went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return EXIT_OK
    except Exception as exc:  # the CLI's one place that turns errors into messages
        if args.debug:
            raise
        print(f"rulemodels: error: {exc}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
