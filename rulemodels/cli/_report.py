"""The ``report`` command: a saved rule on labelled data as one self-contained HTML file (:mod:`rulemodels.report`).

It reads the rule file and the data as ``predict`` does (the rule's columns
by their saved kinds, Parquet whole), checks ``--out`` before any work and
writes the page atomically.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulemodels.cli._args import EXIT_OK, _checked_output, _csv_options


def _cmd_report(args: argparse.Namespace) -> int:
    """Write the HTML report of RULE.json on DATA (its label column: --target, else the rule file's target)."""
    from rulemodels.data import is_bundled_dataset, read_features, resolve_target
    from rulemodels.report import report_html
    from rulemodels.rules import load_model

    bundled = is_bundled_dataset(args.data)
    inputs = [("RULE.json", args.rule)] + ([] if bundled else [("DATA.csv", args.data)])
    if args.results is not None:
        inputs.append(("--results file", args.results))
    out = _checked_output(args.out, inputs)
    model = load_model(args.rule)
    if bundled:  # the labels as 'fit' saw them: 0/1 for the dataset's positive class
        from rulemodels.datasets import load_dataset

        X, labels = load_dataset(args.data)
        if args.target is not None and args.target != labels.name:
            raise ValueError(f"bundled dataset '{args.data}' has target '{labels.name}', not '{args.target}'")
        frame, target, name = X.assign(**{str(labels.name): labels}), str(labels.name), args.data
    else:
        frame = read_features(args.data, _csv_options(args), dtypes=model.csv_dtypes())
        columns = [str(c) for c in frame.columns]
        if args.target is not None:
            target = resolve_target(args.target, columns)
        elif model.target in columns:
            target = model.target
        else:
            raise ValueError(
                f"'{args.data}' has no column '{model.target}', the target of the rule file: the report needs each "
                "row's label; name the label column with --target (or the rule file was learned for another target)"
            )
        name = Path(args.data).name
    report_html(args.rule, frame, frame[target], by=args.by, results=args.results, data_name=name, out=out)
    print(f"wrote the report of {args.rule} on {name} ({len(frame)} rows) to {out}", file=sys.stderr)
    return EXIT_OK
