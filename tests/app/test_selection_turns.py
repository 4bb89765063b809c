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


def test_rows_stepped_through_with_the_arrow_keys_end_on_the_last_row_everywhere(window, qtbot):
    """Down pressed in the outline faster than the panels' turns: the outline drives the
    document's selection at each press, and the inspector ends on the last row's component,
    none stepping back to an earlier one."""
    from PySide6.QtTest import QTest

    w = window
    w.doc.synchronous = False
    for name in ("tree", "inspector"):
        w.docks[name].show()
        w.docks[name].raise_()
    tree, view = w.model_tree, w.model_tree.view
    w.doc.select(["sw1"])
    qtbot.waitUntil(lambda: tree.selected_ids() == ["sw1"] and w.inspector._ids == ["sw1"], timeout=3000)
    view.setFocus()
    chosen: list[list[str]] = []
    for _ in range(12):  # (group rows between select nothing)
        QTest.keyClick(view, Qt.Key.Key_Down)
        assert w.doc.selection == tree.selected_ids()
        if w.doc.selection:
            chosen.append(list(w.doc.selection))
        if len(chosen) == 3:
            break
    assert len(chosen) == 3 and len({c[0] for c in chosen}) == 3, chosen
    last = chosen[-1]
    assert w.inspector._ids != last  # (its turn has not come yet)
    qtbot.waitUntil(lambda: w.inspector._ids == last, timeout=3000)
    for _ in range(10):
        QApplication.processEvents()
    assert tree.selected_ids() == last == w.doc.selection and w.inspector._ids == last
