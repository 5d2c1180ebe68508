"""The single-fit commands: ``solvers``, ``fit``, ``predict``, ``export`` and ``exact``.

Heavy modules (Pyomo, scikit-learn, pandas) are imported inside the commands
that need them, so ``--help`` and ``predict`` start fast.
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rulemodels.cli._args import (
    EXIT_OK,
    UsageError,
    _checked_output,
    _csv_options,
    _data_inputs,
    constraint_params,
    dropped_columns,
)


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


@dataclass(frozen=True)
class _ParquetData:
    """What ``fit`` on Parquet data knows of it (the rows stay on disk): the counterpart of ``LabeledData``."""

    source: str
    target: str
    columns: list[str]
    classes: tuple[Any, Any] = (0, 1)


def _parquet_data(args: argparse.Namespace, categorical: list[str]) -> _ParquetData:
    """The Parquet data of ``fit``, with its label column resolved, or a usage error for options that need CSV."""
    from rulemodels.cli._args import UsageError
    from rulemodels.data import parquet_columns, resolve_target

    if categorical:
        raise UsageError(
            "--categorical is for CSV files: Parquet columns keep their types (give code columns a string or "
            "dictionary type when writing the Parquet file)"
        )
    if dropped_columns(args):
        raise UsageError(
            "--drop and --id are for CSV files: a Parquet fit reads every column but the target; write the Parquet "
            "data without those columns, or fit in Python on a Dask DataFrame without them (docs/large_data.md)"
        )
    if args.positive is not None:
        raise UsageError(
            "--positive is for CSV files: the label column of Parquet data must hold exactly two values "
            "(the larger one is the positive class); write it as 0/1"
        )
    columns = parquet_columns(args.data)
    if args.target is None:
        raise ValueError(
            f"--target is required for Parquet data (a column name, or an index: -1 is the last column); "
            f"columns are {', '.join(columns)}"
        )
    target = resolve_target(str(args.target), columns)
    return _ParquetData(args.data, target, [c for c in columns if c != target])


def _fit_estimator(args: argparse.Namespace, algorithm: str):
    from rulemodels import defaults
    from rulemodels.data import is_bundled_dataset, is_parquet_path, load_data
    from rulemodels.estimator import BooleanRuleClassifier

    _translate_pyomo_warnings(args, args.cleanups)
    categorical = [name for name in args.categorical.split(",") if name]
    parquet = not is_bundled_dataset(args.data) and is_parquet_path(args.data)
    data: Any = (
        _parquet_data(args, categorical) if parquet
        else load_data(args.data, args.target, args.positive, _csv_options(args), categorical=categorical, multiclass=True,
                       drop=dropped_columns(args))
    )
    clf = BooleanRuleClassifier(
        form=args.form, n_clauses=args.n_clauses, theta=args.theta, algorithm=algorithm, n_thresholds=args.n_thresholds,
        min_literal_rows=getattr(args, "min_literal_rows", defaults.DEFAULT_MIN_LITERAL_ROWS),
        thresholds=getattr(args, "thresholds", defaults.DEFAULT_THRESHOLDS), allow_disable=args.allow_disable, max_iter=args.max_iter,
        solver=args.solver, time_limit=args.time_limit, verbose=args.verbose,
        solver_options={"output_flag": True} if args.solver_log and args.solver == "highs" else None,
        nan=args.nan, high_cardinality=args.high_cardinality, polish=getattr(args, "polish", False),
        prune=getattr(args, "prune", defaults.DEFAULT_PRUNE),
        class_weight=getattr(args, "class_weight", None),
        class_order=getattr(args, "class_order", defaults.DEFAULT_CLASS_ORDER),
        **constraint_params(args),
    )
    start = time.perf_counter()
    if parquet:  # read in batches and collapsed to distinct patterns (docs/large_data.md)
        clf.fit(args.data, data.target)
        data = replace(data, classes=tuple(_plain(c) for c in clf.classes_))
    else:
        clf.fit(data.X, data.y)
        if data.multiclass:  # the classes as the estimator holds them (the rule file's order)
            data = replace(data, classes=tuple(_plain(c) for c in clf.classes_))
    return data, clf, time.perf_counter() - start


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value (for the rule file's JSON)."""
    return value.item() if hasattr(value, "item") else value


def _feature_columns(data: Any) -> list[str]:
    return list(data.columns) if isinstance(data, _ParquetData) else list(data.X.columns)


