"""The analysis reproduces the paper's measured profile [P690 Figure 4, Table 2] and projection."""

from __future__ import annotations

import math

import pytest

from planner import edit
from planner.analysis import (
    AnalysisError,
    analyze,
    binding_counts,
    binding_kinds,
    find_paths,
    max_min_fair,
    path_indexes,
)


def within(value: float, expected: float, pct: float) -> bool:
    return abs(value - expected) <= expected * pct / 100


# (what the paper profiled, component ids under it, measured MB/s, expected binding hop kind)
PROFILE = [
    ("single HBA", ["hba.d1s1"], 195, "hba"),
    ("PHB1 with 3 HBAs", ["d1.phb1"], 585, "hba"),
    ("PHB3 with 2 HBAs", ["d1.phb3"], 390, "hba"),
    ("link0 (PHB1 only)", ["d1.p0.link0"], 585, "hba"),
    ("link1 with 5 HBAs", ["d1.p0.link1"], 814, "rio_link"),
    ("planar", ["d1.p0"], 1332, None),
    ("drawer", ["d1"], 2650, "drawer"),
]


@pytest.mark.parametrize("what, only, expected, binding", PROFILE, ids=[p[0] for p in PROFILE])
@pytest.mark.parametrize("direction", ["read", "write"])
def test_drawer_profile_matches_figure4(benchmark_design, what, only, expected, binding, direction):
    result = analyze(benchmark_design, "measured", direction, "cache", only=only)
    assert within(result.aggregate, expected, 3), f"{what}: {result.aggregate} vs {expected}"
    if binding:
        kinds = {benchmark_design[b].kind for b in result.binding_hops()}
        assert binding in kinds


def test_link1_not_phb_binds(benchmark_design):
    """Five HBAs behind link1 get 814 together; link1 binds, not PHB2 or PHB3 [P690 Figure 4]."""
    result = analyze(benchmark_design, "measured", "read", "cache", only=["d1.p0.link1"])
    assert len(result.paths) == 5
    assert {p.bottleneck for p in result.paths} == {"d1.p0.link1"}
    for phb in ("d1.phb2", "d1.phb3"):
        assert result.components[phb].utilization < 1


def test_planar_binds_the_phb1_paths(benchmark_design):
    result = analyze(benchmark_design, "measured", "read", "cache", only=["d1.p0"])
    by_hop = result.binding_hops()
    assert by_hop == {"d1.p0.link1": 5, "d1.p0": 3}
    assert result.components["d1.p0"].utilization == pytest.approx(1.0)


def test_seven_drawers_read_and_write(benchmark_design):
    read = analyze(benchmark_design, "measured", "read", "cache")
    write = analyze(benchmark_design, "measured", "write", "cache")
    assert within(read.aggregate, 18558, 3)
    assert within(write.aggregate, 18512, 3)
    # write is bound by the system (18512 measured), read by the drawers (7 x 2650)
    # write: link1s bind their five adapters, the system (18512 measured) binds the rest
    assert write.binding_hops()["p690"] == 112 - 70
    assert {benchmark_design[b].kind for b in write.binding_hops()} == {"server", "rio_link"}
    # read: 7 x 2650 drawers, under the 18558 system figure
    assert {benchmark_design[b].kind for b in read.binding_hops()} == {"drawer", "rio_link"}
    assert len(read.paths) == len(write.paths) == 112
    # by kind: the 70 paths behind the seven link1s, the 42 others behind the system; in the
    # order of the paths for the sizing reports, most paths first for the headline
    counts = binding_counts(benchmark_design, write)
    assert counts == {"rio_link": 70, "server": 42}
    assert next(iter(counts)) == benchmark_design[write.paths[0].bottleneck].kind
    assert binding_kinds(benchmark_design, write) == [("rio_link", 70), ("server", 42)]


def test_drawers_scale_linearly(parts):
    from planner.examples import build_p690

    for n in (1, 3, 7):
        result = analyze(build_p690(parts, n), "measured", "read", "cache", cross_check=False)
        assert within(result.aggregate, 2650 * n, 3)


def test_full_configuration_planning_projection(benchmark_design):
    """Planning figures, from disk: the paper projects 15926 MB/s (106 arrays) + 5% for 112."""
    result = analyze(benchmark_design, "planning", "read", "disk")
    assert within(result.aggregate, 15926 * 1.05, 5)
    assert result.aggregate == pytest.approx(112 * 150)


