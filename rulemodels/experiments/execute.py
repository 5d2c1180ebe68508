"""Running a task list: sequentially, with joblib or with dask.distributed, into a resumable results file.

The unit of work sent to a worker is one training set
(:class:`~rulemodels.experiments.cells.Unit`: every task of one dataset and
fold), which builds one workspace and fits all its tasks; the parent
process appends each of the unit's records to the results file as the unit
finishes. A killed run loses at most the units in flight, and a rerun skips
every task whose record is in the file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import pandas as pd

from rulemodels.experiments import cells
from rulemodels.experiments.cells import Unit, error_record, make_units
from rulemodels.experiments.store import _records_frame, _ResultsFile
from rulemodels.experiments.tasks import Task
from solvers.signals import (
    deferred_signals,
    find_interrupt,
    reraise_interrupt,
    terminating_on_sigterm,
    watching_interrupts,
)

logger = logging.getLogger("rulemodels.experiments")

__all__ = ["BACKENDS", "MAX_JOBS", "check_solvers", "run_experiments"]

#: The most worker processes a run starts (and never more than it has training sets).
MAX_JOBS = 256

#: The execution backends of :func:`run_experiments`.
BACKENDS: tuple[str, ...] = ("sequential", "joblib", "dask")

Records = Iterator[list[dict[str, Any]]]

#: joblib's warnings when its generator is closed early (cancelled tasks): not advice for our users.
_CANCELLED_TASKS = r".*(still being processed|executed +but not used)"


def _reraise_fault_of_run(exc: BaseException) -> None:
    """An interrupt (also wrapped) or a missing solver ends the run: it is never a task's record."""
    from solvers import SolverNotFoundError

    reraise_interrupt(exc)
    if isinstance(exc, SolverNotFoundError):
        raise exc


def check_solvers(tasks: Iterable[Task]) -> None:
    """Raise :class:`~solvers.SolverNotFoundError` unless every solver the tasks name is usable here.

    Run before a sweep starts, so a missing or broken solver stops it at once
    instead of filling the results file with failed tasks.

    Parameters
    ----------
    tasks : iterable of Task
        The tasks whose solvers to check.
    """
    from solvers import get_backend

    for name in sorted({task.solver for task in tasks}):
        get_backend(name)  # raises, saying how to install it, when it is unknown or not available


def _run_unit(unit: Unit) -> list[dict[str, Any]]:
    """The worker function (looked up at call time, so tests can replace ``cells.run_unit``).

    A SIGTERM to a worker process (systemd and batch schedulers signal every
    process of a job) raises :class:`~solvers.signals.Terminated` in it, so
    its solver process is ended and its temporary files are removed before
    it exits.
    """
    from rulemodels.utils import no_progress

    with terminating_on_sigterm(), no_progress():  # inside the sweep's bar, or in a worker on the same terminal
        return cells.run_unit(unit)


def _run_sequential(units: Sequence[Unit]) -> Records:
    for unit in units:
        yield _run_unit(unit)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT in this block, so that the processes started in it ignore it too.

    An ignored signal stays ignored across ``fork`` and ``exec``, and Python
    then installs no ``KeyboardInterrupt`` handler; SIGINT is also blocked in
    this thread meanwhile, so that the processes started here start with it
    blocked (a worker that re-enabled the handler would still not get it) and
    a Ctrl-C that reaches this process during the block waits for its end
    instead of being dropped (unless the kernel hands it to another thread of
    this process, which ignores it as before). A no-op outside the main
    thread, or when the current handler was not set from Python.
    """
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if previous is None:
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C held meanwhile is raised here


def _shut_down_workers(*, kill: bool) -> None:
    """End joblib's worker processes now, not at interpreter exit (where a Ctrl-C would print a traceback).

    joblib keeps its loky workers for the next call and otherwise stops them
    in an exit handler, after the command's last message and outside its
    signal handling. This asks loky's public ``get_reusable_executor`` for the
    executor and shuts it down (loky shuts an executor of other settings down
    itself before making a new one, which is shut down in turn). ``kill``: the
    run was interrupted or abandoned, so the workers are killed with their
    running units; else they are idle and told to exit.
    """
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor(kill_workers=kill).shutdown(wait=True, kill_workers=kill)


def _run_joblib(units: Sequence[Unit], n_jobs: int) -> Records:
    from joblib import Parallel, delayed

    # pre_dispatch keeps only a few units queued ahead of the workers, so an
    # interrupt has little to cancel; closing the generator aborts the rest.
    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered", pre_dispatch="2*n_jobs")
    results = None
    finished = False
    try:
        # The workers start in this call, and ignore SIGINT: a terminal's Ctrl-C
        # reaches every process of its foreground group, and this process stops the
        # run (then ends the workers). A worker interrupted while starting up or
        # sending a result back could only print a traceback.
        with _sigint_ignored():
            results = parallel(delayed(_run_unit)(unit) for unit in units)
        yield from results
        finished = True
    finally:
        # Stopping the pool is part of the stop: a second Ctrl-C or a SIGTERM must not cut it short (a half
        # shut-down pool is finished by joblib's exit handler, which prints the interrupt's traceback).
        with deferred_signals(), warnings.catch_warnings():
            # Closing joblib's generator early makes it warn about cancelled
            # tasks ("adjust the input task iterator"): not advice for our users.
            warnings.filterwarnings("ignore", message=_CANCELLED_TASKS, category=UserWarning)
            if results is not None:
                results.close()
            if n_jobs != 1:  # one job: joblib ran the units in this process
                _shut_down_workers(kill=not finished)


def _dask_client(scheduler: Any, n_jobs: int) -> tuple[Any, list[Any]]:
    """A distributed Client for ``scheduler``, and the objects this module must close."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError("backend='dask' needs dask.distributed: pip install 'rulemodels[dask]'") from None
    if scheduler is None:
        workers = n_jobs if n_jobs > 0 else (os.cpu_count() or 1)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
        return client, [client, cluster]
    if isinstance(scheduler, Client):
        return scheduler, []
    address = getattr(scheduler, "scheduler_address", scheduler)
    if not isinstance(address, str):
        raise TypeError(
            f"scheduler must be a dask scheduler address, a distributed.Client or a cluster, got {type(scheduler).__name__}"
        )
    client = Client(address)
    return client, [client]


