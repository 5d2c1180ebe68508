"""Column generation's two models (Dash, Günlük & Wei 2018, *Boolean Decision Rules via Column Generation*).

The method selects clauses from an exponentially large set ``K`` with a
master problem over the clauses found so far, and finds new clauses with a
pricing problem whose objective holds the master's duals.

**In this project's CNF view.** Every rule is learned as a CNF
``ŷ = AND_r OR_{j ∈ C_r} a_j`` on a (for a DNF: negated) problem. Its
negation is a DNF whose terms are "no feature of clause r is present": the
CNF predicts 0 on row i exactly when some clause *fails* on it
(``a_ij = 0`` for every ``j ∈ C_r``). So the method's "term covering a row"
is here "a clause the row fails", and

- ``P`` (rows to cover, DGW's positives) are the CNF problem's ``y_i = 0``
  rows: an error (``ξ_i = 1``) when no selected clause fails on them;
- ``Z`` (rows that pay per covering term, DGW's negatives) are its
  ``y_i = 1`` rows: each selected clause that fails on one costs ``ω_i`` (the
  row's Hamming cost, eq. (3.10) HammingFormulation of this project's paper;
  an upper bound of its 0-1 error, exact when at most one clause fails on it);
- ``S_i = {j : a_ij = 1}``: the features whose presence in a clause makes it
  hold on row i (so it cannot cover row i).

**Master** (penalised form, with a cap ``R`` on the number of clauses):

.. math::

    \\min\\ \\sum_{i \\in P} \\omega_i \\xi_i
          + \\sum_{k \\in K} \\Big(\\sum_{i \\in Z \\cap F_k} \\omega_i
                                + \\theta\\,(c_0 + \\sum_{j \\in k} c_j)\\Big) w_k
    \\quad\\text{s.t. } \\xi_i + \\sum_{k: i \\in F_k} w_k \\ge 1\\ (i \\in P),
    \\ \\sum_k w_k \\le R,\\ \\xi \\ge 0,\\ 0 \\le w_k \\le 1

(``F_k``: the rows clause k fails on; ``c_0`` the cost of a clause, in
literals). The LP is one persistent
Pyomo model: :meth:`CGMaster.add_clauses` adds clauses to the Set ``K``,
rewrites the ``cover`` rows they enter with ``set_value`` and returns the
:class:`solvers.ModelChanges` (``new_columns``, as a dict the algorithms layer passes on) that let a persistent backend
append them without compiling the model again.

**Rows grouped** (``build_cg_master(..., group_rows=True)``, for large data):
rows of ``P`` that the same clauses fail on have the same ``cover`` row but for
their ``ξ_i``, so one row per group (``ξ_g``, weighted ``Σ_{i∈g} ω_i``) keeps the
LP's and the integer program's optimum; a new clause that fails on part of a
group splits it, and the groups' duals are shared by their rows in proportion
to their weights. On 1,000,000 rows the master then has a few hundred rows
where it had half a million.

**Pricing** (the clause with the most negative reduced cost at duals
``μ_i ≥ 0`` of ``cover[i]`` and ``ν ≤ 0`` of the cap):

.. math::

    \\min\\ \\theta \\sum_j c_j z_j - \\sum_{i \\in P} \\mu_i \\delta_i + \\sum_{i \\in Z} \\omega_i \\delta_i
    \\quad\\text{s.t. } \\delta_i \\le 1 - z_j\\ (i \\in P, j \\in S_i),
    \\ \\delta_i \\ge 1 - \\sum_{j \\in S_i} z_j\\ (i \\in Z),
    \\ \\sum_j z_j \\le D

with ``z`` binary and ``0 ≤ δ ≤ 1``; the reduced cost is its optimum plus
the constant ``θ c_0 − ν``, which is kept out of the objective so that a
round changes only coefficients (the duals ``mu`` and ``nu`` are mutable
Params; :meth:`CGPricing.set_duals` sets them and returns the changes).

The code: the rows and costs both models share in
:mod:`rulemodels.models.cg_columns`, the master in
:mod:`rulemodels.models.cg_master`, the pricing MIP in
:mod:`rulemodels.models.cg_pricing`; this module is their common face.
"""

from rulemodels.models.cg_columns import TOLERANCE, ClauseColumns, prepare_cg_data
from rulemodels.models.cg_master import CGMaster, build_cg_master
from rulemodels.models.cg_pricing import CGPricing, build_cg_pricing

__all__ = ["TOLERANCE", "CGMaster", "CGPricing", "ClauseColumns", "build_cg_master", "build_cg_pricing", "prepare_cg_data"]
