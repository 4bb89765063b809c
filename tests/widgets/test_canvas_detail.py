"""What the canvas paints at each zoom band: the boxes themselves (with their texts) at a working
zoom; zoomed out, the view's summary layer (batched boxes and links, no per-box Python paint) that
follows every restyle at once (selection, highlight, a rebuilt scene)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import shiboken6
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QGraphicsItem

from planner import edit
from tests.widgets.test_canvas import make_canvas, settle
from tests.widgets.test_canvas_overview import _gathered
from widgets.canvas import items as canvas_items
from widgets.canvas.backdrop import holds
from widgets.canvas.items import HIGHLIGHT, BoxItem
from widgets.canvas.overview import FAR_SCALE
from widgets.canvas.view import LOW_DETAIL_SCALE

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
ORANGE = QColor(250, 155, 40)  # the selected outline (255, 140, 0), a thin line over a pale fill


def zoomed(qtbot, parts, topo, scale: float):
    doc, scene, view = make_canvas(qtbot, parts, topo)
    scene.set_all_collapsed(False)
    view.show_legend = False
    view.zoom(scale / view.transform().m11())
    return doc, scene, view


def near(c: QColor, want: QColor, tol: int = 40) -> bool:
    return abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) <= tol


def count(image: QImage, rect, want: QColor, tol: int = 40) -> int:
    """Pixels of ``image`` within ``rect`` (viewport coordinates) close to ``want``."""
    r = rect.intersected(image.rect())
    return sum(
        near(image.pixelColor(x, y), want, tol)
        for x in range(r.left(), r.right() + 1)
        for y in range(r.top(), r.bottom() + 1)
    )


def differing(a: QImage, b: QImage) -> int:
    """How many pixels differ between two images of one format and size."""
    pa, pb = (np.frombuffer(i.constBits(), np.uint8, i.sizeInBytes()).view(np.uint32) for i in (a, b))
    return int(np.count_nonzero(pa != pb))


def on_screen(view, item: BoxItem):
    return view.mapFromScene(item.sceneBoundingRect()).boundingRect().adjusted(-3, -3, 3, 3)


def a_group(view, scene) -> BoxItem:
    """The largest top-level box fully in view."""
    vis = view.mapToScene(view.viewport().rect()).boundingRect()
    tops = [i for i in scene.items_by_id.values() if i.parentItem() is None]
    return max((i for i in tops if vis.contains(i.sceneBoundingRect())), key=lambda i: i.box.w * i.box.h)


def painted_boxes(view, monkeypatch) -> int:
    """How many times BoxItem.paint runs in one paint of the viewport."""
    calls = []
    original = BoxItem.paint

    def paint(self, *args):
        calls.append(self)
        original(self, *args)

    monkeypatch.setattr(canvas_items.BoxItem, "paint", paint)
    view.zoom(1.01)  # a new zoom: no item's cached picture is reused
    view.viewport().grab()
    monkeypatch.setattr(canvas_items.BoxItem, "paint", original)
    return len(calls)


def test_working_zoom_draws_the_boxes_and_their_texts(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    assert not scene.low_detail[0]
    boxes = [i for i in scene.items_by_id.values() if not i.box.state]
    assert all(not i.flags() & NO_CONTENTS and i.text.isVisible() for i in boxes)
    # the view's layer strokes the links: they are no items of the scene
    assert scene.links and not any(isinstance(li, QGraphicsItem) for li in scene.links)
    assert painted_boxes(view, monkeypatch) > 10  # the boxes in view draw themselves
    item = a_group(view, scene)
    image = view.viewport().grab().toImage()
    assert count(image, on_screen(view, item), QColor(0, 0, 0), 250) > 20  # its texts are written


def test_zoomed_out_the_summary_layer_draws_boxes_and_links(qtbot, parts, benchmark_design, monkeypatch):
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    assert FAR_SCALE < view.transform().m11() < LOW_DETAIL_SCALE and scene.low_detail[0] and not scene.far
    boxes = list(scene.items_by_id.values())
    assert all(i.flags() & NO_CONTENTS for i in boxes)
    assert all(not i.text.isVisible() for i in boxes if i.text is not None)
    assert painted_boxes(view, monkeypatch) == 0  # no Python paint per box
    item = a_group(view, scene)
    assert item.tile is not None and item.tile.boxes is not None  # gathered by that repaint
    image = view.viewport().grab().toImage()
    assert count(image, on_screen(view, item), item._fill) > 30  # the layer filled the box
    lines = sum(len(seg) // 4 for t in view.summary.tiles.values() for _, seg in t.lines or ())  # (4 doubles a line)
    assert lines > len(scene.links)  # each link drawn as short straight lines


def test_a_restyle_is_visible_at_once_when_zoomed_out(qtbot, parts, benchmark_design):
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    item = a_group(view, scene)
    view.viewport().grab()
    before = view.viewport().grab().toImage()
    assert count(before, on_screen(view, item), ORANGE, 60) == 0
    item.setSelected(True)
    assert item.tile.boxes is None  # the tile's batches are gathered again
    view.viewport().grab()
    after = view.viewport().grab().toImage()
    assert count(after, on_screen(view, item), ORANGE, 60) > 20  # the selected outline
    item.setSelected(False)
    item.set_highlight(True)
    view.viewport().grab()
    lit = view.viewport().grab().toImage()
    assert count(lit, on_screen(view, item), ORANGE, 60) == 0
    r = on_screen(view, item).intersected(lit.rect())
    changed = [
        lit.pixelColor(x, y)
        for x in range(r.left(), r.right() + 1)
        for y in range(r.top(), r.bottom() + 1)
        if lit.pixelColor(x, y) != before.pixelColor(x, y)
    ]
    assert len(changed) > 20 and all(c.blue() > c.red() for c in changed)  # the highlight's blue outline


@pytest.mark.parametrize("scale", [1.0, 0.3])
def test_a_highlighted_link_is_redrawn_at_once(qtbot, parts, benchmark_design, scale):
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, scale)
    vis = view.mapToScene(view.viewport().rect()).boundingRect()
    li = next(li for li in scene.links if li.link.kind == "cable" and vis.intersects(li.sceneBoundingRect()))
    view.viewport().grab()
    rect = view.mapFromScene(li.sceneBoundingRect()).boundingRect()
    before = count(view.viewport().grab().toImage(), rect, HIGHLIGHT, 20)
    li.highlighted = True
    li.restyle()
    view.viewport().grab()
    assert count(view.viewport().grab().toImage(), rect, HIGHLIGHT, 20) > before + 10


def test_a_rebuilt_scene_is_cut_into_tiles_again(qtbot, parts, benchmark_design):
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    view.viewport().grab()
    group = next(i for i in scene.items_by_id.values() if i.collapsible)
    scene.toggle_collapsed(group.cid)  # new items
    assert all(i.flags() & NO_CONTENTS for i in scene.items_by_id.values())
    view.viewport().grab()
    tops = [i for i in scene.items_by_id.values() if i.parentItem() is None]
    assert all(i.tile is not None for i in tops)
    view.zoom(1.0 / view.transform().m11())  # back to a working zoom: the items draw themselves
    assert not scene.low_detail[0]
    assert all(not i.flags() & NO_CONTENTS for i in scene.items_by_id.values() if not i.box.state)


def picture(overview) -> dict:
    """The overview's picture: stripe -> (where its tile goes in the scene, the tile's image)."""
    return {i: (target, pixmap.toImage()) for i, (target, pixmap) in overview._cached[2].items()}


def test_far_out_the_overview_is_one_picture_redrawn_on_a_change(qtbot, parts, benchmark_design, monkeypatch):
    """Zoomed far out the view draws one picture of the overview, a tile a stripe, the tiles
    side by side over the whole picture; a change draws again only the stripes of it that it
    touches (on the 16x site expanded the whole picture took 90-140 ms), and the picture is then
    the one drawn from nothing."""
    from widgets.canvas.overview import STRIPE

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, FAR_SCALE * 0.5)
    assert scene.far and view.scene() is not scene
    view.viewport().grab()
    overview = scene.overview
    first = overview._cached
    assert first is not None  # the batches drawn into a pixmap a stripe
    stripes = len(overview._stripes)
    assert stripes >= 3 and set(first[2]) <= set(overview._stripes)  # (a stripe just above the scene has no rows)
    bounds, tiles = first[0], list(first[2].values())
    assert min(t.top() for t, _ in tiles) == bounds.top() and min(t.left() for t, _ in tiles) == bounds.left()
    assert max(t.bottom() for t, _ in tiles) == pytest.approx(bounds.bottom())
    assert len({t.left() for t, _ in tiles}) > 1  # (squares: side by side and one under the other)
    for (one, a), (two, b) in itertools.combinations(tiles, 2):  # apart, drawn at one scale
        assert not one.adjusted(0.01, 0.01, -0.01, -0.01).intersects(two)
        assert one.height() / a.height() == pytest.approx(two.height() / b.height())
    view.zoom(0.99)  # the same zoom step (FAR_SCALE / 2 is one): the same picture
    view.viewport().grab()
    assert overview._cached is first
    drawn = []
    real = overview._ops
    monkeypatch.setattr(overview, "_ops", lambda i, scale: drawn.append(i) or real(i, scale))
    holding = {i.box.container for i in scene.items_by_id.values()}
    group = max(  # a large box with nothing drawn over it, in one to four stripes
        (i for i in scene.items_by_id.values() if i.cid not in holding and max(i.box.h, i.box.w) < STRIPE / 2),
        key=lambda i: i.box.w * i.box.h,
    )
    doc.select([group.cid])  # selected boxes are drawn orange: those stripes drawn again
    image = view.viewport().grab().toImage()
    assert overview._cached is first and 0 < len(set(drawn)) <= 4 < stripes
    rect = view.mapFromScene(group.sceneBoundingRect()).boundingRect()
    assert count(image, rect, QColor(255, 140, 0), 30) > 10
    patched = picture(overview)
    overview._cached = None  # the same picture drawn from nothing
    view.viewport().grab()
    assert picture(overview) == patched


def test_the_overview_tiles_meet_without_a_seam(qtbot, parts, benchmark_design):
    """Where two stripes' tiles meet, a box across the edge shows its colour in every row (each
    screen row drawn from one tile: drawn antialiased, the row the two tiles shared was half
    covered by each, a light line across the picture)."""
    from widgets.canvas.overview import STRIPE

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, FAR_SCALE * 0.7)
    view.viewport().grab()
    overview = scene.overview
    bounds = overview.boundingRect()
    assert bounds.height() > 2 * STRIPE
    probe = (bounds.center().x() - 500, bounds.top() + 10, 1000, bounds.height() - 20)  # a box over them all
    overview._place_box("probe", None, (99, QColor(40, 90, 160).rgba()), probe, QColor(40, 90, 160))
    overview.update()
    image = view.viewport().grab().toImage()
    edges = [k * STRIPE for k in range(int(bounds.top() // STRIPE) + 1, int(bounds.bottom() // STRIPE) + 1)]
    assert len(edges) >= 2
    for y in edges:
        at = view.mapFromScene(bounds.center().x(), y)
        rows = [image.pixelColor(at.x(), at.y() + dy) for dy in range(-3, 4)]
        assert all(near(c, QColor(40, 90, 160), 12) for c in rows), (y, [c.name() for c in rows])


def test_far_out_a_large_selection_is_gathered_in_slices_before_the_views_paint(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Far out, a selection that changes many boxes (Select All on the 16x site: 1,150 boxes,
    18-26 ms gathered and drawn in one paint) holds the views while the overview gathers and
    draws what changed in slices; then they show it, as a picture drawn at once would."""
    from widgets.canvas import overview as overview_module
    from widgets.canvas import scene as scene_module

    monkeypatch.setattr(scene_module, "SELECTION_AT_ONCE", 5)
    monkeypatch.setattr(overview_module, "_PAUSE_EVERY", 4)
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, FAR_SCALE * 0.5)
    settle(view)  # (the overview's gesture over: its picture drawn at the zoom)
    view.viewport().grab()
    doc.synchronous = False  # (the slices are for the editor's event loop)
    tops = [cid for cid, item in scene.items_by_id.items() if item.parentItem() is None]
    doc.select(tops)
    viewport = view.viewport()
    assert not viewport.updatesEnabled() and not scene.overview.gathered  # held, nothing gathered yet
    qtbot.waitUntil(viewport.updatesEnabled, timeout=5000)
    assert scene.overview.gathered
    sliced, gathered = viewport.grab().toImage(), _gathered(scene.overview)
    doc.synchronous = True  # (a paint's drawing is not cut at PAINT_DRAW_S: in one go)
    scene.overview._cached = None  # the picture drawn again from nothing, in one paint
    assert differing(sliced, viewport.grab().toImage()) == 0
    doc.synchronous = False
    scene.overview.invalidate()  # ... and everything gathered again (its batches in another order)
    viewport.grab()
    assert _gathered(scene.overview) == gathered
    item = max((scene.items_by_id[c] for c in tops), key=lambda i: i.box.w * i.box.h)
    assert count(sliced, view.mapFromScene(item.sceneBoundingRect()).boundingRect(), QColor(255, 140, 0), 30) > 3
    doc.select([])
    assert not viewport.updatesEnabled()
    qtbot.waitUntil(viewport.updatesEnabled, timeout=5000)
    assert (
        count(
            viewport.grab().toImage(),
            view.mapFromScene(item.sceneBoundingRect()).boundingRect(),
            QColor(255, 140, 0),
            30,
        )
        == 0
    )


