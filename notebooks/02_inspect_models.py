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
# # Inside the models: Pyomo formulations, LP relaxation, exact MIPs, solvers
#
# Three builders in `rulemodels.models` build a Pyomo `ConcreteModel` without
# solving it and return a small handle: `handle.model` is the model, and the
# handle's methods change its mutable Params in place. Each component has the
# paper's name and a `doc` string citing its equation, so `handle.model.pprint()`
# reads like the paper.
#
# | builder | paper |
# |---|---|
# | `build_clause_lp` | one-level clause LP, eqs. (2.1)-(2.4) (`OneLevelFormulation`...`OneLevelFormulationWj`) |
# | `build_zero_one` | 0-1 error MIP, eqs. (3.7)-(3.8) written as eq. (4.14) (`GeneralLPFormulation`); `relax=True` is TLP (Section 4.1) |
# | `build_hamming` | minimal Hamming distance MIP, eqs. (3.10)-(3.12) (`HammingFormulation`, `HammingFormulationBothVW`) |
#
# All of them learn a **CNF** (Section 3). A DNF is learned as a CNF on negated
# features and labels; `CNFProblem.from_binary(..., form="dnf")` does the
# negation and reads the solution back as a DNF.
#
# **Needs:** `pip install rulemodels` and Jupyter (`pip install 'rulemodels[notebooks]'`
# brings the kernel). Everything here runs with HiGHS, which comes with the
# package. Section 3 solves the exact MIPs with CBC and section 4 compares
# HiGHS with GLPK and CBC; both are separate programs (`cbc`, `glpsol`, e.g. the
# Debian packages `coinor-cbc` and `glpk-utils`), used only where they are
# installed: without them HiGHS solves the MIPs and the notebook says what it
# skipped.

# %%
import numpy as np
import pandas as pd

from rulemodels import FeatureBinarizer, load_dataset
from rulemodels.algorithms import (
    LPSolutionCache,
    RedundancyAwareBinarizer,
    WorkingData,
    learn,
    simple_binarize,
    solve_exact_problem,
)
from rulemodels.models import (
    CNFProblem,
    build_clause_lp,
    build_hamming,
    build_zero_one,
    clause_weights,
    hamming_objective,
    objective_breakdown,
    two_level_weights,
    zero_one_objective,
)
from solvers import available_backends, describe_backends, get_backend

pd.set_option("display.max_colwidth", None)
highs = get_backend("highs")
# The MIP solver of section 3: CBC where it is installed, else HiGHS (in the package).
MIP_SOLVER = "cbc" if "cbc" in available_backends() else "highs"
print("solvers available here:", available_backends(), "- exact MIPs solved with", MIP_SOLVER)

# %% [markdown]
# ## 1. A toy instance to read the models
#
# Six Pima patients, two features, one threshold each: $d = 4$ literals. We
# learn a CNF here, so column $j$ of $A$ is literal $j$ and $y_i$ is the label.

# %%
X, y = load_dataset("pima")
toy_X, toy_y = X[["glucose", "bmi"]].iloc[:6], y.iloc[:6]
toy_binarizer = FeatureBinarizer(n_thresholds=1).fit(toy_X)
toy = CNFProblem.from_binary(toy_binarizer.transform(toy_X), toy_y, literals=toy_binarizer.literals_, form="cnf")
pd.DataFrame(toy.A.toarray(), columns=[str(lit) for lit in toy.literals]).assign(y=toy.y)

# %% [markdown]
# ### One-level clause LP, eqs. (2.1)-(2.4)
#
# One disjunctive clause $\hat y_i = \bigvee_j a_{i,j} w_j$ (Malioutov and
# Varshney; the paper's Section 2.1):
#
# $$\min_{w}\ \sum_{i=1}^n \xi_i + \theta \sum_{j=1}^d w_j \qquad (2.1)$$
#
# with the hinge $\xi_i = \max\{0, 1 - \sum_j a_{i,j} w_j\}$ on positives (2.2),
# the linear cost $\xi_i = \sum_j a_{i,j} w_j$ on negatives (2.3), and
# $w_j \in \{0, 1\}$ (2.4) relaxed to $0 \le w_j \le 1$. In the model, `xi` and
# `cover` are (2.2); the negatives' cost (2.3) is summed per feature into the
# parameter `neg_cost[j]`; `weight` counts identical rows, which are merged.

# %%
clause_lp = build_clause_lp(toy.A, toy.y, theta=0.1)  # a handle: the Pyomo model and what changes it
clause_lp.model.pprint()

