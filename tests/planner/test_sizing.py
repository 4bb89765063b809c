"""planner.sizing: the paper's steps, the smallest design that meets a target, proved by analysis."""

from __future__ import annotations

import time

import pytest

from planner.analysis import analyze
from planner.rules import check
from planner.sizing import DEFAULT_PARTS, Counts, SizingError, build, meets, size, spread


def _errors(topo):
    return [f for f in check(topo) if f.severity == "error"]


@pytest.fixture(scope="module")
def paper(parts):
    t0 = time.perf_counter()
    s = size(16000, parts=parts)
    s.seconds = time.perf_counter() - t0
    return s


def test_paper_16_gb_s_planning(paper):
    c = paper.counts
    assert (c.drawers, c.switches) == (7, 7)
    assert abs(c.hbas - 112) <= 6 and c.hbas == 107  # fewest: 53 FAStT pairs + one adapter on the 54th
    assert c.subsystems == 54 and c.arrays == 108
    assert paper.analysis.aggregate >= 16000
    assert paper.meets()
    assert not _errors(paper.topology)
    assert len(paper.topology.of_kind("volume_group")) == 1
    assert paper.seconds < 10  # the benchmark's 2 s, with room for a loaded test machine


def test_paper_16_gb_s_whole_drawers_is_the_benchmark(parts):
    s = size(16000, parts=parts, fill_drawers=True)
    c = s.counts
    assert (c.drawers, c.hbas, c.subsystems, c.switches, c.arrays) == (7, 112, 56, 7, 112)
    assert s.analysis.aggregate == pytest.approx(16800)
    assert not _errors(s.topology)


def test_steps_follow_the_paper(paper):
    steps = {st.title: st for st in paper.steps}
    assert list(steps) == ["adapters", "drawers", "subsystems", "switches", "arrays", "volume groups"]
    assert steps["adapters"].figure == 150 and "step 1" in steps["adapters"].source
    assert steps["drawers"].figure == 16 and steps["drawers"].count == 7
    assert steps["subsystems"].count == 54
    assert steps["arrays"].figure == 2 and "8+P" in steps["arrays"].source
    assert steps["volume groups"].count == 1
    assert "maximum" in paper.limit and "HBA" in paper.limit


def test_small_target(parts):
    s = size(300, parts=parts)
    c = s.counts
    assert (c.drawers, c.hbas, c.subsystems, c.switches) == (1, 2, 1, 1)
    assert s.analysis.aggregate >= 300 and not _errors(s.topology)


def test_one_adapter(parts):
    s = size(150, parts=parts)
    assert (s.counts.hbas, s.counts.subsystems) == (1, 1)
    assert not _errors(s.topology)


@pytest.mark.parametrize("target", [400, 1200, 2400, 2500])
def test_sizes_across_phb_link_planar_and_drawer(parts, target):
    s = size(target, parts=parts)
    assert s.analysis.aggregate >= target and not _errors(s.topology)
    assert s.counts.drawers == (1 if target <= 2400 else 2)


def test_impossible_target(parts):
    with pytest.raises(SizingError, match="7 is the most.*16,800 MB/s"):
        size(17000, parts=parts)


def test_headroom(parts):
    s = size(300, parts=parts, headroom_pct=50)
    assert s.analysis.aggregate >= 450
    assert s.counts.hbas == 3


@pytest.mark.parametrize("figures", ["rated", "measured", "planning"])
def test_each_figure_set(parts, figures):
    s = size(2000, parts=parts, figures=figures)
    assert s.meets() and analyze(s.topology, figures).aggregate >= 2000
    assert not _errors(s.topology)


def test_write_and_both(parts):
    w = size(0, 1000, parts=parts)
    assert w.analysis.write_mbps >= 1000 and w.analysis.direction == "write"
    both = size(1000, 500, parts=parts)
    assert both.analysis.read_mbps >= 1000 and both.analysis.write_mbps >= 500
    assert not _errors(both.topology)


def test_bad_input(parts):
    with pytest.raises(SizingError, match="target"):
        size(0, parts=parts)
    with pytest.raises(SizingError, match="no hba part 'X'"):
        size(300, parts=parts, hba="X")
    with pytest.raises(SizingError, match="not a subsystem"):
        size(300, parts=parts, subsystem="FC6239")
    with pytest.raises(SizingError, match="multipath"):
        size(300, parts=parts, multipath="XYZ")


def test_sdd(parts):
    s = size(600, parts=parts, multipath="SDD")
    assert s.meets() and not _errors(s.topology)


@pytest.mark.parametrize("target", [200, 450, 700, 900])
def test_smallest_against_exhaustive_search(parts, target):
    """No (subsystems, HBAs) with fewer subsystems, or as many and fewer HBAs, meets the target."""
    s = size(target, parts=parts)
    best = None
    for subs in range(1, 5):
        for hbas in range(subs, 2 * subs + 1):
            counts = Counts(0, hbas, subs, 0, 2 * subs, spread(subs, hbas, 16))
            topo = build(parts_for(parts), counts)
            if meets(analyze(topo, "planning"), target, 0):
                best = best or (subs, hbas)
    assert best == (s.counts.subsystems, s.counts.hbas)


def parts_for(parts):
    return {role: parts[pid] for role, pid in DEFAULT_PARTS.items()}


def test_two_fabrics(parts):
    s = size(1000, parts=parts, fabrics=2)
    topo = s.topology
    assert s.meets() and not _errors(topo)
    assert s.counts.switches == 2 * s.counts.drawers and s.counts.hbas == 2 * s.counts.subsystems
    for sub in topo.of_kind("subsystem"):
        switches = {
            topo.ancestor(topo.peer_port(p.id), "switch").id for p in topo.descendants(sub.id) if p.kind == "host_port"
        }
        assert len(switches) == 2, sub.id  # no single switch carries both controllers' paths
    for sw in topo.of_kind("switch"):
        assert topo.of_kind("fabric") and sw["fabric"] in {f.id for f in topo.of_kind("fabric")}
    assert len({sw["fabric"] for sw in topo.of_kind("switch")}) == len(topo.of_kind("switch"))


def test_two_fabrics_survive_any_switch_failure(parts):
    """--fabrics 2: failing any one switch (or ASIC or HBA) leaves every logical drive reachable,
    and with one fabric a switch failure does lose access (so the check can fail)."""
    from planner.resilience import lost_access_by_component

    two = size(1000, parts=parts, fabrics=2).topology
    assert lost_access_by_component(two, ["switch", "asic", "hba", "host_port"]) == {}
    one = size(1000, parts=parts, fabrics=1).topology
    assert lost_access_by_component(one, ["switch"])
