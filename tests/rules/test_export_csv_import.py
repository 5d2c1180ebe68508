"""The SQL export on a CSV file loaded as SQLite's ``.import`` loads it: every column TEXT,
empty cells ``''``. Thresholds compare numbers stored as text as numbers (``"x" + 0``), so after the
documented ``UPDATE ... SET x = NULL WHERE x = ''`` the SQL flags exactly the rows ``predict`` flags (it
flagged 527 rows where ``predict`` flagged 495)."""

from __future__ import annotations

import csv
import sqlite3

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier
from rulemodels.data import CSVOptions, read_features
from rulemodels.rules import to_sql
from rulemodels.rules._export import sql_identifier


@pytest.fixture(scope="module")
def csv_and_model(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 600
    frame = pd.DataFrame({
        "balance": rng.gamma(2.0, 600.0, n).round(2),  # 99.5 < 1249.8 as numbers, not as text
        "income": rng.normal(40000, 12000, n).round(0),
        "student": rng.choice(["Yes", "No"], n),
        "flag": rng.integers(0, 2, n),
    })
    frame.loc[rng.random(n) < 0.1, "balance"] = np.nan
    frame.loc[rng.random(n) < 0.1, "student"] = None
    y = ((frame["balance"] > 1500) | ((frame["student"] == "Yes") & (frame["income"] < 30000))).astype(int)
    y = np.where(rng.random(n) < 0.05, 1 - y, y)
    path = tmp_path_factory.mktemp("import") / "data.csv"
    frame.assign(default=y).to_csv(path, index=False)
    clf = BooleanRuleClassifier(theta=0.01).fit(frame, y)
    assert any(lit.op in ("<=", ">") for lit in clf.rule_.literals), "the rule needs a threshold to test the cast"
    return path, clf


def import_like_sqlite_cli(path) -> sqlite3.Connection:
    """The table ``data`` as ``sqlite3 db '.import --csv data.csv data'`` makes it: the header row names TEXT
    columns, and every cell is stored as its text (an empty cell as '')."""
    connection = sqlite3.connect(":memory:")
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    columns = ", ".join(f"{sql_identifier(name)} TEXT" for name in header)
    connection.execute(f"CREATE TABLE data ({columns})")
    connection.executemany(f"INSERT INTO data VALUES ({', '.join('?' * len(header))})", body)
    assert connection.execute("SELECT typeof(balance) FROM data LIMIT 1").fetchone() == ("text",)
    return connection


def flagged(connection: sqlite3.Connection, sql: str) -> np.ndarray:
    return np.array([row[0] for row in connection.execute(f"SELECT CASE WHEN {sql} THEN 1 ELSE 0 END FROM data")])


def test_the_sql_on_an_imported_csv_agrees_with_predict_once_empty_cells_are_null(csv_and_model) -> None:
    path, clf = csv_and_model
    connection = import_like_sqlite_cli(path)
    for name in ("balance", "income", "student", "flag"):  # the documented step
        connection.execute(f"UPDATE data SET {sql_identifier(name)} = NULL WHERE {sql_identifier(name)} = ''")
    frame = read_features(path, CSVOptions()).drop(columns="default")
    expected = clf.predict(frame)
    np.testing.assert_array_equal(flagged(connection, to_sql(clf.rule_)), expected)
    np.testing.assert_array_equal(flagged(connection, clf.to_sql()), expected)
    # without the cast, SQLite compares the text '99.5' with the number 1249.8 as text, and disagrees
    assert (flagged(connection, to_sql(clf.rule_, cast=False)) != expected).any()


def test_cli_export_casts_unless_told_the_columns_are_typed(csv_and_model, tmp_path, capsys) -> None:
    from rulemodels.cli import main

    path, _ = csv_and_model
    rule = tmp_path / "rule.json"
    assert main(["fit", str(path), "--target", "default", "--theta", "0.01", "--out", str(rule)]) == 0
    capsys.readouterr()
    assert main(["export", str(rule)]) == 0
    assert '"balance" + 0 ' in capsys.readouterr().out
    assert main(["export", str(rule), "--no-cast"]) == 0
    typed = capsys.readouterr().out
    assert "+ 0" not in typed and '"balance" ' in typed
    assert main(["export", str(rule), "--format", "query", "--no-cast"]) == 2
    assert "--no-cast is for --format sql" in capsys.readouterr().err
