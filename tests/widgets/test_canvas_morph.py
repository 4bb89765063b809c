"""An edit that moves boxes keeps the canvas's items that did not change (widgets.canvas.morph):
what the canvas shows afterwards equals a fresh scene's full rebuild and full paint, after edits
of every kind, and most items are the very objects shown before."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QTimer

from planner import edit
from planner.diagram_order import shared_bands
from planner.examples import build_site
from tests.widgets.test_canvas_incremental import (
    background_canvas,
    free_slot,
    full_paint,
    hba_part,
    layouts_counted,
    settle,
    shown,
)
from widgets.canvas import morph as morph_module
from widgets.canvas.items import BOX_PEN_MARGIN


def containers_come_first(scene) -> bool:
    """Whether each item comes after the item it is inside, in the scene's items by id."""
    seen: set[int] = set()
    for item in scene.items_by_id.values():
        up = item.parentItem()
        if up is not None and id(up) not in seen:
            return False
        seen.add(id(item))
    return True


def kept_share(before: dict, scene) -> float:
    """The share of the items shown now that were shown before the step (the same objects)."""
    now = scene.items_by_id
    return sum(before.get(cid) is item for cid, item in now.items()) / len(now)


@pytest.mark.parametrize(("low", "sliced"), [(False, False), (True, False), (False, True), ("far", True)])
def test_structural_edits_keep_the_items_and_show_what_a_rebuild_shows(
    qtbot, parts, benchmark_design, monkeypatch, low, sliced
):
    if sliced:  # each morph in slices of 32 boxes or links, the event loop turning between them
        monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    if low:  # zoomed out: new items come in summary mode too
        scene.set_low_detail(True, 0.3)
    if low == "far":  # so far out that the overview is shown: the items' detail is set on the way back
        scene.set_low_detail(True, 0.05)
        assert scene.far
    cable = doc.topology["cab7"]
    ends = (cable["a"], cable["b"])
    steps = [
        ("delete a subsystem", lambda: doc.run(edit.delete, ["fastt3"])),  # the storage column moves up
        ("undo", doc.undo_stack.undo),
        ("delete a cable", lambda: doc.run(edit.delete, ["cab7"])),
        ("cable it again", lambda: doc.run(edit.add_cable, *ends)),
        ("add an HBA", lambda: doc.run(edit.add_hba, free_slot(doc.topology, "d2"), hba_part(parts))),
        ("fold a drawer", lambda: scene.toggle_collapsed("d2")),
        ("delete a switch", lambda: doc.run(edit.delete, ["sw2"])),
        ("undo", doc.undo_stack.undo),
        ("open it again", lambda: scene.toggle_collapsed("d2")),
        ("undo", doc.undo_stack.undo),
        ("delete a drawer", lambda: doc.run(edit.delete, ["d5"])),
        ("undo it", doc.undo_stack.undo),
    ]
    shares = {}
    for name, step in steps:
        before = dict(scene.items_by_id)
        step()
        settle(qtbot, doc, scene)
        if low == "far":
            scene.set_low_detail(True, 0.3)  # back from far out
            settle(qtbot, doc, scene)
        mine, ref = shown(scene), full_paint(qtbot, parts, doc, scene)
        if low == "far":
            scene.set_low_detail(True, 0.05)
        assert mine == ref, repr((name, _diff(mine, ref))).replace("\\n", " ")
        assert containers_come_first(scene), name  # (what a fold of everything deletes them by)
        shares[name] = kept_share(before, scene)
    assert shares["delete a subsystem"] > 0.9 and shares["delete a cable"] > 0.99, shares
    assert all(share > 0.5 for share in shares.values()), shares


