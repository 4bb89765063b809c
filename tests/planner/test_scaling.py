"""planner.scaling: the P690 Figure 4 profile as HBAs (drawers) are added in placement order."""

from __future__ import annotations

import time

import pytest

from planner.analysis import analyze
from planner.scaling import ScalingError, first_knee_after, format_scaling, scaling, scaling_to_dict


@pytest.mark.parametrize(
    "figures,direction,source",
    [
        ("measured", "read", "cache"),
        ("measured", "read", "disk"),
        ("planning", "read", "disk"),
        ("rated", "write", "disk"),
        ("planning", "mixed", "disk"),
    ],
)
def test_non_decreasing_and_last_point_is_the_full_analysis(benchmark_design, figures, direction, source):
    r = scaling(benchmark_design, figures, direction, source)
    values = [p.mbps for p in r.points]
    assert len(values) == 112
    assert all(b >= a - 1e-9 for a, b in zip(values, values[1:]))
    assert values[-1] == analyze(benchmark_design, figures, direction, source).aggregate  # exactly


def test_first_knee_is_where_the_paper_sees_the_bottleneck_move(benchmark_design):
    """P690 Figure 4 (from controller cache, measured): each adapter 195 MB/s, three under PHB1
    585; within the first planar link1 (814) and the planar (1332) take over; a drawer 2650."""
    r = scaling(benchmark_design, "measured", "read", "cache")
    pts = r.points
    assert pts[0].mbps == pytest.approx(195) and pts[0].top == "hba"
    assert pts[2].mbps == pytest.approx(585)  # PHB1 with three adapters: adapter-bound
    knee = r.knees[0]
    assert knee.slope_before == pytest.approx(195) and knee.falls
    assert 3 <= knee.count < 8 and knee.kind in ("planar", "rio_link")  # inside the first planar
    assert pts[7].mbps == pytest.approx(1332)  # one planar, the paper's 1332
    assert pts[15].mbps == pytest.approx(2650)  # one drawer, the paper's 2650 (Table 2)
    assert first_knee_after(r, 9).kind == "drawer"


def test_by_drawer_is_linear_as_table_2(benchmark_design):
    r = scaling(benchmark_design, "measured", "read", "cache", by="drawer")
    assert [round(p.mbps) for p in r.points] == [2650 * k for k in range(1, 8)]
    assert r.knees == [] and r.points[-1].hbas == 112


def test_planning_figures_scale_straight(benchmark_design):
    r = scaling(benchmark_design, "planning")
    assert r.knees == [] and r.points[-1].mbps == pytest.approx(16800)


def test_fast_on_the_benchmark(benchmark_design):
    t0 = time.perf_counter()
    scaling(benchmark_design, "measured", "read", "cache")
    assert time.perf_counter() - t0 < 2.0


def test_output(benchmark_design):
    r = scaling(benchmark_design, "measured", "read", "cache")
    d = scaling_to_dict(r)
    assert set(d) == {"by", "figures", "direction", "source", "points", "knees"}
    assert set(d["points"][0]) == {
        "count",
        "added",
        "hbas",
        "mbps",
        "read_mbps",
        "write_mbps",
        "binding",
        "binding_paths",
    }
    assert d["knees"][0]["binding"] in ("planar", "rio_link")
    text = format_scaling(r)
    assert "<- knee: 195 -> " in text and "planar binds" in text


def test_bad_by(one_drawer):
    with pytest.raises(ScalingError, match="hba, drawer"):
        scaling(one_drawer, by="planar")


def _refilled_from_scratch(topo, figures, direction, source, by):
    """The curve as it was first computed: every point fills all its running paths afresh."""
    from planner.fairshare import max_min_fair
    from planner.scaling import _order, _Problem

    problem, running, out = _Problem(topo, figures, direction, source), set(), []
    for _, hbas in _order(topo, by):
        running.update(hbas)
        sub = [i for i, h in enumerate(problem.hba_of) if h in running]
        coefs = [problem.coefs[i] for i in sub] if problem.coefs is not None else None
        demands = [problem.caps_of_demand[i] for i in sub] if problem.caps_of_demand is not None else None
        rates, bott = max_min_fair([problem.flows[i] for i in sub], problem.caps, coefs, demands)
        mbps, binding, added = 0.0, {}, {}
        for i, r, b in zip(sub, rates, bott):
            if b is None and r == float("inf"):
                continue
            mbps += r
            if b is not None:
                kind = problem.kind[problem.hop_ids[b]]
                binding[kind] = binding.get(kind, 0) + 1
                if problem.hba_of[i] in hbas:
                    added[kind] = added.get(kind, 0) + 1
        out.append((mbps, binding, added))
    return out


@pytest.mark.parametrize("by", ["hba", "drawer"])
@pytest.mark.parametrize("figures,direction,source", [("measured", "read", "cache"), ("planning", "mixed", "disk")])
def test_refilling_only_the_touched_groups_gives_the_same_curve(by, figures, direction, source):
    """Each point refills only the groups of paths the added HBAs share constraints with; the
    curve is the one a fill of every running path gives, on a site of several servers."""
    from catalogs.catalog import builtin_parts
    from planner.examples import build_site

    site = build_site(builtin_parts(), 2)
    r = scaling(site, figures, direction, source, by=by)
    want = _refilled_from_scratch(site, figures, direction, source, by)
    assert len(r.points) == len(want) > 10
    for p, (mbps, binding, added) in zip(r.points, want):
        assert p.mbps == pytest.approx(mbps, rel=1e-12) and p.binding == binding and p.added_binding == added
    assert r.points[-1].mbps == analyze(site, figures, direction, source).aggregate  # exactly


def test_a_single_direction_curve_fills_its_points_from_a_filling_made_every_few_points(monkeypatch):
    """Read alone with no demands, each point is filled from the filling made at most
    REBASE_EVERY points before (the paths added since put in), and the curve is the one a
    fresh fill of every point's running paths gives (above: to 1e-12, with the same binding
    kinds; here the last point is the analysis's aggregate to the last bit)."""
    from catalogs.catalog import builtin_parts
    from planner import fairshare
    from planner import scaling as scaling_module
    from planner.examples import build_site

    site = build_site(builtin_parts(), 2)
    made, filled = [], []
    real_init, real_fill = fairshare.Refilling.__init__, fairshare.Refilling.fill
    monkeypatch.setattr(fairshare.Refilling, "__init__", lambda self, *a: made.append(1) or real_init(self, *a))
    monkeypatch.setattr(fairshare.Refilling, "fill", lambda self, c: filled.append(len(c)) or real_fill(self, c))
    r = scaling(site, "planning", "read", "disk", by="hba")
    assert len(filled) == len(r.points) and len(made) <= len(r.points) / scaling_module.REBASE_EVERY + 2
    assert r.points[-1].mbps == analyze(site, "planning", "read", "disk").aggregate
    want = _refilled_from_scratch(site, "planning", "read", "disk", "hba")
    assert [p.mbps for p in r.points] == pytest.approx([w[0] for w in want], rel=1e-12)
