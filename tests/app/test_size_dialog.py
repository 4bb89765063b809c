"""Design > Size to a target...: the live steps, a refused target, the sized design as a new
scenario in one undo step, or as a new design."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.actions import design_actions
from app.actions.sizing import size_to_target


def _ok(qtbot, dlg) -> None:
    assert dlg.ok_button().isEnabled(), dlg.reason.text()
    qtbot.mouseClick(dlg.ok_button(), Qt.MouseButton.LeftButton)


def test_offered_in_the_design_menu():
    assert "size-to-target" in [a.id for a in design_actions()]


def test_steps_update_live_and_refuse_the_impossible(window):
    dlg = size_to_target(window)
    assert window.last_dialog is dlg
    assert "2. drawers: 16 adapters per drawer -> 7" in dlg.summary.text()
    dlg.read.setValue(300)
    assert "1. adapters: 150 MB/s per adapter -> 2" in dlg.summary.text()
    dlg.fabrics.setCurrentIndex(dlg.fabrics.findData(2))
    assert "2 switches per drawer (two fabrics) -> 2" in dlg.summary.text()
    dlg.read.setValue(20000)
    assert not dlg.ok_button().isEnabled() and "7 is the most" in dlg.reason.text()
    dlg.reject()


def test_sized_design_as_a_new_scenario_one_undo_step(window, qtbot):
    doc = window.doc
    before = list(doc.project.scenarios)
    dlg = size_to_target(window)
    dlg.read.setValue(600)
    _ok(qtbot, dlg)
    assert not dlg.isVisible()
    assert len(doc.project.scenarios) == len(before) + 1
    topo = doc.topology
    assert len(topo.of_kind("hba")) == 4 and len(topo.of_kind("subsystem")) == 2
    assert window.last_sizing.analysis.aggregate >= 600
    doc.undo_stack.undo()
    assert list(doc.project.scenarios) == before


def test_sized_design_as_a_new_design(window, qtbot):
    dlg = size_to_target(window)
    dlg.read.setValue(300)
    dlg.dest.setCurrentIndex(dlg.dest.findData("design"))
    _ok(qtbot, dlg)
    assert len(window.doc.project.scenarios) == 1
    assert len(window.doc.topology.of_kind("hba")) == 2
