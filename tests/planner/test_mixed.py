"""Mixed read/write analysis: full-duplex Fibre Channel hops, simplex shared hops, read shares
per workload or per run, and the paper's read-behind-write run [P690 Figure 13]."""

from __future__ import annotations

import json

import pytest

from planner import edit
from planner.analysis import AnalysisError, analyze, max_min_fair, path_read_shares


def within(value: float, expected: float, pct: float) -> bool:
    return abs(value - expected) <= expected * pct / 100


def test_duplex_read_behind_write_from_cache(benchmark_design):
    """The paper's 60 reader/writer pairs moved 18.7 GB/s, 9.35 GB/s each way [P690 Figure 13].

    Measured figures, from cache, 50 % read. Fibre Channel (HBA 195, switch, host port 200) is
    full duplex and binds nothing at 50/50; RIO2 links, planars, drawers and the GX/system are
    simplex and shared, so each path uses them at its whole rate x:
    - link1 814 shared by 5 paths: x = 162.8 (81.4 each way), 70 paths over the 7 drawers;
    - the 6 PHB1 paths of a drawer: drawer 2650 - 5 x 2 x 162.8 = 1022 left, 170.3 each;
      planar 1332 - 814 = 518 for 3, 172.7; PHB1 585 / 3 = 195;
    - the system: 18558 read / 18512 write, shared: a 50/50 path uses 0.5 + 0.5 x 18558/18512 =
      1.00124 of its read figure; the 70 link1 paths use 70 x 162.8 x 1.00124 = 11410, leaving
      7148 for 42 paths: 7148 / (42 x 1.00124) = 169.98 < 170.3, so the system binds them.
    Aggregate 70 x 162.8 + 42 x 169.98 = 18535 (9267.5 each way) vs 18700 measured: -0.9 %.
    The paper calls its figure a floor of true duplex (writer and reader in lock step)."""
    result = analyze(benchmark_design, "measured", "mixed", "cache", read_pct=50)
    assert within(result.aggregate, 18700, 3)
    assert within(result.read_mbps, 9350, 3) and within(result.write_mbps, 9350, 3)
    assert result.aggregate == pytest.approx(18535, abs=1)
    assert result.read_mbps == pytest.approx(result.write_mbps)
    kinds: dict[str, int] = {}
    for b, n in result.binding_hops().items():
        kinds[benchmark_design[b].kind] = kinds.get(benchmark_design[b].kind, 0) + n
    assert kinds == {"rio_link": 70, "server": 42}
    for p in result.paths:
        assert p.read_mbps + p.write_mbps == pytest.approx(p.mbps)
        assert p.read_mbps == pytest.approx(p.write_mbps)


def test_fibre_channel_is_full_duplex(worst_cabling):
    """Worst cabling: read-only, the 1600 MB/s backplane binds the 16 paths (100 each). Mixed
    50/50, the backplane carries 1600 each way: a path uses 0.5 x per direction, so it allows
    x = 200. The simplex hops bind first: each link1 (814) its 5 paths at 162.8, then the drawer
    (2650) the 6 PHB1 paths at (2650 - 10 x 162.8) / 6 = 170.3. Aggregate 2650, the backplane at
    1325 / 1600 = 83 % each way."""
    read = analyze(worst_cabling, "measured", "read", "cache")
    assert read.aggregate == pytest.approx(1600)
    mixed = analyze(worst_cabling, "measured", "mixed", "cache", read_pct=50)
    assert mixed.aggregate == pytest.approx(2650)
    assert mixed.binding_hops() == {"d1.p0.link1": 5, "d1.p1.link1": 5, "d1": 6}
    bp = mixed.components["sw1.bp"]
    assert bp.duplex and bp.read_load == pytest.approx(1325) and bp.write_load == pytest.approx(1325)
    assert bp.utilization == pytest.approx(1325 / 1600)
    assert mixed.components["d1"].utilization == pytest.approx(1.0)


