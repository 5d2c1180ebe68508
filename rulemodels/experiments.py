"""The paper's experiment protocol as a resumable, parallel sweep.

Su, Wei, Varshney and Malioutov evaluate every algorithm by stratified 10-fold
cross-validation over a grid of datasets, numbers of clauses R and 18 sparsity
weights θ, and report the minimal mean test error over θ (their Table 1) and
accuracy/sparsity Pareto fronts (their Figures 1-3). This module runs that
protocol:

- :func:`make_grid` builds the :class:`Task` list (one fit per dataset,
  algorithm, R, θ and fold); every task has a stable string :attr:`Task.key`.
- :func:`run_task` fits one :class:`~rulemodels.BooleanRuleClassifier` on
  one training fold (binarization included) and returns a flat record; a fit
  that raises gives a record with ``error`` set instead of an exception.
- :func:`run_experiments` runs tasks sequentially, with joblib or with
  dask.distributed, appends each record to a JSON Lines file the moment it
  finishes, and on a rerun skips every key already in the file (resume).
- :func:`summarize`, :func:`table1`, :func:`table1_markdown`,
  :func:`nested_cv_selection`, :func:`pareto_front` and :func:`plot_pareto`
  turn records into the paper's tables and figures.

Data reach the workers as a *description*, never as arrays: a task names a
bundled dataset (loaded with :func:`~rulemodels.datasets.load_dataset`), or
carries the path of a CSV file with its target column, positive class and the
file's SHA-256 (see :class:`CSVData`). Each worker reads the data itself and
checks the digest, so the same task runs identically in this process, in a
joblib worker or on a dask worker, and no process holds a registry of
in-memory datasets.

All error rates in the returned DataFrames are fractions in [0, 1];
:data:`PAPER_TABLE1` keeps the paper's percentages as printed, and
:func:`table1_markdown` prints percentages.

References
----------
.. [1] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable
   Two-level Boolean Rule Learning for Classification", 2016, Section
   "Numerical Evaluation", Table 1 and Figures 1-3.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import hashlib
import json
import logging
import math
import os
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from types import MappingProxyType
from typing import Any, BinaryIO

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from rulemodels.datasets import list_datasets, load_dataset
from rulemodels.io import load_data

logger = logging.getLogger(__name__)

__all__ = [
    "BACKENDS",
    "PAPER_ALGORITHMS",
    "PAPER_BASELINES",
    "PAPER_CLAUSES",
    "PAPER_DATASETS",
    "PAPER_TABLE1",
    "PAPER_THETAS",
    "RECORD_FIELDS",
    "CSVData",
    "Task",
    "make_grid",
    "nested_cv_selection",
    "paper_grid",
    "pareto_front",
    "plot_pareto",
    "read_results",
    "run_experiments",
    "run_task",
    "summarize",
    "table1",
    "table1_markdown",
]

# --------------------------------------------------------------------------
# The paper's grid and its Table 1
# --------------------------------------------------------------------------

#: θ = A·10^B for A in {1, 2, 5} and B in {-4, ..., 1}, ascending (18 values,
#: 0.0001 ... 50). Built from decimal text so that each value is the float
#: nearest to its decimal (``5e-4`` is 0.0005, not ``5 * 10.0**-4``), which
#: keeps :attr:`Task.key` readable and stable.
PAPER_THETAS: tuple[float, ...] = tuple(sorted(float(f"{a}e{b}") for a in (1, 2, 5) for b in range(-4, 2)))

#: Datasets of Table 1, in the paper's row order ("Parkin" is ``parkinsons``).
PAPER_DATASETS: tuple[str, ...] = ("sonar", "liver", "pima", "parkinsons")

#: Algorithms of Table 1, in the paper's column order.
PAPER_ALGORITHMS: tuple[str, ...] = ("scs", "scn", "tlp", "bcd", "am")

#: Numbers of clauses R of Table 1.
PAPER_CLAUSES: tuple[int, ...] = (1, 2, 3, 4, 5)

# Table 1 of the paper (minimal average test error over θ, in %), transcribed
# from the LaTeX source: for each dataset the rows R = 1..5, each row in the
# column order SCS, SCN, TLP, BCD, AM. Bold face is dropped.
_PAPER_TABLE1_ROWS: dict[str, tuple[tuple[float, float, float, float, float], ...]] = {
    "sonar": (
        (30.3, 25.5, 25.5, 25.5, 25.5),
        (29.8, 23.6, 28.4, 25.5, 21.2),
        (26.0, 22.1, 30.8, 25.5, 24.0),
        (25.5, 23.6, 29.8, 20.2, 22.6),
        (28.4, 23.6, 29.8, 23.6, 18.3),
    ),
    "liver": (
        (42.0, 42.0, 39.7, 42.0, 42.0),
        (40.6, 40.9, 41.4, 35.7, 34.2),
        (40.3, 41.4, 40.9, 36.8, 33.6),
        (39.7, 40.6, 42.0, 37.1, 34.2),
        (39.4, 40.6, 41.7, 33.9, 33.0),
    ),
    "pima": (
        (26.6, 26.7, 25.4, 26.7, 26.7),
        (26.7, 26.2, 28.0, 24.9, 22.7),
        (27.5, 26.4, 26.7, 25.7, 23.7),
        (27.5, 27.1, 26.3, 25.7, 24.1),
        (27.5, 27.1, 25.1, 25.7, 24.9),
    ),
    "parkinsons": (
        (15.9, 15.9, 14.4, 15.9, 15.9),
        (13.8, 13.8, 14.9, 12.8, 14.4),
        (14.4, 14.4, 14.4, 12.3, 13.8),
        (14.4, 14.4, 14.9, 13.3, 14.9),
        (14.4, 14.4, 14.9, 13.3, 15.4),
    ),
}

#: The paper's Table 1, read-only: ``PAPER_TABLE1[(dataset, R, algorithm)]``
#: is the minimal mean test error over the 18 θ in **percent**, e.g.
#: ``PAPER_TABLE1[("pima", 2, "am")] == 22.7``.
PAPER_TABLE1: Mapping[tuple[str, int, str], float] = MappingProxyType({
    (dataset, r + 1, algorithm): value
    for dataset, rows in _PAPER_TABLE1_ROWS.items()
    for r, row in enumerate(rows)
    for algorithm, value in zip(PAPER_ALGORITHMS, row, strict=True)
})

#: The non-rule baselines Table 1 cites from Malioutov & Varshney (2013), in
#: percent, independent of R: decision list (``dl``), C5.0 rule set
#: (``c5.0``) and CART (``cart``).
PAPER_BASELINES: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "sonar": MappingProxyType({"dl": 38.5, "c5.0": 25.0, "cart": 28.4}),
    "liver": MappingProxyType({"dl": 45.2, "c5.0": 36.5, "cart": 37.7}),
    "pima": MappingProxyType({"dl": 31.4, "c5.0": 24.9, "cart": 28.9}),
    "parkinsons": MappingProxyType({"dl": 25.1, "c5.0": 16.4, "cart": 12.8}),
})

#: The execution backends of :func:`run_experiments`.
BACKENDS: tuple[str, ...] = ("sequential", "joblib", "dask")

# --------------------------------------------------------------------------
# Tasks
# --------------------------------------------------------------------------

_SETTINGS_DEFAULTS: dict[str, Any] = {
    "form": "dnf",
    "n_thresholds": 9,
    "solver": "highs",
    "max_iter": 100,
    "random_state": 0,
    "time_limit": None,
}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_labeled_csv(path: Path, target: str, positive: str | None) -> tuple[pd.DataFrame, np.ndarray]:
    """Features and 0/1 labels from a CSV file (the CLI's loader; the positive class is compared as text)."""
    data = load_data(str(path), target, positive)
    return data.X, data.y


@dataclass(frozen=True)
class CSVData:
    """A labelled CSV file to use as a dataset in :func:`make_grid`.

    Parameters
    ----------
    path : str or os.PathLike
        The CSV file (header row, one sample per row). Every worker reads it,
        so with dask on several machines it must be on a shared filesystem.
    target : str
        The label column; every other column is a feature.
    positive : str, optional
        The value of ``target`` (compared as text) that is the positive class
        (label 1); every other value is 0. Optional when ``target`` has
        exactly two values: the larger one in text order is positive.
    name : str, optional
        The dataset name in records and tables; default the file's stem.

    Examples
    --------
    >>> spec = CSVData("patients.csv", target="outcome", positive="yes")   # doctest: +SKIP
    >>> tasks = make_grid([spec], ["am"], [2], PAPER_THETAS)              # doctest: +SKIP
    """

    path: str | os.PathLike[str]
    target: str
    positive: str | None = None
    name: str | None = None


def _key_float(value: float | None) -> str:
    return "none" if value is None else repr(float(value))


_INTEGER_FIELDS = ("n_clauses", "fold", "n_folds", "n_thresholds", "max_iter", "random_state")
_OPTIONAL_INTEGER_FIELDS = ("inner_fold", "n_inner_folds")


@dataclass(frozen=True)
class Task:
    """One fit of the protocol: one dataset, algorithm, R, θ and fold.

    Parameters
    ----------
    dataset : str
        A bundled dataset name (:func:`~rulemodels.datasets.list_datasets`),
        or the name of the CSV dataset at ``data_path``.
    algorithm : str
        ``BooleanRuleClassifier(algorithm=...)``: ``"scs"``, ``"scn"``,
        ``"tlp"``, ``"bcd"``, ``"am"`` or ``"exact"``. Not checked here: an
        invalid value gives a record with ``error`` set.
    n_clauses : int
        R, the number of clauses.
    theta : float
        Sparsity weight θ (cost per literal relative to one error).
    fold : int
        Which fold of ``StratifiedKFold(n_folds, shuffle=True,
        random_state)`` is the test fold, ``0 <= fold < n_folds``.
    n_folds : int
        Number of cross-validation folds (the paper: 10).
    form : {"dnf", "cnf"}, default="dnf"
    n_thresholds : int, default=9
        Quantile thresholds per numeric column, fitted on the training fold.
    solver : str, default="highs"
    max_iter : int, default=100
        Iteration cap of BCD and AM (the paper: 100).
    random_state : int, default=0
        Seed of the fold shuffle (also passed to the estimator).
    time_limit : float, optional
        Seconds per fit (results then depend on machine speed).
    data_path, target, positive, data_sha256 : optional
        For a CSV dataset (see :class:`CSVData`; :func:`make_grid` fills them
        in): the file, its label column, the positive class as text, and the
        file's SHA-256, checked by the worker before fitting.
    """

    dataset: str
    algorithm: str
    n_clauses: int
    theta: float
    fold: int
    n_folds: int
    form: str = "dnf"
    n_thresholds: int = 9
    solver: str = "highs"
    max_iter: int = 100
    random_state: int = 0
    time_limit: float | None = None
    data_path: str | None = None
    target: str | None = None
    positive: str | None = None
    data_sha256: str | None = None
    inner_fold: int | None = None
    n_inner_folds: int | None = None

    def __post_init__(self) -> None:
        # Normalise numpy scalars and ints-as-floats so that equal tasks have
        # equal keys and JSON records hold plain Python values.
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for name in _INTEGER_FIELDS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise TypeError(f"Task.{name} must be an integer, got {value!r}")
            put(name, int(value))
        for name in _OPTIONAL_INTEGER_FIELDS:
            value = getattr(self, name)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, int | np.integer):
                    raise TypeError(f"Task.{name} must be an integer or None, got {value!r}")
                put(name, int(value))
        if isinstance(self.theta, bool) or not isinstance(self.theta, int | float | np.integer | np.floating):
            raise TypeError(f"Task.theta must be a number, got {self.theta!r}")
        put("theta", float(self.theta))
        if self.time_limit is not None:
            put("time_limit", float(self.time_limit))
        if self.positive is not None:
            put("positive", str(self.positive))
        if self.data_path is not None:
            put("data_path", os.fspath(self.data_path))
        for name in ("dataset", "algorithm", "form", "solver"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"Task.{name} must be a non-empty string, got {getattr(self, name)!r}")
        if self.n_folds < 2:
            raise ValueError(f"Task.n_folds must be at least 2 for cross-validation, got {self.n_folds}")
        if not 0 <= self.fold < self.n_folds:
            raise ValueError(f"Task.fold must be in [0, {self.n_folds - 1}] for n_folds={self.n_folds}, got {self.fold}")
        self._check_inner_fold()
        if self.data_path is None and self.dataset not in list_datasets():
            raise ValueError(
                f"unknown dataset {self.dataset!r}: use one of {list_datasets()}, or a CSV file through "
                "CSVData(path, target, positive) in make_grid"
            )
        if self.data_path is not None and self.target is None:
            raise ValueError(f"Task for CSV file {self.data_path!r} needs target= (the label column)")

    def _check_inner_fold(self) -> None:
        if (self.inner_fold is None) != (self.n_inner_folds is None):
            raise ValueError(
                f"Task.inner_fold and Task.n_inner_folds are set together (a nested-CV fit) or not at all, "
                f"got inner_fold={self.inner_fold}, n_inner_folds={self.n_inner_folds}"
            )
        if self.n_inner_folds is None:
            return
        if self.n_inner_folds < 2:
            raise ValueError(f"Task.n_inner_folds must be at least 2, got {self.n_inner_folds}")
        if not 0 <= self.inner_fold < self.n_inner_folds:
            raise ValueError(
                f"Task.inner_fold must be in [0, {self.n_inner_folds - 1}] for n_inner_folds={self.n_inner_folds}, "
                f"got {self.inner_fold}"
            )

    @property
    def is_inner(self) -> bool:
        """True for a fit of the inner cross-validation (see ``inner_fold``)."""
        return self.inner_fold is not None

    @property
    def key(self) -> str:
        """A stable identity for resume: every field that changes the result.

        The CSV path is left out (moving the file keeps the key); its
        content digest, target and positive class are in.

        Examples
        --------
        >>> Task("pima", "am", 2, 0.01, fold=3, n_folds=10).key
        'data=pima|form=dnf|algorithm=am|R=2|theta=0.01|fold=3/10|seed=0|thresholds=9|solver=highs|max_iter=100|time_limit=none'

        A nested-CV fit adds its inner fold at the end (so the keys of
        outer fits did not change when nested CV was added):

        >>> Task("pima", "am", 2, 0.01, fold=3, n_folds=10, inner_fold=1, n_inner_folds=3).key[-10:]
        '|inner=1/3'
        """
        data = self.dataset
        if self.data_path is not None:
            digest = (self.data_sha256 or "unhashed")[:16]
            data = f"{self.dataset}@{digest}:{self.target}={self.positive if self.positive is not None else 'auto'}"
        parts = [
            f"data={data}",
            f"form={self.form}",
            f"algorithm={self.algorithm}",
            f"R={self.n_clauses}",
            f"theta={_key_float(self.theta)}",
            f"fold={self.fold}/{self.n_folds}",
            f"seed={self.random_state}",
            f"thresholds={self.n_thresholds}",
            f"solver={self.solver}",
            f"max_iter={self.max_iter}",
            f"time_limit={_key_float(self.time_limit)}",
        ]
        if self.is_inner:
            parts.append(f"inner={self.inner_fold}/{self.n_inner_folds}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The task's fields as a plain dict (the first fields of its record)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Task:
        """Rebuild the task of a result record (extra record fields are ignored)."""
        names = [f.name for f in dataclasses.fields(cls)]
        values = {}
        for name in names:
            if name in record:
                value = record[name]
                # Records read back through pandas hold NaN where JSON had null.
                if isinstance(value, float | np.floating):
                    if math.isnan(value) and name != "theta":
                        value = None
                    elif name in (*_INTEGER_FIELDS, *_OPTIONAL_INTEGER_FIELDS) and float(value).is_integer():
                        value = int(value)
                values[name] = value
        return cls(**values)


_TASK_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Task))

