"""The figures of the README and of docs/defaults_compared.md are the committed records' (benchmarks/studies/front_figures.py)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from benchmarks.studies import front_figures
from benchmarks.studies.real_tables import read_records

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return read_records(front_figures.RECORDS)


def test_the_pages_show_the_committed_records(records):
    diff = front_figures.differences(records, ROOT)
    assert not diff, "run python benchmarks/studies/front_figures.py --write\n" + diff


def test_the_same_records_give_the_same_pages(records):
    assert front_figures.Figures(records).blocks() == front_figures.Figures(copy.deepcopy(records)).blocks()
    assert front_figures.Figures(list(records)).blocks() == front_figures.Figures(records).blocks()


def _copy_pages(root: Path) -> None:
    for name in front_figures.PAGES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, root / name)


def test_changing_one_record_changes_a_page_and_the_check_fails(records, tmp_path):
    changed = copy.deepcopy(records)
    # the record in effect: a later record of a fold replaces an earlier one
    record = next(r for r in reversed(changed) if r["table"] == "AER/HMDA" and r["method"] == "rm_cv" and r["fold"] == 0)
    record["error"] += 10 / record["n_test"]  # ten more misclassified rows on one fold
    assert front_figures.Figures(changed).blocks() != front_figures.Figures(records).blocks()
    _copy_pages(tmp_path)
    results = tmp_path / "records.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    assert front_figures.main(["--check", "--results", str(results), "--root", str(tmp_path)]) == 1
    assert front_figures.main(["--write", "--results", str(results), "--root", str(tmp_path)]) == 0
    assert front_figures.main(["--check", "--results", str(results), "--root", str(tmp_path)]) == 0
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert readme.count("<!-- figures: readme-peers -->") == 1 and readme.count("<!-- /figures -->") == 1
    # the rest of the page is untouched
    before = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.split("<!-- figures:")[0] == before.split("<!-- figures:")[0]
    assert readme.split("<!-- /figures -->")[1] == before.split("<!-- /figures -->")[1]


def _fold(table: str, method: str, fold: int, wrong: int, n_test: int = 100, **extra) -> dict:
    return {"table": table, "method": method, "estimator": method, "fold": fold, "params": {}, "commit": "abc1234",
            "n_rows": 5 * n_test, "n_train": 4 * n_test, "n_test": n_test, "majority_error": 0.3,
            "error": wrong / n_test, "balanced_error": 0.4, "fit_seconds": 1.0, "literals": 3, **extra}


def test_level_is_at_most_one_misclassified_row_over_all_folds():
    tables = front_figures.BINARY[:4]
    records = []
    # BooleanRuleCV() minus BRCG in misclassified rows over the five folds: -2, +1, -1 and +3
    for table, rm_cv_wrong in zip(tables, ([8, 10, 10, 10, 10], [11, 10, 10, 10, 10], [10, 10, 10, 10, 9],
                                           [11, 11, 11, 10, 10])):
        for fold in range(5):
            records += [_fold(table, "brcg", fold, 10), _fold(table, "rm_cv", fold, rm_cv_wrong[fold])]
    figures = front_figures.Figures(records)
    ahead, level, behind, compared = figures.versus_brcg()
    assert (ahead, level, behind, compared) == ([tables[0]], [tables[1], tables[2]], [tables[3]], list(tables))
    sentence = figures.versus_brcg_sentence(None)
    assert "On the 4 of the 14 two-class tables with complete records of both" in sentence
    assert "ahead of BRCG on 1, level on 2 and behind on 1, by at most 0.6 points" in sentence


def test_a_cell_without_every_fold_is_shown_missing_and_a_failed_one_failed():
    table = front_figures.PAPER[0]
    records = [_fold(table, "rm_cv", fold, 10) for fold in range(9)]  # 9 of the 10 folds
    records += [{**_fold(table, "brcg", fold, 0), "failed": "MemoryError: no"} for fold in range(10)]
    for record in records:
        if "failed" in record:
            del record["error"]
    blocks = front_figures.Figures(records).blocks()
    row = next(line for line in blocks["defaults-paper-table"].splitlines() if line.startswith(f"| {table.split('/')[1]} "))
    assert row == f"| {table.split('/')[1]} | 22.1 (CNF, 10.4) | failed | {front_figures.MISSING} |"
    records += [_fold(table, "rm_cv", 9, 10)]
    blocks = front_figures.Figures(records).blocks()
    assert f"| {table.split('/')[1]} | 22.1 (CNF, 10.4) | failed | 10.0 (3.0) |" in blocks["defaults-paper-table"]


def test_a_page_without_its_markers_is_refused():
    with pytest.raises(ValueError, match="figure blocks"):
        front_figures.render("no markers here\n", {}, ["readme-peers"], "README.md")
