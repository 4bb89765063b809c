"""The sanplan command as a user runs it: outputs, JSON keys, exit codes, bad input."""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.cli import main


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def worst(tmp_path, capsys):
    path = tmp_path / "worst.sanplan"
    assert run(capsys, "example", "p690-worst-cabling", str(path))[0] == 0
    return path


@pytest.fixture
def one(tmp_path, capsys):
    path = tmp_path / "one.sanplan"
    assert run(capsys, "example", "p690-one-drawer", str(path))[0] == 0
    return path


def test_examples_are_listed_and_written(tmp_path, capsys):
    code, out, _ = run(capsys, "example", "list")
    assert code == 0 and {"p690-benchmark", "p690-one-drawer", "p690-worst-cabling"} <= set(out.split())
    code, _, err = run(capsys, "example", "nope", str(tmp_path / "x.sanplan"))
    assert code == 2 and "p690-benchmark" in err


def test_analyze_json_keys_and_values(one, capsys):
    code, out, _ = run(
        capsys, "analyze", str(one), "--figures", "measured", "--from", "cache", "--json", "--cross-check"
    )
    assert code == 0
    data = json.loads(out)
    assert data["aggregate_mbps"] == pytest.approx(2650, rel=0.03)
    assert data["max_flow_mbps"] == pytest.approx(data["aggregate_mbps"])
    path = data["paths"][0]
    assert set(path) >= {"id", "hops", "mbps", "bottleneck"} and set(path["bottleneck"]) == {"id", "kind"}
    comp = data["components"][0]
    assert set(comp) >= {"id", "kind", "load_mbps", "capacity_mbps", "utilization"}
    assert len(data["paths"]) == 16


def test_analyze_only_profiles_link1(tmp_path, capsys, one):
    code, out, _ = run(
        capsys, "analyze", str(one), "--figures", "measured", "--from", "cache", "--only", "d1.p0.link1", "--json"
    )
    data = json.loads(out)
    assert data["aggregate_mbps"] == pytest.approx(814)
    assert {p["bottleneck"]["id"] for p in data["paths"]} == {"d1.p0.link1"}
    code, _, err = run(capsys, "analyze", str(one), "--only", "d9")
    assert code == 2 and "d9" in err


def test_analyze_human_output(one, capsys):
    code, out, _ = run(capsys, "analyze", str(one))
    assert code == 0 and "Aggregate:" in out and "binding hop" in out and "hba.d1s1.0" in out


def test_check_exit_codes(worst, one, capsys):
    code, out, _ = run(capsys, "check", str(worst), "--json")
    data = json.loads(out)
    assert code == 1
    crossing = [f for f in data["findings"] if f["rule"] == "ASIC_CROSSING"]
    assert crossing and crossing[0]["severity"] == "error"
    assert set(crossing[0]) == {"rule", "severity", "components", "message", "fix", "source"}
    code, out, _ = run(capsys, "check", str(one))
    assert code == 0 and "ASIC_CROSSING" not in out


def test_export_import_round_trip(one, tmp_path, capsys):
    js = tmp_path / "one.json"
    assert run(capsys, "export", str(one), "--json", str(js))[0] == 0
    data = json.loads(js.read_text())
    assert all("label" in c for c in data["cables"]) and all("name" in z for z in data["zones"])
    back = tmp_path / "back.sanplan"
    assert run(capsys, "import", str(js), str(back))[0] == 0
    # the JSON itself is accepted as FILE, and both analyse identically
    a = json.loads(run(capsys, "analyze", str(js), "--json")[1])
    b = json.loads(run(capsys, "analyze", str(back), "--json")[1])
    assert a["aggregate_mbps"] == b["aggregate_mbps"] and a["paths"] == b["paths"]


def test_revisions_and_restore(one, tmp_path, capsys):
    from planner import edit
    from planner.io import open_project, save_project

    project = open_project(one)
    edit.delete(project.topology, ["fastt1"])
    save_project(project, one, message="removed fastt1")
    code, out, _ = run(capsys, "revisions", str(one))
    assert code == 0 and "removed fastt1" in out
    assert run(capsys, "restore", str(one), "1")[0] == 0
    assert "fastt1" in open_project(one).topology


