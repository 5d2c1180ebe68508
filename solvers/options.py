"""One table translating common solver options to each solver's own names.

The drivers speak ``time_limit`` (seconds), ``mip_gap`` (relative) and
``threads``; each adapter translates them with :func:`translate_options`.
Facts from the solvers' manuals (GLPK ``glpsol --help``, CBC's command list,
HiGHS' option reference, Gurobi/CPLEX/SCIP parameter docs).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["COMMON_OPTION_NAMES", "solver_family", "translate_options"]

#: common option -> solver name -> native option name (None: not supported)
COMMON_OPTION_NAMES: dict[str, dict[str, str | None]] = {
    "time_limit": {
        "highs": "time_limit",
        "glpk": "tmlim",  # integer seconds
        "cbc": "sec",
        "gurobi": "TimeLimit",
        "cplex": "timelimit",
        "scip": "limits/time",
        "xpress": "maxtime",
    },
    "mip_gap": {
        "highs": "mip_rel_gap",
        "glpk": "mipgap",
        "cbc": "ratioGap",
        "gurobi": "MIPGap",
        "cplex": "mip_tolerances_mipgap",
        "scip": "limits/gap",
        "xpress": "miprelstop",
    },
    "threads": {
        "highs": "threads",
        "glpk": None,  # GLPK is single-threaded
        "cbc": "threads",
        "gurobi": "Threads",
        "cplex": "threads",
        "scip": "parallel/maxnthreads",
        "xpress": "threads",
    },
}


def solver_family(solver: str) -> str:
    """The solver a Pyomo name drives: ``gurobi_persistent`` and ``gurobi_direct`` are ``gurobi``.

    Parameters
    ----------
    solver : str
        A Pyomo solver name.

    Returns
    -------
    str
        The solver's name without its interface's suffix.
    """
    return solver.lower().split("_")[0]


def translate_options(
    solver: str,
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Native option names and values for ``solver``.

    Unknown solver families get no translated options (their own names can
    still be passed through ``options=``); options a solver does not support
    are dropped. GLPK's time limit is rounded up to whole seconds; CBC's is made
    wall-clock (``timeMode elapsed``), as every other solver's is.

    Parameters
    ----------
    solver : str
        The solver name (``"highs"``, ``"glpk"``, ``"cbc"``, ...).
    time_limit : float or None, default=None
        Seconds; None sets no limit.
    mip_gap : float or None, default=None
        Relative MIP gap; None sets none.
    threads : int or None, default=None
        Number of threads; None sets none.

    Returns
    -------
    dict
        The native option names and values.

    Examples
    --------
    >>> translate_options("glpk", time_limit=2.5, mip_gap=0.01)
    {'tmlim': 3, 'mipgap': 0.01}
    >>> translate_options("cbc", time_limit=10)
    {'sec': 10, 'timeMode': 'elapsed'}
    """
    family = solver_family(solver)
    requested: Mapping[str, Any] = {
        "time_limit": time_limit,
        "mip_gap": mip_gap,
        "threads": threads,
    }
    native: dict[str, Any] = {}
    for common, value in requested.items():
        if value is None:
            continue
        name = COMMON_OPTION_NAMES[common].get(family)
        if name is None:
            continue
        if family == "glpk" and common == "time_limit":
            value = max(1, int(math.ceil(value)))
        native[name] = value
        if family == "cbc" and common == "time_limit":
            # CBC counts CPU seconds by default: on a busy machine a solve then runs far past its
            # wall-clock limit (and is killed by the watchdog); 'elapsed' makes the limit wall-clock.
            native["timeMode"] = "elapsed"
    return native
