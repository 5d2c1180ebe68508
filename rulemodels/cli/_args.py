"""The command line's arguments: their definitions (:func:`build_parser`), value types and checks, exit codes.

Flags are named after the estimator's parameters (``--n-clauses`` is
``n_clauses``, ``--n-thresholds`` is ``n_thresholds``, ``--high-cardinality``
is ``high_cardinality``); the old spellings (``--clauses``, ``--thresholds``,
``--keep-id-columns``) still work, hidden from ``--help`` (``fit --thresholds``
is the ``thresholds`` method, and still takes a number of thresholds). Defaults, algorithm
and solver names come from :mod:`rulemodels.defaults`, and numbers are checked
by their parameter's one rule (:data:`rulemodels.utils.PARAMETERS`), so
nothing heavy (numpy, pandas, Pyomo, scikit-learn) is imported to build the
parser or to read ``--help``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rulemodels import defaults
from rulemodels.utils import PARAMETERS, check_constraint_values, check_parameter, describe_constraints

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT); SIGTERM exits 143 (solvers.signals.exit_status)


class CommandError(Exception):
    """A user-facing error: printed as ``rulemodels: error: <message>``."""


class UsageError(CommandError):
    """A bad argument found after parsing (e.g. more folds than rows of a class): exit status 2."""


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


def _add_rule_and_data_arguments(parser: argparse.ArgumentParser, data_help: str) -> None:
    """RULE.json (a saved rule), DATA.csv (``data_help`` says what it holds) and the CSV options: 'predict', 'report'."""
    parser.add_argument("rule", metavar="RULE.json", help="a file written by 'rulemodels fit --out'")
    parser.add_argument("data", metavar="DATA.csv", help=data_help)
    _add_csv_arguments(parser)


def _csv_options(args: argparse.Namespace) -> Any:
    from rulemodels.data import CSVOptions

    na_values = tuple(v for v in args.na_values.split(",") if v != "")
    try:
        return CSVOptions(
            header=not args.no_header, sep=args.sep, na_values=na_values, default_na=not args.no_default_na,
            encoding=args.encoding,
        )
    except ValueError as exc:  # an empty --sep, an unknown --encoding
        raise UsageError(str(exc)) from None


def _data_inputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The DATA argument as an input that no output may overwrite (a bundled dataset's name is no file)."""
    from rulemodels.data import is_bundled_dataset

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


def _add_data_arguments(parser: argparse.ArgumentParser, *, estimator: bool = True, parquet: bool = False) -> None:
    """DATA, --target, --positive and the CSV options; ``parquet``: the command reads Parquet in batches."""
    files = "a CSV or Parquet file (.parquet/.pq, or a directory of them; read " + ("in batches)" if parquet else "whole)")
    parser.add_argument("data", metavar="DATA", help=f"{files}, or a bundled dataset name (sonar, liver, pima, parkinsons)")
    parser.add_argument(
        "--target",
        help="the label column (required for a CSV file): its name, or its 0-based index (-1: the last column)",
    )
    parser.add_argument(
        "--positive",
        help="the label value of the positive class (every other value is negative); a target with more than two "
             "values needs it, except in 'fit', which learns an ordered rule list over all of them without it",
    )
    _add_csv_arguments(parser)
    if estimator:
        parser.add_argument(
            "--nan", choices=defaults.NAN_POLICIES, default=defaults.DEFAULT_NAN,
            help="missing values: 'indicator' makes a column's literals false where it is missing and adds "
                 f"'x is missing' literals; 'error' refuses them (default: {defaults.DEFAULT_NAN})",
        )
        parser.add_argument(
            "--categorical", default="", metavar="LIST",
            help="comma-separated columns whose values are codes, not quantities (ICD, ZIP): read as text, "
                 "every value a category (default: text columns are categories, number columns get thresholds)",
        )
        parser.add_argument(
            "--high-cardinality", choices=defaults.HIGH_CARDINALITY_POLICIES, default=defaults.DEFAULT_HIGH_CARDINALITY,
            help="ID-like columns: text with one distinct value per row (IDs, dates as text), and numbers that look "
                 "like row numbers (distinct integers, one per row): 'drop' leaves them out with a warning, 'keep' "
                 f"uses them (default: {defaults.DEFAULT_HIGH_CARDINALITY})",
        )
        _add_alias(parser, "--keep-id-columns", "high_cardinality", action="store_const", const="keep")


