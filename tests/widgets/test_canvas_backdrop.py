"""The links a view shows after a change are drawn beforehand, in slices, and its paint copies
them (widgets.canvas.backdrop): what it shows equals what stroking them in the paint shows."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QWidget

from planner import edit
from tests.widgets.test_canvas_incremental import background_canvas, settle
from tests.widgets.test_canvas_morph import SEEDS
from widgets.canvas import summary as summary_module
from widgets.canvas.backdrop import Backdrop, holds
from widgets.canvas.view import DiagramView


def working_view(qtbot, parts, topo, centre: str):
    """A document analysed in the background, everything expanded, shown in a view at 1:1
    centred on ``centre``'s box, the zoom settled."""
    doc, scene = background_canvas(qtbot, parts, topo)
    owner: QWidget = scene.test_owner
    view = DiagramView(scene, owner)
    view.show_legend = False  # (its corner may change between two grabs)
    view.resize(1000, 640)
    owner.resize(1000, 640)
    owner.show()
    qtbot.waitExposed(owner)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    view.zoom(1.0 / view.transform().m11())
    view.centerOn(scene.items_by_id[centre].sceneBoundingRect().center())
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    view.viewport().repaint()
    return doc, scene, view


def strokes_and_copies(monkeypatch) -> tuple[list, list]:
    """Count the view's paints that stroke links, and those that copy a backdrop."""
    stroked: list = []
    copied: list = []
    real_paint, real_draw = summary_module.SummaryLayer._paint_links, Backdrop.draw

    def paint_links(painter, shown, exposed, smooth=True):
        stroked.append(exposed)
        return real_paint(painter, shown, exposed, smooth)

    def draw(self, painter, exposed):
        done = real_draw(self, painter, exposed)
        copied.append(done)
        return done

    monkeypatch.setattr(summary_module.SummaryLayer, "_paint_links", staticmethod(paint_links))
    monkeypatch.setattr(Backdrop, "draw", draw)
    return stroked, copied


def test_after_an_edit_moves_the_boxes_in_view_the_paint_copies_links_drawn_beforehand(
    qtbot, parts, benchmark_design, monkeypatch
):
    """A subsystem in view deleted and the deletion undone: the boxes below it move, their links
    are drawn again, and the analysis recolours some; every paint since copies what the slices
    drew (on the 16x site one paint stroked 300 links, 25-40 ms), and shows what a paint that
    strokes them shows, pixel for pixel."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    stroked, copied = strokes_and_copies(monkeypatch)
    for change in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        change()
        settle(qtbot, doc, scene)
        qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=5000)
        view.viewport().repaint()
    assert copied and all(copied) and not stroked
    shown = view.viewport().grab().toImage()
    view.backdrop.drop()
    view.resetCachedContent()
    view.viewport().repaint()
    assert stroked  # (drawn the old way)
    assert view.viewport().grab().toImage() == shown


def test_a_backdrop_holds_only_the_view_it_was_drawn_for(qtbot, parts, benchmark_design, monkeypatch):
    """Moved, zoomed, or a link in view restyled after it was drawn: the backdrop is not copied
    and the paint strokes the links as they are."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    stroked, copied = strokes_and_copies(monkeypatch)

    def drawn_beforehand():
        for _ in view.backdrop.making(whole=True):
            pass
        assert holds(view.backdrop, smooth=True)

    drawn_beforehand()
    bar = view.verticalScrollBar()
    bar.setValue(bar.value() + 40)  # a pan
    assert not holds(view.backdrop, smooth=True)
    drawn_beforehand()
    scene.highlight_path(next(p for p in doc.analysis.result.paths if "fastt3" in p.hops[-1]))  # lit up in view
    assert not holds(view.backdrop, smooth=True)
    view.resetCachedContent()
    view.viewport().repaint()
    assert copied == [False] and stroked


