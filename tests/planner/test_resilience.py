"""Single failures on the paper's designs, with the numbers worked by hand (planning figures,
read from disk: each FC 6239 HBA 150 MB/s binds its path; 16 HBAs give 2,400 MB/s)."""

from __future__ import annotations

import time

import pytest

from planner import edit
from planner.analysis import analyze
from planner.fixtures import set_raw
from planner.resilience import FAIL_KINDS, all_paths, resilience, summary, to_dict


def _by(res, cid):
    return next(f for f in res.failures if f.component == cid)


def test_baseline_is_the_analysis(one_drawer):
    res = resilience(one_drawer)
    assert res.baseline_mbps == pytest.approx(analyze(one_drawer).aggregate) == pytest.approx(2400)
    # 16 owner paths and 16 RDAC standby paths (each HBA to the other LD of its FAStT)
    assert len(all_paths(one_drawer)) == 32


def test_one_hba_fails_its_partner_carries_both_drives(one_drawer):
    """fcs0 (slot 1) serves fastt1.ld1 through controller A. Failing it, RDAC moves ld1 to B:
    fcs1 carries ld1 and ld2 at 75 + 75 = 150 MB/s, so the aggregate loses fcs0's 150:
    2,400 - 150 = 2,250 MB/s; nothing is lost."""
    f = _by(resilience(one_drawer), "hba.d1s1")
    assert f.aggregate_mbps == pytest.approx(2250)
    assert f.loss_mbps == pytest.approx(150)
    assert f.lost_logical_drives == [] and f.lost_workloads == []
    assert f.failed_over == ["fastt1.ld1"]
    # its cable and its switch port remove the same paths: the same outcome
    cable = one_drawer.cable_at("hba.d1s1.0").id
    assert _by(resilience(one_drawer), cable).aggregate_mbps == pytest.approx(2250)


def test_controller_a_fails_rdac_moves_its_drives_to_b(one_drawer):
    """fastt1.A owns ld1. Failing it, ld1 moves to B, and fastt1 delivers only fcs1's 150
    MB/s instead of 300: 2,400 - 150 = 2,250 MB/s, no drive lost."""
    f = _by(resilience(one_drawer), "fastt1.A")
    assert f.failed_over == ["fastt1.ld1"]
    assert f.lost_logical_drives == []
    assert f.aggregate_mbps == pytest.approx(2250)


def test_the_switch_fails_everything_is_lost(one_drawer):
    """One switch carries all 32 paths: failing sw1 leaves 0 MB/s and loses all 16 logical
    drives and both workloads (their VG spans every drive)."""
    res = resilience(one_drawer)
    f = _by(res, "sw1")
    assert f.aggregate_mbps == 0 and f.loss_mbps == pytest.approx(2400)
    assert len(f.lost_logical_drives) == 16 and f.paths_lost == 32
    assert len(f.lost_workloads) == 2
    assert "sw1" in summary(res)["loses_data_access"]


def test_link1_fails_the_pairs_behind_it_are_lost(one_drawer):
    """link1 of planar 0 feeds PHB2 and PHB3: slots 5-9, fcs3..fcs7. FAStT3 (fcs4, fcs5) and
    FAStT4 (fcs6, fcs7) lose both HBAs: 4 drives lost; FAStT2 keeps fcs2 (slot 3, link0) and
    RDAC moves ld2 to A. Left: 16 - 5 = 11 HBAs at 150 = 1,650 MB/s."""
    f = _by(resilience(one_drawer), "d1.p0.link1")
    assert f.lost_logical_drives == ["fastt3.ld1", "fastt3.ld2", "fastt4.ld1", "fastt4.ld2"]
    assert f.failed_over == ["fastt2.ld2"]
    assert f.aggregate_mbps == pytest.approx(1650)


def test_sorted_worst_first_and_summary(one_drawer):
    res = resilience(one_drawer)
    lost = [len(f.lost_logical_drives) for f in res.failures]
    assert lost == sorted(lost, reverse=True)
    assert res.worst.lost_logical_drives and res.worst.aggregate_mbps == 0
    assert {f.kind for f in res.failures} <= set(FAIL_KINDS)
    d = to_dict(one_drawer, res)
    assert set(d["failures"][0]) >= {"component", "kind", "aggregate_mbps", "lost_logical_drives", "unmet_workloads"}
    assert d["failures"][0]["unmet_workloads"] == []  # no workload demand in the analysis


