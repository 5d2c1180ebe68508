"""Helpers every layer may use, cheap to import (no numpy, pandas, Pyomo or scikit-learn at import time).

:mod:`rulemodels.utils` holds the parameter checks (one rule and one message
per parameter, used by the estimators, the experiment grid and the command
line), the progress bars, :func:`fill_doc` (a docstring section written once for the
objects that share it), :func:`as_pandas`, the one conversion of a
DataFrame of another library (polars, pyarrow, the dataframe interchange
protocol) into pandas, and the one wording of an unknown column name (with a
"did you mean"). The implementations live in private modules (``_params``,
``_progress``, ``_frames``, ``_names``), as in scikit-learn's ``sklearn.utils``.
"""

from rulemodels.utils._docs import fill_doc
from rulemodels.utils._floor import literal_floor, resolve_min_rows
from rulemodels.utils._frames import as_pandas, check_nonempty, check_unique_column_names, is_foreign_frame, to_frame
from rulemodels.utils._names import did_you_mean, unknown_name
from rulemodels.utils._params import (
    PARAMETERS,
    Interval,
    InvalidParameterError,
    Options,
    check_constraint_values,
    check_parameter,
    check_values,
    describe_constraints,
    validate_params,
)
from rulemodels.utils._progress import DELAY as PROGRESS_DELAY
from rulemodels.utils._progress import (
    in_notebook,
    no_progress,
    progress_bar,
    progress_enabled,
    showing_progress,
    stderr_is_terminal,
    track,
)

__all__ = [
    "PARAMETERS",
    "PROGRESS_DELAY",
    "Interval",
    "InvalidParameterError",
    "Options",
    "as_pandas",
    "check_nonempty",
    "check_unique_column_names",
    "check_constraint_values",
    "check_parameter",
    "check_values",
    "describe_constraints",
    "did_you_mean",
    "fill_doc",
    "in_notebook",
    "is_foreign_frame",
    "literal_floor",
    "no_progress",
    "progress_bar",
    "progress_enabled",
    "resolve_min_rows",
    "showing_progress",
    "stderr_is_terminal",
    "to_frame",
    "track",
    "unknown_name",
    "validate_params",
]
