"""The canvas after edits in the background: what it shows equals a full rebuild and a full
paint, a stale result is never painted, and an edit touches only the boxes it affects."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QApplication, QGraphicsSimpleTextItem, QWidget

import app.background
import widgets.canvas.painting as painting_module
import widgets.canvas.scene as scene_module
from app.document import Document
from planner import edit
from planner.incremental import Replica
from planner.io import Project
from widgets.canvas import DiagramScene
from widgets.canvas.items import BoxItem
from widgets.canvas.overview import overview_scene


def background_canvas(qtbot, parts, topo):
    """A document analysed (and laid out) in the background, its scene and the scene's overview."""
    owner = QWidget()  # closed and deleted at the test's end, with the document and the scene
    qtbot.addWidget(owner)
    doc = Document(parts, owner)
    scene = DiagramScene(doc, owner)
    scene.test_owner = owner  # kept alive as long as the scene is used
    doc.replace_project(Project(topo), None)
    overview_scene(scene)
    settle(qtbot, doc, scene)
    return doc, scene


def settle(qtbot, doc, scene) -> None:
    """Wait until the canvas shows the current revision, laid out and painted."""

    def done() -> bool:
        return (
            doc.is_current(doc.analysis)
            and scene._layout_asked is None
            and scene._job is None
            and scene.painted_revision == doc.topology.revision
            and not scene.detail_pending()  # (the items out of view brought to the zoom's detail)
        )

    qtbot.waitUntil(done, timeout=30000)
    gathered(scene)


def gathered(scene) -> None:
    """What a paint of the overview does first."""
    if not scene.overview.gathered:
        scene.overview._gather()


def shown(scene) -> tuple:
    """Everything the canvas shows: each box's geometry, texts, tooltip and colour; each link's
    ends and colour; the overview's rectangles, lines and names."""
    boxes = {}
    for cid, it in scene.items_by_id.items():
        b = it.box
        texts = tuple(  # (a hidden one, such as the summary name made while zoomed out, shows nothing)
            sorted(c.text() for c in it.childItems() if isinstance(c, QGraphicsSimpleTextItem) and c.isVisible())
        )
        util = None if it.util is None else round(it.util, 9)
        up = it.parentItem()
        pos = it.scenePos()  # (to a millionth: a kept item's place may differ in the last bit)
        where = (round(pos.x(), 6), round(pos.y(), 6), it.rect().width(), it.rect().height(), up and up.cid)
        looks = (it.isSelected(), it.highlighted, it.bind_shown, it.low, it.flags().value, it.head)
        if scene.far:  # far out the view shows the overview: an item's detail is set on the way back
            texts, looks = None, looks[:3] + looks[5:]
        boxes[cid] = (
            b.label,
            b.tip,
            (b.x, b.y, b.w, b.h),
            b.collapsed,
            texts,
            it.toolTip(),
            util,
            it.binds,
            where,
            looks,
        )
    links = sorted(
        (
            li.link.a,
            li.link.b,
            li.link.kind,
            li.link.via,
            -1 if li.util is None else round(li.util, 9),
            li.pen().color().rgba(),
            li.pen().widthF(),
            li.highlighted,
            tuple((round(e.x, 6), round(e.y, 6)) for e in map(li.path().elementAt, range(li.path().elementCount()))),
            (li.a.cid, li.b.cid, scene.items_by_id.get(li.a.cid) is li.a, scene.items_by_id.get(li.b.cid) is li.b),
        )
        for li in scene.links
    )
    gathered(scene)
    ov = scene.overview
    ov_fills, ov_lines = ov.batches()
    fills = [(c.rgba(), sorted((r.x(), r.y(), r.width(), r.height()) for r in rects)) for c, rects in ov_fills]
    lines = sorted(
        (p.color().rgba(), p.widthF(), sorted((s.x1(), s.y1(), s.x2(), s.y2()) for s in ls)) for p, ls in ov_lines
    )
    names = sorted((n, r.x(), r.y()) for r, n in ov.names())
    # boxes in the scene that no id shows (an item taken out of a morph's drop but left inside one taken back)
    strays = sum(1 for it in scene.items() if isinstance(it, BoxItem) and scene.items_by_id.get(it.cid) is not it)
    return boxes, links, fills, lines, names, strays


