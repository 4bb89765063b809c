"""Zoomed far out the canvas shows one overview item (summary boxes, no per-box Python painting)
and comes back to the boxes when zoomed in; the overview follows the analysis' colours."""

from __future__ import annotations

import math

from PySide6.QtGui import QImage, QPainter

import widgets.canvas.names as names_module
from planner import edit
from tests.widgets.test_canvas import make_canvas, settle
from widgets.canvas.overview import (
    _NEAR,
    FAR_SCALE,
    GESTURE_RANGE,
    STRIPE,
    OverviewItem,
    _pieces,
    _rows_of,
    _stripes_of,
)


def render(scene) -> None:
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    scene.render(painter)
    painter.end()


def test_far_zoom_shows_the_overview_and_back(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    doc.synchronous = True
    scene.set_all_collapsed(False)
    view.zoom(1 / view.transform().m11())
    assert view.scene() is scene and not scene.far
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    assert scene.far and view.scene() is not scene
    items = view.scene().items()
    assert len(items) == 1 and isinstance(items[0], OverviewItem)
    overview = items[0]
    render(view.scene())
    assert overview.gathered
    fills, lines = overview.batches()
    assert sum(len(r) for _, r in fills) == len(scene.items_by_id)  # every box, one rectangle each
    assert sum(len(ls) for _, ls in lines) == len(scene.links)
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)  # a new analysis: gathered again
    scene.flush()
    assert not overview.gathered
    render(view.scene())
    assert overview.gathered
    centre = view.mapToScene(view.viewport().rect().center())
    view.zoom(1 / view.transform().m11())
    assert not scene.far and view.scene() is scene
    back = view.mapToScene(view.viewport().rect().center())
    assert abs(back.x() - centre.x()) < 50 and abs(back.y() - centre.y()) < 50


def test_zoomed_far_out_the_overview_says_where_boxes_are(qtbot, parts, benchmark_design):
    """The legend looks for a corner with no box under it; zoomed far out the overview answers
    (the scene's index of a site's items is built at its first question: 46 ms on the 16x site),
    as the scene would."""
    import random

    from PySide6.QtCore import QRectF

    from widgets.canvas.items import BoxItem

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    doc.synchronous = True
    scene.set_all_collapsed(False)
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    render(view.scene())
    overview = scene.overview
    assert overview.gathered
    rnd = random.Random(5)
    answers = set()
    for _ in range(200):
        w, h = rnd.uniform(20, 2000), rnd.uniform(20, 2000)
        area = QRectF(rnd.uniform(-500, scene.width()), rnd.uniform(-500, scene.height()), w, h)
        under = any(isinstance(i, BoxItem) for i in scene.items(area))
        assert overview.occupied(area) == under
        answers.add(under)
    assert answers == {True, False}


def _gathered(overview) -> dict:
    """What the overview holds, stripe by stripe: each box's rectangle and each link's piece."""
    return {
        i: ({k: dict(b) for k, b in s.fills.items() if b}, {k: dict(b) for k, b in s.lines.items() if b})
        for i, s in overview._stripes.items()
        if s.fills or s.lines
    }


