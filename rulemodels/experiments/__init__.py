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

The names are imported on first use (PEP 562), each from its module.

References
----------
.. [1] G. Su, D. Wei, K. R. Varshney, D. M. Malioutov, "Interpretable
   Two-level Boolean Rule Learning for Classification", 2016, Section
   "Numerical Evaluation", Table 1 and Figures 1-3.
"""

from __future__ import annotations

from solvers.lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing

# The public names, each from the module that defines it (`NAME as NAME`: an explicit re-export): imports
# for type checkers and IDEs, and the table of what __getattr__ imports on first use (lazy_exports reads it).
if TYPE_CHECKING:  # pragma: no cover - never runs
    from rulemodels.experiments.analysis import nested_cv_selection as nested_cv_selection
    from rulemodels.experiments.analysis import nested_model_selection as nested_model_selection
    from rulemodels.experiments.analysis import pareto_front as pareto_front
    from rulemodels.experiments.analysis import summarize as summarize
    from rulemodels.experiments.analysis import table1 as table1
    from rulemodels.experiments.analysis import table1_markdown as table1_markdown
    from rulemodels.experiments.cells import run_task as run_task
    from rulemodels.experiments.cells import run_unit as run_unit
    from rulemodels.experiments.execute import BACKENDS as BACKENDS
    from rulemodels.experiments.execute import MAX_JOBS as MAX_JOBS
    from rulemodels.experiments.execute import check_solvers as check_solvers
    from rulemodels.experiments.execute import run_experiments as run_experiments
    from rulemodels.experiments.paper import PAPER_ALGORITHMS as PAPER_ALGORITHMS
    from rulemodels.experiments.paper import PAPER_BASELINES as PAPER_BASELINES
    from rulemodels.experiments.paper import PAPER_CLAUSES as PAPER_CLAUSES
    from rulemodels.experiments.paper import PAPER_DATASETS as PAPER_DATASETS
    from rulemodels.experiments.paper import PAPER_TABLE1 as PAPER_TABLE1
    from rulemodels.experiments.paper import PAPER_THETAS as PAPER_THETAS
    from rulemodels.experiments.plotting import plot_pareto as plot_pareto
    from rulemodels.experiments.reports import Report as Report
    from rulemodels.experiments.reports import write_report as write_report
    from rulemodels.experiments.store import is_failure as is_failure
    from rulemodels.experiments.store import read_results as read_results
    from rulemodels.experiments.tasks import RECORD_FIELDS as RECORD_FIELDS
    from rulemodels.experiments.tasks import CSVData as CSVData
    from rulemodels.experiments.tasks import Task as Task
    from rulemodels.experiments.tasks import make_grid as make_grid
    from rulemodels.experiments.tasks import paper_grid as paper_grid

__getattr__, __dir__ = lazy_exports(__name__)
__all__ = __dir__()  # the names above, sorted
