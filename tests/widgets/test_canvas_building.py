"""Items made from nothing (a design opened, everything expanded) come a slice at a time: the
editor answers between slices, the views stay still until the items are all there, an edit in
the middle begins the build again, and the result is the full paint of a fresh scene."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import widgets.canvas.scene as scene_module
from planner import edit
from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown


def test_expanding_everything_makes_the_items_a_slice_at_a_time(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few dozen boxes a turn
    monkeypatch.setattr("widgets.canvas.building.BOXES_EVERY", 32)
    progress, turns = [], []
    scene.building.connect(lambda made, total: progress.append((made, total)))
    scene.set_low_detail(True, 0.3)  # zoomed out: each box made in summary mode
    scene.set_all_collapsed(False)  # most boxes are new: made again, not morphed
    # once laid out in the lane, and the items shown before deleted (its first slices)
    qtbot.waitUntil(lambda: scene._build is not None and bool(scene.items_by_id), timeout=10000)
    total = len(scene.diagram.boxes)
    assert 0 < len(scene.items_by_id) < total and scene.links == []  # the rest comes later
    assert scene.painted_revision is None and scene.items_rect().width() == scene.diagram.width
    while scene._build is not None:
        turns.append(len(scene.items_by_id))
        QApplication.processEvents()
    assert len(turns) > 10 and turns == sorted(turns)
    made = [m for m, t in progress]
    assert progress[-1] == (total, total) and made == sorted(made) and len(made) > 10
    settle(qtbot, doc, scene)
    assert len(scene.items_by_id) == total and scene.links
    assert all(item.low for item in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_an_edit_during_a_build_begins_it_again(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)
    scene.set_all_collapsed(False)
    qtbot.waitUntil(lambda: scene._build is not None and scene._build.made > 50, timeout=10000)
    doc.run(edit.set_attr, "fastt2", "name", "fastt2-renamed")  # relabelled while being made
    doc.run(edit.delete, ["fastt3"])  # laid out again: the build begins again
    settle(qtbot, doc, scene)
    assert scene._build is None
    assert "fastt3" not in scene.items_by_id and "fastt2-renamed" in scene.items_by_id["fastt2"].box.label
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_folding_everything_deletes_the_old_items_a_slice_at_a_time(qtbot, parts, benchmark_design, monkeypatch):
    """The items of everything expanded go in the build's first slices (Qt deleted the 16x
    site's 44,864 at once: 300 ms), the inner ones first; meanwhile no tool finds one of them."""
    import shiboken6

    from widgets.canvas.items import BoxItem

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    old = dict(scene.items_by_id)
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few items a turn
    scene.set_all_collapsed(True)
    while scene._build is None:  # (laid out in the lane)
        QApplication.processEvents()
    gone, found = [sum(not shiboken6.isValid(item) for item in old.values())], set()
    assert gone[0] < len(old) / 2
    while scene._grave:
        for item in list(old.values())[::50]:
            if shiboken6.isValid(item):
                found.add(scene.box_at(item.sceneBoundingRect().center()))
        QApplication.processEvents()
        gone.append(sum(not shiboken6.isValid(item) for item in old.values()))
    steps = [b - a for a, b in zip(gone, gone[1:])]
    assert len(steps) > 5 and max(steps) <= 16  # a few a slice: a container after what it holds
    assert all(b is None or scene.items_by_id.get(b.cid) is b for b in found)
    settle(qtbot, doc, scene)
    assert not any(shiboken6.isValid(item) for item in old.values() if scene.items_by_id.get(item.cid) is not item)
    boxes = [i for i in scene.items() if isinstance(i, BoxItem)]
    assert sorted(i.cid for i in boxes) == sorted(scene.items_by_id)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_the_old_items_leave_qts_index_before_the_scene_is_resized(qtbot, parts, benchmark_design, monkeypatch):
    """Qt indexes a scene's items in a tree over its rectangle. Items deleted in the scene
    leave stale entries Qt purges later by walking the whole tree (25-35 ms on the 16x site
    expanded, after each slice); a new rectangle queues every item to be indexed again, and
    each item deleted meanwhile is looked for in that queue. So the items folded away leave
    the scene first (out of the tree where they lie), the rectangle changes only once they are
    gone, and each slice that makes items has Qt index them at once (left to its timer, Qt put
    it off while slices came and then indexed the 16x site's 84,736 in one turn: 46-65 ms)."""
    import math

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    expanded_depth = scene.bspTreeDepth()  # (the tree sized for the items a build makes: log2 of them)
    assert expanded_depth == math.ceil(math.log2(2 * len(scene.diagram.boxes)))
    old = {id(item) for item in scene.items_by_id.values()}
    calls: list[tuple[str, bool]] = []
    remove, resize, look = scene.removeItem, scene.setSceneRect, scene.items
    monkeypatch.setattr(scene_module, "BUILD_SLICE_S", 0.0)  # a few items a turn
    scene.removeItem = lambda item: (calls.append(("remove", id(item) in old)), remove(item))
    scene.setSceneRect = lambda rect: (calls.append(("resize", False)), resize(rect))
    scene.items = lambda *a: (calls.append(("look", bool(a))), look(*a))[1]
    slices: list[int] = []
    scene.building.connect(lambda made, total: slices.append(made))
    scene.set_all_collapsed(True)
    settle(qtbot, doc, scene)
    removed = [i for i, (what, was_old) in enumerate(calls) if what == "remove" and was_old]
    resized = [i for i, (what, _) in enumerate(calls) if what == "resize"]
    assert len(removed) == len(old)  # every box shown before (a build makes them all anew)
    assert resized and resized[0] > removed[-1] and calls[resized[0] + 1] == ("look", True)
    looks = sum(1 for what, arg in calls[resized[0] :] if what == "look" and arg)
    assert len(set(slices)) > 3 and looks >= len(set(slices))  # one a slice at least
    assert scene.bspTreeDepth() == math.ceil(math.log2(2 * len(scene.diagram.boxes))) < expanded_depth
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_grave_frees_what_it_holds_a_little_at_a_time():
    import time

    from widgets.canvas.grave import Grave

    grave = Grave()
    big, lists = {i: [i] for i in range(1000)}, list(range(1000))
    grave.bury(big, lists, {}, [])  # (empty ones are not kept)
    assert grave and not grave.dig(time.perf_counter() - 1)  # a past deadline: one step
    assert len(big) + len(lists) == 2000 - 64
    assert grave.dig(None) and not grave and not big and not lists