def test_the_views_held_for_a_selection_repaint_on_a_turn_of_their_own_once_the_slice_is_spent(
    qtbot, parts, benchmark_design, monkeypatch
):
    """The views' repaint after a large selection (2-3 ms on the 16x site) waits for the next
    turn when the slice that finished the overview's picture is spent: Select All's release was
    one turn of 9-12 ms (its 6 ms slice, the last stripe drawn, then the repaint)."""
    from widgets.canvas import painting as painting_module
    from widgets.canvas import scene as scene_module

    monkeypatch.setattr(scene_module, "SELECTION_AT_ONCE", 5)
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, FAR_SCALE * 0.5)
    view.viewport().grab()
    doc.synchronous = False
    monkeypatch.setattr(painting_module, "PAINT_SLICE_S", 0.0)  # every slice spent after one step
    steps, released = [0], []
    preparations = scene._view_preparations

    def counted():  # every step of the preparations counted, the one that ends them too
        for _ in preparations():
            steps[0] += 1
            yield
        steps[0] += 1

    letting = scene._let_views_paint
    monkeypatch.setattr(scene, "_view_preparations", counted)
    monkeypatch.setattr(scene, "_let_views_paint", lambda: (released.append(steps[0]), letting()))
    doc.select([cid for cid, item in scene.items_by_id.items() if item.parentItem() is None])
    viewport = view.viewport()
    scene._release_timer.stop()  # (the turns run one by one below)
    for _ in range(10000):
        if viewport.updatesEnabled():
            break
        before = steps[0]
        scene._release_held()
    assert viewport.updatesEnabled() and len(released) == 1
    assert steps[0] > 1 and released[0] == before  # the repaint's turn made nothing