def test_106_arrays_matches_striped_lv_read(benchmark_design):
    """With 106 of 112 arrays in use the planning figure is 150 x 106 = 15900 ~ 15926 measured."""
    t = benchmark_design
    # take six HBAs out of service by deleting their zones, as six arrays were unavailable
    zones = [z.id for z in t.of_kind("zone")][:6]
    edit.delete(t, zones)
    result = analyze(t, "planning", "read", "disk")
    assert len(result.paths) == 106
    assert within(result.aggregate, 15926, 1)


def test_worst_cabling_halves_per_adapter(worst_cabling, one_drawer):
    """All traffic over the 1600 MB/s backplane: half the per-adapter throughput [P690 App. C]."""
    bad = analyze(worst_cabling, "measured", "read", "cache")
    good = analyze(one_drawer, "measured", "read", "cache")
    per_bad = bad.aggregate / len(bad.paths)
    per_good_hba = min(p.mbps for p in good.paths)
    assert bad.binding_hops() == {"sw1.bp": 16}
    assert per_bad == pytest.approx(100)
    assert per_bad / 195 == pytest.approx(0.5, abs=0.05)
    assert per_good_hba > 160
    assert all("sw1.bp" not in p.hops for p in good.paths)


def test_cross_check_with_max_flow(benchmark_design, worst_cabling):
    for t in (benchmark_design, worst_cabling):
        for figures, source in (("measured", "cache"), ("planning", "disk"), ("rated", "disk")):
            result = analyze(t, figures, "read", source, cross_check=True)
            assert result.max_flow is not None
            assert result.aggregate <= result.max_flow + 1e-6
            assert result.max_flow == pytest.approx(result.aggregate, rel=1e-6)
    result = analyze(worst_cabling, "measured", "read", "cache", cross_check=True)
    assert result.min_cut == ["sw1.bp"]
    assert analyze(worst_cabling, "measured", "read", "cache").max_flow is None  # off the hot path


def test_disk_source_limits_by_array_layout(one_drawer):
    """From disk the FAStT600 Turbo pair gives its Table 1 figure: 357 read / 285 write (8+P)."""
    read = analyze(one_drawer, "measured", "read", "disk")
    write = analyze(one_drawer, "measured", "write", "disk")
    sub = read.components["fastt1"]
    assert sub.capacity == 357 and write.components["fastt1"].capacity == 285
    # read: 8 x 357 = 2856 exceeds the drawer's 2650, so the drawer still binds
    assert within(read.aggregate, 2650, 0.1)
    # write: the arrays (half of the pair's 285 each) bind every path: 8 x 285
    assert {write.components[p.bottleneck].kind for p in write.paths} == {"array"}
    assert within(write.aggregate, 8 * 285, 0.1)


def test_layout_outside_table_is_estimated(one_drawer):
    t = one_drawer
    edit.set_attr(t, "fastt1.arr1", "segment_kb", 64)
    result = analyze(t, "measured", "read", "disk")
    assert result.components["fastt1.arr1"].estimate


def test_paths_follow_zoning_mapping_and_ownership(one_drawer):
    t = one_drawer
    paths, unreachable = find_paths(t)
    assert len(paths) == 16 and not unreachable
    # each HBA sees only the LUN owned by the controller it is zoned to (RDAC)
    p = next(p for p in paths if p.hba_port == "hba.d1s1.0")
    assert p.host_port == "fastt1.A1" and p.logical_drive == "fastt1.ld1"
    assert t[p.logical_drive]["owner"] == "fastt1.A"
    # change the owner: the path moves to the standby side and the A-side HBA loses its LUN
    edit.set_attr(t, "fastt1.ld1", "owner", "fastt1.B")
    paths, unreachable = find_paths(t)
    assert "hba.d1s1.0" in unreachable
    assert any(p.hba_port == "hba.d1s2.0" and p.logical_drive == "fastt1.ld1" for p in paths)
    # remove the zone: the HBA has no path
    edit.set_attr(t, "fastt1.ld1", "owner", "fastt1.A")
    edit.delete(t, ["z.Z_D1_FCS0_FASTT1_A"])
    paths, unreachable = find_paths(t)
    assert "hba.d1s1.0" in unreachable


def test_isl_route(one_drawer, parts):
    """A host port on a second switch of the same fabric is reached over an ISL."""
    t = one_drawer
    edit.add_switch(t, parts["2109-F32"], "fab.FAB_D1", "sw9", domain_id=9)
    cab = t.cable_at("fastt1.A1")
    edit.delete(t, [cab.id])
    edit.add_cable(t, "fastt1.A1", "sw9.p0")
    paths, _ = find_paths(t)
    assert not any(p.host_port == "fastt1.A1" for p in paths)
    edit.delete(t, [t.cable_at("sw1.p30").id])
    edit.add_cable(t, "sw1.p30", "sw9.p31", label="ISL1")
    paths, _ = find_paths(t)
    p = next(p for p in paths if p.host_port == "fastt1.A1")
    assert "sw1.p30" in p.hops and "sw9.p31" in p.hops