def test_boxes_made_far_out_get_their_texts_when_woken(qtbot, parts, benchmark_design, monkeypatch):
    """Zoomed far out (the overview shown, no item drawn) the boxes a morph makes are made
    asleep: no texts, what the edits and the analysis ask of them kept. Zoomed back in, or once
    the canvas is idle, they wake with the texts a fresh scene's full paint gives them (their
    titles, a renamed one's new title, their load figures, a group's load line)."""
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 60_000)  # (no idle waking until the end)
    monkeypatch.setattr(morph_module, "SPARE_AT_MOST", 0)  # (an undo makes the items again: none kept)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)

    def far_then(*steps) -> list:
        scene.set_low_detail(True, 0.05)
        assert scene.far
        for step in steps:
            step()
            settle(qtbot, doc, scene)
        return [it for it in scene.items_by_id.values() if it.asleep]

    asleep = far_then(lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo)
    assert len(asleep) > 10 and all(it.text is None for it in asleep)  # fastt3 and its boxes
    assert any(it.util is not None for it in asleep)  # painted while asleep
    asleep = far_then(
        lambda: scene.toggle_collapsed("sw1"),  # (folded: its box made again, with a load line)
        lambda: doc.run(edit.set_attr, "fastt3", "name", "FAStT-renamed"),
    )
    assert any(it.cid == "sw1" for it in asleep) and any(it.cid == "fastt3" for it in asleep)
    scene.set_low_detail(False, 1.0)  # zoomed back in: every box awake
    settle(qtbot, doc, scene)
    assert not scene.far and not any(it.asleep for it in scene.items_by_id.values())
    mine = shown(scene)
    assert mine == full_paint(qtbot, parts, doc, scene)
    assert any("FAStT-renamed" in t for t in mine[0]["fastt3"][4])
    assert mine[0]["sw1"][3] and "MB/s" in mine[0]["sw1"][4][0]  # (its load line)
    # left far out, the canvas idle: woken a slice a turn
    asleep = far_then(lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo)
    assert asleep
    assert scene._wake_timer.isActive()  # (waiting for the canvas to be idle a while: see WAKE_AFTER_MS)
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 50)  # (made short only now: set before the edits,
    scene._wake_timer.start(50)  # the boxes were woken before the test looked, as the edits took their time)
    qtbot.waitUntil(lambda: not any(it.asleep for it in scene.items_by_id.values()), timeout=10000)
    assert scene.far and all(it.text is not None for it in asleep)
    scene.set_low_detail(False, 1.0)
    settle(qtbot, doc, scene)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_groups_deleted_folded_come_back_folded_and_the_scene_keeps_its_rectangle(qtbot, parts, benchmark_design):
    """Every group folded, a drawer and a switch deleted and undone: they come back folded (a
    server of the 16x site came back open, its 361 boxes made and the diagram a third taller).
    The scene keeps its rectangle while the diagram still fits in it with little to spare (each
    new one had Qt index every item again and the view's scroll bars drawn again); one that
    no longer fits, or fits with much to spare, is replaced by the diagram's own."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(True)
    settle(qtbot, doc, scene)
    rect, height = scene.sceneRect(), scene.diagram.height
    for victim in ("d5", "sw2"):
        doc.run(edit.delete, [victim])
        settle(qtbot, doc, scene)
        assert victim not in scene.diagram.boxes and scene.diagram.height <= height
        assert scene.sceneRect() == rect  # (the diagram fits with little to spare)
        doc.undo_stack.undo()
        settle(qtbot, doc, scene)
        assert scene.diagram.boxes[victim].collapsed, victim
        assert scene.diagram.height == height and scene.sceneRect() == rect
        assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    scene.toggle_collapsed("d5")  # opened: taller than the rectangle, which follows
    settle(qtbot, doc, scene)
    grown = scene.sceneRect()
    assert grown.height() == scene.diagram.height + 200 > rect.height()
    scene.toggle_collapsed("d5")  # folded again: much to spare, the diagram's own again
    settle(qtbot, doc, scene)
    assert scene.sceneRect() == rect
    # a site of two servers, folded: the second server deleted leaves its switches and
    # subsystems a band where it stood, no taller (planner.layout_bands): the rectangle stays
    doc, scene = background_canvas(qtbot, parts, build_site(parts, 2))
    scene.set_all_collapsed(True)
    settle(qtbot, doc, scene)
    rect, height = scene.sceneRect(), scene.diagram.height
    doc.run(edit.delete, [doc.topology.ids_of_kind("server")[1]])
    settle(qtbot, doc, scene)
    assert scene.diagram.height <= height and scene.sceneRect() == rect
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert scene.diagram.height == height and scene.sceneRect() == rect
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_what_a_morph_keeps_is_worked_out_in_the_lane_with_the_layout(qtbot, parts, benchmark_design, monkeypatch):
    """The boxes whose items stay are compared with the diagram shown off the GUI thread (on
    the 16x site expanded that took 50-65 ms of it after each edit that moved boxes); the
    morph on the GUI thread only looks them up, and shows what a rebuild shows."""
    import threading

    from app import background

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    threads = []
    real, lane = morph_module.kept_frames, background.kept_and_changed
    monkeypatch.setattr("app.background.kept_and_changed", lambda o, n: (threads.append("lane"), lane(o, n))[1])
    monkeypatch.setattr(
        morph_module, "kept_frames", lambda o, n: (threads.append(threading.current_thread().name), real(o, n))[1]
    )
    for step in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        before = dict(scene.items_by_id)
        step()
        settle(qtbot, doc, scene)
        assert kept_share(before, scene) > 0.9
        assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    assert threads == ["lane", "lane"]
    assert background.MAKES_ALL_BELOW == morph_module.KEEP_SHARE  # (when the canvas makes all again)


def test_a_chosen_path_and_the_selection_stay_shown_across_a_morph(qtbot, parts, benchmark_design):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    path = next(p for p in doc.analysis.result.paths if "fastt9" in p.hops[-1])
    scene.highlight_path(path)
    doc.select(["fastt10", "sw3"])
    before = dict(scene.items_by_id)
    doc.run(edit.delete, ["fastt2"])  # boxes below it move up; the path's boxes are kept
    settle(qtbot, doc, scene)
    assert kept_share(before, scene) > 0.9
    assert {i.cid for i in scene.selectedItems()} == {"fastt10", "sw3"}
    lit = {cid for cid, it in scene.items_by_id.items() if it.highlighted}
    assert lit and {"fastt9", scene.diagram.visible(path.hops[0])} <= lit
    assert any(li.highlighted for li in scene.links)
    ref = full_paint(qtbot, parts, doc, scene)  # a fresh scene: no path chosen, nothing selected
    assert {c: v[:-1] for c, v in shown(scene)[0].items()} == {c: v[:-1] for c, v in ref[0].items()}


def test_a_morph_in_slices_holds_the_views_and_paints_once_done(qtbot, parts, benchmark_design, monkeypatch):
    """A morph runs a slice per turn of the event loop (the 16x site's storage column moved
    blocked the loop 20-25 ms in one go), the views held still and the analysis waiting; the
    path lit up meanwhile finishes it at once. Either way the canvas ends as a full paint."""
    from PySide6.QtWidgets import QGraphicsView

    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    view = QGraphicsView(scene, scene.test_owner)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    slices, seen, lit, at_lit = [], [], [], []  # (read as a slice begins: a morph may end between two polls)
    real = scene._morph_slice

    def slice_seen() -> None:
        slices.append(scene._morphing)
        seen.append((view.viewport().updatesEnabled(), scene.painted_revision, doc.layout_showing))
        if lit and scene._morphing is not None:  # a path lit up while the morph is under way
            scene.highlight_path(lit.pop())  # needs every link: the morph is finished first
            at_lit.append((scene._morphing, any(li.highlighted for li in scene.links), len(scene.links)))
            return
        real()

    monkeypatch.setattr(scene, "_morph_slice", slice_seen)
    scene._morph_timer.timeout.disconnect()
    scene._morph_timer.timeout.connect(scene._morph_slice)
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    assert seen and seen[0] == (False, None, True)  # held, nothing painted, the analysis lane waiting
    assert len(slices) > 3 and view.viewport().updatesEnabled() and not doc.layout_showing
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)

    lit.append(next(p for p in doc.analysis.result.paths if "fastt9" in p.hops[-1]))
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not lit, timeout=30000)
    assert at_lit == [(None, True, len(scene.diagram.links))]  # finished at once, the path lit
    settle(qtbot, doc, scene)
    scene.highlight_path(None)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_change_of_most_of_the_diagram_makes_the_items_again(qtbot, parts, benchmark_design, monkeypatch):
    """Expanding everything keeps too few items to be worth comparing: the scene is rebuilt."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    calls = []
    real = morph_module.morph
    monkeypatch.setattr(
        "widgets.canvas.morph.morph",
        lambda s, d, kept=None, changed=None: calls.append(real(s, d, kept, changed)) or calls[-1],
    )
    before = dict(scene.items_by_id)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    assert calls == [None]  # declined, having changed nothing
    assert kept_share(before, scene) == 0
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_link_drawn_from_its_boxes_is_the_link_drawn_from_its_items(qtbot, parts, benchmark_design):
    """The morph draws a moved link from the new layout's boxes (no Qt call per end): the same
    curve as from the items' bounding rectangles, which are the boxes and half a pen around."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    d = scene.diagram
    for li in scene.links[::7]:
        item = li.a
        rect = item.rect().adjusted(-BOX_PEN_MARGIN, -BOX_PEN_MARGIN, BOX_PEN_MARGIN, BOX_PEN_MARGIN)
        assert item.boundingRect() == rect
        from_items = li.path()
        li.update_path(d.boxes[li.link.a], d.boxes[li.link.b])
        ours, theirs = li.path(), from_items
        assert ours.elementCount() == theirs.elementCount() == 4
        for k in range(4):
            e, f = ours.elementAt(k), theirs.elementAt(k)
            assert (e.x, e.y) == pytest.approx((f.x, f.y), abs=1e-9)


def test_a_link_is_bounded_around_what_its_pen_draws(qtbot, parts, benchmark_design):
    """Links are plain objects (not in the scene); the view's layer cuts them into tiles by
    their bounds: the rectangle of the curve's control points, a pen's width around, which
    holds the bounds a QGraphicsPathItem with their path and pen has (Qt's stroke of the path)
    and is at most a pen's width larger than them each side."""
    from PySide6.QtWidgets import QGraphicsPathItem

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    path = next(p for p in doc.analysis.result.paths if "fastt9" in p.hops[-1])
    scene.highlight_path(path)  # some links wider
    kinds = set()
    for li in scene.links:
        qt = QGraphicsPathItem(li.path())
        qt.setPen(li.pen())
        ours, theirs = li.boundingRect(), qt.boundingRect()
        assert ours == li.sceneBoundingRect() and ours.contains(theirs)
        slack = max(li.pen().widthF(), 1.0) + 1e-9
        assert theirs.adjusted(-slack, -slack, slack, slack).contains(ours)
        first, last = li.path().elementAt(0), li.path().elementAt(3)
        assert li.ends == (first.x, first.y, last.x, last.y)  # the overview's line
        assert li.rgba == li.pen().color().rgba()
        kinds.add((li.link.kind, li.pen().widthF()))
    assert len(kinds) >= 4


def test_a_group_folded_or_opened_is_laid_out_off_the_gui_thread(qtbot, parts, benchmark_design, monkeypatch):
    """Opening a group laid the whole design out on the GUI thread (0.3-0.8 s on the 16x site);
    the analysis lane lays it out now, its memo keeping the groups that stay folded. Nothing was
    edited: the analysis shown stands (it was sent again, and every panel refreshed from it)."""
    import threading

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    here, there = layouts_counted(monkeypatch)
    analysed: list = []
    doc.analysisReady.connect(analysed.append)
    before = dict(scene.items_by_id)
    scene.toggle_collapsed("d3")
    assert "d3" in scene.diagram.boxes and scene.diagram.boxes["d3"].collapsed  # not yet: laid out there
    settle(qtbot, doc, scene)
    assert not here and there and all(t is not threading.main_thread() for t in there)
    assert not scene.diagram.boxes["d3"].collapsed and "d3.p0" in scene.diagram.boxes
    assert kept_share(before, scene) > 0.5  # and morphed
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)  # (a fresh scene, laid out here)
    assert analysed == []
    here.clear()
    scene.set_all_collapsed(False)  # everything: laid out there too, the items made a slice at a time
    settle(qtbot, doc, scene)
    assert not here and len(scene.items_by_id) == len(scene.diagram.boxes)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