#: Fields of every result record, in file order: the :class:`Task` fields,
#: ``key``, then the outcome of the fit. Error rates are fractions. ``rule``
#: is the learned rule's JSON (:meth:`~rulemodels.Rule.to_json`). When the
#: fit raised, ``error`` holds ``"ExceptionType: message"`` and the outcome
#: fields are null.
RECORD_FIELDS: tuple[str, ...] = (
    *_TASK_FIELDS,
    "key",
    "train_error",
    "test_error",
    "n_train",
    "n_test",
    "n_clauses_used",
    "n_literals",
    "n_features",
    "objective",
    "n_iter",
    "termination",
    "n_solves",
    "n_builds",
    "wall_time",
    "solver_version",
    "rule",
    "error",
    "host",
    "finished_at",
)


def _resolve_dataset(dataset: str | CSVData) -> dict[str, Any]:
    """Task fields describing one dataset; a CSV file is validated and hashed once, here."""
    if isinstance(dataset, CSVData):
        path = Path(dataset.path)
        _read_labeled_csv(path, dataset.target, None if dataset.positive is None else str(dataset.positive))
        return {
            "dataset": dataset.name or path.stem,
            "data_path": str(path.resolve()),
            "target": dataset.target,
            "positive": None if dataset.positive is None else str(dataset.positive),
            "data_sha256": _sha256(path),
        }
    if not isinstance(dataset, str):
        raise TypeError(f"datasets must be bundled dataset names or CSVData, got {type(dataset).__name__}")
    if dataset not in list_datasets():
        raise ValueError(f"unknown dataset {dataset!r}: use one of {list_datasets()}, or CSVData(path, target, positive)")
    return {"dataset": dataset}


