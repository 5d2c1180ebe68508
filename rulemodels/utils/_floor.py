"""The least number of rows a literal may rest on: a floor in rows for θ and for the label-aware cut points.

A complexity cost that is a share of the rows vanishes on small data (θ = 0.002
is 0.6 of a row on 300 rows), and so does a leaf size that is a share. Both
therefore have a floor that is a count of rows and grows slowly with n,

.. math::

    c(n) = \\tfrac12 \\ln n,

the Bayesian information criterion's price of one parameter, with one
misclassified row counted as one unit of the 0-1 objective
(``docs/theta.md``, "A floor in rows"). Standard library only: every layer
may use it.
"""

from __future__ import annotations

import math

from rulemodels import defaults

__all__ = ["literal_floor", "resolve_min_rows"]


def literal_floor(n_rows: float) -> float:
    """The least cost of a literal, in rows, on ``n_rows`` training rows: ``c(n) = ½ ln n`` (0 for n <= 1).

    Parameters
    ----------
    n_rows : float
        Training rows (for grouped rows, the rows they stand for).

    Returns
    -------
    float
        Rows: :data:`~rulemodels.defaults.LITERAL_FLOOR_SCALE` × ln ``n_rows``.

    Examples
    --------
    >>> [round(literal_floor(n), 2) for n in (200, 1_000, 200_000)]
    [2.65, 3.45, 6.1]
    """
    return defaults.LITERAL_FLOOR_SCALE * math.log(n_rows) if n_rows > 1 else 0.0


def resolve_min_rows(min_rows: float | str, n_rows: float) -> float:
    """A ``min_literal_rows`` or ``min_leaf_rows`` parameter in rows: ``"auto"`` is :func:`literal_floor` of ``n_rows``.

    Parameters
    ----------
    min_rows : float or "auto"
        The parameter (checked at the boundary: ``"auto"`` or a number >= 0).
    n_rows : float
        Training rows.

    Returns
    -------
    float
        Rows.
    """
    if isinstance(min_rows, str):
        return literal_floor(n_rows)
    return float(min_rows)
