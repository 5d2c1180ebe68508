"""``predict``'s ID column is the data's, as written, so that the predictions join back to the records: the
text of each CSV cell (leading zeros, 17-digit numbers, empty cells), a Parquet column in its Arrow type
(``int64`` with a null stays integers), the features parsed as before; a saved ID column the data lacks is an
error that says how to proceed."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from rulemodels.cli import main
from rulemodels.data import CSVOptions, read_features, read_text_columns
from rulemodels.rules import load_model

N_ROWS = 60
#: ID cells as written in the CSV file, a few that pandas would rewrite among zero-padded ones.
AWKWARD = {0: "000001", 3: "", 7: "12345678901234567", 11: "NA", 12: "00042", 20: "?"}


def csv_cells(path, column: str) -> list[str]:
    """The cells of ``column`` of a CSV file, as the characters written (the csv module parses nothing)."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    index = rows[0].index(column)
    return [row[index] for row in rows[1:]]


@pytest.fixture(scope="module")
def records_with_ids(tmp_path_factory):
    """A CSV file of records (ID column ``record``; ``x`` decides ``label``) and a rule fitted on it with ``--id record``."""
    directory = tmp_path_factory.mktemp("ids")
    rng = np.random.default_rng(7)
    x = np.round(rng.normal(size=N_ROWS), 2)
    ids = [AWKWARD.get(k, f"{k + 1:06d}") for k in range(N_ROWS)]
    x_cells = [f"{v:.2f}" for v in x]  # "0.50": two decimals as written, which a float prints as 0.5
    with open(directory / "records.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["record", "x", "label"])
        writer.writerows(zip(ids, x_cells, (x > 0).astype(int), strict=True))
    rule = directory / "rule.json"
    assert main(["fit", str(directory / "records.csv"), "--target", "label", "--id", "record", "--algorithm", "am",
                 "--n-clauses", "1", "--out", str(rule)]) == 0
    assert load_model(rule).metadata["id_column"] == "record" and load_model(rule).rule.features == ("x",)
    return directory, ids, x_cells


def test_a_csv_id_column_is_copied_as_the_text_of_its_cells(records_with_ids, tmp_path, capsys) -> None:
    directory, ids, _ = records_with_ids
    out = tmp_path / "predictions.csv"
    assert main(["predict", str(directory / "rule.json"), str(directory / "records.csv"), "--out", str(out)]) == 0
    capsys.readouterr()
    written = csv_cells(out, "record")
    assert written[0] == "000001" and written[12] == "00042"  # leading zeros
    assert written[3] == ""  # an empty cell stays empty, and the other IDs stay text (not 2.0)
    assert written[7] == "12345678901234567"  # not 1.2345678901234568e+16
    assert written[11] == "NA" and written[20] == "?"  # missing-value markers of the features are IDs here
    assert written == ids
    assert csv_cells(out, "prediction") == csv_cells(directory / "records.csv", "label")  # the rule is x > 0


def test_id_columns_are_read_as_text_with_the_files_options(tmp_path) -> None:
    """``read_text_columns`` follows the separator, the header and the encoding that the features are read with."""
    data = tmp_path / "records.csv"
    data.write_bytes("000001; 1,5; Zoë\n; 2,5; \n12345678901234567; 3,5; NA\n".encode("latin-1"))
    options = CSVOptions(header=False, sep=";", encoding="latin-1")
    frame = read_text_columns(data, ["x2", "x0"], options)
    assert list(frame.columns) == ["x2", "x0"]
    assert frame["x0"].tolist() == ["000001", "", "12345678901234567"]
    assert frame["x2"].tolist() == ["Zoë", "", "NA"]  # spaces after the separator skipped, as for every column
    assert len(read_features(data, options)) == len(frame)
    with pytest.raises(ValueError, match="no column"):
        read_text_columns(data, ["x7"], options)
    with pytest.raises(ValueError, match="not a column of a file without a header"):
        read_text_columns(data, ["record"], options)


def test_an_id_column_that_is_also_a_feature_is_copied_as_text_and_predicted_from_as_a_number(
    records_with_ids, tmp_path, capsys
) -> None:
    directory, _, x_cells = records_with_ids
    plain, as_id = tmp_path / "plain.csv", tmp_path / "as_id.csv"
    rule, data = str(directory / "rule.json"), str(directory / "records.csv")
    assert main(["predict", rule, data, "--proba", "--out", str(plain)]) == 0
    assert main(["predict", rule, data, "--id", "x", "--proba", "--out", str(as_id)]) == 0
    capsys.readouterr()
    assert csv_cells(as_id, "x") == x_cells  # "0.50" as written, not 0.5
    assert any(cell.endswith("0") and "." in cell for cell in x_cells)  # the data has such cells
    assert csv_cells(as_id, "prediction") == csv_cells(plain, "prediction")  # the feature is still a number
    assert csv_cells(as_id, "probability") == csv_cells(plain, "probability")
    assert csv_cells(plain, "prediction") == csv_cells(directory / "records.csv", "label")


def test_a_saved_id_column_the_data_lacks_is_an_error_that_says_how_to_proceed(records_with_ids, tmp_path, capsys) -> None:
    directory, _, x_cells = records_with_ids
    data = tmp_path / "no_ids.csv"
    with open(data, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["key", "x"], *([f"K{k}", cell] for k, cell in enumerate(x_cells))])
    rule, out = str(directory / "rule.json"), tmp_path / "predictions.csv"
    assert main(["predict", rule, str(data), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "the rule file's ID column 'record' (from 'fit --id') is not a column of the data" in err
    assert "--id COL" in err and "--no-id" in err and "'key', 'x'" in err
    assert not out.exists()
    assert main(["predict", rule, str(data), "--id", "key", "--out", str(out)]) == 0
    assert csv_cells(out, "key") == [f"K{k}" for k in range(N_ROWS)]
    assert main(["predict", rule, str(data), "--no-id", "--out", str(out)]) == 0
    assert csv_cells(out, "prediction") == [str(int(float(cell) > 0)) for cell in x_cells]
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(["predict", rule, str(data), "--no-id", "--id", "key"])
    assert refused.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("layout", ["file", "directory"])
def test_a_parquet_int64_id_column_with_a_null_keeps_its_integers(records_with_ids, tmp_path, capsys, layout) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    directory, _, x_cells = records_with_ids
    ids = [12345678901234567 + k for k in range(N_ROWS)]
    ids[5] = None
    table = pa.table({
        "record": pa.array(ids, pa.int64()), "x": pa.array([float(c) for c in x_cells]),
        "label": pa.array([int(float(c) > 0) for c in x_cells]),
    })
    if layout == "file":
        data = tmp_path / "records.parquet"
        pq.write_table(table, data)
    else:  # three files, the null in the first: batches whose ID columns are concatenated
        data = tmp_path / "parts"
        data.mkdir()
        for k, start in enumerate(range(0, N_ROWS, 20)):
            pq.write_table(table.slice(start, 20), data / f"part-{k}.parquet")
    out = tmp_path / "predictions.csv"
    assert main(["predict", str(directory / "rule.json"), str(data), "--out", str(out)]) == 0
    capsys.readouterr()
    written = csv_cells(out, "record")
    assert written[5] == ""  # the null
    assert written == ["" if i is None else str(i) for i in ids]  # not 1.2345678901234568e+16
    assert csv_cells(out, "prediction") == [str(int(float(cell) > 0)) for cell in x_cells]
