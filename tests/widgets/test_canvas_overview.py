"""Zoomed far out the canvas shows one overview item (summary boxes, no per-box Python painting)
and comes back to the boxes when zoomed in; the overview follows the analysis' colours."""

from __future__ import annotations

from PySide6.QtGui import QImage, QPainter

from planner import edit
from tests.widgets.test_canvas import make_canvas
from widgets.canvas.overview import FAR_SCALE, OverviewItem


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
