"""The cross-check's fast formulation (planner.maxflow): the fair allocation's rates certified as
a maximum flow give the same value and the same min cut as networkx's preflow-push on the same
graph, and a bundle they do not certify (paths held below their bottleneck by a target) goes
to networkx."""

from __future__ import annotations

import pytest

from planner import edit
from planner.analysis import analyze
from planner.examples import build_site
from planner.maxflow import _certified_cut, _independent_chains, _loop_erased, _min_cut, _series_groups, max_flow


def _bundles(a):
    group_of, groups, best = _series_groups(a.paths, a.components)
    return list(_independent_chains(a.paths, group_of, groups).values()), best


def test_loop_erased_chain_goes_on_from_the_first_visit():
    assert _loop_erased([1, 2, 3, 4, 3, 5, 3]) == [1, 2, 3]
    assert _loop_erased([1, 2, 1, 3]) == [1, 3]
    assert _loop_erased([4, 5, 6]) == [4, 5, 6]


@pytest.mark.parametrize("figures,direction,source", [("measured", "read", "cache"), ("planning", "write", "disk")])
def test_certificate_equals_networkx(parts, benchmark_design, worst_cabling, figures, direction, source):
    site = build_site(parts, 2)
    for t in (benchmark_design, worst_cabling, site):
        a = analyze(t, figures, direction, source)
        bundles, best = _bundles(a)
        assert len(bundles) == (2 if t is site else 1)  # one bundle per independent server
        for bundle in bundles:
            got = _certified_cut(bundle, best)
            assert got is not None, "the fair rates are a maximum flow here"
            value, cut = _min_cut([seq for seq, _ in bundle], best)
            assert got[0] == pytest.approx(value, rel=1e-9)
            assert sorted(got[1]) == sorted(cut)
    crossed = analyze(worst_cabling, figures, direction, source, cross_check=True)
    assert crossed.max_flow == pytest.approx(crossed.aggregate, rel=1e-9)


def test_targets_below_the_bottleneck_go_to_networkx(one_drawer):
    for wl in one_drawer.of_kind("workload"):
        edit.set_attr(one_drawer, wl.id, "target_mbps", 100.0)
    a = analyze(one_drawer, "planning", "read")
    bundles, best = _bundles(a)
    assert [_certified_cut(b, best) for b in bundles] == [None]  # an augmenting path is left
    value, cut = max_flow(a.paths, a.components)
    assert value > a.aggregate + 1.0 and value == pytest.approx(_min_cut([s for s, _ in bundles[0]], best)[0])
    assert cut