SEEDS = [int(s) for s in os.environ.get("SEEDS", "3,7,11,14,16,58").split(",")]  # more: SEEDS=1,2,... pytest


@pytest.mark.parametrize("seed", SEEDS)
def test_random_interleavings_end_in_what_a_rebuild_shows(qtbot, parts, benchmark_design, monkeypatch, seed):
    """Groups folded and opened, everything expanded or folded, subsystems deleted, undo and
    redo, attribute edits and zoom changes in a random order, each let run a random number of
    turns of the event loop (so layouts, morphs and builds in slices overlap): once quiet, the
    canvas shows what a fresh scene's full paint shows."""
    import random

    from PySide6.QtWidgets import QApplication

    import widgets.canvas.scene as scene_module

    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.002)
    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)  # a slice of 32 boxes or links
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    rnd = random.Random(seed)
    topo = doc.topology
    subsystems, drawers, arrays = topo.ids_of_kind("subsystem"), topo.ids_of_kind("drawer"), topo.ids_of_kind("array")
    steps = [
        lambda: scene.toggle_collapsed(rnd.choice(drawers)),
        lambda: scene.set_all_collapsed(rnd.random() < 0.5),
        lambda: doc.run(edit.delete, [rnd.choice([s for s in subsystems if s in doc.topology])]),
        doc.undo_stack.undo,
        doc.undo_stack.redo,
        lambda: doc.run(edit.set_attr, rnd.choice(arrays), "segment_kb", rnd.choice([64, 128, 256])),
        lambda: scene.set_low_detail(rnd.random() < 0.5, rnd.choice([0.2, 0.5, 1.0])),
        lambda: doc.run(
            edit.set_attr, rnd.choice([d for d in drawers if d in doc.topology]), "name", f"D{rnd.random()}"
        ),
        lambda: doc.run(edit.add_hba, free_slot(doc.topology, rnd.choice(drawers)), hba_part(parts)),
    ]
    for _ in range(30):
        rnd.choice(steps)()
        for _ in range(rnd.randint(0, 30)):
            QApplication.processEvents()
    settle(qtbot, doc, scene)
    qtbot.waitUntil(lambda: scene._build is scene._morphing is None and not doc.background_busy(), timeout=30000)
    settle(qtbot, doc, scene)
    mine, ref = shown(scene), full_paint(qtbot, parts, doc, scene)
    assert mine == ref, repr(_diff(mine, ref))
    if scene.far:  # and back from far out, each item's detail as a fresh scene's
        scene.set_low_detail(rnd.random() < 0.5, 1.0)
        settle(qtbot, doc, scene)
        mine, ref = shown(scene), full_paint(qtbot, parts, doc, scene)
        assert mine == ref, repr(_diff(mine, ref))