def test_a_grave_nudges_the_c_allocator_every_few_items_it_deletes(qtbot, monkeypatch):
    """Qt items deleted by a grave: every _NUDGE_EVERY of them the C library is asked for a
    large block and given it back (glibc then merges the small blocks freed so far, a few at a
    time, not all in one later step: see grave._allocator_nudge); on this machine's glibc the
    nudge is found, and it allocates and frees for real."""
    from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

    from widgets.canvas import grave as graves

    assert graves._NUDGE is not None  # (the tests run on Debian: glibc)
    graves._NUDGE()  # a real malloc and free
    nudges = []
    monkeypatch.setattr(graves, "_NUDGE", lambda: nudges.append(1))
    scene = QGraphicsScene()
    items = [QGraphicsRectItem(0, 0, 10, 10) for _ in range(graves._NUDGE_EVERY * 3 + 5)]
    for item in items:
        scene.addItem(item)
    grave = graves.Grave()
    grave.bury_items(items)
    assert grave.dig(None) and not scene.items()
    assert len(nudges) == 3
    monkeypatch.setattr(graves, "_NUDGE", None)  # another C library: nothing to nudge
    more = [QGraphicsRectItem(0, 0, 1, 1) for _ in range(graves._NUDGE_EVERY)]
    for item in more:
        scene.addItem(item)
    grave.bury_items(more)
    assert grave.dig(None) and not scene.items() and len(nudges) == 3


def test_containers_come_first_and_the_orders_are_kept_on_the_diagram(parts, benchmark_design):
    """The canvas makes each item inside its container's, so containers first; the two orders
    it needs are worked out once per diagram (in the analysis lane with the layout)."""
    from planner.diagram_order import containers_first, heads
    from planner.layout import layout

    d = layout(benchmark_design, set(), editor=True)
    order = containers_first(d)
    seen: set[str] = set()
    for cid in order:
        up = d.boxes[cid].container
        assert up is None or up not in d.boxes or up in seen
        seen.add(cid)
    assert sorted(order) == sorted(d.boxes) and any(d.boxes[c].container in d.boxes for c in order)
    head = heads(d)
    for box in d.boxes.values():
        if box.container in d.boxes:
            assert head[box.container] <= box.y - d.boxes[box.container].y
    assert containers_first(d) is order and heads(d) is head  # kept


