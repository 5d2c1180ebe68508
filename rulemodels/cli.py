"""The ``rulemodels`` command line.

Results go to stdout; errors go to stderr with a non-zero exit status and no
traceback unless ``--debug`` is given. Only this module configures logging
and prints.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Callable, Sequence

__all__ = ["main", "build_parser"]

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """A user-facing error: printed as ``rulemodels: error: <message>``."""


def _cmd_solvers(args: argparse.Namespace) -> int:
    """Print every registered backend, its availability (and why not), version and persistence."""
    from solvers import describe_backends

    rows = describe_backends(tuple(args.extra))
    header = ("solver", "available", "version", "persistent", "note")
    table = [
        (
            row.name,
            "yes" if row.available else "no",
            row.version or "-",
            "yes" if row.persistent else "no",
            "" if row.available else f"{row.reason}; {row.install_hint}",
        )
        for row in rows
    ]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *table)]
    for line in (header, *table):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip())
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
    return parser


def _configure_logging(args: argparse.Namespace) -> None:
    level = logging.DEBUG if args.debug else logging.INFO if args.verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rulemodels`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("rulemodels: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the CLI's one place that turns errors into messages
        if args.debug:
            raise
        print(f"rulemodels: error: {exc}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
