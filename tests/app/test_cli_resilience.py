"""``sanplan resilience``: the JSON keys, the text report, bad input."""

from __future__ import annotations

import json

import pytest

from tests.app.test_cli import _home, run  # noqa: F401  (the CLI tests' fixture and runner)


@pytest.fixture
def one(tmp_path, capsys):
    path = tmp_path / "one.sanplan"
    assert run(capsys, "example", "p690-one-drawer", str(path))[0] == 0
    return path


def test_json_keys_and_numbers(one, capsys):
    code, out, err = run(capsys, "resilience", str(one), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert {"failures", "summary"} <= set(d)
    for f in d["failures"]:
        assert {"component", "kind", "aggregate_mbps", "lost_logical_drives", "unmet_workloads"} <= set(f)
    assert d["baseline_mbps"] == 2400.0
    by = {f["component"]: f for f in d["failures"]}
    assert by["sw1"]["aggregate_mbps"] == 0.0 and len(by["sw1"]["lost_logical_drives"]) == 16
    assert by["hba.d1s1"]["aggregate_mbps"] == 2250.0 and by["hba.d1s1"]["lost_logical_drives"] == []
    assert d["summary"]["worst"]["aggregate_mbps"] == 0.0
    assert "sw1" in d["summary"]["loses_data_access"] and "hba.d1s1" not in d["summary"]["loses_data_access"]


def test_text_report(one, capsys):
    code, out, _ = run(capsys, "resilience", str(one), "--figures", "measured", "--from", "cache")
    assert code == 0
    assert "Worst single failure:" in out and "single failures lose data access" in out
    assert "failed component" in out


def test_missing_file_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "resilience", str(tmp_path / "none.sanplan"))
    assert code == 2 and len(err.strip().splitlines()) == 1
