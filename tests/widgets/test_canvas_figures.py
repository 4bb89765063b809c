"""What the canvas repaints of an analysis (widgets.canvas.figures): the components whose figures
changed, as a plain comparison of the two results finds them."""

from __future__ import annotations

import dataclasses

from planner.analysis import analyze
from planner.layout import layout
from widgets.canvas.figures import busiest, canvas_figures, mark_boxes, top_and_binds


def _plain(before, after) -> set[str]:
    a, b = before.result.components, after.result.components
    loads = {c for c in a.keys() | b.keys() if a.get(c) != b.get(c)}
    groups = {
        c
        for c in before.group_load.keys() | after.group_load.keys()
        if before.group_load.get(c) != after.group_load.get(c)
    }
    binds = {c for c in before.binds.keys() | after.binds.keys() if before.binds.get(c) != after.binds.get(c)}
    return loads | groups | binds


def test_changed_components_are_those_a_plain_comparison_finds(parts, benchmark_design):
    read = canvas_figures(analyze(benchmark_design, "planning", "read"))
    write = canvas_figures(analyze(benchmark_design, "planning", "write"), read)
    assert write.changed and set(write.changed) == _plain(read, write)
    # a load equal in its own figure but another in a field behind it is changed too
    again = analyze(benchmark_design, "planning", "read")
    cid, load = next((c, ld) for c, ld in again.components.items() if ld.paths)
    again.components[cid] = dataclasses.replace(load, paths=load.paths + 1)
    got = canvas_figures(again, read)
    assert cid in got.changed and set(got.changed) == _plain(read, got)
    same = canvas_figures(analyze(benchmark_design, "planning", "read"), read)
    assert same.changed == []  # (equal loads, other objects)


def test_the_boxes_marked_with_the_figures_are_those_that_show_what_changed(parts, benchmark_design):
    """The boxes worked out with the figures where the analysis is made are, for the diagram
    given, the visible box of each component that changed (own box, or its folded group's);
    none for a component the diagram does not show. No diagram, or nothing known to have
    changed: nothing marked (the canvas works them out itself)."""
    read = canvas_figures(analyze(benchmark_design, "planning", "read"))
    write = canvas_figures(analyze(benchmark_design, "planning", "write"), read)
    drawer = benchmark_design.ids_of_kind("drawer")[0]
    for collapsed in (set(), {drawer}):
        d = layout(benchmark_design, collapsed, editor=True)
        mark_boxes(write, d)
        want = {v for c in write.changed if (v := d.visible(c))}
        assert write.of is d and write.boxes == want and write.wanted == set(write.changed)
        assert any(c not in d.boxes for c in write.changed)  # (some shown by another box, or none)
    assert drawer in write.boxes  # (a folded drawer's adapters show on it)
    first = canvas_figures(analyze(benchmark_design, "planning", "read"))
    mark_boxes(first, d)  # (nothing known to have changed)
    unlaid = write.__class__(write.result, {}, {}, changed=["x"])
    mark_boxes(unlaid, None)  # (no diagram)
    assert first.of is None and first.boxes is None and unlaid.boxes is None


def test_a_box_is_painted_with_the_top_and_the_binds_its_tooltip_counts(parts, benchmark_design):
    """``top_and_binds`` (what a box is painted with) gives what ``busiest`` (its tooltip) gives,
    for read, write and mixed results (a mixed Load's utilization is the larger way or the sum),
    for members in any order, some without a Load, and a member with no capacity."""
    import random

    rng = random.Random(7)
    for direction in ("read", "write", "mixed"):
        result = analyze(benchmark_design, "planning", direction, read_pct=70 if direction == "mixed" else None)
        binds = canvas_figures(result).binds
        ids = list(result.components) + ["no-such-component"]
        result.components[ids[0]] = dataclasses.replace(result.components[ids[0]], capacity=None)
        assert any(ld.read_capacity for ld in result.components.values()) == (direction == "mixed")
        for _ in range(300):
            members = rng.sample(ids, rng.randint(0, 12))
            top, nb, _, _ = busiest(result, members, binds)
            assert top_and_binds(result, members, binds) == (top, nb)
        assert top_and_binds(result, ids, binds)[1] == sum(binds.values()) > 0


def test_the_figures_worked_out_while_idle_are_what_the_boxes_and_cables_are_painted_with(parts, benchmark_design):
    """With the design given, the marked boxes come with what each is painted with (the top
    and the binds of every component it shows: its own and those folded into it) and the
    marked boxes' cables with their colour, as the canvas works them out from the components
    each box shows and each cable's ends."""
    from widgets.canvas.figures import link_util, members_by_box, working_out_tops

    read = canvas_figures(analyze(benchmark_design, "planning", "read"))
    write = canvas_figures(analyze(benchmark_design, "planning", "write"), read)
    drawer = benchmark_design.ids_of_kind("drawer")[0]
    d = layout(benchmark_design, {drawer}, editor=True)
    mark_boxes(write, d)
    assert write.tops is None and write.cable_utils is None  # (worked out afterwards, a step at a time)
    for _ in working_out_tops(write, d, benchmark_design):
        pass
    shows: dict[str, list[str]] = {}
    for comp in benchmark_design.components():
        if (v := d.visible(comp.id)) is not None:
            shows.setdefault(v, []).append(comp.id)
    assert len(shows[drawer]) > 20 and sorted(members_by_box(d)[drawer]) == sorted(shows[drawer])
    assert write.tops == {v: top_and_binds(write.result, shows.get(v, ()), write.binds) for v in write.boxes}
    assert write.tops[drawer][0] is not None
    cables = [li for li in d.links if li.kind == "cable" and (li.a in write.boxes or li.b in write.boxes)]
    assert cables and write.cable_utils.keys() == {li.via for li in cables}
    for li in cables:
        ends = [write.result.components.get(p) for p in (benchmark_design[li.via]["a"], benchmark_design[li.via]["b"])]
        busy = [ld.utilization for ld in ends if ld is not None and ld.utilization is not None]
        assert write.cable_utils[li.via] == link_util(benchmark_design, write.result, "cable", li.via, li.b)
        assert not busy or write.cable_utils[li.via] == max(busy)


def test_the_idle_figures_are_worked_out_a_step_at_a_time(parts, benchmark_design, monkeypatch):
    """The lane works them out between its give-way checks: a step is a few components or
    links; nothing is set until the last step, and then the same as all at once."""
    import widgets.canvas.figures as figures_module
    from widgets.canvas.figures import working_out_tops

    read = canvas_figures(analyze(benchmark_design, "planning", "read"))
    whole = canvas_figures(analyze(benchmark_design, "planning", "write"), read)
    d = layout(benchmark_design, set(), editor=True)
    mark_boxes(whole, d)
    for _ in working_out_tops(whole, d, benchmark_design):
        pass
    stepped = canvas_figures(whole.result, read)
    mark_boxes(stepped, d)
    monkeypatch.setattr(figures_module, "STEP_WORK", 16)
    steps = 0
    for _ in working_out_tops(stepped, d, benchmark_design):
        steps += 1
        assert stepped.tops is None and stepped.cable_utils is None
    assert steps > 20
    assert (stepped.tops, stepped.cable_utils) == (whole.tops, whole.cable_utils) and whole.tops