def _add_column_arguments(parser: argparse.ArgumentParser, *, id_help: str) -> None:
    """--drop (columns left out of the features) and --id (a row identifier: never a feature)."""
    parser.add_argument(
        "--drop", default="", metavar="LIST",
        help="comma-separated columns left out of the features (e.g. a row number, a column the rule must not use)",
    )
    parser.add_argument("--id", metavar="COL", help=id_help)


def dropped_columns(args: argparse.Namespace) -> list[str]:
    """The columns ``--drop`` and ``--id`` leave out of the features, in the order given."""
    names = [name.strip() for name in getattr(args, "drop", "").split(",") if name.strip()]
    if getattr(args, "id", None):
        names.append(args.id)
    return list(dict.fromkeys(names))


def _add_alias(parser: argparse.ArgumentParser, old: str, dest: str, **kwargs: Any) -> None:
    """``old``, an earlier spelling of a flag, still sets ``dest`` (hidden from --help; the flag's default stays)."""
    parser.add_argument(old, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs)


def _add_rule_arguments(
    parser: argparse.ArgumentParser, *, solver: str, forms: tuple[str, ...] = defaults.FORMS, threshold_methods: bool = False,
    min_literal_rows: bool = False,
) -> None:
    n_clauses = _parameter_type("n_clauses", int)
    parser.add_argument(
        "--n-clauses", type=n_clauses, default=defaults.DEFAULT_N_CLAUSES,
        help=f"R, the number of clauses (default: {defaults.DEFAULT_N_CLAUSES})",
    )
    _add_alias(parser, "--clauses", "n_clauses", type=n_clauses)
    parser.add_argument(
        "--theta", type=_parameter_type("theta", float), default=defaults.DEFAULT_THETA,
        help="sparsity weight θ: the share of the training rows a literal must fix to be kept "
             f"(default: {defaults.DEFAULT_THETA:g})",
    )
    if min_literal_rows:  # fit's floor in rows (the exact MIP solves the θ it is given)
        parser.add_argument(
            "--min-literal-rows", type=_auto_or_rows, default=defaults.DEFAULT_MIN_LITERAL_ROWS, metavar="ROWS",
            help="a floor in rows under θ: a literal costs at least this many training rows; 'auto': ½ ln n on n rows "
                 "(2.6 on 200 rows, 3.5 on 1,000), 0: no floor (default: auto)",
        )
    auto = f" ('auto': the one with the lower {defaults.DEFAULT_CV}-fold inner-CV error)" if "auto" in forms else ""
    parser.add_argument(
        "--form", choices=forms, default=defaults.DEFAULT_FORM, help=f"rule form{auto} (default: {defaults.DEFAULT_FORM})",
    )
    parser.add_argument(
        "--solver", default=solver,
        help=f"solver backend: {', '.join(defaults.BUILTIN_SOLVERS)}, or any Pyomo solver name (default: {solver})",
    )
    _add_thresholds_argument(parser, methods=threshold_methods)
    parser.add_argument(
        "--time-limit", type=_parameter_type("time_limit", float), default=None,
        help="wall-clock seconds for the algorithm (fit) or the MIP (exact): the heuristic's iterations, the exact "
             "MIP's start, building and solving; not reading the data, binarizing, --polish or writing outputs. A rule "
             "list shares them out among its binary fits and, once they are spent, tries one class per step "
             "(default: none; a fit without a limit gives the same rule on a busy or an idle machine)",
    )