def test_sdd_subsystem_remaining_paths_carry_the_drive(one_drawer):
    """Without RDAC (the part offers SDD) both HBAs of fastt1 carry both drives: 4 paths at
    75 MB/s. Failing fcs0, fcs1 carries both drives at 150 in all: 2,250 MB/s, nothing moved."""
    part = dict(one_drawer.part_of(one_drawer["fastt1"]))
    part["multipath"] = ["SDD"]
    one_drawer.parts[one_drawer["fastt1"].part] = part  # every FAStT shares the part
    res = resilience(one_drawer)
    assert res.baseline_mbps == pytest.approx(2400)
    f = _by(res, "hba.d1s1")
    assert f.failed_over == [] and f.aggregate_mbps == pytest.approx(2250)


def test_no_path_to_the_other_controller_loses_the_drives(one_drawer):
    """Unzone fcs1 from controller B: fastt1's drives hang on fcs0 and controller A alone.
    fcs1 reaches nothing, so fcs0's 150 MB/s is all fastt1 gets: 15 x 150 = 2,250 MB/s."""
    edit.delete(one_drawer, ["z.Z_D1_FCS1_FASTT1_B"])
    res = resilience(one_drawer)
    assert _by(res, "hba.d1s1").lost_logical_drives == ["fastt1.ld1", "fastt1.ld2"]
    assert _by(res, "fastt1.A").lost_logical_drives == ["fastt1.ld1", "fastt1.ld2"]
    # ld2 (owned by B) had no owner path: RDAC already serves it through A
    assert "fastt1.ld2" not in {p.logical_drive for p in analyze(one_drawer).paths}
    assert res.notes and res.baseline_mbps == pytest.approx(2250)


class _Wl:
    def __init__(self, wid, target, met=True):
        self.id, self.target_mbps, self.met = wid, target, met


def test_unmet_workloads_when_the_analysis_offers_demand(one_drawer, monkeypatch):
    """Two workloads on the VG of all 16 drives, targets 1,100 + 1,100 = 2,200 MB/s. A failed
    HBA leaves 2,250 (met); a failed link1 leaves 1,650 < 2,200: both become unmet."""
    import planner.resilience as r

    wls = [c.id for c in one_drawer.of_kind("workload")]
    real = r.analyze

    def with_demand(*a, **k):
        res = real(*a, **k)
        res.workloads = [_Wl(w, 1100) for w in wls]
        return res

    monkeypatch.setattr(r, "analyze", with_demand)
    res = resilience(one_drawer)
    assert _by(res, "hba.d1s1").unmet_workloads == []
    assert _by(res, "d1.p0.link1").unmet_workloads == sorted(wls)


def test_benchmark_within_two_seconds(benchmark_design):
    t0 = time.perf_counter()
    res = resilience(benchmark_design)
    assert time.perf_counter() - t0 < 2.0
    assert res.baseline_mbps == pytest.approx(16800)
    assert {f.component for f in res.data_loss} >= {f"sw{d}" for d in range(1, 8)}
    assert not _by(res, "hba.d1s1").lost_logical_drives


def test_a_fixture_without_owner_is_served_by_nobody(one_drawer):
    set_raw(one_drawer, "fastt1.ld1", "owner", "")
    res = resilience(one_drawer)
    assert res.baseline_mbps <= 2400


def test_build_sheet_has_a_resilience_section(one_drawer, tmp_path):
    from planner.exports.buildsheet import build_sheet
    from tests.planner.exports.test_buildsheet import pdf_lines

    path = tmp_path / "one.pdf"
    build_sheet(one_drawer, str(path), compress=False)
    text = " ".join(pdf_lines(path.read_bytes()))
    assert "Resilience: single failures" in text
    assert "Worst single failure" in text and "Failures that lose data access" in text
    assert "2,250" in text  # one HBA failed: 2,400 - 150 MB/s


def test_identical_server_builds_share_their_fair_shares_with_the_same_results(parts, monkeypatch):
    """A site of identical builds fails each build's parts alike: the fair shares of a set of
    flows numbered locally are computed once per shape, and every copy's failure gets what a
    run computing each of them afresh gets."""
    import planner.resilience as res_module
    from planner.examples import build_site

    calls = []
    fair = res_module.fill_together
    monkeypatch.setattr(res_module, "fill_together", lambda *a: calls.append(1) or fair(*a))
    two = resilience(build_site(parts, 2))
    once = len(calls)
    calls.clear()
    site = build_site(parts, 3)
    three = resilience(site)
    assert len(calls) == once  # the copies after the first found every shape computed
    assert len(three.failures) == 3 * len(two.failures) // 2
    monkeypatch.setattr(res_module, "_shape", lambda flows, caps: object())  # never the same key
    calls.clear()
    fresh = resilience(site)
    assert len(calls) > 2 * once
    assert [vars(f) for f in fresh.failures] == [vars(f) for f in three.failures]
    assert fresh.baseline_mbps == three.baseline_mbps