def test_random_edits_of_a_site_end_in_what_a_rebuild_shows(qtbot, parts, monkeypatch):
    """The same on a site of three servers, every group expanded, whose bands are kept from one
    layout to the next (planner.layout_keep: the canvas skips the bands it shares with the
    diagram shown): cables and a server deleted, drawers folded and opened, arrays edited, undo
    and redo, in a random order, some overlapping: once quiet, what a fresh scene's full paint
    shows."""
    import random

    from PySide6.QtWidgets import QApplication

    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)
    doc, scene = background_canvas(qtbot, parts, build_site(parts, 3))
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    rnd = random.Random(11)
    topo = doc.topology
    drawers, arrays = topo.ids_of_kind("drawer"), topo.ids_of_kind("array")
    steps = [
        lambda: scene.toggle_collapsed(rnd.choice(drawers)),
        lambda: doc.run(edit.delete, [rnd.choice(doc.topology.ids_of_kind("cable"))]),
        lambda: doc.run(edit.delete, [rnd.choice(doc.topology.ids_of_kind("server"))]),
        lambda: doc.run(edit.set_attr, rnd.choice([a for a in arrays if a in doc.topology]), "segment_kb", 64),
        doc.undo_stack.undo,
        doc.undo_stack.redo,
    ]
    shared = 0
    real = morph_module.shared_bands

    def counting(old, new):
        nonlocal shared
        got = real(old, new)
        shared += len(got)
        return got

    monkeypatch.setattr(morph_module, "shared_bands", counting)
    for k in [0, 1, 3, 0, 4, 1, 2, 4, 0, 5, 1, 4, 4, 0, 2, 4, 3, 1, 0]:  # (each kind of step, several times)
        steps[k]()
        if rnd.random() < 0.6:  # (shown before the next: the next morph starts from the lane's diagram)
            settle(qtbot, doc, scene)
            continue
        for _ in range(rnd.randint(0, 30)):
            QApplication.processEvents()
    settle(qtbot, doc, scene)
    qtbot.waitUntil(lambda: scene._build is scene._morphing is None and not doc.background_busy(), timeout=30000)
    settle(qtbot, doc, scene)
    assert shared > 0  # (morphs that kept bands whole)
    mine, ref = shown(scene), full_paint(qtbot, parts, doc, scene)
    assert mine == ref, repr(_diff(mine, ref))