def _print_rule_summary(data, clf, seconds: float) -> None:
    import numpy as np

    complexity = clf.rule_.complexity()
    binarizer = getattr(clf, "binarizer_", None)
    dropped = list(getattr(binarizer, "dropped_columns_", []))
    constant = list(getattr(binarizer, "constant_columns_", []))
    # an ID-like column with missing values keeps its 'x is missing' literal: still a feature, its values are not
    indicated = {lit.feature for lit in getattr(binarizer, "literals_", []) if lit.op == "is_nan"}
    gone = [name for name in dropped if name not in indicated]
    kept = [name for name in dropped if name in indicated]
    features = f"{len(_feature_columns(data)) - len(gone)} features"
    notes = []
    if gone:  # ID-like columns left out entirely: they are not features of the rule
        notes.append(f"ID-like column{'s' if len(gone) > 1 else ''} {', '.join(map(repr, gone))} left out")
    if kept:
        indicators = ", ".join(repr(f"{name} is missing") for name in kept)
        notes.append(f"ID-like column{'s' if len(kept) > 1 else ''} {', '.join(map(repr, kept))}: values left out, "
                     f"missing indicator{'s' if len(kept) > 1 else ''} {indicators} kept")
    if constant:  # one value (or none) in every row: no literal can use them
        shown = ", ".join(map(repr, constant[:5])) + (", ..." if len(constant) > 5 else "")
        notes.append(f"constant column{'s' if len(constant) > 1 else ''} {shown} give{'' if len(constant) > 1 else 's'} no literals")
    if notes:
        features += f" ({'; '.join(notes)})"
    error = _training_error(data, clf)
    if isinstance(data, _ParquetData):  # the error on all rows, computed from the weighted distinct patterns
        print(f"data: {data.source} ({clf.n_samples_seen_} samples as {clf.n_patterns_} distinct patterns, {features})")
    else:
        if data.multiclass:
            counts = ", ".join(f"{int(np.sum(data.y == c))} {c}" for c in clf.classes_)
            print(f"data: {data.source} ({data.X.shape[0]} samples, {features}, {len(data.classes)} classes: {counts})")
        else:
            print(f"data: {data.source} ({data.X.shape[0]} samples, {features}, {int(data.y.sum())} positive)")
    if hasattr(clf, "form_cv_errors_"):
        errors = {form: float(np.mean(values)) for form, values in clf.form_cv_errors_.items()}
        print(f"form: {clf.form_} (--form auto; mean inner-CV error dnf {errors['dnf']:.4f}, cnf {errors['cnf']:.4f})")
    if hasattr(clf, "steps_"):  # more than two classes: the ordered rule list, one line per step
        order = f"--class-order {clf.class_order}"
        n_steps = len(clf.rule_.steps)
        print(f"rule list ({data.target}; {n_steps} step{'' if n_steps == 1 else 's'} ordered by {order}; the first that holds decides):")
        for line in clf.rule_.to_text(data.target).splitlines():
            print(f"  {line}")
        majority = clf.classes_[clf.baseline_class_]
    else:
        print(f"rule ({data.target} = {data.classes[1]} when true):")
        print(f"  {clf.rule_}")
        majority = data.classes[clf.baseline_class_]
    if clf.simplification_.changed:
        print(f"simplified: {clf.simplification_}")
    baseline = clf.baseline_error_
    class_weight = clf.get_params().get("class_weight")
    if class_weight is not None and not isinstance(data, _ParquetData):  # the plain error beside the plain baseline
        labels, sizes = np.unique(np.asarray(data.y), return_counts=True)
        majority, baseline = labels[np.argmax(sizes)], 1.0 - sizes.max() / sizes.sum()
        if not hasattr(clf, "steps_"):
            majority = data.classes[int(majority)]
    weighted = " (class-weighted)" if class_weight is not None and isinstance(data, _ParquetData) else ""
    print(f"training error{weighted}: {error:.4f}  (accuracy {1 - error:.4f}); baseline: {baseline:.4f} (always {majority})")
    if class_weight is not None and not weighted:
        weighted_majority = clf.classes_[clf.baseline_class_] if hasattr(clf, "steps_") else data.classes[clf.baseline_class_]
        print(
            f"class weight: {class_weight}; the error the learner minimised (class-weighted): {clf.training_error_:.4f}, "
            f"always-{weighted_majority}: {clf.baseline_error_:.4f}"
        )
    print(
        f"complexity: {complexity['n_clauses']} clauses, {complexity['n_conditions']} conditions as printed, "
        f"{clf.raw_rule_.n_literals} literals as learned, {complexity['n_features']} distinct features"
    )
    print(
        f"solve: {clf.algorithm} with {clf.solver}, {clf.n_iter_} iterations ({clf.termination_}), "
        f"{clf.n_solves_} solves, {clf.n_builds_} model builds, objective {clf.objective_:.6g}, {seconds:.2f} s"
    )
    report = getattr(clf, "polish_report_", None)
    if report is not None and not report.built:
        print(
            f"polish: skipped ({report.termination}): the --polish seconds cannot build the {report.formulation} MIP "
            f"(R={report.n_clauses}) on these rows; the heuristic's rule is kept"
        )
    elif report is not None:
        started = "warm-started from the rule" if report.mip_start else "without a start (no MIP start in this solver)"
        outcome = "improved the rule" if report.polished else "kept the heuristic's rule"
        bound = "none" if report.bound is None else f"{report.bound:.6g}"
        gap = "none" if report.gap is None else f"{100 * report.gap:.2f} %"
        print(
            f"polish: {report.formulation} MIP (R={report.n_clauses}) with {report.solver}, {started}, "
            f"{report.termination} after {report.seconds:.2f} s: objective {report.start_objective:.6g} -> "
            f"{report.objective:.6g} ({outcome}); bound {bound}, gap {gap}"
        )
    elif hasattr(clf, "polished_"):
        print("polish: skipped (the rule has no clause to polish)")
    pruned = getattr(clf, "prune_report_", None)
    if pruned is not None and pruned.pruned:
        print(
            f"prune: removed {pruned.n_literals} literal(s) and {pruned.n_clauses} clause(s); objective "
            f"{pruned.objective_before:.6g} -> {pruned.objective:.6g}"
        )


