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
"""

from __future__ import annotations

import numpy as np

__all__ = ["THETA_UNITS", "paper_theta"]

THETA_UNITS = ("fraction", "sample")


def paper_theta(theta: float, sample_weight: np.ndarray, unit: str = "fraction") -> float:
    """The paper's θ (cost of a literal in misclassified samples) for the estimator's ``theta``.

    ``unit='fraction'``: ``theta * sample_weight.sum()`` (``theta * n`` for unit
    weights). ``unit='sample'``: ``theta`` unchanged.
    """
    if unit == "sample":
        return float(theta)
    if unit != "fraction":
        raise ValueError(f"theta_unit must be one of {THETA_UNITS}, got {unit!r}")
    return float(theta) * float(np.sum(sample_weight))
