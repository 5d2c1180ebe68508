"""The learned rule: a value, and everything done with it once it is learned.

- the values :class:`Literal`, :class:`Clause` and :class:`Rule` (CNF or DNF),
  their JSON form (:meth:`Rule.to_dict` / :meth:`Rule.from_dict`) and
  :class:`RuleFormatError`; :class:`RuleList`, an ordered list of rules, one
  per class, ending in a default class (more than two classes), with
  :class:`ClassRates` (its probabilities) and :func:`explain_rule_list`;
- model files: :func:`save_model` / :func:`load_model` and :class:`SavedModel`
  (a rule with its class names, columns, pattern rates and column kinds; validated
  JSON, never pickle);
- deployment, as code that runs without rulemodels: :func:`to_sql`,
  :func:`to_query` (pandas) and :func:`to_python` (a dependency-free module),
  like scikit-learn's ``export_text(tree)``; ``rule.to_sql()`` and the like
  call the same functions;
- :func:`simplify_rule` (drop literals and clauses that change nothing),
  :func:`prefer_equality` (a two-valued column read as ``x == v``),
  :func:`explain_rule` (each row's reasons), :class:`PatternRates`
  (probabilities per pattern of clause outputs) and :func:`rule_html` (the
  notebook view);
- column kinds (:class:`ColumnKind`, :func:`conform`,
  :class:`ColumnKindDriftWarning`): read new data as the columns were in training;
  :class:`UnseenCategoryWarning`: a category unseen in training meets a two-valued
  column that the rule reads as an equality.

This is the lowest layer of rulemodels: it depends on numpy and pandas only
(no Pyomo, no scikit-learn), so loading a rule file and predicting with it is
cheap. The modules inside are private; import from here.

>>> from rulemodels.rules import Literal, Rule, to_sql
>>> rule = Rule.dnf([[Literal("age", ">", 50)], [Literal("smoker", "is_true")]])
>>> print(rule)
(age > 50.0) OR (smoker)
>>> print(to_sql(rule))
(("age" IS NOT NULL AND "age" + 0 > 50.0) OR ("smoker" IS NOT NULL AND "smoker" = '1'))
"""

from rulemodels.rules._display import rule_html, rule_list_html
from rulemodels.rules._explain import explain_rule, explain_rule_list
from rulemodels.rules._export import to_python, to_query, to_sql
from rulemodels.rules._files import MAX_RULE_FILE_BYTES, MODEL_FORMAT, SavedModel, load_model, save_model
from rulemodels.rules._kinds import (
    CATEGORY_VALUES,
    KINDS,
    ColumnKind,
    ColumnKindDriftWarning,
    UnseenCategoryWarning,
    conform,
    text_dtypes,
)
from rulemodels.rules._probability import PatternRates
from rulemodels.rules._rule import VALID_OPS, Clause, Literal, Rule, RuleFormatError
from rulemodels.rules._rule_list import ClassRates, RuleList, class_label
from rulemodels.rules._simplify import SimplifyReport, prefer_equality, simplify_rule

__all__ = [
    "CATEGORY_VALUES",
    "KINDS",
    "MAX_RULE_FILE_BYTES",
    "MODEL_FORMAT",
    "VALID_OPS",
    "ClassRates",
    "Clause",
    "ColumnKind",
    "ColumnKindDriftWarning",
    "Literal",
    "PatternRates",
    "Rule",
    "RuleFormatError",
    "RuleList",
    "SavedModel",
    "SimplifyReport",
    "UnseenCategoryWarning",
    "class_label",
    "conform",
    "explain_rule",
    "explain_rule_list",
    "load_model",
    "prefer_equality",
    "rule_html",
    "rule_list_html",
    "save_model",
    "simplify_rule",
    "text_dtypes",
    "to_python",
    "to_query",
    "to_sql",
]