def test_a_stripe_is_drawn_a_few_shapes_a_step_and_whole_if_left_half_drawn(
    qtbot, parts, benchmark_design, monkeypatch
):
    """The picture's stripes are drawn a few hundred lines or rectangles a step (a stripe of the
    16x site took 12-25 ms), each stripe's tile made when it is drawn (one pixmap of the whole
    picture took 10-30 ms to clear); a drawing left in the middle of a stripe leaves it to be
    drawn again whole: either way the picture is the one drawn from nothing."""
    from widgets.canvas import overview as overview_module

    monkeypatch.setattr(overview_module, "_OPS_EVERY", 4)
    monkeypatch.setattr(overview_module, "DRAW_SLICE_S", 0.0)
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, FAR_SCALE * 0.5)
    view.viewport().grab()
    overview = scene.overview
    scale = view.transform().m11()
    fresh = picture(overview)
    overview._cached = None
    steps = overview._drawing(scale)
    next(steps)
    assert len(overview._cached[2]) == 1  # the first stripe's tile only, so far
    for _ in range(2):
        next(steps)
    assert overview._changed  # (stripes left)
    steps.close()  # left in the middle of a stripe (its finally puts it back)
    for _ in overview._drawing(scale):
        pass
    assert picture(overview) == fresh
    done = sum(1 for _ in overview._drawing(scale))  # nothing left to draw
    assert done == 0 and not overview._changed


