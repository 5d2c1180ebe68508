"""Process helpers: probing solver binaries, and running a classic Pyomo solve under supervision.

Used by the backends that drive solvers through Pyomo's classic
``SolverFactory`` (:mod:`solvers.shell`, :mod:`solvers.generic`); only public
names of Pyomo and of the standard library are used.

Probing a binary runs it ourselves (``glpsol --version``, ``cbc -stop``, and
one short run per solver option, with no model) and reads what it prints, so
a broken executable or a misspelt option is reported with the binary's own
words before any solve.

Supervising one ``solve`` call (:func:`supervised`):

* Pyomo's ``pyomo.opt`` logger is observed for the call: that the solver
  process was started, and its return code and output when it failed. Those
  records are not passed on (the backend reports them in its result message);
  every other record is, at the level the logger had.
* A wall-clock watchdog (:class:`Watchdog`): when Pyomo starts the solver
  process, a one-shot ``SIGALRM`` timer is set for the deadline (the time
  limit plus a grace period); if it fires, :class:`WatchdogExpired` is raised
  in the main thread, where ``subprocess.run`` is waiting for the process, and
  ``subprocess.run`` kills the process and re-raises it. Waiting stays a
  blocking wait, so the watchdog costs nothing per solve. Where no timer can
  be used (not the main thread, no ``SIGALRM`` on this platform, or a timer
  already set by someone else) the caller falls back to Pyomo's ``timelimit``
  keyword: Pyomo then kills the process max(1 s, 1 %) after that limit and
  raises :class:`subprocess.TimeoutExpired` (its wait polls, which costs some
  milliseconds per solve).
* Python-level writes to stdout are captured (and logged at DEBUG) unless
  the caller asked to see the solver's output.
* A Ctrl-C (or a SIGTERM under :func:`solvers.signals.terminating_on_sigterm`)
  reaches the caller as ``KeyboardInterrupt`` (:class:`~solvers.signals.Terminated`),
  whatever the code inside turned it into; ``subprocess.run`` kills the solver
  process on the way out.
* Pyomo's temporary files go to a directory of the solve's own, removed
  when the solve ends, however it ends.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from solvers.signals import deferred_signals, watching_interrupts

logger = logging.getLogger(__name__)

DEFAULT_TIME_LIMIT = 3600.0
"""Seconds a shell solve may take when no time limit is given (the watchdog needs one)."""

WATCHDOG_GRACE = 5.0
"""Seconds a solver may run past its time limit before the watchdog kills it (at least;
10 % of the limit when that is more): time to stop, write its solution, or read a
large model file, which solvers do not count in their time limit."""

PROBE_TIMEOUT = 10.0
"""Seconds a version or option probe of a solver binary may take."""

_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)*")


def _run(command: list[str]) -> tuple[int | None, str]:
    """Run ``command`` briefly in a scratch directory; (return code or None on timeout, output)."""
    with tempfile.TemporaryDirectory(prefix="rulemodels-probe-") as scratch:
        try:
            completed = subprocess.run(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                timeout=PROBE_TIMEOUT, cwd=scratch, text=True, errors="replace",
            )
        except subprocess.TimeoutExpired as exc:
            output = exc.output if isinstance(exc.output, str) else (exc.output or b"").decode(errors="replace")
            return None, output
    return completed.returncode, completed.stdout


def last_line(text: str) -> str:
    """The last non-blank line of ``text``, stripped ('' if none)."""
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")


def _file_key(path: str) -> tuple[str, int, int]:
    """``path`` with its modification time and size, so that a replaced binary is probed again."""
    try:
        status = os.stat(path)
    except OSError:
        return path, 0, 0
    return path, status.st_mtime_ns, status.st_size


@dataclass(frozen=True)
class BinaryCheck:
    """Whether a solver binary answers its version probe as that solver."""

    ok: bool
    version: str | None
    reason: str = ""


def check_binary(path: str, solver: str, version_args: tuple[str, ...], marker: str) -> BinaryCheck:
    """Run ``path *version_args`` and check it prints ``marker`` and a version number.

    Cached per binary (path, modification time, size).
    """
    return _check_binary(_file_key(path), solver, version_args, marker)


@functools.lru_cache(maxsize=None)
def _check_binary(key: tuple[str, int, int], solver: str, version_args: tuple[str, ...], marker: str) -> BinaryCheck:
    path = key[0]
    command = " ".join([os.path.basename(path), *version_args])
    try:
        rc, output = _run([path, *version_args])
    except OSError as exc:
        return BinaryCheck(False, None, f"'{path}' could not be run ({exc}); reinstall {solver}")
    said = f" (its last output line: {last_line(output)!r})" if last_line(output) else " (it printed nothing)"
    if rc is None:
        problem = f"'{command}' did not answer within {PROBE_TIMEOUT:g} s"
    elif rc != 0:
        problem = f"'{command}' exited with return code {rc}{said}"
    else:
        version = _VERSION.search(output)
        if marker in output and version is not None:
            return BinaryCheck(True, version.group(0))
        problem = f"'{command}' did not print a {marker} version{said}"
    return BinaryCheck(False, None, f"'{path}' is not a working {solver}: {problem}")


# -- solver options, checked by the binary itself ------------------------------


@dataclass(frozen=True)
class OptionSyntax:
    """How a solver binary takes options on its command line, and how to ask it about them."""

    prefix: str
    """``--`` (glpsol) or ``-`` (cbc)."""
    flag_values: tuple[Any, ...]
    """Values that make an option a bare flag, as Pyomo writes the command line."""
    trailer: tuple[str, ...]
    """Arguments after the option that end the probe without solving anything."""
    accepted: re.Pattern[str] | None
    """Output that means the options were accepted (None: no output matching ``rejected``)."""
    rejected: re.Pattern[str] | None
    """Output lines that mean an option was rejected."""
    reserved: tuple[str, ...]
    """Option name prefixes the backend sets itself (from ``time_limit``)."""
    help: str
    """Where to find the valid options."""


GLPSOL_OPTIONS = OptionSyntax(
    prefix="--", flag_values=(None, ""), trailer=(),
    accepted=re.compile(r"^No input problem file specified", re.MULTILINE), rejected=None,
    reserved=("tmlim",), help="'glpsol --help' lists the options (a flag takes the value None or '')",
)
CBC_OPTIONS = OptionSyntax(
    prefix="-", flag_values=("",), trailer=("-stop",), accepted=None,
    rejected=re.compile(r"^.*(?:No match for|is illegal|Possible options for).*$", re.MULTILINE),
    reserved=("sec", "timem"), help="'cbc -?' lists the options, 'cbc -NAME?' explains one (an action takes the value '')",
)


def check_options(solver: str, path: str, syntax: OptionSyntax, options: Mapping[str, Any]) -> None:
    """Raise ValueError naming the first option the binary at ``path`` does not accept.

    Each option is tried alone on the binary's command line with no model
    (cached per binary, name and value).
    """
    for name, value in options.items():
        if any(str(name).lower().startswith(reserved) for reserved in syntax.reserved):
            raise ValueError(
                f"{solver} option {name!r} is set by rulemodels from the time limit: "
                "pass time_limit (the estimator's or the CLI's --time-limit) instead"
            )
        problem = _option_problem(_file_key(path), syntax, str(name), _option_value(syntax, value))
        if problem:
            raise ValueError(f"{solver} option {name!r}={value!r} is not accepted by {path}: {problem}; {syntax.help}")


def _option_value(syntax: OptionSyntax, value: Any) -> str | None:
    """The command-line text of an option value (None for a bare flag), as Pyomo writes it."""
    if value is None and None in syntax.flag_values:
        return None
    if isinstance(value, str) and value.strip() == "" and "" in syntax.flag_values:
        return None
    return str(value)


@functools.lru_cache(maxsize=None)
def _option_problem(key: tuple[str, int, int], syntax: OptionSyntax, name: str, value: str | None) -> str:
    """What the binary said against ``name value`` ('' when it accepted it)."""
    command = [key[0], syntax.prefix + name, *([] if value is None else [value]), *syntax.trailer]
    try:
        rc, output = _run(command)
    except OSError as exc:
        return f"it could not be run ({exc})"
    if rc is None:
        return f"it did not answer within {PROBE_TIMEOUT:g} s"
    if syntax.accepted is not None:
        if syntax.accepted.search(output):
            return ""
        lines = [line.strip() for line in output.splitlines() if line.strip()]
        said = [line for line in lines if not line.startswith(("GLPSOL", "Parameter(s) specified", "-"))]
        return "; ".join(said) or f"it exited with return code {rc}"
    rejected = syntax.rejected.findall(output) if syntax.rejected is not None else []
    return "; ".join(line.strip().lstrip("<").rstrip(";") for line in rejected)


# -- supervising a classic Pyomo solve -------------------------------------------


@dataclass
class Observation:
    """What Pyomo's ``pyomo.opt`` logger said during one supervised solve."""

    started: bool = False
    """The solver process was started (the model was written without error)."""
    return_code: int | None = None
    """The process's return code, when Pyomo reported a non-zero one."""
    log: str = ""
    """The solver's output, when Pyomo logged it after a failure."""
    printed: str = ""
    """What was written to Python's stdout during the solve (captured unless ``tee``)."""
    watchdog: "Watchdog | None" = None
    """The timer armed when the process starts; None when no timer can be used here
    (the caller must then pass Pyomo's ``timelimit``)."""
    no_timer: str = ""
    """Why no timer could be used ('' when one was, or none was asked for)."""


