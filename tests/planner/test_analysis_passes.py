"""The analysis's fused passes (paths registered in the hop table as they are found, each
path's Loads kept for the sums) give what the separate passes give, field for field."""

from __future__ import annotations

import pytest

from planner import analysis, edit
from planner.analysis import allocate, analyze, find_paths, path_sums
from planner.demand import demand_model
from planner.examples import build_site
from planner.rules.context import Context


@pytest.fixture(scope="module")
def site(parts):
    """Two copies of the benchmark, so the path search runs in several chunks of HBA ports."""
    return build_site(parts, 2)


@pytest.mark.parametrize("options", [("planning", "read", "disk", None), ("rated", "write", "cache", None)])
def test_fused_search_equals_separate_passes(site, options, monkeypatch):
    monkeypatch.setattr(analysis, "_CHUNK", 5)  # chunks that split a server's ports
    fused = analyze(site, *options[:3])
    paths, unreachable = find_paths(site)  # the plain search, then the hop table on its own
    demand = demand_model(site, paths, options[1])
    alloc = allocate(site, paths, options, demand.caps() if demand else None)
    assert len(paths) > analysis._CHUNK
    assert [p.id for p in fused.paths] == [p.id for p in paths]
    assert [(p.mbps, p.bottleneck) for p in fused.paths] == [(p.mbps, p.bottleneck) for p in paths]
    assert fused.unreachable == unreachable
    crossed = {h: ld for h, ld in fused.components.items() if ld.paths}
    assert list(crossed) == list(alloc.loads)  # the same hops, first crossing first
    assert crossed == alloc.loads


def test_path_loads_follow_the_hops(site):
    a = analyze(site, "planning", "read")
    paths, _ = find_paths(site)
    alloc = allocate(site, paths, ("planning", "read", "disk", None), None)
    assert len(alloc.path_loads) == len(paths)
    for p, lds in zip(paths, alloc.path_loads):
        assert [ld.id for ld in lds] == p.hops
    assert [ld.id for ld in alloc.path_loads[0]] == a.paths[0].hops


@pytest.mark.parametrize("direction", ["read", "mixed"])
def test_path_sums_the_same_with_and_without_the_loads(site, direction):
    topo = site.clone()
    paths = find_paths(topo)[0]
    alloc = allocate(topo, paths, ("planning", direction, "disk", None), None)
    plain = path_sums(topo, paths)
    fast = path_sums(topo, paths, alloc.path_loads)
    assert plain == fast
    assert sum(plain[1].values()) > 0 and sum(plain[0].values()) > 0


def test_groups_list_every_lpar_drawer_subsystem_and_switch_in_design_order(benchmark_design):
    topo = benchmark_design
    edit.delete(topo, [topo.of_kind("cable")[0].id])  # idle hops, a host with less
    a = analyze(topo)
    for group, kind in (("host", "lpar"), ("drawer", "drawer"), ("switch", "switch"), ("subsystem", "subsystem")):
        assert list(a.by_group[group]) == [c.id for c in topo.of_kind(kind)]
    idle = [h for h, ld in a.components.items() if not ld.paths]
    assert idle, "an uncabled port leaves idle hops"
    seq = [topo.seq_of(h) for h in idle]
    assert seq == sorted(seq)


def test_context_lists_each_kind_once(benchmark_design, monkeypatch):
    calls: list[str] = []
    real = type(benchmark_design).of_kind

    def counting(self, kind):
        calls.append(kind)
        return real(self, kind)

    monkeypatch.setattr(type(benchmark_design), "of_kind", counting)
    ctx = Context(benchmark_design, analysis=analyze(benchmark_design))
    calls.clear()
    assert ctx.of_kind("cable") is ctx.of_kind("cable")
    assert calls == ["cable"]