def _training_error(data: Any, clf: Any) -> float:
    """The share of training rows the rule gets wrong (Parquet data: from the weighted distinct patterns, as fit saw them)."""
    import numpy as np

    if isinstance(data, _ParquetData):
        return float(clf.training_error_)
    return float(np.mean(clf.predict(data.X) != data.y))


def _polish_metadata(clf: Any) -> dict[str, Any]:
    """``{"polish": {...}}`` for the rule file when the fit polished (what the MIP did, its bound and gap), else ``{}``."""
    if not hasattr(clf, "polished_"):
        return {}
    report = clf.polish_report_
    if report is None:
        return {"polish": {"polished": False, "skipped": "the rule has no clause to polish"}}
    if not report.built:
        return {"polish": {"polished": False, "skipped": "the polishing budget cannot build the MIP",
                           "termination": report.termination}}
    return {"polish": {
        "polished": report.polished, "formulation": report.formulation, "solver": report.solver,
        "mip_start": report.mip_start, "termination": report.termination, "seconds": round(report.seconds, 3),
        "start_objective": report.start_objective, "objective": report.objective, "bound": report.bound, "gap": report.gap,
    }}


def _prune_metadata(clf: Any) -> dict[str, Any]:
    """``{"prune": {...}}`` for the rule file: whether the fit pruned and, when it did, what it removed."""
    if not clf.get_params()["prune"]:
        return {"prune": {"enabled": False}}
    report = getattr(clf, "prune_report_", None)
    if report is None:  # skipped (a model_hook), or a rule list (one report per step)
        return {"prune": {"enabled": True}}
    return {"prune": {
        "enabled": True, "n_literals": report.n_literals, "n_clauses": report.n_clauses,
        "objective_before": report.objective_before, "objective": report.objective,
    }}


def _constraints_metadata(args: argparse.Namespace) -> dict[str, Any]:
    """``{"constraints": {...}}`` for the rule file when ``fit`` had domain constraints (the ones given), else ``{}``."""
    given = {name: value for name, value in constraint_params(args).items() if value is not None}
    return {"constraints": given} if given else {}