def full_paint(qtbot, parts, doc, scene) -> tuple:
    """What a fresh scene shows of the same design: laid out and painted in full, from a full
    (not incremental) analysis of a copy of the design."""
    ref_doc = Document(parts)
    ref_doc.synchronous = True
    ref_doc.figures, ref_doc.direction = doc.figures, doc.direction  # (those the canvas shows)
    ref = DiagramScene(ref_doc)
    ref_doc.replace_project(Project(Replica(doc.topology).topo), None)  # the copy keeps the order of children
    ref.collapsed = set(scene.collapsed)
    ref.rebuild(force=True)
    ref.set_low_detail(*scene.low_detail, force=True)
    overview_scene(ref)
    assert ref.painted_revision == ref_doc.topology.revision
    return shown(ref)


def free_slot(topo, drawer: str | None = None) -> str:
    slots = [s for s in topo.of_kind("slot") if not topo.children(s.id, "hba")]
    return next(s.id for s in slots if drawer is None or topo.ancestor(s.id, "drawer").id == drawer)


def hba_part(parts) -> dict:
    return next(p for _, p in sorted(parts.items()) if p.get("kind") == "hba")


def test_edits_and_undos_show_what_a_full_rebuild_shows(qtbot, parts, benchmark_design):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    topo = doc.topology
    assert scene.collapsed  # the benchmark starts folded: an HBA lands in a hidden group
    hidden = free_slot(topo)
    drawer = topo.ancestor(hidden, "drawer").id
    opened = next(d.id for d in topo.of_kind("drawer") if d.id != drawer)
    steps = [
        lambda: doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256),  # an attribute: relabel
        lambda: doc.run(edit.add_hba, hidden, hba_part(parts)),  # hidden in its folded drawer
        lambda: scene.toggle_collapsed(opened),  # laid out here, at once
        lambda: doc.run(edit.add_hba, free_slot(doc.topology, opened), hba_part(parts)),  # a new box
        lambda: doc.run(edit.set_attr, drawer, "name", "drawer A"),  # a name: laid out again
        doc.undo_stack.undo,
        doc.undo_stack.undo,
        doc.undo_stack.undo,
        doc.undo_stack.redo,
        lambda: doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 128),
        lambda: (  # an attribute relabelled here while the layout of the edit before is made
            doc.run(edit.add_hba, free_slot(doc.topology, drawer), hba_part(parts)),
            QApplication.processEvents(),
            doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 64),
        ),
        doc.undo_stack.undo,
    ]
    for step in steps:
        step()
        settle(qtbot, doc, scene)
        assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def layouts_counted(monkeypatch) -> tuple[list, list]:
    """The layouts made from now on: on the GUI thread (one entry each), in the lanes (the
    thread of each)."""
    here: list = []
    there: list = []
    gui_layout, worker_layout = scene_module.layout, app.background.layout
    monkeypatch.setattr(scene_module, "layout", lambda *a, **k: here.append(1) or gui_layout(*a, **k))
    monkeypatch.setattr(
        app.background, "layout", lambda *a, **k: there.append(threading.current_thread()) or worker_layout(*a, **k)
    )
    return here, there


def test_a_structural_edit_is_laid_out_off_the_gui_thread(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    here, there = layouts_counted(monkeypatch)
    doc.run(edit.add_hba, free_slot(doc.topology), hba_part(parts))
    settle(qtbot, doc, scene)
    assert not here and there and all(t is not threading.main_thread() for t in there)
    new = doc.topology.of_kind("hba")[-1]
    assert scene.diagram.visible(new.id) == doc.topology.ancestor(new.id, "drawer").id  # shown by its folded drawer


def test_a_stale_result_is_never_painted_over_a_newer_one(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    topo = doc.topology
    opened = topo.of_kind("drawer")[0].id
    scene.toggle_collapsed(opened)
    settle(qtbot, doc, scene)
    monkeypatch.setattr(painting_module, "PAINT_SLICE_S", 0.0)  # one box per turn of the event loop
    painted = []
    paint_box = scene._paint_box

    def recorded(item, result, *args):
        painted.append((item.cid, result is doc.analysis.result and doc.is_current(scene._job.bundle)))
        return paint_box(item, result, *args)

    monkeypatch.setattr(scene, "_paint_box", recorded)
    doc.run(edit.add_hba, free_slot(topo, opened), hba_part(parts))  # a new box: every box is painted again
    first = doc.topology.revision
    for _ in range(100000):
        QApplication.processEvents()
        job = scene._job
        if job is not None and job.bundle.revision == first and 2 <= job.next_box:
            break
    assert job is not None and job.next_box < len(job.boxes)  # caught halfway
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)  # a newer revision
    settle(qtbot, doc, scene)
    assert painted and all(ok for _, ok in painted)
    assert scene.painted_revision == doc.topology.revision != first
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)  # the rest of the older job was painted too


