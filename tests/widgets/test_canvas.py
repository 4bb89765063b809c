"""The canvas with real gestures: drops, cable drawing, moving, collapsing, selection, keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from app.controller import Controller
from app.document import Document
from planner import edit
from planner.io import Project
from widgets.canvas import PART_MIME, DiagramScene, DiagramView


def make_canvas(qtbot, parts, topo, width=1400, height=900):
    doc = Document(parts)
    doc.synchronous = True
    scene = DiagramScene(doc)
    view = DiagramView(scene)
    qtbot.addWidget(view)
    # the document and the scene go with the view at the test's end, on the GUI thread, rather
    # than whenever the cyclic collector finds them (in a later test's event loop)
    doc.setParent(view)
    scene.setParent(view)
    view.resize(width, height)
    doc.replace_project(Project(topo), None)
    view.show()
    qtbot.waitExposed(view)
    return doc, scene, view


def settle(view) -> None:
    """The view's zoom settled, as ZOOM_SETTLE_MS after the last wheel step (links smooth again,
    the overview's gesture over); a test's ``view.zoom`` jumps to a zoom rather than wheels."""
    view._smooth_again.stop()
    view.summary.rough = False
    view.gesture_over()


@pytest.fixture
def canvas(qtbot, parts, one_drawer):
    doc, scene, view = make_canvas(qtbot, parts, one_drawer)
    # intent from the canvas goes to a controller, as in the main window
    scene.controller = Controller(doc, parts)
    scene.controller.connect_canvas(scene)
    return doc, scene, view


def drag(view, start: QPoint, end: QPoint, steps: int = 6) -> None:
    """A left-button drag (QTest's mouseMove does not hold the button)."""
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtTest import QTest

    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, steps + 1):
        p = QPointF(start + (end - start) * (i / steps))
        ev = QMouseEvent(
            QMouseEvent.Type.MouseMove,
            p,
            view.viewport().mapToGlobal(p),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(view.viewport(), ev)
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def view_point(view, cid: str) -> QPoint:
    item = view.dscene.items_by_id[cid]
    view.centerOn(item)
    return view.mapFromScene(item.sceneBoundingRect().center())


def test_renders_the_benchmark_to_png(qtbot, parts, benchmark_design, tmp_path):
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, 1600, 1000)
    view.zoom_to_fit()
    out = tmp_path / "benchmark.png"
    assert view.grab().save(str(out))
    assert out.stat().st_size > 20_000
    drawers = [i for i in scene.items_by_id.values() if i.kind == "drawer"]
    assert len(drawers) == 7 and all(i.box.collapsed for i in drawers)
    # analysis reached the canvas: a collapsed drawer shows its load, binding boxes are marked
    assert "2,400 MB/s" in drawers[0].subtext.text()
    assert any(i.binds for i in drawers)


def test_drop_an_hba_into_a_slot(canvas):
    doc, scene, view = canvas
    assert not doc.topology.children("d1.s4", "hba")
    mime = QMimeData()
    mime.setData(PART_MIME, b"FC6239")
    pos = view_point(view, "d1.s4")
    event = QDropEvent(
        QPointF(pos), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    view.dropEvent(event)
    assert doc.topology.children("d1.s4", "hba")
    doc.undo_stack.undo()
    assert not doc.topology.children("d1.s4", "hba")


def test_draw_a_cable_between_two_free_ports(canvas, qtbot):
    doc, scene, view = canvas
    doc.run(edit.delete, [doc.topology.cable_at("hba.d1s1.0").id])
    assert doc.topology.cable_at("sw1.p0") is None
    start = view_point(view, "d1.s1")
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    assert scene.items_by_id["sw1.p0"].port_state == "ok"  # compatible free ports light up
    assert scene.items_by_id["sw1.p1"].port_state == ""  # taken
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=start)  # released on itself: nothing
    assert doc.topology.cable_at("hba.d1s1.0") is None
    item = scene.items_by_id["sw1.p0"]
    drag(view, start, view.mapFromScene(item.sceneBoundingRect().center()))
    cable = doc.topology.cable_at("hba.d1s1.0")
    assert cable is not None and {cable["a"], cable["b"]} == {"hba.d1s1.0", "sw1.p0"}
    doc.undo_stack.undo()
    assert doc.topology.cable_at("hba.d1s1.0") is None


def test_escape_cancels_a_cable(canvas, qtbot):
    doc, scene, view = canvas
    doc.run(edit.delete, [doc.topology.cable_at("hba.d1s1.0").id])
    cables = len(doc.topology.of_kind("cable"))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "d1.s1"))
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert all(i.port_state == "" for i in scene.items_by_id.values())
    end = view_point(view, "sw1.p0")
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    assert len(doc.topology.of_kind("cable")) == cables


