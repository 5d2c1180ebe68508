"""The column-generation peer (AIX360's ``BooleanRuleCG``) on the folds and binarization of ``nested_cv.py``.

AIX360 is not a dependency of rulemodels: it runs in a separate environment
(``python -m venv /work/peers-venv && /work/peers-venv/bin/pip install
'aix360[rbm]'``). Two steps, so that both see the same binary matrices:

1. with the project's environment, binarize every outer training fold with
   rulemodels' ``FeatureBinarizer`` (9 quantile thresholds, both directions)
   and save the train/test matrices::

       .venv/bin/python benchmarks/studies/peers_brcg.py --export /tmp/brcg_folds.npz

2. with the peers' environment, fit ``BooleanRuleCG`` on them (its defaults,
   ``lambda0 = lambda1 = 0.001``, and each ``--lambdas`` value for both),
   DNF and CNF, and write ``benchmarks/studies/results/peers_brcg.md``/``.json``::

       /work/peers-venv/bin/python benchmarks/studies/peers_brcg.py --run /tmp/brcg_folds.npz --lambdas 0.001

3. optionally, with the project's environment again, compare the training
   objective that both minimise (the method's master objective: positives no
   term covers, plus each negative once per term covering it, plus
   ``λ n (1 + |k|)`` per term k) of BRCG's DNF rule with ``cg``'s at the same λ
   (``theta=λ``, the default ``theta_unit="fraction"``) on each training fold,
   and both rules' training and test errors
   (``benchmarks/studies/results/brcg_objectives.md``)::

       .venv/bin/python benchmarks/studies/peers_brcg.py --objectives /tmp/brcg_folds.npz

Folds: ``StratifiedKFold(10, shuffle=True, random_state=0)`` (``--export --outer-seed S``
for another split; the seed travels in the file, and ``--run --out`` names the
result, e.g. ``benchmarks/studies/results/peers_brcg_seed1``). Errors in %, literals as
the peer counts them (mean over the folds); "best" is the test-fold-selected
best setting (optimistic, as the issue's BRCG column).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common, for --objectives (the project's environment)

DATASETS = ("liver", "parkinsons", "pima", "sonar")
RESULTS = Path(__file__).parent / "results"


def export(path: Path, datasets: list[str], n_folds: int, outer_seed: int = 0) -> None:
    """Binarize each outer training fold with rulemodels and save train/test matrices and column labels.

    The folds are ``StratifiedKFold(10, shuffle=True, random_state=outer_seed)``'s (the seed is saved
    with them, and ``--run`` and ``--objectives`` read it from the file).
    """
    from sklearn.model_selection import StratifiedKFold

    from rulemodels import FeatureBinarizer, load_dataset

    arrays: dict[str, np.ndarray] = {"outer_seed": np.array(outer_seed)}
    for dataset in datasets:
        X, y = load_dataset(dataset)
        y = np.asarray(y)
        splits = list(StratifiedKFold(10, shuffle=True, random_state=outer_seed).split(X, y))
        for k, (train, test) in enumerate(splits[:n_folds]):
            binarizer = FeatureBinarizer(n_thresholds=9).fit(X.iloc[train])
            columns = [(lit.feature, lit.op, float(lit.value)) for lit in binarizer.literals_]
            arrays[f"{dataset}/{k}/train"] = np.asarray(binarizer.transform(X.iloc[train]), dtype=np.int8)
            arrays[f"{dataset}/{k}/test"] = np.asarray(binarizer.transform(X.iloc[test]), dtype=np.int8)
            arrays[f"{dataset}/{k}/y_train"] = y[train]
            arrays[f"{dataset}/{k}/y_test"] = y[test]
            arrays[f"{dataset}/{k}/columns"] = np.array(json.dumps(columns))
    np.savez_compressed(path, **arrays)


def run(path: Path, lambdas: list[float], forms: list[str], out: Path) -> None:
    """Fit BooleanRuleCG on every saved fold, both forms, each λ (λ0 = λ1); write the summary."""
    import pandas as pd
    from aix360.algorithms.rbm import BooleanRuleCG

    data = np.load(path)
    seed = saved_seed(data)
    keys = sorted({tuple(k.split("/")[:2]) for k in data.files if "/" in k}, key=lambda key: (key[0], int(key[1])))
    records = []
    for dataset, fold in keys:
        columns = pd.MultiIndex.from_tuples(
            [(f, op, v) for f, op, v in json.loads(str(data[f"{dataset}/{fold}/columns"]))],
            names=["feature", "operation", "value"],
        )
        train = pd.DataFrame(data[f"{dataset}/{fold}/train"], columns=columns)
        test = pd.DataFrame(data[f"{dataset}/{fold}/test"], columns=columns)
        y_train, y_test = data[f"{dataset}/{fold}/y_train"], data[f"{dataset}/{fold}/y_test"]
        for cnf in [form == "cnf" for form in forms]:
            for lam in lambdas:
                start = time.perf_counter()
                model = BooleanRuleCG(lambda0=lam, lambda1=lam, CNF=cnf)
                model.fit(train, y_train)
                seconds = time.perf_counter() - start
                explained = model.explain()
                # the selected terms (DNF) or clauses (CNF) as column indices of the saved matrix: model.z holds
                # one column per generated conjunction, model.w their 0/1 selection
                chosen = model.z.loc[:, np.asarray(model.w) > 0.5]
                terms = [[int(columns.get_loc(index)) for index in chosen.index[chosen[c] > 0.5]] for c in chosen.columns]
                rules = explained["rules"]
                n_literals = sum(len(rule.split(" AND ")) if not cnf else len(rule.split(" OR ")) for rule in rules)
                records.append({
                    "dataset": dataset, "outer_seed": seed, "fold": int(fold), "form": "cnf" if cnf else "dnf", "lambda": lam,
                    "error": 100.0 * float(np.mean(model.predict(test) != y_test)), "n_literals": n_literals,
                    "seconds": seconds, "train_error": 100.0 * float(np.mean(model.predict(train) != y_train)),
                    "terms": terms,
                })
                print(records[-1], flush=True)
    rows = []
    for dataset in dict.fromkeys(r["dataset"] for r in records):
        mine = [r for r in records if r["dataset"] == dataset]
        settings = sorted({(r["form"], r["lambda"]) for r in mine})
        means = {s: np.mean([r["error"] for r in mine if (r["form"], r["lambda"]) == s]) for s in settings}
        literals = {s: np.mean([r["n_literals"] for r in mine if (r["form"], r["lambda"]) == s]) for s in settings}
        best = min(settings, key=lambda s: means[s])
        default = ("dnf", 0.001) if ("dnf", 0.001) in means else None
        rows.append({
            "dataset": dataset,
            "defaults (DNF, λ 0.001) %": f"{means[default]:.1f} ({literals[default]:.1f})" if default else "",
            "best %": f"{means[best]:.1f} ({best[0].upper()}, λ {best[1]:g}, {literals[best]:.1f} literals)",
            "median s per fit": float(np.median([r["seconds"] for r in mine])),
            **{f"{f} λ {lam:g} %": f"{means[(f, lam)]:.1f} ({literals[(f, lam)]:.1f})" for f, lam in settings},
        })
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(f"{row[h]:.2f}" if isinstance(row[h], float) else str(row[h]) for h in header) + " |" for row in rows]
    table = "\n".join(lines)
    print(table)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text(
        "# AIX360 BooleanRuleCG on the folds and binarization of nested_cv.py\n\n"
        f"`benchmarks/studies/peers_brcg.py`; outer folds `StratifiedKFold(10, shuffle=True, random_state={seed})`; "
        "error % (literals), mean over the folds; 'best' is test-fold selected.\n\n"
        + table + "\n"
    )
    out.with_suffix(".json").write_text(json.dumps({"summary": rows, "records": records}, indent=2, default=str) + "\n")


def saved_seed(data: Any) -> int:
    """The outer split's seed an ``--export`` file was made with (files from before the seed was saved: 0)."""
    return int(data["outer_seed"]) if "outer_seed" in data.files else 0