def _unique(values: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


def make_grid(
    datasets: Iterable[str | CSVData],
    algorithms: Iterable[str],
    clauses: Iterable[int],
    thetas: Iterable[float] = PAPER_THETAS,
    n_folds: int = 10,
    *,
    inner_folds: int = 0,
    **settings: Any,
) -> list[Task]:
    """The full factorial grid of tasks: dataset × algorithm × R × θ × fold.

    With ``inner_folds=J`` the grid also holds the fits of a nested
    cross-validation: for every outer fold, J inner fits per (algorithm, R,
    θ) on the outer training fold only (see :attr:`Task.inner_fold`), from
    which :func:`nested_cv_selection` chooses θ.

    Parameters
    ----------
    datasets : iterable of str or CSVData
        Bundled dataset names, or CSV files described by :class:`CSVData`
        (hashed here, so that a changed file is detected by the workers).
    algorithms : iterable of str
    clauses : iterable of int
        Numbers of clauses R.
    thetas : iterable of float, default=PAPER_THETAS
    n_folds : int, default=10
    inner_folds : int, default=0
        Inner folds J of the nested cross-validation; 0 adds no inner fits.
        The grid then has ``1 + J`` times as many tasks (the inner fits are
        on about ``(J - 1) / J`` of the training data).
    **settings
        Any of ``form``, ``n_thresholds``, ``solver``, ``max_iter``,
        ``random_state``, ``time_limit`` (see :class:`Task`), the same for
        every task.

    Returns
    -------
    list of Task
        In nested order dataset, algorithm, R, θ, fold (the inner fits of
        a fold right after it); duplicate values in an argument are dropped.

    Raises
    ------
    TypeError
        On an unknown setting.
    ValueError
        On an unknown dataset name, an unreadable CSV dataset, or invalid
        fold numbers.

    Examples
    --------
    >>> grid = make_grid(["liver"], ["am", "bcd"], [1, 2], [0.01, 0.1], n_folds=10)
    >>> len(grid)
    80
    >>> len(make_grid(["liver"], ["am", "bcd"], [1, 2], [0.01, 0.1], n_folds=10, inner_folds=3))
    320
    """
    unknown = sorted(set(settings) - set(_SETTINGS_DEFAULTS))
    if unknown:
        raise TypeError(f"make_grid got unknown settings {unknown}; the settings are {sorted(_SETTINGS_DEFAULTS)}")
    options = {**_SETTINGS_DEFAULTS, **settings}
    data = [_resolve_dataset(d) for d in _unique(datasets)]
    algorithms = _unique(algorithms)
    clauses = _unique(int(r) for r in clauses)
    thetas = _unique(float(t) for t in thetas)
    if isinstance(inner_folds, bool) or not isinstance(inner_folds, int | np.integer) or inner_folds < 0 or inner_folds == 1:
        raise ValueError(f"inner_folds must be 0 (no nested CV) or an integer >= 2, got {inner_folds!r}")
    inner: list[dict[str, int | None]] = [{}]
    inner += [{"inner_fold": j, "n_inner_folds": int(inner_folds)} for j in range(int(inner_folds))]
    return [
        Task(algorithm=algorithm, n_clauses=r, theta=theta, fold=fold, n_folds=n_folds, **spec, **options, **split)
        for spec in data
        for algorithm in algorithms
        for r in clauses
        for theta in thetas
        for fold in range(n_folds)
        for split in inner
    ]


def paper_grid(n_folds: int = 10, **settings: Any) -> list[Task]:
    """The grid of the paper's Table 1: 4 datasets × 5 algorithms × R 1..5 × 18 θ × 10 folds (18,000 fits)."""
    return make_grid(PAPER_DATASETS, PAPER_ALGORITHMS, PAPER_CLAUSES, PAPER_THETAS, n_folds, **settings)


# --------------------------------------------------------------------------
# One task
# --------------------------------------------------------------------------


def _load_task_data(task: Task) -> tuple[pd.DataFrame, np.ndarray]:
    if task.data_path is None:
        X, y = load_dataset(task.dataset)
        return X, y.to_numpy().astype(int)
    path = Path(task.data_path)
    if task.data_sha256 is not None and path.is_file():
        digest = _sha256(path)
        if digest != task.data_sha256:
            raise ValueError(
                f"data file '{path}' changed since the grid was made (sha256 {digest[:12]}..., expected "
                f"{task.data_sha256[:12]}...): make the grid again, and use a new results file"
            )
    return _read_labeled_csv(path, str(task.target), task.positive)


def _empty_record(task: Task) -> dict[str, Any]:
    record: dict[str, Any] = dict.fromkeys(RECORD_FIELDS)
    record.update(task.to_dict())
    record["key"] = task.key
    record["host"] = socket.gethostname()
    return record


def _finite(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _error_record(task: Task, exc: BaseException) -> dict[str, Any]:
    record = _empty_record(task)
    record["error"] = f"{type(exc).__name__}: {exc}"
    record["finished_at"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


def run_task(task: Task) -> dict[str, Any]:
    """Fit one task and return its result record.

    Loads the data, splits it with ``StratifiedKFold(n_folds, shuffle=True,
    random_state)``, fits :class:`~rulemodels.BooleanRuleClassifier` on the
    training fold (so the binarization thresholds come from the training
    fold only), and measures the training and test error. An inner task
    (:attr:`Task.inner_fold`) splits the training fold again and reports
    the error on its inner fold as ``test_error``.

    Parameters
    ----------
    task : Task

    Returns
    -------
    dict
        The fields :data:`RECORD_FIELDS`. ``wall_time`` is the seconds of
        ``fit``; ``n_clauses_used``, ``n_literals`` and ``n_features`` count
        the learned rule. Any exception raised while loading, splitting or
        fitting is caught and reported in ``error`` (the outcome fields are
        then None), so one failing task never stops a sweep.
        ``KeyboardInterrupt`` and ``SystemExit`` propagate.
    """
    # Imported here so that importing this module stays light (the CLI reads
    # and summarises results without loading Pyomo).
    from sklearn.model_selection import StratifiedKFold

    from rulemodels.estimator import BooleanRuleClassifier
    from solvers import get_backend

    record = _empty_record(task)
    try:
        X, y = _load_task_data(task)
        splitter = StratifiedKFold(n_splits=task.n_folds, shuffle=True, random_state=task.random_state)
        train, test = next(islice(splitter.split(X, y), task.fold, None))
        if task.is_inner:
            # Nested CV: split the outer training fold again; the outer test fold stays unseen.
            inner = StratifiedKFold(n_splits=int(task.n_inner_folds), shuffle=True, random_state=task.random_state)
            inner_train, inner_test = next(islice(inner.split(train, y[train]), task.inner_fold, None))
            train, test = train[inner_train], train[inner_test]
        X_train, y_train = X.iloc[train], y[train]
        X_test, y_test = X.iloc[test], y[test]
        record["solver_version"] = get_backend(task.solver).version()
        classifier = BooleanRuleClassifier(
            form=task.form, n_clauses=task.n_clauses, theta=task.theta, algorithm=task.algorithm,
            n_thresholds=task.n_thresholds, max_iter=task.max_iter, solver=task.solver,
            time_limit=task.time_limit, random_state=task.random_state,
        )
        start = time.perf_counter()
        with warnings.catch_warnings():
            # A fit stopped by the time limit is recorded in "termination"; a warning per task is noise.
            warnings.simplefilter("ignore", ConvergenceWarning)
            classifier.fit(X_train, y_train)
        wall_time = time.perf_counter() - start
        rule = classifier.rule_
        record.update({
            "train_error": float(np.mean(classifier.predict(X_train) != y_train)),
            "test_error": float(np.mean(classifier.predict(X_test) != y_test)),
            "n_train": int(len(train)),
            "n_test": int(len(test)),
            "n_clauses_used": int(rule.n_clauses),
            "n_literals": int(rule.n_literals),
            "n_features": int(rule.n_features),
            "objective": _finite(classifier.objective_),
            "n_iter": int(classifier.n_iter_),
            "termination": str(classifier.termination_),
            "n_solves": int(classifier.n_solves_),
            "n_builds": int(classifier.n_builds_),
            "wall_time": wall_time,
            "rule": rule.to_json(),
        })
    except Exception as exc:  # a failing fit is a result of the sweep, not its end
        logger.debug("task %s failed", task.key, exc_info=True)
        failed = _error_record(task, exc)
        failed["solver_version"] = record["solver_version"]
        return failed
    record["finished_at"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


# --------------------------------------------------------------------------
# The results file
# --------------------------------------------------------------------------


def _parse_results(data: bytes, path: Path) -> tuple[list[dict[str, Any]], int, bool]:
    """Records of a JSONL file's bytes.

    Returns the records (first occurrence of each key), the byte length of
    the valid prefix (everything after it is an incomplete last line), and
    whether the valid prefix lacks a final newline.
    """
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    lines = data.split(b"\n")
    # After the final "\n" comes b"" (complete file) or an unterminated line.
    offset = 0
    for number, line in enumerate(lines, start=1):
        is_last = number == len(lines)
        end = offset + len(line) + (0 if is_last else 1)
        if not line.strip():
            offset = end
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("key"), str):
                raise ValueError("not a record with a string 'key'")
        except ValueError as exc:
            rest_is_blank = not b"".join(lines[number:]).strip()
            if rest_is_blank:
                # The last line was cut by a kill mid-write: ignore it.
                logger.warning("%s: ignoring an incomplete last line (%d bytes), left by an interrupted run", path, len(line))
                return records, offset, False
            raise ValueError(
                f"{path}, line {number}: not a JSON result record ({exc}); only the last line of a results "
                "file may be incomplete: delete or repair that line, then resume"
            ) from None
        if record["key"] in seen:
            logger.warning("%s, line %d: duplicate key %s ignored (the first record is kept)", path, number, record["key"])
        else:
            seen.add(record["key"])
            records.append(record)
        offset = end
    return records, offset, bool(data[:offset]) and not data[:offset].endswith(b"\n")


def read_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results file written by :func:`run_experiments`, without changing it.

    An incomplete last line (from a killed run) is ignored; any other line
    that is not a JSON record raises ``ValueError`` naming the line.

    Parameters
    ----------
    path : str or path-like
        A JSONL file, or a gzip-compressed one (``.gz``). When ``path`` does
        not exist but ``path + ".gz"`` does, that is read (the committed
        ``docs/results/results.jsonl.gz``).

    Returns
    -------
    pandas.DataFrame
        One row per key, in file order, with at least the columns
        :data:`RECORD_FIELDS`.
    """
    file = Path(path)
    packed = file.with_name(file.name + ".gz")
    if not file.exists() and packed.is_file():
        file = packed
    if not file.exists():
        raise FileNotFoundError(f"results file '{file}' not found")
    data = file.read_bytes()
    if file.suffix == ".gz":
        import gzip

        data = gzip.decompress(data)
    records, _, _ = _parse_results(data, file)
    return _records_frame(records)


def _records_frame(records: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(list(records))
    for column in RECORD_FIELDS:
        if column not in frame.columns:
            frame[column] = None
    extra = [c for c in frame.columns if c not in RECORD_FIELDS]
    return frame[[*RECORD_FIELDS, *extra]]


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class _ResultsFile:
    """The JSONL results file, held open and locked by one writer (the parent process)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # "a+b": reads anywhere, every write appends, truncate() is allowed.
        self._handle: BinaryIO = open(path, "a+b")  # noqa: SIM115 (closed in close())
        try:
            self._lock()
            self._handle.seek(0)
            records, valid, needs_newline = _parse_results(self._handle.read(), path)
            if valid < self._handle.tell():
                self._handle.truncate(valid)
            if needs_newline:
                self._write(b"\n")
        except BaseException:
            self._handle.close()
            raise
        self.records: list[dict[str, Any]] = records
        self.keys: set[str] = {r["key"] for r in records}

    def _lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on Unix: no protection against a second writer
            return
        try:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(
                f"results file '{self.path}' is being written by another run_experiments: wait for it to finish, "
                "or use another results file"
            ) from None

    def _write(self, data: bytes) -> None:
        self._handle.write(data)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def append(self, record: dict[str, Any]) -> bool:
        """Write one record as one line; False (and nothing written) if its key is already there."""
        if record["key"] in self.keys:
            logger.warning("result for %s is already in %s; the new one is dropped", record["key"], self.path)
            return False
        plain = {k: _plain(v) for k, v in record.items()}
        self._write((json.dumps(plain, allow_nan=False) + "\n").encode("utf-8"))
        self.keys.add(record["key"])
        self.records.append(plain)
        return True

    def close(self) -> None:
        self._handle.close()  # also releases the lock

    def __enter__(self) -> _ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# --------------------------------------------------------------------------
# Execution backends: generators of records, in completion order
# --------------------------------------------------------------------------


def _run_sequential(tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
    for task in tasks:
        yield run_task(task)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT in this block, so that the processes started in it ignore it too.

    An ignored signal stays ignored across ``fork`` and ``exec``, and Python
    then installs no ``KeyboardInterrupt`` handler. A no-op outside the main
    thread, or when the current handler was not set from Python.
    """
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if previous is None:
        yield
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_joblib(tasks: Sequence[Task], n_jobs: int) -> Iterator[dict[str, Any]]:
    from joblib import Parallel, delayed

    # pre_dispatch keeps only a few tasks queued ahead of the workers, so an
    # interrupt has little to cancel; closing the generator aborts the rest.
    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered", pre_dispatch="2*n_jobs")
    # The workers start in this call, and ignore SIGINT: a terminal's Ctrl-C
    # reaches every process of its foreground group, and this process stops the
    # run (joblib then ends the workers). A worker interrupted while starting up
    # or sending a result back could only print a traceback.
    with _sigint_ignored():
        results = parallel(delayed(run_task)(task) for task in tasks)
    try:
        yield from results
    finally:
        results.close()


def _dask_client(scheduler: Any, n_jobs: int) -> tuple[Any, list[Any]]:
    """A distributed Client for ``scheduler``, and the objects this module must close."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError("backend='dask' needs dask.distributed: pip install 'dask[distributed]' (or rulemodels[dask])") from None
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


def _run_dask(tasks: Sequence[Task], n_jobs: int, scheduler: Any) -> Iterator[dict[str, Any]]:
    from distributed import as_completed

    client, owned = _dask_client(scheduler, n_jobs)
    pending: dict[Any, Task] = {}
    try:
        threads = sum(client.nthreads().values()) or max(n_jobs, 1)
        window = max(2 * threads, 2)
        queue = iter(tasks)

        def submit(task: Task) -> Any:
            future = client.submit(run_task, task, pure=False)
            pending[future] = task
            return future

        # A bounded window of submitted tasks: stopping (or an interrupt)
        # leaves little to cancel, and a huge grid is not all on the scheduler.
        completed = as_completed([submit(t) for t in islice(queue, window)])
        for future in completed:
            task = pending.pop(future)
            try:
                record = future.result()
            except Exception as exc:  # the worker died or the task was lost: record it, go on
                record = _error_record(task, exc)
            following = next(queue, None)
            if following is not None:
                completed.add(submit(following))
            yield record
    finally:
        if pending:
            client.cancel(list(pending))
        for resource in owned:
            resource.close()


# --------------------------------------------------------------------------
# The runner
# --------------------------------------------------------------------------


def run_experiments(
    tasks: Iterable[Task],
    results_path: str | os.PathLike[str],
    *,
    backend: str = "joblib",
    n_jobs: int = 2,
    scheduler: Any = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Run tasks, appending each record to a JSON Lines file as it finishes; resumable.

    Parameters
    ----------
    tasks : iterable of Task
        Typically :func:`make_grid`. A task whose key is already in the file
        is skipped (resume); repeated keys in ``tasks`` run once.
    results_path : str or path-like
        The JSONL file (one record per line, :data:`RECORD_FIELDS`); created
        with its directory if missing. Only this process writes it, one
        ``write`` + flush + ``fsync`` per record, under an exclusive
        ``flock`` (a second runner on the same file is refused). An
        incomplete last line, left by a killed run, is removed before
        appending; the complete lines before it are never changed.
    backend : {"joblib", "dask", "sequential"}, default="joblib"
        ``"joblib"``: ``Parallel(n_jobs, return_as="generator_unordered")``
        (loky processes). ``"dask"``: ``distributed.Client(scheduler)`` and
        ``as_completed``, at most ``2 × worker threads`` tasks submitted at
        a time. ``"sequential"``: in this process.
    n_jobs : int, default=2
        joblib worker processes; for dask without ``scheduler``, the workers
        of the local cluster started (and closed) here.
    scheduler : str, distributed.Client or cluster, optional
        Dask only: a scheduler address (``"tcp://host:8786"``), a Client
        (used, not closed), or a cluster such as ``LocalCluster`` (its
        ``scheduler_address`` is used).
    progress : bool, default=False
        Show a tqdm progress bar on stderr.

    Returns
    -------
    pandas.DataFrame
        Every record of the file (earlier runs and this one), in file order.

    Raises
    ------
    KeyboardInterrupt
        Re-raised after stopping: no new task is started, the records
        written so far stay in the file, and a rerun resumes from them.
        joblib's workers ignore SIGINT (a terminal sends Ctrl-C to all of
        them too): this process stops the run, and joblib ends them; the
        results they had not handed over yet are computed again on resume.

    Notes
    -----
    A task that raises is recorded with ``error`` set (and is not retried on
    resume: delete its line to retry it). With dask, a task lost with its
    worker is recorded the same way. A joblib worker that dies (e.g. killed
    by the OS) aborts the joblib run; the records written so far are kept.

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
        todo = sorted((task for task in unique if task.key not in results.keys), key=_locality)
        logger.info(
            "%d tasks: %d already in %s, %d to run with backend=%s",
            len(unique), len(unique) - len(todo), path, len(todo), backend,
        )
        if todo:
            _execute(todo, results, backend=backend, n_jobs=n_jobs, scheduler=scheduler, progress=progress)
        return _records_frame(results.records)


def _locality(task: Task) -> tuple[Any, ...]:
    """Run order: tasks on the same training fold together, then by algorithm and R.

    A worker process re-uses the models built for a training fold
    (:mod:`rulemodels.algorithms.pool`), so this order saves most rebuilds;
    results do not depend on it.
    """
    inner = -1 if task.inner_fold is None else task.inner_fold
    return (task.dataset, task.data_sha256 or "", task.fold, inner, task.n_thresholds, task.algorithm, task.n_clauses, task.theta)


def _execute(todo: list[Task], results: _ResultsFile, *, backend: str, n_jobs: int, scheduler: Any, progress: bool) -> None:
    from tqdm import tqdm

    if backend == "sequential":
        records = _run_sequential(todo)
    elif backend == "joblib":
        records = _run_joblib(todo, n_jobs)
    else:
        records = _run_dask(todo, n_jobs, scheduler)
    done = failed = 0
    with tqdm(total=len(todo), disable=not progress, file=sys.stderr, unit="fit", desc="experiments") as bar:
        try:
            for record in records:
                if results.append(record):
                    done += 1
                    if record.get("error") is not None:
                        failed += 1
                        logger.warning("task %s failed: %s", record["key"], record["error"])
                bar.update()
        except KeyboardInterrupt:
            logger.warning(
                "interrupted after %d of %d tasks; %d records are in %s; run again to resume",
                done, len(todo), len(results.records), results.path,
            )
            raise
        finally:
            close = getattr(records, "close", None)
            if close is not None:
                with warnings.catch_warnings():
                    # Closing joblib's generator early makes it warn about cancelled
                    # tasks ("adjust the input task iterator"): not advice for our users.
                    warnings.filterwarnings(
                        "ignore", message=r".*(still being processed|executed +but not used)", category=UserWarning
                    )
                    close()
    logger.info("finished %d tasks (%d failed); %s holds %d records", done, failed, results.path, len(results.records))


# --------------------------------------------------------------------------
# Analysis
# --------------------------------------------------------------------------

_CELL = ["dataset", "algorithm", "n_clauses", "theta"]
# Fields that must not vary within one dataset's results for a summary to be
# meaningful (a sweep compares algorithms, R and θ; nothing else).
_SETTING_COLUMNS = ["form", "n_folds", "n_thresholds", "solver", "max_iter", "random_state", "time_limit", "data_sha256"]


def _as_results(results: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results must be a DataFrame (from run_experiments or read_results), got {type(results).__name__}")
    missing = [c for c in (*_CELL, "fold", "n_folds", "test_error", "train_error", "n_literals", "error") if c not in results.columns]
    if missing:
        raise ValueError(f"results lack the columns {missing}: pass the DataFrame of run_experiments or read_results")
    return results


def _check_settings(results: pd.DataFrame) -> None:
    for dataset, rows in results.groupby("dataset", sort=True):
        for column in _SETTING_COLUMNS:
            if column in rows.columns and rows[column].nunique(dropna=False) > 1:
                values = sorted(map(str, rows[column].unique()))
                raise ValueError(
                    f"results for dataset {dataset!r} mix {column} values {values}: summarize one setting at a "
                    f"time, e.g. results[results[{column!r}] == ...]"
                )


def _dataset_order(names: Iterable[str]) -> list[str]:
    names = set(names)
    return [d for d in PAPER_DATASETS if d in names] + sorted(names - set(PAPER_DATASETS))


def _algorithm_order(names: Iterable[str]) -> list[str]:
    names = set(names)
    return [a for a in PAPER_ALGORITHMS if a in names] + sorted(names - set(PAPER_ALGORITHMS))


def _sort_cells(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    rank = {
        "dataset": {d: i for i, d in enumerate(_dataset_order(frame["dataset"]))},
        "algorithm": {a: i for i, a in enumerate(_algorithm_order(frame["algorithm"]))},
    }

    def key(column: pd.Series) -> pd.Series:
        return column.map(rank[column.name]) if column.name in rank else column

    return frame.sort_values(list(columns), key=key, kind="stable").reset_index(drop=True)


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Mean errors and complexity over folds, per (dataset, algorithm, R, θ).

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`. Within
        a dataset, the settings (form, folds, thresholds, solver, max_iter,
        seed, time limit, data) must not vary.

    Returns
    -------
    pandas.DataFrame
        One row per cell with ``dataset, algorithm, n_clauses, theta``,
        ``test_error_mean``, ``test_error_std`` (sample std over folds),
        ``train_error_mean``, ``n_literals_mean``, ``n_features_mean``,
        ``n_folds_done`` (folds fitted without error), ``n_errors`` (failed
        folds), ``n_folds`` (folds of the protocol) and ``complete``
        (``n_folds_done == n_folds``). Errors are fractions. Failed folds
        are left out of the means.

    Raises
    ------
    ValueError
        If the settings vary within a dataset, or columns are missing.
    """
    results = _as_results(results)
    results = results[~_inner_mask(results)]  # inner (nested-CV) fits are not the protocol's folds
    columns = [*_CELL, "test_error_mean", "test_error_std", "train_error_mean", "n_literals_mean",
               "n_features_mean", "n_folds_done", "n_errors", "n_folds", "complete"]
    if results.empty:
        return pd.DataFrame(columns=columns)
    _check_settings(results)
    failed = results["error"].notna()
    ok = results[~failed].copy()
    for column in ("test_error", "train_error", "n_literals", "n_features"):
        ok[column] = pd.to_numeric(ok[column])
    summary = ok.groupby(_CELL, sort=False).agg(
        test_error_mean=("test_error", "mean"),
        test_error_std=("test_error", "std"),
        train_error_mean=("train_error", "mean"),
        n_literals_mean=("n_literals", "mean"),
        n_features_mean=("n_features", "mean"),
        n_folds_done=("fold", "nunique"),
    )
    errors = results[failed].groupby(_CELL, sort=False).size().rename("n_errors")
    folds = results.groupby(_CELL, sort=False)["n_folds"].first()
    summary = summary.join(errors, how="outer").join(folds, how="outer").reset_index()
    summary["n_folds_done"] = summary["n_folds_done"].fillna(0).astype(int)
    summary["n_errors"] = summary["n_errors"].fillna(0).astype(int)
    summary["n_folds"] = summary["n_folds"].astype(int)
    summary["n_clauses"] = summary["n_clauses"].astype(int)
    summary["theta"] = summary["theta"].astype(float)
    summary["complete"] = summary["n_folds_done"] == summary["n_folds"]
    return _sort_cells(summary[columns], ["dataset", "algorithm", "n_clauses", "theta"])


def _complete_cells(summary: pd.DataFrame, require_complete: bool) -> pd.DataFrame:
    usable = summary[summary["n_folds_done"] > 0]
    if require_complete:
        incomplete = int((~usable["complete"]).sum())
        if incomplete:
            logger.warning("%d (dataset, algorithm, R, θ) cells lack folds and are left out", incomplete)
        usable = usable[usable["complete"]]
    return usable


def _paper_fraction(dataset: str, n_clauses: int, algorithm: str) -> float:
    value = PAPER_TABLE1.get((dataset, int(n_clauses), algorithm))
    return float("nan") if value is None else value / 100.0


def table1(results: pd.DataFrame, *, require_complete: bool = True) -> pd.DataFrame:
    """The paper's Table 1 from our records: minimal mean test error over θ.

    For each (dataset, R, algorithm) the θ whose mean test error over the
    folds is smallest (ties: fewer mean literals, then the larger θ). Like
    the paper, this selects θ on the test folds, so it is optimistic; see
    :func:`nested_cv_selection` for an honest counterpart.

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`.
    require_complete : bool, default=True
        Consider only θ with every fold fitted without error.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, n_clauses, algorithm, test_error`` (the minimal
        mean test error), ``theta`` (where it is reached), ``n_literals`` and
        ``train_error`` (means at that θ), ``n_thetas`` (θ values compared)
        and ``paper`` (the paper's number as a fraction, NaN where the paper
        has none). Rows in the paper's order.
    """
    columns = ["dataset", "n_clauses", "algorithm", "test_error", "theta", "n_literals", "train_error", "n_thetas", "paper"]
    summary = summarize(results)
    if summary.empty:
        return pd.DataFrame(columns=columns)
    summary = _complete_cells(summary, require_complete)
    rows = []
    for (dataset, n_clauses, algorithm), cells in summary.groupby(["dataset", "n_clauses", "algorithm"], sort=False):
        ranked = cells.assign(_neg_theta=-cells["theta"]).sort_values(
            ["test_error_mean", "n_literals_mean", "_neg_theta"], kind="stable",
        )
        best = ranked.iloc[0]
        rows.append({
            "dataset": dataset, "n_clauses": int(n_clauses), "algorithm": algorithm,
            "test_error": float(best["test_error_mean"]), "theta": float(best["theta"]),
            "n_literals": float(best["n_literals_mean"]), "train_error": float(best["train_error_mean"]),
            "n_thetas": len(cells), "paper": _paper_fraction(dataset, n_clauses, algorithm),
        })
    if not rows:
        return pd.DataFrame(columns=columns)
    return _sort_cells(pd.DataFrame(rows, columns=columns), ["dataset", "n_clauses", "algorithm"])


def table1_markdown(table: pd.DataFrame, *, value: str = "test_error") -> str:
    """Table 1 in the paper's layout, as a Markdown table.

    Rows are dataset × R, columns the algorithms (the paper's order first);
    each cell reads ``ours (paper)`` in percent with one decimal, ``ours``
    alone where the paper has no number, and ``–`` where we have none.

    Parameters
    ----------
    table : pandas.DataFrame
        The output of :func:`table1` (or of :func:`nested_cv_selection`).
    value : str, default="test_error"
        The column printed as "ours" (``"nested_test_error"`` for the
        nested selection).

    Returns
    -------
    str
    """
    if value not in table.columns:
        raise ValueError(f"table has no column {value!r}; its columns are {list(table.columns)}")
    algorithms = _algorithm_order(table["algorithm"]) if len(table) else list(PAPER_ALGORITHMS)
    lines = [
        "| dataset | R | " + " | ".join(a.upper() for a in algorithms) + " |",
        "|---|---|" + "---|" * len(algorithms),
    ]
    cells = {(r.dataset, int(r.n_clauses), r.algorithm): r for r in table.itertuples(index=False)}
    datasets = _dataset_order(table["dataset"]) if len(table) else []
    for dataset in datasets:
        for n_clauses in sorted({int(r) for r in table.loc[table["dataset"] == dataset, "n_clauses"]}):
            entries = []
            for algorithm in algorithms:
                row = cells.get((dataset, n_clauses, algorithm))
                paper = PAPER_TABLE1.get((dataset, n_clauses, algorithm))
                ours = None if row is None else getattr(row, value)
                text = "–" if ours is None or pd.isna(ours) else f"{100 * float(ours):.1f}"
                if paper is not None:
                    text += f" ({paper:.1f})"
                entries.append(text)
            lines.append(f"| {dataset} | {n_clauses} | " + " | ".join(entries) + " |")
    return "\n".join(lines) + "\n"


def nested_cv_selection(results: pd.DataFrame) -> pd.DataFrame:
    """θ chosen by an inner cross-validation on each training fold, and its outer test error.

    The honest counterpart of :func:`table1` (which, like the paper, picks θ
    on the test folds). For each (dataset, algorithm, R) and each outer fold
    k, the inner fits of a grid made with ``make_grid(..., inner_folds=J)``
    give, for every θ, J validation errors measured on inner folds of fold
    k's *training* data; θ*_k is the θ with the smallest mean validation
    error (ties: the larger θ, i.e. the sparser rule), and fold k
    contributes the test error of the outer fit at θ*_k. The nested error is
    the mean over the K outer folds. Fold k's test samples never influence
    θ*_k, neither through training nor through evaluation.

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`, outer
        and inner fits together.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, algorithm, R) whose K outer folds all have a
        θ with J finished inner fits and the outer fit at that θ. Columns
        ``dataset, algorithm, n_clauses, nested_test_error,
        paper_style_min_error`` (:func:`table1`'s statistic on the same
        outer fits), ``optimism`` (their difference), ``inner_cv_error``
        (mean over k of the smallest mean validation error: the inner CV's
        own estimate), ``n_folds``, ``n_inner_folds``, ``selected_thetas``
        (θ*_k for k = 0..K-1, a tuple) and ``paper`` (the paper's Table 1
        number as a fraction). Errors are fractions. Cells without inner
        fits are left out (logged).
    """
    results = _as_results(results)
    columns = ["dataset", "algorithm", "n_clauses", "nested_test_error", "paper_style_min_error", "optimism",
               "inner_cv_error", "n_folds", "n_inner_folds", "selected_thetas", "paper"]
    empty = pd.DataFrame(columns=columns)
    if results.empty:
        return empty
    inner_mask = _inner_mask(results)
    _check_settings(results[~inner_mask])
    ok = results[results["error"].isna()].copy()
    ok["test_error"] = pd.to_numeric(ok["test_error"])
    inner_ok, outer_ok = ok[inner_mask[ok.index]], ok[~inner_mask[ok.index]]
    cell = ["dataset", "algorithm", "n_clauses"]
    inner_cells = dict(list(inner_ok.groupby(cell, sort=False)))
    rows = []
    for (dataset, algorithm, n_clauses), outer in outer_ok.groupby(cell, sort=False):
        inner = inner_cells.get((dataset, algorithm, n_clauses), inner_ok.iloc[:0])
        row = _nested_cell(outer, inner)
        if row is None:
            if len(inner):
                logger.warning("nested CV of %s/%s/R=%s lacks fits: left out", dataset, algorithm, n_clauses)
            continue
        rows.append({"dataset": dataset, "algorithm": algorithm, "n_clauses": int(n_clauses), **row,
                     "paper": _paper_fraction(dataset, n_clauses, algorithm)})
    if not rows:
        return empty
    return _sort_cells(pd.DataFrame(rows, columns=columns), ["dataset", "n_clauses", "algorithm"])


def _inner_mask(results: pd.DataFrame) -> pd.Series:
    """True for the records of inner (nested-CV) fits; files written before nested CV have none."""
    if "inner_fold" not in results.columns:
        return pd.Series(False, index=results.index)
    return results["inner_fold"].notna()


def _largest_argmin(values: np.ndarray) -> int:
    """Index of the last minimum (θ ascending: ties go to the larger θ)."""
    return len(values) - 1 - int(np.argmin(values[::-1]))


def _nested_cell(outer: pd.DataFrame, inner: pd.DataFrame) -> dict[str, Any] | None:
    """The nested-CV numbers of one (dataset, algorithm, R), or None if a fold lacks fits."""
    if inner.empty:
        return None
    n_folds = int(outer["n_folds"].iloc[0])
    n_inner = int(inner["n_inner_folds"].iloc[0])
    test = outer.pivot_table(index="theta", columns="fold", values="test_error", aggfunc="first")
    test = test.reindex(columns=range(n_folds))
    chosen, nested, inner_best = [], [], []
    for k in range(n_folds):
        validation = inner[inner["fold"] == k].pivot_table(
            index="theta", columns="inner_fold", values="test_error", aggfunc="first",
        ).reindex(columns=range(n_inner)).dropna(axis=0, how="any").sort_index()
        if validation.empty:
            return None
        means = validation.to_numpy().mean(axis=1)
        best = _largest_argmin(means)
        theta = float(validation.index[best])
        if theta not in test.index or pd.isna(test.at[theta, k]):
            return None
        chosen.append(theta)
        nested.append(float(test.at[theta, k]))
        inner_best.append(float(means[best]))
    complete = test.dropna(axis=0, how="any")
    paper_style = float(complete.to_numpy().mean(axis=1).min()) if len(complete) else float("nan")
    nested_error = float(np.mean(nested))
    return {
        "nested_test_error": nested_error, "paper_style_min_error": paper_style,
        "optimism": nested_error - paper_style, "inner_cv_error": float(np.mean(inner_best)),
        "n_folds": n_folds, "n_inner_folds": n_inner, "selected_thetas": tuple(chosen),
    }


# --------------------------------------------------------------------------
# Pareto fronts (the paper's Figures 1-3)
# --------------------------------------------------------------------------

_BY = ("n_clauses", "algorithm")
_X = ("n_literals", "n_features")


def _non_dominated(x: np.ndarray, error: np.ndarray) -> np.ndarray:
    """True for points no other point beats: no one is <= in both and < in one."""
    le = (x[None, :] <= x[:, None]) & (error[None, :] <= error[:, None])
    lt = (x[None, :] < x[:, None]) | (error[None, :] < error[:, None])
    return ~np.any(le & lt, axis=1)


def pareto_front(summary: pd.DataFrame, by: str = "n_clauses", *, x: str = "n_literals") -> pd.DataFrame:
    """Accuracy/sparsity points and their Pareto fronts, one series per R or per algorithm.

    Each point is one θ of one (dataset, algorithm, R): mean complexity
    (``x``) against mean test and training error. A point is on the test
    (training) front when no other θ of the same series has at most its
    complexity and at most its test (training) error, with one of them
    strictly smaller.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    by : {"n_clauses", "algorithm"}, default="n_clauses"
        What distinguishes the lines of a figure: R (the paper's Figure 1,
        one algorithm) or the algorithm (Figure 2, one R). The other one
        becomes ``panel``.
    x : {"n_literals", "n_features"}, default="n_literals"
        The complexity measure: mean literals, or mean distinct raw features.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, series, panel, algorithm, n_clauses, theta,
        complexity, test_error, train_error, on_test_front,
        on_train_front``, sorted by dataset, panel, series, complexity.
    """
    if by not in _BY:
        raise ValueError(f"by must be one of {_BY}, got {by!r}")
    if x not in _X:
        raise ValueError(f"x must be one of {_X}, got {x!r}")
    other = "algorithm" if by == "n_clauses" else "n_clauses"
    points = summary[summary["n_folds_done"] > 0]
    frame = pd.DataFrame({
        "dataset": points["dataset"],
        "series": points[by],
        "panel": points[other],
        "algorithm": points["algorithm"],
        "n_clauses": points["n_clauses"].astype(int),
        "theta": points["theta"].astype(float),
        "complexity": points[f"{x}_mean"].astype(float),
        "test_error": points["test_error_mean"].astype(float),
        "train_error": points["train_error_mean"].astype(float),
    })
    frame["on_test_front"] = False
    frame["on_train_front"] = False
    for _, group in frame.groupby(["dataset", "algorithm", "n_clauses"], sort=False):
        complexity = group["complexity"].to_numpy()
        frame.loc[group.index, "on_test_front"] = _non_dominated(complexity, group["test_error"].to_numpy())
        frame.loc[group.index, "on_train_front"] = _non_dominated(complexity, group["train_error"].to_numpy())
    return frame.sort_values(["dataset", "panel", "series", "complexity", "theta"], kind="stable").reset_index(drop=True)


def _only_value(values: pd.Series, name: str, dataset: str, hint: str) -> Any:
    choices = sorted(values.unique().tolist(), key=str)
    if len(choices) != 1:
        raise ValueError(f"the summary of {dataset!r} has {name} values {choices}: choose one with {hint}=...")
    return choices[0]


def plot_pareto(
    summary: pd.DataFrame,
    dataset: str,
    by: str,
    path: str | os.PathLike[str],
    *,
    algorithm: str | None = None,
    n_clauses: int | None = None,
    x: str = "n_literals",
) -> Path:
    """Write the paper's Pareto-front figure for one dataset as a PNG.

    Two panels: mean test error and mean training error (%) against mean
    complexity, all θ as points, and a line through each series' Pareto
    front. ``by="n_clauses"`` draws one line per R for one algorithm (the
    paper's Figure 1); ``by="algorithm"`` one line per algorithm for one R
    (Figure 2).

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    dataset : str
    by : {"n_clauses", "algorithm"}
    path : str or path-like
        The PNG file to write (its directory must exist).
    algorithm : str, optional
        The algorithm of a ``by="n_clauses"`` figure; needed when the
        summary has several.
    n_clauses : int, optional
        The R of a ``by="algorithm"`` figure; needed when the summary has
        several.
    x : {"n_literals", "n_features"}, default="n_literals"

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    # The object-oriented Figure API renders with Agg and touches no pyplot
    # global state, so it is safe in servers, workers and tests.
    from matplotlib.figure import Figure

    points = pareto_front(summary, by, x=x)
    points = points[points["dataset"] == dataset]
    if points.empty:
        raise ValueError(f"the summary has no results for dataset {dataset!r}; it has {sorted(summary['dataset'].unique())}")
    if by == "n_clauses":
        fixed = algorithm if algorithm is not None else _only_value(points["algorithm"], "algorithm", dataset, "algorithm")
        points = points[points["algorithm"] == fixed]
        title = f"{dataset}, {str(fixed).upper()}: Pareto fronts by R"
    else:
        fixed = n_clauses if n_clauses is not None else _only_value(points["n_clauses"], "n_clauses", dataset, "n_clauses")
        points = points[points["n_clauses"] == int(fixed)]
        title = f"{dataset}, R = {fixed}: Pareto fronts by algorithm"
    if points.empty:
        raise ValueError(f"no results for dataset {dataset!r} with {'algorithm' if by == 'n_clauses' else 'n_clauses'}={fixed!r}")
    series_values = sorted(points["series"].unique().tolist(), key=lambda v: (str(type(v)), v))
    if by == "algorithm":
        series_values = _algorithm_order(series_values)

    figure = Figure(figsize=(10, 4.2), layout="constrained")
    axes = figure.subplots(1, 2, sharex=True)
    label_x = "mean number of literals" if x == "n_literals" else "mean number of features"
    for ax, error, front, name in (
        (axes[0], "test_error", "on_test_front", "test"),
        (axes[1], "train_error", "on_train_front", "training"),
    ):
        for index, value in enumerate(series_values):
            series = points[points["series"] == value]
            color = f"C{index % 10}"
            label = f"R = {value}" if by == "n_clauses" else str(value).upper()
            ax.scatter(series["complexity"], 100 * series[error], color=color, alpha=0.3, s=18)
            line = series[series[front]].sort_values("complexity")
            ax.plot(line["complexity"], 100 * line[error], marker="o", color=color, label=label)
        ax.set_xlabel(label_x)
        ax.set_ylabel(f"mean {name} error (%)")
        ax.set_title(f"{name} error")
        ax.grid(alpha=0.3)
    axes[0].legend()
    figure.suptitle(title)
    target = Path(path)
    figure.savefig(target, format="png", dpi=120)
    return target