def test_move_a_box_snaps_to_grid_and_undoes(canvas, qtbot):
    doc, scene, view = canvas
    item = scene.items_by_id["sw1"]
    view.centerOn(item)
    title = view.mapFromScene(item.sceneBoundingRect().topLeft() + QPointF(30, 6))
    drag(view, title, title + QPoint(100, 35))
    assert "sw1" in doc.topology.positions
    x, y = doc.topology.positions["sw1"]
    assert x % 10 == 0 and y % 10 == 0
    assert doc.undo_stack.count() >= 1
    doc.undo_stack.undo()
    assert "sw1" not in doc.topology.positions


def test_double_click_collapses_and_expands(canvas, qtbot):
    doc, scene, view = canvas
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "fastt1"))
    assert scene.items_by_id["fastt1"].box.collapsed and "fastt1.A1" not in scene.items_by_id
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "fastt1"))
    assert "fastt1.A1" in scene.items_by_id


def test_click_selects_and_delete_key_deletes(canvas, qtbot):
    doc, scene, view = canvas
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_point(view, "d1.s2"))
    assert doc.selection == ["d1.s2"]
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert not doc.topology.children("d1.s2", "hba")
    assert doc.topology.cable_at("sw1.p2") is None  # its cable went with it


def test_selection_from_the_document_shows_on_canvas(canvas):
    doc, scene, view = canvas
    doc.select(["fastt2", "sw1.p5"])
    assert scene.items_by_id["fastt2"].isSelected() and scene.items_by_id["sw1.p5"].isSelected()


def test_a_selection_from_the_document_changes_the_canvas_once(canvas):
    """Selecting many components from the document (a finding's 900 subsystems on a site) signals
    one selection change, not one per box (each handler reads the whole selection: it took 0.8 s);
    the boxes, their outlines and the document agree afterwards, and a box no longer chosen is
    deselected."""
    doc, scene, view = canvas
    changes = []
    scene.selectionChanged.connect(lambda: changes.append(1))
    subs = [c.id for c in doc.topology.of_kind("subsystem")]
    doc.select(["sw1", *subs])
    assert len(changes) == 1 and len(subs) > 3
    shown = {i.cid for i in scene.selectedItems()}
    assert shown == {"sw1", *subs} and set(doc.selection) == shown
    assert view._selected == set(scene.selectedItems())  # the view restyled exactly those boxes
    doc.select(subs[:1])
    assert len(changes) == 2 and {i.cid for i in scene.selectedItems()} == {subs[0]}
    doc.select(subs[:1])  # nothing to change: no signal
    assert len(changes) == 2
    scene.selectionChanged.disconnect()


def test_path_highlight(canvas):
    doc, scene, view = canvas
    path = doc.analysis.result.paths[0]
    doc.highlight_path(path)
    lit = {cid for cid, i in scene.items_by_id.items() if i.highlighted}
    assert {
        "d1",
        path.hba_port.replace(".0", "").replace("hba.d1s", "d1.s"),
        "sw1.asic0",
        path.host_port,
        "fastt1",
    } <= lit
    assert "fastt8" not in lit
    doc.highlight_path(None)
    assert not any(i.highlighted for i in scene.items_by_id.values())


def test_wheel_zooms(canvas, qtbot):
    doc, scene, view = canvas
    before = view.transform().m11()
    view.zoom(1.15)
    assert view.transform().m11() == pytest.approx(before * 1.15)
    view.zoom_to_fit()
    rect = view.mapToScene(view.viewport().rect()).boundingRect()
    assert rect.contains(scene.itemsBoundingRect().center())


def test_an_attribute_edit_relabels_and_a_structural_edit_relays_out(canvas):
    doc, scene, view = canvas
    before = dict(scene.items_by_id)
    array = scene.items_by_id["fastt1.arr1"]
    text = array.text.text()
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)
    assert scene.items_by_id == before and scene.items_by_id["fastt1.arr1"] is array  # no item made or dropped
    assert "256 KB segment" in array.box.label and array.text.text() != text
    doc.run(edit.set_attr, "sw1", "name", "core")
    assert scene.items_by_id["sw1"] is before["sw1"] and scene.items_by_id["sw1"].text.text().startswith("core")
    doc.run(edit.delete, ["hba.d1s2"])  # structural: laid out again
    assert scene.items_by_id["d1.s2"] is not before["d1.s2"]
    assert "(empty)" in scene.items_by_id["d1.s2"].box.label