BAD = {
    "missing": None,
    "empty": b"",
    "truncated": "TRUNC",
    "garbage": b"\x00\xffthis is not a design" * 20,
    "text": b"hello world\n",
    "bad-json": b'{"format": "sanplan-design", "schema_version": 1, "cables": [',
}


@pytest.mark.parametrize("kind", list(BAD) + ["foreign-sqlite", "newer"])
@pytest.mark.parametrize("command", ["analyze", "check", "export"])
def test_bad_files_get_one_line_and_exit_2(kind, command, tmp_path, one, capsys):
    path = tmp_path / f"{kind}.sanplan"
    content = BAD.get(kind)
    if kind == "truncated":
        path.write_bytes(one.read_bytes()[:3000])
    elif kind == "foreign-sqlite":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE t (x)")
        db.commit()
        db.close()
    elif kind == "newer":
        path.write_bytes(one.read_bytes())
        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version=99")
        db.commit()
        db.close()
    elif content is not None:
        path.write_bytes(content)
    before = path.read_bytes() if path.exists() else None
    argv = [command, str(path)] + (["--json", str(tmp_path / "out.json")] if command == "export" else [])
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and path.name in lines[0] and "Traceback" not in err
    assert (path.read_bytes() if path.exists() else None) == before


def test_import_refuses_to_overwrite_a_foreign_file(tmp_path, one, capsys):
    js = tmp_path / "one.json"
    run(capsys, "export", str(one), "--json", str(js))
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes")
    code, _, err = run(capsys, "import", str(js), str(precious))
    assert code == 2 and "notes.txt" in err and precious.read_text() == "my notes"


def test_bad_option_is_one_line(capsys):
    code, _, err = run(capsys, "analyze", "x.sanplan", "--figures", "typical")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_headless_default_job(capsys):
    code, out, _ = run(capsys)
    assert code == 0
    assert "16,800.0 MB/s" in out and "18,550" in out and "18,512" in out
    assert "errors" in out


def test_parts_lists_figures_with_sources(capsys):
    code, out, _ = run(capsys, "parts", "--kind", "hba")
    assert code == 0 and "FC6239" in out and "195" in out and "P690" in out


def test_display_without_working_qt_falls_back_to_headless(capsys, monkeypatch):
    """A display is set but Qt cannot open a window there: one line says why, the job runs headless."""
    monkeypatch.setenv("DISPLAY", ":999")  # no X server behind it
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    code, out, err = run(capsys)
    assert code == 0 and "16,800.0 MB/s" in out
    assert "running headless" in err and len(err.strip().splitlines()) == 1


def test_analyze_without_the_cross_check_and_the_generated_sites(one, capsys):
    code, out, _ = run(capsys, "analyze", str(one), "--json")  # the cross-check is opt-in
    data = json.loads(out)
    assert code == 0 and data["max_flow_mbps"] is None and data["min_cut"] == []
    code, text, _ = run(capsys, "analyze", str(one))
    assert code == 0 and "max-flow" not in text
    _, no_check, _ = run(capsys, "analyze", str(one), "--json", "--no-cross-check")  # still accepted: the default
    assert json.loads(no_check) == data
    _, with_check, _ = run(capsys, "analyze", str(one), "--json", "--cross-check")
    checked = json.loads(with_check)
    assert checked["max_flow_mbps"] == pytest.approx(data["aggregate_mbps"]) and checked["min_cut"]
    assert {k: v for k, v in checked.items() if k not in ("max_flow_mbps", "min_cut")} == {
        k: v for k, v in data.items() if k not in ("max_flow_mbps", "min_cut")
    }
    code, text, _ = run(capsys, "analyze", str(one), "--cross-check")
    assert code == 0 and "max-flow cross-check" in text
    code, out, _ = run(capsys, "example", "list")
    assert code == 0 and {"site-16x", "site-32x"} <= set(out.split())


def test_analyze_counts_a_site_s_groups_in_plain_words(parts):
    """A site with more than 16 switches (three servers: 21) lists each group as a count: "21
    switches", not "21 switchs"."""
    from app.cli import format_analysis
    from planner.analysis import analyze
    from planner.examples import build_site

    site = build_site(parts, 3)
    text = format_analysis(site, analyze(site))
    assert "Per switch: 21 switches, " in text and "Per drawer: 21 drawers, " in text
    assert "switchs" not in text
