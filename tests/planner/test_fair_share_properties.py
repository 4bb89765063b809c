"""Properties of the max-min fair allocation (hypothesis): no constraint over its capacity, and
max-min fairness: every flow has a saturated bottleneck on which no flow has a larger rate, so
no flow can grow without taking from a flow with an equal or smaller rate."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.analysis import analyze, max_min_fair
from planner.examples import build_example

TOL = 1e-6


@st.composite
def networks(draw, weighted: bool):
    """(flows, capacities, coefficients or None): 1-8 constraints, 1-12 flows over 1-4 of them."""
    nh = draw(st.integers(1, 8))
    caps = draw(st.lists(st.floats(1.0, 1000.0), min_size=nh, max_size=nh))
    nf = draw(st.integers(1, 12))
    flows = [sorted(draw(st.sets(st.integers(0, nh - 1), min_size=1, max_size=min(4, nh)))) for _ in range(nf)]
    coef = None
    if weighted:
        coef = [draw(st.lists(st.floats(0.05, 2.0), min_size=len(f), max_size=len(f))) for f in flows]
    return flows, caps, coef


def _check(flows, caps, coef):
    rates, bott = max_min_fair(flows, caps, coef)
    use = [0.0] * len(caps)
    for f, hops in enumerate(flows):
        for i, h in enumerate(hops):
            use[h] += (coef[f][i] if coef else 1.0) * rates[f]
    # no constraint over its capacity
    for h, c in enumerate(caps):
        assert use[h] <= c * (1 + TOL) + TOL
    for f, hops in enumerate(flows):
        b = bott[f]
        assert b is not None and b in hops and math.isfinite(rates[f]) and rates[f] > 0
        # the bottleneck is saturated ...
        assert use[b] >= caps[b] * (1 - TOL) - TOL
        # ... and no flow through it has a larger rate: growing f takes from flows at most as fast
        for g, ghops in enumerate(flows):
            if b in ghops:
                assert rates[g] <= rates[f] * (1 + TOL) + TOL


@settings(max_examples=300, deadline=None)
@given(networks(weighted=False))
def test_max_min_fair_unweighted(net):
    _check(*net)


@settings(max_examples=300, deadline=None)
@given(networks(weighted=True))
def test_max_min_fair_with_coefficients(net):
    """Coefficients: a mixed path uses its read share of a read capacity, its write share of a
    write capacity, and its whole rate (scaled by read/write figures) of a shared one."""
    _check(*net)


@pytest.fixture(scope="module")
def one_drawer_session(parts):
    """The one-drawer example, shared: the analysis does not change the design."""
    return build_example("p690-one-drawer", parts)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 100),
    st.sampled_from(["rated", "measured", "planning"]),
    st.sampled_from(["disk", "cache"]),
    st.lists(st.sampled_from(["d1.phb1", "d1.phb2", "d1.p0.link1", "d1.p1", "sw1.asic0", "fastt3"]), max_size=2),
)
def test_mixed_analysis_keeps_every_hop_within_capacity(one_drawer_session, read_pct, figures, source, only):
    """Any read share, figure set, source and profile: every hop at most at 100 % (duplex hops
    each way, shared hops over both directions) and the read and write parts add up."""
    result = analyze(one_drawer_session, figures, "mixed", source, only=only, read_pct=read_pct)
    for ld in result.components.values():
        if ld.utilization is not None:
            assert ld.utilization <= 1 + TOL, ld.id
    assert result.read_mbps + result.write_mbps == pytest.approx(result.aggregate)
    for p in result.paths:
        assert p.read_mbps == pytest.approx(p.mbps * read_pct / 100)


@settings(max_examples=200, deadline=None)
@given(networks(weighted=True), st.data())
def test_independent_groups_filled_apart_give_the_same_rates(net, data):
    """max_min_fair fills each group of flows that share no constraint on its own heap: rates and
    bottlenecks equal, bit for bit, one filling of everything (planner.fairshare._fill), with and
    without demands; several copies side by side make several groups."""
    from planner.fairshare import _fill, _independent

    flows, caps, coef = net
    nh = len(caps)
    copies = data.draw(st.integers(1, 3))
    flows = [[h + k * nh for h in f] for k in range(copies) for f in flows]
    caps = caps * copies
    coef = coef * copies if coef is not None else None
    demands = data.draw(
        st.none() | st.lists(st.floats(0.5, 2000.0) | st.just(math.inf), min_size=len(flows), max_size=len(flows))
    )
    assert len(_independent(flows, len(caps))) >= copies
    assert max_min_fair(flows, caps, coef, demands) == _fill(flows, caps, coef, demands)


@settings(max_examples=100, deadline=None)
@given(networks(weighted=True))
def test_a_pause_point_is_called_and_changes_nothing(net):
    """A background caller's pause point (planner.fairshare, ``pause``): called between groups
    and every PAUSE_EVERY steps of a filling, the rates and bottlenecks the same as without."""
    from planner.fairshare import PAUSE_EVERY

    flows, caps, coef = net
    nh = len(caps)
    flows = [[h + k * nh for h in f] for k in range(3) for f in flows]  # three groups side by side
    caps, coef = caps * 3, coef * 3 if coef is not None else None
    calls: list[int] = []
    assert max_min_fair(flows, caps, coef, pause=lambda: calls.append(1)) == max_min_fair(flows, caps, coef)
    assert len(calls) >= 3
    # one group of 3 * PAUSE_EVERY steps: a flow on each constraint, one across them all
    n = 3 * PAUSE_EVERY
    chain = [[h] for h in range(n)] + [list(range(n))]
    calls.clear()
    widths = [float(h + 1) for h in range(n)]
    assert max_min_fair(chain, widths, pause=lambda: calls.append(1)) == max_min_fair(chain, widths)
    assert len(calls) >= 2


@pytest.mark.parametrize("direction", ["read", "mixed"])
def test_an_allocation_given_way_in_is_abandoned_whole_or_the_same(parts, direction):
    """planner.analysis.allocate with a pause point: asked every few paths and steps (the 7-drawer
    benchmark's paths, one direction and mixed); one that raises leaves every path as it was (the
    results are written at the end), one that returns gives the rates of an allocation without."""
    import copy

    from planner.analysis import allocate

    topo = build_example("p690-benchmark", parts)
    read_pct = 70.0 if direction == "mixed" else None
    options = ("planning", direction, "disk", read_pct)
    fresh = [copy.copy(p) for p in analyze(topo, "planning", direction, read_pct=read_pct).paths]
    for p in fresh:
        p.mbps = p.bottleneck = None
    plain = [copy.copy(p) for p in fresh]
    want = allocate(topo, plain, options, None)
    calls: list[int] = []
    paused = [copy.copy(p) for p in fresh]
    got = allocate(topo, paused, options, None, pause=lambda: calls.append(1))
    assert got.rates == want.rates and [p.bottleneck for p in paused] == [p.bottleneck for p in plain]
    assert len(calls) >= 3

    def give_way() -> None:
        if len(calls) == 2:
            raise InterruptedError

    calls.clear()
    left = [copy.copy(p) for p in fresh]
    with pytest.raises(InterruptedError):
        allocate(topo, left, options, None, pause=lambda: (calls.append(1), give_way()))
    assert all(p.mbps is None and p.bottleneck is None for p in left)
