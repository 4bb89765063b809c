"""The canvas as an editor: HBAs dragged to another slot, drive bays, load / capacity on boxes,
one path's binding hop, wheel scrolling, stable expand, names that follow their attributes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from app.controller import Controller
from planner import edit
from planner.model import Topology
from planner.naming import label
from tests.widgets.test_canvas import drag, make_canvas, view_point
from widgets.canvas.view import EMPTY_HINT, LOW_DETAIL_SCALE
from widgets.paths import PathsPanel


@pytest.fixture
def canvas(qtbot, parts, one_drawer):
    doc, scene, view = make_canvas(qtbot, parts, one_drawer)
    scene.controller = Controller(doc, parts)
    scene.controller.connect_canvas(scene)
    return doc, scene, view


def drag_to(view, source: str, target: str) -> None:
    """Drag box ``source`` onto box ``target`` (both in view once ``source`` is centred)."""
    start = view_point(view, source)
    drag(view, start, view.mapFromScene(view.dscene.items_by_id[target].sceneBoundingRect().center()))


def wheel(view, dy: int, modifiers=Qt.KeyboardModifier.NoModifier, dx: int = 0) -> None:
    pos = QPointF(view.viewport().rect().center())
    event = QWheelEvent(
        pos,
        QPointF(view.viewport().mapToGlobal(pos.toPoint())),
        QPoint(0, 0),
        QPoint(dx, dy),
        Qt.MouseButton.NoButton,
        modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)


# -- HBAs ------------------------------------------------------------------------------------------


def test_the_hba_is_its_own_box_in_its_slot_row(canvas, qtbot):
    doc, scene, view = canvas
    hba = scene.items_by_id["hba.d1s1"]
    assert hba.parentItem() is scene.items_by_id["d1.s1"] and hba.kind == "hba"
    assert "PHB1" in scene.items_by_id["d1.s1"].toolTip() and "link0" in scene.items_by_id["d1.s1"].toolTip()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "hba.d1s1"))
    assert doc.selection == ["hba.d1s1"]
    assert scene.items_by_id["d1.s4"].box.label == "Slot 4 (empty)"


def test_drag_an_hba_to_a_free_slot_then_undo(canvas):
    doc, scene, view = canvas
    topo = doc.topology
    cable = topo.cable_at("hba.d1s1.0").id
    drag_to(view, "hba.d1s1", "d1.s4")
    assert topo["hba.d1s1"].parent == "d1.s4" and not topo.children("d1.s1", "hba")
    assert topo.cable_at("hba.d1s1.0").id == cable  # the cable went along
    assert scene.items_by_id["hba.d1s1"].parentItem() is scene.items_by_id["d1.s4"]
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert topo["hba.d1s1"].parent == "d1.s1"
    assert scene.items_by_id["hba.d1s1"].parentItem() is scene.items_by_id["d1.s1"]


def test_drag_an_hba_onto_a_taken_slot_is_refused(canvas):
    doc, scene, view = canvas
    messages = []
    doc.message.connect(messages.append)
    revision = doc.topology.revision
    drag_to(view, "hba.d1s1", "d1.s2")
    assert doc.topology["hba.d1s1"].parent == "d1.s1" and doc.topology.revision == revision
    assert doc.undo_stack.count() == 0
    assert messages and "Slot 2 of Drawer 1 already holds fcs1" in messages[-1] and "free slot" in messages[-1]


def test_an_uncabled_hba_is_selected_by_a_click_and_moved_by_a_drag(canvas, qtbot):
    doc, scene, view = canvas
    doc.run(edit.delete, [doc.topology.cable_at("hba.d1s1.0").id])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "hba.d1s1"))
    assert doc.selection == ["hba.d1s1"] and doc.topology.cable_at("hba.d1s1.0") is None
    drag_to(view, "hba.d1s1", "d1.s10")  # a slot, not a port: a move
    assert doc.topology["hba.d1s1"].parent == "d1.s10" and doc.topology.cable_at("hba.d1s1.0") is None
    drag_to(view, "hba.d1s1", "sw1.p0")  # onto a free switch port: a cable
    assert doc.topology.cable_at("hba.d1s1.0") is not None


def test_a_free_slot_lights_up_while_an_hba_is_dragged(canvas, qtbot):
    doc, scene, view = canvas
    start = view_point(view, "hba.d1s1")
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    assert scene.items_by_id["d1.s4"].port_state == "ok" and scene.items_by_id["d1.s2"].port_state == ""
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert all(i.port_state == "" for i in scene.items_by_id.values())


# -- drives, figures, paths ---------------------------------------------------------------------------


def test_drive_bays_appear_when_a_subsystem_is_expanded(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    assert "fastt1.e1.d1" not in scene.items_by_id
    scene.toggle_collapsed("fastt1")
    cells = {cid: i for cid, i in scene.items_by_id.items() if i.kind == "drive" and cid.startswith("fastt1.")}
    assert len(cells) == 28
    states = [i.box.state for i in cells.values()]
    assert states.count("free") == 10 and states.count("array:0") == 9 and states.count("array:1") == 9
    cell = cells["fastt1.e1.d14"]
    assert cell.parentItem() is scene.items_by_id["fastt1.e1"] and "free" in cell.toolTip()
    assert "RAID5 8+P #1" in cells["fastt1.e0.d1"].toolTip()
    doc.select(["fastt1.e1.d14"])  # a drive is selectable (its context menu acts on it)
    assert cell.isSelected() and scene.selected_ids() == ["fastt1.e1.d14"]


def test_boxes_show_load_and_capacity(canvas):
    doc, scene, view = canvas
    phb = next(i for i in scene.items_by_id.values() if i.kind == "phb")
    load = doc.analysis.result.components[phb.cid]
    text = phb.figure.text().replace("\n", " ")
    assert f"{load.load:,.0f} / {load.capacity:,.0f} MB/s" in text and "%" in text
    assert phb.figure.isVisible()
    hba = scene.items_by_id["hba.d1s1"]  # a one-line row: the percentage after the name
    assert hba.figure.text().endswith("%") and hba.figure.x() > hba.text.boundingRect().width()
    for item in scene.items_by_id.values():  # no text runs out of its box
        for t in (item.text, item.subtext, item.figure):
            if t is not None and t.text():
                assert t.x() + t.boundingRect().width() <= item.box.w + 0.5, (item.cid, t.text())


def test_choosing_a_path_marks_only_its_binding_hop(qtbot, canvas):
    doc, scene, view = canvas
    panel = PathsPanel(doc)
    qtbot.addWidget(panel)
    assert sum(1 for i in scene.items_by_id.values() if i.binds and i.bind_shown) > 1
    panel.view.selectRow(0)
    path = panel.path_at(0)
    marked = {cid for cid, i in scene.items_by_id.items() if i.binds and i.bind_shown}
    assert marked == {scene.diagram.visible(path.bottleneck)}
    load = doc.analysis.result.components[path.bottleneck]
    text = panel.detail.text()
    assert f"{path.mbps:,.1f} MB/s" in text and label(doc.topology, path.bottleneck) in text
    assert f"{load.load:,.0f} / {load.capacity:,.0f} MB/s" in text
    assert f"shared by {load.paths} paths" in text if load.paths > 1 else "used by this path alone" in text
    panel.view.clearSelection()
    assert sum(1 for i in scene.items_by_id.values() if i.binds and i.bind_shown) > 1
    assert panel.detail.isHidden()
    # only the boxes that bind a path are repainted when the marks change (the others look the same)
    repainted: list[str] = []
    for cid, item in scene.items_by_id.items():
        item.restyled = lambda cid=cid: repainted.append(cid)
    panel.view.selectRow(0)
    binding = {cid for cid, i in scene.items_by_id.items() if i.binds}
    assert set(repainted) - {c for c, i in scene.items_by_id.items() if i.highlighted} <= binding
    assert len(repainted) < len(scene.items_by_id) // 2


def test_a_shared_binding_hop_says_how_many_paths_share_it(qtbot, parts, worst_cabling):
    doc, scene, view = make_canvas(qtbot, parts, worst_cabling)
    panel = PathsPanel(doc)
    qtbot.addWidget(panel)
    result = doc.analysis.result
    shared = next(p for p in result.paths if result.components[p.bottleneck].paths > 1)
    assert panel.select_path(shared.id)
    load = result.components[shared.bottleneck]
    assert f"shared by {load.paths} paths" in panel.detail.text() and "backplane" in panel.detail.text().lower()
    marked = {cid for cid, i in scene.items_by_id.items() if i.binds and i.bind_shown}
    assert marked == {scene.diagram.visible(shared.bottleneck)}


# -- view -----------------------------------------------------------------------------------------


def test_wheel_scrolls_shift_wheel_scrolls_sideways_ctrl_wheel_zooms(canvas):
    doc, scene, view = canvas
    view.zoom(2.0)
    scale = view.transform().m11()
    v, h = view.verticalScrollBar(), view.horizontalScrollBar()
    v.setValue(v.maximum() // 2)
    h.setValue(h.maximum() // 2)
    top, left = v.value(), h.value()
    wheel(view, -120)
    assert v.value() > top and h.value() == left and view.transform().m11() == scale
    wheel(view, -120, Qt.KeyboardModifier.ShiftModifier)
    assert h.value() > left and view.transform().m11() == scale
    wheel(view, 120, Qt.KeyboardModifier.ControlModifier)
    assert view.transform().m11() == pytest.approx(scale * 1.15)


def test_zoomed_far_out_boxes_become_summaries(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.set_all_collapsed(False)
    view.zoom_to_fit()
    assert view.transform().m11() < LOW_DETAIL_SCALE and scene.low_detail[0]
    view.zoom(0.3 / view.transform().m11())
    assert scene.low_detail[0]
    sw = scene.items_by_id["sw1"]
    assert sw.summary is not None and sw.summary.isVisible() and sw.summary.text() == "sw1"
    assert not scene.items_by_id["sw1.p0"].text.isVisible()
    view.zoom(1 / view.transform().m11())
    assert not scene.low_detail[0] and scene.items_by_id["sw1.p0"].text.isVisible() and not sw.summary.isVisible()


def test_zoom_to_fit_frames_every_box_without_visiting_every_item(canvas, monkeypatch):
    """Zoom to fit takes the diagram's size, not Qt's walk over every item (107-172 ms on the
    16x site expanded): the frame holds every box, and is no larger than the items' bounds and
    the diagram's margin; a box placed left of the origin is shown at it, in the frame."""
    doc, scene, view = canvas
    scene.set_all_collapsed(False)
    walked = scene.itemsBoundingRect()
    monkeypatch.setattr(scene, "itemsBoundingRect", lambda: pytest.fail("walked every item"))
    rect = scene.items_rect()
    assert rect.contains(walked.adjusted(0, 0, -1, -1))
    assert rect.width() <= walked.right() + 40 and rect.height() <= walked.bottom() + 40
    scene.controller.move_boxes({"sw1": (-300.0, -50.0)})  # (a file may hold such a place)
    sw1 = scene.items_by_id["sw1"].sceneBoundingRect()
    assert sw1.left() == -0.5 and sw1.top() == -0.5  # (placed at the origin, its outline around it)
    view.zoom_to_fit()
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(sw1.adjusted(0.5, 0.5, -0.5, -0.5))


