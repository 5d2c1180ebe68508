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
# # Reproducing the paper's Table 1 and Figure 1
#
# `rulemodels reproduce` runs the protocol of Section 5.1: for each dataset,
# algorithm, $R = 1..5$ and the 18 values $\theta = A \cdot 10^B$, a stratified
# 10-fold cross-validation, learning DNF rules. It writes, in its `--out`
# directory:
#
# | file | content |
# |---|---|
# | `results.jsonl` | one record per fit: errors, complexity, iterations, the rule as JSON (committed gzip-compressed as `results.jsonl.gz`; `read_results` reads either) |
# | `summary.csv` | means over the folds for each (dataset, algorithm, R, θ) |
# | `table1.csv` | the paper's statistic: the minimal mean test error over θ (Section 5.2, Table 1) |
# | `nested_selection.csv` | the test error when θ is chosen by a nested CV on the training folds only |
#
# This notebook reads them from `RESULTS` below: the directory named by the
# environment variable `RULEMODELS_RESULTS` if it is set, else the committed
# `docs/results` of the repository this notebook sits in (the full protocol,
# 61,200 fits). The tables may be partial: missing cells are left out. (While
# `reproduce` runs, only `results.jsonl` grows;
# `rulemodels.experiments.table1(read_results(path), require_complete=False)`
# computes the table so far.)
#
# **Needs:** `pip install 'rulemodels[notebooks]'` (matplotlib for the figures,
# IPython's display for the table). A `pip install` has no `docs/results`: then
# the cell below runs a **small version of the protocol** itself, into the
# folder `small_protocol_results` beside the notebook (Liver only, BCD and AM,
# R = 1, 2, three values of θ, 3 folds, 2 inner folds; under a minute, and a
# re-run finds the results there and computes nothing). Its numbers show the workflow; they are not
# the paper's protocol and not comparable with Table 1 cell by cell. For the
# real thing, run `rulemodels reproduce --out DIR` (about 80 minutes on 2
# cores, `--datasets liver` alone a few minutes) and start Jupyter with
# `RULEMODELS_RESULTS=DIR`.

# %%
import os
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown

from rulemodels import Rule
from rulemodels.experiments import PAPER_ALGORITHMS, PAPER_TABLE1, pareto_front, read_results, table1_markdown

pd.set_option("display.max_colwidth", None)


# %%
def committed_results_dir():
    """docs/results of the repository this notebook sits in, or None (e.g. after a pip install)."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "docs" / "results" / "table1.csv").is_file():
            return folder / "docs" / "results"
    return None

# The small protocol run when there are no results to read (see above).
SMALL_RUN = ["reproduce", "--datasets", "liver", "--algorithms", "bcd", "am", "--n-clauses", "1-2",
             "--thetas", "0.001", "0.01", "0.1", "--folds", "3", "--inner-folds", "2",
             "--backend", "sequential", "--no-progress"]

RESULTS = Path(os.environ["RULEMODELS_RESULTS"]) if os.environ.get("RULEMODELS_RESULTS") else committed_results_dir()
if RESULTS is None:
    RESULTS = Path("small_protocol_results")  # `reproduce` resumes: a second run reuses what is there
    print("no results to read: running the small protocol\n  rulemodels", " ".join(SMALL_RUN), "--out", RESULTS)
    run = subprocess.run([sys.executable, "-m", "rulemodels", *SMALL_RUN, "--out", str(RESULTS)],
                         capture_output=True, text=True)
    print(run.stdout[-2000:], run.stderr[-2000:])
    run.check_returncode()
R_SHOWN = 2  # the R of the bar chart below
RESULTS

# %% [markdown]
# ## Table 1: ours (paper)
#
# Minimal mean test error over θ, in percent, with the paper's number in
# parentheses. Like the paper's, this statistic picks θ on the test folds, so it
# is optimistic (see the nested selection below).

# %%
ours = pd.read_csv(RESULTS / "table1.csv")
Markdown(table1_markdown(ours))

# %%
paper = pd.Series(dict(PAPER_TABLE1), name="paper (%)").rename_axis(["dataset", "n_clauses", "algorithm"]).reset_index()
cells = paper.merge(ours.assign(**{"ours (%)": 100 * ours["test_error"]}), how="left")
print(f"{cells['ours (%)'].notna().sum()} of the {len(cells)} cells of Table 1 are computed")

# %% [markdown]
# ## Ours against the paper
#
# Each point is one cell of Table 1 (dataset, R, algorithm); points below the
# diagonal are cells where our error is lower than the paper's.

# %%
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

# %% [markdown]
# The same comparison at one R, dataset by dataset (paper hatched, ours solid;
# a missing solid bar is a cell not computed yet).

# %%
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

# %% [markdown]
# ## How optimistic is the minimum over θ?
#
# `nested_selection.csv` chooses θ for each outer fold by a 3-fold
# cross-validation inside that fold's training data, so the test fold plays no
# part in the choice. The difference to Table 1's statistic is the optimism of
# taking the minimum over the θ grid on the test folds (in percentage points;
# TLP has no nested CV in the default run).

# %%
nested = pd.read_csv(RESULTS / "nested_selection.csv")
optimism = 100 * nested.pivot_table(index=["dataset", "n_clauses"], columns="algorithm", values="optimism")
optimism[[a for a in PAPER_ALGORITHMS if a in optimism.columns]].round(1)

# %% [markdown]
# ## Pareto fronts (Figure 1)
#
# `summary.csv` has one point per (dataset, algorithm, R, θ): mean number of
# literals against mean test and training error. The paper's Figure 1 draws AM
# on Pima (a, b) and BCD on Liver (c, d); we draw the first of these that the
# results contain.

# %%
summary = pd.read_csv(RESULTS / "summary.csv")
summary = summary[summary["complete"]]  # cells with every fold (an unfinished run has others)
available = set(zip(summary["dataset"], summary["algorithm"]))
dataset, algorithm = next(
    pair for pair in [("pima", "am"), ("liver", "bcd"), *sorted(available)] if pair in available
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

# %% [markdown]
# ## Behind one number: the rules
#
# `results.jsonl` keeps every fit, including its rule. Here are the rules behind
# one cell of our Table 1 (the dataset and algorithm above, at R_SHOWN terms or
# the closest R computed), at the θ where the minimum is reached: one rule per
# fold.

# %%
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
