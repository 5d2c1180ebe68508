"""Write the tutorial notebooks of this folder, without outputs.

The notebooks are generated from the cell texts below so that they stay
short, consistent and free of stored outputs (``tests/test_notebooks.py``
executes them and checks that they are stored clean). To change a notebook,
edit its cells here and run::

    python notebooks/_build_notebooks.py

Equation numbers refer to Su, Wei, Varshney and Malioutov, "Interpretable
Two-level Boolean Rule Learning for Classification" (numbered in order of
appearance; the LaTeX labels are given too).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent


def md(text: str) -> tuple[str, str]:
    return "markdown", text.strip("\n")


def code(text: str) -> tuple[str, str]:
    return "code", text.strip("\n")


def write(name: str, cells: list[tuple[str, str]]) -> None:
    """Write ``cells`` as notebook ``name`` with stable cell ids and no outputs."""
    stem = Path(name).stem.split("_")[0]
    notebook = new_notebook(
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        }
    )
    for index, (kind, source) in enumerate(cells):
        make = new_markdown_cell if kind == "markdown" else new_code_cell
        notebook.cells.append(make(source, id=f"nb{stem}-{index:02d}"))
    nbformat.validate(notebook)
    nbformat.write(notebook, HERE / name)


# ---------------------------------------------------------------------------
# 01: quick start
# ---------------------------------------------------------------------------

QUICKSTART = [
    md(r"""
# Quick start: a DNF rule for diabetes on Pima

`rulemodels` learns *two-level Boolean rules* (Su, Wei, Varshney and Malioutov,
Section 3, "Problem Formulation"). A DNF (OR of ANDs) with $R$ terms predicts

$$\hat y_i = \bigvee_{r=1}^{R} \bigwedge_{j \in \mathcal C_r} a_{i,j},$$

where each $a_{i,j}$ is a binary *literal* such as `glucose > 142`. The paper
writes everything for a CNF (AND of ORs, eqs. (5)-(6), `def-hatv` and
`def-haty-hatv`) and learns a DNF through De Morgan's laws. The learner
trades errors against sparsity: it minimises the number of misclassified
samples plus $\theta$ times the number of literals (eq. (7), `StdFormulation`,
or its Hamming-distance variant eq. (10), `HammingFormulation`).
"""),
    code("""
import pandas as pd
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

from rulemodels import BooleanRuleClassifier, Rule
from rulemodels.datasets import load_dataset
"""),
    md("""
## The data

The bundled Pima Indians diabetes data: 768 patients, 8 numeric features, and
the label `diabetes` (1 for 268 patients). We keep a quarter of the patients
aside to test the rule.
"""),
    code("""
X, y = load_dataset("pima")
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
X.head()
"""),
    md(r"""
## Learning a rule

`BooleanRuleClassifier` is a scikit-learn estimator. Its main parameters are
the paper's: `n_clauses` is $R$, `theta` is $\theta$ (the cost of one literal
relative to one misclassified sample) and `algorithm` picks the optimisation
approach of Section 4. Here `"am"` is alternating minimization
(Section 4.3). Numeric features are first binarized at quantile thresholds
(Section 5.1): `n_thresholds=9` gives the literals `x <= t` and `x > t` at the
deciles of each column.
"""),
    code("""
clf = BooleanRuleClassifier(form="dnf", n_clauses=2, theta=0.01, algorithm="am")
clf.fit(X_train, y_train)
print(clf.rule_)
"""),
    code("""
clf.rule_.complexity()
"""),
    md("""
The literals the learner could choose from are the binarizer's output columns,
for example those of `glucose`:
"""),
    code("""
print(", ".join(str(literal) for literal in clf.binarizer_.literals_ if literal.feature == "glucose"))
"""),
    md("""
## How good is it?

Accuracy on the training and test patients, and the confusion matrix on the
test patients.
"""),
    code("""
pd.Series({
    "train": accuracy_score(y_train, clf.predict(X_train)),
    "test": accuracy_score(y_test, clf.predict(X_test)),
}, name="accuracy")
"""),
    code("""
pd.crosstab(y_test, clf.predict(X_test), rownames=["diabetes"], colnames=["predicted"])
"""),
    md(r"""
