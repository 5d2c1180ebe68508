"""The ``rulemodels`` command line.

Results go to stdout; errors go to stderr with a non-zero exit status and no
traceback unless ``--debug`` is given. Only this module configures logging
and prints. Heavy modules (Pyomo, scikit-learn, pandas) are imported inside
the commands that need them, so ``--help`` and ``predict`` start fast.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.util
import logging
import math
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

from solvers.signals import exit_status, find_interrupt, terminating_on_sigterm

__all__ = ["main", "build_parser"]

#: The estimator's default θ (rulemodels.estimator.DEFAULT_THETA), repeated so the
#: CLI parser is built without importing the estimator (a test checks they agree).
DEFAULT_THETA = 0.005

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT); SIGTERM exits 143 (solvers.signals.exit_status)

#: The solvers with a dedicated adapter (solvers.registered_backends()), named in
#: --help without importing the solver layer (and Pyomo); a test checks they agree.
BUILTIN_SOLVERS = ("highs", "cbc", "glpk")


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


class _PyomoWarnings(logging.Handler):
    """Pyomo's warnings as one translated line each (``rulemodels: warning: ...``), each said once.

    Pyomo's ERROR records ("Rule failed for Param ...", "Constructing component
    ... failed") come right before the exception that caused them propagates
    (a Ctrl-C while a model is built, for one): that exception is reported,
    so they are left out (``--solver-log`` shows them).
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.said: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            return
        text = record.getMessage()
        if "aborted" in text or "maxTimeLimit" in text or "time limit" in text.lower():
            message = "the solver stopped at its time limit; the best solution it found is used (see status, bound and gap)"
        else:
            first = next((line.strip() for line in text.splitlines() if line.strip()), "")
            message = f"the modelling layer (Pyomo) reports: {first}"
        if message not in self.said:
            self.said.add(message)
            print(f"rulemodels: warning: {message}", file=sys.stderr)


def _translate_pyomo_warnings(args: argparse.Namespace, cleanups: list[Callable[[], None]]) -> None:
    """Unless --solver-log or --debug: Pyomo's own log handler (raw text on stdout) is replaced, for the
    command, by :class:`_PyomoWarnings`. Call after Pyomo is imported (it installs its handler then)."""
    if args.solver_log or args.debug:
        return
    pyomo_logger = logging.getLogger("pyomo")
    handlers, propagate = list(pyomo_logger.handlers), pyomo_logger.propagate
    for handler in handlers:
        pyomo_logger.removeHandler(handler)
    pyomo_logger.addHandler(_PyomoWarnings())
    pyomo_logger.propagate = False

    def restore() -> None:
        for handler in list(pyomo_logger.handlers):
            pyomo_logger.removeHandler(handler)
        for handler in handlers:
            pyomo_logger.addHandler(handler)
        pyomo_logger.propagate = propagate

    cleanups.append(restore)


def _add_csv_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-header", action="store_true", help="the CSV file has no header row: columns are named x0, x1, ...")
    parser.add_argument("--sep", default=",", help="the CSV field separator (default: ,)")
    parser.add_argument(
        "--na-values", default="?", metavar="LIST",
        help="comma-separated cell texts read as missing, besides empty, NA, NaN, null, n/a, None (default: ?)",
    )
    parser.add_argument(
        "--no-default-na", action="store_true",
        help="only empty cells and the --na-values texts are missing: NA, NaN, null, n/a, None ... stay values",
    )
    parser.add_argument("--encoding", default="utf-8", help="the CSV file's text encoding (default: utf-8; e.g. latin-1, cp1252)")


def _csv_options(args: argparse.Namespace) -> Any:
    from rulemodels.io import CSVOptions

    na_values = tuple(v for v in args.na_values.split(",") if v != "")
    try:
        return CSVOptions(
            header=not args.no_header, sep=args.sep, na_values=na_values, default_na=not args.no_default_na,
            encoding=args.encoding,
        )
    except ValueError as exc:  # an empty --sep, an unknown --encoding
        raise UsageError(str(exc)) from None


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
            "--categorical", default="", metavar="LIST",
            help="comma-separated columns whose values are codes, not quantities (ICD, ZIP): read as text, "
                 "every value a category (default: text columns are categories, number columns get thresholds)",
        )
        parser.add_argument(
            "--keep-id-columns", action="store_true",
            help="keep text columns with one distinct value per row (IDs, dates as text) as categories; "
                 "by default they are left out with a warning",
        )