def test_a_box_dragged_past_the_origin_stops_at_it_with_the_others_dragged(canvas, qtbot):
    """Boxes dragged left of or above the diagram's origin are kept at it, all by one shift:
    the scene, the overview and the build sheet begin there."""
    doc, scene, view = canvas
    view.zoom(0.35 / view.transform().m11())  # (the whole diagram in view, space left of it)
    item = scene.items_by_id["sw1"]
    doc.select(["sw1", "p690"])
    title = view.mapFromScene(item.sceneBoundingRect().topLeft() + QPointF(30, 6))
    origin = view.mapFromScene(QPointF(0, 0))
    assert origin.x() > 60  # (room left of the origin to drag into)
    before = {c: scene.items_by_id[c].pos() for c in ("sw1", "p690")}
    drag(view, title, QPoint(origin.x() - 50, title.y()))
    placed = doc.topology.positions
    assert set(placed) == {"sw1", "p690"}
    assert min(x for x, _ in placed.values()) == 0 and all(y >= 0 for _, y in placed.values())
    shift = [placed[c][0] - before[c].x() for c in ("sw1", "p690")]
    assert abs(shift[0] - shift[1]) <= 10  # (moved together: only the grid's rounding apart)


def test_the_legend_keeps_out_of_the_way(canvas, qtbot):
    doc, scene, view = canvas
    view.viewport().repaint()
    rect = view.mapToScene(view.legend_rect.toRect()).boundingRect()
    assert not [i for i in scene.items(rect) if hasattr(i, "cid") and i in scene.items_by_id.values()]