def _cmd_fit(args: argparse.Namespace) -> int:
    """Learn a rule and save it (--out), then print it with its training error, complexity and solve statistics."""
    from rulemodels.rules import save_model

    out = _checked_output(args.out, _data_inputs(args))
    data, clf, seconds = _fit_estimator(args, args.algorithm)
    if out is not None:  # saved before anything is printed: a closed stdout cannot lose the rule
        rates: dict[str, Any] = (
            {"class_rates": clf.class_rates_} if hasattr(clf, "class_rates_") else {"pattern_rates": clf.pattern_rates_}
        )
        save_model(
            out, clf.rule_, data.classes, data.target, _feature_columns(data),
            **rates, algorithm=args.algorithm, theta=args.theta, n_clauses=args.n_clauses,
            solver=args.solver, column_kinds=clf.binarizer_.column_kinds_, **_polish_metadata(clf), **_prune_metadata(clf),
            training_error=_training_error(data, clf), complexity=clf.rule_.complexity(),
            **({"class_weight": args.class_weight} if args.class_weight is not None else {}),
            **_constraints_metadata(args), **({"id_column": args.id} if args.id else {}),
        )
    _print_rule_summary(data, clf, seconds)
    if out is not None:
        print(f"saved to {args.out}")
    return EXIT_OK


def _cmd_predict(args: argparse.Namespace) -> int:
    """Apply a saved rule to a CSV or Parquet file: a prediction per row (with --proba its probability, with
    --explain its reason); when the file has the label column, scores on stderr."""
    import pandas as pd

    from rulemodels.data import is_parquet_path, parquet_batches_and_ids, parquet_columns, read_features, resolve_target
    from rulemodels.rules import ColumnKindDriftWarning, load_model

    out = _checked_output(args.out, [("RULE.json", args.rule), ("DATA.csv", args.data)])
    args.result_on_stdout = out is None
    model = load_model(args.rule)
    parquet = is_parquet_path(args.data)
    if parquet:  # read batch by batch; only the predictions (and labels) are kept
        columns = parquet_columns(args.data)
    else:
        # text-category columns are read as text (leading zeros kept)
        frame = read_features(args.data, _csv_options(args), dtypes=model.csv_dtypes())
        columns = [str(c) for c in frame.columns]
    target = None
    if args.target is not None:
        target = resolve_target(args.target, columns)
    elif model.target in columns and model.target not in model.rule.features:
        target = model.target
    id_column = _id_column(args.id, model.metadata.get("id_column"), columns, no_id=args.no_id)
    # the ID column is read apart from the features, as written: CSV cells as their text, Parquet in its Arrow type
    chunks: Any = (
        parquet_batches_and_ids(args.data, [id_column] if id_column is not None else []) if parquet
        else [(frame, _csv_ids(args, id_column, len(frame)))]
    )
    tables, labels, fired = [], [], []
    for k, (chunk, ids) in enumerate(chunks):
        # each column the rule uses is read as its kind, warning once per drifted column (in the first chunk);
        # the calls below would say it again (the filter ends with main's scope)
        frame = model.conform(chunk)
        if k == 0:
            warnings.filterwarnings("ignore", category=ColumnKindDriftWarning)
        if args.explain:
            predictions = model.explain(frame)[["prediction", "reason"]].reset_index(drop=True)
        else:
            predictions = pd.DataFrame({"prediction": model.predict(frame)})
        if args.proba and model.multiclass:  # a column per class, in the file's order of classes
            proba = model.predict_proba(frame)
            for k, label in enumerate(model.classes):
                predictions.insert(1 + k, f"probability_{label}", proba[:, k])
        elif args.proba:
            predictions.insert(1, "probability", model.predict_proba(frame))
        if id_column is not None:
            predictions.insert(0, id_column, ids[id_column].reset_index(drop=True))
        tables.append(predictions)
        if target is not None:
            labels.append(frame[target].reset_index(drop=True))
            fired.append(predictions["prediction"].to_numpy() if model.multiclass else model.rule.evaluate(frame))
    if not tables:
        raise ValueError(f"data file '{args.data}' has no rows")
    predictions = pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]
    _write_table(predictions, out, f"{len(predictions)} predictions")
    if target is not None:
        import numpy as np

        score = _print_class_scores if model.multiclass else _print_scores
        score(pd.concat(labels, ignore_index=True), np.concatenate(fired), model.classes, target)
    return EXIT_OK


