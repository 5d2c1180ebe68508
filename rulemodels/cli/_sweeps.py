"""The sweep commands: ``cv`` (a grid on one dataset) and ``reproduce`` (the paper's protocol).

They build the grid (:func:`rulemodels.experiments.make_grid`), run it
(:func:`~rulemodels.experiments.run_experiments`, resumable) and print the
tables; the report files (tables as CSV and Markdown, figures) are written by
:mod:`rulemodels.experiments.reports`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rulemodels.cli._args import (
    EXIT_ERROR,
    EXIT_OK,
    UsageError,
    _checked_output,
    _csv_options,
    _data_inputs,
    _parse_thetas,
    constraint_params,
)


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


def _cmd_cv(args: argparse.Namespace) -> int:
    """Cross-validate a grid of algorithms x R x theta (x form) on one dataset."""
    from rulemodels.data import is_bundled_dataset, load_data
    from rulemodels.experiments import make_grid
    from rulemodels.experiments.reports import cv_table_markdown, selection_markdown

    thetas = _parse_thetas(args.thetas)
    if args.form == "auto" and not args.inner_folds:
        raise UsageError("--form auto chooses the form by nested CV: add --inner-folds J (e.g. --inner-folds 3)")
    path = _checked_output(args.results, _data_inputs(args), what="--results")
    assert path is not None, "--results has a default"
    data = load_data(args.data, args.target, args.positive, _csv_options(args))
    _check_folds(data.y, args.folds, args.inner_folds, args.data)
    dataset = args.data if is_bundled_dataset(args.data) else _cv_csv(args)
    forms = ["dnf", "cnf"] if args.form == "auto" else [args.form]
    tasks = [
        task for form in forms for task in make_grid(
            [dataset], args.algorithms, args.n_clauses, thetas, n_folds=args.folds, inner_folds=args.inner_folds,
            form=form, n_thresholds=args.n_thresholds, solver=args.solver, max_iter=args.max_iter,
            polish=_polish_seconds(args.polish), constraints=_task_constraints(args),
        )
    ]
    results = _run_grid(tasks, path, args)
    for form in forms:
        rows = results[results["form"] == form]
        if len(rows):
            print(cv_table_markdown(rows, form, bool(args.inner_folds)))
    if args.inner_folds:
        selection = selection_markdown(results, forms)
        if selection:
            print(selection)
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
    from rulemodels.data import CSVOptions, load_data, read_features
    from rulemodels.experiments import CSVData
    from rulemodels.experiments.reports import write_csv

    options = _csv_options(args)
    target = args.target
    columns = [str(c) for c in read_features(args.data, options).columns] if target is not None else []
    if options == CSVOptions() and (target is None or target in columns):
        return CSVData(args.data, target, args.positive)
    data = load_data(args.data, target, args.positive, options)
    frame = read_features(args.data, options)
    copy = _checked_output(f"{args.results}.data.csv", _data_inputs(args), what="the runner's copy of the data")
    assert copy is not None, "a path is given"
    if not copy.exists():
        write_csv(frame, copy)
        print(f"read {args.data} as {copy} (header row, ',' separator) for the runner", file=sys.stderr)
    return CSVData(str(copy), data.target, args.positive, name=Path(args.data).stem)


def _cv_baseline(data: Any, n_folds: int) -> float:
    """Mean test-fold error of the majority class of each training fold (the folds of the runner)."""
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    from rulemodels.algorithms.baseline import majority_baseline

    errors = []
    for train, test in StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=0).split(data.X, data.y):
        label = majority_baseline(data.y[train], np.ones(len(train))).label
        errors.append(float(np.mean(data.y[test] != label)))
    return float(np.mean(errors))


def _cmd_reproduce(args: argparse.Namespace) -> int:
    """Run the paper's protocol and write Table 1, nested selection and Pareto fronts to --out."""
    from rulemodels.data import is_bundled_dataset
    from rulemodels.datasets import load_dataset
    from rulemodels.experiments import make_grid, read_results, table1_markdown
    from rulemodels.experiments.paper import PAPER_ALGORITHMS, PAPER_CLAUSES, PAPER_DATASETS
    from rulemodels.experiments.reports import packed_results, unpack_results, write_report
    from rulemodels.outputs import OutputError, check_output_directory

    # the paper's protocol where the command line names no other
    args.datasets = args.datasets or list(PAPER_DATASETS)
    args.algorithms = args.algorithms or list(PAPER_ALGORITHMS)
    args.n_clauses = args.n_clauses or list(PAPER_CLAUSES)
    if args.inner_algorithms is None:  # all but tlp, whose inner fits would double the run's time
        args.inner_algorithms = [algorithm for algorithm in PAPER_ALGORITHMS if algorithm != "tlp"]
    try:
        out = check_output_directory(args.out)
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    packed = packed_results(out)
    if packed is not None:  # start from OUT/results.jsonl.gz (how docs/results is committed)
        print(f"unpacking {packed} to {out / 'results.jsonl'} (finished tasks are not run again)", file=sys.stderr)
        unpack_results(packed)
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
            n_folds=args.folds, form="dnf", n_thresholds=args.n_thresholds, solver=args.solver,
            max_iter=args.max_iter, time_limit=args.time_limit, polish=_polish_seconds(args.polish),
        )
        tasks = make_grid(args.datasets, args.algorithms, args.n_clauses, thetas, **settings)
        nested_algorithms = [a for a in args.algorithms if a in args.inner_algorithms]
        if args.inner_folds and nested_algorithms:
            inner_grid = make_grid(args.datasets, nested_algorithms, args.n_clauses, thetas, inner_folds=args.inner_folds, **settings)
            tasks += [task for task in inner_grid if task.is_inner]
        results = _run_grid(tasks, out / "results.jsonl", args)
    ok = results[results["error"].isna()] if "error" in results else results
    report = write_report(ok, out)
    table, nested = report.table, report.nested
    if not report.figures:
        print("rulemodels: warning: the Pareto figures were not written: they need matplotlib "
              "(pip install 'rulemodels[plot]')", file=sys.stderr)
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


def _task_constraints(args: argparse.Namespace) -> str | None:
    """``cv``'s domain constraints as a Task's canonical JSON (None without any: the keys of earlier results hold)."""
    from rulemodels.experiments.tasks import canonical_constraints

    return canonical_constraints({name: value for name, value in constraint_params(args).items() if value is not None})


def _polish_seconds(value: bool | float) -> float | None:
    """``--polish``'s seconds for a Task: None when off, the default budget for the flag alone."""
    from rulemodels import defaults

    if value is False:
        return None
    return float(defaults.DEFAULT_POLISH_TIME_LIMIT) if value is True else float(value)
