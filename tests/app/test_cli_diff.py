"""``sanplan diff OLD NEW``: JSON keys, FILE:SCENARIO, text, exit codes."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from planner import edit
from planner.io import open_project, save_project


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def plan(tmp_path, capsys):
    """The one-drawer example with a second scenario 'less' that has no fcs0 (hba.d1s1)."""
    path = tmp_path / "plan.sanplan"
    assert run(capsys, "example", "p690-one-drawer", path)[0] == 0
    project = open_project(path)
    edit.delete(project.add_scenario("less"), ["hba.d1s1"])
    save_project(project, path)
    return path


@pytest.fixture
def worst(tmp_path, capsys):
    path = tmp_path / "worst.sanplan"
    assert run(capsys, "example", "p690-worst-cabling", path)[0] == 0
    return path


def test_json_keys_and_numbers(plan, capsys):
    """Read 16 x 150 -> 15 x 150 MB/s (planning, HBA-bound); write 16 x 142.5 -> 15 x 142.5
    (array-bound); one FC 6239 fewer. The removed HBA leaves fastt1.ld1 unreachable, an error:
    exit 1."""
    code, out, err = run(capsys, "diff", f"{plan}:Base", f"{plan}:less", "--json")
    assert code == 1, err
    data = json.loads(out)
    assert {"aggregate", "binding_changed", "findings_added", "findings_removed", "parts_delta"} <= set(data)
    assert data["aggregate"]["read"] == {"old": 2400.0, "new": 2250.0, "delta": -150.0}
    assert data["aggregate"]["write"] == {"old": 2280.0, "new": 2137.5, "delta": -142.5}
    assert data["parts_delta"] == {"FC6239": -1}
    assert data["binding_changed"] == [] and data["findings_removed"] == []
    f = next(f for f in data["findings_added"] if f["rule"] == "UNREACHABLE" and f["severity"] == "error")
    assert set(f) >= {"rule", "severity", "components"} and f["components"] == ["fastt1.ld1"]


def test_reverse_exits_0(plan, capsys):
    code, out, _ = run(capsys, "diff", f"{plan}:less", f"{plan}:Base", "--json")
    data = json.loads(out)
    assert code == 0 and data["parts_delta"] == {"FC6239": 1} and data["findings_added"] == []


def test_text_output_worst_cabling(tmp_path, capsys, worst):
    path = tmp_path / "one.sanplan"
    run(capsys, "example", "p690-one-drawer", path)
    code, out, _ = run(capsys, "diff", path, worst, "--figures", "planning")
    assert code == 1  # ASIC_CROSSING is an error
    assert "-800.0" in out and "-680.0" in out
    assert "16 paths: HBA -> backplane" in out and "ASIC_CROSSING" in out
    assert "Bill of materials: unchanged." in out


def test_a_file_alone_is_its_current_scenario(plan, capsys):
    code, out, _ = run(capsys, "diff", plan, f"{plan}:Base", "--json")
    assert code == 0 and json.loads(out)["aggregate"]["read"]["delta"] == 0


def test_unknown_scenario_names_the_scenarios(plan, capsys):
    code, out, err = run(capsys, "diff", f"{plan}:Nope", plan)
    assert code == 2 and out == ""
    assert "no scenario 'Nope'" in err and "Base, less" in err and "Traceback" not in err


def test_missing_file_and_windows_path(tmp_path, capsys):
    code, _, err = run(capsys, "diff", r"C:\plans\a.sanplan:Base", tmp_path / "b.sanplan")
    assert code == 2 and "a.sanplan" in err and "Traceback" not in err


def test_export_pdf_with_changes_from(plan, tmp_path, capsys):
    out = tmp_path / "less.pdf"
    code, stdout, err = run(capsys, "export", plan, "--pdf", out, "--scenario", "less", "--changes-from", "Base")
    assert code == 0, err
    assert "wrote" in stdout and out.stat().st_size > 0
    code, _, err = run(capsys, "export", plan, "--pdf", tmp_path / "x.pdf", "--changes-from", "Nope")
    assert code == 2 and "Base, less" in err
    code, _, err = run(capsys, "export", plan, "--json", tmp_path / "x.json", "--changes-from", "Base")
    assert code == 2 and "--changes-from does not apply" in err