_RETURN_CODE = re.compile(r"returned non-zero return code \((-?\d+)\)")


class _PyomoLogObserver(logging.Filter):
    """Takes the records about the solver process; lets the others through at the logger's usual level."""

    def __init__(self, observation: Observation, threshold: int):
        super().__init__()
        self.observation = observation
        self.threshold = threshold

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno <= logging.DEBUG and message.startswith("Running "):
            self.observation.started = True
            if self.observation.watchdog is not None:
                self.observation.watchdog.arm()
        match = _RETURN_CODE.search(message)
        if match:
            self.observation.started = True
            self.observation.return_code = int(match.group(1))
            return False
        if message.startswith("Solver log:"):
            self.observation.log = message[len("Solver log:"):]
            return False
        if "See the solver log above" in message:
            return False
        return record.levelno >= self.threshold


@contextlib.contextmanager
def _observe_pyomo(observation: Observation) -> Iterator[None]:
    pyomo_logger = logging.getLogger("pyomo.opt")
    observer = _PyomoLogObserver(observation, pyomo_logger.getEffectiveLevel())
    level = pyomo_logger.level
    pyomo_logger.addFilter(observer)
    pyomo_logger.setLevel(logging.DEBUG)  # Pyomo logs "Running <command>" at DEBUG only
    try:
        yield
    finally:
        pyomo_logger.setLevel(level)
        pyomo_logger.removeFilter(observer)


