"""Supervising one classic Pyomo ``solve`` call (:func:`supervised`), for the backends on ``SolverFactory``.

* Pyomo's ``pyomo.opt`` logger is observed for the call: that the solver
  process was started, and its return code and output when it failed. Those
  records are not passed on (the backend reports them in its result message);
  every other record is, at the level the logger had.
* The wall-clock watchdog (:mod:`solvers._watchdog`) is armed when Pyomo
  starts the solver process.
* Python-level writes to stdout are captured (and logged at DEBUG) unless
  the caller asked to see the solver's output.
* A Ctrl-C (or a SIGTERM under :func:`solvers.signals.terminating_on_sigterm`)
  reaches the caller as ``KeyboardInterrupt`` (:class:`~solvers.signals.Terminated`),
  whatever the code inside turned it into; ``subprocess.run`` kills the solver
  process on the way out. A Ctrl-C that arrives while ``subprocess.Popen`` is
  still returning (the process runs, but ``subprocess.run`` never got it: seen
  on a loaded machine) leaves a process no one kills; on Linux the children
  this process has that it did not have at Pyomo's "Running" record are
  killed then (:func:`_stray_solver_processes`).
* Pyomo's temporary files go to a directory of the solve's own, removed
  when the solve ends, however it ends.

Only public names of Pyomo and of the standard library are used.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

from solvers._watchdog import Watchdog
from solvers.signals import deferred_signals, find_interrupt, watching_interrupts

logger = logging.getLogger(__name__)

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
    watchdog: Watchdog | None = None
    """The timer armed when the process starts; None when no timer can be used here
    (the caller must then pass Pyomo's ``timelimit``)."""
    no_timer: str = ""
    """Why no timer could be used ('' when one was, or none was asked for)."""
    children_before: frozenset[int] | None = None
    """This process's children when Pyomo was about to start the solver process (None: not yet, or no
    ``/proc`` to read them from)."""


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
            self.observation.children_before = _children()
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


@contextlib.contextmanager
def supervised(*, tee: bool = False, deadline: float | None = None) -> Iterator[Observation]:
    """Supervise one classic Pyomo ``solve`` (see the module docstring); yields what was observed.

    ``deadline``: seconds the solver process may run (None: no watchdog here);
    ``observation.watchdog`` is None when no timer can be used and the caller
    must pass Pyomo's ``timelimit`` instead.
    """
    observation = Observation()
    with watching_interrupts(reraise=True), _private_tempdir(), _watch(observation, deadline), \
            _observe_pyomo(observation), _capture_stdout(observation, tee), _no_strays(observation):
        yield observation


@contextlib.contextmanager
def _no_strays(observation: Observation) -> Iterator[None]:
    """On an interrupt, kill the solver process that ``subprocess.run`` did not get to kill."""
    try:
        yield
    except BaseException as exc:
        if find_interrupt(exc) is not None and observation.children_before is not None:
            with deferred_signals():  # a second Ctrl-C must not leave the process running
                for pid in _stray_solver_processes(observation.children_before):
                    _kill_and_reap(pid)
        raise


def _children() -> frozenset[int] | None:
    """The pids of this process's children (None without ``/proc``).

    Read from ``/proc/self/task/*/children`` (each thread's children) where the kernel has it, else from
    every process's parent in ``/proc/PID/stat``.
    """
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    pids: set[int] = set()
    try:
        for task in tasks:
            with open(f"/proc/self/task/{task}/children") as children:
                pids.update(int(pid) for pid in children.read().split())
        return frozenset(pids)
    except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN
        pass
    except OSError:  # a thread that ended meanwhile: read them all again from the parents
        pass
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _stat(int(entry))[1] == me:
            pids.add(int(entry))
    return frozenset(pids)


def _stat(pid: int) -> tuple[str, int]:
    """``(state, parent pid)`` of ``pid`` from ``/proc/PID/stat`` (``("", 0)`` when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()  # after the command: state, ppid, ...
    except OSError:
        return "", 0
    return fields[0], int(fields[1])


def _stray_solver_processes(before: frozenset[int]) -> list[int]:
    """Children this process did not have at Pyomo's "Running" record that still run (not zombies): the
    solver process. Only the solve's thread starts processes then in this library; a process that another
    thread of the caller's started in that moment would be taken for it."""
    now = _children() or frozenset()
    return sorted(pid for pid in now - before if _stat(pid)[0] not in ("", "Z"))


def _kill_and_reap(pid: int) -> None:
    """SIGKILL ``pid`` and collect its exit status (no zombie left), waiting at most a second."""
    logger.debug("killing the solver process %d, which the interrupted solve left running", pid)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere
            return
        if done:
            return
        time.sleep(0.01)


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
