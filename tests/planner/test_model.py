"""Model, commands and editing operations: every change undoes exactly; impossible edits are refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import edit
from planner.commands import SetMeta, UndoStack
from planner.model import ModelError, Topology, check_references, normalize_wwpn, wwpn_problem


def snapshot(t: Topology):
    return (
        [(c.id, c.kind, c.name, c.parent, c.part, tuple(sorted(c.attrs.items()))) for c in t.components()],
        dict(t.meta),
        sorted(t.parts),
    )


def test_add_drawer_builds_slot_map(parts):
    t = Topology()
    edit.add_server(t, parts["7040-681"], "p690")
    edit.add_drawer(t, "p690", parts["7040-61D"])
    slots = [c for c in t.descendants("d1") if c.kind == "slot"]
    assert sorted(s["number"] for s in slots) == list(range(1, 21))
    # link0 feeds only PHB1 (slots 1-4 / 11-14); link1 feeds PHB2 and PHB3 [P690 step 3]
    assert [c["number"] for c in t.descendants("d1.p0.link0") if c.kind == "slot"] == [1, 2, 3, 4]
    assert [c["number"] for c in t.descendants("d1.p1.link1") if c.kind == "slot"] == [15, 16, 17, 18, 19, 20]
    assert t.ancestor("d1.s18", "phb")["drawer_phb"] == 6


def test_undo_redo_restores_exact_state(one_drawer, parts):
    t = one_drawer
    stack = UndoStack(t)
    before = snapshot(t)
    edit.push(stack, edit.add_drawer(t, "p690", parts["7040-61D"]))
    edit.push(stack, edit.add_hba(t, "d2.s4", parts["FC6239"], lpar="p690.lpar1", wwpns=["10:00:00:00:c9:ff:00:01"]))
    edit.push(stack, edit.set_attr(t, "fastt1.arr1", "segment_kb", 256))
    edit.push(stack, edit.delete(t, ["fastt2"]))
    stack.push(SetMeta("customer", "ACME"))
    after = snapshot(t)
    assert after != before
    while stack.undo():
        pass
    assert snapshot(t) == before
    while stack.redo():
        pass
    assert snapshot(t) == after
    check_references(t)


def test_delete_cleans_cables_zones_and_mappings(one_drawer):
    t = one_drawer
    assert t.cable_at("hba.d1s1.0") is not None
    cmd = edit.delete(t, ["hba.d1s1"])
    assert "hba.d1s1.0" not in t
    assert t.cable_at("sw1.p0") is None
    assert all("hba.d1s1.0" not in z["members"] for z in t.of_kind("zone"))
    assert all("hba.d1s1.0" not in m["hba_ports"] for m in t.of_kind("host_mapping"))
    check_references(t)
    cmd.undo(t)
    assert t.cable_at("sw1.p0") is not None and "hba.d1s1.0" in t["z.Z_D1_FCS0_FASTT1_A"]["members"]


def test_delete_subsystem_removes_hdisk_references(one_drawer):
    t = one_drawer
    edit.delete(t, ["fastt1"])
    hdisks = t.children("p690.lpar1", "hdisk")
    assert all(h["logical_drive"] != "fastt1.ld1" for h in hdisks)
    check_references(t)


@pytest.mark.parametrize(
    "action, message",
    [
        (lambda t, p: edit.add_hba(t, "d1.s1", p["FC6239"]), "already holds"),
        (lambda t, p: edit.add_hba(t, "d1.s99", p["FC6239"]), "no .*d1.s99"),
        (lambda t, p: edit.find_slot(t, "d1", 21), "no slot 21"),
        (lambda t, p: edit.add_cable(t, "hba.d1s1.0", "sw1.p2"), "taken"),
        (lambda t, p: edit.add_cable(t, "sw1.p0", "sw1.p0"), "two different ports"),
        (lambda t, p: edit.add_drawer(t, "p690", p["7040-61D"], index=1), "already has a drawer 1"),
        (lambda t, p: edit.set_attr(t, "hba.d1s1.0", "wwpn", "not-a-wwpn"), "WWPN"),
        (lambda t, p: edit.set_attr(t, "hba.d1s1.0", "wwpn", "60:05:07:68:01:80:00:01"), "NAA type 6"),
        (lambda t, p: edit.set_attr(t, "p690.lpar1.datavg", "ltg_kb", 300), "not one of"),
        (lambda t, p: edit.set_attr(t, "p690.lpar1.datavg", "pp_mb", 500), "power of two"),
        (lambda t, p: edit.set_attr(t, "fastt1.ld1", "owner", "fastt2.A"), "not a controller of"),
        (lambda t, p: edit.add_array(t, "fastt1", 5, ["fastt1.e0.d1"]), "already in an array"),
        (
            lambda t, p: edit.add_subsystem(t, p["FAStT600-Turbo"], "x", drive_part=p["DRV-36G-15K"], drives=15),
            "14 drive bays",
        ),
        (lambda t, p: edit.set_attr(t, "cab1", "label", "a\nb"), "control characters"),
    ],
)
def test_impossible_edits_are_refused_and_change_nothing(one_drawer, parts, action, message):
    t = one_drawer
    before = snapshot(t)
    with pytest.raises(ModelError, match=message):
        action(t, parts)
    assert snapshot(t) == before


def test_raid5_with_two_drives_is_a_draft(one_drawer):
    """Accepted (a user mid-edit), reported by the RAID_DRIVE_COUNT rule."""
    t = one_drawer
    free = [d.id for d in edit.free_drives(t, "fastt1")]
    edit.add_array(t, "fastt1", 5, free[:2])
    assert t["fastt1.arr3"]["raid_level"] == 5 and len(t["fastt1.arr3"]["drives"]) == 2


def test_move_hba_to_free_slot(one_drawer):
    t = one_drawer
    cmd = edit.move_hba(t, "hba.d1s1", "d1.s4")
    assert t["hba.d1s1"].parent == "d1.s4"
    cmd.undo(t)
    assert t["hba.d1s1"].parent == "d1.s1"
    with pytest.raises(ModelError, match="taken"):
        edit.move_hba(t, "hba.d1s1", "d1.s2")


def test_events_reach_observers(one_drawer):
    seen = []
    one_drawer.subscribe(seen.append)
    edit.set_attr(one_drawer, "cab1", "label", "NEW-LABEL")
    assert [(e.type, e.id, e.key) for e in seen] == [("changed", "cab1", "label")]


def test_wwpn_forms():
    assert normalize_wwpn("10000000C9AABB01") == "10:00:00:00:c9:aa:bb:01"
    assert normalize_wwpn(" 50:05:07:63:00:C0:9B:2A ") == "50:05:07:63:00:c0:9b:2a"
    assert wwpn_problem("00:00:00:00:00:00:00:00")
    assert wwpn_problem("30:00:00:00:00:00:00:01")
    assert wwpn_problem("10:00:00:00:c9:aa:bb:01") is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_wwpn_validator_never_crashes(text):
    try:
        out = normalize_wwpn(text)
    except ModelError:
        return
    assert wwpn_problem(out) is None


def test_deleting_a_placed_box_drops_its_position_and_undo_restores_it(one_drawer):
    from planner.commands import SetPositions

    t = one_drawer
    sub = t.of_kind("subsystem")[0].id
    SetPositions({sub: (400.0, 120.0)}).do(t)
    b = edit.delete(t, [sub])
    assert sub not in t and sub not in t.positions
    b.undo(t)
    assert t.positions[sub] == (400.0, 120.0)


def _in_order(t: Topology) -> None:
    """Every table the walks read is in design order (creation numbers rising)."""
    seq = t._seq
    ids = [c.id for c in t.components()]
    assert ids == sorted(ids, key=seq.__getitem__)
    for kind in t._by_kind:
        kind_ids = t.ids_of_kind(kind)
        assert kind_ids == sorted(kind_ids, key=seq.__getitem__), kind


@settings(max_examples=25, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["delete", "undo", "redo", "read"]), st.integers(0, 10**6), st.integers(0, 10**6)),
        min_size=1,
        max_size=14,
    )
)
def test_design_order_survives_undo_whatever_is_read_between(steps):
    """An undo puts removed components back at the tables' ends out of order; each table is put
    back in order only when read. Whatever tables were read between the
    edits, each one read later is in order, and copies keep the order."""
    from catalogs.catalog import builtin_parts
    from planner.examples import build_example

    t = build_example("p690-benchmark", builtin_parts())
    stack = UndoStack(t)
    victims = [c.id for kind in ("subsystem", "drawer", "hba", "switch", "array") for c in t.of_kind(kind)]
    kinds = list(t._by_kind)
    for what, a, b in steps:
        if what == "delete":
            alive = [v for v in victims if v in t]
            if alive:
                edit.push(stack, edit.delete(t, [alive[a % len(alive)], alive[b % len(alive)]]))
        elif what == "undo":
            stack.undo()
        elif what == "redo":
            stack.redo()
        else:  # read one kind's table, or the components, leaving the others stale
            kind = kinds[a % len(kinds)]
            ids = t.ids_of_kind(kind) if b % 3 else [c.id for c in t.components()]
            assert ids == sorted(ids, key=t._seq.__getitem__)
    copy = t.snapshot()
    _in_order(copy)
    _in_order(t)
    assert [c.id for c in t.clone().components()] == [c.id for c in t.components()]
    while stack.undo():
        pass
    _in_order(t)


@given(st.permutations(range(12)), st.integers(min_value=0, max_value=12))
@settings(max_examples=40, deadline=None)
def test_removed_components_take_their_places_back_whatever_the_order(order, hint):
    """A component's place among its siblings is looked for from where the last removal was
    (a deletion removes its components in the order they were made), then from the start: in
    any order of removals, each records its true place and the undo puts the list back."""
    from planner.commands import Macro, RemoveComponent

    t = Topology()
    for i in range(12):
        t._add(_rack(f"r{i}"))
    before = list(t._children[None])
    t._removed_at[None] = hint  # (a stale hint from an earlier deletion)
    steps = [RemoveComponent(f"r{i}") for i in order]
    expected, left = [], list(before)
    for i in order:
        expected.append(left.index(f"r{i}"))
        left.remove(f"r{i}")
    macro = Macro("delete", steps)
    macro.do(t)
    assert [s.index for s in steps] == expected and t._children.get(None, []) == []
    macro.undo(t)
    assert t._children[None] == before


def _rack(cid: str):
    from planner.model import Component

    return Component(cid, "rack", cid, None, None, {})
