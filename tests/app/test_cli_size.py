"""``sanplan size``: the steps it prints, the JSON keys, the design it writes, its exit codes."""

from __future__ import annotations

import json

from tests.app.test_cli import _home, run  # noqa: F401  (the CLI tests' fixture and runner)


def test_size_the_paper(tmp_path, capsys):
    out_path = tmp_path / "sized.sanplan"
    code, out, err = run(capsys, "size", str(out_path), "--read", "16000")
    assert code == 0, err
    assert "1. adapters: 150 MB/s per adapter -> 107" in out
    assert "2. drawers: 16 adapters per drawer -> 7" in out
    assert "source: P690 step 1" in out
    assert "Design: 7 drawers, 107 HBAs, 7 switches, 54 subsystems" in out
    assert "Analysis: 16,050 MB/s read" in out and "meets the target" in out
    assert "Binding hops: HBA" in out
    assert out_path.exists()
    code, out, err = run(capsys, "check", str(out_path))
    assert code == 0, out + err


def test_size_whole_drawers_json(tmp_path, capsys):
    code, out, err = run(capsys, "size", str(tmp_path / "p.json"), "--read", "16000", "--whole-drawers", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert set(d) == {"target", "figures", "parts", "steps", "counts", "part_counts", "analysis", "limit", "out"}
    assert d["counts"] == {
        "drawers": 7,
        "hbas": 112,
        "switches": 7,
        "subsystems": 56,
        "arrays": 112,
        "volume_groups": 1,
    }
    assert d["part_counts"]["FC6239"] == 112 and d["part_counts"]["FAStT600-Turbo"] == 56
    assert d["analysis"]["aggregate_mbps"] == 16800 and d["analysis"]["meets_target"]
    assert [s["step"] for s in d["steps"]][:3] == ["adapters", "drawers", "subsystems"]
    assert set(d["steps"][0]) == {"step", "figure", "unit", "source", "count", "why"}
    assert (tmp_path / "p.json").exists()


def test_size_write_headroom_and_parts(tmp_path, capsys):
    code, out, err = run(
        capsys,
        "size",
        str(tmp_path / "w.sanplan"),
        "--write",
        "500",
        "--headroom",
        "20",
        "--figures",
        "rated",
        "--json",
    )
    assert code == 0, err
    d = json.loads(out)
    assert d["analysis"]["write_mbps"] >= 600 and d["target"]["headroom_pct"] == 20


def test_size_impossible_target(tmp_path, capsys):
    code, out, err = run(capsys, "size", str(tmp_path / "x.sanplan"), "--read", "17000")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "7 is the most" in err and "16,800 MB/s" in err
    assert not (tmp_path / "x.sanplan").exists()


def test_size_bad_input(tmp_path, capsys):
    code, _, err = run(capsys, "size", str(tmp_path / "x.sanplan"))
    assert code == 2 and "target" in err
    code, _, err = run(capsys, "size", str(tmp_path / "x.sanplan"), "--read", "300", "--hba", "NOPE")
    assert code == 2 and "no hba part 'NOPE'" in err and len(err.strip().splitlines()) == 1


def test_size_two_fabrics(tmp_path, capsys):
    code, out, err = run(capsys, "size", str(tmp_path / "f.sanplan"), "--read", "600", "--fabrics", "2", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["counts"]["switches"] == 2 and d["counts"]["hbas"] == 4
