"""Running the protocol's fits, one training set at a time.

A *unit* is every task that trains on the same rows with the same
binarization and solver: one (dataset, fold[, inner fold]). :func:`run_unit`
loads the data once, builds one :class:`~rulemodels.algorithms.TrainingWorkspace`
on the training rows (the binarizer is fitted on them only), binarizes the
test rows once, and learns every task's rule on that workspace, so the
binarization, the clause LPs, the set-covering starts and every LP solution
are shared by all (algorithm, R, θ) cells of the fold. Each task still gives
one record, exactly as it would on its own (:func:`run_task`); only the
counters ``n_solves``, ``n_builds`` and ``wall_time`` say how much work the
sharing saved.
"""

from __future__ import annotations

import datetime
import logging
import math
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulemodels.experiments.paper import PAPER_ALGORITHMS
from rulemodels.experiments.tasks import RECORD_FIELDS, Task, _load_task_data, split_indices
from solvers.signals import InterruptWatch, watching_interrupts

logger = logging.getLogger("rulemodels.experiments")

__all__ = ["Unit", "make_units", "run_task", "run_unit"]


@dataclass(frozen=True)
class Unit:
    """The tasks of one training set, run together by :func:`run_unit`.

    Parameters
    ----------
    tasks : tuple of Task
        The tasks, all with the same training set (:attr:`key`).
    """

    tasks: tuple[Task, ...]

    @property
    def key(self) -> tuple[Any, ...]:
        """What the unit's tasks share, which identifies the unit: their data, split, binarization and solver."""
        return _training_set(self.tasks[0])

    def __len__(self) -> int:
        return len(self.tasks)


def _training_set(task: Task) -> tuple[Any, ...]:
    """What makes two tasks share a training set: data, split, binarization and solver."""
    return (
        task.dataset, task.data_path or "", task.data_sha256 or "", task.target or "", task.positive or "",
        task.n_folds, task.fold, task.random_state,
        -1 if task.inner_fold is None else task.inner_fold, task.n_inner_folds or 0,
        task.n_thresholds, task.solver,
    )


def _cell_order(task: Task) -> tuple[Any, ...]:
    """Order inside a unit: algorithm, R, θ (a TLP relaxation is then re-used across θ)."""
    rank = PAPER_ALGORITHMS.index(task.algorithm) if task.algorithm in PAPER_ALGORITHMS else len(PAPER_ALGORITHMS)
    return (task.form, rank, task.algorithm, task.n_clauses, task.theta, task.max_iter, _none_last(task.time_limit))


def _none_last(value: float | None) -> tuple[bool, float]:
    return (value is None, 0.0 if value is None else value)


def make_units(tasks: Iterable[Task]) -> list[Unit]:
    """Group tasks by training set, in a stable order (dataset, fold, inner fold; cells by algorithm, R, θ).

    Parameters
    ----------
    tasks : iterable of Task
        The tasks of a grid (:func:`make_grid`).

    Returns
    -------
    list of Unit
        One unit per training set.
    """
    groups: dict[tuple[Any, ...], list[Task]] = {}
    for task in tasks:
        groups.setdefault(_training_set(task), []).append(task)
    return [Unit(tuple(sorted(group, key=_cell_order))) for _, group in sorted(groups.items(), key=lambda item: _sortable(item[0]))]