def test_simplex_link_is_shared(benchmark_design):
    """link1 (814, simplex) with 5 adapters at 70 % read: still 814 in all, 569.8 read + 244.2
    write; each HBA (195 each way) carries 0.7 x 162.8 = 114 read and 48.8 write."""
    result = analyze(benchmark_design, "measured", "mixed", "cache", only=["d1.p0.link1"], read_pct=70)
    assert result.aggregate == pytest.approx(814)
    assert result.read_mbps == pytest.approx(569.8) and result.write_mbps == pytest.approx(244.2)
    hba = result.components["hba.d1s5"]
    assert hba.read_load == pytest.approx(113.96) and hba.write_load == pytest.approx(48.84)
    assert hba.utilization == pytest.approx(113.96 / 195)


def test_pure_shares_equal_the_single_direction_runs(benchmark_design):
    for pct, direction in ((100, "read"), (0, "write")):
        mixed = analyze(benchmark_design, "measured", "mixed", "cache", read_pct=pct)
        single = analyze(benchmark_design, "measured", direction, "cache")
        assert mixed.aggregate == pytest.approx(single.aggregate)
        assert mixed.binding_hops() == single.binding_hops()


def test_read_share_per_workload(one_drawer):
    """Without --read-pct each path takes its workloads' read share: the example's workloads read
    100 %; set one of its two to 0 % and each striped PV serves both: the mean, 50 %."""
    t = one_drawer
    paths = analyze(t, "measured", "read", "cache").paths
    assert set(path_read_shares(t, paths)) == {1.0}
    wl = [w.id for w in t.of_kind("workload")]
    assert len(wl) == 2
    edit.set_attr(t, wl[0], "read_pct", 0)
    assert set(path_read_shares(t, paths)) == {0.5}
    by_workload = analyze(t, "measured", "mixed", "cache")
    given = analyze(t, "measured", "mixed", "cache", read_pct=50)
    assert by_workload.aggregate == pytest.approx(given.aggregate)
    assert by_workload.read_pct is None and given.read_pct == 50
    # a logical drive no workload uses: 50 % (the default)
    edit.delete(t, wl)
    assert set(path_read_shares(t, paths)) == {0.5}


def test_weighted_max_min_fair_by_hand():
    """Constraint 0 (cap 10) carries half of flows 0 and 1 (a read capacity at 50 % read);
    constraint 1 (cap 4) all of flow 1. Flow 1 stops at 4; flow 0 takes the rest of
    constraint 0: (10 - 0.5 x 4) / 0.5 = 16."""
    rates, bott = max_min_fair([[0], [0, 1]], [10.0, 4.0], [[0.5], [0.5, 1.0]])
    assert rates == pytest.approx([16.0, 4.0]) and bott == [0, 1]


def test_bad_read_shares_are_refused(one_drawer):
    with pytest.raises(AnalysisError, match="0 to 100"):
        analyze(one_drawer, "planning", "mixed", read_pct=120)
    with pytest.raises(AnalysisError, match="mixed direction only"):
        analyze(one_drawer, "planning", "read", read_pct=50)
    with pytest.raises(AnalysisError, match="read or write, or mixed"):
        analyze(one_drawer, "planning", "both")


def test_cli_mixed_json(tmp_path, capsys, monkeypatch):
    """``analyze --json`` gives read_mbps, write_mbps and aggregate_mbps; --read-pct needs mixed."""
    from app.cli import main

    monkeypatch.setenv("SANPLAN_HOME", str(tmp_path / "home"))
    path = tmp_path / "one.sanplan"
    assert main(["example", "p690-one-drawer", str(path)]) == 0
    capsys.readouterr()
    args = ["analyze", str(path), "--figures", "measured", "--from", "cache", "--json"]
    assert main([*args, "--direction", "mixed", "--read-pct", "50"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["direction"] == "mixed" and got["read_pct"] == 50
    assert got["aggregate_mbps"] == pytest.approx(got["read_mbps"] + got["write_mbps"], abs=0.2)
    assert got["read_mbps"] == pytest.approx(got["write_mbps"])
    assert {"read_mbps", "write_mbps", "mbps"} <= set(got["paths"][0])
    assert main(args) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["read_mbps"] == got["aggregate_mbps"] and got["write_mbps"] == 0
    assert main([*args, "--read-pct", "50"]) == 2
    assert "mixed only" in capsys.readouterr().err