## Reading the rule on patients

A patient is predicted positive when at least one term fires. The term outputs
are the clause outputs $\hat v_{i,r}$ of eq. (5): `Rule.clause_outputs` returns
them as an $n \times R$ Boolean matrix, `Rule.evaluate` combines them. Below,
three test patients the rule flags and three it does not.
"""),
    code("""
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
"""),
    md("""
Literal by literal, for the first of these patients:
"""),
    code("""
patient = patients.iloc[[0]]
pd.DataFrame([
    {"term": r, "literal": str(literal), "value": patient[literal.feature].iloc[0],
     "true": bool(literal.evaluate(patient)[0])}
    for r, clause in enumerate(rule.clauses, start=1)
    for literal in clause.literals
])
"""),
    md("""
## The complement, and saving the rule

By De Morgan's laws (Section 3) the negation of a DNF is a CNF: the rule for
"no diabetes". Rules are immutable values that round-trip through JSON
(never pickle), so a learned rule can be stored and applied elsewhere
(`rulemodels predict` on the command line).
"""),
    code("""
print(rule.negate())
Rule.from_json(rule.to_json()) == rule
"""),
    md("""
Next: `02_inspect_models.ipynb` opens the Pyomo models behind the learner,
`03_algorithms.ipynb` follows BCD and AM iteration by iteration, and
`04_reproduce_paper.ipynb` compares our cross-validated errors with the
paper's Table 1.
"""),
]


# ---------------------------------------------------------------------------
# 02: the Pyomo models, binarization, exact MIPs, solvers
# ---------------------------------------------------------------------------

MODELS = [
    md(r"""
# Inside the models: Pyomo formulations, LP relaxation, exact MIPs, solvers

Three builders in `rulemodels.models` build a Pyomo `ConcreteModel` without
solving it and return a small handle: `handle.model` is the model, and the
handle's methods change its mutable Params in place. Each component has the
paper's name and a `doc` string citing its equation, so `handle.model.pprint()`
reads like the paper.

| builder | paper |
|---|---|
| `build_clause_lp` | one-level clause LP, eqs. (1)-(4) (`OneLevelFormulation`...`OneLevelFormulationWj`) |
| `build_zero_one` | 0-1 error MIP, eqs. (7)-(8) written as eq. (14) (`GeneralLPFormulation`); `relax=True` is TLP (Section 4.1) |
| `build_hamming` | minimal Hamming distance MIP, eqs. (10)-(12) (`HammingFormulation`, `HammingFormulationBothVW`) |

All of them learn a **CNF** (Section 3). A DNF is learned as a CNF on negated
features and labels; `CNFProblem.from_binary(..., form="dnf")` does the
negation and reads the solution back as a DNF.
"""),
    code("""
import numpy as np
import pandas as pd

from rulemodels import FeatureBinarizer, load_dataset
from rulemodels.algorithms import (
    LPSolutionCache, RedundancyAwareBinarizer, WorkingData, learn, simple_binarize, solve_exact_problem,
)
from rulemodels.models import (
    CNFProblem, build_clause_lp, build_hamming, build_zero_one, clause_weights,
    hamming_objective, objective_breakdown, two_level_weights, zero_one_objective,
)
from solvers import available_backends, describe_backends, get_backend

pd.set_option("display.max_colwidth", None)
highs = get_backend("highs")
"""),
    md(r"""
## 1. A toy instance to read the models

Six Pima patients, two features, one threshold each: $d = 4$ literals. We
learn a CNF here, so column $j$ of $A$ is literal $j$ and $y_i$ is the label.
"""),
    code("""
X, y = load_dataset("pima")
toy_X, toy_y = X[["glucose", "bmi"]].iloc[:6], y.iloc[:6]
toy_binarizer = FeatureBinarizer(n_thresholds=1).fit(toy_X)
toy = CNFProblem.from_binary(toy_binarizer.transform(toy_X), toy_y, literals=toy_binarizer.literals_, form="cnf")
pd.DataFrame(toy.A.toarray(), columns=[str(lit) for lit in toy.literals]).assign(y=toy.y)
"""),
    md(r"""