def _sortable(key: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple(f"{part:012d}" if isinstance(part, int) and part >= 0 else str(part) for part in key)


def _empty_record(task: Task) -> dict[str, Any]:
    record: dict[str, Any] = dict.fromkeys(RECORD_FIELDS)
    record.update(task.to_dict())
    record["key"] = task.key
    record["host"] = socket.gethostname()
    return record


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _finite(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def error_record(task: Task, exc: BaseException, solver_version: str | None = None) -> dict[str, Any]:
    """The record of a task that raised ``exc`` (outcome fields None, ``error`` set)."""
    record = _empty_record(task)
    record["error"] = f"{type(exc).__name__}: {exc}"
    record["solver_version"] = solver_version
    record["finished_at"] = _now()
    return record


def run_unit(unit: Unit | Sequence[Task]) -> list[dict[str, Any]]:
    """Fit every task of one training set on one shared workspace; one record per task.

    The data are loaded and split once (``StratifiedKFold(n_folds,
    shuffle=True, random_state)``, see :func:`~rulemodels.experiments.tasks.split_indices`),
    the workspace is built on the training rows, and each task's rule is
    learned on it; its training and test errors are measured on the binary
    training and test matrices of that workspace's binarizer.

    Any exception while loading, splitting or building the workspace gives
    every task of the unit a record with ``error`` set; an exception in one
    task's fit gives that task such a record and the others still run, so a
    failing fit never stops a sweep. ``KeyboardInterrupt`` and
    ``SystemExit`` propagate, and so does an exception that wraps a
    ``KeyboardInterrupt`` (as ``KeyboardInterrupt``): an interrupt is never a
    task's result. A missing or unavailable solver
    (:class:`~solvers.SolverNotFoundError`) is a fault of the environment, not
    of the task: it propagates too, and no record is made. So does any
    exception raised after a Ctrl-C arrived during the unit (as
    ``KeyboardInterrupt``), even one that lost the interrupt on its way
    (:func:`~solvers.signals.watching_interrupts`).

    Parameters
    ----------
    unit : Unit or sequence of Task
        The tasks of one training set.

    Returns
    -------
    list of dict
        One record per task (empty when there are no tasks).
    """
    tasks = unit.tasks if isinstance(unit, Unit) else tuple(unit)
    if not tasks:
        return []
    with watching_interrupts() as interrupts:
        return _run_tasks(tasks, interrupts)


def _run_tasks(tasks: Sequence[Task], interrupts: InterruptWatch) -> list[dict[str, Any]]:
    """:func:`run_unit`'s work; an exception during a Ctrl-C (``interrupts``) is an interrupt, not a record."""
    from rulemodels.algorithms.training import TrainingWorkspace, default_binarizer
    from solvers import SolverNotFoundError, get_backend

    first = tasks[0]
    records: list[dict[str, Any]] = []
    version = None
    try:
        X, y = _load_task_data(first)
        train, test = split_indices(first, y)
        version = get_backend(first.solver).version()
        binarizer = default_binarizer(first.n_thresholds, "quantile", round_thresholds=False)  # the paper's deciles
        with TrainingWorkspace(X.iloc[train], y[train], binarizer=binarizer, solver=first.solver) as workspace:
            test_matrix = workspace.transform(X.iloc[test])
            for task in tasks:
                records.append(_run_cell(task, workspace, y[train], test_matrix, y[test], version, interrupts))
    except Exception as exc:  # the unit's data or workspace failed: every remaining task gets the error
        interrupts.reraise(exc)
        if isinstance(exc, SolverNotFoundError):
            raise
        logger.debug("unit %s failed", first.key, exc_info=True)
        finished = {record["key"] for record in records}
        records += [error_record(task, exc, version) for task in tasks if task.key not in finished]
    return records


def _run_cell(
    task: Task, workspace: Any, y_train: np.ndarray, test_matrix: np.ndarray, y_test: np.ndarray, version: str | None,
    interrupts: InterruptWatch,
) -> dict[str, Any]:
    """One task's fit on the unit's workspace, as a record."""
    record = _empty_record(task)
    record["solver_version"] = version
    try:
        start = time.perf_counter()
        learned = workspace.learn(task.fit_spec())  # as BooleanRuleClassifier learns: one recipe, checked on the workspace
        wall_time = time.perf_counter() - start
        rule = learned.rule
        classes = workspace.classes
        train_predicted = classes[learned.evaluate_binary(workspace.A).astype(int)]
        test_predicted = classes[learned.evaluate_binary(test_matrix).astype(int)]
    except Exception as exc:  # a failing fit is a result of the sweep, not its end
        interrupts.reraise(exc)
        logger.debug("task %s failed", task.key, exc_info=True)
        return error_record(task, exc, version)
    record.update({
        "train_error": float(np.mean(train_predicted != y_train)),
        "test_error": float(np.mean(test_predicted != y_test)),
        "n_train": int(len(y_train)),
        "n_test": int(len(y_test)),
        "n_clauses_used": int(rule.n_clauses),
        "n_literals": int(rule.n_literals),
        "n_features": int(rule.n_features),
        "objective": _finite(learned.objective),
        "n_iter": int(learned.n_iter),
        "termination": str(learned.termination),
        "n_solves": int(learned.n_solves),
        "n_builds": int(learned.n_builds),
        "wall_time": wall_time,
        "rule": rule.to_json(),
        "finished_at": _now(),
    })
    return record


def run_task(task: Task) -> dict[str, Any]:
    """Fit one task on its own and return its record (a unit of one task; see :func:`run_unit`).

    Parameters
    ----------
    task : Task
        The fit to run.

    Returns
    -------
    dict
        The fields :data:`~rulemodels.experiments.RECORD_FIELDS`.
        ``wall_time`` is the seconds of the fit on the workspace (the
        binarization is done before it); ``n_clauses_used``, ``n_literals``
        and ``n_features`` count the learned rule. A task that raises gives a
        record with ``error`` set (the outcome fields are then None).
    """
    return run_unit(Unit((task,)))[0]
