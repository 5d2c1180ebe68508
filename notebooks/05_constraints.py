# ---
# jupyter:
#   jupytext:
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # A credit rule that respects what the domain knows
#
# A lender's rule that flags an application as a likely default must be
# **monotone** in what the lender's policy orders (more late payments, a higher
# utilization or debt-to-income can only make the flag more likely; a higher
# income only less likely), must **not use a protected attribute** (here: age),
# should **avoid costly inputs** (verifying employment and tenure takes a phone
# call) and should stay **short** (at most 3 conditions per clause). Each is a
# constraint or a cost on the clause weights $w_{j,r}$ of the paper's models:
#
# - `forbidden_features` and `monotone` remove literals: $w_{j,r} = 0$ for every
#   literal $j$ on a forbidden column, or in the forbidden direction;
# - `feature_costs` turns the sparsity term $\theta \sum_{r,j} w_{j,r}$ of the
#   objective (eq. (3.12), `HammingFormulationBothVW`; the same term in the 0-1
#   error formulation) into $\theta \sum_{r,j} c_j w_{j,r}$;
# - `max_literals_per_clause` adds $\sum_j w_{j,r} \le k$ for every clause $r$.
#
# The data is `make_rule_data(kind="mixed")`: a generated credit-application
# table with skewed and integer columns, categories and missing values, whose
# label (1 = default) follows a noisy rule that does use age.
#
# **Needs:** `pip install rulemodels` and a Jupyter kernel (`pip install
# 'rulemodels[notebooks]'` brings one). The solver is HiGHS, which comes with
# the package, also for the exact MIP at the end.

# %%
import warnings

import pandas as pd
import pyomo.environ as pyo
from sklearn.model_selection import StratifiedKFold, cross_validate

from rulemodels import BooleanRuleClassifier, make_rule_data

X, y = make_rule_data(4_000, kind="mixed", random_state=0)
print(X.shape, f"{y.mean():.1%} defaults")
X.head()

# %% [markdown]
# ## The constraints, one at a time and together
#
# Every setting is scored by the same 3-fold cross-validation (AM, R = 3,
# θ = 0.005 of the rows): the error on held-out rows, and the literals of the
# rules. The last row holds every constraint at once.

# %%
POLICY = {
    "forbid age": dict(forbidden_features=["age"]),
    "monotone": dict(monotone={"n_late_payments": +1, "utilization": +1, "debt_to_income": +1, "income": -1}),
    "costs": dict(feature_costs={"employment": 3.0, "tenure_months": 2.0}),
    "≤ 3 literals per clause": dict(max_literals_per_clause=3),
}
settings = {"none": {}, **POLICY, "all": {key: value for part in POLICY.values() for key, value in part.items()}}
folds = StratifiedKFold(3, shuffle=True, random_state=0)


def literals(estimator, X_, y_):
    """A scorer that reports the size of the fold's rule (for cross_validate)."""
    return estimator.rule_.n_literals


rows = []
for name, constraints in settings.items():
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.005, **constraints)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = cross_validate(clf, X, y, cv=folds, scoring={"accuracy": "accuracy", "literals": literals})
    rows.append({
        "constraints": name,
        "CV error %": 100 * (1 - scores["test_accuracy"].mean()),
        "± (std) %": 100 * scores["test_accuracy"].std(),
        "literals": scores["test_literals"].mean(),
    })
table = pd.DataFrame(rows).set_index("constraints")
table["cost in accuracy (points)"] = table["CV error %"] - table.loc["none", "CV error %"]
print(table.round(2).to_string())

# %% [markdown]
# Only the protected column costs accuracy here (about 1.4 points): the label
# was generated with age in it, and no other column stands in for it. The other
# constraints cost nothing on this table, and that is measured, not assumed:
# the free rule already uses late payments and utilization in the rising
# direction, uses neither costly column and has at most 3 literals per clause,
# and a constraint that the free rule meets leaves it unchanged
# (`docs/constraints.md`). The rules below are fitted on all the rows.

# %%
free = BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.005).fit(X, y)
policy = BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.005, **settings["all"]).fit(X, y)
print("free:  ", free.rule_)
print("policy:", policy.rule_)
used = {literal.feature for clause in policy.rule_.clauses for literal in clause.literals}
assert "age" not in used
print("columns the policy rule uses:", sorted(used))

# %% [markdown]
# ## The constraints as Pyomo sees them
#
# The exact MIP (small data only) holds every constraint exactly; its model
# shows them under readable names (`forbidden_literal`, `max_literals`), next to
# the paper's components. A `model_hook` receives every model a fit builds and
# may add constraints of its own on `w`; here it prints which constraints the
# model carries.

# %%
small = X.sample(80, random_state=1)


def show(handle, info):
    """Print the model's constraint components: the paper's and the policy's."""
    names = [component.name for component in handle.model.component_objects(ctype=pyo.Constraint)]
    print(info.kind, "constraints:", names)


exact = BooleanRuleClassifier(
    algorithm="exact", n_clauses=1, theta=0.02, n_thresholds=3, time_limit=30, model_hook=show,
    forbidden_features=["age"], max_literals_per_clause=2,
).fit(small, y.loc[small.index])
print(exact.rule_)