def _run_dask(units: Sequence[Unit], n_jobs: int, scheduler: Any) -> Records:
    from distributed import as_completed

    client, owned = _dask_client(scheduler, n_jobs)
    pending: dict[Any, Unit] = {}
    try:
        threads = sum(client.nthreads().values()) or max(n_jobs, 1)
        window = max(2 * threads, 2)
        queue = iter(units)

        def submit(unit: Unit) -> Any:
            future = client.submit(cells.run_unit, unit, pure=False)
            pending[future] = unit
            return future

        # A bounded window of submitted units: stopping (or an interrupt)
        # leaves little to cancel, and a huge grid is not all on the scheduler.
        completed = as_completed([submit(u) for u in islice(queue, window)])
        for future in completed:
            unit = pending.pop(future)
            try:
                records = future.result()
            except Exception as exc:  # the worker died or the unit was lost: record it, go on
                _reraise_fault_of_run(exc)
                records = [error_record(task, exc) for task in unit.tasks]
            following = next(queue, None)
            if following is not None:
                completed.add(submit(following))
            yield records
    finally:
        with deferred_signals():  # the client and a local cluster's workers are stopped whatever arrives meanwhile
            if pending:
                client.cancel(list(pending))
            for resource in owned:
                resource.close()


def run_experiments(
    tasks: Iterable[Task],
    results_path: str | os.PathLike[str],
    *,
    backend: str = "joblib",
    n_jobs: int = 2,
    scheduler: Any = None,
    progress: bool = False,
    retry: bool = True,
) -> pd.DataFrame:
    """Run tasks, appending each record to a JSON Lines file as it finishes; resumable.

    Tasks are grouped by training set (dataset and fold, see
    :func:`~rulemodels.experiments.cells.make_units`); each group runs in one
    worker on one shared workspace, and its records are appended when it
    finishes.

    Parameters
    ----------
    tasks : iterable of Task
        Typically :func:`~rulemodels.experiments.make_grid`. A task whose key
        is already in the file is skipped (resume); repeated keys in
        ``tasks`` run once.
    results_path : str or path-like
        The JSONL file (one record per line,
        :data:`~rulemodels.experiments.RECORD_FIELDS`); created with its
        directory if missing. Only this process writes it, one ``write`` +
        flush + ``fsync`` per record, under an exclusive ``flock`` (a second
        runner on the same file is refused). An incomplete last line, left
        by a killed run, is removed before appending; the complete lines
        before it are never changed.
    backend : {"joblib", "dask", "sequential"}, default="joblib"
        ``"joblib"``: ``Parallel(n_jobs, return_as="generator_unordered")``
        (loky processes). ``"dask"``: ``distributed.Client(scheduler)`` and
        ``as_completed``, at most ``2 × worker threads`` training sets
        submitted at a time. ``"sequential"``: in this process.
    n_jobs : int, default=2
        joblib worker processes; for dask without ``scheduler``, the workers
        of the local cluster started (and closed) here. At most
        :data:`MAX_JOBS`, and never more than the training sets to run
        (``-1``: one per core).
    scheduler : str, distributed.Client or cluster, optional
        Dask only: a scheduler address (``"tcp://host:8786"``), a Client
        (used, not closed), or a cluster such as ``LocalCluster`` (its
        ``scheduler_address`` is used).
    progress : bool, default=False
        Show a tqdm progress bar of tasks (count, rate and ETA) on stderr.
    retry : bool, default=True
        Run the tasks that failed once more at the end of the run.

    Returns
    -------
    pandas.DataFrame
        Every record of the file (earlier runs and this one), in file order.

    Raises
    ------
    KeyboardInterrupt
        Re-raised after stopping: no new training set is started, the
        records written so far stay in the file, and a rerun resumes from
        them. joblib's workers ignore SIGINT (a terminal sends Ctrl-C to all
        of them too): this process stops the run, and joblib ends them; the
        training sets they had not handed over yet are computed again on
        resume.
    ValueError
        If ``backend`` is not one of ``BACKENDS``.
    TypeError
        If a task is not a :class:`Task`.

    Notes
    -----
    A task that raises is recorded with ``error`` set; it is run once more
    at the end of the run (``retry``) and again on every resume until it
    succeeds (the success is appended and supersedes the failure). Faults
    of the run are never recorded: a ``KeyboardInterrupt``, also wrapped in
    another exception, stops the run; a missing or unavailable solver is
    refused before any task runs (:func:`check_solvers`). With dask, the
    tasks of a unit lost with its worker are recorded as failures. A joblib worker that
    dies (e.g. killed by the OS) aborts the joblib run; the records written
    so far are kept.

    The joblib and local dask backends start worker processes, so a script
    that calls this function must do so under ``if __name__ == "__main__":``
    (as for any ``multiprocessing`` code).

    Examples
    --------
    >>> tasks = make_grid(["liver"], ["am"], [1, 2], PAPER_THETAS[:3], n_folds=2)   # doctest: +SKIP
    >>> results = run_experiments(tasks, "results/liver.jsonl", backend="joblib")   # doctest: +SKIP
    >>> table1(results)                                                          # doctest: +SKIP
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    tasks = list(tasks)
    for task in tasks:
        if not isinstance(task, Task):
            raise TypeError(f"run_experiments needs Task objects (see make_grid), got {type(task).__name__}")
    path = Path(results_path)
    with _ResultsFile(path) as results:
        unique = list({task.key: task for task in tasks}.values())
        if len(unique) < len(tasks):
            logger.warning("%d repeated tasks (same key) will run once", len(tasks) - len(unique))
        done = results.keys
        todo = [task for task in unique if task.key not in done]
        retried = len(results.failed_keys() & {task.key for task in todo})
        units = make_units(todo)
        logger.info(
            "%d tasks: %d already in %s, %d to run (%d failed before) in %d training sets with backend=%s",
            len(unique), len(unique) - len(todo), path, len(todo), retried, len(units), backend,
        )
        if units:
            check_solvers(todo)
            jobs = _worker_count(n_jobs, len(units))
            _execute(units, len(todo), results, backend=backend, n_jobs=jobs, scheduler=scheduler, progress=progress)
            failed = [task for task in todo if task.key in results.failed_keys()]
            if failed and retry:
                logger.warning("%d tasks failed; running them once more", len(failed))
                again = make_units(failed)
                _execute(again, len(failed), results, backend=backend, n_jobs=_worker_count(n_jobs, len(again)),
                         scheduler=scheduler, progress=progress)
        return _records_frame(results.records)


def _worker_count(n_jobs: int, n_units: int) -> int:
    """``n_jobs`` checked (an integer >= 1, or -1 for every core) and capped at the number of training sets."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not (n_jobs >= 1 or n_jobs == -1):
        raise ValueError(f"n_jobs must be an integer >= 1 (or -1 for every core), got {n_jobs!r}")
    if n_jobs > MAX_JOBS:
        raise ValueError(f"n_jobs={n_jobs} is more than {MAX_JOBS} worker processes: use at most one per core")
    cores = os.cpu_count() or 1
    return max(1, min(cores if n_jobs == -1 else n_jobs, n_units))