def _add_rule_arguments(parser: argparse.ArgumentParser, *, solver: str, forms: tuple[str, ...] = ("dnf", "cnf")) -> None:
    parser.add_argument("--clauses", type=_positive_int, default=2, help="R, the number of clauses (default: 2)")
    parser.add_argument(
        "--theta", type=_nonnegative_float, default=DEFAULT_THETA,
        help=f"sparsity weight θ: the share of the training rows a literal must fix to be kept (default: {DEFAULT_THETA:g})",
    )
    auto = " ('auto': the one with the lower 5-fold inner-CV error)" if "auto" in forms else ""
    parser.add_argument("--form", choices=forms, default="dnf", help=f"rule form{auto} (default: dnf)")
    parser.add_argument(
        "--solver", default=solver,
        help=f"solver backend: {', '.join(BUILTIN_SOLVERS)}, or any Pyomo solver name (default: {solver})",
    )
    parser.add_argument("--thresholds", type=_positive_int, default=9, help="quantile thresholds per numeric column (default: 9)")
    parser.add_argument("--time-limit", type=_positive_float, default=None, help="seconds for the whole fit or solve")


def _fit_estimator(args: argparse.Namespace, algorithm: str):
    from rulemodels import BooleanRuleClassifier
    from rulemodels.io import load_data

    _translate_pyomo_warnings(args, args.cleanups)
    categorical = [name for name in args.categorical.split(",") if name]
    data = load_data(args.data, args.target, args.positive, _csv_options(args), categorical=categorical)
    clf = BooleanRuleClassifier(
        form=args.form, n_clauses=args.clauses, theta=args.theta, algorithm=algorithm, n_thresholds=args.thresholds,
        allow_disable=args.allow_disable, max_iter=args.max_iter,
        solver=args.solver, time_limit=args.time_limit, verbose=args.verbose,
        solver_options={"output_flag": True} if args.solver_log and args.solver == "highs" else None,
        nan=args.nan, high_cardinality="keep" if args.keep_id_columns else "drop",
    )
    start = time.perf_counter()
    clf.fit(data.X, data.y)
    return data, clf, time.perf_counter() - start


def _print_rule_summary(data, clf, seconds: float) -> None:
    import numpy as np

    complexity = clf.rule_.complexity()
    error = float(np.mean(clf.predict(data.X) != data.y))
    dropped = list(getattr(getattr(clf, "binarizer_", None), "dropped_columns_", []))
    features = f"{data.X.shape[1] - len(dropped)} features"
    if dropped:  # ID-like columns left out: they are not features of the rule
        features += f" (ID-like column{'s' if len(dropped) > 1 else ''} {', '.join(map(repr, dropped))} left out)"
    print(f"data: {data.source} ({data.X.shape[0]} samples, {features}, {int(data.y.sum())} positive)")
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
    """Learn a rule and save it (--out), then print it with its training error, complexity and solve statistics."""
    from rulemodels.io import save_model

    out = _checked_output(args.out, _data_inputs(args))
    data, clf, seconds = _fit_estimator(args, args.algorithm)
    if out is not None:  # saved before anything is printed: a closed stdout cannot lose the rule
        save_model(
            out, clf.rule_, data.classes, data.target, list(data.X.columns),
            pattern_rates=clf.pattern_rates_, algorithm=args.algorithm, theta=args.theta, n_clauses=args.clauses,
            solver=args.solver, column_kinds=clf.binarizer_.column_kinds_,
        )
    _print_rule_summary(data, clf, seconds)
    if out is not None:
        print(f"saved to {args.out}")
    return EXIT_OK


def _cmd_predict(args: argparse.Namespace) -> int:
    """Apply a saved rule to a CSV file: a prediction per row (with --proba its probability, with
    --explain its reason); when the file has the label column, scores on stderr."""
    import pandas as pd

    from rulemodels.io import load_model, read_features, resolve_target
    from rulemodels.kinds import ColumnKindDriftWarning

    out = _checked_output(args.out, [("RULE.json", args.rule), ("DATA.csv", args.data)])
    args.result_on_stdout = out is None
    model = load_model(args.rule)
    # text-category columns are read as text (leading zeros kept), and each column the rule uses as its kind,
    # warning once per drifted column; the calls below would say it again (the filter ends with main's scope)
    frame = model.conform(read_features(args.data, _csv_options(args), dtypes=model.csv_dtypes()))
    warnings.filterwarnings("ignore", category=ColumnKindDriftWarning)
    if args.explain:
        predictions = model.explain(frame)[["prediction", "reason"]].reset_index(drop=True)
    else:
        predictions = pd.DataFrame({"prediction": model.predict(frame)})
    if args.proba:
        predictions.insert(1, "probability", model.predict_proba(frame))
    target = None
    if args.target is not None:
        target = resolve_target(args.target, [str(c) for c in frame.columns])
    elif model.target in frame.columns and model.target not in model.rule.features:
        target = model.target
    _write_table(predictions, out, f"{len(predictions)} predictions")
    if target is not None:
        _print_scores(frame[target], model.rule.evaluate(frame), model.classes, target)
    return EXIT_OK


def _write_table(table: Any, out: Path | None, what: str) -> None:
    """A DataFrame as CSV to ``out`` (written atomically: complete or absent), or to stdout."""
    from rulemodels.outputs import atomic_write

    if out is not None:
        with atomic_write(out, newline="") as handle:
            table.to_csv(handle, index=False)
        print(f"wrote {what} to {out}", file=sys.stderr)
    else:
        table.to_csv(sys.stdout, index=False)