def test_the_links_at_each_box_are_found_in_the_paint_slices(qtbot, parts, benchmark_design, monkeypatch):
    """Once the items are made anew, which links are at each box (the analysis paint recolours
    a box's links with it) is worked out a few hundred links per slice (the 16x site's 11,000
    links took 10-20 ms in one go); after an edit the morph keeps it (the links gone taken out,
    those made put in). Either way the same as worked out all at once."""
    import widgets.canvas.painting as painting_module

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    monkeypatch.setattr(painting_module, "LINKS_PER_STEP", 64)
    assert len(scene.links) > 128
    monkeypatch.setattr(painting_module, "PAINT_SLICE_S", 0.0)
    firsts: list = []
    real = scene.apply_analysis

    def apply(bundle):
        real(bundle)
        firsts.append((scene._job is not None, scene._links_at is None))  # after its first slice

    def direct() -> dict[str, set]:
        out: dict[str, set] = {}
        for li in scene.links:
            for cid in (li.a.cid, li.b.cid):
                out.setdefault(cid, set()).add(li)
        return out

    monkeypatch.setattr(scene, "apply_analysis", apply)
    links_before = len(scene.links)
    doc.run(edit.delete, ["fastt3"])
    settle(qtbot, doc, scene)
    assert (True, False) in firsts and (True, True) not in firsts  # a paint under way, the links kept
    assert len(scene.links) < links_before and {c: set(v) for c, v in scene._links_at.items()} == direct()
    doc.undo_stack.undo()  # (links made again)
    settle(qtbot, doc, scene)
    assert len(scene.links) == links_before and {c: set(v) for c, v in scene._links_at.items()} == direct()
    assert all(len(v) == len(set(v)) for v in scene._links_at.values())
    firsts.clear()
    scene.rebuild(force=True)  # every item made anew
    settle(qtbot, doc, scene)
    assert (True, True) in firsts  # the links at each box not all found yet
    assert {c: set(v) for c, v in scene._links_at.items()} == direct()
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_the_views_preparation_begins_in_a_slice_of_its_own_when_the_slice_is_spent(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Once the items are made, what the views need is made in the next slices; a slice spent
    making items does not begin it (its first step took as long again: 16 ms slices)."""
    import time

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    steps: list[int] = []

    def preparations():
        for n in range(3):
            steps.append(n)
            yield

    monkeypatch.setattr(scene, "_view_preparations", preparations)

    class Job:
        preparing = None

    job, spent = Job(), time.perf_counter() - 1.0
    assert scene._prepare_views(job, spent) is False and steps == []  # not begun
    assert scene._prepare_views(job, spent) is False and steps == [0]  # one step a slice at least
    assert scene._prepare_views(job, time.perf_counter() + 10.0) is True and steps == [0, 1, 2]


def test_a_build_begins_on_the_next_turn_and_its_paint_tells_the_collector(qtbot, parts, benchmark_design, monkeypatch):
    """A rebuild only sets the build up in the turn that asked for it (setting up and a first
    slice took 20 ms on the 16x site), the views held; the analysis painted after it says, slice
    by slice, that it made long-lived objects (the texts and tips of thousands of boxes: the
    heap is frozen as it goes, see app.gui_gc)."""
    from PySide6.QtWidgets import QGraphicsView

    import widgets.canvas.painting as painting_module

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    view = QGraphicsView(scene, scene.test_owner)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    monkeypatch.setattr(painting_module, "PAINT_SLICE_S", 0.0)
    sliced: list[bool] = []
    scene.sliced.connect(lambda: sliced.append(scene._build is None))
    scene.rebuild(force=True)
    assert scene._build is not None and scene._build.made == 0 and not view.viewport().updatesEnabled()
    settle(qtbot, doc, scene)
    assert True in sliced  # (slices of the analysis painted, after the build's)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_slice_the_old_items_spent_does_not_begin_the_build(qtbot, parts, benchmark_design, monkeypatch):
    """The items shown before go first; a slice their deletion spent leaves the build's first
    step (4-6 ms on the 16x site) to the next one: folding everything made 15-21 ms slices. The
    scene's rectangle and Qt's tree of it made again for the new items (2-6 ms) take a slice of
    their own before the first boxes."""
    import time

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    scene.set_all_collapsed(True)
    while scene._build is None:  # (laid out in the lane)
        QApplication.processEvents()
    scene._build_timer.stop()  # (the slices run one by one below)
    steps: list[float] = []
    real_step, real_dig = scene._step_build, scene._grave.dig

    def dig(until):  # everything deleted, and the slice spent doing it
        real_dig(None)
        while until is not None and time.perf_counter() < until:
            pass
        return True

    monkeypatch.setattr(scene._grave, "dig", dig)
    monkeypatch.setattr(scene, "_step_build", lambda build, until: (steps.append(until), real_step(build, until))[1])
    scene._build_slice()
    assert steps == [] and scene._build is not None and scene._build.made == 0
    scene._build_slice()  # the scene's rectangle and tree for the new items: a slice of its own
    assert len(steps) == 1 and scene._build.sized and scene._build.made == 0
    assert scene.sceneRect().height() == scene._build.d.height + 200
    scene._build_slice()
    assert len(steps) == 2 and (scene._build is None or scene._build.made > 0)
    settle(qtbot, doc, scene)
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)
