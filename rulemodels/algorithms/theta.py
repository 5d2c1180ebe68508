"""The scale of θ, the sparsity weight: the estimator's θ and the paper's θ.

The learners minimise the paper's objective (Su et al., eq. (1))

.. math::

    \\sum_i \\omega_i \\, [\\hat y_i \\ne y_i] \\; + \\; \\theta_{\\text{paper}} \\sum_r |C_r|,

so the paper's θ is the cost of one literal *in misclassified samples* (in
units of sample weight): a literal is worth adding only if it fixes more than
θ_paper samples. Its effect depends on n: θ_paper = 1 is a lot on 100 rows
and nothing on 100,000.

:class:`~rulemodels.BooleanRuleClassifier` takes θ as a *fraction of the
training set* instead (``theta_unit='fraction'``, the default): dividing the
objective by the total sample weight :math:`W = \\sum_i \\omega_i` gives

.. math::

    \\text{weighted training error rate} \\; + \\; \\theta \\sum_r |C_r|,
    \\qquad \\theta_{\\text{paper}} = \\theta \\cdot W,

so θ = 0.01 means "a literal must lower the training error rate by one
percentage point (fix 1 % of the training weight) to be kept", whatever n.
With unit weights W = n. Multiplying all sample weights by a constant leaves
the rule unchanged under this scale (W scales with them).
``theta_unit='sample'`` passes θ through unchanged as the paper's θ; the
experiment runner that reproduces the paper's tables uses it.

**A floor in rows.** A share of the rows vanishes on small data: θ = 0.002 is
0.6 of a row on 300 rows, so a literal that fixes one training row pays for
itself and rules fit noise. :class:`~rulemodels.BooleanRuleClassifier`
therefore never lets a literal cost less than

.. math::

    \\theta_{\\text{paper}} \\ge c(n) \\cdot \\frac{W}{n}, \\qquad c(n) = \\tfrac12 \\ln n

rows (:func:`rulemodels.utils.literal_floor`; ``min_literal_rows``): the price of one
parameter in the Bayesian information criterion, ½ ln n, with one
misclassified row counted as one unit of the objective. It is 2.6 rows on 200
rows, 3.5 on 1,000 and 6.1 on 200,000, so it binds only below about 1,900
rows at θ = 0.002 (θ·n = ½ ln n there), and the larger the table the less it
matters beside θ·n, which grows like n. The same count is the least weight
the label-aware cut points leave on each side of a cut
(:class:`~rulemodels.data.binarizer.FeatureBinarizer`'s ``min_leaf_rows``): a
literal true or false on fewer rows than it costs can never pay for itself.
:class:`~rulemodels.BooleanRuleCV` chooses θ on held-out rows and has no
floor by default (``min_literal_rows=0``), nor has the paper's protocol
(``theta_unit='sample'`` through :meth:`~rulemodels.TrainingWorkspace.learn`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["THETA_UNITS", "paper_theta"]

THETA_UNITS = ("fraction", "sample")


def paper_theta(
    theta: float, sample_weight: np.ndarray, unit: str = "fraction", min_rows: float = 0.0, n_rows: float | None = None,
) -> float:
    """The paper's θ (cost of a literal in misclassified samples) for the estimator's ``theta``.

    ``unit='fraction'``: ``theta * sample_weight.sum()`` (``theta * n`` for unit
    weights). ``unit='sample'``: ``theta`` unchanged. Then at least
    ``min_rows`` rows of mean weight, ``min_rows * W / n`` (``W``: the sum of
    ``sample_weight``; ``n``: ``n_rows``, by default the length of ``sample_weight``).

    Parameters
    ----------
    theta : float
        The estimator's ``theta``, in the unit ``unit``.
    sample_weight : numpy.ndarray of shape (n_samples,)
        The training rows' weights ``ω_i``.
    unit : {"fraction", "sample"}, default="fraction"
        The unit of ``theta`` (the estimator's ``theta_unit``): a fraction of the total weight, or samples.
    min_rows : float, default=0.0
        A floor on θ, in rows of mean weight; 0: none.
    n_rows : float or None, default=None
        The number of rows the mean weight is over; None: the length of ``sample_weight``.

    Returns
    -------
    float
        The paper's θ.

    Raises
    ------
    ValueError
        If ``unit`` is not one of ``THETA_UNITS``.
    """
    if unit == "sample":
        value = float(theta)
    elif unit != "fraction":
        raise ValueError(f"theta_unit must be one of {THETA_UNITS}, got {unit!r}")
    else:
        value = float(theta) * float(np.sum(sample_weight))
    if min_rows > 0:
        rows = float(np.size(sample_weight)) if n_rows is None else float(n_rows)
        value = max(value, float(min_rows) * float(np.sum(sample_weight)) / rows)
    return value