def test_the_cached_background_matches_a_fresh_view_after_pans_and_edits(qtbot, parts, benchmark_design):
    """Links (and, zoomed out, boxes) are drawn in the view's cached background: after pans, a
    restyle and a rebuilt scene, what it shows equals what a new view draws from scratch."""
    from widgets.canvas.view import DiagramView

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    on = Qt.ScrollBarPolicy.ScrollBarAlwaysOn
    view.setHorizontalScrollBarPolicy(on)
    view.setVerticalScrollBarPolicy(on)
    bars = view.horizontalScrollBar(), view.verticalScrollBar()
    for scale in (1.0, 0.3):
        view.zoom(scale / view.transform().m11())
        qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)  # the zoom settled: smooth
        view.viewport().grab()
        for i in range(1, 4):  # pans: the cached background is shifted, strips drawn
            bars[0].setValue(bars[0].value() + 37 * i)
            bars[1].setValue(bars[1].value() + 53 * i)
            view.viewport().grab()
        paths = doc.analysis.result.paths
        scene.highlight_path(paths[int(scale * 10) % len(paths)])  # links restyled (and kept by the morph)
        view.viewport().grab()
        group = next(i for i in scene.items_by_id.values() if i.collapsible)
        scene.toggle_collapsed(group.cid)  # boxes made, moved and removed
        for item in scene.items_by_id.values():  # (the boxes drawn afresh: a box drawn from its own
            item.update()  # device cache after the view scrolled differs in its anti-aliased edges)
        shown = view.viewport().grab().toImage()
        fresh = DiagramView(scene)  # deleted below (not left to qtbot and the collector)
        fresh.show_legend = False
        fresh.setHorizontalScrollBarPolicy(on)
        fresh.setVerticalScrollBarPolicy(on)
        fresh.resize(view.size())
        fresh.show()
        qtbot.waitExposed(fresh)
        assert fresh.viewport().size() == view.viewport().size()
        fresh.setTransform(view.transform())
        fresh._zoomed()
        fresh.horizontalScrollBar().setValue(bars[0].value())
        fresh.verticalScrollBar().setValue(bars[1].value())
        drawn = fresh.viewport().grab().toImage()
        if scale >= LOW_DETAIL_SCALE:
            assert drawn == shown
        else:  # (a summary line cut by a pan's strip is drawn from where the cut falls: a pixel
            # off here and there; a link or box not drawn again differs by hundreds)
            assert differing(drawn, shown) <= 40
        fresh.summary = view.summary  # the links go back to the view under test
        view.summary.build()
        shiboken6.delete(fresh)  # now, not whenever the cyclic collector finds it