def _diff(a, b):  # debugging aid
    for k in range(len(a)):
        if a[k] != b[k]:
            if isinstance(a[k], dict):
                for c in a[k].keys() | b[k].keys():
                    if a[k].get(c) != b[k].get(c):
                        return k, c, a[k].get(c), b[k].get(c)
            for x, y in zip(a[k], b[k]):
                if x != y:
                    return k, x, y
    return None


def test_the_analysis_waits_for_the_canvas_to_show_a_layout(qtbot, parts, benchmark_design, monkeypatch):
    """The lane lets the canvas show an edit's layout before it sends the edit's analysis (the
    two sharing the interpreter doubled each slice of the morph); the canvas says when."""
    import app.background

    monkeypatch.setattr(app.background, "LAYOUT_FIRST_S", 30.0)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    shown_at, analysed_at = [], []
    real_shown = doc.layout_shown
    doc.analysisReady.connect(lambda b: analysed_at.append(doc.topology.revision))

    def hold_then_show(laid) -> None:  # the canvas taking its time, as a sliced morph does
        doc.layout_showing = True
        QTimer.singleShot(300, lambda: (shown_at.append(len(analysed_at)), real_shown()))

    monkeypatch.setattr(scene, "_show_layout", lambda laid: None)
    doc.layoutReady.disconnect()
    doc.layoutReady.connect(hold_then_show)
    doc.request_layout(scene._collapsed_now(), scene.diagram)
    doc.run(edit.delete, ["fastt3"])
    qtbot.waitUntil(lambda: bool(analysed_at), timeout=10000)
    assert shown_at == [0]  # nothing analysed before the canvas had shown the layout