### One-level clause LP, eqs. (1)-(4)

One disjunctive clause $\hat y_i = \bigvee_j a_{i,j} w_j$ (Malioutov and
Varshney; the paper's Section 2.1):

$$\min_{w}\ \sum_{i=1}^n \xi_i + \theta \sum_{j=1}^d w_j \qquad (1)$$

with the hinge $\xi_i = \max\{0, 1 - \sum_j a_{i,j} w_j\}$ on positives (2),
the linear cost $\xi_i = \sum_j a_{i,j} w_j$ on negatives (3), and
$w_j \in \{0, 1\}$ (4) relaxed to $0 \le w_j \le 1$. In the model, `xi` and
`cover` are (2); the negatives' cost (3) is summed per feature into the
parameter `neg_cost[j]`; `weight` counts identical rows, which are merged.
"""),
    code("""
clause_lp = build_clause_lp(toy.A, toy.y, theta=0.1)  # a handle: the Pyomo model and what changes it
clause_lp.model.pprint()
"""),
    code("""
result = highs.solve(clause_lp.model)
print(result.termination.value, result.objective)
pd.Series(clause_weights(clause_lp), index=[str(lit) for lit in toy.literals], name="w")
"""),
    md(r"""
### 0-1 error MIP, eq. (14)

Eq. (7) counts errors, $\sum_i |\hat y_i - y_i| + \theta \sum_r \sum_j w_{j,r}$,
with the CNF $\hat y_i = \bigwedge_r \bigvee_j a_{i,j} w_{j,r}$ (8). Section 4.1
writes it as a MIP by interpolating AND and OR: concavely for positives,
convexly for negatives:

$$\psi_i \ge 1 - \sum_j a_{i,j} w_{j,r}\ (y_i = 1, \forall r), \qquad
\psi_i \ge \sum_r \beta_{i,r} - (R - 1)\ (y_i = 0), \qquad
\beta_{i,r} \ge a_{i,j} w_{j,r}.$$

These are `pos_error`, `neg_error` and `beta_def` (only rows with $a_{i,j}=1$).
"""),
    code("""
zero_one = build_zero_one(toy.A, toy.y, n_clauses=2, theta=0.1).model
for component in (zero_one.pos_error, zero_one.neg_error, zero_one.beta_def, zero_one.objective):
    component.pprint()
"""),
    md(r"""
### Minimal Hamming distance MIP, eqs. (10)-(12)

Section 3.2 charges each sample the number of $w_{j,r}$ flips that would make
the rule classify it correctly: $\eta_i = \sum_r \max\{0, 1 - \sum_j a_{i,j}
w_{j,r}\}$ for a positive, and $\eta_i = \min_r \sum_j a_{i,j} w_{j,r}$ for a
negative (eq. (11)). The minimum picks the clause $r_0$ that must reject the
sample (eq. (9), `def-r0`; $v_{i,r_0} = 0$ in eq. (12)). The MIP chooses it
with binaries `z[i, r]` (`assign_one`) and a big-M constraint (`eta_def`).
"""),
    code("""
hamming = build_hamming(toy.A, toy.y, n_clauses=2, theta=0.1).model
for component in (hamming.xi_def, hamming.assign_one, hamming.eta_def, hamming.objective):
    component.pprint()
"""),
    md(r"""
## 2. The LP relaxation TLP and its binarization (Sections 4.1 and 4.4)

Now 40 patients, three features and three thresholds each ($d = 18$), and a
DNF with $R = 2$ terms, learned as a CNF on the negated data. Row $j$ of the
weight matrix $W$ is literal $j$ in term $r$ of the DNF.
"""),
    code("""
small_X = X[["glucose", "bmi", "age"]].sample(40, random_state=0)
small_y = y.loc[small_X.index]
binarizer = FeatureBinarizer(n_thresholds=3).fit(small_X)
problem = CNFProblem.from_binary(binarizer.transform(small_X), small_y, literals=binarizer.literals_, form="dnf")
names = [str(lit) for lit in problem.literals]
R, theta = 2, 0.02
problem.A.shape
"""),
    md(r"""
TLP is eq. (14) with $0 \le w_{j,r} \le 1$. The paper warns that its optimum
tends to be fractional, with $\psi_i$ close to 0: the accuracy part of the
objective almost vanishes.
"""),
    code("""
tlp = build_zero_one(problem.A, problem.y, R, theta=theta, relax=True)
highs.solve(tlp.model).raise_for_status()
W_lp = two_level_weights(tlp.model)[0].round(4) + 0.0
print(objective_breakdown(tlp))
pd.DataFrame(W_lp, index=names, columns=["term 1", "term 2"]).query("`term 1` > 0 or `term 2` > 0")
"""),
    md(r"""
Two ways to turn $W$ into a rule. The **simple** binarization keeps
$w_{j,r} > 0.2$ (SCS in the paper). The **redundancy-aware** binarization
(Section 4.4) goes through the source columns in decreasing order of LP mass
and, for each, tries every combination of its literals that is not
*redundant* (no two nested literals such as `age > 24` and `age > 28`), keeping
the one with the lowest objective. The objective here is TLP's own, evaluated
at a candidate $W$ with $\psi$ and $\beta$ at their smallest feasible values.
"""),
    code("""
A = problem.A.toarray()

def tlp_objective(W):
    \"\"\"Eq. (14) at w = W, with psi and beta at their smallest feasible values.\"\"\"
    S = A @ W                                         # sum_j a_ij w_jr
    beta = np.max(A[:, :, None] * W[None], axis=1)    # beta_ir = max_j a_ij w_jr
    psi = np.where(problem.y == 1,
                   np.maximum(0, (1 - S).max(axis=1)),
                   np.maximum(0, beta.sum(axis=1) - (R - 1)))
    return psi.sum() + theta * W.sum()

W_simple = simple_binarize(W_lp, threshold=0.2)

rounder = RedundancyAwareBinarizer(A, [lit.feature for lit in problem.literals])
W_aware = W_lp.copy()
for r in range(R):
    def cost(current, columns, options, r=r):  # the objective with `columns` of clause r set to each option
        scores = []
        for option in options.T:
            W = W_aware.copy()
            W[:, r] = current
            W[columns, r] = option
            scores.append(tlp_objective(W))
        return np.array(scores)
    W_aware[:, r] = rounder.binarize(W_aware[:, r], cost)
"""),
    code("""
pd.DataFrame([
    {"binarization": name, "rule": str(problem.rule_from_weights(W)), "literals": int(W.sum()),
     "0-1 objective, eq. (7)": zero_one_objective(problem.A, problem.y, W, theta)}
    for name, W in [("simple (w > 0.2)", W_simple), ("redundancy-aware", W_aware)]
])
"""),
    md(r"""
A term that pairs `x <= t1` with `x > t2` ($t_1 < t_2$) can never be true: in
the CNF that is learned it is a clause that is always true, a *disabled*
clause (Section 3). With `allow_disable=True` such complementary pairs count as
redundant too (Section 4.4). The library's `tlp` algorithm runs exactly the
steps above:
"""),
    code("""
data = WorkingData.from_problem(problem)
with LPSolutionCache(data, highs) as cache:
    result = learn(cache, algorithm="tlp", n_clauses=R, theta=theta, max_iter=100)
np.array_equal(data.split(result.W)[0], W_aware)
"""),
    md(r"""
## 3. Exact MIPs against the heuristics

On data this small CBC solves both exact MIPs to optimality, which gives the
ground truth for the heuristics of Section 4: set covering (SCS, SCN), TLP,
block coordinate descent (BCD, Section 4.2) and alternating minimization (AM,
Section 4.3). BCD and AM decrease the Hamming objective (12), so no heuristic
can beat the Hamming MIP on that column, and nothing beats the 0-1 MIP on the
0-1 column.
"""),
    code("""
solutions = {}
data = WorkingData.from_problem(problem)
with LPSolutionCache(data, highs) as cache:  # the LP solutions the algorithms share
    for algorithm in ("scs", "scn", "tlp", "bcd", "am"):
        result = learn(cache, algorithm=algorithm, n_clauses=R, theta=theta, max_iter=100)
        solutions[algorithm.upper()] = data.split(result.W)[0]
for formulation in ("zero_one", "hamming"):
    exact = solve_exact_problem(problem, R, theta, formulation=formulation, solver="cbc")
    solutions[f"exact {formulation} MIP ({exact.termination})"] = two_level_weights(exact.model)[0]

pd.DataFrame([
    {"method": name,
     "0-1 objective, eq. (7)": zero_one_objective(problem.A, problem.y, W, theta),
     "Hamming objective, eq. (10)": hamming_objective(problem.A, problem.y, W, theta),
     "rule": str(problem.rule_from_weights(W))}
    for name, W in solutions.items()
]).round(3)
"""),
    md("""
The estimator gives the same exact solution in one line:
`BooleanRuleClassifier(algorithm="exact", solver="cbc", n_clauses=2, theta=0.02, n_thresholds=3).fit(small_X, small_y)`.

## 4. Swapping the solver

Every solve goes through a backend from the `solvers` package; `highs` runs in
process (persistent), `glpk` and `cbc` through their executables. The same
built models are handed to each available backend.
"""),
    code("""
pd.DataFrame(describe_backends())[["name", "available", "version", "persistent"]]
"""),
    code("""
models = {
    "TLP (LP)": build_zero_one(problem.A, problem.y, R, theta=theta, relax=True).model,
    "0-1 MIP": build_zero_one(problem.A, problem.y, R, theta=theta).model,
    "Hamming MIP": build_hamming(problem.A, problem.y, R, theta=theta).model,
}
rows = []
for solver in [name for name in ("highs", "glpk", "cbc") if name in available_backends()]:
    backend = get_backend(solver)
    for label, model in models.items():
        result = backend.solve(model, time_limit=60)
        rows.append({"model": label, "solver": solver, "status": result.termination.value,
                     "objective": result.objective, "seconds": result.wall_time})
table = pd.DataFrame(rows)
table.pivot(index="model", columns="solver", values=["objective", "seconds"]).round(3)
"""),
    md("""
The optimal objectives agree; the times differ (and the optimal *rules* may
differ when there are ties). Any solver Pyomo knows can be used by name
(`get_backend("gurobi")`, `BooleanRuleClassifier(solver="scip")`, ...).
"""),
]


# ---------------------------------------------------------------------------
# 03: BCD and AM, theta and R
# ---------------------------------------------------------------------------

ALGORITHMS = [
    md(r"""
# BCD and AM iteration by iteration; the effect of θ and R

Both algorithms minimise the Hamming objective in its form with ideal clause
outputs $v_{i,r}$ (eq. (12), `HammingFormulationBothVW`):

$$\min_{w, v}\ \sum_{i,r} \Big[ \mathbb 1_{v_{i,r}=1} \max\big\{0, 1 - \textstyle\sum_j a_{i,j} w_{j,r}\big\}
+ \mathbb 1_{v_{i,r}=0} \textstyle\sum_j a_{i,j} w_{j,r} \Big] + \theta \sum_{r,j} w_{j,r}.$$

- **Block coordinate descent** (BCD, Section 4.2) updates one clause at a
  time with the others fixed: negatives already rejected by another clause
  are dropped, and the clause is re-learned by the one-level LP (eqs. (1)-(4)).
  Each iteration tries every clause and keeps the best update.
- **Alternating minimization** (AM, Section 4.3) alternates between
  assigning each negative to its cheapest clause (eq. (9), `def-r0`; ties go
  to the nearest cluster centre) and re-learning all $R$ clauses.

Both start from set covering with the redundancy-aware binarization (SCN).
"""),
    code("""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator
from sklearn.model_selection import StratifiedKFold, cross_validate

from rulemodels import BooleanRuleClassifier, load_dataset

pd.set_option("display.max_colwidth", None)
"""),
    md("""
## The objective, iteration by iteration

The BUPA Liver data (345 samples, 6 features) with $R = 4$ terms.
`history_` holds the Hamming objective after the initialisation and after
each accepted iteration; it never increases.
"""),
    code("""
X, y = load_dataset("liver")
fits = {
    algorithm: BooleanRuleClassifier(algorithm=algorithm, n_clauses=4, theta=0.1).fit(X, y)
    for algorithm in ("bcd", "am")
}

fig, ax = plt.subplots(figsize=(6, 3.5))
for algorithm, clf in fits.items():
    ax.plot(clf.history_, marker="o", label=algorithm.upper())
ax.xaxis.set_major_locator(MaxNLocator(integer=True))
ax.set_xlabel("iteration (0 = SCN initialisation)")
ax.set_ylabel("Hamming objective, eq. (10)")
ax.legend()
plt.show()
"""),
    md("""
`n_iter_` counts the iterations executed (the last one may find nothing to
improve), `termination_` says why the algorithm stopped, and `n_solves_`
counts the clause LPs actually solved. LPs that an earlier fit in this
process already solved (the SCN initialisation is the same for BCD and AM)
are answered from a cache and not counted again.
"""),
    code("""
pd.DataFrame({
    algorithm.upper(): {
        "rule": str(clf.rule_), "objective": clf.objective_, "n_iter_": clf.n_iter_,
        "termination_": clf.termination_, "n_solves_": clf.n_solves_,
        "training accuracy": clf.score(X, y),
    }
    for algorithm, clf in fits.items()
}).T
"""),
    md(r"""
## Accuracy against sparsity: θ and R

$\theta$ prices each literal in units of one misclassified sample, and $R$
caps the number of terms. Section 5.3 (Figure 1) plots the mean test error
against the mean number of literals for every $\theta$, one Pareto front per
$R$. A small version: AM on Liver, 3-fold stratified cross-validation, five
values of $\theta$ and $R = 1, 2, 3$.
"""),
    code("""
folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
rows = []
for n_clauses in (1, 2, 3):
    for theta in (0.01, 1.0, 2.0, 5.0, 10.0):
        clf = BooleanRuleClassifier(algorithm="am", n_clauses=n_clauses, theta=theta)
        cv = cross_validate(clf, X, y, cv=folds, return_estimator=True, return_train_score=True)
        rows.append({
            "R": n_clauses, "theta": theta,
            "literals": np.mean([fitted.rule_.n_literals for fitted in cv["estimator"]]),
            "train error": 1 - cv["train_score"].mean(), "test error": 1 - cv["test_score"].mean(),
        })
sweep = pd.DataFrame(rows)
sweep.round(3)
"""),
    md("""
A point is on the Pareto front of its $R$ when no other $\\theta$ gives a rule
that is at most as complex and at most as wrong, and strictly better in one.
"""),
    code("""
def pareto(points, error):
    \"\"\"The non-dominated (literals, error) points, sorted by literals.\"\"\"
    x, e = points["literals"].to_numpy(), points[error].to_numpy()
    dominated = [((x <= x[k]) & (e <= e[k]) & ((x < x[k]) | (e < e[k]))).any() for k in range(len(x))]
    return points[~np.array(dominated)].sort_values("literals")

fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharex=True)
for ax, error in zip(axes, ("test error", "train error")):
    for n_clauses, points in sweep.groupby("R"):
        front = pareto(points, error)
        line, = ax.plot(front["literals"], 100 * front[error], marker="o", label=f"R = {n_clauses}")
        ax.scatter(points["literals"], 100 * points[error], color=line.get_color(), alpha=0.3)
    ax.set_xlabel("mean number of literals")
    ax.set_ylabel(f"mean {error} (%)")
