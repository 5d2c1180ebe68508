"""The operators of a :class:`~rulemodels.rules.Literal`, by kind: the one vocabulary of the rule values, their
evaluation (:mod:`rulemodels.rules._evaluate`) and their files (:mod:`rulemodels.rules._json`)."""

from __future__ import annotations

__all__ = ["CATEGORY_OPS", "FLAG_OPS", "FORMS", "NAN_OPS", "SET_OPS", "THRESHOLD_OPS", "VALID_OPS", "VALID_OPS_TEXT"]

THRESHOLD_OPS: tuple[str, ...] = ("<=", ">")
CATEGORY_OPS: tuple[str, ...] = ("==", "!=")
FLAG_OPS: tuple[str, ...] = ("is_true", "is_false")
NAN_OPS: tuple[str, ...] = ("is_nan", "not_nan")
SET_OPS: tuple[str, ...] = ("in", "not_in")
#: Every operator a :class:`Literal` may have: thresholds (``<=``, ``>``), categories (``==``, ``!=``),
#: 0/1 flags (``is_true``, ``is_false``), missing values (``is_nan``, ``not_nan``) and sets of values (``in``, ``not_in``).
VALID_OPS: tuple[str, ...] = THRESHOLD_OPS + CATEGORY_OPS + FLAG_OPS + NAN_OPS + SET_OPS
#: The forms of a rule: an AND of OR-clauses, an OR of AND-terms.
FORMS: tuple[str, ...] = ("cnf", "dnf")
#: :data:`VALID_OPS` as listed in a message.
VALID_OPS_TEXT = ", ".join(repr(op) for op in VALID_OPS)
