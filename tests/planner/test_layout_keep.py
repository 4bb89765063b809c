"""A site laid out band by band (planner.layout_keep): after each edit the layout made with the
memo equals one from nothing, box for box and in order, and keeps whole (the very boxes) every
band the edit did not touch, and no band it did."""

from __future__ import annotations

import copy

import pytest

from planner import edit
from planner.commands import PutPart, UndoStack
from planner.diagram_order import containers_first, heads, kept_and_changed, shared_bands
from planner.examples import build_site
from planner.incremental import Delta
from planner.layout import Diagram, LayoutMemo, layout
from planner.layout_bands import EndPairs, site_bands


@pytest.fixture(scope="module")
def _site3(parts):
    return build_site(parts, 3)


class Laid:
    """A design edited through an undo stack, laid out with a memo after each edit as the
    editor's analysis lane does (the memo told what the edit touched)."""

    def __init__(self, topo, collapsed: set[str]) -> None:
        self.topo, self.collapsed = topo, collapsed
        self.stack = UndoStack(topo)
        self.events: list = []
        topo.subscribe(self.events.append)
        self.memo = LayoutMemo()
        self.laid = layout(topo, collapsed, editor=True, memo=self.memo)

    def run(self, operation, *args) -> list[str]:
        """Edit with ``operation`` (``planner.edit.*``, or a command's class: done here) as
        one undo step and lay out again; the copies ("s1", ...) whose band the new layout
        shares with the one before."""
        self.events.clear()
        if isinstance(operation, type):
            cmd = operation(*args)
            cmd.do(self.topo)
        else:
            cmd = operation(self.topo, *args)
        self.stack.push(cmd, applied=True)
        return self.again()

    def undo(self) -> list[str]:
        self.events.clear()
        self.stack.undo()
        return self.again()

    def again(self) -> list[str]:
        """Lay out after the events since the last layout (none: a view change)."""
        delta = Delta.from_events(self.topo, self.events)
        self.memo.forget(self.topo, delta.ids, self.laid)
        got = layout(self.topo, self.collapsed, editor=True, memo=self.memo)
        fresh = layout(self.topo, self.collapsed, editor=True)
        assert got == fresh and list(got.boxes) == list(fresh.boxes)
        assert containers_first(got) == containers_first(_plain(got)) and heads(got) == heads(_plain(got))
        kept, changed = kept_and_changed(self.laid, got)
        plain_kept, plain_changed = kept_and_changed(_plain(self.laid), _plain(got))
        assert kept == plain_kept and sorted(changed) == sorted(plain_changed)
        shared = shared_bands(self.laid, got)
        for band in shared:  # (the very boxes: none copied)
            assert all(self.laid.boxes[cid] is box for cid, box in band.boxes.items())
        self.laid = got
        self.events.clear()
        return sorted({next(iter(band.boxes)).split(".", 1)[0] for band in shared})


def _plain(d: Diagram) -> Diagram:
    """``d`` without its bands: what a diagram laid out whole gives the canvas."""
    return Diagram(d.boxes, d.links, d.width, d.height, d.alias)


@pytest.mark.parametrize("folded", [False, True])
def test_an_edit_lays_out_only_the_band_it_touches(_site3, folded):
    topo = _site3.clone()
    groups = {c.id for kind in ("drawer", "switch", "subsystem", "volume_group") for c in topo.of_kind(kind)}
    site = Laid(topo, groups if folded else set())
    hba = next(p for p in topo.of_kind("hba_port") if p.id.startswith("s2.") and topo.cable_at(p.id))
    cable = topo.cable_at(hba.id)
    assert site.run(edit.set_attr, hba.parent, "name", "fcsX") == ["s1", "s3"]  # its switch port's label
    assert site.undo() == ["s1", "s3"]
    assert site.run(edit.delete, [cable.id]) == ["s1", "s3"]  # (only the cable's id in the edit)
    assert site.undo() == ["s1", "s3"]  # (a cable made: its ends' band)
    assert site.run(edit.set_attr, "s3.p690", "name", "big one") == ["s1", "s2"]
    assert site.run(edit.set_attr, "s2.p690.lpar1", "name", "prod") == ["s1", "s3"]  # its VGs' labels
    ld = topo.of_kind("logical_drive")[0]
    assert site.run(edit.set_attr, ld.id, "size_gb", 12.0) == ["s2", "s3"]
    zone = topo.of_kind("zone")[0]
    assert site.run(edit.delete, [zone.id]) == ["s1", "s2", "s3"]  # (draws nothing)
    assert site.run(edit.delete, ["s2.p690"]) == ["s1", "s3"]
    assert site.undo() == ["s1", "s3"]


def test_an_adapter_moved_to_another_server_joins_their_bands(_site3):
    """An HBA cabled to s2's switch moved into a free slot of s1: its ports (not named by the
    edit) now join s1 to s2's switch, one band of both; s3's band is not laid out again (placed
    anew: two bands stand in one column, three in two)."""
    topo = _site3.clone()
    site = Laid(topo, set())
    hba = next(p.parent for p in topo.of_kind("hba_port") if p.id.startswith("s2.") and topo.cable_at(p.id))
    slot = next(s for s in topo.of_kind("slot") if s.id.startswith("s1.") and not topo.children(s.id, "hba"))
    raw = {key: band.raw for key, band in site.memo.bands.items()}
    site.run(edit.move_hba, hba, slot.id)  # (the layout with the memo: the one from nothing)
    assert len(site.laid.bands) == 2
    kept = [b for key, b in site.memo.bands.items() if b.raw is raw.get(key)]
    assert [next(iter(b.boxes)).split(".")[0] for b in kept] == ["s3"]
    site.undo()
    assert len(site.laid.bands) == 3