@contextlib.contextmanager
def _capture_stdout(observation: Observation, tee: bool) -> Iterator[None]:
    if tee:
        yield
        return
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            yield
    finally:
        observation.printed = buffer.getvalue()
        if observation.printed:
            logger.debug("output captured during the solve:\n%s", observation.printed)


class WatchdogExpired(BaseException):
    """Raised in the main thread when a solver process overran its deadline (a BaseException,
    so that no ``except Exception`` on the way swallows it)."""


class Watchdog:
    """A one-shot ``SIGALRM`` timer that raises :class:`WatchdogExpired` after ``seconds``.

    :meth:`claim` installs it when it can be used here; :meth:`arm` starts the
    clock (when the solver process starts); :meth:`release` stops it and puts
    back the previous handler.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._previous: Any = None

    @staticmethod
    def unusable_reason() -> str:
        """Why no timer can be used here ('' when one can): it needs the main thread, a platform
        with ``setitimer``, and no ``SIGALRM`` handler or timer of someone else."""
        if not hasattr(signal, "setitimer"):
            return "this platform has no SIGALRM timer"
        if threading.current_thread() is not threading.main_thread():
            return "the solve does not run in the main thread"
        if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None) or signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0):
            return "SIGALRM is already used by other code"
        return ""

    def claim(self) -> None:
        self._previous = signal.signal(signal.SIGALRM, self._expire)

    def arm(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def disarm(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0.0)

    def release(self) -> None:
        self.disarm()
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)

    def _expire(self, signum: int, frame: Any) -> None:
        raise WatchdogExpired(f"no answer within {self.seconds:g} s")


@contextlib.contextmanager
def _watch(observation: Observation, deadline: float | None) -> Iterator[None]:
    if deadline is None:
        yield
        return
    observation.no_timer = Watchdog.unusable_reason()
    if observation.no_timer:
        yield
        return
    watchdog = Watchdog(deadline)
    watchdog.claim()
    observation.watchdog = watchdog
    try:
        yield
    finally:
        watchdog.release()


def watchdog_deadline(limit: float, grace: float | None = None) -> float:
    """Seconds from the start of a solver process to the watchdog's kill: the limit plus the grace."""
    return limit + (max(WATCHDOG_GRACE, 0.1 * limit) if grace is None else grace)


