"""Issue 8: HBAs are given to an LPAR by dragging them onto its row in the model tree."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from planner import edit_create as ec
from widgets.outline_model import MIME_IDS

HBAS = ["hba.d1s1", "hba.d1s2", "hba.d1s3"]
ROWS = ["hba.d1s1", "d1.s2", "hba.d1s3.0"]  # an HBA, the slot holding one, an HBA's port


def _index(tree, cid):
    return tree.proxy.mapFromSource(tree.items[cid].index())


def _with_lpar2(window):
    assert window.doc.run(ec.new_lpar, "p690", "lpar2") is not None
    return "p690.lpar2"


def _shown_tree(window, qtbot):
    window.docks["tree"].raise_()
    tree = window.model_tree
    qtbot.waitExposed(tree.view)
    tree.view.expandAll()
    return tree


def _lpars(topo):
    return [topo[h]["lpar"] for h in HBAS]


def _send_drop(view, data, index) -> bool:
    """Drag ``data`` over ``index`` and drop it there, as Qt delivers an external drag."""
    view.scrollTo(index)
    pos = QPointF(view.visualRect(index).center())
    actions = Qt.DropAction.CopyAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(pos.toPoint(), actions, data, buttons, mods)
    QApplication.sendEvent(view.viewport(), enter)
    move = QDragMoveEvent(pos.toPoint(), actions, data, buttons, mods)
    QApplication.sendEvent(view.viewport(), move)
    if not move.isAccepted():
        return False
    drop = QDropEvent(pos, actions, data, buttons, mods)
    QApplication.sendEvent(view.viewport(), drop)
    return drop.isAccepted()


def test_dragging_hbas_onto_an_lpar_row_is_one_undo_step(window, qtbot):
    doc = window.doc
    lpar2 = _with_lpar2(window)
    tree = _shown_tree(window, qtbot)
    data = tree.proxy.mimeData([_index(tree, r) for r in ROWS])
    assert data.hasFormat(MIME_IDS)
    steps = doc.undo_stack.count()
    assert _send_drop(tree.view, data, _index(tree, lpar2))
    assert _lpars(doc.topology) == [lpar2] * 3
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert _lpars(doc.topology) == ["p690.lpar1"] * 3


def test_only_hba_rows_drag_and_only_lpar_rows_take_the_drop(window, qtbot):
    lpar2 = _with_lpar2(window)
    tree = _shown_tree(window, qtbot)
    drag = Qt.ItemFlag.ItemIsDragEnabled
    assert all(tree.proxy.flags(_index(tree, r)) & drag for r in ROWS)
    assert not tree.proxy.flags(_index(tree, "d1")) & drag
    assert not tree.proxy.flags(_index(tree, lpar2)) & drag
    data = tree.proxy.mimeData([_index(tree, "hba.d1s1")])
    copy = Qt.DropAction.CopyAction
    assert tree.proxy.canDropMimeData(data, copy, -1, -1, _index(tree, lpar2))
    for other in ("p690", "d1", "fastt1", "hba.d1s2", "z.Z_D1_FCS0_FASTT1_A"):
        assert not tree.proxy.canDropMimeData(data, copy, -1, -1, _index(tree, other)), other
        assert not _send_drop(tree.view, data, _index(tree, other)), other
    assert window.doc.topology["hba.d1s1"]["lpar"] == "p690.lpar1"


def test_the_drop_through_the_trees_own_drop_handling(window):
    tree, doc = window.model_tree, window.doc
    lpar2 = _with_lpar2(window)
    data = tree.proxy.mimeData([_index(tree, "hba.d1s2"), _index(tree, "hba.d1s3")])
    assert tree.proxy.dropMimeData(data, Qt.DropAction.CopyAction, -1, -1, _index(tree, lpar2))
    assert [doc.topology[h]["lpar"] for h in HBAS] == ["p690.lpar1", lpar2, lpar2]
    doc.undo_stack.undo()
    assert _lpars(doc.topology) == ["p690.lpar1"] * 3


def test_dropping_on_the_lpar_they_already_belong_to_says_so(window):
    tree, doc = window.model_tree, window.doc
    steps = doc.undo_stack.count()
    data = tree.proxy.mimeData([_index(tree, "hba.d1s1")])
    tree.proxy.dropMimeData(data, Qt.DropAction.CopyAction, -1, -1, _index(tree, "p690.lpar1"))
    assert doc.undo_stack.count() == steps
    assert "already belong to" in doc.last_refusal