def _add_thresholds_argument(parser: argparse.ArgumentParser, *, methods: bool = False) -> None:
    """``--n-thresholds``; with ``methods`` also ``--thresholds METHOD`` (an integer there is the old ``--n-thresholds``)."""
    n_thresholds = _parameter_type("n_thresholds", int)
    parser.add_argument(
        "--n-thresholds", type=n_thresholds, default=defaults.DEFAULT_N_THRESHOLDS,
        help=(f"thresholds per numeric column, at most (default: {defaults.DEFAULT_N_THRESHOLDS})" if methods
              else f"quantile thresholds per numeric column (default: {defaults.DEFAULT_N_THRESHOLDS})"),
    )
    if not methods:
        _add_alias(parser, "--thresholds", "n_thresholds", type=n_thresholds)
        return
    parser.set_defaults(thresholds=defaults.DEFAULT_THRESHOLDS)
    parser.add_argument(
        "--thresholds", type=_thresholds_value(n_thresholds), action=_ThresholdsAction, dest="thresholds",
        metavar="{" + ",".join(defaults.THRESHOLD_METHODS) + "}",
        help="where each numeric column's thresholds go: 'quantile' (its quantiles), 'tree' (where the classes "
             "change: the cuts of a one-column classification tree fitted with the labels; helps a rare class "
             "confined to a tail) or 'quantile+tree' (both), also on Parquet "
             f"(default: {defaults.DEFAULT_THRESHOLDS})",
    )