def dnf_objective(A: np.ndarray, y: np.ndarray, terms: list[list[int]], lam: float) -> tuple[float, int]:
    """The master objective of a DNF (BRCG's and ``cg``'s, with θ = λ per literal and per term) and its loss part.

    loss = positives that no term covers + Σ over negatives of the number of terms covering it;
    objective = loss + λ n Σ_k (1 + |k|) (n training rows).
    """
    covering = np.zeros(A.shape[0], dtype=int)
    for term in terms:
        covering += np.all(A[:, term] == 1, axis=1)
    loss = int(np.sum((y == 1) & (covering == 0)) + np.sum(np.where(y == 0, covering, 0)))
    return loss + lam * A.shape[0] * sum(1 + len(term) for term in terms), loss


def objectives(path: Path, records_path: Path, lam: float, n_clauses: int, out: Path) -> None:
    """Per training fold: the master objective of BRCG's DNF (from ``--run``'s records) and of ``cg``'s."""
    import warnings

    from sklearn.model_selection import StratifiedKFold

    from benchmarks._common import markdown_table
    from rulemodels import BooleanRuleClassifier, load_dataset

    data = np.load(path)
    seed = saved_seed(data)
    records = [r for r in json.loads(records_path.read_text(encoding="utf-8"))["records"]
               if r["form"] == "dnf" and r["lambda"] == lam and "terms" in r]
    rows = []
    for record in records:
        prefix = f"{record['dataset']}/{record['fold']}"
        A, y = data[f"{prefix}/train"], data[f"{prefix}/y_train"]
        # cg on the fold's original values: its binarizer (9 thresholds, fitted on the same training fold) makes
        # the columns that export() saved, so each literal of its rule is one column of A
        X, y_all = load_dataset(record["dataset"])
        y_all = np.asarray(y_all)
        train, test = list(StratifiedKFold(10, shuffle=True, random_state=seed).split(X, y_all))[record["fold"]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = BooleanRuleClassifier(algorithm="cg", theta=lam, n_clauses=n_clauses, simplify=False)
            model.fit(X.iloc[train], y_all[train])
        columns = [tuple(c) for c in json.loads(str(data[f"{prefix}/columns"]))]
        ours = [[columns.index((lit.feature, lit.op, float(lit.value))) for lit in clause.literals]
                for clause in model.rule_.clauses]
        brcg_objective, _ = dnf_objective(A, y, record["terms"], lam)
        cg_objective, _ = dnf_objective(A, y, ours, lam)
        rows.append({
            "dataset": record["dataset"], "fold": record["fold"],
            "BRCG objective": brcg_objective, "cg objective": cg_objective,
            "BRCG terms": len(record["terms"]), "cg terms": len(ours),
            "BRCG literals": record["n_literals"], "cg literals": model.rule_.n_literals,
            "BRCG train %": record["train_error"], "cg train %": 100.0 * float(np.mean(model.predict(X.iloc[train]) != y_all[train])),
            "BRCG test %": record["error"],
            "cg test %": 100.0 * float(np.mean(model.predict(X.iloc[test]) != y_all[test])),
        })
        print(rows[-1], flush=True)
    header = list(rows[0])
    shown: list[dict] = []
    for dataset in dict.fromkeys(r["dataset"] for r in rows):
        mine = [r for r in rows if r["dataset"] == dataset]
        shown += mine
        shown.append({"dataset": f"**{dataset} mean**", "fold": "",
                      **{h: f"**{np.mean([r[h] for r in mine]):.1f}**" for h in header[2:]}})
    table = markdown_table(shown, dict.fromkeys(header, 1))
    print(table)
    out.with_suffix(".md").write_text(
        "# BRCG and `cg` on the same objective (`benchmarks/studies/peers_brcg.py --objectives`)\n\n"
        f"DNF, λ = θ = {lam:g} per literal and per term (BRCG's defaults), the same binary matrices and folds; "
        f"`cg` with at most {n_clauses} terms. Objective: positives no term covers + each negative once per term "
        "covering it + λ·n·(1 + |k|) per term (n training rows), lower is better; errors in %.\n\n" + table + "\n"
    )
    out.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", type=Path, help="write the binarized folds here (project environment)")
    parser.add_argument("--run", type=Path, help="fit BooleanRuleCG on the folds saved here (peers' environment)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--outer-seed", type=int, default=0,
                        help="random_state of the outer 10-fold split for --export (default 0: the issue's folds)")
    parser.add_argument("--lambdas", nargs="+", type=float, default=[0.001])
    parser.add_argument("--forms", nargs="+", choices=["dnf", "cnf"], default=["dnf", "cnf"])
    parser.add_argument("--objectives", type=Path,
                        help="compare the training objectives of BRCG's DNF (records of --run) and cg's on the folds saved here")
    parser.add_argument("--records", type=Path, default=RESULTS / "peers_brcg.json", help="--run's JSON (for --objectives)")
    parser.add_argument("--n-clauses", type=int, default=10, help="cg's cap on terms (for --objectives)")
    parser.add_argument("--out", type=Path, default=RESULTS / "peers_brcg")
    args = parser.parse_args()
    if args.export:
        export(args.export, args.datasets, args.folds, args.outer_seed)
    elif args.run:
        run(args.run, args.lambdas, args.forms, args.out)
    elif args.objectives:
        objectives(args.objectives, args.records, args.lambdas[0], args.n_clauses, RESULTS / "brcg_objectives")
    else:
        parser.error("pass --export FILE (project environment), --run FILE (peers' environment) "
                     "or --objectives FILE (project environment)")


if __name__ == "__main__":
    main()
