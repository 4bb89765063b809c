"""Design > Grow to a higher target...: reached from the Design menu, the plan live as the target
changes, a refused target, the grown design as a new scenario in one undo step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.actions import design_actions


def _menu_action(window, action_id):
    acts = [a for a in window.design_menu.actions() if a.objectName() == f"action-{action_id}"]
    assert acts, [a.objectName() for a in window.design_menu.actions()]
    return acts[0]


def test_offered_in_the_design_menu():
    assert "grow-design" in [a.id for a in design_actions()]


def test_grow_through_the_design_menu(window, qtbot):
    doc = window.doc
    base = doc.topology
    old = {c.id: c.copy() for c in base.components()}
    _menu_action(window, "grow-design").trigger()
    dlg = window.last_dialog
    assert dlg.windowTitle() == "Grow the design"
    assert dlg.read.value() == 3000  # 1.25 x the 2,400 MB/s it gives, rounded up
    assert "About: 4 HBAs (0 in free slots" in dlg.summary.text() and "1 drawer," in dlg.summary.text()
    dlg.read.setValue(4800)  # live: the plan follows the target
    assert "About: 16 HBAs" in dlg.summary.text()
    dlg.read.setValue(30000)
    assert not dlg.ok_button().isEnabled() and "at most 7 drawers" in dlg.reason.text()
    dlg.read.setValue(2000)
    assert not dlg.ok_button().isEnabled() and "nothing to add" in dlg.reason.text()
    dlg.read.setValue(3000)
    assert dlg.ok_button().isEnabled(), dlg.reason.text()
    qtbot.mouseClick(dlg.ok_button(), Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert not dlg.isVisible()
    assert list(doc.project.scenarios) == ["Base", "Grown to 3,000 MB/s read"]
    grown = doc.topology
    assert grown is not base and len(grown.of_kind("drawer")) == 2
    assert all(grown.get(cid) == c for cid, c in old.items())
    assert all(base.get(cid) == c for cid, c in old.items()) and len(base) == len(old)
    assert window.last_growth.analysis.aggregate >= 3000
    doc.undo_stack.undo()  # one undo step takes it all back
    assert list(doc.project.scenarios) == ["Base"] and doc.topology is base