def test_a_link_drawn_piece_by_piece_looks_like_its_curve(qtbot, parts, benchmark_design):
    """At a working zoom the layer strokes only the pieces of a link's polyline over the part
    being drawn: at the view's 8x zoom limit the polyline covers the same pixels as the curve,
    and the pieces picked for a strip reach past both of its edges."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter, QPen, QTransform

    from widgets.canvas.summary import _polygon, _visible_pieces, polyline

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    links = sorted(scene.links, key=lambda li: -li.path().boundingRect().width())[:5]
    assert links
    for li in links:
        r = li.path().boundingRect().adjusted(-4, -4, 4, 4)
        zoom = 8.0

        def render(draw, r=r, zoom=zoom) -> QImage:
            img = QImage(int(r.width() * zoom) + 1, int(r.height() * zoom) + 1, QImage.Format.Format_ARGB32)
            img.fill(QColor("white"))
            p = QPainter(img)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.setTransform(QTransform.fromTranslate(-r.left(), -r.top()) * QTransform.fromScale(zoom, zoom))
            p.setPen(QPen(QColor("black"), 2.0 / zoom * 2))
            draw(p)
            p.end()
            return img

        curve = render(lambda p, li=li: p.drawPath(li.path()))
        pieces = render(lambda p, li=li: p.drawPolyline(_polygon(polyline(li)[0])))
        inked = differ = 0
        for x in range(0, curve.width(), 2):
            for y in range(0, curve.height(), 2):
                a, b = curve.pixelColor(x, y), pieces.pixelColor(x, y)
                inked += a.red() < 128
                differ += abs(a.red() - b.red()) > 128
        assert inked > 50 and differ <= inked * 0.05, (li.link, inked, differ)
        pts = polyline(li)[0]
        mid_x = pts[len(pts) // 2][0]
        strip = QRectF(mid_x - 3, r.top(), 6, r.height())  # a pan's narrow strip
        got = _visible_pieces(li, strip.left(), strip.top(), strip.right(), strip.bottom())
        assert 2 <= got.size() < len(pts)
        assert got.at(0).x() < strip.left() and got.at(got.size() - 1).x() > strip.right()


def test_links_are_rough_while_zooming_and_smooth_once_it_settles(qtbot, parts, benchmark_design, monkeypatch):
    """A zoom step redraws every link in view: while the user zooms they are stroked without
    antialiasing, and drawn smooth again ZOOM_SETTLE_MS after the last step."""
    from widgets.canvas import summary as summary_module

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    smooth: list[bool] = []
    real = summary_module.SummaryLayer._paint_links

    def spy(painter, shown, exposed, smooth_=True, **kw):
        smooth.append(kw.get("smooth", smooth_))
        return real(painter, shown, exposed, **kw) if kw else real(painter, shown, exposed, smooth_)

    monkeypatch.setattr(summary_module.SummaryLayer, "_paint_links", staticmethod(spy))
    for _ in range(3):
        view.zoom(1.05)
        view.viewport().repaint()
    assert view.summary.rough and smooth and not any(smooth)
    smooth.clear()
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    assert holds(view.backdrop, smooth=True)  # drawn smooth beforehand, in slices
    view.viewport().repaint()
    assert not smooth  # the paint copied them
    copied = view.viewport().grab().toImage()
    view.backdrop.drop()
    view.resetCachedContent()
    view.viewport().repaint()
    assert smooth and all(smooth)
    assert view.viewport().grab().toImage() == copied  # what the paint would have stroked


def test_while_zooming_cables_are_stroked_as_hairlines_of_their_colour(qtbot, parts, benchmark_design, monkeypatch):
    """Rough links (the user zooming) are one-pixel cosmetic pens of the cables' own colours and
    styles; smooth ones keep their pens."""
    from PySide6.QtGui import QPainter

    from widgets.canvas import summary as summary_module

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    qtbot.waitUntil(lambda: not view.summary.rough, timeout=5000)
    pens: list = []
    real_poly, real_path = QPainter.drawPolyline, QPainter.drawPath

    def note(real):
        def draw(painter, *args):
            pens.append(painter.pen())
            return real(painter, *args)

        return draw

    monkeypatch.setattr(QPainter, "drawPolyline", note(real_poly))
    monkeypatch.setattr(QPainter, "drawPath", note(real_path))
    view.backdrop.drop()  # (drawn beforehand when the zoom settled)
    view.resetCachedContent()  # the links are drawn into the view's cached background
    view.viewport().repaint()  # smooth
    wide = {(p.color().rgba(), p.widthF()) for p in pens if not p.isCosmetic()}
    assert wide  # the cables' own pens, 1.4 units wide
    colours = {p.color().rgba() for p in pens}
    pens.clear()
    view.zoom(1.05)
    view.resetCachedContent()
    view.viewport().repaint()  # rough
    assert view.summary.rough and pens and all(p.isCosmetic() for p in pens)
    assert {p.color().rgba() for p in pens} <= colours  # in their own colours
    thin = summary_module._hairline(next(p for p in scene.links if not p.pen().isCosmetic()).pen())
    assert thin.isCosmetic() and thin.widthF() == 0


def test_over_each_tile_a_link_is_picked_by_what_its_curve_draws_there(qtbot, parts, benchmark_design, monkeypatch):
    """At a working zoom the layer picks a link for a part of the scene by the rectangle of its
    curve over each tile, not by its own rectangle (a cable's is a diagonal across many tiles):
    fewer links are cut into pieces, and every part draws the same pixels as with each link
    picked by its own rectangle."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter, QTransform

    import widgets.canvas.summary as summary

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    layer = view.summary
    layer.build()
    cut = []
    pieces = summary._visible_pieces
    monkeypatch.setattr(summary, "_visible_pieces", lambda li, *r: cut.append(li) or pieces(li, *r))

    def draw(part: QRectF) -> QImage:
        img = QImage(int(part.width()), int(part.height()), QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        p.setTransform(QTransform.fromTranslate(-part.left(), -part.top()))
        layer.paint(p, part, low=False)
        p.end()
        return img

    r = scene.sceneRect()
    parts_drawn = [QRectF(r.left() + fx * r.width(), r.top() + fy * r.height(), 500, 350)
                   for fx in (0.1, 0.35, 0.6) for fy in (0.15, 0.5, 0.8)]  # fmt: skip
    tight = [draw(part) for part in parts_drawn]
    picked_tight, cut[:] = len(cut), []
    whole = summary._near
    monkeypatch.setattr(
        summary,
        "_near",
        lambda li, key, cell: (lambda b: (b.left(), b.top(), b.right(), b.bottom()))(li.boundingRect()),
    )
    for t in layer.tiles.values():
        t._links = None
    loose = [draw(part) for part in parts_drawn]
    assert sum(img != QImage() for img in tight) == len(parts_drawn)
    inked = [
        img
        for img in tight
        if any(img.pixelColor(x, y) != QColor("white") for x in range(0, 500, 5) for y in range(0, 350, 5))
    ]
    assert len(inked) >= 3  # the parts drawn cross cables
    assert tight == loose
    assert picked_tight < len(cut), (picked_tight, len(cut))
    assert whole is not summary._near


def test_once_cut_into_tiles_their_links_are_gathered_between_events(qtbot, parts, benchmark_design, monkeypatch):
    """After the scene is cut into tiles, every tile's links (their polylines and the rectangle
    of each over the tile) are gathered in short slices between events, not in the first pans;
    a link that moves forgets its rectangles."""
    import widgets.canvas.summary as summary

    monkeypatch.setattr(summary, "WARM_SLICE_S", 0.0)  # one tile per turn of the event loop
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    layer = view.summary
    layer.build()
    tiles = list(layer.tiles.values())
    assert len(tiles) > 2 and sum(t._links is None for t in tiles) >= len(tiles) - 1
    qtbot.waitUntil(lambda: all(t._links is not None for t in tiles), timeout=10000)
    li = next(li for li in scene.links if li.near)
    li.update_path()
    assert li.near is None and li.polyline is None


def test_far_out_the_items_wait_for_their_detail_until_the_view_comes_back(qtbot, parts, benchmark_design):
    """Far out the view shows the overview, not the items: their summary mode is not redone at
    each zoom step there (a pass over the 16x site's items took 200 ms), but on the way back
    they show what a pass at that zoom shows."""
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    view.viewport().grab()

    def looks() -> dict:
        return {
            cid: (
                i.low,
                i.summary is not None and i.summary.isVisible(),
                i.summary.font().pointSizeF() if i.summary else 0,
            )
            for cid, i in scene.items_by_id.items()
        }

    passes = []
    real = type(next(iter(scene.items_by_id.values()))).set_low_detail
    for item in scene.items_by_id.values():
        item.set_low_detail = lambda low, scale, item=item: passes.append(1) or real(item, low, scale)
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    view.zoom(0.9)
    view.zoom(0.9)
    assert scene.far and not passes  # far out: nothing done to the items
    view.zoom(0.25 / view.transform().m11())
    assert not scene.far and passes
    came_back = looks()
    scene.set_low_detail(*scene.low_detail, force=True)
    assert looks() == came_back


def test_a_box_restyled_keeps_the_links_of_its_tile(qtbot, parts, benchmark_design):
    """A box selected or recoloured changes no link: at a working zoom its tile keeps the links
    it gathered (an analysis recolouring the boxes in view had every link over them gathered
    again in the next paint); zoomed out, where the layer draws the boxes, the tile is drawn
    again with the box's new summary."""
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    view.viewport().grab()
    item = next(i for i in scene.items_by_id.values() if i.parentItem() is None and i.tile is not None)
    tile = item.tile
    links = tile.link_bounds()
    doc.select([item.cid])
    assert tile._links is links  # kept
    view.zoom(0.3 / view.transform().m11())
    view.viewport().grab()
    tile = item.tile
    assert tile.boxes is not None and not tile.dirty
    doc.select([])
    assert tile.boxes is None and tile.dirty  # gathered and drawn again


def test_a_region_invalidated_out_of_view_is_not_drawn(qtbot, parts, benchmark_design, monkeypatch):
    """The scene invalidates a tile's whole region (a link restyled); the view draws only what
    it shows of it: the tiles out of view are not gathered in its paint."""
    from PySide6.QtWidgets import QGraphicsScene

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    view.centerOn(0, 0)
    view.viewport().grab()
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    far = [t for t in view.summary.tiles.values() if not t.bounds.intersects(seen) and t.links]
    assert far
    for t in far:
        t.invalidate()
    scene.invalidate(QRectF(0, 0, scene.width(), scene.height()), QGraphicsScene.SceneLayer.BackgroundLayer)
    view.viewport().grab()
    assert all(t._links is None for t in far)


def test_a_links_summary_lines_are_cut_at_the_tiles_edges(qtbot, parts, benchmark_design):
    """Zoomed out a link is drawn as straight pieces by the tiles it crosses: each tile draws
    only the part of a piece over it (a piece drawn whole by each tile it crossed was drawn
    twice where both were drawn, a translucent pen darker there), and the parts make up the
    pieces."""
    import math

    from widgets.canvas.curves import cubic, pieces
    from widgets.canvas.summary import TILE, segments

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    crossing = 0
    for li in scene.links:
        parts_by_tile = segments(li)
        crossing += len(parts_by_tile) > 1
        for (kx, ky), lines in parts_by_tile.items():
            for line in lines:
                for x, y in (line[:2], line[2:]):
                    assert kx * TILE - 1e-6 <= x <= (kx + 1) * TILE + 1e-6
                    assert ky * TILE - 1e-6 <= y <= (ky + 1) * TILE + 1e-6
        path = li.path()  # (its one cubic curve, from the controls the pieces are worked out from)
        assert [(path.elementAt(k).x, path.elementAt(k).y) for k in range(path.elementCount())] == list(li.controls())
        pts = cubic(li.controls(), pieces(li.controls()))
        whole = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
        cut = sum(math.dist(line[:2], line[2:]) for lines in parts_by_tile.values() for line in lines)
        assert cut == pytest.approx(whole, rel=1e-9, abs=1e-6)
    assert crossing > 10


def test_a_links_rectangle_over_a_tile_found_by_bisection_is_the_masks(qtbot, parts, benchmark_design):
    """A link's curve runs left to right and from one level to the other, so the points of its
    polyline near a tile are one run of them, found by bisection on x and y (a first pan over
    a site met 76,000 link-and-tile pairs at 20-30 us each with a numpy mask). Over every tile
    and beyond, for every link expanded, the rectangle is the mask's to the last bit."""
    import widgets.canvas.summary as summary

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    r = scene.sceneRect()
    size = summary.TILE
    cells = [
        QRectF(x, y, size, size)
        for x in np.arange(r.left() - size, r.right() + size, size * 0.7)
        for y in np.arange(r.top() - size, r.bottom() + size, size * 0.7)
    ]
    fast = met = 0
    for li in scene.links:
        line = summary.polyline(li)
        assert line is not None
        masked = (*line[:5], False)  # the same polyline, as if its y did not rise throughout
        for cell in cells:
            got = summary._curve_near(li, cell)
            li.polyline = masked
            want = summary._curve_near(li, cell)
            li.polyline = line
            assert got == want, (li.link, cell)
            met += want is not None
        fast += line[1] is not None and line[5]
    assert fast >= 0.9 * len(scene.links) and met > len(scene.links)  # most links bisected; most met some cells


def test_a_recoloured_link_is_gathered_with_a_hairline_of_its_new_colour(qtbot, parts, benchmark_design):
    """A link keeps its one-pixel pen (what the layer strokes while the user zooms) and whether
    it is dotted until it is restyled: a cable recoloured, then gathered again, is stroked in
    its new colour; an owner link is still gathered as dotted (drawn by its path)."""
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    layer = view.summary
    layer.build() if not layer.current() else None

    def gathered(li):
        for key in li.keys:
            tile = layer.tiles[key]
            tile._links = None
            for _ in tile.gathering_links():
                pass
            for entry in tile._links or ():
                if entry[0] is li:
                    return entry
        return None

    cable = next(li for li in scene.links if li.link.kind == "cable" and gathered(li) is not None)
    before = gathered(cable)[2].color().rgba()
    cable.util = 0.99 if cable.util is None or cable.util < 0.5 else 0.01
    cable.restyle()
    after = gathered(cable)
    assert after[2].color().rgba() == cable.pen().color().rgba() != before
    assert after[2].isCosmetic() and after[2].widthF() == 0
    owner = next(li for li in scene.links if li.link.kind == "owner" and gathered(li) is not None)
    entry = gathered(owner)
    assert not owner.solid and entry[3] is not None  # dotted: drawn by its path


def test_a_tiles_summaries_are_gathered_a_few_boxes_and_links_at_a_time(qtbot, parts, benchmark_design):
    """Zoomed out, a tile's boxes and lines are gathered in steps (the views' preparation runs
    them in its slices): step by step they equal a gathering in one go, and what was gathered
    is dropped when a box of the tile is restyled or the tile changes before the last step."""
    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 0.3)
    layer = view.summary
    layer.build() if not layer.current() else None
    tile = max(layer.tiles.values(), key=lambda t: len(t.tops) * 16 + len(t.links))
    tile.gather()
    whole = (list(tile.boxes or ()), list(tile.lines or ()))
    assert whole[0] and whole[1]
    for drop in (tile.invalidate_boxes, tile.invalidate, None):
        tile.boxes = tile.lines = None
        steps = tile.gathering()
        next(steps)  # (it holds several boxes: it pauses)
        if drop is not None:
            drop()
        for _ in steps:
            pass
        if drop is None:
            assert (tile.boxes, tile.lines) == whole
        else:
            assert tile.boxes is None  # dropped: the next paint gathers it again


def test_the_tiles_follow_a_morph_as_the_links_lie_now(qtbot, parts, benchmark_design):
    """A subsystem deleted moves every link below it up (a morph); the view's layer moves those
    links to the tiles their curves now touch (each tile holds the links whose bounding rectangle
    meets it, worked out here from their control points and pens), and so after the undo."""
    from widgets.canvas.summary import TILE

    doc, scene, view = zoomed(qtbot, parts, benchmark_design, 1.0)
    doc.synchronous = True
    view.viewport().grab()
    layer = view.summary
    assert layer.current()
    for change in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        before = {li: li.ends for li in scene.links}
        change()
        scene.flush()
        view.viewport().grab()
        assert layer.current() and sum(before.get(li, li.ends) != li.ends for li in scene.links) > 10  # (moved)
        want: dict[tuple[int, int], set] = {}
        for li in scene.links:
            xs, ys = zip(*li.controls())
            m = max(li.pen().widthF(), 1.0)
            x0, y0, x1, y1 = min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m
            assert li.extent() == pytest.approx((x0, y0, x1, y1))
            for kx in range(int(x0 // TILE), int(x1 // TILE) + 1):
                for ky in range(int(y0 // TILE), int(y1 // TILE) + 1):
                    want.setdefault((kx, ky), set()).add(li)
        assert {k: t.links for k, t in layer.tiles.items() if t.links} == want
