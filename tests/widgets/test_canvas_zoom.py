"""Zooming across the canvas's levels of detail (summary boxes below 0.6, the overview below
0.25): the items in view brought at once and the rest in slices, and the zooms not shown
readied when idle (widgets/canvas/detail.py)."""

from __future__ import annotations

from planner import edit
from tests.widgets.test_canvas import make_canvas
from widgets.canvas.items import BoxItem
from widgets.canvas.overview import FAR_SCALE
from widgets.canvas.view import LOW_DETAIL_SCALE


def test_a_zoom_across_the_summary_threshold_brings_the_boxes_in_view_at_once_and_the_rest_in_slices(
    qtbot, parts, benchmark_design
):
    """Zoomed in across LOW_DETAIL_SCALE, the boxes the view shows leave summary mode before
    the next paint and the others a slice at a time (every box at once blocked the 16x site's
    zoom 134-210 ms); a box scrolled into view before its slice is brought as the view shows it;
    in the end every box is as a pass over all of them leaves it."""
    from widgets.canvas.view import LOW_DETAIL_SCALE

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, width=700, height=450)
    scene.set_all_collapsed(False)
    doc.synchronous = False  # (the design shown; from now on as in the editor)
    view.zoom(LOW_DETAIL_SCALE * 0.8 / view.transform().m11())
    qtbot.waitUntil(lambda: not scene.detail_pending(), timeout=10000)
    assert all(item.low for item in scene.items_by_id.values())
    view.centerOn(0, 0)

    def in_view() -> set[str]:
        area = view.mapToScene(view.viewport().rect()).boundingRect()
        return {i.cid for i in scene.items(area) if isinstance(i, BoxItem)}

    view.zoom(1.0 / view.transform().m11())
    assert scene.detail_pending()
    shown = in_view()
    assert shown and not any(scene.items_by_id[c].low for c in shown)  # (in view: at once)
    left = {c for c, item in scene.items_by_id.items() if item.low}
    assert len(left) > len(scene.items_by_id) / 2  # (the rest: later)
    bottom = max(left, key=lambda c: scene.items_by_id[c].sceneBoundingRect().bottom())
    view.centerOn(scene.items_by_id[bottom])  # scrolled to boxes not yet brought
    assert not scene.items_by_id[bottom].low and not any(scene.items_by_id[c].low for c in in_view())
    qtbot.waitUntil(lambda: not scene.detail_pending(), timeout=10000)
    assert not any(item.low for item in scene.items_by_id.values())
    looks = {
        cid: (i.low, i.flags().value, i.text is not None and i.text.isVisible()) for cid, i in scene.items_by_id.items()
    }
    scene.set_low_detail(*scene.low_detail, force=True)
    qtbot.waitUntil(lambda: not scene.detail_pending(), timeout=10000)
    assert looks == {
        cid: (i.low, i.flags().value, i.text is not None and i.text.isVisible()) for cid, i in scene.items_by_id.items()
    }


def test_while_far_out_and_idle_the_views_layer_is_made_ready_for_the_way_back(qtbot, parts, benchmark_design):
    """Far out the view shows the overview and its summary layer does not follow the items
    (every group expanded there); idle, the scene cuts the layer's tiles and gathers their
    batches a slice at a time, so the first paint back at a summary zoom only draws (the 16x
    site expanded: 180-190 ms of cutting and gathering in that paint)."""
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    doc.synchronous = False  # (as in the editor)
    view.zoom(FAR_SCALE * 0.5 / view.transform().m11())
    assert scene.far
    scene.set_all_collapsed(False)  # (the items made again while far out)
    layer = view.summary
    qtbot.waitUntil(lambda: scene._build is None and scene.painted_revision == doc.topology.revision, timeout=10000)
    assert not layer.current()
    qtbot.waitUntil(lambda: layer.current() and layer._far is None, timeout=20000)
    assert all(t.boxes is not None and t.lines is not None for t in layer.tiles.values())
    cut = []
    real = type(layer)._cutting
    layer._cutting = lambda: cut.append(1) or real(layer)
    view.zoom(LOW_DETAIL_SCALE * 0.5 / view.transform().m11())
    assert not scene.far and view.scene() is scene
    view.viewport().grab()
    assert cut == []  # (nothing cut in the paint: ready)


def test_the_tiles_a_layer_cuts_again_are_freed_a_little_at_a_time(qtbot, parts, benchmark_design):
    """Cut into tiles again, the layer hands its former tiles to the scene's grave, each link on
    its own (a link frees its lines over the tiles: the 16x site's tiles, all gathered, took
    210-260 ms to free at once when a scenario was shown; 64 links at a time, 30-40 ms)."""
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    layer = view.summary
    if not layer.current():
        layer.build()
    for tile in layer.tiles.values():
        tile.gather()
    links = {li for t in layer.tiles.values() for li in t.links}
    assert links and not scene._grave
    scene._grave.dig(None)
    for _ in layer._cutting():  # (cut again)
        pass
    ids = {id(li) for li in links}
    buried = [x for x in scene._grave._heap if isinstance(x, list) and len(x) == 1 and id(x[0]) in ids]
    assert len(buried) >= len(links)
    assert scene._grave.dig(None) and not scene._grave


def test_at_a_working_zoom_and_idle_the_layer_gathers_its_summary_boxes_for_a_zoom_out(
    qtbot, parts, benchmark_design, monkeypatch
):
    """At 1:1 the layer draws only links; an edit there invalidates its tiles' batches of
    summary boxes, which a zoom out would gather in its first paint (25-30 ms on the benchmark
    expanded): idle, the scene has them gathered a slice at a time."""
    import widgets.canvas.morph as morph_module

    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    doc.synchronous = False  # (as in the editor)
    view.zoom(1.0 / view.transform().m11())
    layer = view.summary
    monkeypatch.setattr(morph_module, "WAKE_AFTER_MS", 10)
    doc.run(edit.delete, [doc.topology.ids_of_kind("subsystem")[0]])
    qtbot.waitUntil(lambda: scene.painted_revision == doc.topology.revision, timeout=10000)
    qtbot.waitUntil(lambda: layer.current() and all(t.boxes is not None for t in layer.tiles.values()), timeout=10000)
    assert not scene.low_detail[0]  # (gathered while zoomed in)