def test_views_let_paint_again_paint_at_once(qtbot, parts, benchmark_design, monkeypatch):
    """Views held still through slices paint as soon as they are let go: Qt delivers a widget's
    update through a timer of its window, after the next turn's analysis paint had restyled
    links in view, so the links drawn beforehand no longer held (on the 16x site: the
    paint stroked them, 25-40 ms)."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    stroked, copied = strokes_and_copies(monkeypatch)
    scene._hold_views()
    view.resetCachedContent()
    for _ in view.preparing():
        pass
    scene._let_views_paint()
    assert copied == [True] and not stroked


def tiles_of(layer) -> dict:
    """Each tile's top-level boxes and links (by what they show), the empty ones left out."""
    out = {}
    for key, tile in layer.tiles.items():
        tops = sorted(top.cid for top in tile.tops)
        links = sorted((li.link.a, li.link.b, li.link.kind, li.link.via) for li in tile.links)
        if tops or links:
            out[key] = (tops, links)
    return out


_CUTTING = summary_module.SummaryLayer._cutting


def cuts_counted(monkeypatch) -> list:
    """The summary layers that cut the scene's items into tiles from nothing from now on."""
    cuts: list = []

    def cutting(self):
        cuts.append(self)
        yield from _CUTTING(self)

    monkeypatch.setattr(summary_module.SummaryLayer, "_cutting", cutting)
    return cuts


def tiles_cut_afresh(scene, layer) -> dict:
    """:func:`tiles_of` a layer that cut ``scene``'s items from nothing (the links then go back
    to ``layer``, in the scene's order)."""
    fresh = summary_module.SummaryLayer(scene)
    for _ in _CUTTING(fresh):
        pass
    for i, li in enumerate(scene.links):
        li.layer, li.order = layer, i
    return tiles_of(fresh)


def test_the_views_tiles_follow_a_morph(qtbot, parts, benchmark_design, monkeypatch):
    """After edits that move, make and remove boxes and links, the view's summary layer moves
    what changed between its tiles instead of cutting every item into tiles again (on the 16x
    site 60-80 ms, then 150-250 ms gathering every tile's links): its tiles then hold what a
    layer cut from nothing holds, the links in the scene's order, and only the tiles touched
    are gathered again."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    cuts = cuts_counted(monkeypatch)
    kept = []  # per change: how many tiles kept the links they had gathered
    for change in (
        lambda: doc.run(edit.delete, ["fastt3"]),
        doc.undo_stack.undo,
        lambda: doc.run(edit.delete, ["cab7"]),
        lambda: scene.toggle_collapsed("d2"),
        doc.undo_stack.undo,
    ):
        for tile in view.summary.tiles.values():
            tile.link_bounds()
        before = {key: tile._links for key, tile in view.summary.tiles.items()}
        change()
        settle(qtbot, doc, scene)
        assert view.summary.current()
        kept.append(sum(before.get(key) is tile._links for key, tile in view.summary.tiles.items()))
        assert tiles_of(view.summary) == tiles_cut_afresh(scene, view.summary)
    assert cuts == [] and all(kept[2:]), kept  # (the storage column moving touches every tile here)


@pytest.mark.parametrize("low", [False, True])
def test_a_paint_while_a_morph_begins_draws_the_tiles_as_they_were(qtbot, parts, benchmark_design, monkeypatch, low):
    """Qt paints what was marked for repainting before a view was held, in the turn after the
    morph began: that paint draws the tiles as they are (the morph's links are not yet the new
    ones), and the layer then follows the morph, not cut again (on the 16x site expanded, cut in
    that paint: 80-88 ms, one round in thirty of the bench's zoom row)."""
    from PySide6.QtGui import QImage, QPainter

    from widgets.canvas import morph as morph_module

    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)  # (a slice a turn)
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    cuts = cuts_counted(monkeypatch)
    painted: list[int] = []
    real_slice = scene._morph_slice

    def slice_painting() -> None:
        done = scene._morphing
        if done is not None and not done.swapped and not painted:
            image = QImage(400, 300, QImage.Format.Format_ARGB32_Premultiplied)
            painter = QPainter(image)
            painted.append(view.summary.paint(painter, scene.sceneRect(), low))
            painter.end()
        real_slice()

    monkeypatch.setattr(scene, "_morph_slice", slice_painting)
    scene._morph_timer.timeout.disconnect()
    scene._morph_timer.timeout.connect(scene._morph_slice)
    for change in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        painted.clear()
        change()
        settle(qtbot, doc, scene)
        assert painted and painted[0] > 0  # painted while the morph was under way, its tiles drawn
        assert view.summary.current() and cuts == []
        assert tiles_of(view.summary) == tiles_cut_afresh(scene, view.summary)