axes[0].legend()
plt.show()
"""),
    md("""
As in the paper, more terms buy a lower *training* error at the price of more
literals, while the *test* error need not follow: with three folds and five
values of θ this small sweep is noisy. `rulemodels cv liver --algorithms am bcd
--clauses 1-5 --thetas paper` runs the paper's full protocol, and
`04_reproduce_paper.ipynb` reads its results.
"""),
]


# ---------------------------------------------------------------------------
# 04: our numbers next to the paper's Table 1
# ---------------------------------------------------------------------------

REPRODUCE = [
    md(r"""
# Reproducing the paper's Table 1 and Figure 1

`rulemodels reproduce` runs the protocol of Section 5.1: for each dataset,
algorithm, $R = 1..5$ and the 18 values $\theta = A \cdot 10^B$, a stratified
10-fold cross-validation, learning DNF rules. It writes, in its `--out`
directory:

| file | content |
|---|---|
| `results.jsonl` | one record per fit: errors, complexity, iterations, the rule as JSON (committed gzip-compressed as `results.jsonl.gz`; `read_results` reads either) |
| `summary.csv` | means over the folds for each (dataset, algorithm, R, θ) |
| `table1.csv` | the paper's statistic: the minimal mean test error over θ (Section 5.2, Table 1) |
| `nested_selection.csv` | the test error when θ is chosen by a nested CV on the training folds only |

