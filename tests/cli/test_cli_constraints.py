"""``--monotone``, ``--forbid``, ``--feature-cost`` and ``--max-literals-per-clause`` on ``fit`` and ``cv``."""

from __future__ import annotations

import json

import pytest

from rulemodels import Rule
from rulemodels.cli import main
from tests.helpers import require_backend


def rule_features(rule: Rule) -> set[str]:
    return {literal.feature for clause in rule.clauses for literal in clause.literals}


def test_fit_honours_the_constraint_options(tmp_path, capsys) -> None:
    require_backend("highs")
    out = tmp_path / "rule.json"
    assert main(["fit", "pima", "--theta", "0.01"]) == 0
    assert "glucose" in capsys.readouterr().out  # the free rule uses glucose
    args = [
        "fit", "pima", "--theta", "0.01", "--forbid", "glucose", "--monotone", "bmi=-1", "--monotone", "age=+1",
        "--feature-cost", "insulin=5", "--max-literals-per-clause", "1", "--out", str(out),
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    rule = Rule.from_json(json.dumps(json.loads(out.read_text())["rule"]))
    assert "glucose" not in rule_features(rule) and "glucose" not in printed.split("training error")[0]
    assert all(len(clause.literals) <= 1 for clause in rule.clauses)
    for clause in rule.clauses:
        for literal in clause.literals:
            assert not (literal.feature == "bmi" and literal.op == ">") and not (literal.feature == "age" and literal.op == "<=")
    # the rule file records the constraints it was learned under, and the report shows them
    assert json.loads(out.read_text())["metadata"]["constraints"] == {
        "monotone": {"bmi": -1, "age": 1}, "forbidden_features": ["glucose"], "feature_costs": {"insulin": 5.0},
        "max_literals_per_clause": 1,
    }
    page = tmp_path / "report.html"
    assert main(["report", str(out), "pima", "--out", str(page)]) == 0
    recorded = "monotone: {&#x27;bmi&#x27;: -1, &#x27;age&#x27;: 1}; forbidden_features: [&#x27;glucose&#x27;]"
    assert f"<td>domain constraints</td><td>{recorded}" in page.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--monotone", "bmi=2"], "argument --monotone: must be COLUMN=+1 or -1, got 'bmi=2'"),
        (["--monotone", "bmi"], "argument --monotone: must be COLUMN=+1 or -1, got 'bmi'"),
        (["--feature-cost", "bmi=cheap"], "argument --feature-cost: must be COLUMN=COST"),
        (["--max-literals-per-clause", "0"], "argument --max-literals-per-clause: must be an int in the range [1, inf)"),
    ],
)
def test_bad_constraint_options_exit_2(args, message, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["fit", "pima", *args])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_constraint_values_refused_after_parsing_exit_2_or_1(capsys) -> None:
    assert main(["fit", "pima", "--feature-cost", "bmi=-1"]) == 2
    assert "feature_costs['bmi'] must be a finite number >= 0" in capsys.readouterr().err
    assert main(["fit", "pima", "--monotone", "bmi=+1", "--monotone", "bmi=-1"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert main(["fit", "pima", "--forbid", "nope"]) == 1
    assert "the constraints' column 'nope' is not a column of X; its columns are: 'pregnancies'" in capsys.readouterr().err


def test_cv_records_and_keys_carry_the_constraints(tmp_path, capsys) -> None:
    require_backend("highs")
    results = tmp_path / "cv.jsonl"
    base = ["cv", "liver", "--algorithms", "am", "--n-clauses", "1", "--thetas", "0.01", "--folds", "2", "--n-thresholds", "3",
            "--results", str(results), "--backend", "sequential", "--no-progress"]
    assert main([*base, "--forbid", "gamma-glutamyl_transpeptidase", "--max-literals-per-clause", "1"]) == 0
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        assert json.loads(record["constraints"]) == {"forbidden_features": ["gamma-glutamyl_transpeptidase"], "max_literals_per_clause": 1}
        assert "|constraints=" in record["key"]
        rule = Rule.from_json(json.dumps(record["rule"]) if not isinstance(record["rule"], str) else record["rule"])
        assert "gamma-glutamyl_transpeptidase" not in rule_features(rule)
    capsys.readouterr()
    # the same results file without the constraints: other tasks, whose tables would mix two settings
    assert main(base) == 1
    assert "mix constraints values" in capsys.readouterr().err
    free = tmp_path / "free.jsonl"
    assert main([*base[:-5], "--results", str(free), "--backend", "sequential", "--no-progress"]) == 0
    keys = [json.loads(line)["key"] for line in free.read_text().splitlines()]
    assert len(keys) == 2 and not any("constraints" in key for key in keys)  # the keys unconstrained fits always had
