"""Docstring sections that several methods of the models layer share (filled in by :func:`rulemodels.utils.fill_doc`)."""

__all__ = ["SET_THETA_SECTIONS"]

#: The sections of the ``set_theta`` of a handle that returns the new objective coefficients (column generation's).
SET_THETA_SECTIONS = """
Parameters
----------
theta : float
    The new sparsity weight θ >= 0.

Returns
-------
dict
    The changes for the backend: the new objective coefficients.
"""
