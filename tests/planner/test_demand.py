"""Workload demand: targets cap paths (demand-capped max-min fair sharing), the workloads section
of the analysis, the WORKLOAD_UNMET rule and the analyze output. Numbers worked by hand."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import analysis_to_dict, format_analysis
from planner import edit
from planner.analysis import analyze, max_min_fair
from planner.demand import direction_share, split
from planner.fixtures import set_raw
from planner.rules import check

VG = "p690.lpar1.datavg"
WL1 = f"{VG}.stripelv01.wl"
WL2 = f"{VG}.stripelv02.wl"


def targets(topo, first, second):
    edit.set_attr(topo, WL1, "target_mbps", first)
    edit.set_attr(topo, WL2, "target_mbps", second)
    return analyze(topo, "planning", "read", "disk")


def by_id(result):
    return {w.id: w for w in result.workloads}


# -- max_min_fair with demands ------------------------------------------------------------------


def test_demand_caps_a_flow_and_the_others_share_the_rest():
    """Hop 0 (10 MB/s) carries flows 0, 1, 2; hop 1 (4) carries flow 2; flow 0 wants 2.
    Filling: flow 0 stops at 2; hop 0 has 8 left for two flows (4 each), hop 1 gives flow 2 its 4
    (the smaller hop wins the tie), flow 1 takes 10 - 2 - 4 = 4."""
    rates, bott = max_min_fair([[0], [0], [0, 1]], [10.0, 4.0], demands=[2.0, math.inf, math.inf])
    assert rates == pytest.approx([2, 4, 4])
    assert bott == [None, 0, 1]


def test_demand_equal_to_the_fair_share_counts_as_met():
    """Two flows on a 10 MB/s hop, one wanting 5: both get 5; the capped one is held by its
    demand (no binding hop), the other by the hop."""
    rates, bott = max_min_fair([[0], [0]], [10.0], demands=[5.0, math.inf])
    assert rates == pytest.approx([5, 5]) and bott == [None, 0]


def test_demand_without_hops_and_no_demand_at_all():
    assert max_min_fair([[]], [], demands=[3.0]) == ([3.0], [None])
    assert max_min_fair([[]], [], demands=None) == ([math.inf], [None])
    assert max_min_fair([[0]], [10.0], demands=[0.0]) == ([0.0], [None])


def test_split_and_direction_share():
    """150 MB/s between wants of 125 and 40: the 40 is met, the other takes 110."""
    assert split(150.0, [125.0, 40.0]) == pytest.approx([110, 40])
    assert split(150.0, [100.0, math.inf]) == pytest.approx([75, 75])
    assert split(math.inf, [5.0]) == [5.0]
    assert direction_share(70, "read") == pytest.approx(0.7)
    assert direction_share(70, "write") == pytest.approx(0.3)


flows_st = st.integers(1, 6).flatmap(
    lambda nh: st.tuples(
        st.lists(st.floats(1, 1000), min_size=nh, max_size=nh),
        st.lists(st.lists(st.integers(0, nh - 1), min_size=1, max_size=nh, unique=True), min_size=1, max_size=8),
    )
)


@settings(max_examples=200, deadline=None)
@given(flows_st, st.data())
def test_fair_share_properties(hops_flows, data):
    """Caps respected, no hop over capacity, and every flow is either at its demand or crosses a
    saturated hop on which no other flow has a higher rate (it cannot grow without taking from a
    flow with an equal or smaller rate)."""
    capacity, flows = hops_flows
    demands = data.draw(
        st.lists(st.one_of(st.just(math.inf), st.floats(0, 1000)), min_size=len(flows), max_size=len(flows))
    )
    rates, bott = max_min_fair(flows, capacity, demands=demands)
    eps = 1e-6 * max(capacity)
    load = [0.0] * len(capacity)
    for f, hops in enumerate(flows):
        assert rates[f] <= demands[f] + eps
        for h in hops:
            load[h] += rates[f]
    assert all(load[h] <= capacity[h] + eps for h in range(len(capacity)))
    for f, hops in enumerate(flows):
        if rates[f] >= demands[f] - eps:
            continue
        assert bott[f] is not None
        assert any(
            load[h] >= capacity[h] - eps and all(rates[g] <= rates[f] + eps for g, hs in enumerate(flows) if h in hs)
            for h in hops
        )


# -- the one-drawer example -------------------------------------------------------------------


def test_targets_the_paths_can_carry(one_drawer):
    """Planning figures: each of the 16 paths is bound by its HBA at 150 MB/s (16 x 150 = 2400).
    Both LVs are striped over all 16 PVs, one path each: targets 1600 and 640 ask 100 + 40 = 140
    of every path. Both met; aggregate 16 x 140 = 2240. Headroom: each HBA has 10 spare and a
    workload sends 1/16 of its I/O through it: 10 x 16 = 160 (the drawer: 2400 - 2240 = 160)."""
    result = targets(one_drawer, 1600, 640)
    assert result.aggregate == pytest.approx(2240)
    wl = by_id(result)
    assert wl[WL1].met and wl[WL1].achieved_mbps == pytest.approx(1600) and wl[WL1].bottleneck is None
    assert wl[WL1].headroom_mbps == pytest.approx(160) and wl[WL1].paths == 16
    assert wl[WL2].met and wl[WL2].achieved_mbps == pytest.approx(640) and wl[WL2].headroom_mbps == pytest.approx(160)
    assert all(p.mbps == pytest.approx(140) and p.bottleneck is None for p in result.paths)


def test_a_target_above_what_the_paths_carry(one_drawer):
    """Targets 2000 and 640 ask 125 + 40 = 165 of each path; the HBA gives 150, shared max-min
    fairly: the 40 is met, the first workload gets 110 per path, 16 x 110 = 1760 of 2000,
    240 short; the HBAs bind it (15 MB/s short on each)."""
    result = targets(one_drawer, 2000, 640)
    assert result.aggregate == pytest.approx(2400)
    wl = by_id(result)
    assert not wl[WL1].met and wl[WL1].achieved_mbps == pytest.approx(1760)
    assert wl[WL1].headroom_mbps == pytest.approx(-240)
    assert one_drawer[wl[WL1].bottleneck].kind == "hba" and len(wl[WL1].binding) == 16
    assert all(v == pytest.approx(15) for v in wl[WL1].binding.values())
    assert wl[WL2].met and wl[WL2].headroom_mbps == pytest.approx(0)


def test_a_workload_without_target_competes(one_drawer):
    """Only the first workload has a target (1600, 100 per path); the second has none, so the
    paths are not capped and each 150 is shared 75 / 75: 16 x 75 = 1200, 400 short."""
    result = targets(one_drawer, 1600, 0)
    assert [w.id for w in result.workloads] == [WL1]
    assert result.workloads[0].achieved_mbps == pytest.approx(1200) and not result.workloads[0].met
    assert result.aggregate == pytest.approx(2400)


def test_no_target_leaves_the_analysis_as_it_was(one_drawer):
    result = analyze(one_drawer, "planning", "read", "disk")
    assert result.workloads == [] and result.aggregate == pytest.approx(2400)


def test_stripe_width_and_direction_share(one_drawer):
    """The first LV is 8 PVs wide: 800 MB/s over 8 PVs asks 100 of the first 8 paths; the
    second asks 320 / 16 = 20 of all 16. Caps: 8 x 120 + 8 x 20 = 1120, all met. With 70 %
    reads the write analysis asks 30 %: 240 over 8 PVs = 30, and 96 / 16 = 6 per path."""
    set_raw(one_drawer, f"{VG}.stripelv01", "width", 8)
    result = targets(one_drawer, 800, 320)
    assert result.aggregate == pytest.approx(1120) and all(w.met for w in result.workloads)
    assert sorted(round(p.mbps) for p in result.paths) == [20] * 8 + [120] * 8
    for wl in (WL1, WL2):
        edit.set_attr(one_drawer, wl, "read_pct", 70)
    write = analyze(one_drawer, "planning", "write", "disk")
    assert {w.id: round(w.target_mbps) for w in write.workloads} == {WL1: 240, WL2: 96}
    assert write.aggregate == pytest.approx(8 * 36 + 8 * 6)


def test_a_pv_without_path_loses_its_share(one_drawer):
    """Drop fastt1's second logical drive from its host mapping: its hdisk (1 of 16 PVs) has no
    path. Targets 1600 and 640 lose 1/16 each: the first gets 15 x 100 = 1500, unmet, no hop to
    blame but the unreached PV."""
    mapping = next(m for m in one_drawer.of_kind("host_mapping") if m.parent == "fastt1")
    set_raw(one_drawer, mapping.id, "logical_drives", ["fastt1.ld1"])
    result = targets(one_drawer, 1600, 640)
    first = by_id(result)[WL1]
    assert first.achieved_mbps == pytest.approx(1500) and not first.met and first.bottleneck is None
    hdisk = [h.id for h in one_drawer.of_kind("hdisk") if h["logical_drive"] == "fastt1.ld2"]
    assert first.unreached_pvs == hdisk
    found = check(one_drawer, rules=["WORKLOAD_UNMET"])
    assert {f.components[0] for f in found} == {WL1, WL2}
    assert hdisk[0] in found[0].components and "Map and zone" in found[0].fix


def test_only_profiles_ignore_targets(one_drawer):
    edit.set_attr(one_drawer, WL1, "target_mbps", 100)
    result = analyze(one_drawer, "planning", "read", "disk", only=["hba.d1s1"])
    assert result.workloads == [] and result.aggregate == pytest.approx(150)


# -- the rule and the outputs -------------------------------------------------------------------


def test_workload_unmet_rule(one_drawer):
    """2000 MB/s asked, 1760 carried: 240 short, two more adapters at 150 MB/s each."""
    targets(one_drawer, 1600, 640)
    assert check(one_drawer, rules=["WORKLOAD_UNMET"]) == []
    targets(one_drawer, 2000, 640)
    (found,) = check(one_drawer, rules=["WORKLOAD_UNMET"])
    assert found.severity == "warning" and found.components[0] == WL1
    assert "2000 MB/s" in found.message and "1760 MB/s" in found.message and "240 MB/s short" in found.message
    assert "16 HBAs" in found.message
    assert "Add 2 adapters" in found.fix and "1760 MB/s" in found.fix
    assert "Choosing the number and slot location" in found.source


def test_workload_unmet_fix_by_where_the_hop_is(one_drawer):
    """Measured figures from disk: each FAStT600 Turbo gives 357 MB/s read with two RAID 5 8+P
    x 128 KB arrays (P690 Table 1), 178.5 per path; the drawer (2650) and links bind first
    (link1: 814 / 5 = 162.8). 3000 MB/s on the first LV is out of reach; the fix names the side."""
    edit.set_attr(one_drawer, WL1, "target_mbps", 3000)
    result = analyze(one_drawer, "measured", "read", "disk")
    res = result.workloads[0]
    assert not res.met and res.achieved_mbps < 3000
    (found,) = check(one_drawer, "measured", rules=["WORKLOAD_UNMET"])
    kind = one_drawer[res.bottleneck].kind
    assert kind in ("drawer", "rio_link") and ("drawer" in found.fix or "PHB" in found.fix)


def test_analyze_json_and_text_list_the_workloads(one_drawer):
    result = targets(one_drawer, 2000, 640)
    data = json.loads(json.dumps(analysis_to_dict(one_drawer, result)))
    first, second = data["workloads"]
    assert set(first) >= {"id", "target_mbps", "achieved_mbps", "met", "bottleneck"}
    assert first["id"] == WL1 and first["target_mbps"] == 2000 and first["achieved_mbps"] == 1760
    assert first["met"] is False and first["bottleneck"].startswith("hba.") and first["headroom_mbps"] == -240
    assert second["met"] is True and second["bottleneck"] is None
    text = format_analysis(one_drawer, result)
    assert "UNMET" in text and "1,760" in text and "headroom" in text
    plain = analyze(one_drawer, "planning", "read", "disk", only=["d1"])
    assert analysis_to_dict(one_drawer, plain)["workloads"] == []


def test_build_sheet_has_a_workloads_section(tmp_path, one_drawer):
    """Targets 2000 and 640 MB/s, all reads: the read column shows 1,760 UNMET and 640 met; the
    write column has no target (0 % writes)."""
    from planner.exports.buildsheet import build_sheet

    edit.set_attr(one_drawer, WL1, "target_mbps", 2000)
    edit.set_attr(one_drawer, WL2, "target_mbps", 640)
    path = tmp_path / "sheet.pdf"
    build_sheet(one_drawer, str(path), compress=False)
    raw = path.read_bytes()
    for text in (b"(Workloads)", b"(1,760 UNMET)", b"(640 met)", b"(2,000)"):
        assert text in raw, text
