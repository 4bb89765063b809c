"""The layered layout: columns in data-path order, collapse, user positions."""

from __future__ import annotations

from planner.commands import SetPositions
from planner.layout import COLUMNS, default_collapsed, layout


def test_columns_follow_the_data_path(one_drawer):
    d = layout(one_drawer)
    xs = {
        col: min(b.x for b in d.boxes.values() if b.column == col)
        for col in COLUMNS
        if any(b.column == col for b in d.boxes.values())
    }
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


def test_a_position_left_of_or_above_the_origin_is_laid_at_it(one_drawer):
    """The diagram begins at (0, 0): a box a file placed at negative coordinates is laid at the
    origin's edge, its inner boxes along, inside the diagram's size."""
    t = one_drawer
    SetPositions({"sw1": (-250.0, 60.0), "fastt1": (400.0, -80.0)}).do(t)
    d = layout(t, editor=True)
    assert (d.boxes["sw1"].x, d.boxes["sw1"].y) == (0.0, 60.0)
    assert (d.boxes["fastt1"].x, d.boxes["fastt1"].y) == (400.0, 0.0)
    assert all(b.x >= 0 and b.y >= 0 and b.x + b.w <= d.width and b.y + b.h <= d.height for b in d.boxes.values())


def test_editor_layout_draws_hbas_in_their_slot_rows_and_drive_bays(one_drawer):
    d = layout(one_drawer, editor=True)
    hba, slot = d.boxes["hba.d1s1"], d.boxes["d1.s1"]
    assert hba.container == "d1.s1" and slot.x < hba.x and hba.x + hba.w <= slot.x + slot.w
    assert d.visible("hba.d1s1.0") == "hba.d1s1"
    assert "PHB" in slot.tip and "link0" in slot.tip
    cells = [b for b in d.boxes.values() if b.kind == "drive" and b.id.startswith("fastt1.")]
    assert len(cells) == 28 and {b.container for b in cells} == {"fastt1.e0", "fastt1.e1"}
    assert sum(b.state == "free" for b in cells) == 10
    # the build sheet's layout stays as it was: slot rows name their HBA, drives are not drawn
    plain = layout(one_drawer)
    assert plain.boxes["d1.s1"].label == "Slot 1: fcs0" and "hba.d1s1" not in plain.boxes
    assert "fastt1.e1.d1" not in plain.boxes and plain.visible("fastt1.e1.d1") == "fastt1"


def test_empty_bays_are_cells_of_their_enclosure(one_drawer, parts):
    from planner import edit

    edit.add_enclosure(one_drawer, "fastt1", parts["EXP700"], drive_part=parts["DRV-36G-15K"], drives=4)
    d = layout(one_drawer, editor=True)
    enc = d.boxes["fastt1.e2"]
    assert len(enc.cells) == 10 and sum(b.container == "fastt1.e2" for b in d.boxes.values()) == 4


def test_expanding_a_subsystem_keeps_the_grid(benchmark_design):
    t = benchmark_design
    folded = default_collapsed(t)
    before = layout(t, folded)
    after = layout(t, folded - {"fastt6"}, editor=True)
    assert (after.boxes["fastt6"].x, after.boxes["fastt6"].y) == (before.boxes["fastt6"].x, before.boxes["fastt6"].y)
    for cid in ("fastt1", "fastt2", "fastt5", "sw1", "d1"):  # above and left of it: in place
        assert (after.boxes[cid].x, after.boxes[cid].y) == (before.boxes[cid].x, before.boxes[cid].y), cid
    assert after.boxes["fastt7"].x > before.boxes["fastt7"].x and after.boxes["fastt7"].y == before.boxes["fastt7"].y
    assert after.boxes["fastt10"].y > before.boxes["fastt10"].y
    # the order of switches and subsystems does not depend on what is expanded
    everything = layout(t, set())
    assert sorted(t.of_kind("switch"), key=lambda s: everything.boxes[s.id].y) == sorted(
        t.of_kind("switch"), key=lambda s: before.boxes[s.id].y
    )


def test_an_array_is_labelled_by_its_attributes(one_drawer):
    from planner.fixtures import set_raw

    assert layout(one_drawer).boxes["fastt1.arr1"].label == "RAID5 8+P #1, 128 KB segment"
    set_raw(one_drawer, "fastt1.arr1", "drives", one_drawer["fastt1.arr1"]["drives"][:6])
    assert layout(one_drawer).boxes["fastt1.arr1"].label == "RAID5 5+P #1, 128 KB segment"
    set_raw(one_drawer, "fastt1.arr2", "name", "fastt1 RAID5 8+P #2")  # a name from an older file
    assert layout(one_drawer).boxes["fastt1.arr2"].label.startswith("RAID5 8+P #2")


def test_the_layout_memo_forgets_what_was_removed_from_a_group_shown_open(benchmark_design):
    """A group folded once, then opened: a component removed from it meanwhile must not come
    back when it is folded again (the memo keeps only the groups folded in the last layout)."""
    from planner import edit
    from planner.layout import LayoutMemo

    t = benchmark_design.clone()
    drawer = "d1"
    hba = next(c.id for c in t.descendants(drawer) if c.kind == "hba")
    memo = LayoutMemo()
    folded = layout(t, {drawer}, editor=True, memo=memo)
    opened = layout(t, set(), editor=True, memo=memo)
    events = []
    t.subscribe(events.append)
    edit.delete(t, [hba])
    memo.forget(t, {e.id for e in events if e.id}, opened)
    again = layout(t, {drawer}, editor=True, memo=memo)
    assert again == layout(t, {drawer}, editor=True)  # as from nothing
    assert hba not in again.alias and again.boxes[drawer].hidden_count == folded.boxes[drawer].hidden_count - 1 - len(
        [p for p in benchmark_design.children(hba) if p.kind == "hba_port"]
    )


def test_a_box_kept_by_the_memo_is_copied_whole():
    """The memo hands out copies of an expanded subsystem's boxes (planner.layout._copy_box):
    every field of a box is copied (a field added later and left out would fail here)."""
    import dataclasses

    from planner.layout import Box, _copy_box

    marks = {f.name: object() for f in dataclasses.fields(Box)}
    box = Box(**marks)
    copy = _copy_box(box)
    assert copy is not box
    assert all(getattr(copy, name) is mark for name, mark in marks.items())