def _keys_right(overview) -> None:
    """Each box's stripes are those its rectangle meets (worked out inline: as _stripes_of);
    each link's, those its pieces (one a row of stripes it crosses) meet within their row."""
    for which, _, (x, y, w, h) in overview._box_keys.values():
        assert which == _stripes_of(x, y, x + w, y + h)
    for which, _, (x1, y1, x2, y2) in overview._link_keys.values():
        rows = _rows_of(min(y1, y2), max(y1, y2))
        pieces = [(x1, y1, x2, y2)] if len(rows) == 1 else _pieces(x1, y1, x2, y2, rows)
        want = [
            (r, c)
            for r, (a, _, b, _) in zip(rows, pieces)
            for c in range(int((min(a, b) - _NEAR) // STRIPE), int((max(a, b) + _NEAR) // STRIPE) + 1)
        ]
        assert list(which) == want


def _expanded_far(qtbot, parts, design):
    """A canvas of ``design`` with every group expanded, zoomed so far out that the overview
    is shown, once drawn: (doc, scene, view, overview)."""
    doc, scene, view = make_canvas(qtbot, parts, design)
    doc.synchronous = True
    scene.set_all_collapsed(False)
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    settle(view)
    overview = view.scene().items()[0]
    render(view.scene())
    return doc, scene, view, overview


def test_what_moved_is_gathered_again_as_a_gathering_from_nothing_would(qtbot, parts, benchmark_design):
    """A subsystem deleted moves every box below it up (a morph): the overview gathers only what
    moved, and holds then what it holds gathered from nothing, every line cut into the stripes
    it crosses; so after the undo."""
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    subsystem = doc.topology.ids_of_kind("subsystem")[0]
    for change in (lambda: doc.run(edit.delete, [subsystem]), doc.undo_stack.undo):
        change()
        scene.flush()
        render(view.scene())
        assert overview.gathered and not overview._all
        patched = _gathered(overview)
        assert sum(len(b) for _, lines in patched.values() for b in lines.values()) > len(scene.links)  # (cut)
        for (row, col), (_, lines) in patched.items():  # each piece within its row (and a few pixels)
            top, bottom = row * STRIPE - 64.0, (row + 1) * STRIPE + 64.0
            left, right = col * STRIPE - 64.0, (col + 1) * STRIPE + 64.0
            assert all(
                top - 1e-6 <= min(y1, y2)
                and max(y1, y2) <= bottom + 1e-6
                and min(x1, x2) <= right
                and left <= max(x1, x2)
                for b in lines.values()
                for x1, y1, x2, y2 in b.values()
            )
        assert len({col for _, col in patched}) > 1  # (stripes side by side)
        _keys_right(overview)
        overview.invalidate()
        render(view.scene())
        assert _gathered(overview) == patched


def test_links_removed_leave_the_others_gathered_where_they_are(qtbot, parts, benchmark_design, monkeypatch):
    """The overview keeps each link's line by the link, not by its place in the scene's list: a
    cable deleted (and undone) gathers again the lines that changed, not every link after it in
    the list (a server deleted on the 16x site shifted 2,200), and holds then what a gathering
    from nothing holds."""
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    gathered = []
    real = OverviewItem._gather_link
    monkeypatch.setattr(OverviewItem, "_gather_link", lambda self, sc, li: gathered.append(li) or real(self, sc, li))
    cables = doc.topology.ids_of_kind("cable")
    for change in (lambda: doc.run(edit.delete, [cables[len(cables) // 3]]), doc.undo_stack.undo):
        before = list(scene.links)
        gathered.clear()
        change()
        scene.flush()
        render(view.scene())
        after = scene.links
        shifted = sum(1 for i, li in enumerate(after) if i >= len(before) or before[i] is not li)
        assert overview.gathered and shifted > 50
        assert len(set(gathered)) < shifted / 4  # what changed, not what moved up or down the list
        patched = _gathered(overview)
        _keys_right(overview)
        overview.invalidate()
        render(view.scene())
        assert _gathered(overview) == patched


def test_the_arrays_and_names_kept_between_paints_draw_what_a_fresh_overview_draws(qtbot, parts, benchmark_design):
    """The overview keeps each batch's array and each name as laid out at the zoom shown from
    one paint to the next: after a recolouring, a rename and its undo, the view shows what it
    shows once everything is gathered, drawn and laid out again from nothing."""
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.show_legend = False
    server, array = doc.topology.ids_of_kind("server")[0], doc.topology.ids_of_kind("array")[0]
    steps = [
        lambda: doc.run(edit.set_attr, array, "segment_kb", 256),
        lambda: doc.run(edit.delete, [doc.topology.ids_of_kind("cable")[0]]),  # loads shift: colours change
        lambda: doc.run(edit.set_attr, server, "name", "Renamed server"),
        doc.undo_stack.undo,
        doc.undo_stack.undo,
    ]
    for step in steps:
        step()
        scene.flush()
        kept = view.viewport().grab().toImage()
        assert any(s.flat_fills for s in overview._stripes.values())  # (arrays kept for the next paint)
        names = {cid: got[2][2].text() for cid, got in overview._names_laid.items() if cid and got[2]}
        assert names.get(server, "").startswith(doc.topology[server].name[:4])
        overview.invalidate()  # everything gathered again from nothing at the next paint
        fresh = view.viewport().grab().toImage()
        assert kept == fresh


def _reference(overview, scale: float, size) -> QImage:
    """The overview's stripes drawn the plain way, a QRectF or QLineF made for each shape of
    their batches, at ``scale`` into an image of ``size``."""
    from PySide6.QtCore import QLineF, QRectF, Qt
    from PySide6.QtGui import QPen

    from widgets.canvas.overview import _EDGE

    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.scale(scale, scale)
    for i in sorted(overview._stripes):
        stripe = overview._stripes[i]
        for key in sorted(stripe.lines):  # (colour by colour, as the overview draws them)
            p.setPen(overview._pens[key])
            p.drawLines([QLineF(*ln) for ln in stripe.lines[key].values()])
        p.setPen(QPen(_EDGE, 0) if scale >= 0.03 else QPen(Qt.PenStyle.NoPen))
        for key in sorted(stripe.fills):
            p.setBrush(overview._colours[key])
            p.drawRects([QRectF(*r) for r in stripe.fills[key].values()])
    p.end()
    return image


def test_the_picture_drawn_from_flat_arrays_is_the_one_qt_objects_draw(qtbot, parts, benchmark_design, monkeypatch):
    """The overview draws its rectangles and lines from arrays of doubles handed to Qt as a C
    array (no Python object a shape): a stripe drawn directly (a picture too large) holds the
    pixels a QRectF and QLineF for each shape give, and the picture's tiles, each stripe drawn
    in runs of a few shapes, have something drawn wherever a box lies."""
    from PySide6.QtCore import QRectF, QSize, Qt

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    doc.run(edit.set_attr, doc.topology.ids_of_kind("array")[0], "segment_kb", 256)  # some colours
    scene.flush()
    render(view.scene())
    assert overview.gathered
    bounds = overview.boundingRect()
    assert bounds.topLeft().isNull() and len(overview._stripes) > 1
    scale = 0.05
    size = QSize(int(bounds.width() * scale) + 1, int(bounds.height() * scale) + 1)
    want = _reference(overview, scale, size)
    direct = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    direct.fill(Qt.GlobalColor.transparent)
    p = QPainter(direct)
    p.scale(scale, scale)
    for i in sorted(overview._stripes):
        overview._paint_stripe(p, i, scale)
    p.end()
    painted = sum(1 for y in range(0, size.height(), 3) for x in range(0, size.width(), 3) if want.pixel(x, y))
    assert painted > size.width() * size.height() // 50  # (the picture is not empty)
    assert direct == want
    monkeypatch.setattr("widgets.canvas.overview._OPS_EVERY", 5)  # (a batch drawn in many runs)
    tiles = overview._picture(scale)  # the picture's tiles, a stripe's batches drawn in ops
    assert tiles and len({round(target.left()) for target, _ in tiles.values()}) > 1  # (side by side too)
    step = overview._step(scale)
    for target, pixmap in tiles.values():
        image = pixmap.toImage()
        x0, y0 = round(target.left() * step), round(target.top() * step)
        for y in range(0, image.height(), 2):
            for x in range(0, image.width(), 7):
                sx, sy = (x0 + x + 0.5) / step, (y0 + y + 0.5) / step
                hit = overview.occupied(QRectF(sx - 0.5 / step, sy - 0.5 / step, 1 / step, 1 / step))
                if hit and image.pixel(x, y) == 0:
                    raise AssertionError(f"nothing drawn at ({sx:.0f}, {sy:.0f}) where a box lies")


def test_more_shapes_than_the_buffer_holds_are_drawn_in_runs(qtbot):
    """A batch longer than the buffer handed to Qt is drawn a buffer's worth at a time: the
    same pixels as a QRectF or QLineF made for each."""
    import random

    from PySide6.QtCore import QLineF, QRectF, Qt
    from PySide6.QtGui import QColor

    from widgets.canvas.flat import ShapeBuffer, draw_flat, flat_shapes

    rnd = random.Random(3)
    n = 2 * ShapeBuffer.SHAPES + 77
    rects = [(rnd.uniform(0, 390), rnd.uniform(0, 290), rnd.uniform(1, 9), rnd.uniform(1, 9)) for _ in range(n)]
    lines = [(rnd.uniform(0, 400), rnd.uniform(0, 300), rnd.uniform(0, 400), rnd.uniform(0, 300)) for _ in range(n)]
    images = []
    for flat in (True, False):
        image = QImage(400, 300, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        p.setPen(QColor(20, 40, 200))
        if flat:
            draw_flat(p, True, flat_shapes(lines), 5)  # (from the sixth on)
        else:
            p.drawLines([QLineF(*ln) for ln in lines[5:]])
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(200, 40, 20))
        if flat:
            draw_flat(p, False, flat_shapes(rects))
        else:
            p.drawRects([QRectF(*r) for r in rects])
        p.end()
        images.append(image)
    assert images[0] == images[1]
    assert images[0].pixel(int(rects[-1][0]) + 1, int(rects[-1][1]) + 1) != 0


def test_a_long_line_is_cut_into_pieces_that_lie_on_it_each_within_its_stripe():
    """Each stripe draws its own piece of a link (Qt walks a long line through the whole picture
    even where a clip cuts it): every piece lies on the line, within its stripe and a few
    pixels around, and together they cover the line; a line within one stripe is drawn whole."""
    import random

    from widgets.canvas.overview import _NEAR, _pieces

    rng = random.Random(7)
    lines = [tuple(rng.uniform(0, 9 * STRIPE) for _ in range(4)) for _ in range(300)]
    lines += [
        (0.0, 5.0, 80.0, 5.0),
        (3.0, STRIPE, 9.0, 2 * STRIPE),
        (0.0, -_NEAR, 1.0, STRIPE + _NEAR),
        (4.0, 9.0, 4.0, 7000.0),
    ]
    for x1, y1, x2, y2 in lines:
        which = _rows_of(min(y1, y2), max(y1, y2))
        pieces = _pieces(x1, y1, x2, y2, which)
        assert len(pieces) == len(which)
        covered = []
        for s, (a, b, c, d) in zip(which, pieces):
            top, bottom = s * STRIPE - _NEAR, (s + 1) * STRIPE + _NEAR
            for px, py in ((a, b), (c, d)):
                assert top - 1e-6 <= py <= bottom + 1e-6 or (top <= min(y1, y2) and max(y1, y2) <= bottom)
                cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)  # on the line
                assert abs(cross) <= 1e-6 * (abs(x2 - x1) + abs(y2 - y1) + 1) * (abs(px) + abs(py) + 1)
                assert min(y1, y2) - 1e-6 <= py <= max(y1, y2) + 1e-6 and min(x1, x2) - 1e-6 <= px <= max(x1, x2) + 1e-6
            covered.append((min(b, d), max(b, d)))
        if len(which) == 1:
            assert pieces == [(x1, y1, x2, y2)]
        covered.sort()
        reach = covered[0][0]
        assert reach <= min(y1, y2) + 1e-6
        for lo, hi in covered:
            assert lo <= reach + 1e-6  # no gap between two pieces
            reach = max(reach, hi)
        assert reach >= max(y1, y2) - 1e-6


def test_a_picture_too_large_at_its_zoom_step_is_drawn_a_few_steps_smaller(qtbot, parts, benchmark_design):
    """The picture is kept at the zoom step just above the view's zoom, unless it would pass
    PICTURE_PIXELS there: then a few steps below (up to five: drawn up to twice larger), not the
    stripes drawn directly in every paint (the 16x site expanded at 0.22: 40-45 ms a paint; the
    32x site at 0.19-0.25, with three steps at most: 42-46 ms)."""
    from PySide6.QtCore import QRectF

    from widgets.canvas.overview import PICTURE_PIXELS

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    overview = view.scene().items()[0]
    scale = 0.2245
    overview._bounds = QRectF(0, 0, 1000, 1000)  # small: the step just above the zoom
    step = overview._step(scale)
    assert scale <= step < scale * 2**0.2
    overview._bounds = QRectF(0, 0, 11460, 17520)  # the 16x site expanded, in four columns
    area = 11460 * 17520
    step = overview._step(scale)
    assert area * step**2 <= PICTURE_PIXELS < area * scale**2 * 1.1 and step >= scale / 1.5
    overview._bounds = QRectF(0, 0, 14300, 30510)  # the 32x site expanded: five steps below at 0.24
    for scale in (0.19, 0.2245, 0.2389):
        step = overview._step(scale)
        assert 14300 * 30510 * step**2 <= PICTURE_PIXELS and step >= scale / 2
    overview._bounds = QRectF(0, 0, 100_000, 100_000)  # far too large: five steps down at most
    assert overview._step(scale) == 2 ** ((math.ceil(math.log2(scale) * 5) - 5) / 5)


def test_far_out_a_tall_narrow_box_has_its_name_up_its_side(qtbot, parts, benchmark_design):
    """Zoomed far out a server's box is too narrow for its name across (18 pixels at 0.2) but
    tall: the overview writes the name up its left edge, so a site's bands zoomed to fit say
    which server each is."""
    from PySide6.QtGui import QColor

    from tests.widgets.test_canvas_detail import count

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    view.show_legend = False
    view.zoom(0.2 / view.transform().m11())
    view.centerOn(scene.items_by_id["p690"])
    assert scene.far
    overview = scene.overview
    view.viewport().grab()
    assert "p690" in {n for _, n in overview.names()}
    server = scene.items_by_id["p690"]
    rect = view.mapFromScene(server.sceneBoundingRect()).boundingRect()
    assert rect.width() < 40 <= rect.height()  # (no room across)
    dark = QColor(30, 30, 30)
    written = count(view.viewport().grab().toImage(), rect, dark, 60)
    names = dict(overview._box_names)
    overview._box_names = {c: v for c, v in names.items() if c != "p690"}
    view.viewport().update()
    bare = count(view.viewport().grab().toImage(), rect, dark, 60)
    assert written > bare + 15  # the name's letters, up the box


def test_far_out_the_figures_are_placed_when_the_boxes_are_woken(qtbot, parts, benchmark_design):
    """Far out (the overview shown, no item drawn) an analysis's new figures are kept on their
    boxes, not placed; the boxes are woken when the canvas is idle, or at once when zoomed in:
    the canvas then shows what a full paint shows."""
    from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    scene.set_low_detail(True, FAR_SCALE * 0.5)
    later: list = []
    real = scene._paint_box

    def painted(item, *args):  # (a box whose figure is due, to be woken when the canvas is idle)
        due = real(item, *args)
        if due:
            later.append((item, item._figure_due, item._figure_text))
        return due

    scene._paint_box = painted
    for change in (lambda: doc.run(edit.delete, ["fastt3"]), doc.undo_stack.undo):
        later.clear()
        change()
        settle(qtbot, doc, scene)
        due = [(item, want[0]) for item, want, placed in later if want is not None and want[0] != placed]
        assert len(due) > 5  # (kept, not placed, by the paint)
        qtbot.waitUntil(lambda due=due: all(item._figure_due is None for item, _ in due), timeout=10000)  # idle
        assert all(item._figure_text == want for item, want in due if scene.items_by_id.get(item.cid) is item)
    doc.run(edit.set_attr, doc.topology.ids_of_kind("array")[0], "segment_kb", 256)
    settle(qtbot, doc, scene)
    scene.set_low_detail(False, 1.0)  # zoomed in: every box woken at once
    assert all(item._figure_due is None for item in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_far_out_a_new_title_is_placed_when_the_box_is_woken(qtbot, parts, benchmark_design):
    """Far out a relabelled box (a switch port whose subsystem was deleted, then back) keeps
    its new title to wrap and place until it is woken: when the canvas is idle, or at once
    when zoomed in; the canvas then shows what a full paint shows."""
    from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    settle(qtbot, doc, scene)
    scene.set_low_detail(True, FAR_SCALE * 0.5)
    ports = [it for cid, it in scene.items_by_id.items() if it.box.kind == "switch_port" and it.text is not None]
    for change, woken in ((lambda: doc.run(edit.delete, ["fastt3"]), "idle"), (doc.undo_stack.undo, "zoom")):
        before = {it.cid: it.text.text() for it in ports}
        change()
        settle(qtbot, doc, scene)
        kept = [it for it in ports if it._title_due]
        assert len(kept) >= 2 and all(it.text.text() == before[it.cid] for it in kept)  # not placed yet
        if woken == "idle":
            qtbot.waitUntil(lambda kept=kept: not any(it.due for it in kept), timeout=10000)
            assert all(it.text.text() != before[it.cid] for it in kept)
    scene.set_low_detail(False, 1.0)  # zoomed in: the boxes brought to its detail, woken
    qtbot.waitUntil(lambda: not scene.detail_pending(), timeout=10000)
    assert not any(it.due for it in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)


def test_far_out_the_groups_loads_are_placed_when_the_boxes_are_woken(qtbot, parts, benchmark_design):
    """Far out a figure set switched keeps each folded group's new load line on its box (no
    text wrapped for a view that draws none); woken when idle, or at once when zoomed in, the
    boxes show what a full paint shows."""
    from tests.widgets.test_canvas_incremental import background_canvas, full_paint, settle, shown

    doc, scene = background_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(True)
    settle(qtbot, doc, scene)
    groups = [it for it in scene.items_by_id.values() if it.box.collapsed and it.subtext is not None]
    assert len(groups) > 10
    scene.set_low_detail(True, FAR_SCALE * 0.5)
    assert doc.figures == "planning"
    for figures, woken in (("measured", "idle"), ("planning", "zoom")):
        before = {it.cid: it.subtext.text() for it in groups}
        doc.set_figures(figures)
        settle(qtbot, doc, scene)
        kept = [it for it in groups if it._sub_due is not None]
        assert len(kept) > 10 and all(it.subtext.text() == before[it.cid] for it in kept)  # not placed yet
        if woken == "idle":
            qtbot.waitUntil(lambda: all(not it.due for it in groups), timeout=10000)
            assert any(it.subtext.text() != before[it.cid] for it in kept)
    assert any(it._sub_due is not None for it in groups)  # (the second switch's: not woken yet)
    scene.set_low_detail(False, 1.0)  # zoomed in: the boxes brought to its detail, woken
    qtbot.waitUntil(lambda: not scene.detail_pending(), timeout=10000)
    assert not any(it.due for it in scene.items_by_id.values())
    assert shown(scene) == full_paint(qtbot, parts, doc, scene)  # (of the planning figures)


def test_what_changed_while_zoomed_in_is_all_the_overview_gathers_when_zoomed_out_again(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Zoomed in, the scene still tells the overview of each change (boxes moved by a delete,
    colours of a new analysis, a selection): zoomed out again, the overview gathers those, not
    every box (the 32x site expanded: 0.75-0.9 s in the first paint), and holds then what a
    gathering from nothing holds (shape for shape: within a batch, boxes that overlap may be
    drawn in another order, a few pixels of their edges apart, as when the edit is made zoomed
    out)."""
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.show_legend = False
    far = view.transform().m11()
    view.zoom(1 / far)  # a working zoom: the items shown
    assert view.scene() is scene
    subsystem = doc.topology.ids_of_kind("subsystem")[0]
    doc.run(edit.delete, [subsystem])  # (every box below it moves up)
    doc.run(edit.set_attr, doc.topology.ids_of_kind("array")[0], "segment_kb", 256)
    scene.flush()
    boxes = list(scene.items_by_id)
    doc.select(boxes[5:9])
    gathered = []
    real = OverviewItem._gather_box
    monkeypatch.setattr(
        OverviewItem, "_gather_box", lambda self, items, cid: gathered.append(cid) or real(self, items, cid)
    )
    view.zoom(far / view.transform().m11())
    assert view.scene() is not scene and overview.gathered is False and not overview._all
    kept = view.viewport().grab().toImage()
    assert overview.gathered and 0 < len(gathered) < len(boxes) / 2
    assert {*boxes[5:9]} <= {*gathered}  # (the selection)
    patched = _gathered(overview)
    overview.invalidate()
    fresh = view.viewport().grab().toImage()
    assert len(gathered) > len(boxes) and _gathered(overview) == patched
    assert kept.size() == fresh.size()


def test_zooming_back_and_forth_across_a_steps_edge_keeps_the_picture(qtbot, parts, benchmark_design, monkeypatch):
    """The picture drawn at the zoom step just above the view's zoom is kept while the view zooms
    out up to two steps below it (drawn a little smaller): a zoom to and fro across a step's edge
    drew the whole picture again in every frame (the 32x site expanded: 21 ms a frame, 47
    frames/s). Zoomed in past it, it is drawn again at the higher step."""
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    edge = 2 ** (math.floor(math.log2(FAR_SCALE * 0.5) * 5) / 5)  # a step's edge far out
    view.zoom(edge * 1.01 / view.transform().m11())  # just above it: the next step up
    view.viewport().grab()
    drawn = overview._cached[1]
    assert drawn > edge * 1.01
    tiles = []
    real = OverviewItem._tile
    monkeypatch.setattr(OverviewItem, "_tile", lambda self, i, step: tiles.append(i) or real(self, i, step))
    for k in range(6):  # to and fro across the edge
        view.zoom(0.98 if k % 2 == 0 else 1 / 0.98)
        assert view.scene() is not scene
        view.viewport().grab()
    assert overview._cached[1] == drawn and tiles == []
    view.zoom(drawn * 1.05 / view.transform().m11())  # above the picture's step: drawn again
    view.viewport().grab()
    assert overview._cached[1] > drawn and tiles


def test_a_new_zoom_steps_picture_is_drawn_over_several_paints_the_former_shown_meanwhile(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Zoomed in to a new step, a paint draws the new picture for PAINT_DRAW_S and shows the
    former picture (scaled) where the new one is not drawn yet, then asks for another paint; each
    paint carries the drawing on where the last one left it (a stripe drawn again from its start
    would never be done when it takes longer than a paint's time); at the end the view shows
    what a picture drawn in one go shows."""
    import widgets.canvas.overview as overview_module

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.show_legend = False
    view.viewport().grab()
    doc.synchronous = False  # (as in the editor)
    former = dict(overview._cached[2])
    monkeypatch.setattr(overview_module, "PAINT_DRAW_S", 0.0)  # (a chunk of DRAW_SLICE_S a paint)
    monkeypatch.setattr(overview_module, "DRAW_SLICE_S", 0.0)
    monkeypatch.setattr(names_module, "NAMES_PAINT_S", 60.0)  # (the names laid in one paint: a loaded
    view.zoom(1.25)  # machine laid a few in NAMES_PAINT_S, and the last paint showed the others as before)
    settle(view)  # (a wheel step's picture and names are drawn once the zoom settles)
    first = overview._picture(view.transform().m11())
    assert overview._changed and overview._former is not None  # (drawn in part)
    assert any(first[i] is former[i] for i in former)  # (the former tiles where not drawn yet)
    paints = 1
    while overview._changed and paints < 100_000:  # a batch of shapes a paint: carried on, not
        overview._picture(view.transform().m11())  # begun again (a stripe of many would never end)
        paints += 1
    assert not overview._changed and paints > 2 * len(former) and overview._former is None
    done = view.viewport().grab().toImage()
    doc.synchronous = True
    overview._cached = None  # drawn again in one go
    assert view.viewport().grab().toImage() == done


def test_what_changes_zoomed_in_is_gathered_when_idle_or_a_paint_at_a_time(qtbot, parts, benchmark_design, monkeypatch):
    """Zoomed in, an edit that moves boxes: the overview gathers it (and draws its picture again
    at the step it was shown at) when the canvas is idle, before any zoom out; zoomed out before
    that, each paint gathers for PAINT_DRAW_S and asks for the next, the stripes not yet gathered
    showing what they showed."""
    import widgets.canvas.morph as morph_module
    import widgets.canvas.overview as overview_module

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.viewport().grab()
    doc.synchronous = False  # (as in the editor)
    far = view.transform().m11()
    subsystems = doc.topology.ids_of_kind("subsystem")
    view.zoom(1 / far)
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 10)
    doc.run(edit.delete, [subsystems[0]])
    qtbot.waitUntil(lambda: scene.painted_revision == doc.topology.revision, timeout=10000)
    qtbot.waitUntil(lambda: overview.gathered and not overview._changed, timeout=10000)  # (idle)
    patched = _gathered(overview)
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 60_000)  # (no idle work from now on)
    monkeypatch.setattr(overview_module, "PAINT_DRAW_S", 0.0)
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: scene.painted_revision == doc.topology.revision, timeout=10000)
    assert not overview.gathered
    view.zoom(far / view.transform().m11())
    paints = 0
    while not overview.gathered and paints < 10_000:
        view.viewport().grab()
        paints += 1
    assert overview.gathered and paints > 1
    undone = _gathered(overview)
    assert undone != patched
    overview.invalidate()
    view.viewport().grab()
    assert _gathered(overview) == undone


def test_a_picture_drawn_over_several_paints_asks_for_the_next_once_the_loop_went_round(
    qtbot, parts, benchmark_design, monkeypatch
):
    """A paint whose time for the picture is up asks for the next paint from a timer, not from
    within itself: an update asked in a paint is the next pass's first work, so the paints ran
    back to back with no event between them (the 16x site zoomed out: 7-9 ms each, 15-22 ms)."""
    import widgets.canvas.overview as overview_module

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.viewport().grab()
    doc.synchronous = False  # (as in the editor)
    monkeypatch.setattr(overview_module, "PAINT_DRAW_S", 0.0)
    monkeypatch.setattr(overview_module, "DRAW_SLICE_S", 0.0)
    view.zoom(1.25)
    settle(view)  # (a wheel step's picture and names are drawn once the zoom settles)
    asked: list[int] = []
    monkeypatch.setattr(overview, "update", lambda *args: asked.append(1))
    view.viewport().grab()
    assert overview._changed  # (drawn in part)
    assert asked == [] and overview._again  # not asked within the paint ...
    qtbot.waitUntil(lambda: bool(asked), timeout=2000)  # ... but once the loop went round


def test_at_a_new_zoom_a_paint_lays_a_few_names_the_others_drawn_as_laid_before(
    qtbot, parts, benchmark_design, monkeypatch
):
    """Far out, a zoom lays every name again (1,152 on the 16x site expanded: 4-5 ms of the
    paint); a paint lays them for NAMES_PAINT_S, draws the others as they were laid at the
    zoom before and asks for another paint, until all are laid."""

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.zoom(FAR_SCALE * 0.95 / view.transform().m11())
    view.viewport().grab()
    shown = {cid for cid, got in overview._names_laid.items() if cid is not None and got[2] is not None}
    assert len(shown) > 8
    doc.synchronous = False  # (as in the editor)
    monkeypatch.setattr(names_module, "NAMES_PAINT_S", 0.0)
    view.zoom(1.02)
    settle(view)  # (a wheel step's picture and names are drawn once the zoom settles)
    drawn = []
    real = names_module.draw_name
    monkeypatch.setattr(names_module, "draw_name", lambda painter, op: drawn.append(op) or real(painter, op))
    view.viewport().grab()
    fresh = [cid for cid in overview._names_laid if cid is not None]
    assert 0 < len(fresh) <= 9 and overview._again  # a few laid; another paint asked for
    assert len(drawn) >= len(shown - set(fresh))  # the others as laid before
    paints, count = 0, len(overview._names_laid)
    while paints < 1000:  # (until a paint lays no more: all in view laid)
        view.viewport().grab()
        paints += 1
        if len(overview._names_laid) == count:
            break
        count = len(overview._names_laid)
    assert paints > 1 and count - 1 >= len(shown) - 2  # (all laid, but for a name zoomed out of view)


def test_a_paint_stops_drawing_the_picture_when_its_time_is_up_not_a_chunk_later(
    qtbot, parts, benchmark_design, monkeypatch
):
    """The picture is drawn in chunks of DRAW_SLICE_S; a paint's own time (PAINT_DRAW_S) cuts
    its last chunk short (a paint of 2.5 ms drew three chunks of 1 ms, 3.2-3.3 ms on the 16x
    site, and two such paints back to back made a wheel step's block)."""
    import widgets.canvas.overview as overview_module

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.viewport().grab()
    doc.synchronous = False  # (as in the editor)
    monkeypatch.setattr(overview_module, "PAINT_DRAW_S", 0.0)
    monkeypatch.setattr(overview_module, "DRAW_SLICE_S", 60.0)  # (a chunk would draw it all)
    view.zoom(1.25)
    overview._picture(view.transform().m11())
    assert overview._progress is not None  # (the rest at the next paints)
    assert overview._draw_by == float("inf")  # (a slice of the scene's draws its own chunks)


def test_while_the_view_zooms_the_overview_shows_its_picture_and_names_scaled(
    qtbot, parts, benchmark_design, monkeypatch
):
    """A wheel step far out draws no picture and lays no names: the picture and names drawn
    before are shown scaled (a step's new picture drawn for PAINT_DRAW_S and names laid for
    NAMES_PAINT_S made paints of 7-12 ms back to back on the 16x site, 20-30 ms blocks), until
    the zoom is too far from the picture's step (GESTURE_RANGE) or settles; then the picture and
    names are drawn at the zoom it came to, as a picture drawn in one go shows them."""

    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.show_legend = False
    view.zoom(FAR_SCALE * 0.9 / view.transform().m11())  # (names large enough to be drawn)
    settle(view)
    view.viewport().grab()
    doc.synchronous = False  # (as in the editor)
    step, laid_at = overview._cached[1], overview._names_laid[None]
    tiles, drawn = [], []
    real_tile, real_draw = OverviewItem._tile, names_module.draw_name
    monkeypatch.setattr(OverviewItem, "_tile", lambda self, i, s: tiles.append(i) or real_tile(self, i, s))
    monkeypatch.setattr(names_module, "draw_name", lambda painter, op: drawn.append(op) or real_draw(painter, op))
    view.zoom(1 / 1.25)
    assert overview.gesture and view.scene() is not scene
    view.viewport().grab()
    assert tiles == [] and overview._cached[1] == step and overview._progress is None  # nothing drawn anew
    assert overview._names_laid[None] == laid_at and len(drawn) > 8  # the names as laid, none laid again
    assert not overview._again  # (no other paint asked for)
    view.zoom(0.02 / view.transform().m11())  # too far from the picture's step: drawn at the new one
    assert overview._step(view.transform().m11()) < step / (4 * GESTURE_RANGE)
    view.viewport().grab()
    assert view.scene() is not scene and tiles and overview._cached[1] < step
    view.zoom(FAR_SCALE * 0.8 / view.transform().m11())
    view.viewport().grab()
    settle(view)  # (the zoom settled)
    for _ in range(10_000):  # the picture and names at the zoom it came to, a paint at a time
        view.viewport().grab()
        if not overview._changed and not overview._again and overview._names_laid[None][0] == view.transform().m11():
            break
        qtbot.wait(2)
    done = view.viewport().grab().toImage()
    doc.synchronous = True
    overview._cached = None  # drawn again in one go
    assert view.viewport().grab().toImage() == done


def test_the_views_zoom_settling_ends_the_overviews_gesture(qtbot, parts, benchmark_design):
    doc, scene, view, overview = _expanded_far(qtbot, parts, benchmark_design)
    view.zoom(1.1)
    assert overview.gesture
    qtbot.waitUntil(lambda: not overview.gesture, timeout=5000)  # (ZOOM_SETTLE_MS after the step)


def test_a_link_whose_new_figure_stays_in_its_band_is_not_drawn_again(qtbot, parts, benchmark_design, monkeypatch):
    """A link's pen is its band's: a new figure in the same band keeps the very pen, and the
    link is neither restyled in its tiles nor handed to the overview to gather again (a figure
    set switched on the 16x site gave 1,120 links a new figure, each in its band); a figure in
    another band gets the other pen, and both are told."""
    from planner import bands
    from widgets.canvas.painting import PaintJob

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    if not view.summary.current():  # (the links put in the view's layer, that strokes them)
        view.summary.build()
    told: list = []
    monkeypatch.setattr(view.summary, "restyled", lambda li: told.append(li))

    def nudged(util: float) -> float:  # another figure in the same band
        return util * (1.0 + 1e-9) if bands.band(util * (1.0 + 1e-9)) == bands.band(util) else util * (1.0 - 1e-9)

    at: dict[str, list] = {}  # box -> the links at it with a figure
    for li in scene.links:
        for end in (li.a.cid, li.b.cid) if li.util else ():
            at.setdefault(end, []).append(li)
    box, (one, other) = next((b, lis[:2]) for b, lis in at.items() if len(lis) >= 2)
    assert one.layer is view.summary
    pen, was = one.pen(), one.util
    one.util = nudged(one.util)
    assert one.restyle() is False and one.pen() is pen and not told
    one.util = 0.01 if bands.band(was) != "ok" else bands.OVER_FROM + 0.05
    assert one.restyle() is True and one.pen() is not pen and told == [one]
    assert one.pen().color().rgba() != pen.color().rgba()
    # the analysis painted again at their box: its figure comes back, in another band
    # than the one just set (told), while a link set to another figure of its own band is not
    other.util = nudged(other.util)
    fig = scene._figures
    job = PaintJob(doc.analysis, [box], [], fig.group_load, fig.binds)
    painted, restyled = scene._paint_boxes(job, lambda: False)
    assert painted == [box] and one in restyled and other not in restyled
    assert one.pen() is pen
