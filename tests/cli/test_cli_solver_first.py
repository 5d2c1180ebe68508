"""The command line resolves ``--solver`` before it reads any data."""

from __future__ import annotations

import pytest

from rulemodels.cli import main


@pytest.mark.parametrize("command", [
    ["fit", "{missing}", "--target", "y"],
    ["fit", "{missing_parquet}", "--target", "y"],
    ["exact", "{missing}", "--target", "y"],
    ["cv", "liver", "--results", "{results}"],
])
def test_an_unknown_solver_fails_before_the_data_is_read(tmp_path, capsys, monkeypatch, command) -> None:
    import rulemodels.data

    def refuse(*args, **kwargs):
        raise AssertionError("the data was read before the solver was resolved")

    monkeypatch.setattr(rulemodels.data, "load_data", refuse)
    paths = {"missing": tmp_path / "absent.csv", "missing_parquet": tmp_path / "absent.parquet", "results": tmp_path / "r.jsonl"}
    argv = [part.format(**paths) for part in command] + ["--solver", "hihgs"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "unknown solver 'hihgs'" in err and "absent" not in err
    assert not (tmp_path / "r.jsonl").exists()
