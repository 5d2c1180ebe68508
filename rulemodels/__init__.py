"""rulemodels: interpretable two-level Boolean rules (CNF/DNF) learned with Pyomo."""

__version__ = "0.1.0"