def test_an_empty_canvas_says_how_to_begin(qtbot, parts):
    doc, scene, view = make_canvas(qtbot, parts, Topology("blank"))
    assert not scene.items_by_id
    assert "Drag a server from Parts" in EMPTY_HINT and "File > Open example" in EMPTY_HINT

    def inked(image) -> int:  # pixels of the middle band that are not background
        y0, bg = image.height() // 2, image.pixelColor(5, 5)
        return sum(1 for y in range(y0 - 10, y0 + 10) for x in range(image.width()) if image.pixelColor(x, y) != bg)

    assert inked(view.viewport().grab().toImage()) > 200  # the hint is drawn
    doc.run(edit.add_server, parts["7040-681"])
    assert scene.items_by_id and "p690" in scene.items_by_id


# -- layout stability ----------------------------------------------------------------------------


def top_level_places(scene) -> dict[str, tuple[float, float]]:
    return {cid: (i.pos().x(), i.pos().y()) for cid, i in scene.items_by_id.items() if i.parentItem() is None}


def test_expanding_one_subsystem_keeps_the_others_in_their_order(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    before = top_level_places(scene)
    f1 = before["fastt1"]
    scene.toggle_collapsed("fastt1")
    after = top_level_places(scene)
    assert after["fastt1"] == f1  # the expanded box stays where it was
    for cid in ("p690", "d1", "d7", "sw1", "sw7"):  # left of it: nothing moves
        assert after[cid] == before[cid]
    subs = [f"fastt{n}" for n in range(2, 57)]
    for a in subs:  # the others keep their grid: the same rows and columns, in the same order
        for b in subs:
            assert (before[a][0] < before[b][0]) == (after[a][0] < after[b][0])
            assert (before[a][1] < before[b][1]) == (after[a][1] < after[b][1])
    scene.toggle_collapsed("fastt1")
    assert top_level_places(scene) == before


def test_expanding_a_drawer_only_pushes_what_is_below_or_right(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    before = top_level_places(scene)
    scene.toggle_collapsed("d3")
    after = top_level_places(scene)
    assert after["d3"] == before["d3"] and after["d1"] == before["d1"] and after["d2"] == before["d2"]
    assert after["d4"][0] == before["d4"][0] and after["d4"][1] > before["d4"][1]
    switches = [after[f"sw{n}"][1] - before[f"sw{n}"][1] for n in range(1, 8)]
    assert switches == [0.0] * 7  # the switch column moves right as a whole, not down


def test_the_expand_state_survives_edits(qtbot, parts, benchmark_design):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design)
    scene.toggle_collapsed("fastt1")
    scene.toggle_collapsed("d1")
    places = top_level_places(scene)
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)  # a relabel
    doc.run(edit.move_hba, "hba.d1s1", "d1.s4")  # a relayout
    assert not scene.items_by_id["fastt1"].box.collapsed and not scene.items_by_id["d1"].box.collapsed
    assert scene.items_by_id["d2"].box.collapsed
    assert top_level_places(scene) == places


