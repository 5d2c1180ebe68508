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
# # Quick start: a DNF rule for diabetes on Pima
#
# `rulemodels` learns *two-level Boolean rules* (Su, Wei, Varshney and Malioutov,
# Section 3, "Problem Formulation"). A DNF (OR of ANDs) with $R$ terms predicts
#
# $$\hat y_i = \bigvee_{r=1}^{R} \bigwedge_{j \in \mathcal C_r} a_{i,j},$$
#
# where each $a_{i,j}$ is a binary *literal* such as `glucose > 142`. The paper
# writes everything for a CNF (AND of ORs, eqs. (3.5)-(3.6), `def-hatv` and
# `def-haty-hatv`) and learns a DNF through De Morgan's laws. The learner
# trades errors against sparsity: it minimises the number of misclassified
# samples plus $\theta$ times the number of literals (eq. (3.7), `StdFormulation`,
# or its Hamming-distance variant eq. (3.10), `HammingFormulation`).
#
# **Needs:** `pip install rulemodels` and a Jupyter kernel (`pip install
# 'rulemodels[notebooks]'` brings one, and what the other notebooks need). The
# solver is HiGHS, which comes with the package.

# %%
import pandas as pd
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

from rulemodels import BooleanRuleClassifier, Rule
from rulemodels.datasets import load_dataset

# %% [markdown]
# ## The data
#
# The bundled Pima Indians diabetes data: 768 patients, 8 numeric features, and
# the label `diabetes` (1 for 268 patients). We keep a quarter of the patients
# aside to test the rule.

# %%
X, y = load_dataset("pima")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
X.head()

# %% [markdown]
# ## Learning a rule
#
# `BooleanRuleClassifier` is a scikit-learn estimator. Its main parameters are
# the paper's: `n_clauses` is $R$, `theta` is $\theta$ (the cost of one literal
# relative to one misclassified sample) and `algorithm` picks the optimisation
# approach of Section 4. Here `"am"` is alternating minimization
# (Section 4.3). Numeric features are first binarized at quantile thresholds
# (Section 5.1): `n_thresholds=9` gives the literals `x <= t` and `x > t` at the
# deciles of each column.

# %%
clf = BooleanRuleClassifier(form="dnf", n_clauses=2, theta=0.01, algorithm="am")
clf.fit(X_train, y_train)
print(clf.rule_)

# %%
clf.rule_.complexity()

# %% [markdown]
# The literals the learner could choose from are the binarizer's output columns,
# for example those of `glucose`:

# %%
print(", ".join(str(literal) for literal in clf.binarizer_.literals_ if literal.feature == "glucose"))

# %% [markdown]
# ## How good is it?
#
# Accuracy on the training and test patients, and the confusion matrix on the
# test patients.

# %%
pd.Series({
    "train": accuracy_score(y_train, clf.predict(X_train)),
    "test": accuracy_score(y_test, clf.predict(X_test)),
}, name="accuracy")

# %%
pd.crosstab(y_test, clf.predict(X_test), rownames=["diabetes"], colnames=["predicted"])

# %% [markdown]
# ## Reading the rule on patients
#
# A patient is predicted positive when at least one term fires. The term outputs
# are the clause outputs $\hat v_{i,r}$ of eq. (3.5): `Rule.clause_outputs` returns
# them as an $n \times R$ Boolean matrix, `Rule.evaluate` combines them. Below,
# three test patients the rule flags and three it does not.

# %%
rule = clf.rule_
flagged = rule.evaluate(X_test)
patients = pd.concat([X_test[flagged].head(3), X_test[~flagged].head(3)])

terms = pd.DataFrame(
    rule.clause_outputs(patients), index=patients.index,
    columns=[f"term {r}" for r in range(1, rule.n_clauses + 1)],
)
pd.concat([patients[list(rule.features)], terms], axis=1).assign(
    rule=rule.evaluate(patients), diabetes=y_test.loc[patients.index]
)

# %% [markdown]
# Literal by literal, for the first of these patients:

# %%
patient = patients.iloc[[0]]
pd.DataFrame([
    {"term": r, "literal": str(literal), "value": patient[literal.feature].iloc[0],
     "true": bool(literal.evaluate(patient)[0])}
    for r, clause in enumerate(rule.clauses, start=1)
    for literal in clause.literals
])

# %% [markdown]
# ## The complement, and saving the rule
#
# By De Morgan's laws (Section 3) the negation of a DNF is a CNF: the rule for
# "no diabetes". Rules are immutable values that round-trip through JSON
# (never pickle), so a learned rule can be stored and applied elsewhere
# (`rulemodels predict` on the command line).

# %%
print(rule.negate())
Rule.from_json(rule.to_json()) == rule

# %% [markdown]
# Next: `02_inspect_models.ipynb` opens the Pyomo models behind the learner,
# `03_algorithms.ipynb` follows BCD and AM iteration by iteration, and
# `04_reproduce_paper.ipynb` compares our cross-validated errors with the
# paper's Table 1.
