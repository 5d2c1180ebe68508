"""The README's Pima example: the rule, three patients' reasons, and predict_proba's ROC AUC under 10-fold CV.

Run: python docs/examples/pima_reasons.py   (about a minute on 2 cores)
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

from rulemodels import BooleanRuleClassifier, load_dataset


def main() -> None:
    X, y = load_dataset("pima")
    # θ in the paper's units with no floor in rows (min_literal_rows=0), as docs/guide/explain.md measured it
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01, theta_unit="sample", min_literal_rows=0).fit(X, y)
    print(clf)
    print(clf.complexity_)
    patients = X.iloc[[0, 1, 2]]
    with pd.option_context("display.max_colwidth", None, "display.width", 250):
        print(clf.explain(patients)[["prediction", "reason"]].to_string())
        print(clf.predict_proba(patients)[:, 1].round(3))
        print(clf.pattern_rates_.to_frame([f"term_{r + 1}" for r in range(clf.rule_.n_clauses)]).round(3).to_string())

    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    accuracy, auc_proba, auc_rule = [], [], []
    for train, test in folds.split(X, y):
        fold = BooleanRuleClassifier(n_clauses=2, theta=0.01, theta_unit="sample", min_literal_rows=0)
        fold = fold.fit(X.iloc[train], y.iloc[train])
        accuracy.append(fold.score(X.iloc[test], y.iloc[test]))
        auc_proba.append(roc_auc_score(y.iloc[test], fold.predict_proba(X.iloc[test])[:, 1]))
        auc_rule.append(roc_auc_score(y.iloc[test], fold.predict(X.iloc[test])))
    print("10-fold CV (stratified, shuffled, random_state=0), mean ± std over folds:")
    print(f"  accuracy of predict:          {np.mean(accuracy):.3f} ± {np.std(accuracy):.3f}")
    print(f"  ROC AUC of predict_proba:     {np.mean(auc_proba):.3f} ± {np.std(auc_proba):.3f}")
    print(f"  ROC AUC of the 0/1 rule:      {np.mean(auc_rule):.3f} ± {np.std(auc_rule):.3f}")


if __name__ == "__main__":
    main()