def test_links_out_of_view_are_gathered_after_the_analysis_is_painted(qtbot, parts, benchmark_design, monkeypatch):
    """Gathering every changed tile's links between events waits while the analysis of the
    design shown is still to be painted (on the 16x site it slowed the analysis lane and the
    paint slices by half), for WARM_DEFER_S at most."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    layer = view.summary
    pending = [True]
    monkeypatch.setattr(scene, "analysis_to_paint", lambda: pending[0])
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    tiles = [tile for tile in layer.tiles.values() if tile.links and not tile.bounds.intersects(visible)]
    assert tiles  # (those in view are gathered by the view's paint)
    for tile in tiles:
        tile.invalidate()
    layer._warm(layer._generation, tiles)
    qtbot.wait(150)
    assert all(tile._links is None for tile in tiles)
    pending[0] = False  # painted
    qtbot.waitUntil(lambda: all(tile._links is not None for tile in tiles), timeout=5000)

    monkeypatch.setattr(summary_module, "WARM_DEFER_S", 0.0)
    pending[0] = True
    for tile in tiles:
        tile.invalidate()
    layer._warm(layer._generation, tiles)
    qtbot.waitUntil(lambda: all(tile._links is not None for tile in tiles), timeout=5000)


def test_after_a_morph_the_views_wait_for_the_analysis_and_are_prepared_once(
    qtbot, parts, benchmark_design, monkeypatch
):
    """The views held through a morph stay held until the analysis that follows is painted,
    then are prepared once: the links in view drawn beforehand once per edit, not once for the
    morph and again for the analysis's colours."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    makings: list = []
    real = Backdrop.making

    def making(self, whole, smooth=None):
        makings.append(view.viewport().updatesEnabled())
        yield from real(self, whole, smooth)

    monkeypatch.setattr(Backdrop, "making", making)
    for change in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        makings.clear()
        change()
        settle(qtbot, doc, scene)
        qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=5000)
        assert makings == [False]  # once, the views held


def test_views_held_for_an_analysis_that_does_not_come_are_let_go(qtbot, parts, benchmark_design, monkeypatch):
    """... at most HOLD_FOR_ANALYSIS_S later, prepared first."""
    from widgets.canvas import morph as morph_module

    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    monkeypatch.setattr(morph_module, "HOLD_FOR_ANALYSIS_S", 0.2)
    monkeypatch.setattr(scene, "apply_analysis", lambda bundle: None)  # (no analysis is painted)
    stroked, copied = strokes_and_copies(monkeypatch)
    doc.run(edit.delete, ["fastt3"])
    qtbot.waitUntil(lambda: "fastt3" not in scene.diagram.boxes and scene._morphing is None, timeout=10000)
    assert not view.viewport().updatesEnabled()
    qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=5000)
    assert copied and all(copied) and not stroked


def test_a_zoom_settles_without_a_backdrop_when_none_holds(qtbot, parts, benchmark_design, monkeypatch):
    """Zoomed out (the layer draws its batches as they are) no backdrop is drawn; one the view
    keeps moving under is begun again a few times at most, then the links are drawn smooth in
    the paint."""
    from widgets.canvas import view as view_module

    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    view.backdrop.drop()
    view.zoom(0.3 / view.transform().m11())
    assert scene.low_detail[0] and view.summary.rough
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    assert view.backdrop.image is None
    view.zoom(1.0 / view.transform().m11())
    makings: list = []
    real = Backdrop.making

    def making(self, whole, smooth=None):
        makings.append(whole)
        yield from real(self, whole, smooth)

    monkeypatch.setattr(Backdrop, "making", making)
    monkeypatch.setattr(view_module, "holds", lambda backdrop, smooth: False)  # (as if the view moved each time)
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    assert len(makings) == 1 + view_module.SETTLE_TRIES