def _data_inputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The DATA argument as an input that no output may overwrite (a bundled dataset's name is no file)."""
    from rulemodels.io import is_bundled_dataset

    return [] if is_bundled_dataset(args.data) else [("DATA", args.data)]


def _checked_output(value: str | None, inputs: list[tuple[str, str]], what: str = "--out") -> Path | None:
    """The output path, checked before any work starts (exit 2 when it cannot be written safely); None if not given."""
    from rulemodels.outputs import OutputError, check_output

    if value is None:
        return None
    try:
        return check_output(value, inputs=inputs, what=what)
    except OutputError as exc:
        raise UsageError(str(exc)) from None


def _print_scores(labels: Any, fired: Any, classes: tuple[Any, Any], target: str) -> None:
    """Accuracy, confusion matrix and majority baseline on stderr, for the rows whose label is one of the classes."""
    import numpy as np

    def matches(label: Any) -> Any:
        return np.asarray((labels == label) | (labels.astype(str) == str(label)), dtype=bool)

    positive, negative = matches(classes[1]), matches(classes[0])
    known = (positive | negative) & np.asarray(labels.notna(), dtype=bool)
    left_out = int(len(labels) - known.sum())
    note = f"; {left_out} rows with a missing or other label left out" if left_out else ""
    if not known.any():
        print(f"scores: no row of column '{target}' holds {classes[0]} or {classes[1]}{note}", file=sys.stderr)
        return
    truth, predicted = positive[known], np.asarray(fired, dtype=bool)[known]
    counts = {(t, p): int(np.sum((truth == t) & (predicted == p))) for t in (False, True) for p in (False, True)}
    accuracy = (counts[False, False] + counts[True, True]) / len(truth)
    majority = bool(truth.mean() > 0.5)
    names = [str(c) for c in classes]
    width = max(len(f"actual {n}") for n in names)
    cell = max(len(f"predicted {n}") for n in names)
    lines = [
        f"scores on {len(truth)} rows labelled in column '{target}'{note}:",
        f"accuracy: {accuracy:.4f}  (error {1 - accuracy:.4f})",
        " " * width + "  " + "  ".join(f"predicted {n}".rjust(cell) for n in names),
    ]
    for t in (False, True):
        row = "  ".join(str(counts[t, p]).rjust(cell) for p in (False, True))
        lines.append(f"actual {names[int(t)]}".ljust(width) + "  " + row)
    lines.append(
        f"baseline: {float(np.mean(truth != majority)):.4f} error of always predicting {names[int(majority)]} "
        "(the majority class of these rows)"
    )
    print("\n".join(lines), file=sys.stderr)


def _cmd_export(args: argparse.Namespace) -> int:
    """Write a saved rule as SQL, a pandas query or a dependency-free Python module."""
    from rulemodels.io import load_model
    from rulemodels.outputs import write_text_atomically

    out = _checked_output(args.out, [("RULE.json", args.rule)])
    args.result_on_stdout = out is None
    model = load_model(args.rule)
    text = {"sql": model.rule.to_sql, "query": model.rule.to_query, "python": model.rule.to_python}[args.format]()
    text = text if text.endswith("\n") else text + "\n"
    if out is not None:
        write_text_atomically(out, text)
        print(f"wrote the rule as {args.format} to {args.out} (true means {model.target} = {model.classes[1]})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _cmd_exact(args: argparse.Namespace) -> int:
    """Solve the exact MIP and print status, the rule with its training error, objective, bound and gap."""
    import numpy as np

    from rulemodels.algorithms.exact import solve_exact
    from rulemodels.io import load_data

    _translate_pyomo_warnings(args, args.cleanups)
    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    X, y = data.X, data.y
    if args.sample is not None and args.sample < len(X):
        rows = np.sort(np.random.default_rng(args.seed).choice(len(X), size=args.sample, replace=False))
        X, y = X.iloc[rows], y[rows]
    result = solve_exact(  # solve_exact takes the paper's θ: --theta is a share of the rows, as in fit
        X, y, n_clauses=args.clauses, theta=args.theta * len(X), formulation=args.formulation, form=args.form,
        solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap, n_thresholds=args.thresholds,
    )
    error = float(np.mean(result.rule.evaluate(X) != y.astype(bool)))
    gap = "-" if result.gap is None else f"{100 * result.gap:.3f} %"
    bound = "-" if result.exact_bound is None else f"{result.exact_bound:.6g}"
    print(
        f"data: {data.source} ({len(X)} samples), {args.formulation} MIP, R={args.clauses}, theta={args.theta:g} "
        f"(the paper's θ: {args.theta * len(X):g})"
    )
    if result.termination == "time_limit":
        limit = f" ({args.time_limit:g} s)" if args.time_limit is not None else ""
        print(
            f"status: stopped at time limit{limit} with an incumbent: the rule below is the best found, "
            "not proven optimal (see bound and gap)"
        )
    else:
        print(f"status: {result.termination}")
    print(f"rule ({data.target} = {data.classes[1]} when true):")
    print(f"  {result.rule}")
    print(f"training error: {error:.4f}  (accuracy {1 - error:.4f}); {result.rule.n_literals} literals")
    print(
        f"objective: {result.objective:.6g}  (misclassification {result.breakdown['accuracy']:.6g}, "
        f"sparsity {result.breakdown['sparsity']:.6g})"
    )
    print(f"bound: {bound}  gap: {gap}")
    print(f"solver: {result.solve.solver_name} {result.solve.solver_version}, {result.solve.wall_time:.2f} s")
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


#: Bounds of the sweep commands' grid arguments: beyond them a run is a typo, not a plan.
MAX_CLAUSES = 50
MAX_INNER_FOLDS = 100


class UsageError(CommandError):
    """A bad argument found after parsing (e.g. more folds than rows of a class): exit status 2."""


def _parse_clauses(text: str) -> list[int]:
    """``"1-5"`` -> [1, 2, 3, 4, 5]; ``"2"`` -> [2]; ``"1,3"`` -> [1, 3]; each R in 1..MAX_CLAUSES."""
    usage = f"must be numbers of clauses from 1 to {MAX_CLAUSES} like 2, 1-5 or 1,3; got {text!r}"
    values: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            first, last = int(low), int(high) if high else int(low)
            if not 1 <= first <= last <= MAX_CLAUSES:
                raise argparse.ArgumentTypeError(usage)
            values.extend(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(usage) from None
    return sorted(set(values))


def _parse_thetas(values: list[str]) -> list[float]:
    """'paper' (the paper's 18 θ) or numbers, each finite and >= 0 (a bad one is a usage error, exit 2)."""
    from rulemodels.experiments.paper import PAPER_THETAS

    if values == ["paper"]:
        return list(PAPER_THETAS)
    try:
        thetas = [float(v) for value in values for v in value.split(",")]
    except ValueError:
        raise UsageError(f"--thetas takes 'paper' or numbers, got {' '.join(values)}") from None
    bad = [t for t in thetas if not (math.isfinite(t) and t >= 0)]
    if bad:
        raise UsageError(f"--thetas must be finite numbers >= 0, got {', '.join(map(str, bad))}")
    return sorted(set(thetas))


def _inner_folds(text: str) -> int:
    """An argparse ``type``: 0 (no nested CV) or an integer from 2 to MAX_INNER_FOLDS."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value != 0 and not 2 <= value <= MAX_INNER_FOLDS:
        raise argparse.ArgumentTypeError(f"must be 0 (no nested CV) or at least 2, got {text!r}")
    return value


def _job_count(text: str) -> int:
    """An argparse ``type``: worker processes from 1 to MAX_JOBS (a run never starts more than it has training sets)."""
    from rulemodels.experiments.execute import MAX_JOBS

    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be an integer from 1 to {MAX_JOBS}, got {text!r}")
    return value


def _check_folds(y: Any, folds: int, inner_folds: int, source: str) -> None:
    """Stratified K folds need K rows of each class; J inner folds need J in each training fold."""
    import numpy as np

    smallest = int(min(np.sum(y == 1), np.sum(y == 0)))
    if folds > smallest:
        raise UsageError(
            f"--folds {folds} is more than the {smallest} rows of the smaller class of {source}: stratified "
            f"cross-validation puts rows of both classes in every fold; use --folds {max(2, min(10, smallest))} or fewer"
        )
    in_training = smallest - -(-smallest // folds)  # the smaller class's rows in the smallest training fold
    if inner_folds > in_training:
        raise UsageError(
            f"--inner-folds {inner_folds} is more than the {in_training} rows of the smaller class in a training fold "
            f"of {source}: use fewer inner folds"
        )


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--folds", type=_at_least(2, int, "an integer >= 2"), default=10,
                        help="stratified CV folds (default: 10)")
    parser.add_argument("--jobs", type=_job_count, default=2,
                        help="parallel workers, capped at the number of training sets (default: 2)")
    parser.add_argument("--backend", choices=("joblib", "dask", "sequential"), default="joblib", help="where tasks run (default: joblib)")
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask), e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    parser.add_argument(
        "--keep-going", action="store_true",
        help="exit 0 even when tasks failed twice, with tables of the finished cells (default: exit 1 and list them)",
    )


def _run_grid(tasks: list, results_path: Path, args: argparse.Namespace):
    from rulemodels.experiments import run_experiments

    print(f"{len(tasks)} tasks; results in {results_path} (re-run the same command to resume)", file=sys.stderr)
    return run_experiments(
        tasks, results_path, backend=args.backend, n_jobs=args.jobs, scheduler=args.scheduler,
        progress=not args.no_progress and sys.stderr.isatty(),
    )


def _finish_sweep(tasks: list, results: Any, path: Path, keep_going: bool) -> int:
    """List the tasks without a successful record on stderr; exit 1 for them unless ``keep_going``."""
    finished = set(results.loc[results["error"].isna(), "key"]) if len(results) else set()
    missing = [task for task in tasks if task.key not in finished]
    if not missing:
        return EXIT_OK
    errors = dict(zip(results["key"], results["error"])) if len(results) else {}
    print(f"{len(missing)} of {len(tasks)} tasks have no result (each was tried twice in this run):", file=sys.stderr)
    for task in missing[:10]:
        print(f"  {task.key}: {errors.get(task.key) or 'not run'}", file=sys.stderr)
    if len(missing) > 10:
        print(f"  ... and {len(missing) - 10} more (see the 'error' field in {path})", file=sys.stderr)
    if keep_going:
        print("--keep-going: the tables above are of the finished cells only", file=sys.stderr)
        return EXIT_OK
    print("rerun the same command to retry them (finished tasks are kept), or add --keep-going to accept "
          "partial results", file=sys.stderr)
    return EXIT_ERROR


def _print_cv_table(results: Any, form: str, nested: bool) -> None:
    """Per algorithm and R: the optimistic minimum over θ and, with nested CV, the honest error."""
    import pandas as pd

    from rulemodels.experiments import nested_cv_selection, table1

    table = table1(results, require_complete=False)
    honest = nested_cv_selection(results)
    merged = table.merge(honest[["dataset", "algorithm", "n_clauses", "nested_test_error"]],
                         on=["dataset", "algorithm", "n_clauses"], how="left")
    print(f"{form.upper()}: mean test error over the outer folds")
    print("| algorithm | R | optimistic: min over θ (θ chosen on the test folds) | at θ | mean literals "
          "| honest: θ chosen by nested CV |")
    print("|---|---|---|---|---|---|")
    for row in merged.itertuples():
        value = "–" if pd.isna(row.nested_test_error) else f"{100 * row.nested_test_error:.1f} %"
        print(f"| {row.algorithm} | {row.n_clauses} | {100 * row.test_error:.1f} % | {row.theta:g} | "
              f"{row.n_literals:.1f} | {value} |")
    if not nested:
        print("(optimistic: the minimum over θ picks θ on the test folds, as the paper's Table 1; add --inner-folds 3 "
              "for the honest number, θ chosen by nested CV on each training fold)")


def _print_selection(results: Any, forms: list[str]) -> None:
    """The honest error of choosing θ, R (and the form) by nested CV, per algorithm."""
    from rulemodels.experiments import nested_model_selection

    selection = nested_model_selection(results)
    if selection.empty:
        return
    what = "θ, R and form" if len(forms) > 1 else "θ and R"
    print(f"\nhonest: {what} chosen together by nested CV on each training fold (the test folds are never seen)")
    print(f"| algorithm | test error | inner-CV error | {what} chosen per fold |")
    print("|---|---|---|---|")
    for row in selection.itertuples():
        chosen = ", ".join(f"{form} R={r} θ={theta:g}" if len(forms) > 1 else f"R={r} θ={theta:g}"
                           for form, r, theta in row.selected)
        print(f"| {row.algorithm} | {100 * row.nested_test_error:.1f} % | {100 * row.inner_cv_error:.1f} % | {chosen} |")


def _cmd_cv(args: argparse.Namespace) -> int:
    """Cross-validate a grid of algorithms x R x theta (x form) on one dataset."""
    from rulemodels.experiments import make_grid
    from rulemodels.io import is_bundled_dataset, load_data

    thetas = _parse_thetas(args.thetas)
    if args.form == "auto" and not args.inner_folds:
        raise UsageError("--form auto chooses the form by nested CV: add --inner-folds J (e.g. --inner-folds 3)")
    path = _checked_output(args.results, _data_inputs(args), what="--results")
    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    _check_folds(data.y, args.folds, args.inner_folds, args.data)
    dataset = args.data if is_bundled_dataset(args.data) else _cv_csv(args)
    forms = ["dnf", "cnf"] if args.form == "auto" else [args.form]
    tasks = [
        task for form in forms for task in make_grid(
            [dataset], args.algorithms, args.clauses, thetas, n_folds=args.folds, inner_folds=args.inner_folds,
            form=form, n_thresholds=args.thresholds, solver=args.solver, max_iter=args.max_iter,
        )
    ]
    results = _run_grid(tasks, path, args)
    for form in forms:
        rows = results[results["form"] == form]
        if len(rows):
            _print_cv_table(rows, form, bool(args.inner_folds))
    if args.inner_folds:
        _print_selection(results, forms)
    baseline = _cv_baseline(data, args.folds)
    print(f"baseline: {100 * baseline:.1f} % mean test error of always predicting the majority class of each training fold")
    return _finish_sweep(tasks, results, path, args.keep_going)


def _cv_csv(args: argparse.Namespace) -> Any:
    """The CSV of ``cv`` as the experiment runner reads it (header row, ',' separator, the target by name).

    When --no-header, --sep, --na-values or a target index ask for another
    reading, the data is read here and written once, as the runner reads it,
    to RESULTS.data.csv beside the results file (a new file: the user's CSV is
    never written).
    """
    from rulemodels.experiments import CSVData
    from rulemodels.io import CSVOptions, load_data, read_features
    from rulemodels.outputs import atomic_write

    options = _csv_options(args)
    target = args.target
    columns = [str(c) for c in read_features(args.data, options).columns] if target is not None else []
    if options == CSVOptions() and (target is None or target in columns):
        return CSVData(args.data, target, args.positive)
    data = load_data(args.data, target, args.positive, options)
    frame = read_features(args.data, options)
    copy = _checked_output(f"{args.results}.data.csv", _data_inputs(args), what="the runner's copy of the data")
    if not copy.exists():
        with atomic_write(copy, newline="") as handle:
            frame.to_csv(handle, index=False)
        print(f"read {args.data} as {copy} (header row, ',' separator) for the runner", file=sys.stderr)
    return CSVData(str(copy), data.target, args.positive, name=Path(args.data).stem)


def _cv_baseline(data: Any, n_folds: int) -> float:
    """Mean test-fold error of the majority class of each training fold (the folds of the runner)."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    from rulemodels.baseline import majority_baseline

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

    from rulemodels.outputs import atomic_write

    print(f"unpacking {packed} to {plain} (finished tasks are not run again)", file=sys.stderr)
    with gzip.open(packed, "rb") as source, atomic_write(plain, "wb") as target:
        shutil.copyfileobj(source, target)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    """Run the paper's protocol and write Table 1, nested selection and Pareto fronts to --out."""
    from rulemodels.datasets import load_dataset
    from rulemodels.experiments import (
        make_grid, nested_cv_selection, plot_pareto, read_results, summarize, table1, table1_markdown,
    )
    from rulemodels.io import is_bundled_dataset
    from rulemodels.outputs import OutputError, atomic_write, check_output_directory, write_text_atomically

    try:
        out = check_output_directory(args.out)
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    _unpack_results(out)
    if args.report_only:
        if not (out / "results.jsonl").is_file():
            raise FileNotFoundError(f"--report-only needs the results of an earlier run: {out / 'results.jsonl'} does not exist")
        results = read_results(out / "results.jsonl")
    else:
        thetas = _parse_thetas(args.thetas)
        for name in args.datasets:
            if is_bundled_dataset(name):
                _check_folds(load_dataset(name)[1].to_numpy(), args.folds, args.inner_folds, name)
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
    nested = nested_cv_selection(ok)
    summary = summarize(ok)
    for name, frame in (("table1.csv", table), ("nested_selection.csv", nested), ("summary.csv", summary)):
        with atomic_write(out / name, newline="") as handle:
            frame.to_csv(handle, index=False)
    write_text_atomically(out / "table1.md", table1_markdown(table) + "\n")
    write_text_atomically(out / "nested_selection.md", table1_markdown(nested, value="nested_test_error") + "\n")
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
    print("Optimistic: minimal mean test error over θ (θ chosen on the test folds, as the paper's Table 1), %; "
          "the paper's number in brackets:\n")
    print(table1_markdown(table))
    if len(nested):
        print("Honest: test error with θ chosen by nested CV on the training folds, % (the paper's number in brackets):\n")
        print(table1_markdown(nested, value="nested_test_error"))
    print(f"\n{len(results)} tasks ({len(results) - len(ok)} failed) in {time.perf_counter() - start:.0f} s; wrote {out}/")
    if args.report_only:
        return EXIT_OK
    return _finish_sweep(tasks, results, out / "results.jsonl", args.keep_going)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    from rulemodels import __version__

    parser = argparse.ArgumentParser(
        prog="rulemodels",
        description="Learn interpretable two-level Boolean rules (CNF/DNF) with Pyomo and LP/MIP solvers.",
    )
    parser.add_argument("--version", action="version", version=f"rulemodels {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logging")
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="log what rulemodels does: one line per iteration (objective, training error, literals)",
    )
    parser.add_argument(
        "--solver-log", action="store_true",
        help="also show the solver's own log (HiGHS's, or a shell solver's captured output) and Pyomo's",
    )
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
    predict.add_argument(
        "--proba", action="store_true",
        help="add a 'probability' column: the probability of the rule's class (the training positive rate of "
             "the row's pattern of clause values, saved by 'fit --out')",
    )
    predict.add_argument(
        "--target",
        help="the label column (name or 0-based index), to print accuracy, confusion matrix and baseline on stderr "
             "(default: the rule file's target column, when the data has it)",
    )
    predict.set_defaults(handler=_cmd_predict)

    export = commands.add_parser(
        "export", help="write a saved rule as SQL, a pandas query or a Python module",
        description="Write a saved rule as code that runs without rulemodels, with the same predictions "
                    "(missing values and unseen categories included).",
    )
    export.add_argument("rule", metavar="RULE.json", help="a file written by 'rulemodels fit --out'")
    export.add_argument(
        "--format", choices=("sql", "query", "python"), default="sql",
        help="sql: a NULL-aware boolean SQL expression (SQLite, DuckDB, PostgreSQL); query: a pandas "
             "DataFrame.query/eval expression; python: a dependency-free module with predict_row(row) (default: sql)",
    )
    export.add_argument("--out", help="write the code to this file (default: stdout)")
    export.set_defaults(handler=_cmd_export)

    exact = commands.add_parser(
        "exact", help="solve the exact MIP (ground truth for small data)",
        description="Solve the exact two-level MIP; prints status, objective, bound and gap.",
    )
    _add_data_arguments(exact, estimator=False)
    _add_rule_arguments(exact, solver="cbc")
    exact.add_argument("--formulation", choices=("zero_one", "hamming"), default="zero_one", help="MIP formulation (default: zero_one)")
    exact.add_argument("--mip-gap", type=_nonnegative_float, default=None, help="relative gap at which to stop (a number >= 0)")
    exact.add_argument("--sample", type=_positive_int, default=None, help="solve on a random subsample of this many rows")
    exact.add_argument("--seed", type=int, default=0, help="seed of --sample (default: 0)")
    exact.set_defaults(handler=_cmd_exact)

    cv = commands.add_parser("cv", help="cross-validate a grid of algorithms, R and θ", description="Cross-validate a grid on one dataset (resumable).")
    _add_data_arguments(cv, estimator=False)
    cv.add_argument("--algorithms", nargs="+", choices=("am", "bcd", "tlp", "scs", "scn"), default=["am", "bcd"])
    cv.add_argument("--clauses", type=_parse_clauses, default=[1, 2, 3], help="R values, e.g. 2, 1-5 or 1,3 (default: 1-3)")
    cv.add_argument("--thetas", nargs="+", default=["paper"], help="'paper' (the 18 θ of the paper) or numbers")
    cv.add_argument(
        "--form", choices=("dnf", "cnf", "auto"), default="dnf",
        help="rule form; 'auto' runs both and, with --inner-folds, chooses it by nested CV (default: dnf)",
    )
    cv.add_argument("--thresholds", type=_positive_int, default=9, help="quantile thresholds per numeric column (default: 9)")
    cv.add_argument("--max-iter", type=_positive_int, default=100, help="iteration cap of BCD and AM (default: 100)")
    cv.add_argument("--solver", default="highs", help="solver backend (default: highs)")
    cv.add_argument("--results", default="cv_results.jsonl", help="results file (JSON lines; resumable)")
    cv.add_argument(
        "--inner-folds", type=_inner_folds, default=0, metavar="J",
        help="also choose θ, R (and the form) by nested CV with J inner folds per training fold: the honest "
             "test error (about J times more fits; default: 0, off)",
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
    reproduce.add_argument("--thresholds", type=_positive_int, default=9, help="quantile thresholds per numeric column (default: 9)")
    reproduce.add_argument("--max-iter", type=_positive_int, default=100, help="iteration cap of BCD and AM (default: 100)")
    reproduce.add_argument("--time-limit", type=_positive_float, default=None, help="seconds per fit")
    reproduce.add_argument("--solver", default="highs")
    reproduce.add_argument("--out", default="docs/results", help="output directory (default: docs/results)")
    reproduce.add_argument(
        "--inner-folds", type=_inner_folds, default=3, metavar="J",
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


def _configure_logging(args: argparse.Namespace) -> Callable[[], None]:
    """WARNING and up from everyone; with -v, INFO from rulemodels only (its iteration log, not the solver's);
    with --solver-log, INFO from the solver layer and Pyomo too; --debug: everything.

    Returns a function that puts the loggers' levels back (``main`` may run in-process, e.g. in tests).
    """
    level = logging.DEBUG if args.debug else logging.WARNING
    logging.basicConfig(level=level, format="%(message)s" if args.verbose and not args.debug else
                        "%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    levels = {}
    if args.verbose and not args.debug:
        levels["rulemodels"] = logging.INFO
    if args.solver_log and not args.debug:  # the solver layer logs a shell solver's captured output at DEBUG
        levels.update({"solvers": logging.DEBUG, "pyomo": logging.INFO})
    previous = {name: logging.getLogger(name).level for name in levels}
    for name, value in levels.items():
        logging.getLogger(name).setLevel(value)

    def restore() -> None:
        for name, value in previous.items():
            logging.getLogger(name).setLevel(value)

    return restore


def _print_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None, line: str | None = None) -> None:
    """Warnings as one line on stderr (``rulemodels: warning: ...``), without the source location."""
    print(f"rulemodels: warning: {message}", file=sys.stderr)


class _GuardedStream:
    """stdout or stderr that a closed or broken file cannot turn into a crash, or a failure into success.

    The first failed write (the reader of a pipe went away: ``BrokenPipeError``;
    the file was closed: ``EBADF``, or ``None`` when Python started without it)
    is remembered in ``error`` and later writes are dropped, so that the
    command still finishes its work, writes its files and returns its own
    status; :func:`main` then decides what the lost output means.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.error: BaseException | None = None if stream is not None else OSError(errno.EBADF, "the stream is closed")
        self.wrote_anything = False

    def _attempt(self, action: Callable[[], Any]) -> None:
        if self.error is not None:
            return
        try:
            action()
        except (OSError, ValueError) as exc:  # BrokenPipeError, EBADF; ValueError: "I/O operation on closed file"
            self.error = exc

    def write(self, text: str) -> int:
        if text:
            self.wrote_anything = True
            self._attempt(lambda: self.stream.write(text))
        return len(text)

    def flush(self) -> None:
        self._attempt(lambda: self.stream.flush())

    def isatty(self) -> bool:
        return self.error is None and bool(getattr(self.stream, "isatty", lambda: False)())

    def fileno(self) -> int:
        if self.stream is None:
            raise OSError(errno.EBADF, "the stream is closed")
        return int(self.stream.fileno())

    @property
    def encoding(self) -> str:
        return str(getattr(self.stream, "encoding", None) or "utf-8")

    def writable(self) -> bool:
        return True

    def __iter__(self) -> Any:  # pandas' to_csv asks for a file-like object
        return iter(())

    def describe(self) -> str:
        if isinstance(self.error, BrokenPipeError):
            return "its reader closed the pipe"
        return "it is closed"


def _silence_broken_stdout(stream: Any) -> None:
    """Point file descriptor 1 at /dev/null after a broken pipe, so that Python's flush at exit cannot fail (exit 120)."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # pragma: no cover - /dev/null missing
        return
    try:
        os.dup2(devnull, descriptor)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(devnull)


def _ignore_further_interrupts() -> Callable[[], None]:
    """After an interrupt, a second Ctrl-C or SIGTERM must not cut the final message short; restores the handlers."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)

    return restore


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rulemodels`` console script; returns the exit status.

    0: done. 1: an error (one line on stderr), also when the command's result
    was to go to stdout and stdout is closed or its reader went away. 2: bad
    usage, including an output that cannot be written safely (checked before
    any work). 130: interrupted by Ctrl-C; 143: stopped by SIGTERM. Work in
    progress is cleaned up on every path: solver processes ended, temporary
    files removed, output files complete or absent.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    args.result_on_stdout = False
    stdout, stderr = _GuardedStream(sys.stdout), _GuardedStream(sys.stderr)
    saved_streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr  # type: ignore[assignment]
    args.cleanups = [_configure_logging(args)]
    handler: Callable[[argparse.Namespace], int] = args.handler
    status = EXIT_OK
    try:
        with terminating_on_sigterm(), warnings.catch_warnings():
            warnings.showwarning = _print_warning
            status = handler(args)
            stdout.flush()
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (solvers.signals.Terminated)
        status = _report_interrupt(exc, args)
    except Exception as exc:  # the CLI's one place that turns errors into messages
        interrupt = find_interrupt(exc)  # a Ctrl-C wrapped in another exception on its way up
        if interrupt is not None:
            status = _report_interrupt(interrupt, args)
        elif args.debug:
            raise
        else:
            print(f"rulemodels: error: {exc}", file=sys.stderr)
            status = EXIT_USAGE if isinstance(exc, UsageError) else EXIT_ERROR
    finally:
        for cleanup in reversed(args.cleanups):
            cleanup()
        sys.stdout, sys.stderr = saved_streams
    if stdout.error is not None:
        if args.result_on_stdout and status == EXIT_OK:
            status = EXIT_ERROR
            message = (f"rulemodels: error: the output could not be written to stdout ({stdout.describe()}): "
                       "write it to a file with --out FILE")
            with contextlib.suppress(OSError, ValueError, AttributeError):
                print(message, file=sys.stderr)
        if isinstance(stdout.error, BrokenPipeError):
            _silence_broken_stdout(sys.stdout)
    return status


def _report_interrupt(interrupt: BaseException, args: argparse.Namespace) -> int:
    """Say how the command was stopped; its exit status (130 for Ctrl-C, 143 for SIGTERM)."""
    args.cleanups.append(_ignore_further_interrupts())
    status = exit_status(interrupt)
    print("rulemodels: interrupted" if status == EXIT_INTERRUPTED else "rulemodels: terminated (SIGTERM)", file=sys.stderr)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
