"""In the editor a box clicked on the canvas is selected there at once, and the side panels
(the inspector, the outline) show it on later turns of the event loop, one panel a turn: on a
site, each of them in the click's turn made one block of 15-30 ms (widgets.deferred)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def _view_point(view, cid):
    item = view.dscene.items_by_id[cid]
    view.centerOn(item)
    return view.mapFromScene(item.sceneBoundingRect().center())


def test_a_click_on_the_canvas_reaches_the_panels_on_later_turns(window, qtbot):
    w = window
    w.doc.synchronous = False  # (as the editor runs)
    for name in ("tree", "inspector"):
        w.docks[name].show()
        w.docks[name].raise_()
    qtbot.waitUntil(lambda: w.scene.items_by_id.get("hba.d1s1") is not None, timeout=5000)
    inspector, tree = w.inspector, w.model_tree
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=_view_point(w.view, "hba.d1s1"))
    assert w.doc.selection == ["hba.d1s1"] and w.scene.items_by_id["hba.d1s1"].isSelected()
    assert inspector._ids != ["hba.d1s1"]  # not in the click's turn
    seen = []
    for _ in range(50):
        QApplication.processEvents()
        seen.append((inspector._ids == ["hba.d1s1"], tree.selected_ids() == ["hba.d1s1"]))
        if all(seen[-1]):
            break
    assert all(seen[-1]), seen
    assert not all(seen[0])  # one panel a turn: both were not shown in one
    assert inspector.info_text("Id") == "hba.d1s1" and inspector.field("name") is not None
    # the newest selection wins over one still waiting for its turn
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=_view_point(w.view, "sw1"))
    w.doc.select(["fastt1"])
    qtbot.waitUntil(lambda: inspector._ids == ["fastt1"] and tree.selected_ids() == ["fastt1"], timeout=3000)
    for _ in range(5):
        QApplication.processEvents()
    assert inspector._ids == ["fastt1"] and tree.selected_ids() == ["fastt1"]