@pytest.mark.parametrize("seed", SEEDS if "SEEDS" in os.environ else SEEDS[:2])
def test_random_interleavings_leave_the_view_as_a_fresh_paint_draws_it(
    qtbot, parts, benchmark_design, monkeypatch, seed
):
    """Edits that move boxes, folds, undo and redo, recolouring edits, zooms and pans in a random
    order, each let run a random number of turns of the event loop: once quiet, the view's tiles
    are those of a layer cut from nothing, and what it shows (its cached background, copies of
    backdrops) is what drawing it all again shows."""
    import random

    from PySide6.QtWidgets import QApplication

    from tests.widgets.test_canvas_detail import differing
    from widgets.canvas import morph as morph_module
    from widgets.canvas.view import LOW_DETAIL_SCALE

    monkeypatch.setattr(morph_module, "MORPH_SLICE_S", 0.0)  # a slice of 32 boxes or links
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    rnd = random.Random(seed)
    topo = doc.topology
    subsystems, drawers, arrays = topo.ids_of_kind("subsystem"), topo.ids_of_kind("drawer"), topo.ids_of_kind("array")
    bars = view.horizontalScrollBar(), view.verticalScrollBar()
    steps = [
        lambda: scene.toggle_collapsed(rnd.choice(drawers)),
        lambda: doc.run(edit.delete, [rnd.choice([s for s in subsystems if s in doc.topology])]),
        doc.undo_stack.undo,
        doc.undo_stack.redo,
        lambda: doc.run(edit.set_attr, rnd.choice(arrays), "segment_kb", rnd.choice([64, 128, 256])),
        lambda: view.zoom(rnd.choice([0.5, 0.8, 1.25, 2.0])),
        lambda: bars[rnd.randint(0, 1)].setValue(bars[0].value() + rnd.randint(-300, 300)),
        lambda: scene.highlight_path(rnd.choice(doc.analysis.result.paths) if doc.analysis else None),
    ]
    for _ in range(30):
        rnd.choice(steps)()
        for _ in range(rnd.randint(0, 30)):
            QApplication.processEvents()
    if view.transform().m11() < LOW_DETAIL_SCALE * 1.5 or view.scene() is not scene:
        view.zoom(1.0 / view.transform().m11())  # (a working zoom for the comparison)
    settle(qtbot, doc, scene)
    qtbot.waitUntil(lambda: scene._build is scene._morphing is None and not doc.background_busy(), timeout=30000)
    settle(qtbot, doc, scene)
    qtbot.waitUntil(lambda: not view.summary.rough and view.viewport().updatesEnabled(), timeout=5000)
    view.viewport().repaint()
    assert view.summary.current()
    shown = view.viewport().grab().toImage()
    mine = tiles_of(view.summary)
    fresh = summary_module.SummaryLayer(scene)
    for _ in fresh._cutting():
        pass
    assert mine == tiles_of(fresh)
    for i, li in enumerate(scene.links):
        li.layer, li.order = view.summary, i
    view.backdrop.drop()
    view.resetCachedContent()
    view.viewport().repaint()
    assert differing(view.viewport().grab().toImage(), shown) == 0


def test_a_cut_overtaken_by_another_places_no_box_twice(qtbot, parts, benchmark_design):
    """The view's layer is cut into tiles in slices by several preparations (the scene's, the
    view's near and far ones) and at once by a paint: a cut paused while another cut the tiles
    anew adds nothing to the new tiles when it resumes (it put the boxes it had left to place
    into them a second time: once in about eight runs of the random interleavings above)."""
    doc, scene, view = working_view(qtbot, parts, benchmark_design, "fastt3")
    layer, everywhere = view.summary, scene.sceneRect()
    for overtake in ("paint", "slices"):
        scene.generation += 1  # (the scene's items changed: the layer cuts them again)
        first = layer.preparing(everywhere)
        for _ in range(3):
            next(first)
        if overtake == "paint":
            layer.build()  # (as a paint of a layer not current does)
        else:
            second = layer.preparing(everywhere)
            for _ in range(5):
                next(second)
        for _ in first:
            pass
        if overtake == "slices":
            for _ in second:
                pass
        assert layer.current(), overtake
        tops = [top.cid for tile in layer.tiles.values() for top in tile.tops]
        assert len(tops) == len(set(tops)), overtake
        assert tiles_of(layer) == tiles_cut_afresh(scene, layer), overtake