def test_a_stale_analysis_is_never_painted(canvas):
    """An analysis started on an older revision arrives after an edit: nothing of it is shown."""
    from app.document import compute_bundle

    doc, scene, view = canvas
    topo = doc.topology
    stale = compute_bundle(topo.clone(), topo.revision, doc.figures, doc.direction)  # started now...
    stale.origin = topo
    for load in stale.result.components.values():  # ...and it says something the canvas would show
        if load.capacity:
            load.load = load.capacity * 2
    doc.run(edit.set_attr, "fastt1.arr1", "segment_kb", 256)  # ...but the design moved on
    assert doc.is_current(doc.analysis) and not doc.is_current(stale)
    shown = {cid: (i.util, i.binds, i.toolTip()) for cid, i in scene.items_by_id.items()}
    links = [li.util for li in scene.links]
    revision = scene.painted_revision
    assert revision == topo.revision
    doc._done(stale)  # the late result reaches the document (the worker's done signal)...
    doc.analysisReady.emit(stale)  # ...and even if it reached the canvas directly
    assert doc.analysis is not stale
    assert scene.painted_revision == revision
    assert {cid: (i.util, i.binds, i.toolTip()) for cid, i in scene.items_by_id.items()} == shown
    assert [li.util for li in scene.links] == links
    assert not any(i.util is not None and i.util >= 2 for i in scene.items_by_id.values())


def test_a_result_of_another_scenario_is_not_painted(canvas):
    doc, scene, view = canvas
    base_bundle = doc.analysis
    Controller(doc, {}).add_scenario("B")  # another design object...
    assert base_bundle.revision == doc.topology.revision  # ...at the same revision number
    assert not doc.is_current(base_bundle)
    painted = {cid: i.toolTip() for cid, i in scene.items_by_id.items()}
    doc.analysisReady.emit(base_bundle)
    assert {cid: i.toolTip() for cid, i in scene.items_by_id.items()} == painted
    assert doc.analysis is not base_bundle


def test_hovering_a_box_shows_its_analysis_tooltip(canvas, qtbot):
    """A box's analysis tooltip (its parts' loads, the paths it binds) is made when Qt asks the
    scene for it, not on every paint: the tooltip shown for the pointer over a box reads it."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    doc, scene, view = canvas
    cid = next(c for c, i in scene.items_by_id.items() if i.binds and i.box.kind == "hba")
    item = scene.items_by_id[cid]
    assert item._tip_due is True  # painted, its tooltip not made yet (nor anything kept to make it)
    view.centerOn(item)
    pos = view_point(view, cid)
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos)))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=2000)
    text = QToolTip.text()
    QToolTip.hideText()
    assert text == item.toolTip() and item._tip_due is False
    assert text.startswith(item.base_tip()) and "MB/s" in text and f"binds {item.binds} path" in text


def test_texts_wrapped_once_per_text_and_width(qtbot, parts, benchmark_design, monkeypatch):
    """A box's texts are wrapped and elided once per text and width: the seven drawers alike
    share their folded load's line, and a direction switched back and forth wraps no text
    again; the lines are those wrapping afresh gives; the memo starts again when full."""
    from widgets.canvas import items

    items._WRAPPED.clear()
    calls = []
    real = items._wrap
    monkeypatch.setattr(items, "_wrap", lambda *a: calls.append(a[0]) or real(*a))
    doc, scene, view = make_canvas(qtbot, parts, benchmark_design, 1600, 1000)
    drawers = [i for i in scene.items_by_id.values() if i.kind == "drawer"]
    sub = drawers[0].subtext.text()
    assert len(drawers) == 7 and {d.subtext.text() for d in drawers} == {sub}
    assert sum(1 for k in items._WRAPPED if "\n".join(items._WRAPPED[k]) == sub) == 1

    def show(direction):
        doc.set_direction(direction)
        doc.wait_for_analysis(20000)
        qtbot.waitUntil(lambda: scene._job is None, timeout=10000)

    show("write")
    show("read")
    after_one_round = len(calls)
    assert after_one_round > 0
    show("write")
    show("read")
    assert len(calls) == after_one_round, calls[after_one_round:]  # (every text seen in the first round)
    fm = items.metrics(drawers[0].subtext.font())
    for (text, fm_id, width, lines, sep), got in list(items._WRAPPED.items())[:50]:
        if fm_id == id(fm):
            assert got == tuple(real(text, fm, width, lines, sep))
    monkeypatch.setattr(items, "WRAPPED_KEPT", len(items._WRAPPED))
    drawers[0].set_subtext("a text never seen")
    assert [k[0] for k in items._WRAPPED] == ["a text never seen"]
    assert drawers[0].subtext.text() == "a text never seen"
