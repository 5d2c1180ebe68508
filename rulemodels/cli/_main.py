"""The entry point :func:`main`: logging, guarded stdout/stderr, errors and interrupts turned into exit statuses.

Results go to stdout; errors go to stderr with a non-zero exit status and no
traceback unless ``--debug`` is given. Only the command line configures
logging and prints.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from rulemodels.cli import _args
from rulemodels.cli._args import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError
from rulemodels.cli._fit import _cmd_exact, _cmd_export, _cmd_fit, _cmd_predict, _cmd_solvers
from rulemodels.cli._report import _cmd_report
from rulemodels.cli._sweeps import _cmd_cv, _cmd_reproduce
from solvers.signals import (
    exit_status,
    find_interrupt,
    keeping_lost_interrupts,
    terminating_on_sigterm,
    watching_interrupts,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command, each bound to the function that runs it.

    Returns
    -------
    argparse.ArgumentParser
        The ``rulemodels`` parser.
    """
    return _args.build_parser({
        "solvers": _cmd_solvers,
        "fit": _cmd_fit,
        "predict": _cmd_predict,
        "export": _cmd_export,
        "report": _cmd_report,
        "exact": _cmd_exact,
        "cv": _cmd_cv,
        "reproduce": _cmd_reproduce,
    })


def _configure_logging(args: argparse.Namespace) -> Callable[[], None]:
    """WARNING and up from everyone, and INFO from ``rulemodels.progress`` (what long work says: the exact MIP's
    incumbent, bound and gap); with -v, INFO from rulemodels only (its iteration log, not the solver's);
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
    # Long work speaks at the default verbosity: the exact MIP's incumbent, bound and gap, and how to bound a run
    # without time limit (rulemodels.algorithms.mip_progress), as plain "rulemodels: ..." lines on stderr.
    progress = logging.getLogger("rulemodels.progress")
    saved = progress.level, progress.propagate
    handler = None
    if not args.debug:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("rulemodels: %(message)s"))
        progress.addHandler(handler)
        progress.setLevel(logging.INFO)
        progress.propagate = False

    def restore() -> None:
        for name, value in previous.items():
            logging.getLogger(name).setLevel(value)
        if handler is not None:
            progress.removeHandler(handler)
        progress.setLevel(saved[0])
        progress.propagate = saved[1]

    return restore


def _print_warning(
    message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None, line: str | None = None
) -> None:
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

    Parameters
    ----------
    argv : sequence of str or None, default=None
        The command line without the program name; None reads ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status (above).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    args.result_on_stdout = False
    stdout, stderr = _GuardedStream(sys.stdout), _GuardedStream(sys.stderr)
    saved_streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    args.cleanups = [_configure_logging(args)]
    thread_failures = _collect_thread_failures(args.cleanups)
    handler: Callable[[argparse.Namespace], int] = args.handler
    status = EXIT_OK
    try:
        # watching_interrupts: an error raised after a Ctrl-C or SIGTERM arrived is that interrupt, also when the
        # code it crossed lost it (a library that reports a module 'not installed' after an import was interrupted)
        with terminating_on_sigterm(), watching_interrupts(reraise=True), keeping_lost_interrupts() as lost, \
                warnings.catch_warnings():
            warnings.showwarning = _print_warning
            _resolve_solver(args)
            status = handler(args)
            stdout.flush()
            if lost.interrupt is not None:  # it arrived inside a __del__ or callback: the command ran on, but stops now
                raise lost.interrupt
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
    if thread_failures and status < 128:  # 128 + N: stopped by signal N
        # (after an interrupt they are the noise of the teardown: a library's reader thread whose pipe closed)
        for failure in thread_failures:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                name = failure.thread.name if failure.thread is not None else "?"
                print(f"rulemodels: warning: a background thread ({name}) failed: "
                      f"{failure.exc_type.__name__}: {failure.exc_value}", file=sys.stderr)
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


def _resolve_solver(args: argparse.Namespace) -> None:
    """The solver a command names (``--solver``), resolved before the command reads any data: a misspelled or
    missing solver fails at once (:class:`~solvers.SolverNotFoundError`), not after a pass over the data."""
    name = getattr(args, "solver", None)
    if name is not None:
        from rulemodels.algorithms.spec import check_solver_solves
        from solvers import get_backend

        backend = get_backend(name)
        # a solver of integer programs only (cpsat) with an algorithm that solves LPs: refused here too
        algorithms = [args.algorithm] if hasattr(args, "algorithm") else getattr(args, "algorithms", None) or ["cg"]
        if args.command == "exact":
            algorithms = ["exact"]
        for algorithm in algorithms:
            check_solver_solves(algorithm, backend)


def _collect_thread_failures(cleanups: list[Callable[[], None]]) -> list[Any]:
    """Exceptions of other threads during the command, kept instead of printed as raw tracebacks.

    A library's helper thread (Pyomo's output tee reads the solver's pipe in
    one) can fail when a Ctrl-C or SIGTERM closes what it reads; Python would
    print its traceback in the middle of the command's own message. They are
    reported after the command, one line each, unless it was interrupted.
    """
    import threading

    failures: list[Any] = []
    previous = threading.excepthook

    def keep(failure: Any) -> None:
        if failure.exc_type is not SystemExit:
            failures.append(failure)

    threading.excepthook = keep

    def restore() -> None:
        threading.excepthook = previous

    cleanups.append(restore)
    return failures


def _report_interrupt(interrupt: BaseException, args: argparse.Namespace) -> int:
    """Say how the command was stopped; its exit status (130 for Ctrl-C, 143 for SIGTERM)."""
    args.cleanups.append(_ignore_further_interrupts())
    status = exit_status(interrupt)
    print("rulemodels: interrupted" if status == EXIT_INTERRUPTED else "rulemodels: terminated (SIGTERM)", file=sys.stderr)
    return status