@pytest.mark.parametrize("structural", [False, True])
def test_an_edit_touches_only_the_boxes_it_affects(qtbot, parts, benchmark_design, monkeypatch, structural):
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    painted, regathered = [], []
    paint_box, gather_box = scene._paint_box, scene.overview._gather_box
    monkeypatch.setattr(scene, "_paint_box", lambda item, *a: painted.append(item.cid) or paint_box(item, *a))
    monkeypatch.setattr(scene.overview, "_gather_box", lambda s, cid: regathered.append(cid) or gather_box(s, cid))
    if structural:
        slot = free_slot(doc.topology)
        doc.run(edit.add_hba, slot, hba_part(parts))
    else:
        doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    settle(qtbot, doc, scene)
    fig = doc.analysis.canvas
    assert fig is not None and fig.changed is not None  # the worker said what changed
    d = scene.diagram
    affected = {v for c in fig.changed if (v := d.visible(c))}
    if structural:
        affected.add(d.visible(slot))  # its drawer counts one more HBA
    assert painted and set(painted) <= affected
    assert len(painted) < len(scene.items_by_id) / 4
    assert sorted(regathered) == sorted(set(painted))  # the overview looked again at those boxes only
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_views_show_a_sliced_paint_at_most_every_refresh_interval(qtbot, parts, benchmark_design, monkeypatch):
    """Repainting the view after every slice cost more than the slices (the 16x site's first
    edit: 52 repaints of its overview, 0.8 s); the views repaint once the paint is done, or when
    :data:`VIEW_REFRESH_S` has passed, and never stay held."""
    from widgets.canvas.view import DiagramView

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    view = DiagramView(scene, scene.test_owner)
    view.resize(900, 600)
    scene.test_owner.show()
    view.show()
    qtbot.waitExposed(view)
    opened = doc.topology.of_kind("drawer")[0].id
    scene.toggle_collapsed(opened)
    settle(qtbot, doc, scene)
    monkeypatch.setattr(painting_module, "PAINT_SLICE_S", 0.0)  # one box per turn of the event loop
    monkeypatch.setattr(painting_module, "VIEW_REFRESH_S", 3600.0)  # no progress shown in between
    paints = []
    vp = view.viewport()
    real_paint = view.paintEvent

    def counted(event):
        paints.append(scene._job is not None)
        real_paint(event)

    monkeypatch.setattr(view, "paintEvent", counted)
    held = []
    real_slice = scene._paint_slice

    def sliced():
        real_slice()
        held.append(not vp.updatesEnabled())

    monkeypatch.setattr(scene, "_paint_slice", sliced)
    scene._slice_timer.timeout.disconnect()
    scene._slice_timer.timeout.connect(sliced)
    scene.rebuild(force=True)  # the items made again (a design opened): every box painted
    settle(qtbot, doc, scene)
    QApplication.processEvents()
    assert len(held) > 10 and sum(held) >= len(held) - 1  # held while slices remained
    assert vp.updatesEnabled() and not scene._held  # and let go at the end
    # (Qt may still deliver a paint of its own, a scroll bar's range changing; not one a slice)
    assert len(paints) >= 1 and sum(paints) <= 2 < len(held) // 4
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_the_background_lays_out_again_what_the_canvas_laid_out_itself_and_the_canvas_adopts_it(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Opened (or a group folded), the canvas lays the design out itself; once idle the analysis
    lane lays it out too, filling its layout memo, and the canvas takes that diagram (its
    folded groups are the memo's): the first structural edit then lays out only the groups it
    touched and compares only those, as every later edit does."""
    warm = []
    doc_layout = Document._on_laid_out
    monkeypatch.setattr(Document, "_on_laid_out", lambda self, laid: warm.append(laid) or doc_layout(self, laid))
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    qtbot.waitUntil(lambda: any(getattr(w, "warm", False) for w in warm), timeout=20000)
    bg = doc._background
    laid = next(w for w in warm if w.warm)
    assert laid.same and laid.relabelled == [] and laid.moved == []  # the diagram the canvas showed
    assert scene.diagram is laid.diagram is bg._laid  # adopted
    folded = scene.diagram.folded
    assert folded and set(bg._layout_memo.members) == set(folded)
    assert all(folded[g] is bg._layout_memo.members[g][0] for g in folded)
    assert doc.wait_for_analysis(10000) is not None  # (the rules of the design opened are in)
    analysed = []
    doc.analysisReady.connect(analysed.append)
    scene.collapsed.discard("fastt1")  # a group opened and laid out here (as when analysing
    scene.rebuild()  # synchronously): warmed again, with no analysis
    qtbot.waitUntil(lambda: scene.diagram is bg._laid, timeout=20000)
    assert "fastt1" not in scene.diagram.folded and "fastt1" not in bg._layout_memo.members
    assert analysed == []
    drawer = doc.topology.ancestor(free_slot(doc.topology), "drawer").id
    untouched = {g: m for g, m in scene.diagram.folded.items() if g != drawer}
    doc.run(edit.add_hba, free_slot(doc.topology), hba_part(parts))
    settle(qtbot, doc, scene)
    assert all(scene.diagram.folded[g] is m for g, m in untouched.items())  # reused, not laid out again
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_the_rules_do_not_give_way_to_a_warm_up_layout(qtbot, parts, benchmark_design, monkeypatch):
    """A warm-up layout gives way to every other work: the rules of the design just opened run
    while it is made (they stop only for an edit's analysis, and were lost when a warm-up
    stopped them: opening the 16x site never finished its check)."""
    import time

    made = app.background.layout

    def slow(*args, **kw):
        time.sleep(0.8)  # the warm-up (the only layout in the background here) outlasts the rules
        return made(*args, **kw)

    monkeypatch.setattr(app.background, "layout", slow)
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    bundle = doc.wait_for_analysis(5000)
    assert bundle is not None and bundle.checked
    qtbot.waitUntil(lambda: scene.diagram is doc._background._laid, timeout=10000)  # and it was adopted


def test_a_warm_up_queued_behind_an_edit_is_not_taken_for_the_next_edit(qtbot, parts, benchmark_design, monkeypatch):
    """After sending an edit's chosen direction the lane waits a moment for a next edit before
    it analyses the other direction and hands the revision to the rules; a warm-up layout
    queued meanwhile (a group folded) is not one: both totals and the rules still come."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    doc.wait_for_analysis(10000)
    monkeypatch.setattr(app.background, "OTHERS_AFTER_S", 1.0)
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    qtbot.waitUntil(lambda: doc.is_current(doc.analysis), timeout=10000)  # the chosen direction
    assert doc.analysis.write_mbps is None  # the lane is waiting for a next edit
    scene.collapsed.discard("fastt1")
    scene.rebuild()  # laid out here: a warm-up is queued
    bundle = doc.wait_for_analysis(10000)
    assert bundle is not None and bundle.checked and bundle.write_mbps is not None


def test_the_other_direction_waits_until_the_canvas_has_painted_the_chosen_one(
    qtbot, parts, benchmark_design, monkeypatch
):
    """After sending an edit's chosen direction the lane analyses the other one only once the
    canvas has painted it (in slices, the event loop running between them): the two would take
    turns at the interpreter and the repaint would take longer (a subsystem deleted on the 16x
    site: the overview's slices 50-80 ms instead of 25-45)."""
    import time

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    doc.wait_for_analysis(10000)
    monkeypatch.setattr(app.background, "GUI_FIRST_S", 10.0)  # (what is tested is the signal, not the cap)
    monkeypatch.setattr(app.background, "OTHERS_AFTER_S", 0.0)
    slice_ = scene_module.DiagramScene._paint_slice

    def slow_slice(self):
        time.sleep(0.06)  # a slow paint: the lane would be done with the other direction meanwhile
        slice_(self)

    monkeypatch.setattr(scene_module.DiagramScene, "_paint_slice", slow_slice)
    others = app.background.BackgroundAnalysis._other_directions
    seen = []

    def other_directions(self, job, *args):
        seen.append((scene.painted_revision, scene._job is None))
        return others(self, job, *args)

    monkeypatch.setattr(app.background.BackgroundAnalysis, "_other_directions", other_directions)
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    revision = doc.topology.revision
    bundle = doc.wait_for_analysis(10000)
    assert bundle is not None and bundle.write_mbps is not None and scene.painted_revision == revision
    assert seen and all(painted == revision and idle for painted, idle in seen)


def test_a_design_opened_is_checked_at_once(qtbot, parts, benchmark_design, monkeypatch):
    """The rules of a design just opened do not wait for the check lane's queue to settle (there
    is no series of edits to gather: on the 16x site the findings came 150 ms later), nor stop
    for the warm-up layout the analysis lane does after sending them."""
    import time

    monkeypatch.setattr(app.background, "SETTLE_S", 5.0)  # (an edit's rules wait until 5 s of quiet)
    lay_out = app.background.BackgroundAnalysis._lay_out

    def slow_warm_up(self, wanted, origin=None, warm_of=False):
        if warm_of:  # the rules run meanwhile: a warm-up does not stop them (they were lost so)
            time.sleep(0.3)
        return lay_out(self, wanted, origin, warm_of)

    monkeypatch.setattr(app.background.BackgroundAnalysis, "_lay_out", slow_warm_up)
    start = time.monotonic()
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    bundle = doc.wait_for_analysis(4000)
    assert bundle is not None and bundle.checked and time.monotonic() - start < 4.0
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)  # an edit's rules wait for the quiet
    qtbot.waitUntil(lambda: doc.is_current(doc.analysis), timeout=10000)
    edited = time.monotonic()
    bundle = doc.wait_for_analysis(15000)
    assert bundle is not None and bundle.checked and time.monotonic() - edited >= 4.0


def test_a_group_renamed_zoomed_out_shows_its_new_name_large(qtbot, parts, benchmark_design):
    """Zoomed out (not far enough for the overview) a group shows its name large; a rename
    then shows the new name there, as a fresh scene does."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    drawer = doc.topology.ids_of_kind("drawer")[0]
    scene.set_low_detail(True, 0.5)
    settle(qtbot, doc, scene)  # (no view: every item brought in slices)
    assert not scene.far and scene.items_by_id[drawer].summary.text() != "D9"
    doc.run(edit.set_attr, drawer, "name", "D9")
    settle(qtbot, doc, scene)
    assert scene.items_by_id[drawer].summary.text() == "D9"
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_subsystem_deleted_and_back_before_a_paint_lists_its_own_load(qtbot, parts, benchmark_design):
    """A subsystem deleted and its delete undone before the analysis of the delete is painted:
    its box, made again, lists the subsystem's own load in its tooltip (with no alias changed
    and the analysis shown the one from before the delete, nothing else says it is a member)."""
    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    sub = doc.topology.ids_of_kind("subsystem")[0]
    own = f"\n{doc.topology[sub].name}: "  # (its line: the tooltip's first is the name alone)
    assert own in scene.items_by_id[sub].toolTip()
    doc.run(edit.delete, [sub])
    qtbot.waitUntil(lambda: sub not in scene.items_by_id, timeout=30000)  # the morph done, not painted
    doc.undo_stack.undo()
    settle(qtbot, doc, scene)
    assert own in scene.items_by_id[sub].toolTip()
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_a_switch_made_ready_while_idle_paints_what_the_lane_worked_out(qtbot, parts, monkeypatch):
    """Once the lane is idle, the figures of a switch to another figure set or direction come
    with what each changed box is painted with and each cable's colour: the canvas paints
    those without working them out again, and shows what a full paint shows."""
    from planner.examples import build_site

    monkeypatch.setattr(app.background, "IDLE_S", 0.05)
    doc, scene = background_canvas(qtbot, parts, build_site(parts, 2))
    bg = doc._background
    worked: list = []
    real_top, real_util = painting_module.top_and_binds, painting_module.link_util
    monkeypatch.setattr(painting_module, "top_and_binds", lambda *a: worked.append(a) or real_top(*a))
    monkeypatch.setattr(  # (a cable's colour: the others are one lookup)
        painting_module, "link_util", lambda *a: (a[2] == "cable" and worked.append(a)) or real_util(*a)
    )
    for switch, key in (
        (lambda: doc.set_figures("measured"), ("measured", "read")),
        (lambda: doc.set_direction("write"), ("measured", "write")),
    ):
        qtbot.waitUntil(lambda key=key: key in bg._switches and bg._switches[key].tops is not None, timeout=20000)
        ready = bg._switches[key]
        worked.clear()
        switch()
        settle(qtbot, doc, scene)
        assert doc.analysis.canvas is ready and len(ready.tops) > 20 and ready.cable_utils
        assert worked == []  # (every box and cable painted from what the lane worked out)
        assert shown(scene) == full_paint(qtbot, parts, doc, scene)
