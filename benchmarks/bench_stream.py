"""Parquet input at scale: the two streaming passes, and the fit on the distinct patterns (docs/large_data.md).

    python benchmarks/bench_stream.py write DIR --rows 1000000      # a realistic table as Parquet files
    python benchmarks/bench_stream.py write DIR --columns age,score,months,region,flag   # fewer distinct patterns
    python benchmarks/bench_stream.py read DIR                      # pass 1 + pass 2 only: time, patterns, peak RSS
    python benchmarks/bench_stream.py fit DIR --form cnf            # BooleanRuleClassifier(algorithm='am', n_clauses=3)
    python benchmarks/bench_stream.py approx --rows 200000          # cost of the sampled thresholds in fits
    python benchmarks/bench_stream.py ranks DIR                     # sampled vs exact thresholds (rank error)

Run each in its own process: the peak RSS printed is that of the process.
The table has 6 numeric columns (some heavy-tailed, two with missing values),
two categorical columns (12 and 40 levels, one with missing values), a 0/1
flag and a noisy 0/1 label of a three-term rule over them.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd


def table(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, n).astype(float)
    income = np.round(rng.lognormal(10.5, 0.6, n), 2)
    debt = np.round(income * rng.beta(2, 5, n), 2)
    score = np.round(rng.normal(650, 80, n))
    months = rng.integers(0, 240, n).astype(float)
    ratio = np.round(debt / income, 4)
    region = rng.choice([f"r{k:02d}" for k in range(12)], n)
    product = rng.choice([f"p{k:02d}" for k in range(40)], n)
    flag = rng.integers(0, 2, n)
    frame = pd.DataFrame({
        "age": age, "income": income, "debt": debt, "score": score, "months": months, "ratio": ratio,
        "region": region, "product": pd.Categorical(product), "flag": flag,
    })
    frame.loc[rng.random(n) < 0.08, "income"] = np.nan
    frame.loc[rng.random(n) < 0.03, "months"] = np.nan
    frame.loc[rng.random(n) < 0.05, "region"] = None
    label = ((score < 600) & (ratio > 0.3)) | ((age < 25) & (flag == 1)) | (months < 6)
    frame["label"] = np.where(rng.random(n) < 0.08, ~label, label).astype(int)
    return frame


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write(directory: Path, rows: int, files: int, columns: str | None = None) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    frame = table(rows)
    if columns:
        frame = frame[[*columns.split(","), "label"]]
    for k, part in enumerate(np.array_split(np.arange(rows), files)):
        frame.iloc[part].to_parquet(directory / f"part-{k:03d}.parquet", row_group_size=100_000, index=False)
    print(f"wrote {rows} rows in {files} files to {directory} in {time.perf_counter() - start:.1f} s")


def read(directory: Path) -> None:
    from rulemodels.data import FeatureBinarizer, read_stream

    start = time.perf_counter()
    data = read_stream(directory, "label", binarizer=FeatureBinarizer(nan="indicator"))
    seconds = time.perf_counter() - start
    print(
        f"read {data.n_samples} rows -> {data.n_patterns} distinct patterns, {len(data.binarizer.literals_)} literals, "
        f"sampled thresholds: {data.approximate or 'none'}; {seconds:.1f} s, peak RSS {peak_rss_mib():.0f} MiB"
    )


def fit(directory: Path, form: str) -> None:
    from rulemodels import BooleanRuleClassifier

    start = time.perf_counter()
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, form=form, verbose=1).fit(directory, "label")
    seconds = time.perf_counter() - start
    print(f"{form}: {clf.rule_}")
    print(
        f"{form}: {clf.n_samples_seen_} rows as {clf.n_patterns_} patterns, training error {clf.training_error_:.4f}, "
        f"{seconds:.1f} s, peak RSS {peak_rss_mib():.0f} MiB"
    )


def approx(rows: int, sample: int) -> None:
    """Training and held-out error with exact thresholds and with thresholds from a sample of ``sample`` values."""
    import tempfile

    from rulemodels import BooleanRuleClassifier
    from rulemodels.data import _stream

    frame = table(rows, seed=1)
    test = table(rows, seed=2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "train.parquet"
        frame.to_parquet(path, row_group_size=50_000, index=False)
        for form in ("dnf", "cnf"):
            results = {}
            for name, cap in (("exact", 10**9), (f"sample of {sample}", 100)):
                original = _stream.read_stream.__kwdefaults__.copy()
                _stream.read_stream.__kwdefaults__.update(exact_distinct=cap, sample_size=sample)
                try:
                    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, form=form).fit(path, "label")
                finally:
                    _stream.read_stream.__kwdefaults__.update(original)
                held_out = float(np.mean(clf.predict(test.drop(columns="label")) != test["label"].to_numpy()))
                results[name] = (clf.training_error_, held_out, str(clf.rule_))
            for name, (train, held, rule) in results.items():
                print(f"{form} {name}: training error {train:.4f}, held-out error {held:.4f}: {rule}")


def ranks(directory: Path) -> None:
    """The sampled thresholds (default cap and sample size) against the exact ones of the in-memory binarizer."""
    from rulemodels.data import FeatureBinarizer, read_stream

    data = read_stream(directory, "label", binarizer=FeatureBinarizer(nan="indicator"))
    frame = pd.read_parquet(directory)
    for name in data.approximate:
        exact = FeatureBinarizer(nan="indicator").fit(frame[[name]]).thresholds_[name]
        sampled = data.binarizer.thresholds_[name]
        values = np.sort(frame[name].dropna().to_numpy())
        levels = np.arange(1, len(exact) + 1) / (len(exact) + 1)
        error = np.abs(np.searchsorted(values, sampled, side="right") / len(values) - levels)
        exact_error = np.abs(np.searchsorted(values, exact, side="right") / len(values) - levels)
        print(
            f"{name}: {len(values)} present values, {np.unique(values).size} distinct; max rank error of the "
            f"sampled thresholds {error.max():.5f} (exact: {exact_error.max():.5f}); "
            f"max relative difference {np.max(np.abs(sampled - exact) / np.abs(exact)):.2e}"
        )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("write", "read", "fit", "approx", "ranks"))
    parser.add_argument("directory", nargs="?", type=Path)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--form", default="dnf")
    parser.add_argument("--columns", help="write: only these feature columns (comma-separated)")
    parser.add_argument("--sample", type=int, default=2_000, help="approx: the sample size of the sampled thresholds")
    args = parser.parse_args(argv)
    if args.command == "write":
        write(args.directory, args.rows, args.files, args.columns)
    elif args.command == "read":
        read(args.directory)
    elif args.command == "fit":
        fit(args.directory, args.form)
    elif args.command == "ranks":
        ranks(args.directory)
    else:
        approx(args.rows, args.sample)


if __name__ == "__main__":
    main(sys.argv[1:])