def test_an_edit_that_moves_boxes_is_analysed_before_it_is_laid_out(qtbot, parts, benchmark_design, monkeypatch):
    """The lane analyses an edit to lay out first, while the canvas waits for the layout, and
    sends the analysis once the canvas has placed the items (app.background.ANALYSED_FIRST); a
    group opened, with nothing edited, is laid out and not analysed again."""
    import app.background

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    lane = doc._background
    order: list[str] = []
    real_results, real_layout = type(lane)._results, app.background.layout
    monkeypatch.setattr(type(lane), "_results", lambda self, *a: (order.append("analysis"), real_results(self, *a))[1])
    monkeypatch.setattr(app.background, "layout", lambda *a, **k: (order.append("layout"), real_layout(*a, **k))[1])
    got: list[int] = []
    doc.analysisReady.connect(lambda b: got.append(b.revision))
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    assert order[:2] == ["analysis", "layout"]
    assert got and got[0] == doc.topology.revision
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)
    order.clear()
    scene.toggle_collapsed(doc.topology.ids_of_kind("drawer")[0])
    settle(qtbot, doc, scene)
    assert order == ["layout"]


def test_an_inner_box_moved_within_its_kept_container_is_moved(qtbot, parts, benchmark_design):
    """The morph knows where it put each inner box (``BoxItem.at``) instead of asking Qt: an
    inner box the new layout puts elsewhere in its container (same size, container kept) is
    moved there, and one that stays is not touched; top-level boxes are asked (a drag moves
    them without the canvas)."""
    import dataclasses

    from planner.layout import Diagram

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    old = scene.diagram
    within = {}
    for b in old.boxes.values():
        within.setdefault(b.container, []).append(b)
    inner = next(bs[1] for up, bs in within.items() if up is not None and len(bs) > 2)  # (not its first)
    top = next(b for b in old.boxes.values() if b.container is None and b.kind == "subsystem")
    boxes = {cid: dataclasses.replace(b) for cid, b in old.boxes.items()}
    boxes[inner.id] = dataclasses.replace(inner, x=inner.x + 3.0)  # (its container's title row stays)
    d = Diagram(boxes, list(old.links), old.width, old.height, dict(old.alias))
    item, still = scene.items_by_id[inner.id], scene.items_by_id[top.id]
    was_pos = item.pos()
    scene.items_by_id[top.id].setPos(top.x + 40, top.y)  # as a drag leaves it, before its edit
    done = morph_module.morph(scene, d)
    assert done is not None
    done.step(None)
    assert scene.items_by_id[inner.id] is item
    assert (item.pos().x(), item.pos().y()) == (was_pos.x() + 3.0, was_pos.y())
    assert inner.id in done.moved and inner.id in done.shifted
    assert (still.pos().x(), still.pos().y()) == (top.x, top.y)  # put back where its box is
    others = [b.id for b in old.boxes.values() if b.container == inner.container and b.id != inner.id]
    assert others and not any(cid in done.shifted for cid in others)