def test_lost_access_by_component_equals_a_walk_of_every_hop_of_every_path(benchmark_design):
    """The single points of each access, worked out once per route (the paths from one HBA port
    to one host port share all but their array and logical drive), are those of every hop of
    every path, the routes' last hops included: failing the arrays loses their drives."""
    from planner.resilience import Paths, lost_access_by_component

    topo = benchmark_design
    kinds = ("hba", "switch", "controller", "array")
    walk = Paths(topo, [], kinds)
    common: dict[tuple[str, str], set[str]] = {}
    for p in all_paths(topo):
        crossed = {c for h in p.hops for c in walk._failing(h)}
        hba = topo.get(topo[p.hba_port].parent)
        key = ((hba["lpar"] or "") if hba else "", p.logical_drive)
        common[key] = common[key] & crossed if key in common else crossed
    want: dict[str, list[tuple[str, str]]] = {}
    for key, crossed in common.items():
        for cid in crossed:
            want.setdefault(cid, []).append(key)
    got = lost_access_by_component(topo, kinds)
    assert got == {cid: sorted(v) for cid, v in want.items()}
    assert list(got) == [c.id for kind in kinds for c in topo.of_kind(kind) if c.id in want]  # (in kind, design order)
    assert any(topo[cid].kind == "array" for cid in got)  # (what the routes' last hops add)


def test_a_shared_fabric_fails_as_a_fresh_fill_of_the_paths_left(parts, monkeypatch):
    """In hosts that share their fabrics and storage (one set of flows), each failure's
    bandwidth is that of a fresh max-min fair fill of the paths it leaves, unmerged; filled
    from the state of the paths with nothing failed (a large set) or afresh, the report is the
    same bit for bit."""
    import planner.resilience as res_module
    from planner.examples import build_datacenter
    from planner.fairshare import max_min_fair
    from planner.resilience import Paths

    topo = build_datacenter(parts, hosts=8)
    monkeypatch.setattr(res_module, "SHAPE_KEPT_FLOWS", 4)  # (the set counts as large)
    refills = []
    real = res_module.Refilling.fill
    monkeypatch.setattr(res_module.Refilling, "fill", lambda self, chosen: refills.append(1) or real(self, chosen))
    res = resilience(topo)
    assert len(refills) > 50
    base, paths = analyze(topo, cross_check=False), Paths(topo)
    index, caps, flows = {}, [], []
    for p in paths.paths:
        fl = []
        for hid in p.hops:
            load = base.components.get(hid)
            if load is not None and load.capacity and load.capacity > 0:
                fl.append(index.setdefault(hid, len(index)))
                if len(caps) < len(index):
                    caps.append(load.capacity)
        flows.append(fl)
    checked = 0
    for f in res.failures:
        left, _ = paths.serving(set(paths.crossing[f.component]))
        rates, bott = max_min_fair([flows[i] for i in left], caps)
        assert f.aggregate_mbps == pytest.approx(sum(r for r, b in zip(rates, bott) if b is not None), rel=1e-12)
        checked += 1
    assert checked > 100 and len({round(f.aggregate_mbps, 3) for f in res.failures}) >= 3
    monkeypatch.setattr(res_module, "SHAPE_KEPT_FLOWS", 10**6)  # (filled afresh, shapes kept)
    refills.clear()
    again = resilience(topo)
    assert refills == [] and [vars(f) for f in again.failures] == [vars(f) for f in res.failures]


def test_failures_of_equal_impact_keep_the_designs_order(parts):
    """Twelve hosts whose drawers fail alike are listed host by host, as the design has them
    (their ids sort d1, d1-10, d1-11, d1-12, d1-2, ...)."""
    from planner.examples import build_datacenter

    topo = build_datacenter(parts, hosts=12)
    res = resilience(topo, kinds=("drawer",))
    got = [f.component for f in res.failures]
    assert len({(len(f.lost_logical_drives), round(f.aggregate_mbps, 6)) for f in res.failures}) == 1
    assert got == [c.id for c in topo.of_kind("drawer")] and got != sorted(got)
