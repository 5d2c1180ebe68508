"""Helpers shared by the benchmark scripts: machine description, command line, test errors, tables, JSON input and output."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import resource
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    import numpy
    import pyomo
    import scipy

    from solvers import describe_backends

    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "pyomo": pyomo.__version__,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "solvers": {info.name: info.version for info in describe_backends() if info.available},
    }


def study_parser(doc: str, datasets: Sequence[str], out: Path) -> argparse.ArgumentParser:
    """The command line of a study over datasets: ``--datasets``, ``--jobs`` (default 1) and ``--out`` (default
    ``out``), described by the first line of the study's docstring ``doc``; a study adds its own options."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(datasets))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=out)
    return parser


def error_percent(model: Any, X: Any, y: Any) -> float:
    """The test error of a fitted classifier on ``X`` with labels ``y``, in percent."""
    import numpy as np

    return 100.0 * float(np.mean(model.predict(X) != np.asarray(y)))


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far (MiB; Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cell(value: Any, digits: int | None) -> str:
    if isinstance(value, float):
        if digits is None:
            return f"{value:.3g}"
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(rows: Sequence[Mapping[str, Any]], digits: Mapping[str, int] | None = None) -> str:
    """A Markdown table of ``rows`` (columns in the first row's order); ``digits`` per float column."""
    if not rows:
        return "(no rows)"
    digits = dict(digits or {})
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(column, ""), digits.get(column)) for column in columns) + " |")
    return "\n".join(lines)


def write_json(path: Path, report: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, default=str) + "\n")


def open_text(path: Path) -> Any:
    """``path`` opened for reading text, through gzip when its name ends in ``.gz``."""
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def read_json(path: Path) -> Any:
    """A JSON file, gzip-compressed when its name ends in ``.gz``."""
    with open_text(path) as handle:
        return json.load(handle)
