"""``sanplan grow`` and ``sanplan scaling``: the steps and table they print, the JSON keys, the
scenario grow saves, and their exit codes."""

from __future__ import annotations

import json

from planner.io import open_project
from tests.app.test_cli import _home, run  # noqa: F401  (the CLI tests' fixture and runner)


def _example(tmp_path, capsys, name="p690-one-drawer"):
    path = tmp_path / "d.sanplan"
    code, _, err = run(capsys, "example", name, str(path))
    assert code == 0, err
    return path


def test_grow_saves_a_new_scenario(tmp_path, capsys):
    path = _example(tmp_path, capsys)
    code, out, err = run(capsys, "grow", str(path), "--to", "3000")
    assert code == 0, err
    assert "3. drawers: 16 adapters per drawer -> 1" in out and "source: P690 step 2" in out
    assert "Added: 1 drawer, 4 HBAs, 1 switch, 2 subsystems" in out
    assert "Analysis: 2,400 -> 3,000 MB/s read" in out and "meets the target" in out
    assert "Binding hops: HBA" in out
    project = open_project(str(path))
    assert list(project.scenarios) == ["Base", "Grown to 3,000 MB/s read"]
    base, grown = project.scenarios["Base"], project.scenarios["Grown to 3,000 MB/s read"]
    assert all(grown.get(c.id) == c for c in base.components())
    code, out, err = run(capsys, "check", str(path), "--scenario", "Grown to 3,000 MB/s read")
    assert code == 0, out + err


def test_grow_json_dry_run(tmp_path, capsys):
    path = _example(tmp_path, capsys)
    code, out, err = run(capsys, "grow", str(path), "--to", "3000", "--json", "--dry-run", "--as", "Phase 2")
    assert code == 0, err
    d = json.loads(out)
    assert set(d) == {
        "target",
        "figures",
        "parts",
        "before",
        "steps",
        "added",
        "analysis",
        "designs_analysed",
        "limit",
        "scenario",
        "saved",
    }
    assert d["added"] == {
        "drawers": 1,
        "hbas": 4,
        "switches": 1,
        "subsystems": 2,
        "arrays": 4,
        "idle_subsystems_used": 0,
    }
    assert d["scenario"] == "Phase 2" and d["saved"] is False
    assert d["analysis"]["meets_target"] and d["before"]["aggregate_mbps"] == 2400
    assert list(open_project(str(path)).scenarios) == ["Base"]


def test_grow_refuses_the_impossible_in_one_line(tmp_path, capsys):
    path = _example(tmp_path, capsys)
    code, out, err = run(capsys, "grow", str(path), "--to", "30000")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "at most 7 drawers" in err and "16,800 MB/s" in err


def test_scaling_table_and_json(tmp_path, capsys):
    path = _example(tmp_path, capsys)
    code, out, err = run(capsys, "scaling", str(path), "--figures", "measured", "--from", "cache")
    assert code == 0, err
    assert "       1        195  HBA" in out
    assert "<- knee: 195 -> 162 MB/s per HBA, then planar binds" in out
    assert out.strip().splitlines()[-1].split()[:2] == ["16", "2,650"]
    code, out, err = run(capsys, "scaling", str(path), "--by", "drawer", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["by"] == "drawer" and d["points"][0]["mbps"] == 2400 and d["points"][0]["binding"] == "hba"


def test_grow_refuses_a_taken_scenario_name(tmp_path, capsys):
    path = _example(tmp_path, capsys)
    code, out, err = run(capsys, "grow", str(path), "--to", "3000", "--as", "Base")
    assert code == 2 and "already used" in err