This notebook reads them from `RESULTS` below: the directory named by the
environment variable `RULEMODELS_RESULTS` if it is set, else the committed
`docs/results` of this repository. The tables may be partial: missing cells
are left out. (While `reproduce` runs, only `results.jsonl` grows;
`rulemodels.experiments.table1(read_results(path), require_complete=False)`
computes the table so far.)
"""),
    code("""
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown

from rulemodels import Rule
from rulemodels.experiments import PAPER_ALGORITHMS, PAPER_TABLE1, pareto_front, read_results, table1_markdown

pd.set_option("display.max_colwidth", None)
"""),
    code("""
def default_results_dir():
    \"\"\"docs/results of the repository this notebook sits in.\"\"\"
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "docs" / "results").is_dir():
            return folder / "docs" / "results"
    raise FileNotFoundError("no docs/results above this notebook: set RULEMODELS_RESULTS")

RESULTS = Path(os.environ.get("RULEMODELS_RESULTS") or default_results_dir())
R_SHOWN = 2  # the R of the bar chart below
RESULTS
"""),
    md("""
## Table 1: ours (paper)

Minimal mean test error over θ, in percent, with the paper's number in
parentheses. Like the paper's, this statistic picks θ on the test folds, so it
is optimistic (see the nested selection below).
"""),
    code("""
