"""The items a morph drops are kept for the next morph (widgets.canvas.spare): an undo of a delete
takes back the very items the delete dropped, with the items inside them, and shows what a
fresh scene's full paint shows; what it does not take back is freed."""

from __future__ import annotations

import pytest
import shiboken6

from planner import edit
from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown


def _key(li) -> tuple:
    return (li.link.a, li.link.b, li.link.kind, li.link.via)


def _below(topo, cid: str) -> list[str]:
    return [cid] + [c.id for c in topo.descendants(cid)]


@pytest.mark.parametrize("gone", ["fastt3", "d5"])  # a top-level box; one inside a server kept
def test_an_undo_takes_back_the_items_its_delete_dropped(qtbot, parts, benchmark_design, gone):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    before = dict(scene.items_by_id)
    ids = [c for c in _below(doc.topology, gone) if c in before]
    assert len(ids) > 10
    at = set(ids)
    links = {_key(li): li for li in scene.links if li.a.cid in at or li.b.cid in at}
    assert links
    doc.run(edit.delete, [gone])
    settle(qtbot, doc, scene)
    assert set(ids) <= set(scene._spare.items) and not set(ids) & set(scene.items_by_id)
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert all(scene.items_by_id[c] is before[c] for c in ids)  # the very items
    now = {_key(li): li for li in scene.links}
    assert all(now[k] is li for k, li in links.items())  # and the very link items at them
    assert not set(ids) & set(scene._spare.items if scene._spare is not None else ())
    assert all(item.scene() is scene for item in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    doc.undo_stack.redo()  # dropped again, then taken back again
    settle(qtbot, doc, scene)
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert all(scene.items_by_id[c] is before[c] for c in ids)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_items_that_would_show_otherwise_are_made_again_and_the_dropped_freed(qtbot, parts, benchmark_design):
    """Zoomed out between the delete and its undo, the dropped items (in full detail) are not
    taken back: new ones in summary mode, the dropped ones freed once the canvas is idle."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    before = dict(scene.items_by_id)
    ids = [c for c in _below(doc.topology, "fastt3") if c in before]
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    scene.set_low_detail(True, 0.3)
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert not any(scene.items_by_id[c] is before[c] for c in ids)
    assert all(scene.items_by_id[c].low for c in ids)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(before[c]) for c in ids), timeout=10000)


def test_a_drop_not_undone_is_freed_by_the_next_morph(qtbot, parts, benchmark_design):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    dropped = [scene.items_by_id[c] for c in _below(doc.topology, "fastt3") if c in scene.items_by_id]
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    doc.run(edit.delete, ["sw2"])  # another morph: fastt3's items are not wanted
    settle(qtbot, doc, scene)
    assert scene._spare is not None and "fastt3" not in scene._spare.items
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(it) for it in dropped), timeout=10000)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_group_opened_again_takes_back_what_did_not_change_and_remakes_what_did(qtbot, parts, benchmark_design):
    """A drawer folded drops its open box with the boxes inside; an HBA inside renamed while it
    is folded; the drawer opened again takes back its box and the unchanged boxes inside, and
    makes the HBA's box again (the one dropped, with the old name, taken out and freed)."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    topo = doc.topology
    hba = next(c for c in _below(topo, "d5") if topo[c].kind == "hba" and c in scene.items_by_id)
    before = dict(scene.items_by_id)
    scene.toggle_collapsed("d5")
    settle(qtbot, doc, scene)
    assert "d5" in scene._spare.items and hba in scene._spare.items
    doc.run(edit.set_attr, hba, "name", "renamed-hba")  # (its label: no morph, the drop still kept)
    settle(qtbot, doc, scene)
    scene.toggle_collapsed("d5")
    settle(qtbot, doc, scene)
    assert scene.items_by_id["d5"] is before["d5"]
    assert scene.items_by_id[hba] is not before[hba] and "renamed-hba" in scene.items_by_id[hba].box.label
    inner = [c for c in _below(topo, "d5") if c in before and c != hba and topo[c].parent != hba and c != "d5"]
    assert inner and sum(scene.items_by_id[c] is before[c] for c in inner) > len(inner) // 2
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    qtbot.waitUntil(lambda: not shiboken6.isValid(before[hba]), timeout=10000)


def test_a_dropped_box_not_asked_for_leaves_the_box_taken_back(qtbot, parts, benchmark_design):
    """An item inside a dropped box that the next morph does not ask for (here: filed under an
    id no box has) is taken out of the box taken back and freed: the scene shows no box that
    no id shows."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    topo = doc.topology
    before = dict(scene.items_by_id)
    inner = next(c for c in _below(topo, "fastt3") if c in before and topo[c].parent == "fastt3")
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    scene._spare.items["no-such-box"] = scene._spare.items.pop(inner)
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert scene.items_by_id["fastt3"] is before["fastt3"] and scene.items_by_id[inner] is not before[inner]
    assert not shiboken6.isValid(before[inner]) or before[inner].scene() is None  # (freed already, or about to be)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)  # (no stray box)
    qtbot.waitUntil(lambda: not shiboken6.isValid(before[inner]), timeout=10000)
