"""Tasks of the protocol: one fit per dataset, algorithm, R, θ and fold, each with a stable key.

Data reach the workers as a *description*, never as arrays: a task names a
bundled dataset (loaded with :func:`~rulemodels.datasets.load_dataset`), or
carries the path of a CSV file with its target column, positive class and the
file's SHA-256 (see :class:`CSVData`). Each worker reads the data itself and
checks the digest, so the same task runs identically in this process, in a
joblib worker or on a dask worker, and no process holds a registry of
in-memory datasets.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from numbers import Real
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from rulemodels import defaults
from rulemodels.data import load_data
from rulemodels.datasets import list_datasets, load_dataset
from rulemodels.experiments.paper import PAPER_ALGORITHMS, PAPER_CLAUSES, PAPER_DATASETS, PAPER_THETAS
from rulemodels.utils import Interval, check_constraint_values, check_parameter, check_values

if TYPE_CHECKING:
    from rulemodels.algorithms.spec import FitSpec

__all__ = ["RECORD_FIELDS", "CSVData", "Task", "make_grid", "paper_grid", "split_indices"]

_SETTINGS_DEFAULTS: dict[str, Any] = {
    "form": defaults.DEFAULT_FORM,
    "n_thresholds": defaults.DEFAULT_N_THRESHOLDS,
    "solver": defaults.DEFAULT_SOLVER,
    "max_iter": defaults.DEFAULT_MAX_ITER,
    "random_state": defaults.DEFAULT_SEED,
    "time_limit": None,
    "polish": None,
    "constraints": None,
}

#: The Task fields that are estimator parameters, checked by their one rule (rulemodels.utils.PARAMETERS).
_CHECKED_PARAMETERS = ("n_clauses", "theta", "n_thresholds", "max_iter", "time_limit")


def canonical_constraints(constraints: str | Mapping[str, Any] | None) -> str | None:
    """The domain constraints of a task (``monotone``, ``forbidden_features``, ``feature_costs``,
    ``max_literals_per_clause``; docs/constraints.md) as canonical JSON (sorted, checked), or None when none is set."""
    values = json.loads(constraints) if isinstance(constraints, str) else dict(constraints or {})
    unknown = sorted(set(values) - {"monotone", "forbidden_features", "feature_costs", "max_literals_per_clause"})
    if unknown:
        raise ValueError(f"Task.constraints has unknown entries {unknown}; model_hook is for Python fits only")
    monotone, forbidden, costs = check_constraint_values(
        values.get("monotone"), values.get("forbidden_features"), values.get("feature_costs"), values.get("max_literals_per_clause"),
    )
    plain = {
        "monotone": monotone or None, "forbidden_features": sorted(set(forbidden)) or None, "feature_costs": costs or None,
        "max_literals_per_clause": values.get("max_literals_per_clause"),
    }
    plain = {name: value for name, value in plain.items() if value is not None}
    return json.dumps(plain, sort_keys=True, separators=(",", ":")) if plain else None


def _sha256(path: Path) -> str:
    """The SHA-256 of a data file; of a directory (of Parquet files), over each file's relative name and bytes."""
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        with open(file, "rb") as handle:
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
        The solver backend's name (:func:`solvers.get_backend`).
    max_iter : int, default=100
        Iteration cap of BCD and AM (the paper: 100).
    random_state : int, default=0
        Seed of the fold shuffle (also passed to the estimator).
    time_limit : float, optional
        Seconds per fit (results then depend on machine speed).
    constraints : str, optional
        The domain constraints of the fit as JSON (:func:`canonical_constraints`:
        ``monotone``, ``forbidden_features``, ``feature_costs``,
        ``max_literals_per_clause``; ``docs/constraints.md``); None: none.
    polish : float, optional
        Seconds of MIP polishing after the algorithm
        (``BooleanRuleClassifier(polish=...)``, ``docs/polishing.md``); the
        record's ``objective`` is then the 0-1 objective. None: no polishing.
    data_path, target, positive, data_sha256 : optional
        For a CSV dataset (see :class:`CSVData`; :func:`make_grid` fills them
        in): the file, its label column, the positive class as text, and the
        file's SHA-256, checked by the worker before fitting.
    inner_fold : int, optional
        For a fit of the inner cross-validation: which inner fold of the outer training fold is the
        test fold, ``0 <= inner_fold < n_inner_folds``. None: an outer fit.
    n_inner_folds : int, optional
        Number of inner folds J; set together with ``inner_fold``, at least 2.
    """

    dataset: str
    algorithm: str
    n_clauses: int
    theta: float
    fold: int
    n_folds: int
    form: str = defaults.DEFAULT_FORM
    n_thresholds: int = defaults.DEFAULT_N_THRESHOLDS
    solver: str = defaults.DEFAULT_SOLVER
    max_iter: int = defaults.DEFAULT_MAX_ITER
    random_state: int = defaults.DEFAULT_SEED
    time_limit: float | None = None
    data_path: str | None = None
    target: str | None = None
    positive: str | None = None
    data_sha256: str | None = None
    inner_fold: int | None = None
    n_inner_folds: int | None = None
    polish: float | None = None
    constraints: str | None = None

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
        if self.polish is not None:
            check_parameter("polish", self.polish, owner="Task", constraints=[Interval(Real, 0, None, closed="neither")])
            put("polish", float(self.polish))
        if self.constraints is not None:
            put("constraints", canonical_constraints(self.constraints))
        if self.positive is not None:
            put("positive", str(self.positive))
        if self.data_path is not None:
            put("data_path", os.fspath(self.data_path))
        for name in ("dataset", "algorithm", "form", "solver"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"Task.{name} must be a non-empty string, got {getattr(self, name)!r}")
        for name in _CHECKED_PARAMETERS:
            check_parameter(name, getattr(self, name), owner="Task")
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
        if self.inner_fold is None or self.n_inner_folds is None:  # neither (checked above: both or neither)
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
        if self.polish is not None:  # only when set: the keys of unpolished fits did not change
            parts.append(f"polish={_key_float(self.polish)}")
        if self.constraints is not None:  # likewise: unconstrained keys are unchanged
            parts.append(f"constraints={self.constraints}")
        return "|".join(parts)

    def fit_spec(self) -> FitSpec:
        """The recipe of this task's fit (:meth:`FitSpec.from_params <rulemodels.algorithms.FitSpec.from_params>`).

        θ is the paper's (``theta_unit="sample"``), and the rule is the
        algorithm's as the paper learns it (no pruning, no clause disabling).

        Returns
        -------
        FitSpec
            The recipe, as ``BooleanRuleClassifier`` with the same parameters builds it.
        """
        from rulemodels.algorithms.spec import FitSpec

        constraints = json.loads(self.constraints) if self.constraints is not None else {}
        return FitSpec.from_params({**self.to_dict(), "theta_unit": "sample", "prune": False, **constraints})

    def to_dict(self) -> dict[str, Any]:
        """The task's fields as a plain dict (the first fields of its record).

        Returns
        -------
        dict
            The task's fields.
        """
        return dataclasses.asdict(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Task:
        """Rebuild the task of a result record (extra record fields are ignored).

        Parameters
        ----------
        record : Mapping
            A result record (a row of ``results.jsonl``).

        Returns
        -------
        Task
            The task that produced it.
        """
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
    n_folds: int = defaults.DEFAULT_FOLDS,
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
        The algorithms (``BooleanRuleClassifier(algorithm=...)``: ``"scs"``, ``"am"``, ...).
    clauses : iterable of int
        Numbers of clauses R.
    thetas : iterable of float, default=PAPER_THETAS
        The sparsity weights θ (the paper's grid by default).
    n_folds : int, default=10
        Number of outer cross-validation folds.
    inner_folds : int, default=0
        Inner folds J of the nested cross-validation; 0 adds no inner fits.
        The grid then has ``1 + J`` times as many tasks (the inner fits are
        on about ``(J - 1) / J`` of the training data).
    **settings
        Any of ``form``, ``n_thresholds``, ``solver``, ``max_iter``,
        ``random_state``, ``time_limit``, ``polish``, ``constraints`` (see :class:`Task`), the same for
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
        On an unknown dataset name, an unreadable CSV dataset, invalid
        fold numbers, or a θ, R or setting its parameter's rule refuses
        (:data:`rulemodels.utils.PARAMETERS`: e.g. θ must be a finite number >= 0).

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
    clauses = _unique(check_values("clauses", list(clauses), "n_clauses", owner="make_grid", example="[1, 2, 3]"))
    thetas = _unique(float(t) for t in check_values("thetas", list(thetas), "theta", owner="make_grid", example="[0.01, 0.1]"))
    if isinstance(inner_folds, bool) or not isinstance(inner_folds, int | np.integer) or inner_folds < 0 or inner_folds == 1:
        raise ValueError(f"inner_folds must be 0 (no nested CV) or an integer >= 2, got {inner_folds!r}")
    inner: list[dict[str, Any]] = [{}]
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


def paper_grid(n_folds: int = defaults.DEFAULT_FOLDS, **settings: Any) -> list[Task]:
    """The grid of the paper's Table 1: 4 datasets × 5 algorithms × R 1..5 × 18 θ × 10 folds (18,000 fits).

    Parameters
    ----------
    n_folds : int, default=defaults.DEFAULT_FOLDS
        Number of cross-validation folds.
    **settings : object
        Passed to :func:`make_grid`: ``inner_folds``, and task settings the same for every task
        (see :class:`Task`).

    Returns
    -------
    list of Task
        The tasks of the grid.
    """
    return make_grid(PAPER_DATASETS, PAPER_ALGORITHMS, PAPER_CLAUSES, PAPER_THETAS, n_folds, **settings)


def _load_task_data(task: Task) -> tuple[pd.DataFrame, np.ndarray]:
    if task.data_path is None:
        X, y = load_dataset(task.dataset)
        return X, y.to_numpy().astype(int)
    path = Path(task.data_path)
    if task.data_sha256 is not None and path.exists():
        digest = _sha256(path)
        if digest != task.data_sha256:
            raise ValueError(
                f"data file '{path}' changed since the grid was made (sha256 {digest[:12]}..., expected "
                f"{task.data_sha256[:12]}...): make the grid again, and use a new results file"
            )
    return _read_labeled_csv(path, str(task.target), task.positive)


def split_indices(task: Task, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)`` row positions of ``task``'s fold (and inner fold).

    ``StratifiedKFold(n_folds, shuffle=True, random_state)``; an inner task
    (:attr:`Task.inner_fold`) splits the outer training fold again the same
    way and tests on its inner fold, so the outer test fold stays unseen.

    Parameters
    ----------
    task : Task
        The task whose fold to split.
    y : ndarray of shape (n_samples,)
        The dataset's labels (the folds are stratified).

    Returns
    -------
    train, test : ndarray of int
        The row positions of the training and the test fold.
    """
    from sklearn.model_selection import StratifiedKFold

    splitter = StratifiedKFold(n_splits=task.n_folds, shuffle=True, random_state=task.random_state)
    train, test = next(islice(splitter.split(np.zeros(len(y)), y), task.fold, None))
    if task.is_inner:
        assert task.n_inner_folds is not None  # is_inner: a nested-CV task
        inner = StratifiedKFold(n_splits=task.n_inner_folds, shuffle=True, random_state=task.random_state)
        inner_train, inner_test = next(islice(inner.split(train, y[train]), task.inner_fold, None))
        train, test = train[inner_train], train[inner_test]
    return train, test