@pytest.mark.parametrize("server", [True, False])
def test_the_views_paint_nothing_while_the_items_change(qtbot, parts, benchmark_design, monkeypatch, server):
    """A view paints the new items once they are all made, never halfway: Qt paints what was
    marked for repainting before the views were held, so they are held before the items
    change. (The benchmark expanded and its server deleted: the scene's new rectangle, set as
    the morph began, had the view paint in the morph's next turn, 25-40 ms cutting and
    gathering its tiles for items about to move.)"""
    from PySide6.QtCore import QEvent, QObject

    from widgets.canvas.view import DiagramView

    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)  # (many slices, a turn each)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    view = DiagramView(scene, scene.test_owner)
    view.resize(900, 600)
    scene.test_owner.show()
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    view.zoom_to_fit()
    qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=5000)
    changing = []

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                changing.append(scene._morphing is not None or scene._build is not None)
            return False

    paints = Paints()
    view.viewport().installEventFilter(paints)
    victim = "p690" if server else "fastt3"
    rect = scene.sceneRect()
    began: list[int] = []  # (a morph begun: it may end between two polls of a wait)
    real = morph_module.morph
    monkeypatch.setattr(morph_module, "morph", lambda *a, **k: began.append(1) or real(*a, **k))
    doc.run(edit.delete, [victim])
    qtbot.waitUntil(lambda: bool(began), timeout=30000)
    settle(qtbot, doc, scene)
    assert scene.sceneRect() != rect or not server  # (the server gone: a smaller diagram)
    began.clear()
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: bool(began), timeout=30000)
    settle(qtbot, doc, scene)
    qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=5000)
    qtbot.wait(50)
    view.viewport().removeEventFilter(paints)
    assert changing and not any(changing)  # painted, and only once the items were all made


def test_the_links_a_morph_drops_are_freed_once_the_canvas_is_idle(qtbot, parts, benchmark_design, monkeypatch):
    """A link keeps the pieces of its curve for the view's layer (Qt lines): freeing the
    hundreds a server deleted drops took 11-12 ms at the end of the morph's last turn. They go
    to the grave, freed a slice at a time once the canvas is idle."""
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 1)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    before = {id(li) for li in scene.links}
    ended = []
    real = scene._morphed

    def morphed(done):
        real(done)  # what the grave holds at the end of the morph's turn: the links dropped
        ended.append({id(li) for batch in scene._grave._heap for links in batch.values() for li in links})

    monkeypatch.setattr(scene, "_morphed", morphed)
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    kept = {id(li) for li in scene.links}
    assert ended and ended[0] and ended[0] == before - kept  # every link dropped, and only those
    qtbot.waitUntil(lambda: not scene._grave, timeout=5000)  # freed once idle