# -- names from attributes ---------------------------------------------------------------------------


def test_an_array_label_follows_its_attributes(qtbot, canvas):
    doc, scene, view = canvas
    panel = PathsPanel(doc)
    qtbot.addWidget(panel)
    assert scene.items_by_id["fastt1.arr1"].box.label.startswith("RAID5 8+P #1")
    drives = doc.topology["fastt1.arr1"]["drives"]
    doc.run(edit.set_attr, "fastt1.arr1", "drives", drives[:5])
    assert scene.items_by_id["fastt1.arr1"].box.label.startswith("RAID5 4+P #1")
    assert label(doc.topology, "fastt1.arr1") == "RAID5 4+P #1 on fastt1"
    doc.run(edit.set_attr, "fastt1.arr1", "drives", drives[:4])
    doc.run(edit.set_attr, "fastt1.arr1", "raid_level", 10)
    assert label(doc.topology, "fastt1.arr1") == "RAID10 2+2 #1 on fastt1"
    arrays = {r.ids[2]: r.cells[2] for r in panel.model.rows}  # the paths table follows too
    assert any("RAID" not in text for text in arrays.values())
    doc.run(edit.set_attr, "fastt1.arr1", "name", "logs")  # a name of the user's own stays
    assert label(doc.topology, "fastt1.arr1") == "logs on fastt1"
    assert scene.items_by_id["fastt1.arr1"].box.label.startswith("logs: RAID10 2+2")
