"""The README's example report: a rule on Pima, its HTML report with a cv Pareto front, and a screenshot of it.

Run from the repository root:  python docs/examples/make_report_example.py [OUTDIR]   (about a minute on 2 cores)

It runs three commands (``fit --out``, ``cv`` with nested folds, ``report``),
writing ``docs/examples/pima_rule.json`` and ``docs/report_example.html``,
then opens the report in headless Chromium (Debian package ``chromium``;
``bash dev.sh setup`` installs it) for ``docs/report_example.png``, the top of
the page. With ``OUTDIR`` the three files are written there instead (the
documentation's build runs it so).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rulemodels.cli import main as rulemodels

DOCS = Path(__file__).resolve().parents[1]
RULE = DOCS / "examples" / "pima_rule.json"
REPORT = DOCS / "report_example.html"
SCREENSHOT = DOCS / "report_example.png"


def run(*arguments: str) -> None:
    print("$ rulemodels", " ".join(arguments), flush=True)
    status = rulemodels(list(arguments))
    if status != 0:
        sys.exit(f"rulemodels {arguments[0]} failed with exit status {status}")


def screenshot(page: Path, png: Path, width: int = 1200, height: int = 1900) -> None:
    """The top ``height`` pixels of the page, as Chromium renders it headless (a throwaway profile)."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        sys.exit("headless Chromium not found: install the Debian package chromium (bash dev.sh setup)")
    with tempfile.TemporaryDirectory(prefix="rulemodels-chromium-") as profile:
        command = [binary, "--headless=new", f"--user-data-dir={profile}", "--disable-gpu", "--hide-scrollbars",
                   f"--window-size={width},{height}", f"--screenshot={png}", page.resolve().as_uri()]
        if os.geteuid() == 0:  # Chromium refuses to sandbox as root
            command.insert(1, "--no-sandbox")
        subprocess.run(command, check=True, capture_output=True, timeout=120)


def shown(path: Path) -> str:
    """The path as a command line would name it: relative to the working directory when inside it."""
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)


def main(out: Path | None = None) -> None:
    rule, report, png = (RULE, REPORT, SCREENSHOT) if out is None else (
        out / RULE.name, out / REPORT.name, out / SCREENSHOT.name)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        results = str(Path(work) / "cv.jsonl")
        run("fit", "pima", "--n-clauses", "2", "--theta", "0.01", "--out", shown(rule))
        run("cv", "pima", "--algorithms", "am", "bcd", "--n-clauses", "1-3", "--thetas", "0.002", "0.005", "0.01",
            "0.02", "0.05", "--folds", "5", "--inner-folds", "3", "--results", results, "--no-progress")
        run("report", shown(rule), "pima", "--results", results, "--by", "age", "--out", shown(report))
    screenshot(report, png)
    print(f"wrote {shown(rule)}, {shown(report)} and {shown(png)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None)