ours = pd.read_csv(RESULTS / "table1.csv")
Markdown(table1_markdown(ours))
"""),
    code("""
paper = pd.Series(dict(PAPER_TABLE1), name="paper (%)").rename_axis(["dataset", "n_clauses", "algorithm"]).reset_index()
cells = paper.merge(ours.assign(**{"ours (%)": 100 * ours["test_error"]}), how="left")
print(f"{cells['ours (%)'].notna().sum()} of the {len(cells)} cells of Table 1 are computed")
"""),
    md("""
## Ours against the paper

Each point is one cell of Table 1 (dataset, R, algorithm); points below the
diagonal are cells where our error is lower than the paper's.
"""),
    code("""
done = cells.dropna(subset=["ours (%)"])
fig, ax = plt.subplots(figsize=(5, 5))
for algorithm in [a for a in PAPER_ALGORITHMS if a in set(done["algorithm"])]:
    subset = done[done["algorithm"] == algorithm]
    ax.scatter(subset["paper (%)"], subset["ours (%)"], label=algorithm.upper())
low = min(done["paper (%)"].min(), done["ours (%)"].min()) - 2
high = max(done["paper (%)"].max(), done["ours (%)"].max()) + 2
ax.plot([low, high], [low, high], color="grey", linestyle="--", linewidth=1)
ax.set_xlim(low, high)
ax.set_ylim(low, high)
ax.set_xlabel("paper: minimal mean test error (%)")
ax.set_ylabel("ours: minimal mean test error (%)")
ax.legend()
plt.show()
"""),
    md("""