# %%
result = highs.solve(clause_lp.model)
print(result.termination.value, result.objective)
pd.Series(clause_weights(clause_lp), index=[str(lit) for lit in toy.literals], name="w")

# %% [markdown]
# ### 0-1 error MIP, eq. (4.14)
#
# Eq. (3.7) counts errors, $\sum_i |\hat y_i - y_i| + \theta \sum_r \sum_j w_{j,r}$,
# with the CNF $\hat y_i = \bigwedge_r \bigvee_j a_{i,j} w_{j,r}$ (3.8). Section 4.1
# writes it as a MIP by interpolating AND and OR: concavely for positives,
# convexly for negatives:
#
# $$\psi_i \ge 1 - \sum_j a_{i,j} w_{j,r}\ (y_i = 1, \forall r), \qquad
# \psi_i \ge \sum_r \beta_{i,r} - (R - 1)\ (y_i = 0), \qquad
# \beta_{i,r} \ge a_{i,j} w_{j,r}.$$
#
# These are `pos_error`, `neg_error` and `beta_def` (only rows with $a_{i,j}=1$).

# %%
zero_one = build_zero_one(toy.A, toy.y, n_clauses=2, theta=0.1).model
for component in (zero_one.pos_error, zero_one.neg_error, zero_one.beta_def, zero_one.objective):
    component.pprint()

# %% [markdown]
# ### Minimal Hamming distance MIP, eqs. (3.10)-(3.12)
#
# Section 3.2 charges each sample the number of $w_{j,r}$ flips that would make
# the rule classify it correctly: $\eta_i = \sum_r \max\{0, 1 - \sum_j a_{i,j}
# w_{j,r}\}$ for a positive, and $\eta_i = \min_r \sum_j a_{i,j} w_{j,r}$ for a
# negative (eq. (3.11)). The minimum picks the clause $r_0$ that must reject the
# sample (eq. (3.9), `def-r0`; $v_{i,r_0} = 0$ in eq. (3.12)). The MIP chooses it
# with binaries `z[i, r]` (`assign_one`) and a big-M constraint (`eta_def`).

# %%
hamming = build_hamming(toy.A, toy.y, n_clauses=2, theta=0.1).model
for component in (hamming.xi_def, hamming.assign_one, hamming.eta_def, hamming.objective):
    component.pprint()

# %% [markdown]
# ## 2. The LP relaxation TLP and its binarization (Sections 4.1 and 4.4)
#
# Now 40 patients, three features and three thresholds each ($d = 18$), and a
# DNF with $R = 2$ terms, learned as a CNF on the negated data. Row $j$ of the
# weight matrix $W$ is literal $j$ in term $r$ of the DNF.

# %%
small_X = X[["glucose", "bmi", "age"]].sample(40, random_state=0)
small_y = y.loc[small_X.index]
binarizer = FeatureBinarizer(n_thresholds=3).fit(small_X)
problem = CNFProblem.from_binary(binarizer.transform(small_X), small_y, literals=binarizer.literals_, form="dnf")
names = [str(lit) for lit in problem.literals]
R, theta = 2, 0.02
problem.A.shape

# %% [markdown]
# TLP is eq. (4.14) with $0 \le w_{j,r} \le 1$. The paper warns that its optimum
# tends to be fractional, with $\psi_i$ close to 0: the accuracy part of the
# objective almost vanishes.

# %%
tlp = build_zero_one(problem.A, problem.y, R, theta=theta, relax=True)
highs.solve(tlp.model).raise_for_status()
W_lp = two_level_weights(tlp.model)[0].round(4) + 0.0
print(objective_breakdown(tlp))
pd.DataFrame(W_lp, index=names, columns=["term 1", "term 2"]).query("`term 1` > 0 or `term 2` > 0")

# %% [markdown]
# Two ways to turn $W$ into a rule. The **simple** binarization keeps
# $w_{j,r} > 0.2$ (SCS in the paper). The **redundancy-aware** binarization
# (Section 4.4) goes through the source columns in decreasing order of LP mass
# and, for each, tries every combination of its literals that is not
# *redundant* (no two nested literals such as `age > 24` and `age > 28`), keeping
# the one with the lowest objective. The objective here is TLP's own, evaluated
# at a candidate $W$ with $\psi$ and $\beta$ at their smallest feasible values.

# %%
A = problem.A.toarray()

def tlp_objective(W):
    """Eq. (4.14) at w = W, with psi and beta at their smallest feasible values."""
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

