"""The paper's experiment protocol as a resumable, parallel sweep.

Su, Wei, Varshney and Malioutov [1]_ evaluate every algorithm by stratified 10-fold
cross-validation over a grid of datasets, numbers of clauses R and 18 sparsity
weights θ, and report the minimal mean test error over θ (their Table 1) and
accuracy/sparsity Pareto fronts (their Figures 1-3). This package runs that
protocol, one module per job (imports flow down this list):

- :mod:`~rulemodels.experiments.paper`: the paper's grid and Table 1
  (:data:`PAPER_THETAS`, :data:`PAPER_TABLE1`, ...).
- :mod:`~rulemodels.experiments.tasks`: :func:`make_grid` builds the
  :class:`Task` list (one fit per dataset, algorithm, R, θ and fold); every
  task has a stable string :attr:`Task.key`.
- :mod:`~rulemodels.experiments.cells`: :func:`run_unit` fits every task of
  one training set (dataset and fold) on one shared
  :class:`~rulemodels.algorithms.TrainingWorkspace` and returns one flat
  record per task; :func:`run_task` runs one task alone. A fit that raises
  gives a record with ``error`` set instead of an exception.
- :mod:`~rulemodels.experiments.store`: the JSON Lines results file
  (:func:`read_results`).
- :mod:`~rulemodels.experiments.execute`: :func:`run_experiments` runs the
  training sets sequentially, with joblib or with dask.distributed, appends
  each record to the results file, and on a rerun skips every key already in
  it (resume).
- :mod:`~rulemodels.experiments.analysis`: :func:`summarize`, :func:`table1`,
  :func:`table1_markdown`, :func:`nested_cv_selection` and
  :func:`pareto_front` turn records into the paper's tables.
- :mod:`~rulemodels.experiments.reports`: :func:`write_report` writes the
  tables (CSV and Markdown) and figures of a run; the Markdown tables the
  command line prints.
- :mod:`~rulemodels.experiments.plotting`: :func:`plot_pareto` draws the
  figures (matplotlib, an optional extra: ``pip install 'rulemodels[plot]'``).
  Dask is optional too (``'rulemodels[dask]'``); neither is imported before
  it is used.

References
----------
.. [1] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable
   Two-level Boolean Rule Learning for Classification", 2016, Section
   "Numerical Evaluation", Table 1 and Figures 1-3.
"""

from rulemodels.experiments.analysis import (
    nested_cv_selection,
    nested_model_selection,
    pareto_front,
    summarize,
    table1,
    table1_markdown,
)
from rulemodels.experiments.cells import run_task, run_unit
from rulemodels.experiments.execute import BACKENDS, MAX_JOBS, check_solvers, run_experiments
from rulemodels.experiments.paper import (
    PAPER_ALGORITHMS,
    PAPER_BASELINES,
    PAPER_CLAUSES,
    PAPER_DATASETS,
    PAPER_TABLE1,
    PAPER_THETAS,
)
from rulemodels.experiments.plotting import plot_pareto
from rulemodels.experiments.reports import Report, write_report
from rulemodels.experiments.store import is_failure, read_results
from rulemodels.experiments.tasks import RECORD_FIELDS, CSVData, Task, make_grid, paper_grid

__all__ = [
    "BACKENDS",
    "MAX_JOBS",
    "PAPER_ALGORITHMS",
    "PAPER_BASELINES",
    "PAPER_CLAUSES",
    "PAPER_DATASETS",
    "PAPER_TABLE1",
    "PAPER_THETAS",
    "RECORD_FIELDS",
    "Report",
    "CSVData",
    "Task",
    "check_solvers",
    "is_failure",
    "make_grid",
    "nested_cv_selection",
    "nested_model_selection",
    "paper_grid",
    "pareto_front",
    "plot_pareto",
    "read_results",
    "run_experiments",
    "run_task",
    "run_unit",
    "summarize",
    "table1",
    "table1_markdown",
    "write_report",
]