def _id_column(given: str | None, saved: Any, columns: list[str], *, no_id: bool = False) -> str | None:
    """The column ``predict`` copies into its output: ``--id``, else the rule file's ``fit --id`` column, which
    the data must have (``--no-id``: none)."""
    from rulemodels.utils import unknown_name

    if no_id:
        return None
    if given is None and isinstance(saved, str):
        if saved not in columns:
            raise ValueError(
                f"the rule file's ID column {saved!r} (from 'fit --id') is not a column of the data, so the predictions "
                f"could not be joined back to the records: name the data's ID column with --id COL, or pass --no-id "
                f"to write them without one (in the data's row order); its columns are: "
                f"{', '.join(map(repr, columns[:10]))}{', ...' if len(columns) > 10 else ''}"
            )
        given = saved
    if given is None:
        return None
    if given not in columns:
        raise ValueError(unknown_name("--id", given, columns, "the data"))
    if given in ("prediction", "reason") or given.startswith("probability"):
        raise ValueError(f"--id {given!r} has the name of an output column: rename it in the data")
    return given


def _csv_ids(args: argparse.Namespace, id_column: str | None, rows: int) -> Any:
    """The ID column of ``predict``'s CSV data as the text of its cells (a frame of no columns without one)."""
    import pandas as pd

    from rulemodels.data import read_text_columns

    if id_column is None:
        return pd.DataFrame(index=range(rows))
    ids = read_text_columns(args.data, [id_column], _csv_options(args))
    if len(ids) != rows:
        raise ValueError(
            f"data file '{args.data}': the ID column {id_column!r} read as text has {len(ids)} rows, the features "
            f"{rows}: check the quoting of the file"
        )
    return ids


def _write_table(table: Any, out: Path | None, what: str) -> None:
    """A DataFrame as CSV to ``out`` (written atomically: complete or absent), or to stdout."""
    from rulemodels.outputs import atomic_write

    if out is not None:
        with atomic_write(out, newline="") as handle:
            table.to_csv(handle, index=False)
        print(f"wrote {what} to {out}", file=sys.stderr)
    else:
        table.to_csv(sys.stdout, index=False)


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
    _print_score_table(truth.astype(int), predicted.astype(int), [str(c) for c in classes], target, note)


def _print_score_table(truth: Any, guess: Any, names: list[str], target: str, note: str) -> None:
    """Accuracy, the confusion matrix (class indices into ``names``) and the majority baseline on stderr."""
    import numpy as np

    accuracy = float(np.mean(guess == truth))
    width = max(len(f"actual {n}") for n in names)
    cell = max(len(f"predicted {n}") for n in names)
    lines = [
        f"scores on {len(truth)} rows labelled in column '{target}'{note}:",
        f"accuracy: {accuracy:.4f}  (error {1 - accuracy:.4f})",
        " " * width + "  " + "  ".join(f"predicted {n}".rjust(cell) for n in names),
    ]
    for t, name in enumerate(names):
        row = "  ".join(str(int(np.sum((truth == t) & (guess == p)))).rjust(cell) for p in range(len(names)))
        lines.append(f"actual {name}".ljust(width) + "  " + row)
    counts = np.bincount(truth, minlength=len(names))
    majority = int(np.argmax(counts))  # ties: the first class
    lines.append(
        f"baseline: {1 - counts[majority] / len(truth):.4f} error of always predicting {names[majority]} "
        "(the majority class of these rows)"
    )
    print("\n".join(lines), file=sys.stderr)


def _print_class_scores(labels: Any, predicted: Any, classes: tuple[Any, ...], target: str) -> None:
    """More than two classes: accuracy, the K x K confusion matrix and the majority baseline on stderr, for the
    rows whose label is one of the classes (a label matches a class when equal to it or to its text)."""
    import numpy as np

    truth = np.full(len(labels), -1)
    for k, label in enumerate(classes):
        truth[np.asarray((labels == label) | (labels.astype(str).str.strip() == str(label)), dtype=bool)] = k
    known = (truth >= 0) & np.asarray(labels.notna(), dtype=bool)
    left_out = int(len(labels) - known.sum())
    note = f"; {left_out} rows with a missing or other label left out" if left_out else ""
    if not known.any():
        print(f"scores: no row of column '{target}' holds one of the classes {', '.join(map(str, classes))}{note}", file=sys.stderr)
        return
    position = {str(label): k for k, label in enumerate(classes)}
    guess = np.array([position[str(p)] for p in np.asarray(predicted, dtype=object)[known]])
    _print_score_table(truth[known], guess, [str(c) for c in classes], target, note)