@contextlib.contextmanager
def supervised(*, tee: bool = False, deadline: float | None = None) -> Iterator[Observation]:
    """Supervise one classic Pyomo ``solve`` (see the module docstring); yields what was observed.

    ``deadline``: seconds the solver process may run (None: no watchdog here);
    ``observation.watchdog`` is None when no timer can be used and the caller
    must pass Pyomo's ``timelimit`` instead.
    """
    observation = Observation()
    with watching_interrupts(reraise=True), _private_tempdir(), _watch(observation, deadline), \
            _observe_pyomo(observation), _capture_stdout(observation, tee):
        yield observation


@contextlib.contextmanager
def _private_tempdir() -> Iterator[str]:
    """Pyomo's temporary files of one solve (model, solution and log files) in a directory of their own,
    removed with everything in it when the solve ends: on success, on failure and on an interrupt.

    Pyomo removes its files only when a solve succeeds, so every failed or
    interrupted solve left its LP file (tens of MB for a large model) in the
    temporary directory. ``TempfileManager.tempdir`` is the documented place
    where the files of the calling thread's solves go; the previous value is
    restored.
    """
    from pyomo.common.tempfiles import TempfileManager

    directory = tempfile.mkdtemp(prefix="rulemodels-solve-")
    previous = TempfileManager.tempdir
    TempfileManager.tempdir = directory
    try:
        yield directory
    finally:
        TempfileManager.tempdir = previous
        with deferred_signals():  # a second Ctrl-C must not leave the files behind
            shutil.rmtree(directory, ignore_errors=True)


# -- what a failed process becomes -------------------------------------------------


def process_failure(executable: str, observation: Observation, exc: Exception) -> str:
    """Why the solver process failed, in words (Pyomo raised ``ApplicationError``)."""
    rc = observation.return_code
    if rc is None:
        return f"could not run {executable}: {exc}"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "a signal"
        return (
            f"the {executable} process was killed by {name} (signal {-rc}) before it finished "
            "(out of memory, or stopped by another program); run it again, or choose another solver"
        )
    said = last_line(observation.log)
    output = f"; its last output line: {said!r}" if said else ""
    return f"{executable} exited with return code {rc}{output}"


def watchdog_message(executable: str, path: str, solver: str, seconds: float,
                     time_limit: float | None, limit: float) -> str:
    """The message of a solve whose process the watchdog killed."""
    if time_limit is None:
        why = (f"no time limit was given, so the default of {limit:g} s applied "
               "(the backend's default_time_limit)")
        advice = "or give a time limit"
    else:
        why = f"its time limit was {limit:g} s"
        advice = "or raise the time limit"
    return (
        f"{executable} was still running {round(seconds, 1):g} s after it started ({why}) and was killed; "
        f"it may be hung: check that '{path}' is a working {solver}, {advice}, or choose another solver"
    )