@pytest.mark.parametrize("whole", [True, False])
def test_a_server_deleted_from_a_site_places_only_the_boxes_that_changed(qtbot, parts, monkeypatch, whole):
    """A site's bands keep their places when a server goes (planner.layout_bands): the lane
    says which boxes changed (planner.diagram_order.kept_and_changed) and the morph places only
    those, handing the others their new boxes; the two bands the edit did not touch keep their
    very boxes and links (planner.layout_keep), and their link items with them, taken whole
    from where the scene lists them (morph.link_spans), not link by link; the scene is what a
    fresh one shows. The same when the scene does not know where the bands' links stand
    (``whole`` False): each shared band's items are then found link by link."""
    doc, scene = background_canvas(qtbot, parts, build_site(parts, 3))
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    placed: list[str] = []
    real = morph_module.Morph._place
    monkeypatch.setattr(morph_module.Morph, "_place", lambda self, box: (placed.append(box.id), real(self, box))[1])
    taken: list[int] = []
    real_taken = morph_module._taken_whole if whole else lambda scene, runs: ({}, scene.links)
    monkeypatch.setattr(morph_module, "_taken_whole", lambda *a: (got := real_taken(*a), taken.append(len(got[0])))[0])
    for step in (lambda: doc.run(edit.delete, ["s2.p690"]), doc.undo_stack.undo, doc.undo_stack.redo):
        placed.clear()
        taken.clear()
        before, old = dict(scene.items_by_id), scene.diagram
        link_items = {(li.link.a, li.link.b, li.link.kind): li for li in scene.links}
        step()
        settle(qtbot, doc, scene)
        d = scene.diagram
        shared = shared_bands(old, d)
        now = {id(li.link): li for li in scene.links}
        assert len(shared) == 2 and len(now) == len(scene.links) == len(d.links)
        assert taken == [2 if whole else 0]  # (both bands' link items taken whole, or none)
        assert all(now[id(link)] is link_items[(link.a, link.b, link.kind)] for b in shared for link in b.links)
        at: dict[str, set] = {}
        for li in scene.links:
            for cid in (li.a.cid, li.b.cid):
                at.setdefault(cid, set()).add(li)
        assert {cid: set(v) for cid, v in scene._links_at.items()} == at  # (kept by the morph)
        same = {cid for cid, box in d.boxes.items() if old.boxes.get(cid) == box}
        assert len(same) > 0.6 * len(d.boxes) and placed  # most of the site as it was
        assert not same & set(placed)  # ... and none of it placed again
        assert all(before[cid] is scene.items_by_id[cid] for cid in same)  # their items kept
        assert all(scene.items_by_id[cid].box is d.boxes[cid] for cid in d.boxes)  # with their new boxes
        # placing only those, the canvas needs not every box in order: the lane did not put them so
        assert "containers_first" not in (d.orders or {})
        assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_the_analysis_after_a_morph_paints_its_first_slice_in_its_own_turn(qtbot, parts, benchmark_design, monkeypatch):
    """After a morph the analysis is applied on a turn of its own (paint_analysis_soon), whose
    first slice it paints (within the turn's budget), not a turn later; an analysis arriving
    from the lane (in a busy turn) starts its slices on the next turn."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    how: list[str] = []
    monkeypatch.setattr(scene, "_paint_slice", lambda: how.append("now"))
    monkeypatch.setattr(scene._slice_timer, "start", lambda *a: how.append("later"))
    cid = next(iter(scene.items_by_id))
    scene._dirty_boxes.add(cid)  # (a box to paint again: a job is made)
    scene._paint_analysis_now()
    assert how == ["now"] and not scene._first_slice_now
    scene._job = None
    scene._dirty_boxes.add(cid)
    scene.apply_analysis(doc.analysis)
    assert how == ["now", "later"]
