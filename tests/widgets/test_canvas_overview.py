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