def _cmd_export(args: argparse.Namespace) -> int:
    """Write a saved rule as SQL, a pandas query or a dependency-free Python module."""
    from rulemodels.outputs import write_text_atomically
    from rulemodels.rules import load_model

    out = _checked_output(args.out, [("RULE.json", args.rule)])
    args.result_on_stdout = out is None
    model = load_model(args.rule)
    if args.no_cast and args.format != "sql":
        raise UsageError("--no-cast is for --format sql")
    sql = functools.partial(model.rule.to_sql, cast=not args.no_cast)
    exported = {"sql": sql, "query": model.rule.to_query, "python": model.rule.to_python}[args.format]()
    if isinstance(exported, dict):  # a rule list's queries: {class: expression}, as a JSON object in the list's order
        import json

        exported = json.dumps({str(label): text for label, text in exported.items()}, indent=2, ensure_ascii=False)
    text = exported if exported.endswith("\n") else exported + "\n"
    if out is not None:
        write_text_atomically(out, text)
        meaning = (f"the value is the class of {model.target}" if model.multiclass
                   else f"true means {model.target} = {model.classes[1]}")
        print(f"wrote the rule as {args.format} to {args.out} ({meaning})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _cmd_exact(args: argparse.Namespace) -> int:
    """Solve the exact MIP and print status, the rule (simplified: the same predictions) with its training error,
    objective, bound and gap."""
    import numpy as np

    from rulemodels.algorithms.exact import solve_exact
    from rulemodels.data import load_data
    from rulemodels.rules import simplify_rule

    _translate_pyomo_warnings(args, args.cleanups)
    data = load_data(args.data, args.target, args.positive, _csv_options(args), drop=dropped_columns(args))
    X, y = data.X, data.y
    if args.sample is not None and args.sample < len(X):
        rows = np.sort(np.random.default_rng(args.seed).choice(len(X), size=args.sample, replace=False))
        X, y = X.iloc[rows], y[rows]
    result = solve_exact(  # solve_exact takes the paper's θ: --theta is a share of the rows, as in fit
        X, y, n_clauses=args.n_clauses, theta=args.theta * len(X), formulation=args.formulation, form=args.form,
        solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap, n_thresholds=args.n_thresholds,
    )
    rule, _ = simplify_rule(result.rule)  # the same value on every row, without never-true terms and the like
    error = float(np.mean(rule.evaluate(X) != y.astype(bool)))
    gap = "-" if result.gap is None else f"{100 * result.gap:.3f} %"
    bound = "-" if result.exact_bound is None else f"{result.exact_bound:.6g}"
    print(
        f"data: {data.source} ({len(X)} samples), {args.formulation} MIP, R={args.n_clauses}, theta={args.theta:g} "
        f"(the paper's θ: {args.theta * len(X):g})"
    )
    if result.solve is not None and not result.solve.has_solution:
        print(
            f"status: {result.termination}: the MIP found no rule of its own, so the rule below is its start, the rule "
            "column generation learns (raise --time-limit, or try --solver highs)"
        )
    elif result.termination == "unverified":
        print(
            "status: unverified: the solver claimed an optimum that the rule it returned does not bear out (its objective, "
            "recomputed from the data, differs from the solver's, or the bound is above it); the rule below is feasible, "
            "not proven optimal"
        )
    elif result.termination == "time_limit":
        limit = f" ({args.time_limit:g} s)" if args.time_limit is not None else ""
        print(
            f"status: stopped at time limit{limit} with an incumbent: the rule below is the best found, "
            "not proven optimal (see bound and gap)"
        )
    else:
        print(f"status: {result.termination}")
    print(f"rule ({data.target} = {data.classes[1]} when true):")
    print(f"  {rule}")
    learned = "" if rule == result.rule else f" ({result.rule.n_literals} as learned, before simplification)"
    print(f"training error: {error:.4f}  (accuracy {1 - error:.4f}); {rule.n_literals} literals{learned}")
    print(
        f"objective: {result.objective:.6g}  (misclassification {result.breakdown['accuracy']:.6g}, "
        f"sparsity {result.breakdown['sparsity']:.6g})"
    )
    print(f"bound: {bound}  gap: {gap}")
    print(f"solver: {result.solve.solver_name} {result.solve.solver_version}, {result.solve.wall_time:.2f} s")
    return EXIT_OK
