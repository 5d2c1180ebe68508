"""The knobs of column generation (:class:`CGSettings`), one frozen object a fit passes to each of its parts."""

from __future__ import annotations

from dataclasses import dataclass

from rulemodels import defaults

__all__ = ["CGSettings"]


@dataclass(frozen=True)
class CGSettings:
    """The knobs of column generation (defaults in :mod:`rulemodels.defaults`, ``CG_*``).

    Parameters
    ----------
    clause_cost : float
        ``c_0``: the complexity of a clause itself, in literals.
    max_length : int
        ``D``: at most this many features in a clause.
    beam_width : int
        Clauses kept per level of the beam search.
    fallback_width : int or None
        When the beam search finds no clause of negative reduced cost, it runs
        once more with this many single features on its first level (None:
        every feature, and the best clause of at most two features is then
        found exactly; 0: no second search) before the rounds give up.
    fallback_searches : int
        At most this many such wide searches at each θ.
    columns_per_round : int
        At most this many new clauses join the master per round.
    pricing_mip_solves : int
        Pricing MIPs per fit, at most (each solved to optimality: a count, not a
        time budget, so that the rule does not depend on the machine's speed;
        none left: the fit stops pricing with ``termination="no_improvement"``).
    pricing_mip_max_nonzeros : int
        The pricing MIP is used only when its matrix has at most this many
        nonzeros (the present features of all rows); above it the beam search
        alone prices (HiGHS needed 2-10 s per pricing MIP on the bundled
        datasets, and did not always prove a result).
    selection_time_limit : float or None
        Seconds for the final integer selection; None (the default) solves it to
        ``selection_gap`` with no wall-clock limit, so that the rule does not
        depend on the machine's speed (a fit's ``time_limit`` still bounds it).
    selection_gap : float
        Relative gap at which the final integer selection stops.
    selection : {"local_search", "mip"}
        How the final clauses are chosen among the generated ones:
        :func:`greedy_selection` alone (deterministic, milliseconds), or also the
        integer program, kept where it is better.
    selection_starts : int
        Starts of the local search (:func:`greedy_selection`'s ``starts``).
    group_rows : int
        Above this many rows to cover, the master's rows are groups of rows that
        the same clauses fail on (``build_cg_master(..., group_rows=True)``).
    stall_rounds : int
        The rounds at one θ end when this many master LPs in a row have not
        lowered its objective (``termination="no_improvement"``): the LP is
        degenerate there, and its duals keep pricing clauses that do not improve it.
    """

    clause_cost: float
    max_length: int
    beam_width: int
    columns_per_round: int
    pricing_mip_solves: int
    pricing_mip_max_nonzeros: int
    selection_time_limit: float | None
    selection_gap: float
    group_rows: int = defaults.CG_GROUP_ROWS
    selection: str = defaults.CG_SELECTION
    selection_starts: int = defaults.CG_SELECTION_STARTS
    stall_rounds: int = defaults.CG_STALL_ROUNDS
    fallback_width: int | None = defaults.CG_FALLBACK_WIDTH
    fallback_searches: int = defaults.CG_FALLBACK_SEARCHES