def _thresholds_value(n_thresholds: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type`` for ``--thresholds``: a method name, or (the flag's old meaning) a number of thresholds."""

    def parse(text: str) -> Any:
        if text in defaults.THRESHOLD_METHODS:
            return text
        try:
            int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be one of {', '.join(defaults.THRESHOLD_METHODS)} (or a number of thresholds, the old "
                f"spelling of --n-thresholds), got {text!r}"
            ) from None
        return n_thresholds(text)  # a number: the old --n-thresholds, checked (and its error worded) as that one

    return parse


class _ThresholdsAction(argparse.Action):
    """``--thresholds``: a method sets ``thresholds``; an integer sets ``n_thresholds`` (the flag's old meaning)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, "n_thresholds" if isinstance(values, int) else "thresholds", values)


def _add_polish_argument(parser: argparse.ArgumentParser) -> None:
    seconds = _at_least(0.0, float, "a number of seconds > 0", strict=True)
    parser.add_argument(
        "--polish", nargs="?", type=seconds, const=True, default=defaults.DEFAULT_POLISH, metavar="SECONDS",
        help="after the heuristic, warm-start the exact 0-1 error MIP from its rule for SECONDS "
             f"(default without SECONDS: {defaults.DEFAULT_POLISH_TIME_LIMIT:g}) and keep the rule with the lower "
             "training objective (errors + θ × literals); prints the MIP's bound and gap. SECONDS cover building "
             "the MIP and solving it, on top of --time-limit: polishing is skipped when they cannot build the MIP "
             "(its building is estimated from its size). A rule list shares the SECONDS out among its binary fits",
    )


def _column_value(kind: Callable[[str], object], what: str) -> Callable[[str], tuple[str, Any]]:
    """An argparse ``type`` for ``COLUMN=VALUE`` (the value parsed as ``kind``; argparse names the flag)."""

    def parse(text: str) -> tuple[str, Any]:
        column, sep, value = text.rpartition("=")
        if not sep or not column:
            raise argparse.ArgumentTypeError(f"must be COLUMN={what}, got {text!r}")
        try:
            return column, kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be COLUMN={what}, got {text!r}") from None

    return parse


def _direction(text: str) -> int:
    """``+1``/``1``/``-1`` (also ``+``/``-``) as +1 or -1."""
    value = {"+1": 1, "1": 1, "+": 1, "-1": -1, "-": -1}.get(text.strip())
    if value is None:
        raise ValueError(text)
    return value


def _add_constraint_arguments(parser: argparse.ArgumentParser) -> None:
    """The domain constraints (docs/constraints.md), honoured by every algorithm."""
    group = parser.add_argument_group("domain constraints (docs/constraints.md)")
    group.add_argument(
        "--monotone", action="append", type=_column_value(_direction, "+1 or -1"), default=[], metavar="COL=±1",
        help="COL=+1: the rule may use COL only as 'COL > t' (true for more rows as COL grows); COL=-1: only "
             "'COL <= t' (repeatable; numeric and 0/1 columns)",
    )
    group.add_argument(
        "--forbid", action="append", default=[], metavar="COL", help="never use column COL (repeatable)",
    )
    group.add_argument(
        "--feature-cost", action="append", type=_column_value(float, "COST (a number >= 0)"), default=[], metavar="COL=COST",
        help="each literal on COL costs COST × θ instead of θ; 0 makes it free (repeatable)",
    )
    group.add_argument(
        "--max-literals-per-clause", type=_parameter_type("max_literals_per_clause", int), default=None, metavar="K",
        help="at most K literals in every clause (term of a DNF)",
    )


def constraint_params(args: argparse.Namespace) -> dict[str, Any]:
    """The estimator's constraint parameters from the parsed ``--monotone``, ``--forbid``, ``--feature-cost``,
    ``--max-literals-per-clause`` (checked: a :class:`UsageError` says what is wrong)."""
    monotone, costs = dict(args.monotone), dict(args.feature_cost)
    if len(monotone) < len(args.monotone) or len(costs) < len(args.feature_cost):
        raise UsageError("a column is given twice to --monotone or --feature-cost: give each column once")
    params = {
        "monotone": monotone or None,
        "forbidden_features": list(dict.fromkeys(args.forbid)) or None,
        "feature_costs": costs or None,
        "max_literals_per_clause": args.max_literals_per_clause,
    }
    try:
        check_constraint_values(params["monotone"], params["forbidden_features"], params["feature_costs"])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return params


def _add_max_iter_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-iter", type=_parameter_type("max_iter", int), default=defaults.DEFAULT_MAX_ITER,
        help=f"iteration cap of {' and '.join(a.upper() for a in defaults.ITERATIVE_ALGORITHMS[::-1])} "
             f"(default: {defaults.DEFAULT_MAX_ITER})",
    )


def _auto_or_rows(text: str) -> float | str:
    """An argparse ``type`` for ``--min-literal-rows``: ``auto`` or a number of rows >= 0."""
    if text == "auto":
        return text
    return _parameter_type("min_literal_rows", float)(text)


def _parameter_type(name: str, kind: type) -> Callable[[str], Any]:
    """An argparse ``type`` for the estimator parameter ``name``: parses ``kind`` and checks the parameter's one
    rule (:data:`rulemodels.utils.PARAMETERS`; argparse names the flag). ``None`` is no value on the command line."""
    constraints = [c for c in PARAMETERS[name] if c is not None]
    what = describe_constraints(constraints)

    def parse(text: str) -> Any:
        try:
            return check_parameter(name, kind(text), constraints=constraints)
        except ValueError:  # not a number, or an InvalidParameterError
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None

    return parse


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


#: Bounds of the sweep commands' grid arguments: beyond them a run is a typo, not a plan.
MAX_CLAUSES = 50
MAX_INNER_FOLDS = 100


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
    """'paper' (the paper's 18 θ) or numbers, each meeting θ's one rule (a bad one is a usage error, exit 2)."""
    from rulemodels.experiments.paper import PAPER_THETAS

    if values == ["paper"]:
        return list(PAPER_THETAS)
    try:
        thetas = [float(v) for value in values for v in value.split(",")]
    except ValueError:
        raise UsageError(f"--thetas takes 'paper' or numbers, got {' '.join(values)}") from None
    bad = []
    for theta in thetas:
        try:
            check_parameter("theta", theta)
        except ValueError:
            bad.append(theta)
    if bad:
        raise UsageError(
            f"each of --thetas must be {describe_constraints(PARAMETERS['theta'])}, got {', '.join(map(str, bad))}"
        )
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


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--folds", type=_at_least(2, int, "an integer >= 2"), default=defaults.DEFAULT_FOLDS,
                        help=f"stratified CV folds (default: {defaults.DEFAULT_FOLDS})")
    parser.add_argument("--jobs", type=_job_count, default=2,
                        help="parallel workers, capped at the number of training sets (default: 2)")
    parser.add_argument("--backend", choices=("joblib", "dask", "sequential"), default="joblib", help="where tasks run (default: joblib)")
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask), e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    parser.add_argument(
        "--keep-going", action="store_true",
        help="exit 0 even when tasks failed twice, with tables of the finished cells (default: exit 1 and list them)",
    )


class _VersionAction(argparse.Action):
    """``--version``: print the installed version and exit, reading it only then (the metadata lookup costs tens of
    milliseconds, which every other command would pay at parsing)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from rulemodels.utils._version import __version__

        print(f"rulemodels {__version__}")
        parser.exit()


def build_parser(handlers: Mapping[str, Callable[[argparse.Namespace], int]]) -> argparse.ArgumentParser:
    """The argument parser of every sub-command; ``handlers`` maps each command's name to the function that runs it."""
    parser = argparse.ArgumentParser(
        prog="rulemodels",
        description="Learn interpretable two-level Boolean rules (CNF/DNF) with Pyomo and LP/MIP solvers.",
    )
    parser.add_argument("--version", action=_VersionAction)
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
    solvers_parser.set_defaults(handler=handlers["solvers"])

    fit = commands.add_parser(
        "fit", help="learn a rule and print it",
        description="Learn a two-level Boolean rule and print it; for a target with more than two values (and no "
                    "--positive), an ordered rule list: one rule per class, the first that holds decides, else a default class.",
    )
    _add_data_arguments(fit, parquet=True)
    fit.add_argument(
        "--algorithm", choices=defaults.ALGORITHMS, default=defaults.DEFAULT_ALGORITHM,
        help=f"learning algorithm (default: {defaults.DEFAULT_ALGORITHM})",
    )
    _add_rule_arguments(fit, solver=defaults.DEFAULT_SOLVER, forms=defaults.FORMS_AND_AUTO, threshold_methods=True,
                        min_literal_rows=True)
    _add_max_iter_argument(fit)
    fit.add_argument("--allow-disable", action="store_true", help="let the learner switch clauses off")
    fit.add_argument(
        "--class-weight", choices=defaults.CLASS_WEIGHT_MODES, default=defaults.DEFAULT_CLASS_WEIGHT,
        help="'balanced': weigh each class alike in the accuracy cost (rows of class c weigh n / (2 n_c)), "
             "for a rare positive class (default: every row weighs 1)",
    )
    fit.add_argument(
        "--class-order", choices=defaults.CLASS_ORDERS, default=defaults.DEFAULT_CLASS_ORDER,
        help="more than two classes: order the rule list's steps greedily by training error ('error': about K²/2 "
             f"binary fits for K classes) or rarest class first ('rarest': K-1 fits) (default: {defaults.DEFAULT_CLASS_ORDER})",
    )
    _add_polish_argument(fit)
    fit.add_argument(
        "--no-prune", dest="prune", action="store_false", default=defaults.DEFAULT_PRUNE,
        help="keep the algorithm's rule as learned: no exact pruning of the literals and clauses whose removal would "
             "not raise the training objective (errors + θ × literals)",
    )
    _add_constraint_arguments(fit)
    _add_column_arguments(
        fit, id_help="a column that identifies the rows (a record ID): left out of the features, and saved in the rule "
                     "file so that 'rulemodels predict' copies it, as written, into its output",
    )
    fit.add_argument("--out", help="save the rule (JSON) to this file, for 'rulemodels predict'")
    fit.set_defaults(handler=handlers["fit"])

    predict = commands.add_parser(
        "predict", help="apply a saved rule to a CSV or Parquet file", description="Apply a saved rule to a CSV or Parquet file.",
    )
    _add_rule_and_data_arguments(
        predict,
        "CSV or Parquet file (.parquet/.pq, or a directory of them; read in batches) with the rule's feature columns",
    )
    ids = predict.add_mutually_exclusive_group()
    ids.add_argument(
        "--id", metavar="COL",
        help="copy this column (a record ID) into the output, first, as written: a CSV column as the text of its "
             "cells (leading zeros, long numbers and empty cells kept), a Parquet column in its own type "
             "(default: the rule file's ID column from 'fit --id', an error if the data lacks it)",
    )
    ids.add_argument(
        "--no-id", action="store_true",
        help="write no ID column, also when the rule file names one (the predictions are in the data's row order)",
    )
    predict.add_argument("--out", help="write the predictions CSV here (default: stdout)")
    predict.add_argument(
        "--explain", action="store_true",
        help="add a 'reason' column: the clauses that decided each row and the literals that made them",
    )
    predict.add_argument(
        "--proba", action="store_true",
        help="add a 'probability' column: the probability of the rule's class (the training positive rate of "
             "the row's pattern of clause values, saved by 'fit --out'); for a rule list, a 'probability_<class>' "
             "column per class (the training class rates of the step that claimed the row)",
    )
    predict.add_argument(
        "--target",
        help="the label column (name or 0-based index), to print accuracy, confusion matrix and baseline on stderr "
             "(default: the rule file's target column, when the data has it)",
    )
    predict.set_defaults(handler=handlers["predict"])

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
    export.add_argument(
        "--no-cast", action="store_true",
        help="SQL thresholds compare \"x\" > t, which an index on x can serve, instead of \"x\" + 0 > t, which also "
             "compares numbers stored as text (SQLite's CSV .import) as numbers; only for tables whose numeric columns "
             "have numeric types",
    )
    export.add_argument("--out", help="write the code to this file (default: stdout)")
    export.set_defaults(handler=handlers["export"])

    report = commands.add_parser(
        "report", help="write a self-contained HTML report of a saved rule on labelled data",
        description="Write one self-contained HTML file (inline CSS and SVG; no script, no URL) showing a saved rule "
                    "to a reviewer: its clauses (or a rule list's steps) with the rows each fires on, its precision "
                    "and the rows it alone decides; accuracy, balanced accuracy, recall and precision per class, "
                    "baseline and confusion matrix on DATA; errors with their reasons; with --by the error per "
                    "subgroup; with --results the Pareto front of a 'cv' results "
                    "file; and the metadata (versions, settings, the rule file's SHA-256).",
    )
    _add_rule_and_data_arguments(
        report, "a CSV or Parquet file with the rule's feature columns and the label column, or a bundled dataset name",
    )
    report.add_argument(
        "--target", help="the label column (name or 0-based index; default: the rule file's target column)",
    )
    report.add_argument("--results", metavar="CV.jsonl", help="a 'rulemodels cv' results file: adds the Pareto front")
    report.add_argument(
        "--by", metavar="COLUMN",
        help="a column of DATA: the error per value (text values quoted; rows with no value, and the rest "
             "beyond the 20 most frequent values, are groups of their own, in italics; numeric columns with many "
             "values: per quantile bin)",
    )
    report.add_argument("--out", required=True, help="the HTML file to write")
    report.set_defaults(handler=handlers["report"])

    exact = commands.add_parser(
        "exact", help="solve the exact MIP (ground truth for small data)",
        description="Solve the exact two-level MIP; prints status, objective, bound and gap.",
    )
    _add_data_arguments(exact, estimator=False)
    _add_column_arguments(exact, id_help="a column that identifies the rows (a record ID): left out of the features")
    _add_rule_arguments(exact, solver=defaults.EXACT_SOLVER)
    exact.add_argument(
        "--formulation", choices=defaults.EXACT_FORMULATIONS, default=defaults.EXACT_FORMULATIONS[0],
        help=f"MIP formulation (default: {defaults.EXACT_FORMULATIONS[0]})",
    )
    exact.add_argument("--mip-gap", type=_nonnegative_float, default=None, help="relative gap at which to stop (a number >= 0)")
    exact.add_argument("--sample", type=_positive_int, default=None, help="solve on a random subsample of this many rows")
    exact.add_argument("--seed", type=int, default=0, help="seed of --sample (default: 0)")
    exact.set_defaults(handler=handlers["exact"])

    cv = commands.add_parser(
        "cv", help="cross-validate a grid of algorithms, R and θ", description="Cross-validate a grid on one dataset (resumable)."
    )
    _add_data_arguments(cv, estimator=False)
    cv.add_argument("--algorithms", nargs="+", choices=defaults.SWEEP_ALGORITHMS, default=list(defaults.DEFAULT_CV_ALGORITHMS))
    grid = defaults.DEFAULT_N_CLAUSES_GRID
    cv.add_argument(
        "--n-clauses", type=_parse_clauses, default=list(grid),
        help=f"R values, e.g. 2, 1-5 or 1,3 (default: {grid[0]}-{grid[-1]})",
    )
    _add_alias(cv, "--clauses", "n_clauses", type=_parse_clauses)
    cv.add_argument("--thetas", nargs="+", default=["paper"], help="'paper' (the 18 θ of the paper) or numbers")
    cv.add_argument(
        "--form", choices=defaults.FORMS_AND_AUTO, default=defaults.DEFAULT_FORM,
        help=f"rule form; 'auto' runs both and, with --inner-folds, chooses it by nested CV (default: {defaults.DEFAULT_FORM})",
    )
    _add_thresholds_argument(cv)
    _add_max_iter_argument(cv)
    _add_polish_argument(cv)
    _add_constraint_arguments(cv)
    cv.add_argument("--solver", default=defaults.DEFAULT_SOLVER, help=f"solver backend (default: {defaults.DEFAULT_SOLVER})")
    cv.add_argument("--results", default="cv_results.jsonl", help="results file (JSON lines; resumable)")
    cv.add_argument(
        "--inner-folds", type=_inner_folds, default=0, metavar="J",
        help="also choose θ, R (and the form) by nested CV with J inner folds per training fold: the honest "
             "test error (about J times more fits; default: 0, off)",
    )
    _add_run_arguments(cv)
    cv.set_defaults(handler=handlers["cv"])

    reproduce = commands.add_parser(
        "reproduce", help="run the paper's protocol (Table 1, Figures 1-3)",
        description="Stratified 10-fold CV, 18 θ, R = 1..5, DNF: writes Table 1 beside the paper's numbers and Pareto fronts.",
    )
    # the paper's datasets, algorithms and R (rulemodels.experiments.paper) when not given: read by the command
    reproduce.add_argument("--datasets", nargs="+", default=None, help="bundled datasets (default: the paper's four)")
    reproduce.add_argument(
        "--algorithms", nargs="+", choices=defaults.SWEEP_ALGORITHMS, default=None, help="(default: the paper's five)",
    )
    reproduce.add_argument("--n-clauses", type=_parse_clauses, default=None, help="R values (default: 1-5, the paper's)")
    _add_alias(reproduce, "--clauses", "n_clauses", type=_parse_clauses)
    reproduce.add_argument("--thetas", nargs="+", default=["paper"])
    _add_thresholds_argument(reproduce)
    _add_max_iter_argument(reproduce)
    reproduce.add_argument("--time-limit", type=_parameter_type("time_limit", float), default=None, help="seconds per fit")
    reproduce.add_argument("--solver", default=defaults.DEFAULT_SOLVER)
    _add_polish_argument(reproduce)
    reproduce.add_argument("--out", default="docs/results", help="output directory (default: docs/results)")
    reproduce.add_argument(
        "--inner-folds", type=_inner_folds, default=3, metavar="J",
        help="inner folds of the nested CV that chooses θ honestly (default: 3; 0 turns it off)",
    )
    reproduce.add_argument(
        "--inner-algorithms", nargs="+", choices=defaults.SWEEP_ALGORITHMS, default=None,
        help="algorithms that get the nested CV (default: all but tlp, whose inner fits would double the run's time)",
    )
    reproduce.add_argument(
        "--report-only", action="store_true",
        help="run nothing: write the tables and figures from the results already in OUT/results.jsonl (e.g. of an unfinished run)",
    )
    _add_run_arguments(reproduce)
    reproduce.set_defaults(handler=handlers["reproduce"])
    return parser