def test_isl_routes_take_the_fewest_links_in_a_ring(one_drawer, parts):
    """Five switches of one fabric in a ring: the route between any two crosses the fewest
    links (each switch reached once per search, the searches kept for the next path), and a
    host port two switches away is reached over both links."""
    t = one_drawer
    ring = ["sw1"]
    for n in (7, 8, 9, 10):
        edit.add_switch(t, parts["2109-F32"], "fab.FAB_D1", f"sw{n}", domain_id=n)
        ring.append(f"sw{n}")
    for k, sw in enumerate(ring):  # sw1.p31 - sw7.p30, sw7.p31 - sw8.p30, ... sw10.p31 - sw1.p30
        nxt = ring[(k + 1) % len(ring)]
        for port in (f"{sw}.p31", f"{nxt}.p30"):
            if t.cable_at(port) is not None:
                edit.delete(t, [t.cable_at(port).id])
        edit.add_cable(t, f"{sw}.p31", f"{nxt}.p30", label=f"ISL{k}")
    _, _, isl = path_indexes(t)
    for i, a in enumerate(ring):
        for j, b in enumerate(ring):
            legs = isl.legs(a, b)
            assert len(legs) == min((j - i) % 5, (i - j) % 5)
            at = a
            for s, out_port, _cable, in_port in legs:  # each link leaves the switch reached last
                assert s == at and out_port.startswith(at + ".")
                at = in_port.split(".")[0]
            assert at == b
            assert isl.legs(a, b) is legs  # (kept)
    cab = t.cable_at("fastt1.A1")
    edit.delete(t, [cab.id])
    edit.add_cable(t, "fastt1.A1", "sw8.p0")
    p = next(p for p in find_paths(t)[0] if p.host_port == "fastt1.A1")
    assert [h for h in p.hops if h.endswith((".p30", ".p31"))] == ["sw1.p31", "sw7.p30", "sw7.p31", "sw8.p30"]


def test_max_min_fair_textbook_case():
    """Two hops: A (cap 10) shared by flows 0,1; B (cap 4) used by flow 1 only."""
    rates, bott = max_min_fair([[0], [0, 1]], [10.0, 4.0])
    assert rates == [6.0, 4.0] and bott == [0, 1]
    rates, bott = max_min_fair([[]], [])
    assert math.isinf(rates[0]) and bott == [None]


def test_unknown_options_are_refused(one_drawer):
    with pytest.raises(AnalysisError, match="figure set"):
        analyze(one_drawer, "typical")
    with pytest.raises(AnalysisError, match="read or write"):
        analyze(one_drawer, "planning", "both")


def test_rated_figures_bind_at_design_limits(benchmark_design):
    result = analyze(benchmark_design, "rated", "read", "cache", only=["d1.phb1"])
    # three adapters at 200 rated want 600; the PHB is designed for 450
    assert result.aggregate == pytest.approx(450)
    assert set(result.binding_hops()) == {"d1.phb1"}


def _behind_sixteen_hbas(parts, part_id: str):
    """The one-drawer design with its eight FAStT600 Turbo replaced by one ``part_id``: all 16
    HBAs zoned to its host ports in turn, one partition with every logical drive."""
    from planner.examples import build_p690

    t = build_p690(parts, 1)
    edit.delete(t, [s.id for s in t.of_kind("subsystem")])
    edit.add_subsystem(t, parts[part_id], "big", wwpn_base="20:0b:00:a0:b8:11:22:00")
    edit.add_enclosure(t, "big", parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=14)
    free = [d.id for d in edit.free_drives(t, "big")]
    edit.add_array(t, "big", 5, free[:5], segment_kb=32)
    edit.add_array(t, "big", 5, free[5:10], segment_kb=32)
    edit.add_logical_drive(t, "big.arr1", "big.A", size_gb=100)
    edit.add_logical_drive(t, "big.arr2", "big.B", size_gb=100)
    hbas = [p.id for p in t.of_kind("hba_port")]
    ports = [p.id for p in t.of_kind("host_port")]
    edit.add_host_mapping(t, "big", "P_BIG", hbas, ["big.ld1", "big.ld2"])
    free_sw = [f"sw1.p{n}" for n in range(32) if t.cable_at(f"sw1.p{n}") is None]
    for port, sw_port in zip(ports, free_sw):
        edit.add_cable(t, port, sw_port)
    for n, hp in enumerate(hbas):
        edit.add_zone(t, "fab.FAB_D1", f"Z_{n}", [hp, ports[n % len(ports)]])
    return t