The same comparison at one R, dataset by dataset (paper hatched, ours solid;
a missing solid bar is a cell not computed yet).
"""),
    code("""
datasets = [d for d in ("sonar", "liver", "pima", "parkinsons") if d in set(done["dataset"])]
fig, axes = plt.subplots(1, len(datasets), figsize=(3.2 * len(datasets), 3.2), squeeze=False, sharey=True)
for ax, dataset in zip(axes[0], datasets):
    row = cells[(cells["dataset"] == dataset) & (cells["n_clauses"] == R_SHOWN)].set_index("algorithm")
    row = row.reindex(PAPER_ALGORITHMS)
    positions = np.arange(len(row))
    ax.bar(positions - 0.2, row["paper (%)"], width=0.4, color="white", edgecolor="grey", hatch="//", label="paper")
    ax.bar(positions + 0.2, row["ours (%)"].fillna(0), width=0.4, label="ours")
    ax.set_xticks(positions, [a.upper() for a in row.index])
    ax.set_title(f"{dataset}, R = {R_SHOWN}")
axes[0][0].set_ylabel("minimal mean test error (%)")
axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1, 1))
plt.show()
"""),
    md("""
## How optimistic is the minimum over θ?

`nested_selection.csv` chooses θ for each outer fold by a 3-fold
cross-validation inside that fold's training data, so the test fold plays no
part in the choice. The difference to Table 1's statistic is the optimism of
taking the minimum over the θ grid on the test folds (in percentage points;
TLP has no nested CV in the default run).
"""),
    code("""