def test_the_cables_ends_kept_by_the_memo_are_those_found_afresh(_site3):
    """The memo's tops at each cable's and disk's ends (``EndPairs``) after edits that change
    them without naming the cable: an HBA moved to another server (its ports change top), a
    cable's end moved, a server deleted and restored; each time the bands and the pairs are
    those a site without a memo gives, and only what the edit touched was looked at again."""
    topo = _site3.clone()
    site = Laid(topo, set())
    pairs = site.memo.pairs

    def same_as_afresh():
        fresh, tops = EndPairs(), {}
        assert site_bands(topo, tops, None, fresh) == site_bands(topo)
        assert (pairs.of, pairs.count, pairs.first) == (fresh.of, fresh.count, fresh.first)
        assert {c: t for c, t in tops.items()} == pairs.first

    hba = next(p.parent for p in topo.of_kind("hba_port") if p.id.startswith("s2.") and topo.cable_at(p.id))
    slot = next(s for s in topo.of_kind("slot") if s.id.startswith("s1.") and not topo.children(s.id, "hba"))
    looked = []
    real = EndPairs.forget
    EndPairs.forget = lambda self, ids: (looked.append(list(ids)), real(self, ids))[1]
    try:
        site.run(edit.move_hba, hba, slot.id)
    finally:
        EndPairs.forget = real
    assert len(site.laid.bands) == 2
    assert len(looked[0]) < 20  # (the HBA and what is below it, not every cable)
    same_as_afresh()
    gone = next(c for c in topo.of_kind("cable") if c["b"].startswith("s1.") and topo[c["b"]].kind == "switch_port")
    free = gone["b"]
    site.run(edit.delete, [gone.id])  # (every port is cabled: one freed)
    same_as_afresh()
    cable, end = next(
        (c, e)
        for c in topo.of_kind("cable")
        for e in "ab"
        if c[e].startswith("s3.") and topo[c[e]].kind == "switch_port"
    )
    site.run(edit.set_attr, cable.id, end, free)
    same_as_afresh()
    site.run(edit.delete, ["s3.p690"])
    same_as_afresh()
    for _ in range(4):
        site.undo()
        same_as_afresh()
    assert len(site.laid.bands) == 3


def test_a_moved_box_or_a_part_lays_out_its_band_again(_site3):
    topo = _site3.clone()
    site = Laid(topo, set())
    topo.positions = {"s2.p690": (5.0, 300.0)}  # (the canvas says so with the layout: no edit)
    assert site.again() == ["s1", "s3"]
    assert site.laid.boxes["s2.p690"].x == 5.0
    topo.positions = {}
    assert site.again() == ["s1", "s3"]
    sub = topo.of_kind("subsystem")[0]
    part = copy.deepcopy(topo.parts[sub.part])
    part["drive_bays"] = 28  # (the enclosures' bays read from the part: no component in the edit)
    assert site.run(PutPart, part) == []  # (every site's subsystems share the part)
    assert site.again() == ["s1", "s2", "s3"]  # nothing changed: every band kept


def test_a_band_below_a_taller_one_is_placed_anew_not_laid_out(parts):
    topo = build_site(parts, 5)  # (two columns of bands in the editor: 3 and 2)
    groups = {c.id for kind in ("drawer", "switch", "subsystem", "volume_group") for c in topo.of_kind(kind)}
    drawers = topo.children("s1.p690", "drawer")
    site = Laid(topo, groups - {drawers[0].id})  # (the host side's columns shown)
    laid = {cid: box for cid, box in site.laid.boxes.items() if cid.startswith(("s2.", "s3."))}
    raw = {key: band.raw for key, band in site.memo.bands.items()}
    site.collapsed = site.collapsed - {drawers[1].id}  # s1 taller: s2 and s3 move down
    assert site.again() == ["s4", "s5"]  # (the second column of bands stays)
    moved = [cid for cid, box in laid.items() if site.laid.boxes[cid].y > box.y]
    assert moved and len(moved) == len(laid)
    kept = [band for key, band in site.memo.bands.items() if band.raw is raw.get(key)]  # (not laid out again)
    assert sorted(next(iter(b.boxes)).split(".")[0] for b in kept) == ["s2", "s3", "s4", "s5"]


def test_a_mapping_edited_keeps_its_subsystems_cell_one_added_or_removed_does_not(_site3):
    """A subsystem's expanded cell (its boxes laid out apart) is kept by the memo while no edit
    touches it. A host mapping draws no box: its references edited (a server deleted cleans
    those of every mapping of its subsystems) keep the cell; a mapping added or removed (its
    alias to the subsystem) drops it. Each layout equals one from nothing (``Laid``)."""
    topo = _site3.clone()
    site = Laid(topo, set())
    mapping = next(m for m in topo.of_kind("host_mapping") if m.id.startswith("s2.") and m["hba_ports"])
    sub = mapping.parent
    cell = site.memo.cells[sub]
    site.run(edit.set_attr, mapping.id, "hba_ports", list(mapping["hba_ports"][:1]))
    assert site.memo.cells[sub] is cell  # kept
    site.run(edit.delete, ["s2.p690"])  # every mapping of s2's subsystems cleaned
    subs = {m.parent for m in topo.of_kind("host_mapping") if m.id.startswith("s2.")}
    assert site.memo.cells[sub] is cell and all(site.memo.cells.get(s) for s in subs)
    site.undo()
    assert site.memo.cells[sub] is cell
    site.run(edit.add_host_mapping, sub, "extra", [], [])
    assert site.memo.cells[sub] is not cell and "extra" in str(site.laid.alias)  # laid out again
    cell = site.memo.cells[sub]
    site.undo()
    assert site.memo.cells[sub] is not cell
