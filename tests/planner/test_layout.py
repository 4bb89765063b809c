"""The layered layout: columns in data-path order, collapse, user positions."""

from __future__ import annotations

from planner.commands import SetPositions
from planner.layout import COLUMNS, default_collapsed, layout


def test_columns_follow_the_data_path(one_drawer):
    d = layout(one_drawer)
    xs = {col: min(b.x for b in d.boxes.values() if b.column == col) for col in COLUMNS if any(b.column == col for b in d.boxes.values())}
    ordered = [c for c in COLUMNS if c in xs]
    assert [xs[c] for c in ordered] == sorted(xs[c] for c in ordered)
    assert d.boxes["d1.s1"].column == "slot" and d.boxes["sw1.p0"].container == "sw1.asic0"
    # every cable shows as a link between visible boxes
    assert sum(1 for link in d.links if link.kind == "cable") == len(one_drawer.of_kind("cable"))


def test_no_overlaps_within_a_column(one_drawer):
    d = layout(one_drawer)
    for col in COLUMNS:
        tops = sorted((b.y, b.y + b.h, b.id) for b in d.boxes.values() if b.column == col and b.container is None)
        for (_y0, y1, a), (z0, _, b) in zip(tops, tops[1:]):
            assert z0 >= y1 - 1e-6, (a, b)


def test_benchmark_collapses_and_expands(benchmark_design):
    t = benchmark_design
    collapsed = default_collapsed(t)
    assert "d1" in collapsed and "sw1" in collapsed
    d = layout(t)
    assert d.boxes["d1"].collapsed and "d1.s1" not in d.boxes
    assert d.visible("hba.d1s1.0") == "d1" and d.visible("fastt1.A1") == "fastt1"
    small = layout(t)
    big = layout(t, collapsed=set())
    assert big.height > 2 * small.height and "d1.s1" in big.boxes


def test_user_positions_are_kept(one_drawer):
    t = one_drawer
    cmd = SetPositions({"sw1": (900.0, 40.0)})
    cmd.do(t)
    d = layout(t)
    assert (d.boxes["sw1"].x, d.boxes["sw1"].y) == (900.0, 40.0)
    # ports inside the switch moved with it
    assert d.boxes["sw1.p0"].x > 900.0
    cmd.undo(t)
    assert "sw1" not in t.positions