nested = pd.read_csv(RESULTS / "nested_selection.csv")
optimism = 100 * nested.pivot_table(index=["dataset", "n_clauses"], columns="algorithm", values="optimism")
optimism[[a for a in PAPER_ALGORITHMS if a in optimism.columns]].round(1)
"""),
    md("""
## Pareto fronts (Figure 1)

`summary.csv` has one point per (dataset, algorithm, R, θ): mean number of
literals against mean test and training error. The paper's Figure 1 draws AM
on Pima (a, b) and BCD on Liver (c, d); we draw the first of these that the
results contain.
"""),
    code("""
summary = pd.read_csv(RESULTS / "summary.csv")
summary = summary[summary["complete"]]  # cells with every fold (an unfinished run has others)
available = set(zip(summary["dataset"], summary["algorithm"]))
dataset, algorithm = next(
    (pair for pair in [("pima", "am"), ("liver", "bcd"), *sorted(available)] if pair in available)
)
points = pareto_front(summary, by="n_clauses")
points = points[(points["dataset"] == dataset) & (points["algorithm"] == algorithm)]

fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharex=True)
for ax, error, front in zip(axes, ("test_error", "train_error"), ("on_test_front", "on_train_front")):
    for n_clauses, series in points.groupby("n_clauses"):
        on_front = series[series[front]]
        line, = ax.plot(on_front["complexity"], 100 * on_front[error], marker="o", label=f"R = {n_clauses}")
        ax.scatter(series["complexity"], 100 * series[error], color=line.get_color(), alpha=0.3)
    ax.set_xlabel("mean number of literals")
    ax.set_ylabel(f"mean {error.replace('_', ' ')} (%)")
axes[0].legend()
fig.suptitle(f"{dataset}, {algorithm.upper()}")
plt.show()
"""),
    md("""
## Behind one number: the rules

`results.jsonl` keeps every fit, including its rule. Here are the rules behind
one cell of our Table 1 (the dataset and algorithm above, at R_SHOWN terms or
the closest R computed), at the θ where the minimum is reached: one rule per
fold.
"""),
    code("""
results = read_results(RESULTS / "results.jsonl")  # or results.jsonl.gz, as committed
results = results[results["error"].isna() & results["inner_fold"].isna()]  # outer folds only, no nested-CV fits
cell = ours[(ours["dataset"] == dataset) & (ours["algorithm"] == algorithm)]
cell = cell.iloc[(cell["n_clauses"] - R_SHOWN).abs().argmin()]
fits = results[
    (results["dataset"] == dataset) & (results["algorithm"] == algorithm)
    & (results["n_clauses"] == cell["n_clauses"]) & (results["theta"] == cell["theta"])
].sort_values("fold")
print(f"{dataset}, {algorithm.upper()}, R = {cell['n_clauses']}, theta = {cell['theta']}")
fits.assign(rule=[str(Rule.from_json(text)) for text in fits["rule"]])[["fold", "test_error", "n_literals", "rule"]]
"""),
]


def main() -> None:
    write("01_quickstart.ipynb", QUICKSTART)
    write("02_inspect_models.ipynb", MODELS)
    write("03_algorithms.ipynb", ALGORITHMS)
    write("04_reproduce_paper.ipynb", REPRODUCE)


if __name__ == "__main__":
    main()