@pytest.mark.parametrize(
    "part_id, ceiling", [("FAStT900", {"rated": 775, "measured": 775, "planning": 750}), ("ESS800", 525)]
)
@pytest.mark.parametrize("figures", ["rated", "measured", "planning"])
@pytest.mark.parametrize("direction", ["read", "write"])
def test_subsystem_capped_at_its_ceiling_from_cache(parts, part_id, ceiling, figures, direction):
    """16 HBAs (16 x 150..200 MB/s, 2400 MB/s and more) behind one subsystem: from cache the
    controllers' rated sequential throughput still binds [P690: FAStT900 775 MB/s over four
    connections, 750 'or more' as the planning figure; ESS 800 525 MB/s]; writes from cache take
    the read ceiling (the paper rates reads only)."""
    t = _behind_sixteen_hbas(parts, part_id)
    expected = ceiling[figures] if isinstance(ceiling, dict) else ceiling
    result = analyze(t, figures, direction, "cache", cross_check=True)
    assert len({p.hba_port for p in result.paths}) == 16  # ESS with SDD: each HBA to both LUNs
    assert result.aggregate == pytest.approx(expected)
    assert result.components["big"].estimate  # derived from a read rating: marked
    assert set(result.binding_hops()) <= {"big", "big.A", "big.B"}
    # each controller carries at most its own ceiling (half the subsystem's: two controllers)
    for ctl in ("big.A", "big.B"):
        assert result.components[ctl].load <= result.components[ctl].capacity + 1e-6
    assert result.max_flow == pytest.approx(result.aggregate)


def test_controller_ceiling_binds_unbalanced_ownership(parts):
    """Both logical drives on controller A of a FAStT900: controller A's share (775 / 2 = 387.5,
    an estimate) binds from cache, although the subsystem could move 775."""
    t = _behind_sixteen_hbas(parts, "FAStT900")
    edit.set_attr(t, "big.ld2", "owner", "big.A")
    result = analyze(t, "rated", "read", "cache")
    assert result.aggregate == pytest.approx(387.5)
    assert set(result.binding_hops()) == {"big.A"}


def test_ceiling_applies_from_disk_too(parts):
    """From disk the subsystem carries the smaller of its layout figure and its ceiling."""
    t = _behind_sixteen_hbas(parts, "ESS800")
    result = analyze(t, "rated", "read", "disk")
    assert result.components["big"].capacity == pytest.approx(525)
    assert result.aggregate <= 525 + 1e-6


#: the profile, per figure set: what each profiled component delivers from cache, read and
#: write. Measured: the paper's figures (Figure 4, Table 2). Rated and planning: the figures'
#: own limits (HBA 200 / 150, PHB 450, link 1000 / 750, planar 1300 / 1200, drawer 2400).
PROFILE_BY_SET = {
    "measured": {"hba.d1s1": 195, "d1.phb1": 585, "d1.phb3": 390, "d1.p0.link0": 585, "d1.p0.link1": 814, "d1": 2650},
    "rated": {"hba.d1s1": 185, "d1.phb1": 450, "d1.phb3": 370, "d1.p0.link0": 450, "d1.p0.link1": 820, "d1": 2400},
    "planning": {"hba.d1s1": 150, "d1.phb1": 450, "d1.phb3": 300, "d1.p0.link0": 450, "d1.p0.link1": 750, "d1": 2400},
}


@pytest.mark.parametrize("figures", ["rated", "measured", "planning"])
@pytest.mark.parametrize("direction", ["read", "write"])
def test_profile_with_controller_ceilings_in_every_figure_set(benchmark_design, figures, direction):
    """The controller and subsystem ceilings apply from cache, and the paper's profile still
    reproduces. Measured: a FAStT600 Turbo carries 390 from cache (both connections at 195,
    Figure 4), above Table 1's disk write 285, so the write profile holds. Rated: one controller
    is 370 / 2 = 185 (one adapter alone gets 185 of its 200) and a subsystem 370 (PHB3's two
    adapters, one subsystem, get 370 of 400). Planning: 150 per adapter binds everywhere."""
    for only, expected in PROFILE_BY_SET[figures].items():
        result = analyze(benchmark_design, figures, direction, "cache", only=[only])
        assert within(result.aggregate, expected, 3 if figures == "measured" else 0.01), (only, result.aggregate)
    full = analyze(benchmark_design, figures, direction, "cache")
    expected_full = {"measured": 18558 if direction == "read" else 18512, "rated": 16800, "planning": 16800}
    assert within(full.aggregate, expected_full[figures], 3 if figures == "measured" else 0.01)
    assert not {benchmark_design[b].kind for b in full.binding_hops()} & {"controller", "subsystem"}