def _execute(
    units: list[Unit], n_tasks: int, results: _ResultsFile, *, backend: str, n_jobs: int, scheduler: Any, progress: bool
) -> None:
    from rulemodels.utils import progress_bar

    if backend == "sequential":
        batches = _run_sequential(units)
    elif backend == "joblib":
        batches = _run_joblib(units, n_jobs)
    else:
        batches = _run_dask(units, n_jobs, scheduler)
    done = failed = 0
    # The watch: should a pool catch a Ctrl-C in its own code and go on delivering results, the sweep still
    # stops at the next one (and says how to resume) instead of running to its end.
    with progress_bar(n_tasks, "experiments", "fit", enabled=progress) as bar, watching_interrupts() as interrupts:
        try:
            for records in batches:
                for record in records:
                    if results.append(record):
                        done += 1
                        if record.get("error") is not None:
                            failed += 1
                            logger.warning("task %s failed: %s", record["key"], record["error"])
                bar.update(len(records))
                interrupts.raise_if_seen()
            interrupts.raise_if_seen()
        except BaseException as exc:  # a Ctrl-C, also one that joblib or dask wrapped in its own error
            if find_interrupt(exc) is None:
                raise
            logger.warning(
                "interrupted after %d of %d tasks; %d records are in %s; run again to resume",
                done, n_tasks, len(results.records), results.path,
            )
            reraise_interrupt(exc)
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                with warnings.catch_warnings(), deferred_signals():  # the pool's shutdown is not cut short
                    # Closing joblib's generator early makes it warn about cancelled
                    # tasks ("adjust the input task iterator"): not advice for our users.
                    warnings.filterwarnings("ignore", message=_CANCELLED_TASKS, category=UserWarning)
                    close()
    logger.info("finished %d tasks (%d failed); %s holds %d records", done, failed, results.path, len(results.records))