# %%
pd.DataFrame([
    {"binarization": name, "rule": str(problem.rule_from_weights(W)), "literals": int(W.sum()),
     "0-1 objective, eq. (3.7)": zero_one_objective(problem.A, problem.y, W, theta)}
    for name, W in [("simple (w > 0.2)", W_simple), ("redundancy-aware", W_aware)]
])

# %% [markdown]
# A term that pairs `x <= t1` with `x > t2` ($t_1 < t_2$) can never be true: in
# the CNF that is learned it is a clause that is always true, a *disabled*
# clause (Section 3). With `allow_disable=True` such complementary pairs count as
# redundant too (Section 4.4). The library's `tlp` algorithm runs exactly the
# steps above:

# %%
data = WorkingData.from_problem(problem)
with LPSolutionCache(data, highs) as cache:
    result = learn(cache, algorithm="tlp", n_clauses=R, theta=theta, max_iter=100)
np.array_equal(data.split(result.W)[0], W_aware)

# %% [markdown]
# ## 3. Exact MIPs against the heuristics
#
# On data this small CBC (or HiGHS, where CBC is not installed: `MIP_SOLVER`
# above) solves both exact MIPs to optimality, which gives the ground truth for the heuristics of Section 4: set covering (SCS, SCN), TLP,
# block coordinate descent (BCD, Section 4.2) and alternating minimization (AM,
# Section 4.3). BCD and AM decrease the Hamming objective (3.12), so no heuristic
# can beat the Hamming MIP on that column, and nothing beats the 0-1 MIP on the
# 0-1 column.

# %%
solutions = {}
data = WorkingData.from_problem(problem)
with LPSolutionCache(data, highs) as cache:  # the LP solutions the algorithms share
    for algorithm in ("scs", "scn", "tlp", "bcd", "am"):
        result = learn(cache, algorithm=algorithm, n_clauses=R, theta=theta, max_iter=100)
        solutions[algorithm.upper()] = data.split(result.W)[0]
for formulation in ("zero_one", "hamming"):
    exact = solve_exact_problem(problem, R, theta, formulation=formulation, solver=MIP_SOLVER)
    solutions[f"exact {formulation} MIP ({exact.termination})"] = two_level_weights(exact.model)[0]

pd.DataFrame([
    {"method": name,
     "0-1 objective, eq. (3.7)": zero_one_objective(problem.A, problem.y, W, theta),
     "Hamming objective, eq. (3.10)": hamming_objective(problem.A, problem.y, W, theta),
     "rule": str(problem.rule_from_weights(W))}
    for name, W in solutions.items()
]).round(3)

# %% [markdown]
# The estimator gives the same exact solution in one line:
# `BooleanRuleClassifier(algorithm="exact", solver="cbc", n_clauses=2, theta=0.02, n_thresholds=3).fit(small_X, small_y)`.
#
# ## 4. Swapping the solver
#
# Every solve goes through a backend from the `solvers` package; `highs` runs in
# process (persistent), `glpk` and `cbc` through their executables (`glpsol`,
# `cbc`), which must be installed separately. The same built models are handed
# to each available backend; a solver that is not installed is skipped.

# %%
pd.DataFrame(describe_backends())[["name", "available", "version", "persistent"]]

# %%
models = {
    "TLP (LP)": build_zero_one(problem.A, problem.y, R, theta=theta, relax=True).model,
    "0-1 MIP": build_zero_one(problem.A, problem.y, R, theta=theta).model,
    "Hamming MIP": build_hamming(problem.A, problem.y, R, theta=theta).model,
}
missing = [name for name in ("glpk", "cbc") if name not in available_backends()]
if missing:
    print(f"skipped {', '.join(missing)}: not installed on this machine (no executable on PATH); HiGHS solves alone")
rows = []
for solver in [name for name in ("highs", "glpk", "cbc") if name in available_backends()]:
    backend = get_backend(solver)
    for label, model in models.items():
        result = backend.solve(model, time_limit=60)
        rows.append({"model": label, "solver": solver, "status": result.termination.value,
                     "objective": result.objective, "seconds": result.wall_time})
table = pd.DataFrame(rows)
table.pivot(index="model", columns="solver", values=["objective", "seconds"]).round(3)

# %% [markdown]
# The optimal objectives agree; the times differ (and the optimal *rules* may
# differ when there are ties). Any solver Pyomo knows can be used by name
# (`get_backend("gurobi")`, `BooleanRuleClassifier(solver="scip")`, ...).
